"""``kg serve`` over FastAPI's TestClient: the SPARQL 1.1 Protocol, its negative cases, and
the guards (no SERVICE/LOAD/FROM, read-only by default, limits, CORS, Host)."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
import time
from pathlib import Path
from typing import Iterator
from xml.etree import ElementTree

import pyoxigraph as ox
import pytest
import viewsamples as vs
from test_server_support import CROWD, ODD_NAME, ODD_PERSON, ORIGIN, Listener, build_store, client

from kg.errors import UsageError
from kg.model.vocab import KG_NS
from kg.serve.config import ServeConfig, check_config
from kg.serve.middleware import HostGuard
from kg.serve.protocol import negotiate
from kg.serve.vendor import YASGUI_FILES

LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SELECT_LABELS = f"SELECT ?e ?l WHERE {{ ?e <{LABEL}> ?l }} ORDER BY ?l ?e"
MOEN_Q = f'SELECT DISTINCT ?e WHERE {{ ?e <{LABEL}> "Halvard Moen" }}'
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
DIRECT = {"Content-Type": "application/sparql-query"}
TOKEN = "s3cret-token-for-tests"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("srv") / "store", odd=True)


@pytest.fixture(scope="module")
def c(store: Path) -> Iterator:  # type: ignore[type-arg]
    with client(store, max_rows=500) as cl:
        yield cl


def _rows(resp) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    assert resp.status_code == 200, resp.text
    data = resp.json()
    return [{k: v["value"] for k, v in b.items()} for b in data["results"]["bindings"]]


# --- the three ways to send a query, and content negotiation ----------------------------------


def test_get_form_and_direct_post_give_the_same_rows(c) -> None:  # type: ignore[no-untyped-def]
    by_get = _rows(c.get("/sparql", params={"query": SELECT_LABELS}))
    by_form = _rows(c.post("/sparql", data={"query": SELECT_LABELS}))
    by_direct = _rows(c.post("/sparql", content=SELECT_LABELS.encode(), headers=DIRECT))
    assert by_get == by_form == by_direct
    assert {"e": vs.MOEN, "l": "Halvard Moen"} in by_get
    assert any(r["l"] == vs.IMG for r in by_get)  # hostile text comes back as data


@pytest.mark.parametrize("accept, media", [
    (None, "application/sparql-results+json"),
    ("*/*", "application/sparql-results+json"),
    ("application/sparql-results+json", "application/sparql-results+json"),
    ("application/json", "application/sparql-results+json"),
    ("application/sparql-results+xml", "application/sparql-results+xml"),
    ("text/csv", "text/csv"),
    ("text/tab-separated-values", "text/tab-separated-values"),
    ("text/csv;q=0.5, application/sparql-results+xml;q=0.9", "application/sparql-results+xml"),
    ("text/*", "text/csv"),
])
def test_select_content_negotiation(c, accept: str | None, media: str) -> None:  # type: ignore[no-untyped-def]
    headers = {"Accept": accept} if accept else {}
    r = c.get("/sparql", params={"query": MOEN_Q}, headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].split(";")[0] == media
    assert r.headers["vary"] == "Accept"
    if media.endswith("json"):
        assert _rows(r) == [{"e": vs.MOEN}]
    elif media.endswith("xml"):
        ns = "{http://www.w3.org/2005/sparql-results#}"
        assert [u.text for u in ElementTree.fromstring(r.content).iter(ns + "uri")] == [vs.MOEN]
    elif media == "text/csv":
        assert r.text == f"e\r\n{vs.MOEN}\r\n"
    else:
        assert r.text == f"?e\n<{vs.MOEN}>\n"


def test_ask_and_graph_results(c) -> None:  # type: ignore[no-untyped-def]
    assert c.get("/sparql", params={"query": "ASK { ?s ?p ?o }"}).json() == {"head": {}, "boolean": True}
    r = c.get("/sparql", params={"query": "ASK { ?s ?p ?o }"}, headers={"Accept": "application/sparql-results+xml"})
    assert "<boolean>true</boolean>" in r.text
    construct = f"CONSTRUCT {{ ?e <{LABEL}> ?l }} WHERE {{ ?e <{LABEL}> ?l }}"
    for accept, fmt in (("text/turtle", ox.RdfFormat.TURTLE), ("application/n-triples", ox.RdfFormat.N_TRIPLES),
                        ("application/ld+json", ox.RdfFormat.JSON_LD)):
        r = c.post("/sparql", data={"query": construct}, headers={"Accept": accept})
        assert r.status_code == 200 and r.headers["content-type"].startswith(accept), r.text
        triples = list(ox.parse(r.content, format=fmt))
        assert ox.Triple(ox.NamedNode(vs.MOEN), ox.NamedNode(LABEL), ox.Literal("Halvard Moen")) in {
            ox.Triple(t.subject, t.predicate, t.object) for t in triples}
    r = c.get("/sparql", params={"query": f"DESCRIBE <{vs.MOEN}>"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/turtle")


@pytest.mark.parametrize("query, accept", [
    (MOEN_Q, "image/png"),
    (MOEN_Q, "text/turtle"),  # a SELECT cannot be Turtle
    ("CONSTRUCT WHERE { ?s ?p ?o }", "text/csv"),  # a graph cannot be CSV
    (MOEN_Q, "application/sparql-results+json;q=0"),
])
def test_406_when_no_acceptable_format(c, query: str, accept: str) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/sparql", params={"query": query}, headers={"Accept": accept})
    assert r.status_code == 406, r.text


def test_negotiate_unit() -> None:
    offered = ["a/x", "b/y"]
    assert negotiate(None, offered) == "a/x"
    assert negotiate("b/y, a/x;q=0.1", offered) == "b/y"
    assert negotiate("*/*;q=0.1, b/*", offered) == "b/y"
    assert negotiate("c/z", offered) is None
    assert negotiate("garbage;;;", offered) == "a/x"  # unparseable: as if absent
    assert negotiate("a/x;q=nan, b/y;q=2", offered) == "a/x"  # bad q values are ignored ranges


def test_service_description(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/sparql")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/turtle")
    triples = list(ox.parse(r.content, format=ox.RdfFormat.TURTLE))
    sd = "http://www.w3.org/ns/sparql-service-description#"
    objects = {(t.predicate.value, getattr(t.object, "value", None)) for t in triples}
    assert (sd + "endpoint", "http://127.0.0.1:7878/sparql") in objects
    assert (sd + "supportedLanguage", sd + "SPARQL11Query") in objects
    assert (sd + "supportedLanguage", sd + "SPARQL11Update") not in objects


def test_openapi_spec_lists_the_routes(c) -> None:  # type: ignore[no-untyped-def]
    spec = c.get("/openapi.json").json()
    assert {"/sparql", "/store", "/", "/queries", "/view", "/entity/{path}"} <= set(spec["paths"])
    assert {"get", "post"} <= set(spec["paths"]["/sparql"])
    assert c.get("/docs").status_code == 404  # Swagger UI would load scripts from a CDN


# --- the W3C SPARQL 1.1 Protocol negative tests --------------------------------------------------


@pytest.mark.parametrize("name, method, params, headers, body, statuses", [
    ("query_method_put", "PUT", {"query": "ASK {}"}, {}, b"", (405,)),
    ("multiple_queries", "GET", [("query", "ASK {}"), ("query", "ASK {}")], {}, b"", (400,)),
    ("multiple_queries_form", "POST", None, FORM, b"query=ASK%20%7B%7D&query=ASK%20%7B%7D", (400,)),
    ("query_and_direct_query", "POST", {"query": "ASK {}"}, DIRECT, b"ASK {}", (400,)),
    ("query_wrong_media_type", "POST", None, {"Content-Type": "text/plain"}, b"ASK {}", (415,)),
    ("query_missing_form_type", "POST", None, {}, b"query=ASK%20%7B%7D", (400,)),
    ("query_missing_direct_type", "POST", None, {}, b"ASK {}", (400,)),
    ("query_non_utf8_charset", "POST", None, {"Content-Type": "application/sparql-query; charset=UTF-16"},
     "ASK {}".encode("utf-16"), (415,)),
    ("query_bad_utf8_direct", "POST", None, DIRECT, b"ASK { ?s ?p \"\xff\xfe\" }", (400,)),
    ("query_bad_utf8_form", "POST", None, FORM, b"query=ASK%20%7B%7D%FF", (400,)),
    ("query_bad_utf8_get", "GET", b"query=ASK%20%7B%7D%C3%28", {}, b"", (400,)),
    ("query_syntax", "GET", {"query": "SELECT * WHERE { ?s ?p ?o "}, {}, b"", (400,)),
    ("query_not_a_query", "GET", {"query": "CLEAR ALL"}, {}, b"", (400,)),
    ("update_get", "GET", {"update": "CLEAR ALL"}, {}, b"", (400,)),
    ("multiple_updates", "POST", None, FORM, b"update=CLEAR%20ALL&update=CLEAR%20ALL", (400,)),
    ("update_wrong_media_type", "POST", None, {"Content-Type": "text/plain"}, b"CLEAR ALL", (415,)),
    ("update_missing_form_type", "POST", None, {}, b"update=CLEAR%20ALL", (400,)),
    ("query_and_update", "POST", None, FORM, b"query=ASK%20%7B%7D&update=CLEAR%20ALL", (400,)),
    ("empty_post", "POST", None, FORM, b"", (400,)),
    ("empty_query", "GET", {"query": "   "}, {}, b"", (400,)),
    ("dataset_param_not_an_iri", "GET", {"query": "ASK {}", "default-graph-uri": "not an iri"}, {}, b"", (400,)),
    ("update_dataset_param_on_a_query", "GET", {"query": "ASK {}", "using-graph-uri": "http://e/"}, {}, b"", (400,)),
    ("nul_in_query", "GET", {"query": "ASK {\x00}"}, {}, b"", (400,)),
])
def test_protocol_negative_cases(c, name, method, params, headers, body, statuses) -> None:  # type: ignore[no-untyped-def]
    url = "/sparql"
    if isinstance(params, bytes):
        url += "?" + params.decode()
        params = None
    r = c.request(method, url, params=params, headers=headers, content=body or None)
    assert r.status_code in statuses, (name, r.status_code, r.text)
    assert r.text.startswith(("kg: ", '{"detail"')), r.text


# --- nothing leaves the machine ----------------------------------------------------------------------


def test_service_never_reaches_a_listener(c) -> None:  # type: ignore[no-untyped-def]
    listener = Listener()
    try:
        target = f"http://127.0.0.1:{listener.port}/sparql"
        attempts = [
            f"SELECT * WHERE {{ SERVICE <{target}> {{ ?s ?p ?o }} }}",
            f"SELECT * WHERE {{ SERVICE SILENT <{target}> {{ ?s ?p ?o }} }}",
            f"select * where {{ service <{target}> {{ ?s ?p ?o }} }}",
            f"SELECT * WHERE {{ ?s ?p ?o FILTER EXISTS {{ SERVICE <{target}> {{ ?s ?p ?o }} }} }}",
            f"SELECT * WHERE {{ {{ SELECT * WHERE {{ SERVICE <{target}> {{ ?s ?p ?o }} }} }} }}",
            f"SELECT * WHERE {{ VALUES ?x {{ <{target}> }} SERVICE ?x {{ ?s ?p ?o }} }}",
            f"SELECT * WHERE {{ SERVIC\\u0045 <{target}> {{ ?s ?p ?o }} }}",  # \\u escapes are expanded by rdflib
            f"ASK {{ SERVICE<{target}>{{?s ?p ?o}} }}",
            f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ SERVICE <{target}> {{ ?s ?p ?o }} }}",
        ]
        for q in attempts:
            r = c.post("/sparql", data={"query": q})
            assert r.status_code == 400, (q, r.status_code, r.text)
        # a dataset that names the listener is a graph the store does not hold: empty, never fetched
        for q in (f"SELECT * FROM <{target}> WHERE {{ ?s ?p ?o }}",
                  f"SELECT * FROM NAMED <{target}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}"):
            assert _rows(c.post("/sparql", data={"query": q})) == []
        r = c.get("/sparql", params={"query": "SELECT * { ?s ?p ?o }", "default-graph-uri": target})
        assert _rows(r) == []
        time.sleep(0.3)
        assert listener.hits == 0
    finally:
        listener.close()


def test_service_in_a_string_or_comment_is_fine(c) -> None:  # type: ignore[no-untyped-def]
    q = 'SELECT ?x WHERE { BIND("secret SERVICE from LOAD" AS ?x) } # SERVICE <http://x/> {}'
    assert _rows(c.get("/sparql", params={"query": q})) == [{"x": "secret SERVICE from LOAD"}]
    q = "PREFIX service: <http://example.org/> SELECT ?s WHERE { ?s service:from ?o }"
    assert c.get("/sparql", params={"query": q}).status_code == 200


@pytest.mark.parametrize("query", [
    "SELECT * FROM <file:///etc/passwd> WHERE { ?s ?p ?o }",
    "SELECT * FROM NAMED <file:///etc/passwd> WHERE { GRAPH ?g { ?s ?p ?o } }",
    "ASK FROM <file:///etc/passwd> { ?s ?p ?o }",
    "CONSTRUCT { ?s ?p ?o } FROM <file:///etc/passwd> WHERE { ?s ?p ?o }",
])
def test_from_file_reads_nothing(c, query: str) -> None:  # type: ignore[no-untyped-def]
    """FROM names a graph of the store; one it does not hold is empty, and no file is read."""
    r = c.get("/sparql", params={"query": query}, headers={"Accept": "application/sparql-results+json, text/turtle"})
    assert r.status_code == 200, r.text
    assert "root:" not in r.text
    if query.startswith("ASK"):
        assert r.json()["boolean"] is False
    elif query.startswith("SELECT"):
        assert r.json()["results"]["bindings"] == []
    else:
        assert not list(ox.parse(r.content, format=ox.RdfFormat.TURTLE))


# --- the dataset and the base IRI (SPARQL 1.1 Query section 13, Protocol 2.1.3-2.1.4) -----------------


def test_from_and_dataset_parameters_select_graphs_of_the_store(c) -> None:  # type: ignore[no-untyped-def]
    one, other = vs.MINTER.graph("moen-condemns"), vs.MINTER.graph("bergen-shooting")
    labels_in = f"SELECT DISTINCT ?l WHERE {{ ?e <{LABEL}> ?l }} ORDER BY ?l"
    union = {r["l"] for r in _rows(c.get("/sparql", params={"query": labels_in}))}
    mine = {r["l"] for r in _rows(c.get("/sparql", params={"query": labels_in.replace("WHERE", f"FROM <{one}> WHERE")}))}
    assert union and not mine  # labels live in the shared graph, not in an article's graph
    count = "SELECT (COUNT(*) AS ?n) {q} WHERE {{ ?s ?p ?o }}"
    n_one = int(_rows(c.get("/sparql", params={"query": count.format(q=f"FROM <{one}>")}))[0]["n"])
    n_other = int(_rows(c.get("/sparql", params={"query": count.format(q=f"FROM <{other}>")}))[0]["n"])
    n_both = int(_rows(c.get("/sparql", params={"query": count.format(q=f"FROM <{one}> FROM <{other}>")}))[0]["n"])
    n_all = int(_rows(c.get("/sparql", params={"query": count.format(q="")}))[0]["n"])
    assert 0 < n_one < n_both < n_all and n_both == n_one + n_other
    by_param = c.get("/sparql", params=[("query", count.format(q="")), ("default-graph-uri", one)])
    assert int(_rows(by_param)[0]["n"]) == n_one
    # the protocol's dataset wins over the query's FROM
    by_both = c.get("/sparql", params=[("query", count.format(q=f"FROM <{other}>")), ("default-graph-uri", one)])
    assert int(_rows(by_both)[0]["n"]) == n_one
    # named graphs: only those named are there to GRAPH ?g, and the default graph is then empty
    graphs = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g"
    assert [r["g"] for r in _rows(c.get("/sparql", params=[("query", graphs), ("named-graph-uri", one)]))] == [one]
    named = graphs.replace("WHERE", f"FROM NAMED <{other}> WHERE")
    assert [r["g"] for r in _rows(c.get("/sparql", params={"query": named}))] == [other]
    assert _rows(c.get("/sparql", params=[("query", count.format(q="")), ("named-graph-uri", one)]))[0]["n"] == "0"
    # without a dataset, GRAPH ?g still sees every graph
    assert len(_rows(c.get("/sparql", params={"query": graphs}))) >= 3


def test_relative_iris_resolve_against_the_endpoint(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/sparql", params={"query": "SELECT ?x WHERE { BIND(<a/b> AS ?x) }"})
    assert _rows(r) == [{"x": "http://127.0.0.1:7878/a/b"}]
    r = c.get("/sparql", params={"query": "SELECT * WHERE { <a> <b> <c> }"})
    assert _rows(r) == []


def test_relative_iris_resolve_against_base_when_given(store: Path) -> None:
    with client(store, query_base="https://kg.example.org/") as cl:
        q = f"ASK {{ ?e <{LABEL}> ?l FILTER(?e = <entity/person/halvard-moen>) }}"
        assert cl.get("/sparql", params={"query": q}).json()["boolean"] is True


def test_a_negative_decimal_is_not_refused(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/sparql", params={"query": "SELECT * WHERE { ?s <http://a/p> -2.5 . ?s <http://a/q> (-.5 1) }"})
    assert _rows(r) == []


def test_an_extension_function_is_refused_and_says_so(c) -> None:  # type: ignore[no-untyped-def]
    q = "PREFIX f: <http://example.org/fn#> SELECT * WHERE { ?s ?p ?o FILTER(f:near(?o, 1)) }"
    r = c.get("/sparql", params={"query": q})
    assert r.status_code == 400 and "extension function <http://example.org/fn#near>" in r.text
    xsd = 'PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT ?x WHERE { BIND(xsd:integer("7") AS ?x) }'
    assert _rows(c.get("/sparql", params={"query": xsd})) == [{"x": "7"}]


def test_updates_are_refused_by_default(c) -> None:  # type: ignore[no-untyped-def]
    for r in (
        c.post("/sparql", data={"update": "CLEAR ALL"}),
        c.post("/sparql", content=b"CLEAR ALL", headers={"Content-Type": "application/sparql-update"}),
        c.post("/sparql", data={"update": "CLEAR ALL"}, headers={"Authorization": f"Bearer {TOKEN}"}),
        c.put("/store?default", content=b"<http://a> <http://b> <http://c> .",
              headers={"Content-Type": "application/n-triples"}),
        c.delete("/store", params={"graph": vs.MINTER.graph("bergen-shooting")}),
    ):
        assert r.status_code == 403, r.text
    assert c.get("/sparql", params={"query": "ASK { ?s ?p ?o }"}).json()["boolean"] is True


def test_graph_store_reads_are_allowed(c) -> None:  # type: ignore[no-untyped-def]
    g = vs.MINTER.graph("moen-condemns")
    r = c.get("/store", params={"graph": g}, headers={"Accept": "application/n-triples"})
    assert r.status_code == 200
    assert len(list(ox.parse(r.content, format=ox.RdfFormat.N_TRIPLES))) > 10
    assert c.get("/store", params={"graph": "https://kg.example.org/graph/none"}).status_code == 404
    assert c.get("/store").status_code == 400
    assert c.get("/store", params={"graph": "not an iri"}).status_code == 400


@pytest.fixture
def writable(store: Path, tmp_path: Path) -> Iterator:  # type: ignore[type-arg]
    copy = tmp_path / "store"
    shutil.copytree(store, copy, ignore=shutil.ignore_patterns("LOCK"))
    with client(copy, allow_update=True, token=TOKEN) as cl:
        yield cl


def test_updates_need_the_token(writable) -> None:  # type: ignore[no-untyped-def]
    c = writable
    upd = 'INSERT DATA { GRAPH <https://kg.example.org/graph/t> { <https://kg.example.org/entity/person/x> ' \
          f'<{LABEL}> "Xavier" }} }}'
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"},
                    {"Authorization": TOKEN}):
        r = c.post("/sparql", data={"update": upd}, headers=headers)
        assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer"), r.text
    ask = f'ASK {{ ?e <{LABEL}> "Xavier" }}'
    assert c.get("/sparql", params={"query": ask}).json()["boolean"] is False
    r = c.post("/sparql", content=upd.encode(), headers={"Content-Type": "application/sparql-update",
                                                         "Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 204, r.text
    # the read-only workers notice the write and re-open the store
    assert c.get("/sparql", params={"query": ask}).json()["boolean"] is True
    assert "SPARQL11Update" in c.get("/sparql").text


def test_relative_iris_of_an_update_resolve_against_the_endpoint(writable) -> None:  # type: ignore[no-untyped-def]
    c = writable
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/sparql-update"}
    upd = "INSERT DATA { GRAPH <http://example.org/base-test/> { <http://example.org/s> <p> <test> } }"
    assert c.post("/sparql", content=upd.encode(), headers=auth).status_code == 204
    q = "SELECT ?p ?o WHERE { GRAPH <http://example.org/base-test/> { <http://example.org/s> ?p ?o } }"
    assert _rows(c.get("/sparql", params={"query": q})) == [{"p": "http://127.0.0.1:7878/p",
                                                              "o": "http://127.0.0.1:7878/test"}]


def test_update_guards_hold_with_updates_on(writable) -> None:  # type: ignore[no-untyped-def]
    c = writable
    auth = {"Authorization": f"Bearer {TOKEN}"}
    listener = Listener()
    try:
        for upd in (
            f"LOAD <http://127.0.0.1:{listener.port}/data.ttl>",
            "LOAD <file:///etc/passwd> INTO GRAPH <http://g>",
            f"INSERT {{ ?s ?p ?o }} WHERE {{ SERVICE <http://127.0.0.1:{listener.port}/> {{ ?s ?p ?o }} }}",
        ):
            r = c.post("/sparql", data={"update": upd}, headers=auth)
            assert r.status_code == 400, (upd, r.text)
        for upd in (  # USING names graphs of the store: one it does not hold is empty, nothing is read
            "INSERT { GRAPH <http://x> { ?s ?p ?o } } USING <file:///etc/passwd> WHERE { ?s ?p ?o }",
            f"INSERT {{ GRAPH <http://x> {{ ?s ?p ?o }} }} USING <http://127.0.0.1:{listener.port}/> WHERE {{ ?s ?p ?o }}",
        ):
            r = c.post("/sparql", data={"update": upd}, headers=auth)
            assert r.status_code == 204, (upd, r.text)
        assert c.get("/sparql", params={"query": "ASK { GRAPH <http://x> { ?s ?p ?o } }"}).json()["boolean"] is False
        r = c.post("/sparql", data={"update": "CLEAR ALL", "using-graph-uri": "file:///etc/passwd"}, headers=auth)
        assert r.status_code == 400
        time.sleep(0.3)
        assert listener.hits == 0
    finally:
        listener.close()
    assert c.get("/sparql", params={"query": "ASK { ?s ?p ?o }"}).json()["boolean"] is True


def test_graph_store_writes_with_the_token(writable) -> None:  # type: ignore[no-untyped-def]
    c = writable
    auth = {"Authorization": f"Bearer {TOKEN}"}
    g = "https://kg.example.org/graph/gsp-test"
    nt = b'<https://kg.example.org/entity/person/y> <http://www.w3.org/2000/01/rdf-schema#label> "Yusuf" .\n'
    assert c.put("/store", params={"graph": g}, content=nt, headers={"Content-Type": "application/n-triples"}
                 ).status_code == 401
    r = c.put("/store", params={"graph": g}, content=nt, headers={"Content-Type": "application/n-triples", **auth})
    assert r.status_code == 201, r.text
    r = c.post("/store", params={"graph": g}, content=b'<y2> <http://www.w3.org/2000/01/rdf-schema#label> "Y2" .',
               headers={"Content-Type": "text/turtle", **auth})
    assert r.status_code == 204, r.text
    got = c.get("/store", params={"graph": g}, headers={"Accept": "application/n-triples"})
    assert got.status_code == 200 and "Yusuf" in got.text and "Y2" in got.text
    assert c.put("/store", params={"graph": g}, content=b"not turtle", headers={
        "Content-Type": "text/turtle", **auth}).status_code == 400
    assert c.put("/store", params={"graph": g}, content=nt, headers={
        "Content-Type": "application/ld+json", **auth}).status_code == 415
    assert c.delete("/store", params={"graph": g}, headers=auth).status_code == 204
    gone = c.get("/store", params={"graph": g})
    assert gone.status_code == 404, gone.text
    assert c.delete("/store", params={"graph": g}, headers=auth).status_code == 404
    for method in ("PUT", "POST", "DELETE"):  # the default graph is the union: read-only
        r = c.request(method, "/store?default", content=nt, headers={"Content-Type": "application/n-triples", **auth})
        assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD", r.text


# --- limits ----------------------------------------------------------------------------------------


def test_body_limit_is_413(store: Path) -> None:
    with client(store, max_body=2000) as c:
        big = "ASK { FILTER(" + " || ".join(["true"] * 600) + ") }"
        r = c.post("/sparql", content=big.encode(), headers=DIRECT)
        assert r.status_code == 413, r.text

        def chunks():  # type: ignore[no-untyped-def]
            for _ in range(10):
                yield b"#" * 500
        r = c.post("/sparql", content=chunks(), headers=DIRECT)  # no Content-Length: counted as it streams
        assert r.status_code == 413, r.text
        r = c.get("/sparql?query=" + "%20" * 3000)
        assert r.status_code == 414
        assert c.post("/sparql", data={"query": "ASK {}"}).status_code == 200


@pytest.mark.parametrize("query", [
    "SELECT * WHERE " + "{" * 1000 + " ?s ?p ?o " + "}" * 1000,
    "SELECT * WHERE " + "{" * 100_000 + "}" * 100_000,
    "ASK { FILTER(" + "(" * 5000 + "1" + ")" * 5000 + ") }",
    "SELECT * WHERE { ?s <http://p> " + "(" * 1000 + " 1 " + ")" * 1000 + " }",  # cubic in Oxigraph's parser
    "ASK { FILTER(" + "!" * 200_000 + "true) }",
    "SELECT * WHERE {" + " UNION ".join(["{?s ?p ?o}"] * 20_000) + "}",
    "ASK { FILTER(1" + " + 1" * 50_000 + " > 0) }",
    "SELECT * WHERE { ?s " + "/".join(["<http://p>"] * 30_000) + " ?o }",
    "SELECT * WHERE " + "{" * 70,  # deep and unbalanced
])
def test_deep_or_huge_queries_are_400_not_a_crash(c, query: str) -> None:  # type: ignore[no-untyped-def]
    r = c.post("/sparql", content=query.encode(), headers=DIRECT)
    assert r.status_code == 400, r.text[:300]
    assert "too deep" in r.text or "too complex" in r.text  # the guard refused it: no worker parsed it
    assert c.get("/sparql", params={"query": "ASK { ?s ?p ?o }"}).status_code == 200


def test_moderate_nesting_still_runs(c) -> None:  # type: ignore[no-untyped-def]
    q = "SELECT DISTINCT ?e WHERE " + "{" * 40 + f" ?e <{LABEL}> \"Halvard Moen\" " + "}" * 40
    assert _rows(c.get("/sparql", params={"query": q})) == [{"e": vs.MOEN}]


def test_row_cap(store: Path) -> None:
    with client(store, max_rows=3) as c:
        r = c.get("/sparql", params={"query": "SELECT * WHERE { ?s ?p ?o }"}, headers={"Accept": "text/csv"})
        assert r.status_code == 200 and r.headers["x-kg-truncated"] == "3"
        assert len(list(csv.reader(io.StringIO(r.text)))) == 1 + 3
        # the results say it where SPARQL results keep metadata: their head's link
        r = c.get("/sparql", params={"query": "SELECT * WHERE { ?s ?p ?o }"})
        assert r.json()["head"]["link"] == [f"{ORIGIN}/sparql#max-rows"] and len(r.json()["results"]["bindings"]) == 3
        r = c.get("/sparql", params={"query": "SELECT * WHERE { ?s ?p ?o }"},
                  headers={"Accept": "application/sparql-results+xml"})
        links = ElementTree.fromstring(r.content).findall("{http://www.w3.org/2005/sparql-results#}head/"
                                                          "{http://www.w3.org/2005/sparql-results#}link")
        assert [e.get("href") for e in links] == [f"{ORIGIN}/sparql#max-rows"]
        assert "max-rows" in c.get("/sparql").text  # the service description says what the link means
        # a graph is never cut: CONSTRUCT gives all of it
        every = c.get("/sparql", params={"query": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"}).json()
        total = int(every["results"]["bindings"][0]["n"]["value"])
        r = c.get("/sparql", params={"query": "CONSTRUCT WHERE { ?s ?p ?o }"}, headers={"Accept": "application/n-triples"})
        assert total > 3 and "x-kg-truncated" not in r.headers and len(r.text.strip().splitlines()) == total
        r = c.get("/sparql", params={"query": MOEN_Q})
        assert "x-kg-truncated" not in r.headers and "link" not in r.json()["head"]
    with client(store, max_rows=0) as c:  # --max-rows 0 lifts the cap
        r = c.get("/sparql", params={"query": "SELECT * WHERE { ?s ?p ?o }"})
        assert "x-kg-truncated" not in r.headers and len(r.json()["results"]["bindings"]) == total


# --- CORS and Host ----------------------------------------------------------------------------------


def test_cors_is_off_by_default(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/sparql", params={"query": "ASK {}"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    r = c.options("/sparql", headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in r.headers


def test_cors_allows_one_origin_without_credentials(store: Path) -> None:
    with client(store, cors="http://localhost:3000") as c:
        r = c.get("/sparql", params={"query": "ASK {}"}, headers={"Origin": "http://localhost:3000"})
        assert r.headers["access-control-allow-origin"] == "http://localhost:3000"
        assert "access-control-allow-credentials" not in r.headers
        r = c.get("/sparql", params={"query": "ASK {}"}, headers={"Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in r.headers
        r = c.options("/sparql", headers={"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST",
                                          "Access-Control-Request-Headers": "content-type"})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "http://localhost:3000"
        r = c.options("/sparql", headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
        assert r.status_code == 400 and "access-control-allow-origin" not in r.headers


@pytest.mark.parametrize("host, ok", [
    ("127.0.0.1:7878", True), ("localhost:7878", True), ("LOCALHOST", True), ("[::1]:7878", True),
    ("kg.example.org", True),  # the base IRI's host: entity IRIs dereference behind a proxy
    ("evil.example", False), ("evil.example:7878", False), ("127.0.0.1.evil.example", False),
    ("10.0.0.1:7878", False), ("", False),
])
def test_host_header_is_checked(c, host: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/sparql", params={"query": "ASK {}"}, headers={"Host": host})
    if ok:
        assert r.status_code == 200, r.text
    else:
        assert r.status_code in (400, 421), r.text
        assert r.headers["x-content-type-options"] == "nosniff"


def test_host_guard_on_a_wildcard_bind_accepts_ip_literals_only() -> None:
    guard = HostGuard(app=None, names={"localhost", "myhost"}, any_ip=True)  # type: ignore[arg-type]
    assert guard.allowed("192.168.1.5:7878") and guard.allowed("[fe80::1]:7878") and guard.allowed("myhost")
    assert not guard.allowed("attacker.example") and not guard.allowed(None)


@pytest.mark.parametrize("options, fragment", [
    ({"allow_update": True}, "--token"),
    ({"token": "t"}, "--allow-update"),
    ({"allow_update": True, "token": "has space"}, "--token"),
    ({"cors": "*"}, "--cors"),
    ({"cors": "http://a.example/path"}, "--cors"),
    ({"timeout": 0}, "--timeout"),
    ({"port": 70000}, "--port"),
    ({"max_rows": -1}, "--max-rows"),
    ({"max_memory": -1}, "--max-memory"),
    ({"read_timeout": 0}, "--read-timeout"),
    ({"max_connections": 2}, "--max-connections"),
])
def test_unsafe_or_wrong_settings_are_usage_errors(options: dict, fragment: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(UsageError, match=fragment):
        check_config(ServeConfig(store="x", **options))


# --- pages -------------------------------------------------------------------------------------------


def test_query_page_and_static_files(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/")
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "connect-src 'self';" in csp and "'unsafe-inline'" not in csp
    assert "default-src 'none'" in csp and "unsafe-eval" not in csp
    # everything the page loads comes from this server; the only links off it are none
    assert re.findall(r'(?:src|href)="([^"]*)"', r.text) == [
        "static/yasgui.min.css", "static/query.css", "view", "sparql", "openapi.json", "static/yasgui-LICENSE.txt",
        "static/yasgui.min.js", "static/query.js"]
    data = json.loads(re.search(r'id="kg-page-data">(.*?)</script>', r.text, re.S).group(1))  # type: ignore[union-attr]
    assert {q["name"] for q in data["canned"]} >= {"events.rq", "roles.rq"} and data["prefixes"]["kg"] == KG_NS
    assert "kg:actor" in data["terms"] and "org:memberDuring" in data["terms"]
    assert c.get("/static/query.js").headers["content-type"].startswith("text/javascript")
    js = c.get("/static/yasgui.min.js")
    assert js.headers["content-type"].startswith("text/javascript") and len(js.content) > 500_000
    assert hashlib.sha256(js.content).hexdigest() == YASGUI_FILES["yasgui.min.js"]
    assert c.get("/static/yasgui.min.js", headers={"If-None-Match": js.headers["etag"]}).status_code == 304
    assert "MIT" in c.get("/static/yasgui-LICENSE.txt").text
    assert c.get("/static/kg-prefixes.json").json()["kg"] == KG_NS
    assert c.get("/static/../server.py").status_code == 404
    assert c.get("/static/server.py").status_code == 404


def test_canned_queries_with_their_descriptions(c) -> None:  # type: ignore[no-untyped-def]
    canned = {q["name"]: q for q in c.get("/queries").json()}
    assert {"events.rq", "roles.rq", "entity-facts.rq"} <= set(canned)
    assert canned["events.rq"]["description"].startswith("Events: who did what to whom")
    for q in canned.values():  # every canned query runs through the endpoint
        r = c.post("/sparql", data={"query": q["query"]})
        assert r.status_code == 200, (q["name"], r.text)


def test_view_page(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get("/view")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert "connect-src 'none'" in r.headers["content-security-policy"]
    assert vs.HOSTILE_SENTENCE not in r.text  # it is in there, but only escaped
    assert "Moen condemned the Iron Wolves." in r.text
    assert c.get("/view").text == r.text  # cached while the store is unchanged


def _entity_path(iri: str) -> str:
    assert iri.startswith(vs.BASE + "entity/")
    return "/" + iri[len(vs.BASE):]


def test_entity_page_html(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get(_entity_path(vs.MOEN), headers={"Accept": "text/html"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    text = r.text
    scripts = re.findall(r"<script([^>]*)>", text)  # scripts from /static/, or data (JSON-LD, the ego network)
    assert scripts and all('src="/static/' in a or 'type="application/' in a for a in scripts), scripts
    assert "Halvard Moen" in text and "Moen called for a ceasefire." in text and "Moen condemned the Iron Wolves." in text
    assert f'href="{_entity_path(vs.WOLVES)}"' in text
    r = c.get(_entity_path(vs.WOLVES))
    assert "Moen condemned the Iron Wolves." in r.text and "spokesman" in r.text and "Idris Kamara" in r.text
    r = c.get(_entity_path(vs.FERRANTE))
    assert "press secretary" in r.text and "Harbor Board" in r.text


def test_hostile_entity_page_is_escaped(c) -> None:  # type: ignore[no-untyped-def]
    r = c.get(_entity_path(vs.EVIL))
    assert r.status_code == 200
    assert vs.IMG not in r.text and vs.SCRIPT not in r.text
    assert "&lt;img src=x onerror=" in r.text


def test_entity_iri_dereferences_to_turtle(c) -> None:  # type: ignore[no-untyped-def]
    for headers, params, fmt in (({"Accept": "text/turtle"}, {}, ox.RdfFormat.TURTLE),
                                 ({"Accept": "application/n-triples"}, {}, ox.RdfFormat.N_TRIPLES),
                                 ({}, {"format": "turtle"}, ox.RdfFormat.TURTLE)):
        r = c.get(_entity_path(vs.MOEN), headers=headers, params=params)
        assert r.status_code == 200 and r.headers["vary"] == "Accept"
        triples = {(t.subject.value, t.predicate.value, t.object.value) for t in ox.parse(r.content, format=fmt)}
        assert (vs.MOEN, LABEL, "Halvard Moen") in triples
        assert any(o == vs.MOEN and p.endswith("#actor") for _, p, o in triples)  # incoming links too
    group = _entity_path(vs.GUNMAN)  # an article-local group: entity/{article}/group/{slug}
    assert "a gunman" in c.get(group).text
    assert c.get("/entity/person/nobody").status_code == 404
    assert c.get("/entity/person/nobody", headers={"Accept": "text/turtle"}).status_code == 404
    assert c.get("/entity/%3Cbad%3E").status_code == 404
    assert c.get(_entity_path(vs.MOEN), headers={"Accept": "image/png"}).status_code == 406


def test_percent_encoded_entity_iris_dereference(c) -> None:  # type: ignore[no-untyped-def]
    assert "%2F" in CROWD and "%E6" in ODD_PERSON
    r = c.get(_entity_path(CROWD))
    assert r.status_code == 200 and "a crowd" in r.text and f"A crowd surrounded {ODD_NAME}." in r.text
    assert f'href="{_entity_path(ODD_PERSON)}"' in r.text
    r = c.get(_entity_path(ODD_PERSON), headers={"Accept": "text/turtle"})
    assert r.status_code == 200
    assert (ODD_PERSON, LABEL, ODD_NAME) in {(t.subject.value, t.predicate.value, t.object.value)
                                             for t in ox.parse(r.content, format=ox.RdfFormat.TURTLE)}
    # the decoded form is another IRI: not found rather than a wrong entity
    assert c.get("/entity/wire/a%20b.txt/group/a-crowd").status_code == 404


def test_result_writers_match_pyoxigraph() -> None:
    from kg.sparql.results import write_solutions

    s = ox.Store()
    s.update(r'''INSERT DATA { <http://a> <http://p> "x\"y\n,z"@en, 42, "-1.5"^^<http://www.w3.org/2001/XMLSchema#decimal>,
      "1e3"^^<http://www.w3.org/2001/XMLSchema#double>, true, "tab	here", _:b, "plain", <http://o>, "é 中" ,
      "042"^^<http://www.w3.org/2001/XMLSchema#integer> }''')
    q = "SELECT ?s ?o ?u WHERE { ?s ?p ?o OPTIONAL { ?s <http://nope> ?u } } ORDER BY ?o"
    rows = [[sol[v] for v in ("s", "o", "u")] for sol in s.query(q)]
    for fmt, ox_fmt in (("json", ox.QueryResultsFormat.JSON), ("xml", ox.QueryResultsFormat.XML),
                        ("csv", ox.QueryResultsFormat.CSV), ("tsv", ox.QueryResultsFormat.TSV)):
        ours = write_solutions(["s", "o", "u"], rows, fmt)
        theirs = s.query(q).serialize(format=ox_fmt)
        assert ours is not None and theirs is not None
        if fmt == "json":
            assert json.loads(ours) == json.loads(theirs)
        elif fmt == "xml":
            assert _xml_bindings(ours) == _xml_bindings(theirs)
        else:
            assert ours.decode() == theirs.decode(), fmt


def _xml_bindings(data: bytes) -> list[list[tuple[str, str, str, tuple]]]:  # type: ignore[type-arg]
    root = ElementTree.fromstring(data)
    return [[(b.get("name"), t.tag, t.text or "", tuple(sorted(t.attrib.items()))) for b in r for t in b]
            for r in root.iter("{http://www.w3.org/2005/sparql-results#}result")]


@pytest.mark.parametrize("path", ["/", "/sparql", "/sparql?query=ASK%20%7B%7D", "/queries", "/store?default",
                                  "/entity/person/halvard-moen", "/static/query.js", "/openapi.json"])
def test_head_where_get_works(c, path: str) -> None:  # type: ignore[no-untyped-def]
    got, head = c.get(path), c.head(path)
    assert got.status_code == head.status_code == 200, (path, head.status_code)
    assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
    assert c.head("/nope").status_code == 404
