"""Resolution keeps IRIs stable and builds idempotent; it shows in the export, the view and the CLI."""
from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest
from test_resolve_rules import BASE, MINTER, _moen, article, iri, store_of
from typer.testing import CliRunner

from kg.build.pipeline import build
from kg.cli import app
from kg.config import Settings
from kg.errors import UsageError
from kg.outputs.export import serialize
from kg.outputs.network import load_network
from kg.resolve.curation import Curation
from kg.resolve.graph import read_clusters, resolution_graph, resolve_store, update_resolution
from kg.resolve.linking import parse_links
from kg.store import MemoryStore, open_store

MOEN_B = article("b", "President Moen of Norway blamed the Iron Wolves. Moen left.",
                   [("k", "Moen", "Person"), ("af", "Norway", "Place"), ("t", "Iron Wolves", "Organization")],
                   events=[("k", "blame", "t")], roles=[("k", "President", "af")])


def _graph(store, name: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(q) for q in ox.parse(store.dump("nquads", union=False), format=ox.RdfFormat.N_QUADS)
            if q.graph_name.value == name}


def test_iris_of_an_article_are_the_same_built_alone_or_after_another():
    alone = store_of(_moen("a"))
    after = store_of(MOEN_B, _moen("a"))
    for st in (alone, after):
        update_resolution(st, MINTER, curation=Curation())
    g = MINTER.graph("a")
    assert _graph(alone, g) == _graph(after, g)  # the article graph: every IRI and triple the same
    assert _graph(alone, g) and len(after.graphs()) == 3


