"""The clients users bring, against a real ``kg serve``: rdflib's ``SPARQLStore`` (what most Python
users have; it asks for RDF/XML for CONSTRUCT and DESCRIBE) and SPARQLWrapper with its defaults,
for every query form; and the Graph Store Protocol's default graph, the union queries see."""
from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
import warnings
from pathlib import Path
from typing import Iterator

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from test_server_support import Served, build_store

LABEL = rdflib.URIRef("http://www.w3.org/2000/01/rdf-schema#label")
MOEN = rdflib.Literal("Halvard Moen")
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    s = Served(build_store(tmp_path_factory.mktemp("clients") / "store"))
    yield s
    s.close()


@pytest.fixture(scope="module")
def graph(served: Served) -> rdflib.Graph:
    return rdflib.Graph(store=SPARQLStore(served.url + "sparql"))


def _moen(graph: rdflib.Graph) -> rdflib.URIRef:
    rows = list(graph.query(f"SELECT ?e WHERE {{ ?e <{LABEL}> {MOEN.n3()} }} LIMIT 1"))
    assert rows, "the sample store names Halvard Moen"
    return rows[0][0]  # type: ignore[index,return-value]


def test_sparqlstore_select_and_ask(graph: rdflib.Graph) -> None:
    rows = list(graph.query(f"SELECT ?e ?l WHERE {{ ?e <{LABEL}> ?l }} ORDER BY ?l"))
    assert MOEN in {r[1] for r in rows}  # type: ignore[index]
    assert graph.query(f"ASK {{ ?e <{LABEL}> {MOEN.n3()} }}").askAnswer is True
    assert graph.query(f'ASK {{ ?e <{LABEL}> "Nobody At All" }}').askAnswer is False


def test_sparqlstore_construct_and_describe(graph: rdflib.Graph) -> None:
    moen = _moen(graph)
    built = graph.query(f"CONSTRUCT {{ ?e <{LABEL}> ?l }} WHERE {{ ?e <{LABEL}> ?l }}").graph
    assert built is not None and (moen, LABEL, MOEN) in built
    described = graph.query(f"DESCRIBE <{moen}>").graph
    assert described is not None and (moen, LABEL, MOEN) in described


def test_sparqlstore_len_and_triples(graph: rdflib.Graph, served: Served) -> None:
    n = int(next(iter(graph.query(COUNT)))[0])  # type: ignore[index,call-overload]
    assert n > 50 and len(graph) == n
    moen = _moen(graph)
    assert (moen, LABEL, MOEN) in set(graph.triples((None, LABEL, None)))
    assert set(graph.triples((moen, LABEL, None))) >= {(moen, LABEL, MOEN)}


@pytest.mark.parametrize("form, query", [
    ("SELECT", f"SELECT ?e WHERE {{ ?e <{LABEL}> {MOEN.n3()} }}"),
    ("ASK", f"ASK {{ ?e <{LABEL}> {MOEN.n3()} }}"),
    ("CONSTRUCT", f"CONSTRUCT {{ ?e <{LABEL}> ?l }} WHERE {{ ?e <{LABEL}> ?l }}"),
    ("DESCRIBE", f"DESCRIBE ?e WHERE {{ ?e <{LABEL}> {MOEN.n3()} }}"),
])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_sparqlwrapper_defaults(served: Served, form: str, query: str, method: str) -> None:
    """SPARQLWrapper as a user writes it: no format set (XML for SELECT/ASK, RDF/XML for CONSTRUCT/DESCRIBE)."""
    from SPARQLWrapper import POST, SPARQLWrapper

    sw = SPARQLWrapper(served.url + "sparql")
    if method == "POST":
        sw.setMethod(POST)
    sw.setQuery(query)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # rdflib: SPARQLWrapper builds a ConjunctiveGraph
        warnings.simplefilter("error", RuntimeWarning)  # SPARQLWrapper warns when the answer is not in the format it asked for
        result = sw.query()
        converted = result.convert()
    if form == "SELECT":
        values = [n.firstChild.data for n in converted.getElementsByTagName("uri")]  # type: ignore[union-attr]
        assert result.response.headers["Content-Type"].startswith("application/sparql-results+xml")
        assert len(values) == 1 and values[0].endswith("halvard-moen")
    elif form == "ASK":
        assert "<boolean>true</boolean>" in converted.toxml()  # type: ignore[union-attr]
    else:
        assert result.response.headers["Content-Type"].startswith("application/rdf+xml")
        assert isinstance(converted, rdflib.Graph)
        assert any(o == MOEN for o in converted.objects(None, LABEL))


def _get(url: str, accept: str) -> tuple[int, str, bytes]:
    req = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, e.headers.get("Content-Type", ""), e.read()


def test_any_type_gets_turtle_for_a_graph(served: Served) -> None:
    q = urllib.parse.quote(f"CONSTRUCT WHERE {{ ?e <{LABEL}> {MOEN.n3()} }}")
    for accept in ("*/*", "text/*", "*/*;q=0.8, application/rdf+xml;q=0.1"):
        status, media, body = _get(f"{served.url}sparql?query={q}", accept)
        assert status == 200 and media.startswith("text/turtle"), (accept, media)
        assert rdflib.Graph().parse(data=body, format="turtle")
    status, media, body = _get(f"{served.url}sparql?query={q}", "application/rdf+xml")
    assert status == 200 and media == "application/rdf+xml"
    assert len(rdflib.Graph().parse(data=body, format="xml")) == 1


def test_rdfxml_says_what_it_cannot_write(served: Served) -> None:
    q = urllib.parse.quote("CONSTRUCT { <http://e/s> <http://e/p/1> 1 } WHERE {}")
    status, _, body = _get(f"{served.url}sparql?query={q}", "application/rdf+xml")
    assert status == 406 and b"RDF/XML cannot write the predicate <http://e/p/1>" in body
    status, media, _ = _get(f"{served.url}sparql?query={q}", "application/rdf+xml, text/turtle;q=0.5")
    assert status == 406  # the client preferred RDF/XML; it is told why, not sent something else silently


def test_graph_store_default_is_the_union_queries_see(served: Served) -> None:
    q = urllib.parse.quote(COUNT)
    _, _, body = _get(f"{served.url}sparql?query={q}", "application/sparql-results+json")
    count = int(json.loads(body)["results"]["bindings"][0]["n"]["value"])
    status, media, body = _get(f"{served.url}store?default", "application/n-triples")
    assert status == 200 and media.startswith("application/n-triples")
    triples = list(ox.parse(body, format=ox.RdfFormat.N_TRIPLES))
    assert len(triples) == len(set(triples)) == count > 50
    status, _, body = _get(f"{served.url}store?default", "application/rdf+xml")
    assert status == 200 and len(rdflib.Graph().parse(data=body, format="xml")) == count


def test_graph_store_default_is_not_written(served: Served, tmp_path: Path) -> None:
    req = urllib.request.Request(f"{served.url}store?default", data=b"<http://e/s> <http://e/p> 1 .", method="PUT",
                                 headers={"Content-Type": "application/n-triples"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=30)
    e.value.close()
    assert e.value.code == 403  # read-only server; with --allow-update it is 405 (test_server_protocol)
