"""``kg serve --store sparql+http://...``: a server store served through the same guarded path as a
directory (the worker opens it with ``open_store`` and sends each checked query there).

Without Virtuoso, the server store is another ``kg serve`` over a temporary Oxigraph store (a
SPARQL 1.1 endpoint like any other); with Virtuoso (``make virtuoso``), the store is on Virtuoso.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
import viewsamples as vs
from test_server_support import KG, ROOT, Served, build_store

from kg import api
from kg.build.jobs import to_graph
from kg.build.writer import write_article
from kg.errors import QueryError
from kg.store import MemoryStore, open_store

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
LABELS = "SELECT ?e ?l WHERE { ?e <http://www.w3.org/2000/01/rdf-schema#label> ?l } ORDER BY ?e ?l"
CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
MOEN_PATH = vs.MOEN.split("/entity/", 1)[1]


def _get(url: str, accept: str = "application/sparql-results+json", timeout: float = 30) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read().decode()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read().decode()


def _sparql(base: str, query: str, accept: str = "application/sparql-results+json") -> tuple[int, dict[str, str], str]:
    return _get(base + "sparql?" + urllib.parse.urlencode({"query": query}), accept)


def _rows(body: str) -> list[tuple[str, ...]]:
    data = json.loads(body)
    names = data["head"]["vars"]
    return [tuple(b[n]["value"] for n in names if n in b) for b in data["results"]["bindings"]]


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Served]]:
    """``kg serve`` over an Oxigraph store (upstream), and ``kg serve`` over upstream's endpoint."""
    upstream = Served(build_store(tmp_path_factory.mktemp("remote") / "store"), "--timeout", "4")
    try:
        served = Served("sparql+" + upstream.url + "sparql", "--timeout", "2", "--max-rows", "5")  # type: ignore[arg-type]
    except BaseException:
        upstream.close()
        raise
    yield upstream, served
    served.close()
    upstream.close()


def test_answers_a_protocol_query_as_the_store_it_serves(chain: tuple[Served, Served]) -> None:
    upstream, served = chain
    assert "queries run on the server" in served.line and "read-only" in served.line
    status, _, body = _sparql(served.url, COUNT)
    assert status == 200 and _rows(body) == _rows(_sparql(upstream.url, COUNT)[2])
    assert int(_rows(body)[0][0]) > 50
    labels = _sparql(served.url, "SELECT ?l WHERE { ?e <http://www.w3.org/2000/01/rdf-schema#label> ?l }")
    assert labels[0] == 200 and ("Halvard Moen",) in _rows(labels[2])


def test_serves_an_entity_page(chain: tuple[Served, Served]) -> None:
    _, served = chain
    status, headers, html = _get(served.url + "entity/" + MOEN_PATH, "text/html")
    assert status == 200 and "Halvard Moen" in html and "content-security-policy" in headers
    status, _, turtle = _get(served.url + "entity/" + MOEN_PATH, "text/turtle")
    assert status == 200 and f"<{vs.MOEN}>" in turtle  # at most --max-rows triples
    assert _get(served.url + "entity/person/nobody-of-that-name", "text/html")[0] == 404


