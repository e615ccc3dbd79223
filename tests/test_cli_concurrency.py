"""kg commands side by side (issue 26, cases 7, 8 and 9): two curation commands on one file both
land, worker processes die with a killed build, and the read commands answer while a build writes."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_server_support import build_store
from typer.testing import CliRunner

from kg.cli import app
from kg.resolve.curation import load

ROOT = Path(__file__).resolve().parents[1]

#: The command line, with a pause while a curation command holds the file it read: it waits (up to
#: 3 s) until the other command has read it too, which an unlocked read-modify-write lets happen.
SLOW_CURATION = """
import sys, time
from pathlib import Path
import kg.resolve.rules as resolve

real = resolve.compute
mine, other = Path(sys.argv.pop(1)), Path(sys.argv.pop(1))

def compute(*args, **kwargs):
    result = real(*args, **kwargs)
    mine.touch()
    deadline = time.monotonic() + 3
    while not other.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return result

resolve.compute = compute
from kg.cli import run
run()
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_two_merges_on_one_curation_file_both_land(tmp_path: Path) -> None:
    one = build_store(tmp_path / "one")
    two = tmp_path / "two"
    shutil.copytree(one, two, ignore=shutil.ignore_patterns("LOCK"))
    curation = tmp_path / "curation.toml"
    marks = [tmp_path / "a.read", tmp_path / "b.read"]
    runs = []
    for store, (a, b), (mine, other) in ((one, ("Halvard Moen", "Idris Kamara"), marks),
                                         (two, ("Iron Wolves", "Fisheries Ministry"), marks[::-1])):
        runs.append(subprocess.Popen(
            [sys.executable, "-c", SLOW_CURATION, str(mine), str(other), "merge", a, b, "--store", str(store),
             "--curation", str(curation)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env()))
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0 and "wrote" in err, err
    merged = {tuple(sorted(e.values["entities"])) for e in load(curation).of("merge")}
    assert len(merged) == 2, merged  # neither decision is lost


#: A build whose jobs never end (and that loads no model): its worker processes stay busy until
#: the driver is killed.
STUCK_BUILD = """
import time
import kg.build.workers as workers

def stuck(job, spec):
    time.sleep(120)

workers.run_job = stuck
workers.model = lambda name: None
from kg.cli import run
run()
"""


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_worker_processes_die_when_the_build_is_killed(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for i in range(8):
        (src / f"a{i}.txt").write_text(f"Article {i} of an invented town.\n", encoding="utf-8")
    build = subprocess.Popen([sys.executable, "-c", STUCK_BUILD, "build", str(src), "--store", str(tmp_path / "st"),
                              "--workers", "2", "--no-out"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=_env())
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(build.pid)) < 2 and time.monotonic() < deadline and build.poll() is None:
            time.sleep(0.05)
        assert len(workers) >= 2, "the build started no worker processes"
        time.sleep(0.3)  # the workers have started their jobs
        build.kill()  # SIGKILL: the driver can stop no one
        build.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers)
    finally:
        build.kill()
        for w in workers | _children(build.pid):
            if _alive(w):
                os.kill(w, 9)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_read_commands_answer_while_a_build_writes_the_store(tmp_path: Path) -> None:
    store = build_store(tmp_path / "store")
    src = tmp_path / "in"
    src.mkdir()
    for i in range(8):
        (src / f"a{i}.txt").write_text(f"Article {i} of an invented town.\n", encoding="utf-8")
    build = subprocess.Popen([sys.executable, "-c", STUCK_BUILD, "build", str(src), "--store", str(store),
                              "--workers", "2", "--no-out"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=_env())
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(build.pid)) < 2 and time.monotonic() < deadline and build.poll() is None:
            time.sleep(0.05)
        assert len(workers) >= 2  # the build holds the store (its writer's lock) and waits for its workers
        for args in (("stats",), ("query", "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "-f", "csv"),
                     ("export", "-f", "nt"), ("entities", "-f", "json"), ("show", "Halvard Moen")):
            res = CliRunner().invoke(app, [*args, "--store", str(store)])
            assert res.exit_code == 0, (args, res.output[-1000:])
            assert res.stdout.strip() and "locked" not in res.output
    finally:
        build.kill()
        build.wait(timeout=10)
        for w in workers:
            if _alive(w):
                os.kill(w, 9)


# --- what reaches the terminal -------------------------------------------------------------------

ESC_NAME = "Zed\x1b[31m Quint\x1b]0;owned\x07"  # colour, then a window title
BIDI_NAME = "Ora\u202eknaB"  # shown reversed after the override
SENTENCE = f"{ESC_NAME} attacked {BIDI_NAME} today\x9b2J."  # CSI: clear the screen
ENTITY = "https://kg.example.org/entity/"


def _hostile_store(path: Path) -> Path:
    from kg.build.jobs import to_graph
    from kg.build.writer import write_article
    from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence
    from kg.model.iris import Minter
    from kg.store import OxigraphStore

    art = Article(id="odd", text=SENTENCE, title="Title\x1b[2J", content_hash="h-odd")
    ents = {"a": Entity("a", ESC_NAME, "Person"), "b": Entity("b", BIDI_NAME, "Organization")}
    event = Event("a", "attack", Evidence(text=SENTENCE, start=0, end=len(SENTENCE)), target="b")
    store = OxigraphStore(path)
    try:
        write_article(store, to_graph(ArticleFacts(art, ents, [event], []), Minter("https://kg.example.org/")))
    finally:
        store.close()
    return path


def test_control_characters_from_the_store_never_reach_the_terminal(tmp_path: Path) -> None:
    store = _hostile_store(tmp_path / "store")
    raw = ("\x1b", "\x9b", "\u202e", "\x07")
    for args in (("entities",), ("entities", "-f", "json"), ("query", "SELECT ?s ?o WHERE { ?s ?p ?o }", "-f", "table"),
                 ("query", "SELECT ?o WHERE { ?s ?p ?o }", "-f", "json"), ("path", f"{ENTITY}person/zed-31m-quint-0-owned",
                                                                            f"{ENTITY}organization/ora-knab"),
                 ("show", "person/zed-31m-quint-0-owned"), ("show", "organization/ora-knab", "-f", "json"),
                 ("analyze", "--top", "3")):
        res = CliRunner().invoke(app, [*args, "--store", str(store)])
        out = res.output
        assert not [c for c in raw if c in out], (args, out[-2000:])
        if "json" not in args:
            assert "\\x1b" in out or "\\u202e" in out, (args, res.exit_code, out[-2000:])


# --- the update token ---------------------------------------------------------------------------


def test_the_update_token_comes_from_a_file_or_kg_token_not_the_command_line(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    from test_server_support import Served

    store = build_store(tmp_path / "store")
    secret = "file-token-0123456789"
    (tmp_path / "token").write_text(secret + "\n", encoding="utf-8")
    (tmp_path / "token").chmod(0o600)

    def update(url: str, token: str) -> int:
        req = urllib.request.Request(url + "sparql", data=b"update=CLEAR%20SILENT%20GRAPH%20%3Chttp%3A%2F%2Fnone%2F%3E",
                                     headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code

    served = Served(store, "--allow-update", "--token-file", str(tmp_path / "token"))
    try:
        if sys.platform.startswith("linux"):
            assert secret not in Path(f"/proc/{served.proc.pid}/cmdline").read_text()
        assert update(served.url, secret) == 204 and update(served.url, "wrong") == 401
    finally:
        served.close()
    res = CliRunner().invoke(app, ["serve", "--store", str(store), "--allow-update", "--token", "t0123",
                                   "--token-file", str(tmp_path / "token")])
    assert res.exit_code == 2 and "once" in res.output


def test_kg_token_when_updates_are_on_and_token_with_a_warning(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from kg.cli.serve import _serve_token

    monkeypatch.setenv("KG_TOKEN", "env-token-0123456789")
    assert _serve_token(None, None, updates=True) == "env-token-0123456789"
    assert _serve_token(None, None, updates=False) is None  # a read-only server has no use for it
    assert capsys.readouterr().err == ""
    assert _serve_token("flag-token", None, updates=True) == "flag-token"  # still works, but warns
    assert "--token is visible to every user" in capsys.readouterr().err
