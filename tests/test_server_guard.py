"""What Oxigraph runs is what the guard checked (issue 26, case 2): the text is read by one exact
lexer and written again without comments or escapes, and that text is checked and run. With the
workers' network isolation turned off, neither the bypass of the issue nor any mix of escapes,
comments, strings and IRIs around SERVICE or LOAD reaches a loopback listener."""
from __future__ import annotations

import gc
import platform
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_server_support import build_store, client

from kg.sparql.guard import check
from kg.sparql.lexer import Rejected, canonical, tokens
from kg.sparql.pool import WorkerPool
from kg.sparql.sandbox import SANDBOX_ENV

TOKEN = "guard-token-0123456789"
#: The query of the issue: the old lexer took ``#" AS ?y) ...`` for a comment (after ``ex:\#``),
#: rdflib expanded ``\u0022`` before parsing, and Oxigraph ran the SERVICE.
BYPASS = ('PREFIX ex: <http://e/> SELECT * WHERE {{ VALUES ?v {{ ex:\\# }} BIND("\\u0022 AS ?x) }} #" AS ?y) '
          "SERVICE <{target}> {{ ?x ?b ?c }} }}")


class Listener:
    """A TCP listener on 127.0.0.1:0 that counts the requests Oxigraph sends it (``hits``: SERVICE
    and LOAD send ``User-Agent: Oxigraph/...``). Other connections (a test elsewhere on the machine
    that tries a port it thinks free) are only kept in ``strays``."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self.strays: list[bytes] = []
        self._stop = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._read, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket) -> None:
        conn.settimeout(2)
        head = b""
        try:
            while b"\r\n\r\n" not in head and len(head) < 8192:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                head += chunk
        except OSError:
            pass
        finally:
            conn.close()
        if b"oxigraph" in head.lower():
            self.hits += 1
        else:
            self.strays.append(head[:200])

    def wait(self, seconds: float = 3.0) -> None:
        """Give a connection under way the time to be read."""
        deadline = time.monotonic() + seconds
        while self.hits == 0 and time.monotonic() < deadline:
            time.sleep(0.05)

    def close(self) -> None:
        self._stop = True
        self.thread.join(timeout=2)
        self.sock.close()


@pytest.fixture(autouse=True)
def _free_results_here() -> Iterator[None]:
    """Free, on this thread, the pyoxigraph results that an error's traceback kept in a cycle: one may
    only be dropped by the thread that made it, and a later test's thread would meet it at its gc."""
    yield
    gc.collect()


@pytest.fixture(scope="module")
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


@pytest.fixture(scope="module")
def unisolated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """A server whose workers keep the network (as where the kernel refuses ``unshare``)."""
    mp = pytest.MonkeyPatch()
    mp.setenv(SANDBOX_ENV, "off")
    store = build_store(tmp_path_factory.mktemp("guard") / "store")
    try:
        with client(store, allow_update=True, token=TOKEN, timeout=5.0) as c:
            yield c
    finally:
        mp.undo()


def test_done_when_the_bypass_of_the_issue_gets_400_and_reaches_nothing(unisolated, listener: Listener) -> None:
    q = BYPASS.format(target=f"http://127.0.0.1:{listener.port}/x")
    r = unisolated.post("/sparql", data={"query": q})
    assert r.status_code == 400 and "SERVICE" in r.text, r.text
    r = unisolated.post("/sparql", data={"update": q.replace("SELECT * WHERE", "INSERT DATA { <http://a> <http://b> 1 } ;"
                                                                            " LOAD <http://e/> ; INSERT")},
                        headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 400
    # the same trick hid 400,000 nested groups from the depth limit; they crashed a worker
    deep = BYPASS.format(target="http://e/").replace("SERVICE <http://e/> { ?x ?b ?c }", "{" * 5000 + "}" * 5000)
    r = unisolated.post("/sparql", data={"query": deep})
    assert r.status_code == 400 and "nested too deep" in r.text
    listener.wait(0.5)
    assert listener.hits == 0, listener.strays


def test_with_isolation_off_a_worker_can_connect(tmp_path: Path) -> None:
    """The tests here mean something only if a worker could connect: past the guard (a server-built
    query, which is not checked), a SERVICE does reach the listener."""
    own = Listener()
    pool = WorkerPool(build_store(tmp_path / "store"), size=1)
    mp = pytest.MonkeyPatch()
    mp.setenv(SANDBOX_ENV, "off")
    try:
        pool.start()
        assert not pool.sandboxed
        pool.run({"op": "select", "queries": [f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{own.port}/x> {{ }} }}"]},
                 timeout=10)
        own.wait(10)
        assert own.hits > 0
    finally:
        mp.undo()
        pool.close()
        own.close()


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.machine().lower() not in ("x86_64", "aarch64"),
                    reason="the seccomp filter is for Linux on x86-64 and arm64")