def test_the_guard_and_the_row_cap_hold(chain: tuple[Served, Served]) -> None:
    _, served = chain
    status, _, body = _sparql(served.url, "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }")
    assert status == 400 and "SERVICE" in body
    status, _, body = _sparql(served.url, "SELECT * FROM <https://kg.example.org/graph/x> WHERE { ?s ?p ?o }")
    assert status == 400 and "FROM" in body
    status, headers, body = _sparql(served.url, "SELECT * WHERE { ?s ?p ?o }")
    assert status == 200 and len(_rows(body)) == 5 and headers.get("x-kg-truncated") == "5"
    status, headers, body = _get(served.url + "store?default", "application/n-triples")  # a graph is whole
    total = int(_rows(_sparql(served.url, COUNT)[2])[0][0])
    assert status == 200 and len(body.strip().splitlines()) == total > 5 and "x-kg-truncated" not in headers
    req = urllib.request.Request(served.url + "sparql", data=b"CLEAR ALL", method="POST",
                                 headers={"Content-Type": "application/sparql-update"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=30)
    assert err.value.code == 403
    err.value.close()


def test_a_query_past_the_timeout_is_stopped_and_the_server_goes_on(chain: tuple[Served, Served]) -> None:
    _, served = chain
    start = time.monotonic()
    status, _, body = _sparql(served.url, CARTESIAN)
    seconds = time.monotonic() - start
    assert status == 504 and "timeout" in body and 1.9 <= seconds < 4.0, (status, body, seconds)
    assert _sparql(served.url, "ASK { ?s ?p ?o }")[0] == 200


def test_kg_query_with_a_timeout_takes_the_same_path(chain: tuple[Served, Served], tmp_path: Path) -> None:
    upstream, _ = chain
    url = "sparql+" + upstream.url + "sparql"
    remote = api.query(LABELS, store=url, timeout=20)
    local = api.query(LABELS, store=build_store(tmp_path / "store"), timeout=20)
    assert isinstance(remote, api.Table) and remote == local and len(remote.rows) > 3
    out = subprocess.run([KG, "query", "SELECT * WHERE { SERVICE <http://127.0.0.1:9/s> { ?s ?p ?o } }", "--store", url,
                          "--timeout", "20"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode != 0 and "SERVICE" in out.stderr and "Traceback" not in out.stderr


PER_GRAPH = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g"


def _with_dataset(base: str, query: str, **graphs: list[str]) -> tuple[int, dict[str, str], str]:
    """A protocol query with ``default_graph_uri`` / ``named_graph_uri`` parameters."""
    params = {"query": [query], **{k.replace("_", "-"): v for k, v in graphs.items()}}
    return _get(base + "sparql?" + urllib.parse.urlencode(params, doseq=True))


def test_the_dataset_parameters_choose_among_kgs_graphs(chain: tuple[Served, Served]) -> None:
    upstream, served = chain
    graph, other = "https://kg.example.org/graph/bergen-shooting", "https://kg.example.org/graph/none-such"
    status, _, body = _with_dataset(served.url, COUNT, default_graph_uri=[graph])
    expected = _sparql(upstream.url, f"SELECT (COUNT(*) AS ?n) FROM <{graph}> WHERE {{ ?s ?p ?o }}")[2]
    assert status == 200 and _rows(body) == _rows(expected)
    assert 0 < int(_rows(body)[0][0]) < int(_rows(_sparql(served.url, COUNT)[2])[0][0])
    status, _, body = _with_dataset(served.url, PER_GRAPH, named_graph_uri=[graph, other])
    assert status == 200 and [r[0] for r in _rows(body)] == [graph]
    assert _rows(_with_dataset(served.url, COUNT, default_graph_uri=[other])[2]) == [("0",)]
    assert _with_dataset(served.url, COUNT, default_graph_uri=["not an IRI"])[0] == 400


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``kg serve`` over an Oxigraph store of three graphs that cuts every answer at two rows."""
    served = Served(build_store(tmp_path_factory.mktemp("capped") / "store"), "--max-rows", "2")
    yield served
    served.close()


def test_the_row_cap_of_an_upstream_kg_serve_is_honoured(capped: Served, tmp_path: Path) -> None:
    url = "sparql+" + capped.url + "sparql"
    local = open_store(str(build_store(tmp_path / "store")), read_only=True)
    try:
        assert len(local.graphs()) == 3 and open_store(url).graphs() == local.graphs()  # read two rows at a time
        total = int(local.select(COUNT)[0]["n"] or 0)  # the union, each triple once
    finally:
        local.close()
    with pytest.raises(QueryError, match=r"cut the answer at 2 rows .*start it with a higher --max-rows"):
        api.query(LABELS, store=url, timeout=20)
    with pytest.raises(QueryError, match=r"cut the answer at 2 rows .*--max-rows"):
        api.query(LABELS, store=url)  # every query takes the same guarded path
    served = Served(url, "--max-rows", "5")  # type: ignore[arg-type]
    try:
        status, headers, body = _sparql(served.url, LABELS)
        assert status == 200 and len(_rows(body)) == 2 and headers.get("x-kg-truncated") == "2"
        status, headers, body = _get(served.url + "store?default", "application/n-triples")  # read a page at a time
        assert status == 200 and len(body.strip().splitlines()) == total > 2 and "x-kg-truncated" not in headers
    finally:
        served.close()


def test_kg_query_with_a_timeout_refuses_a_cut_answer_in_one_line(capped: Served) -> None:
    out = subprocess.run([KG, "query", LABELS, "--store", "sparql+" + capped.url + "sparql", "--timeout", "20"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    lines = out.stderr.strip().splitlines()
    assert out.returncode != 0 and out.stdout == "" and len(lines) == 1, out.stderr
    assert "cut the answer at 2 rows" in lines[0] and "--max-rows" in lines[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_server_is_one_clear_line() -> None:
    url = f"sparql+http://reader:s3cret@127.0.0.1:{_free_port()}/sparql"
    out = subprocess.run([KG, "serve", "--store", url, "--port", "0"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 1 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach it" in lines[0] and "check that the SPARQL server is running" in lines[0]
    assert "s3cret" not in out.stderr


def test_updates_are_refused_before_it_starts() -> None:
    out = subprocess.run([KG, "serve", "--store", "sparql+http://127.0.0.1:9/sparql", "--allow-update"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120, env={**os.environ, "KG_TOKEN": "t0ken"})
    assert out.returncode == 2 and "--allow-update is not offered over a SPARQL server" in out.stderr


# --- on Virtuoso ----------------------------------------------------------------------------------


@pytest.mark.virtuoso
def test_serves_a_store_on_virtuoso(request: pytest.FixtureRequest) -> None:
    import virtuoso

    store, local = virtuoso.empty_store(request), MemoryStore()
    for facts in vs.sample_facts():
        for st in (store, local):
            write_article(st, to_graph(facts, vs.MINTER))
    graph = store.graphs()[0]
    served = Served(virtuoso.server(request).anonymous, "--base", virtuoso.BASE, "--max-rows", "5")  # type: ignore[arg-type]
    try:
        status, _, body = _sparql(served.url, COUNT)
        assert status == 200 and _rows(body) == [(local.select(COUNT)[0]["n"],)]  # kg's graphs only, no system graph
        labels = _sparql(served.url, "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?l { ?e rdfs:label ?l }")
        assert labels[0] == 200 and len(_rows(labels[2])) == 5 and labels[1].get("x-kg-truncated") == "5"
        ask = _sparql(served.url, f"ASK {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")
        assert ask[0] == 200 and json.loads(ask[2])["boolean"] is True
        status, _, html = _get(served.url + "entity/" + MOEN_PATH, "text/html")
        assert status == 200 and "Halvard Moen" in html
        status, _, nt = _get(served.url + "store?" + urllib.parse.urlencode({"graph": graph}), "application/n-triples")
        assert status == 200 and len(nt.strip().splitlines()) == len(local.select(
            f"SELECT * {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")) > 5  # whole, read past the row cap
        assert _sparql(served.url, "SELECT * WHERE { SERVICE <http://127.0.0.1:9/s> { ?s ?p ?o } }")[0] == 400
    finally:
        served.close()


@pytest.mark.virtuoso
def test_on_virtuoso_the_dataset_parameters_never_reach_other_graphs(request: pytest.FixtureRequest) -> None:
    import virtuoso

    from kg.store.sparql_http import SparqlHttpStore

    store = virtuoso.empty_store(request)
    for facts in vs.sample_facts():
        write_article(store, to_graph(facts, vs.MINTER))
    graph = store.graphs()[0]
    foreign = SparqlHttpStore(virtuoso.server(request).anonymous, base="https://elsewhere.example.org/")
    outside = "https://elsewhere.example.org/graph/1"
    foreign.replace_graph(outside, "<https://elsewhere.example.org/s> <https://elsewhere.example.org/p> \"o\" .\n")
    served = Served(virtuoso.server(request).anonymous, "--base", virtuoso.BASE)  # type: ignore[arg-type]
    try:
        local = store.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")[0]["n"]
        status, _, body = _with_dataset(served.url, COUNT, default_graph_uri=[graph])
        assert status == 200 and _rows(body) == [(local,)] and int(local or 0) > 0
        status, _, body = _with_dataset(served.url, PER_GRAPH, named_graph_uri=[graph, outside])
        assert status == 200 and [r[0] for r in _rows(body)] == [graph]
        assert _rows(_with_dataset(served.url, COUNT, default_graph_uri=[outside])[2]) == [("0",)]
    finally:
        served.close()
        foreign.remove_graph(outside)
