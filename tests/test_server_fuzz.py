"""A fuzz of ``kg serve``'s parameters: random methods, paths, query strings, headers and
bodies (with SPARQL fragments mixed in) against the TestClient: never a 500, never a
connection to the listener that SERVICE / FROM / LOAD name."""
from __future__ import annotations

from typing import Iterator
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_server_support import Listener, build_store, client

TOKEN = "fuzz-token-0123456789"


@pytest.fixture(scope="module")
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory, listener: Listener) -> Iterator:  # type: ignore[type-arg]
    store = build_store(tmp_path_factory.mktemp("fuzz") / "store")
    with client(store, allow_update=True, token=TOKEN, max_body=20_000, timeout=5.0,
                cors="http://localhost:3000") as cl:
        yield cl


def _fragments(port: int) -> list[str]:
    target = f"<http://127.0.0.1:{port}/x>"
    return [
        "SELECT", "ASK", "CONSTRUCT", "DESCRIBE", "WHERE", "{", "}", "(", ")", "[", "]", "?s", "?p", "?o", "$x", ".",
        ";", ",", "*", "FILTER", "BIND", "AS", "UNION", "OPTIONAL", "MINUS", "VALUES", "GRAPH", "SERVICE", "SILENT",
        "FROM", "NAMED", "LOAD", "INTO", "USING", "WITH", "INSERT", "DELETE", "DATA", "CLEAR", "DROP", "ALL",
        "PREFIX", "BASE", "ex:", "<http://a>", target, "<file:///etc/passwd>", '"lit"', "'x'", '"""long"""', "@en",
        "^^", "1", "-2.5e3", "true", "#", "\n", "\\u0053", "\\U00000045", "<", ">", "!", "||", "&&", "=", "+",
        "LIMIT", "ORDER BY", "GROUP BY", "COUNT(*)", "a", "\x00", "\udcff", "é", "中", "'''", '"', "\\",
    ]


@st.composite
def sparql_text(draw: st.DrawFn, port: int) -> str:
    parts = draw(st.lists(st.one_of(st.sampled_from(_fragments(port)), st.text(max_size=8)), max_size=40))
    return " ".join(parts)


@st.composite
def near_valid_query(draw: st.DrawFn, port: int) -> str:
    """Mostly well-formed queries (so the fuzz also reaches the store), sometimes mutated."""
    patterns = [
        "?s ?p ?o .", "?s <http://www.w3.org/2000/01/rdf-schema#label> ?l .", 'FILTER(?l != "x")',
        "OPTIONAL { ?s ?p ?o }", "{ ?s ?p ?o } UNION { ?o ?p ?s }", "BIND(1 AS ?x)", "VALUES ?v { 1 2 }",
        "GRAPH ?g { ?s ?p ?o }", "MINUS { ?s a ?t }", "FILTER EXISTS { ?s ?p ?o }", "?s ?p ?o FILTER(isIRI(?o))",
        f"SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }}", "FILTER(REGEX(STR(?o), \"^a\", \"i\"))",
    ]
    head = draw(st.sampled_from(["SELECT * WHERE", "SELECT DISTINCT ?s WHERE", "ASK", "CONSTRUCT WHERE",
                                 "SELECT (COUNT(*) AS ?n) WHERE", "DESCRIBE ?s WHERE",
                                 f"SELECT * FROM <http://127.0.0.1:{port}/> WHERE"]))
    body = draw(st.lists(st.sampled_from(patterns), min_size=1, max_size=3))
    if head == "CONSTRUCT WHERE":
        body = ["?s ?p ?o ."]
    text = "PREFIX ex: <http://e/> " * draw(st.booleans()) + head + " { " + " ".join(body) + " }"
    if head.startswith(("SELECT *", "SELECT DISTINCT", "DESCRIBE")):
        text += " LIMIT 10"
    if draw(st.integers(0, 3)) == 0:  # mutate: insert a fragment somewhere
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(_fragments(port))) + text[at:]
    return text


