"""Resolution keeps IRIs stable and builds idempotent; it shows in the export, the view and the CLI."""
from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from test_resolve_rules import BASE, MINTER, _karzai, article, iri, store_of

from kg.cli import app
from kg.config import Settings
from kg.curation import Curation
from kg.errors import UsageError
from kg.export import serialize
from kg.linking import parse_links
from kg.network import load_network
from kg.pipeline import build
from kg.resolve import read_clusters, resolution_graph, resolve_store, update_resolution
from kg.store import MemoryStore, open_store

KARZAI_B = article("b", "President Karzai of Afghanistan blamed the Taliban. Karzai left.",
                   [("k", "Karzai", "Person"), ("af", "Afghanistan", "Place"), ("t", "Taliban", "Organization")],
                   events=[("k", "blame", "t")], roles=[("k", "President", "af")])


def _graph(store, name: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(q) for q in ox.parse(store.dump("nquads", union=False), format=ox.RdfFormat.N_QUADS)
            if q.graph_name.value == name}


def test_iris_of_an_article_are_the_same_built_alone_or_after_another():
    alone = store_of(_karzai("a"))
    after = store_of(KARZAI_B, _karzai("a"))
    for st in (alone, after):
        update_resolution(st, MINTER, curation=Curation())
    g = MINTER.graph("a")
    assert _graph(alone, g) == _graph(after, g)  # the article graph: every IRI and triple the same
    assert _graph(alone, g) and len(after.graphs()) == 3


