"""The remote store: a build on a real Virtuoso answers like the embedded store; batches, retries, errors.

Virtuoso runs on loopback for the session (``virtuoso.py``); the HTTP failures are played by a
small fake server in a thread.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterator

import pyoxigraph as ox
import pytest
import virtuoso

from kg.build.pipeline import build
from kg.config import Settings
from kg.errors import QueryError, StoreError
from kg.outputs.network import load_network
from kg.outputs.stats import counts
from kg.rdf.query import QUERY_DIR, run
from kg.resolve.lookup import list_entities
from kg.store import OxigraphStore, open_store
from kg.store.sparql_http import SparqlHttpStore, _staging

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ["000_c1fb5056ffc75613.txt", "01_voa_north_korea_expels_bbc.txt",
         "02_wikinews_north_korea_quasi_state_of_war.txt"]
BUILD_BASE = "https://build.kg.test/"  # not under virtuoso.BASE: the contract tests never touch these graphs
S, P = "https://kg.example.org/s", "https://kg.example.org/p"


def lines(n: int, word: str = "x") -> str:
    return "\n".join(f'<{S}{i}> <{P}> "{word} {i}" .' for i in range(n))


def rows_of(result: object) -> Counter[tuple[str, ...]]:
    """A SELECT's rows as a multiset of string tuples (order is not compared)."""
    assert isinstance(result, tuple), result
    _, rows = result
    return Counter(tuple("" if v is None else v for v in row) for row in rows)


# --- a build on Virtuoso and the same build embedded ----------------------------------------------


@pytest.fixture(scope="module")
def builds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    srv = virtuoso.server(request)
    folder = tmp_path_factory.mktemp("builds")
    inputs = folder / "seeds"
    inputs.mkdir()
    for name in SEEDS:
        shutil.copy(ROOT / "seeds" / name, inputs / name)
    stale = SparqlHttpStore(srv.dba, base=BUILD_BASE)
    for graph in stale.graphs():
        stale.remove_graph(graph)
    local_settings = Settings(store=str(folder / "store"), base=BUILD_BASE, workers=1)
    remote_settings = Settings(store=srv.dba, base=BUILD_BASE, workers=1)
    reports = {"local": build([inputs], local_settings, out_dir=folder / "local"),
               "remote": build([inputs], remote_settings, out_dir=folder / "remote")}
    local = OxigraphStore(folder / "store")
    remote = SparqlHttpStore(srv.dba, base=BUILD_BASE)  # a new one: a store reads kg's graph list once
    yield {"local": local, "remote": remote, "folder": folder, "inputs": inputs, "settings": remote_settings,
           "reports": reports, "url": srv.dba}
    local.close()


def test_build_reports_agree(builds):  # type: ignore[no-untyped-def]
    local, remote = builds["reports"]["local"], builds["reports"]["remote"]
    assert remote.articles == local.articles == len(SEEDS)
    assert (remote.events, remote.roles, remote.skipped) == (local.events, local.roles, local.skipped)


@pytest.mark.parametrize("query", sorted(p.name for p in QUERY_DIR.glob("*.rq")))
def test_canned_query_gives_the_same_rows(builds, query):  # type: ignore[no-untyped-def]
    text = (QUERY_DIR / query).read_text(encoding="utf-8")
    want = run(builds["local"], text)
    got = run(builds["remote"], text)
    assert isinstance(got, tuple) and got[0] == want[0]  # type: ignore[index]
    assert rows_of(got) == rows_of(want)


def test_canned_queries_are_not_all_empty(builds):  # type: ignore[no-untyped-def]
    sizes = {p.name: len(run(builds["local"], p.read_text(encoding="utf-8"))[1]) for p in QUERY_DIR.glob("*.rq")}  # type: ignore[index]
    assert sizes["events.rq"] > 10 and sizes["entities.rq"] > 10 and sizes["same-as.rq"] > 0, sizes


def test_exports_stats_and_graphs_agree(builds):  # type: ignore[no-untyped-def]
    local, remote, folder = builds["local"], builds["remote"], builds["folder"]
    ttl = {side: set(ox.parse(path=str(folder / side / "graph.ttl"), format=ox.RdfFormat.TURTLE)) for side in ("local", "remote")}
    assert ttl["remote"] == ttl["local"] and len(ttl["local"]) > 1000
    quads = {name: set(ox.parse(st.dump("nquads", union=False), format=ox.RdfFormat.N_QUADS))
             for name, st in (("local", local), ("remote", remote))}
    assert quads["remote"] == quads["local"]
    assert remote.graphs() == local.graphs() and BUILD_BASE + "resolution" in remote.graphs()
    assert len(remote) == len(local) == len(quads["local"])
    assert counts(remote) == counts(local)
    assert (folder / "remote" / "graph.html").stat().st_size > 10_000