@st.composite
def requests(draw: st.DrawFn, port: int) -> dict:  # type: ignore[type-arg]
    method = draw(st.sampled_from(["GET"] * 4 + ["POST"] * 5 + ["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]))
    path = draw(st.sampled_from(["/sparql"] * 8 + ["/store", "/store", "/", "/queries", "/entity/person/x",
                                 "/entity/person/halvard-moen", "/entity/%00/%FF", "/static/query.js", "/nope",
                                 "/entity/", "/view"]))
    keys = st.sampled_from(["query", "update", "default-graph-uri", "named-graph-uri", "using-graph-uri", "graph",
                            "default", "format", "x"])
    values = st.one_of(sparql_text(port), near_valid_query(port), st.text(max_size=20), st.sampled_from(["", "turtle", "http://a/"]))
    params = draw(st.lists(st.tuples(keys, values), max_size=4))
    raw_qs = draw(st.one_of(st.none(), st.binary(max_size=40)))
    headers = {}
    if draw(st.booleans()):
        headers["Accept"] = draw(st.one_of(st.sampled_from([
            "*/*", "text/csv", "text/turtle", "application/sparql-results+json;q=0.5, text/*;q=0.1", "image/png",
            "application/ld+json", "text/html", ";;;", "q=1", "*/*;q=abc", "*/*;q=NaN"]), st.text(max_size=30)))
    if draw(st.booleans()):
        headers["Content-Type"] = draw(st.one_of(st.sampled_from([
            "application/x-www-form-urlencoded", "application/sparql-query", "application/sparql-update",
            "application/sparql-query; charset=latin-1", "text/turtle", "application/n-triples", "multipart/form-data",
            "text/plain", ""]), st.text(max_size=30)))
    if draw(st.booleans()):
        headers["Authorization"] = draw(st.sampled_from([f"Bearer {TOKEN}", "Bearer nope", "Basic x", ""]))
    if draw(st.booleans()):
        headers["Origin"] = draw(st.sampled_from(["http://localhost:3000", "http://evil.example", "null"]))
    body = draw(st.one_of(
        st.just(b""),
        sparql_text(port).map(lambda s: s.encode("utf-8", "surrogatepass")),
        st.binary(max_size=200),
        st.lists(st.tuples(keys, sparql_text(port)), max_size=3).map(
            lambda kv: "&".join(f"{k}={quote_from_bytes(v.encode('utf-8', 'surrogatepass'))}" for k, v in kv).encode()),
    ))
    return {"method": method, "path": path, "params": params, "raw_qs": raw_qs, "headers": headers, "body": body}


def test_fuzz_never_a_500(c, listener: Listener) -> None:  # type: ignore[no-untyped-def]
    statuses: dict[int, int] = {}

    @settings(max_examples=300, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(requests(listener.port))
    def one(req: dict) -> None:  # type: ignore[type-arg]
        url = req["path"]
        if req["raw_qs"] is not None:
            url += "?" + quote_from_bytes(req["raw_qs"], safe="=&%+")
        headers = {k: v.encode("utf-8", "surrogateescape").decode("latin-1", "replace")
                   for k, v in req["headers"].items()}
        try:
            r = c.request(req["method"], url, params=None if req["raw_qs"] is not None else [
                (k, v.encode("utf-8", "surrogatepass").decode("utf-8", "replace")) for k, v in req["params"]],
                headers=headers, content=req["body"] or None)
        except UnicodeEncodeError:  # httpx refuses headers it cannot encode: not our concern
            return
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        assert r.status_code < 500 or r.status_code in (503, 504), (req, r.status_code, r.text[:500])

    one()
    assert listener.hits == 0
    assert sum(n for s, n in statuses.items() if s >= 500) <= 3, statuses
    assert {200, 400, 401, 404, 405} <= set(statuses), statuses  # it reached many kinds of answer


def test_fuzz_query_text(c, listener: Listener) -> None:  # type: ignore[no-untyped-def]
    """Random SPARQL-ish text by each of the three ways: an answer or a 4xx, and nothing leaves."""
    seen: dict[int, int] = {}

    @settings(max_examples=300, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.one_of(sparql_text(listener.port), near_valid_query(listener.port)),
           st.sampled_from(["get", "form", "direct", "update"]))
    def one(text: str, how: str) -> None:
        safe = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        if how == "get":
            r = c.get("/sparql", params={"query": safe})
        elif how == "form":
            r = c.post("/sparql", data={"query": safe})
        elif how == "direct":
            r = c.post("/sparql", content=text.encode("utf-8", "surrogatepass"),
                       headers={"Content-Type": "application/sparql-query"})
        else:
            r = c.post("/sparql", data={"update": safe}, headers={"Authorization": f"Bearer {TOKEN}"})
        seen[r.status_code] = seen.get(r.status_code, 0) + 1
        assert r.status_code in (200, 204, 400, 406, 413), (text, how, r.status_code, r.text[:300])

    one()
    assert listener.hits == 0
    assert {200, 400} <= set(seen), seen
