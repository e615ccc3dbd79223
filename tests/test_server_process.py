"""A real ``kg serve`` process on port 0: the URL it prints, the timeout (a worker killed
while the others keep answering), its command-line errors, and what a query costs."""
from __future__ import annotations

import json
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from test_server_support import KG, ROOT, Served, build_store

CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
ASK = "ASK { ?s ?p ?o }"
SELECTIVE = ('SELECT DISTINCT ?e WHERE { ?e <http://www.w3.org/2000/01/rdf-schema#label> "Halvard Moen" }')


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    store = build_store(tmp_path_factory.mktemp("proc") / "store")
    s = Served(store, "--timeout", "2", "--workers", "2")
    yield s
    s.close()


def _get(url: str, query: str, accept: str = "application/sparql-results+json", timeout: float = 30):
    req = urllib.request.Request(url + "sparql?" + urllib.parse.urlencode({"query": query}), headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_prints_its_url_and_binds_loopback(served: Served) -> None:
    assert served.url.startswith("http://127.0.0.1:") and "read-only" in served.line
    status, body = _get(served.url, ASK)
    assert status == 200 and json.loads(body)["boolean"] is True


def test_timeout_kills_the_query_while_an_ask_is_answered(served: Served) -> None:
    slow: dict[str, object] = {}

    def run_slow() -> None:
        t = time.monotonic()
        slow["status"], slow["body"] = _get(served.url, CARTESIAN)
        slow["seconds"] = time.monotonic() - t

    thread = threading.Thread(target=run_slow)
    thread.start()
    time.sleep(0.5)  # the cartesian product is running in one worker
    status, body = _get(served.url, ASK)
    answered_while_slow_runs = thread.is_alive()
    thread.join(timeout=30)
    assert status == 200 and json.loads(body)["boolean"] is True
    assert answered_while_slow_runs  # the other worker answered; the slow query had not ended
    assert slow["status"] == 504, slow
    assert "timeout" in str(slow["body"])
    assert float(slow["seconds"]) >= 1.9, slow  # type: ignore[arg-type]  # stopped at the timeout, not before
    # the killed worker is replaced: two slow queries in a row still time out cleanly, and then all is well
    assert _get(served.url, CARTESIAN)[0] == 504
    for _ in range(4):
        assert _get(served.url, ASK)[0] == 200


def test_sigkill_of_the_server_takes_its_workers_along(tmp_path: Path) -> None:
    store = build_store(tmp_path / "store")
    s = Served(store, "--workers", "1")
    try:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(s.proc.pid)], capture_output=True, text=True)
        workers = [int(p) for p in out.stdout.split()]
        assert workers, "no worker processes"
        s.proc.kill()
        s.proc.wait()

        def alive(pid: int) -> bool:
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    return fh.read().split(") ")[-1][0] != "Z"
            except FileNotFoundError:
                return False

        deadline = time.monotonic() + 5
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(p) for p in workers)
    finally:
        s.close()


@pytest.mark.parametrize("args, message", [
    (["--allow-update"], "--token"),
    (["--cors", "*"], "--cors"),
    (["--store", "/nonexistent/kg-store"], "no store at"),
    (["--timeout", "-1"], "--timeout"),
])
def test_command_line_errors(args: list[str], message: str, tmp_path: Path) -> None:
    store = ["--store", str(tmp_path / "s")] if "--store" not in args else []
    (tmp_path / "s").mkdir()
    proc = subprocess.run([KG, "serve", "--port", "0", *store, *args], capture_output=True, text=True, timeout=30,
                          cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