def test_ask_and_construct_agree(builds):  # type: ignore[no-untyped-def]
    local, remote = builds["local"], builds["remote"]
    construct = """# the events' flags: booleans come back from Virtuoso as 0/1, and are read as false/true
PREFIX kg: <https://w3id.org/kg-news/ns#>
CONSTRUCT { ?e kg:negated ?n ; kg:action ?a } WHERE { ?e a kg:Event ; kg:negated ?n ; kg:action ?a }"""
    got, want = run(remote, construct), run(local, construct)
    assert isinstance(got, bytes) and isinstance(want, bytes)
    triples = {name: set(ox.parse(b, format=ox.RdfFormat.TURTLE)) for name, b in (("got", got), ("want", want))}
    assert triples["got"] == triples["want"] and len(triples["want"]) > 50
    for ask in ("ASK { ?e <https://w3id.org/kg-news/ns#negated> true }", "ASK { ?s ?p <urn:nothing> }"):
        assert run(remote, ask) == run(local, ask)


def test_a_bad_query_names_its_own_line(builds):  # type: ignore[no-untyped-def]
    with pytest.raises(QueryError, match="line 2: syntax error at 'SELEKT'"):
        builds["remote"].select("PREFIX kg: <https://w3id.org/kg-news/ns#>\nSELEKT ?x")


def test_entities_and_network_agree(builds):  # type: ignore[no-untyped-def]
    local, remote = builds["local"], builds["remote"]
    assert list_entities(remote, BUILD_BASE) == list_entities(local, BUILD_BASE)  # reads GRAPH <{base}resolution>
    assert load_network(remote) == load_network(local)


def test_rebuild_skips_unchanged_articles(builds):  # type: ignore[no-untyped-def]
    report = build([builds["inputs"]], builds["settings"])
    assert (report.articles, report.unchanged) == (0, len(SEEDS))


