"""kg.api: the functions behind the commands return data and raise KgError; none prints or exits."""
from __future__ import annotations

from pathlib import Path

import pytest
import rdflib
from factsamples import SEEDS
from typer.testing import CliRunner

from kg import api
from kg.cli import app
from kg.errors import NoStore, QueryError, UsageError

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("api") / "store"
    lines: list[str] = []
    report = api.build(sorted(SEEDS.glob("0[12]_*.txt")), store=where, workers=1, progress=lines.append)
    assert report.articles == 2 and not report.skipped and not report.outputs  # no out: the store only
    assert len(lines) == 2
    return where


def test_query_gives_a_table_a_boolean_or_turtle(store: Path) -> None:
    table = api.query("events.rq", store=store)
    assert isinstance(table, api.Table) and table.columns[:2] == ["article", "actor"] and table.rows
    assert api.query("ASK { ?s a <https://w3id.org/kg-news/ns#Event> }", store=store) is True
    graph = api.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 5", store=store)
    assert isinstance(graph, bytes) and len(rdflib.Graph().parse(data=graph, format="turtle")) == 5


def test_export_returns_the_bytes_and_writes_them_when_asked(store: Path, tmp_path: Path) -> None:
    data = api.export("nquads", store=store, output=tmp_path / "all.nq")
    assert data == (tmp_path / "all.nq").read_bytes() and data.count(b"\n") > 100


def test_view_returns_the_page_or_writes_it(store: Path, tmp_path: Path) -> None:
    page = api.view(store=store)
    assert page.path is None and page.html is not None and page.nodes > 0 and page.entities >= page.nodes
    written = api.view(tmp_path / "v.html", store=store)
    assert written.html is None and written.path == tmp_path / "v.html" and written.path.stat().st_size > 1000
    with pytest.raises(UsageError):
        api.view(tmp_path / "no-such-folder" / "v.html", store=store)


def test_analyze_entities_show_connect_and_stats(store: Path) -> None:
    found = api.analyze(store=store)
    assert found.ranks and found.top("pagerank", 3) == sorted(found.ranks, key=lambda r: -r.pagerank)[:3]
    people = api.entities(store=store, type="Person", limit=2)
    assert 1 <= len(people) <= 2 and all(c.type == "Person" for c in people)
    shown = api.show(people[0].label, store=store)
    assert shown.cluster.canonical == people[0].canonical and shown.base == "https://kg.example.org/"
    assert api.connect(people[0].label, people[0].label, store=store).hops == []
    assert api.stats(store=store)["articles"] == 2


def test_a_missing_store_is_an_error_not_an_exit(tmp_path: Path) -> None:
    with pytest.raises(NoStore):
        api.query("ASK {}", store=tmp_path / "none")
    assert not (tmp_path / "none").exists()


CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


def test_a_query_with_a_timeout_gives_what_the_plain_query_gives(store: Path) -> None:
    plain, guarded = api.query("events.rq", store=store), api.query("events.rq", store=store, timeout=60)
    assert isinstance(plain, api.Table) and isinstance(guarded, api.Table)
    assert guarded.columns == plain.columns and sorted(map(str, guarded.rows)) == sorted(map(str, plain.rows))
    assert api.query("ASK { ?s a <https://w3id.org/kg-news/ns#Event> }", store=store, timeout=60) is True
    graph = api.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 5", store=store, timeout=60)
    assert isinstance(graph, bytes) and len(rdflib.Graph().parse(data=graph, format="turtle")) == 5


def test_a_query_with_a_timeout_is_stopped_and_checked(store: Path) -> None:
    with pytest.raises(QueryError, match="timeout"):
        api.query(CARTESIAN, store=store, timeout=1)
    with pytest.raises(QueryError, match="SERVICE"):
        api.query("SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }", store=store, timeout=10)
    with pytest.raises(UsageError):
        api.query("ASK {}", store=store, timeout=0)


def test_kg_query_timeout_is_one_line(store: Path) -> None:
    res = CliRunner().invoke(app, ["query", CARTESIAN, "--store", str(store), "--timeout", "1"])
    assert res.exit_code == 1 and res.output.count("\n") == 1 and "timeout" in res.output, res.output
