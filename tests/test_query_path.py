"""``kg query`` and ``kg.api.query`` take ``kg serve``'s path (issue 34, row 3): the same guard, in the
same kind of worker, with or without ``--timeout``: SERVICE (also SERVICE SILENT in a ``.rq`` file)
reaches nothing unless ``--allow-service`` says so, ``FROM`` names graphs of the store (one it does
not hold is empty), deep nesting and a query past the memory limit are one line, never a crash."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Iterator

import pytest
from test_server_support import KG, ROOT, Listener, build_store

from kg import api
from kg.errors import QueryError, UsageError

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
GRAPH = "https://kg.example.org/graph/bergen-shooting"
NESTED = "SELECT * WHERE " + "{" * 3000 + "}" * 3000
DOUBLING = ('SELECT (STRLEN(?x34) AS ?n) WHERE { BIND("aaaaaaaa" AS ?x0) '
            + " ".join(f"BIND(CONCAT(?x{i}, ?x{i}) AS ?x{i + 1})" for i in range(34)) + " }")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("query-path") / "store")


@pytest.fixture
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


def _kg_query(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KG, "query", *args], capture_output=True, text=True, cwd=ROOT, timeout=180)


def _count(table: object) -> int:
    assert isinstance(table, api.Table) and table.rows, table
    return int(table.rows[0][0] or 0)


def test_service_is_refused_and_reaches_nothing(store: Path, listener: Listener, tmp_path: Path) -> None:
    service = f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{listener.port}/x> {{ ?s ?p ?o }} }}"
    with pytest.raises(QueryError, match="SERVICE"):
        api.query(service, store=store)  # no timeout given: guarded all the same
    rq = tmp_path / "silent.rq"
    rq.write_text(f"# calls out\nSELECT * WHERE {{ SERVICE SILENT <http://127.0.0.1:{listener.port}/x> {{ ?s ?p ?o }} }}\n",
                  encoding="utf-8")
    out = _kg_query(str(rq), "--store", str(store), "--format", "csv")
    assert out.returncode == 1 and out.stdout == "" and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "SERVICE" in out.stderr and "--allow-service" in out.stderr and "lossy" not in out.stderr
    assert listener.hits == 0


def test_allow_service_lets_a_query_call_out(store: Path, listener: Listener) -> None:
    service = f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{listener.port}/x> {{ ?s ?p ?o }} }}"
    out = _kg_query(service, "--store", str(store), "--allow-service", "--timeout", "30")
    assert listener.hits >= 1  # the worker kept its network and the SERVICE was sent
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr  # the listener hung up


def test_from_names_graphs_of_the_store_as_the_endpoint_does(store: Path) -> None:
    every = _count(api.query(COUNT, store=store))
    one = _count(api.query(f"SELECT (COUNT(*) AS ?n) FROM <{GRAPH}> WHERE {{ ?s ?p ?o }}", store=store))
    assert every > one > 0
    assert _count(api.query("SELECT (COUNT(*) AS ?n) FROM <http://x/> WHERE { ?s ?p ?o }", store=store)) == 0
    out = _kg_query("SELECT (COUNT(*) AS ?n) FROM <http://x/> WHERE { ?s ?p ?o }", "--store", str(store), "-f", "csv")
    assert out.returncode == 0 and out.stdout.split() == ["n", "0"], (out.stdout, out.stderr)


def test_deep_nesting_is_one_line_not_a_crash(store: Path) -> None:
    out = _kg_query(NESTED, "--store", str(store))
    assert out.returncode == 1 and out.stdout == "", (out.returncode, out.stderr[-500:])
    assert out.stderr.count("\n") == 1 and "nested too deep" in out.stderr
    with pytest.raises(QueryError, match="nested too deep"):
        api.query(NESTED, store=store)


def test_a_query_past_the_memory_limit_is_one_line(store: Path) -> None:
    out = _kg_query(DOUBLING, "--store", str(store), "--max-memory", "64", "--timeout", "60")
    assert out.returncode == 1 and out.stdout == "", (out.returncode, out.stderr[-500:])
    assert out.stderr.count("\n") == 1 and "--max-memory" in out.stderr and "64 MB" in out.stderr, out.stderr
    with pytest.raises(UsageError, match="memory"):
        api.query("ASK {}", store=store, max_memory=-1)


def test_an_open_store_is_queried_at_its_location(store: Path) -> None:
    from kg.store import opened

    with opened(store, read_only=True) as st:
        assert _count(api.query(COUNT, store=st)) == _count(api.query(COUNT, store=store)) > 0