def test_cli_reads_the_remote_store(builds):  # type: ignore[no-untyped-def]
    env = {**os.environ, "KG_BASE": BUILD_BASE}
    kg = [str(Path(sys.executable).parent / "kg")]
    res = subprocess.run([*kg, "query", "roles.rq", "--format", "csv", "--store", builds["url"]],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    want = run(builds["local"], (QUERY_DIR / "roles.rq").read_text(encoding="utf-8"))
    assert len(res.stdout.strip().splitlines()) == 1 + len(want[1])  # type: ignore[index]
    stats = subprocess.run([*kg, "stats", "--store", builds["url"]], capture_output=True, text=True, env=env, timeout=120)
    assert stats.returncode == 0, stats.stderr
    assert str(counts(builds["local"])["quads"]) in stats.stdout


# --- writes in batches --------------------------------------------------------------------------


def objects(store: SparqlHttpStore, graph: str) -> set[str]:
    return {r["o"] or "" for r in store.select(f"SELECT ?o WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")}


def test_multi_batch_replace_goes_through_a_staging_graph(request):  # type: ignore[no-untyped-def]
    store = virtuoso.empty_store(request, batch_triples=7)
    g, other = virtuoso.BASE + "graph/big", virtuoso.BASE + "graph/other"
    store.replace_graph(other, lines(3, "other"))
    store.replace_graph(g, lines(50, "old"))
    assert objects(store, g) == {f"old {i}" for i in range(50)}
    store.replace_graph(g, lines(20, "new"))
    assert objects(store, g) == {f"new {i}" for i in range(20)}
    assert objects(store, other) == {f"other {i}" for i in range(3)}
    assert store.graphs() == [g, other] and len(store) == 23
    assert not store._has_triples(_staging(g))


def test_a_write_that_dies_half_way_keeps_the_old_graph(request, monkeypatch):  # type: ignore[no-untyped-def]
    store = virtuoso.empty_store(request, batch_triples=7, attempts=1)
    g = virtuoso.BASE + "graph/half"
    store.replace_graph(g, lines(30, "old"))
    assert len(store.select("SELECT * WHERE { ?s ?p ?o }")) == 30  # the union already left Virtuoso's own graphs out
    real, sent = store._post, []

    def dies_on_third_batch(body, content_type, accept):  # type: ignore[no-untyped-def]
        sent.append(body)
        if len(sent) == 4:  # DROP staging, batches 1 and 2, then the connection goes
            raise ConnectionResetError("connection reset by peer")
        return real(body, content_type, accept)

    monkeypatch.setattr(store, "_post", dies_on_third_batch)
    with pytest.raises(StoreError, match="writing graph .*half.* after 1 attempt,"):
        store.replace_graph(g, lines(30, "new"))
    monkeypatch.setattr(store, "_post", real)
    assert store._has_triples(_staging(g))  # half the new graph is staged ...
    assert objects(store, g) == {f"old {i}" for i in range(30)}  # ... the old one is whole
    assert len(store.select("SELECT * WHERE { ?s ?p ?o }")) == 30  # and queries do not see the staged half
    assert store.graphs() == [g]
    store.replace_graph(g, lines(30, "new"))
    assert objects(store, g) == {f"new {i}" for i in range(30)} and not store._has_triples(_staging(g))


def test_a_lost_answer_to_move_is_not_sent_again(request, monkeypatch):  # type: ignore[no-untyped-def]
    store = virtuoso.empty_store(request, batch_triples=5, backoff=0)
    g = virtuoso.BASE + "graph/lost"
    real, moves = store._post, []

    def loses_first_move_answer(body, content_type, accept):  # type: ignore[no-untyped-def]
        answer = real(body, content_type, accept)
        if body.startswith(b"MOVE"):
            moves.append(body)
            if len(moves) == 1:
                raise ConnectionResetError("the answer was lost")
        return answer

    monkeypatch.setattr(store, "_post", loses_first_move_answer)
    store.replace_graph(g, lines(12))
    assert len(moves) == 1  # a second MOVE from the (now missing) staging graph would empty the graph
    assert objects(store, g) == {f"x {i}" for i in range(12)}


def test_graphs_bigger_than_the_servers_answer_cap(request):  # type: ignore[no-untyped-def]
    n = virtuoso.RESULT_ROWS + 2000
    store = virtuoso.empty_store(request)
    g = virtuoso.BASE + "graph/huge"
    store.replace_graph(g, lines(n))  # one request of several GRAPH blocks (Virtuoso parses at most ~4,990 in one)
    assert len(store) == n
    assert len(list(ox.parse(store.dump("nt", union=True), format=ox.RdfFormat.N_TRIPLES))) == n
    with pytest.raises(StoreError, match="cut the answer at 10000 rows.*ResultSetMaxRows"):
        store.select("SELECT ?o WHERE { ?s ?p ?o }")
    small_pages = SparqlHttpStore(virtuoso.server(request).anonymous, base=virtuoso.BASE, page_rows=997)
    assert small_pages.dump("nquads", union=False) == store.dump("nquads", union=False)


# --- retries and errors, against a fake server --------------------------------------------------

EMPTY = json.dumps({"head": {"vars": ["o"]}, "results": {"bindings": [{"o": {"type": "literal", "value": "ok"}}]}})


class Fake:
    """A tiny HTTP server: ``answers`` gives (status, body) for the n-th POST (from 0)."""

    def __init__(self, answers: Callable[[int, dict[str, str]], tuple[int, str, dict[str, str]]]) -> None:
        self.seen: list[dict[str, str]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                fake.seen.append(dict(self.headers))
                status, body, headers = answers(len(fake.seen) - 1, dict(self.headers))
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/sparql-results+json" if status == 200 else "text/plain")
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, auth: str = "") -> str:
        return f"sparql+http://{auth}127.0.0.1:{self.httpd.server_address[1]}/sparql"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def fake() -> Iterator[Callable[..., Fake]]:
    made: list[Fake] = []

    def make(answers: Callable[[int, dict[str, str]], tuple[int, str, dict[str, str]]]) -> Fake:
        made.append(Fake(answers))
        return made[-1]

    yield make
    for f in made:
        f.close()


def test_two_503s_then_success(fake):  # type: ignore[no-untyped-def]
    srv = fake(lambda n, h: (503, "busy", {}) if n < 2 else (200, EMPTY, {}))
    store = SparqlHttpStore(srv.url(), base=virtuoso.BASE, backoff=0)
    assert store._select_plain("SELECT ?o WHERE { ?s ?p ?o }") == [{"o": "ok"}]
    assert len(srv.seen) == 3


def test_5xx_every_time_gives_up_with_a_store_error(fake):  # type: ignore[no-untyped-def]
    srv = fake(lambda n, h: (500, "Virtuoso 40001 Error SR172: Transaction deadlocked\nmore text", {}))
    store = SparqlHttpStore(srv.url(), base=virtuoso.BASE, backoff=0, attempts=3)
    with pytest.raises(StoreError) as err:
        store.remove_graph(virtuoso.BASE + "graph/a")
    assert len(srv.seen) == 3
    msg = str(err.value)
    assert "after 3 attempts" in msg and "SR172: Transaction deadlocked" in msg and "more text" not in msg
    assert "check that the SPARQL server is running" in msg


def test_4xx_is_not_retried(fake):  # type: ignore[no-untyped-def]
    srv = fake(lambda n, h: (400, "Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error\n\nSPARQL query:\n...", {}))
    store = SparqlHttpStore(srv.url(), base=virtuoso.BASE, backoff=0)
    with pytest.raises(QueryError, match="SP030: SPARQL compiler, line 1: syntax error$"):
        store._select_plain("SELEKT")
    with pytest.raises(StoreError, match="writing graph .* was refused .*: Virtuoso 37000 Error SP030"):
        store.replace_graph(virtuoso.BASE + "graph/a", lines(2))
    assert len(srv.seen) == 2


def test_basic_login_when_the_server_asks_for_it(fake):  # type: ignore[no-untyped-def]
    def answers(n: int, headers: dict[str, str]) -> tuple[int, str, dict[str, str]]:
        if headers.get("Authorization") != "Basic dXNlcjpww6Rzcw==":  # user:päss
            return 401, "", {"WWW-Authenticate": 'Basic realm="kg"'}
        return 200, EMPTY, {}

    srv = fake(answers)
    store = SparqlHttpStore(srv.url("user:p%C3%A4ss@"), base=virtuoso.BASE)
    assert store._select_plain("SELECT ?o {}") == [{"o": "ok"}]
    assert store._select_plain("SELECT ?o {}") == [{"o": "ok"}]
    assert len(srv.seen) == 3  # the second request sends the login at once
    with pytest.raises(StoreError, match="asks for a login .*USER:PASSWORD@"):
        SparqlHttpStore(srv.url(), base=virtuoso.BASE)._select_plain("SELECT ?o {}")
    with pytest.raises(StoreError, match="refused the login of user 'user'"):
        SparqlHttpStore(srv.url("user:wrong@"), base=virtuoso.BASE)._select_plain("SELECT ?o {}")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_server_is_a_one_line_store_error():  # type: ignore[no-untyped-def]
    store = open_store(f"sparql+http://127.0.0.1:{closed_port()}/sparql", base=virtuoso.BASE)
    assert isinstance(store, SparqlHttpStore)
    store.backoff = 0
    with pytest.raises(StoreError) as err:
        store.graphs()
    msg = str(err.value)
    assert "\n" not in msg and "cannot reach it" in msg and "after 4 attempts" in msg


def test_cli_on_an_unreachable_server_says_one_line(tmp_path):  # type: ignore[no-untyped-def]
    kg = Path(sys.executable).parent / "kg"
    res = subprocess.run([str(kg), "stats", "--store", f"sparql+http://127.0.0.1:{closed_port()}/sparql"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode == 1
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert StoreError.code in res.stderr and "cannot reach it" in res.stderr


@pytest.mark.parametrize("url", ["sparql+ftp://host/x", "sparql+http:///nohost", "sparql+http://h:99999/x"])
def test_bad_store_urls(url):  # type: ignore[no-untyped-def]
    with pytest.raises(StoreError, match="store URL"):
        SparqlHttpStore(url, base=virtuoso.BASE)


def test_a_query_with_a_timeout_runs_on_the_server(builds, monkeypatch):  # type: ignore[no-untyped-def]
    from kg import api

    monkeypatch.setenv("KG_BASE", BUILD_BASE)
    table = api.query("roles.rq", store=builds["url"], timeout=60)
    want = run(builds["local"], (QUERY_DIR / "roles.rq").read_text(encoding="utf-8"))
    assert isinstance(table, api.Table) and isinstance(want, tuple)
    assert table.columns == want[0] and sorted(map(str, table.rows)) == sorted(map(str, want[1]))