@pytest.mark.model
def test_with_the_pipeline_a_built_after_b_keeps_its_iris(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("Norwegian President Halvard Moen called for a ceasefire in Quito on Sunday.\n", encoding="utf-8")
    (src / "b.txt").write_text("Norwegian President Moen condemned the Iron Wolves on Monday.\n", encoding="utf-8")
    s1, s2 = tmp_path / "s1", tmp_path / "s2"
    build([src / "a.txt"], Settings(store=str(s1), workers=1))
    build([src / "b.txt"], Settings(store=str(s2), workers=1))
    build([src / "a.txt"], Settings(store=str(s2), workers=1))
    g = MINTER.graph("a")
    one, two = open_store(s1), open_store(s2)
    try:
        assert _graph(one, g) == _graph(two, g)
        clusters = {m: c for c in read_clusters(two, BASE) for m in c.members}
        assert clusters[iri("Person", "Moen")].canonical == iri("Person", "Halvard Moen")
    finally:
        one.close()
        two.close()


@pytest.mark.model
def test_a_build_that_stores_nothing_skips_resolution_unless_its_inputs_changed(tmp_path, monkeypatch):
    import kg.resolve.graph as resolve
    from kg.resolve.curation import save, using

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("Norwegian President Halvard Moen met US envoy Tom Reyes in Quito on Sunday.\n", encoding="utf-8")
    store, cur = tmp_path / "s", tmp_path / "curation.toml"
    runs: list[str] = []
    for name in ("_full", "_increment"):  # a resolution is one of the two
        real = getattr(resolve, name)
        monkeypatch.setattr(resolve, name, lambda *a, _n=name, _f=real, **k: runs.append(_n) or _f(*a, **k))
    with using(cur):
        build([src], Settings(store=str(store), workers=1))
        build([src], Settings(store=str(store), workers=1))  # nothing stored, same inputs: skipped
        assert len(runs) == 1
        decisions = Curation()
        decisions.add("rename", entity="person/halvard-moen", label="H. Moen")
        save(decisions, cur)
        build([src], Settings(store=str(store), workers=1))  # nothing stored, the curation changed
        assert runs == ["_full", "_full"]  # a changed curation: everything again
    st = open_store(store)
    try:
        assert "H. Moen" in {c.label for c in read_clusters(st, BASE)}
    finally:
        st.close()


def test_resolution_is_idempotent_and_adding_articles_only_adds_links():
    st = store_of(_moen("a"), MOEN_B)
    update_resolution(st, MINTER, curation=Curation())
    first = _graph(st, resolution_graph(BASE))
    update_resolution(st, MINTER, curation=Curation())
    assert _graph(st, resolution_graph(BASE)) == first
    rebuilt = store_of(MOEN_B, _moen("a"))  # another order, from scratch
    update_resolution(rebuilt, MINTER, curation=Curation())
    assert _graph(rebuilt, resolution_graph(BASE)) == first

    before = resolve_store(st, BASE, Curation(), [])
    more = store_of(_moen("a"), MOEN_B, article("c", "Halvard Moen met BFTO.", [
        ("k", "Halvard Moen", "Person"), ("n", "BFTO", "Organization")], events=[("k", "meet", "n")]))
    after = resolve_store(more, BASE, Curation(), [])
    for cl in before.clusters:
        assert set(cl.members) <= set(after.of[cl.members[0]].members)


def test_union_export_holds_the_resolution_graph_and_trig_keeps_it_apart():
    st = store_of(_moen("a"), MOEN_B)
    update_resolution(st, MINTER, curation=Curation())
    ttl = serialize(st, "turtle").decode("utf-8")
    assert "owl:sameAs" in ttl and "skos:prefLabel" in ttl and "kg:mentionCount" in ttl
    quads = list(ox.parse(serialize(st, "nquads"), format=ox.RdfFormat.N_QUADS))
    same_as = [q for q in quads if q.predicate.value.endswith("#sameAs")]
    assert same_as and {q.graph_name.value for q in same_as} == {resolution_graph(BASE)}


def test_mention_counts_per_article():
    st = store_of(_moen("a"), MOEN_B)
    res = resolve_store(st, BASE, Curation(), [])
    cl = res.of[iri("Person", "Halvard Moen")]
    assert cl.counts == {MINTER.article("a"): 1, MINTER.article("b"): 2}  # "Halvard Moen"; "Moen" twice
    us = resolve_store(store_of(article("u", "The US and U.S. troops, American advisers; the United States.",
                                        [("us", "United States", "Place")])), BASE, Curation(), [])
    assert us.of[iri("Place", "United States")].counts == {MINTER.article("u"): 4}


def test_the_network_view_draws_one_node_per_cluster():
    st = store_of(_moen("a"), MOEN_B)
    update_resolution(st, MINTER, curation=Curation())
    net = load_network(st)
    moens = [n for n in net.nodes if "Moen" in n.label or "Moen" in n.aliases]
    assert len(moens) == 1
    node = moens[0]
    assert node.id == iri("Person", "Halvard Moen") and node.label == "Halvard Moen" and "Moen" in node.aliases
    assert {e.label for e in net.edges if e.source == node.id} == {"condemn", "blame", "President"}
    plain = store_of(_moen("a"), MOEN_B)  # no resolution graph: one node per IRI, as before
    assert len([n for n in load_network(plain).nodes if n.type == "Person"]) == 2


def test_the_union_with_resolution_conforms_to_the_shapes():
    pyshacl = pytest.importorskip("pyshacl")
    import rdflib

    st = store_of(_moen("a"), MOEN_B, article("d", "Ostrova-Lind was detained.", [("w", "Ostrova-Lind", "Organization")]))
    cur = Curation()
    cur.add("retype", entity="organization/ostrova-lind", type="Person")  # mints person/ostrova-lind
    update_resolution(st, MINTER, curation=cur)
    root = Path(__file__).resolve().parents[1]
    data = rdflib.Graph().parse(data=serialize(st, "turtle").decode("utf-8"), format="turtle")
    _, report, text = pyshacl.validate(data, shacl_graph=rdflib.Graph().parse(root / "ontology" / "shapes.ttl"),
                                       ont_graph=rdflib.Graph().parse(root / "ontology" / "kg.ttl"), inference="none")
    sh = rdflib.Namespace("http://www.w3.org/ns/shacl#")
    kg = rdflib.Namespace("https://w3id.org/kg-news/ns#")
    # the hand-made events carry no event class (the event-context shapes want one): look at the rest
    focus = {f for f in report.objects(None, sh.focusNode) if (f, rdflib.RDF.type, kg.Event) not in data}
    assert not focus, text[:2000]


def test_linking_tables_csv_and_tsv(tmp_path):
    links = parse_links("label,type,iri\n# a comment\nHalvard Moen,person,http://www.wikidata.org/entity/Q4115189\n\n")
    assert [(x.label, x.type, x.iri) for x in links] == [("Halvard Moen", "Person", "http://www.wikidata.org/entity/Q4115189")]
    assert parse_links("Quito\tPlace\thttp://www.wikidata.org/entity/Q13406268\n")[0].type == "Place"
    for bad, message in (("Quito,Thing,http://x.org/a\n", "type must be"), ("Quito,Place,not an iri\n", "absolute IRI"),
                         ("Quito,Place\n", "three columns")):
        with pytest.raises(UsageError, match=message):
            parse_links(bad, "links.csv")
    # named in the curation file, relative to it
    (tmp_path / "links.csv").write_text("Halvard Moen,Person,http://www.wikidata.org/entity/Q4115189\n", encoding="utf-8")
    (tmp_path / "curation.toml").write_text('linking = "links.csv"\n', encoding="utf-8")
    from kg.resolve.curation import load

    st = store_of(_moen("a"))
    update_resolution(st, MINTER, curation=load(tmp_path / "curation.toml"))
    (cl,) = [c for c in read_clusters(st, BASE) if c.type == "Person"]
    assert cl.external == ["http://www.wikidata.org/entity/Q4115189"]


def test_kg_entities_and_kg_show(tmp_path):
    store_dir = tmp_path / "store"
    st = open_store(store_dir)
    try:
        store_of(_moen("a"), MOEN_B, store=st)
        update_resolution(st, MINTER, curation=Curation())
    finally:
        st.close()
    runner = CliRunner()
    res = runner.invoke(app, ["entities", "--type", "person", "--format", "json", "--store", str(store_dir)])
    assert res.exit_code == 0, res.output
    (moen,) = json.loads(res.stdout)
    assert moen["label"] == "Halvard Moen" and moen["aliases"] == ["Moen"] and moen["articles"] == 2
    assert moen["mentions"] == 3 and moen["members"] == [iri("Person", "Halvard Moen"), iri("Person", "Moen")]
    table = runner.invoke(app, ["entities", "--search", "moe", "--store", str(store_dir)])
    assert table.exit_code == 0 and "Halvard Moen" in table.stdout and "Iron Wolves" not in table.stdout
    shown = runner.invoke(app, ["show", "person/moen", "--format", "json", "--store", str(store_dir)])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert {(f["as"], f["fact"]) for f in data["facts"]} == {
        ("actor", "Halvard Moen \u2192 condemn \u2192 Iron Wolves"), ("actor", "Halvard Moen \u2192 blame \u2192 Iron Wolves"),
        ("member", "Halvard Moen \u2014 President of \u2014 Norway")}
    assert all(f["sentence"] for f in data["facts"])
    text = runner.invoke(app, ["show", "Moen", "--store", str(store_dir)])
    assert text.exit_code == 0 and "\u201cPresident Moen of Norway blamed the Iron Wolves." in text.stdout
    missing = runner.invoke(app, ["show", "Nobody", "--store", str(store_dir)])
    assert missing.exit_code == 2 and "no entity named 'Nobody'" in missing.output
    empty = MemoryStore()
    assert read_clusters(empty, BASE) == []