def test_with_the_pipeline_a_built_after_b_keeps_its_iris(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("Afghan President Hamid Karzai called for calm in Kabul on Sunday.\n", encoding="utf-8")
    (src / "b.txt").write_text("Afghan President Karzai condemned the Taliban on Monday.\n", encoding="utf-8")
    s1, s2 = tmp_path / "s1", tmp_path / "s2"
    build([src / "a.txt"], Settings(store=str(s1), workers=1))
    build([src / "b.txt"], Settings(store=str(s2), workers=1))
    build([src / "a.txt"], Settings(store=str(s2), workers=1))
    g = MINTER.graph("a")
    one, two = open_store(s1), open_store(s2)
    try:
        assert _graph(one, g) == _graph(two, g)
        clusters = {m: c for c in read_clusters(two, BASE) for m in c.members}
        assert clusters[iri("Person", "Karzai")].canonical == iri("Person", "Hamid Karzai")
    finally:
        one.close()
        two.close()


def test_a_build_that_stores_nothing_skips_resolution_unless_its_inputs_changed(tmp_path, monkeypatch):
    import kg.resolve as resolve
    from kg.curation import save, using

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("Afghan President Hamid Karzai met US envoy Tom Reyes in Kabul on Sunday.\n", encoding="utf-8")
    store, cur = tmp_path / "s", tmp_path / "curation.toml"
    runs: list[int] = []
    real = resolve.resolve_store
    monkeypatch.setattr(resolve, "resolve_store", lambda *a, **k: runs.append(1) or real(*a, **k))
    with using(cur):
        build([src], Settings(store=str(store), workers=1))
        build([src], Settings(store=str(store), workers=1))  # nothing stored, same inputs: skipped
        assert len(runs) == 1
        decisions = Curation()
        decisions.add("rename", entity="person/hamid-karzai", label="H. Karzai")
        save(decisions, cur)
        build([src], Settings(store=str(store), workers=1))  # nothing stored, the curation changed
        assert len(runs) == 2
    st = open_store(store)
    try:
        assert "H. Karzai" in {c.label for c in read_clusters(st, BASE)}
    finally:
        st.close()


def test_resolution_is_idempotent_and_adding_articles_only_adds_links():
    st = store_of(_karzai("a"), KARZAI_B)
    update_resolution(st, MINTER, curation=Curation())
    first = _graph(st, resolution_graph(BASE))
    update_resolution(st, MINTER, curation=Curation())
    assert _graph(st, resolution_graph(BASE)) == first
    rebuilt = store_of(KARZAI_B, _karzai("a"))  # another order, from scratch
    update_resolution(rebuilt, MINTER, curation=Curation())
    assert _graph(rebuilt, resolution_graph(BASE)) == first

    before = resolve_store(st, BASE, Curation(), [])
    more = store_of(_karzai("a"), KARZAI_B, article("c", "Hamid Karzai met NATO.", [
        ("k", "Hamid Karzai", "Person"), ("n", "NATO", "Organization")], events=[("k", "meet", "n")]))
    after = resolve_store(more, BASE, Curation(), [])
    for cl in before.clusters:
        assert set(cl.members) <= set(after.of[cl.members[0]].members)


def test_union_export_holds_the_resolution_graph_and_trig_keeps_it_apart():
    st = store_of(_karzai("a"), KARZAI_B)
    update_resolution(st, MINTER, curation=Curation())
    ttl = serialize(st, "turtle").decode("utf-8")
    assert "owl:sameAs" in ttl and "skos:prefLabel" in ttl and "kg:mentionCount" in ttl
    quads = list(ox.parse(serialize(st, "nquads"), format=ox.RdfFormat.N_QUADS))
    same_as = [q for q in quads if q.predicate.value.endswith("#sameAs")]
    assert same_as and {q.graph_name.value for q in same_as} == {resolution_graph(BASE)}


def test_mention_counts_per_article():
    st = store_of(_karzai("a"), KARZAI_B)
    res = resolve_store(st, BASE, Curation(), [])
    cl = res.of[iri("Person", "Hamid Karzai")]
    assert cl.counts == {MINTER.article("a"): 1, MINTER.article("b"): 2}  # "Hamid Karzai"; "Karzai" twice
    us = resolve_store(store_of(article("u", "The US and U.S. troops, American advisers; the United States.",
                                        [("us", "United States", "Place")])), BASE, Curation(), [])
    assert us.of[iri("Place", "United States")].counts == {MINTER.article("u"): 4}


def test_the_network_view_draws_one_node_per_cluster():
    st = store_of(_karzai("a"), KARZAI_B)
    update_resolution(st, MINTER, curation=Curation())
    net = load_network(st)
    karzais = [n for n in net.nodes if "Karzai" in n.label or "Karzai" in n.aliases]
    assert len(karzais) == 1
    node = karzais[0]
    assert node.id == iri("Person", "Hamid Karzai") and node.label == "Hamid Karzai" and "Karzai" in node.aliases
    assert {e.label for e in net.edges if e.source == node.id} == {"condemn", "blame", "President"}
    plain = store_of(_karzai("a"), KARZAI_B)  # no resolution graph: one node per IRI, as before
    assert len([n for n in load_network(plain).nodes if n.type == "Person"]) == 2


def test_the_union_with_resolution_conforms_to_the_shapes():
    pyshacl = pytest.importorskip("pyshacl")
    import rdflib

    st = store_of(_karzai("a"), KARZAI_B, article("d", "Wingfield-Hayes was detained.", [("w", "Wingfield-Hayes", "Organization")]))
    cur = Curation()
    cur.add("retype", entity="organization/wingfield-hayes", type="Person")  # mints person/wingfield-hayes
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
    links = parse_links("label,type,iri\n# a comment\nHamid Karzai,person,http://www.wikidata.org/entity/Q464041\n\n")
    assert [(x.label, x.type, x.iri) for x in links] == [("Hamid Karzai", "Person", "http://www.wikidata.org/entity/Q464041")]
    assert parse_links("Kabul\tPlace\thttp://www.wikidata.org/entity/Q5838\n")[0].type == "Place"
    for bad, message in (("Kabul,Thing,http://x.org/a\n", "type must be"), ("Kabul,Place,not an iri\n", "absolute IRI"),
                         ("Kabul,Place\n", "three columns")):
        with pytest.raises(UsageError, match=message):
            parse_links(bad, "links.csv")
    # named in the curation file, relative to it
    (tmp_path / "links.csv").write_text("Hamid Karzai,Person,http://www.wikidata.org/entity/Q464041\n", encoding="utf-8")
    (tmp_path / "curation.toml").write_text('linking = "links.csv"\n', encoding="utf-8")
    from kg.curation import load

    st = store_of(_karzai("a"))
    update_resolution(st, MINTER, curation=load(tmp_path / "curation.toml"))
    (cl,) = [c for c in read_clusters(st, BASE) if c.type == "Person"]
    assert cl.external == ["http://www.wikidata.org/entity/Q464041"]


def test_kg_entities_and_kg_show(tmp_path):
    store_dir = tmp_path / "store"
    st = open_store(store_dir)
    try:
        store_of(_karzai("a"), KARZAI_B, store=st)
        update_resolution(st, MINTER, curation=Curation())
    finally:
        st.close()
    runner = CliRunner()
    res = runner.invoke(app, ["entities", "--type", "person", "--format", "json", "--store", str(store_dir)])
    assert res.exit_code == 0, res.output
    (karzai,) = json.loads(res.stdout)
    assert karzai["label"] == "Hamid Karzai" and karzai["aliases"] == ["Karzai"] and karzai["articles"] == 2
    assert karzai["mentions"] == 3 and karzai["members"] == [iri("Person", "Hamid Karzai"), iri("Person", "Karzai")]
    table = runner.invoke(app, ["entities", "--search", "karz", "--store", str(store_dir)])
    assert table.exit_code == 0 and "Hamid Karzai" in table.stdout and "Taliban" not in table.stdout
    shown = runner.invoke(app, ["show", "person/karzai", "--format", "json", "--store", str(store_dir)])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert {(f["as"], f["fact"]) for f in data["facts"]} == {
        ("actor", "Hamid Karzai \u2192 condemn \u2192 Taliban"), ("actor", "Hamid Karzai \u2192 blame \u2192 Taliban"),
        ("member", "Hamid Karzai \u2014 President of \u2014 Afghanistan")}
    assert all(f["sentence"] for f in data["facts"])
    text = runner.invoke(app, ["show", "Karzai", "--store", str(store_dir)])
    assert text.exit_code == 0 and "\u201cPresident Karzai of Afghanistan blamed the Taliban." in text.stdout
    missing = runner.invoke(app, ["show", "Nobody", "--store", str(store_dir)])
    assert missing.exit_code == 2 and "no entity named 'Nobody'" in missing.output
    empty = MemoryStore()
    assert read_clusters(empty, BASE) == []