def test_where_unshare_is_refused_the_seccomp_filter_still_keeps_a_worker_off_the_network(tmp_path: Path) -> None:
    own = Listener()
    pool = WorkerPool(build_store(tmp_path / "store"), size=1)
    mp = pytest.MonkeyPatch()
    mp.setenv(SANDBOX_ENV, "seccomp")  # the filter alone, as where the kernel refuses a network namespace
    try:
        pool.start()
        assert pool.sandboxed
        reply = pool.run({"op": "select", "queries": [
            f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{own.port}/x> {{ }} }}"]}, timeout=10)
        assert reply.status >= 400  # past the guard (a server-built query), the socket is refused
        assert pool.run({"op": "select", "queries": ["SELECT * WHERE { ?s ?p ?o } LIMIT 1"]}, timeout=10).status == 200
        own.wait(0.5)
        assert own.hits == 0
    finally:
        mp.undo()
        pool.close()
        own.close()


# --- the fuzz --------------------------------------------------------------------------------------

_AROUND = [
    "\\u0022", "\\u0027", "\\U00000022", "\\u003E", "\\u003C", "\\u0023", "\\u0053ERVICE", "\\\\", '\\"', "\\'",
    "\\#", "#", "#\n", '#"', "#'", "#>", "\n", " ", '"', "'", '"""', "'''", '"x"', "'#'", '"\\""', "<", ">",
    "<http://a/>", "<http://a/#>", "<#>", "<\\u0023>", "ex:", "ex:\\#", "ex:\\'", "ex:a", ":\\#", "ex:\\\"",
    "{", "}", "(", ")", "?x ?b ?c", "?x ?b ?c .", "BIND(", " AS ?x)", "VALUES ?v {", "FILTER(", "1", "a",
    "SERVICE", "SILENT", "LOAD", "INTO", "GRAPH", "service", "SERVICESILENT", "LOAD<", "SERVIC", "E",
]


def _target(port: int) -> list[str]:
    return [f"<http://127.0.0.1:{port}/x>", f"<http://127.0.0.1:{port}/\\u0078>",
            f"SERVICE <http://127.0.0.1:{port}/x> {{ ?x ?b ?c }}", f"LOAD <http://127.0.0.1:{port}/x>",
            f"SERVICE SILENT <http://127.0.0.1:{port}/x> {{ }}", f"SERVICE<http://127.0.0.1:{port}/x>{{}}"]


#: Slots of a text built like the bypass: a value, a string, what comes before the SERVICE (or
#: LOAD), what comes after. Each reader must agree where a comment, a string, an IRI ends.
_VALUES = ["ex:\\#", "ex:\\'", 'ex:\\"', "ex:a", "<http://a/#>", '"#"']
_STRINGS = ['"\\u0022 ', "'\\u0027 ", '"\\U00000022 ', '"\\"" ', '"x" ', "'''\\u0027''' ", '"""\\u0022 ', '"\\\\" ']
_BEFORE = ['#"', "#'", '"', "#", "\n", '#"""']
_AFTER = ['#"', "#'", '"', "'", "\n", "", "# }", '"""']


@st.composite
def attempts(draw: st.DrawFn, port: int) -> tuple[str, bool]:
    """A text that hides a SERVICE (or, for an update, a LOAD) among escapes, comments and strings:
    built like the bypass of the issue from slots, or from random pieces."""
    target = f"<http://127.0.0.1:{port}/x>"
    value, string = draw(st.sampled_from(_VALUES)), draw(st.sampled_from(_STRINGS))
    before, after = draw(st.sampled_from(_BEFORE)), draw(st.sampled_from(_AFTER))
    shape = draw(st.sampled_from(["query", "update", "pieces"]))
    if shape == "query":
        return (f"PREFIX ex: <http://e/> SELECT * WHERE {{ VALUES ?v {{ {value} }} BIND({string}AS ?x) }} "
                f"{before} AS ?y) SERVICE {target} {{ ?x ?b ?c }} }}{after}", False)
    if shape == "update":
        return (f"PREFIX ex: <http://e/> INSERT DATA {{ <http://a> <http://b> {value} }} ; INSERT DATA {{ "
                f"<http://a> <http://b> {string}}} {before} }} ; LOAD {target} {after}", True)
    pieces = st.lists(st.sampled_from(_AROUND + _target(port)), max_size=12)
    head, tail = "".join(draw(pieces)), "".join(draw(pieces))
    if draw(st.booleans()):
        return (f"PREFIX ex: <http://e/> INSERT DATA {{ <http://a> <http://b> {head} }} ; {tail} LOAD {target}",
                True)
    return f"PREFIX ex: <http://e/> SELECT * WHERE {{ {head} SERVICE {target} {{ ?x ?b ?c }} {tail} }}", False


def _run_as_the_worker(text: str, update: bool) -> None:
    """What a worker does: the canonical text, checked by rdflib, run by Oxigraph (isolation off:
    this process has the network). A refusal anywhere is fine; a connection is not."""
    try:
        sure = canonical(text, update)
        check(sure, update)
    except Rejected:
        return
    store = ox.Store()
    try:
        if update:
            store.update(sure)
        else:
            res = store.query(sure)
            if isinstance(res, (ox.QuerySolutions, ox.QueryTriples)):
                list(res)
    except (OSError, SyntaxError, ValueError, RuntimeError):
        pass


def test_fuzz_nothing_hidden_among_escapes_comments_strings_and_iris_runs(listener: Listener) -> None:
    @settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(case=attempts(listener.port))
    @example(case=(BYPASS.format(target=f"http://127.0.0.1:{listener.port}/x"), False))
    @example(case=(f"PREFIX ex: <http://e/> SELECT * WHERE {{ SERVICESILENT<http://127.0.0.1:{listener.port}/>{{}} }}",
                   False))
    @example(case=(f"PREFIX s: <http://127.0.0.1:{listener.port}/> SELECT * WHERE {{ services:x {{ ?a ?b ?c }} }}",
                   False))
    def run(case: tuple[str, bool]) -> None:
        _run_as_the_worker(*case)

    run()
    listener.wait(0.5)
    assert listener.hits == 0, listener.strays


def test_fuzz_through_the_unisolated_server(unisolated, listener: Listener) -> None:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(case=attempts(listener.port))
    def run(case: tuple[str, bool]) -> None:
        text, update = case
        if update:
            r = unisolated.post("/sparql", data={"update": text}, headers={"Authorization": f"Bearer {TOKEN}"})
        else:
            r = unisolated.post("/sparql", data={"query": text})
        assert r.status_code != 500, (text, r.text[:300])

    run()
    listener.wait(0.5)
    assert listener.hits == 0, listener.strays


@pytest.mark.parametrize("text", [
    'SELECT ?x WHERE { BIND("a # not a comment" AS ?x) } # a comment',
    "SELECT * WHERE { ?s ?p '''it's\n\"quoted\"''' }",
    'PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:a\\.b ?o } LIMIT 1',
    'SELECT * WHERE { ?s ?p "caf\\u00e9" . ?s ?p <http://e/\\u00e9> }',
    'SELECT (COALESCE(?a, 1) AS ?x) WHERE { ?a ?b ?c FILTER(?c != "x"@en && ?c < 3) }',
    'SELECT * WHERE { ?s ?p "x"^^<http://www.w3.org/2001/XMLSchema#string> }',
])
def test_canonical_text_means_what_the_text_meant(text: str) -> None:
    """Oxigraph gives the canonical text the algebra it gives the text as sent (over one store)."""
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode("http://e/s"), ox.NamedNode("http://e/a.b"), ox.Literal("it's\n\"quoted\"")))
    store.add(ox.Quad(ox.NamedNode("http://e/s"), ox.NamedNode("http://e/p"), ox.Literal("caf\u00e9")))
    sure = canonical(text)
    check(sure)
    assert not [k for k, _, _ in tokens(sure) if k == "comment"] and "\\u" not in sure

    def rows(q: str) -> list[str]:
        return sorted(str(list(r)) for r in store.query(q))  # type: ignore[union-attr]

    assert rows(sure) == rows(text)


def test_a_prefixed_name_with_escapes_needs_an_absolute_prefix() -> None:
    assert "<http://e/#>" in canonical("PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:\\# ?o }")
    with pytest.raises(Rejected, match="write the IRI in full"):
        canonical("BASE <http://b/> PREFIX ex: <rel/> SELECT * WHERE { ?s ex:\\# ?o }")
    with pytest.raises(Rejected, match="does not parse"):
        canonical("SELECT * WHERE { ?s ?p \\u003Fo }")  # an escape outside a string or an IRI
