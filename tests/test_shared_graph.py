"""The shared graph: what articles have in common (an entity's types and names, a role's label, an
event class) is stated once, in {base}resolution, and no triple is in two article graphs, so the
union default graph kg queries holds each triple once. Rebuilds keep it exact."""
from __future__ import annotations

from dataclasses import replace

import pyoxigraph as ox
from test_resolve_rules import MINTER, article, iri, store_of

from kg.build.pipeline import stored_hashes
from kg.rdf.mapping import LAYOUT_VERSION
from kg.resolve.data import load_data
from kg.resolve.graph import resolution_graph, update_resolution
from kg.store import MemoryStore, Store

BASE = MINTER.base
MOEN = iri("Person", "Halvard Moen")
WOLVES = iri("Organization", "Iron Wolves")
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def _facts(aid: str, text: str, moen_aliases: tuple[str, ...] = ("Moen",)):  # -> ArticleFacts
    f = article(aid, text, [("k", "Halvard Moen", "Person", {"Halvard Moen", *moen_aliases}),
                            ("t", "Iron Wolves", "Organization")],
                events=[("k", "condemn", "t")], roles=[("k", "president", "t")])
    f.events[0] = replace(f.events[0], cameo="11")
    return f


def _quads(store: Store) -> list[tuple[str, str, str, str]]:
    nq = store.dump("nquads", union=False)
    return [(q.subject.value, q.predicate.value, str(q.object), q.graph_name.value)
            for q in ox.parse(nq, format=ox.RdfFormat.N_QUADS)]


def _values(store: Store, s: str, p: str) -> set[str]:
    return {r["o"] or "" for r in store.select(f"SELECT ?o WHERE {{ <{s}> <{p}> ?o }}")}


def test_no_triple_is_in_two_graphs_so_the_union_counts_each_once() -> None:
    store = store_of(*[_facts(f"a{i}", f"Halvard Moen condemned the Iron Wolves, story {i}.") for i in range(5)])
    update_resolution(store, MINTER)
    quads = _quads(store)
    triples = {q[:3] for q in quads}
    assert len(triples) == len(quads), "a triple is stored in two graphs"
    union = store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"]
    assert int(union or 0) == len(triples)
    # the shared descriptions are there once, in the shared graph
    described = [q for q in quads if q[0] == MOEN and q[1] == LABEL]
    assert [q[3] for q in described] == [resolution_graph(BASE)]
    assert _values(store, MOEN, ALT) >= {"Moen"}
    role = MINTER.role("president")
    assert _values(store, role, LABEL) == {"president"}
    assert _values(store, "https://w3id.org/kg-news/cameo/11", "http://www.w3.org/2004/02/skos/core#notation") == {"11"}


def test_the_writes_of_a_build_describe_an_article_before_resolution_runs() -> None:
    store = store_of(_facts("a0", "Halvard Moen condemned the Iron Wolves."))
    assert _values(store, MOEN, LABEL) == {"Halvard Moen"}
    assert _values(store, WOLVES, TYPE) >= {
        "https://w3id.org/kg-news/ns#Organization"}


def test_a_rebuild_drops_the_names_and_entities_no_article_gives_any_more() -> None:
    store = store_of(_facts("a0", "Halvard Moen condemned the Iron Wolves.", ("Moen", "Mr Moen")),
                     _facts("a1", "Halvard Moen condemned the Iron Wolves again."))
    update_resolution(store, MINTER)
    assert "Mr Moen" in _values(store, MOEN, ALT)
    gone = article("a0", "Ashraf Ghani spoke.", [("g", "Ashraf Ghani", "Person")])
    store_of(gone, _facts("a1", "Halvard Moen condemned the Iron Wolves again.", ()), store=store)
    update_resolution(store, MINTER)
    assert _values(store, MOEN, LABEL) == {"Halvard Moen"}
    assert "Mr Moen" not in _values(store, MOEN, ALT) and "Moen" not in _values(store, MOEN, ALT)
    assert _values(store, iri("Person", "Ashraf Ghani"), LABEL) == {"Ashraf Ghani"}
    store_of(article("a1", "Nothing here.", []), store=store)
    update_resolution(store, MINTER)
    assert _values(store, MOEN, LABEL) == set()
    assert _values(store, MINTER.role("president"), LABEL) == set()


def test_an_article_graph_of_another_layout_is_read_again_and_still_resolved() -> None:
    store = MemoryStore()
    a = MINTER.article("old")
    old = "\n".join([  # what kg wrote before kg:layoutVersion 2: the entity described in the article graph
        f'<{a}> <{TYPE}> <https://w3id.org/kg-news/ns#Article> .',
        f'<{a}> <https://w3id.org/kg-news/ns#contentHash> "{"0" * 64}" .',
        f'<{a}> <https://w3id.org/kg-news/ns#mentions> <{MOEN}> .',
        f'<{MOEN}> <{TYPE}> <https://w3id.org/kg-news/ns#Person> .',
        f'<{MOEN}> <{LABEL}> "Halvard Moen" .',
        f'<{MOEN}> <{ALT}> "Moen" .',
    ])
    store.replace_graph(MINTER.graph("old"), old)
    store_of(_facts("new", "Halvard Moen condemned the Iron Wolves."), store=store)
    hashes = stored_hashes(store)
    assert a not in hashes and MINTER.article("new") in hashes, f"layout {LAYOUT_VERSION} only"
    data = load_data(store)
    assert data.entities[MOEN].articles == {a, MINTER.article("new")}
    assert "Moen" in data.entities[MOEN].alts


def test_label_words_are_written_for_the_entities_shared_words_compares_not_for_groups() -> None:
    text = "Halvard Moen said a masked gunman attacked the Iron Wolves."
    f = article("w1", text, [("k", "Halvard Moen", "Person"), ("g", "a masked gunman", "Group"),
                             ("t", "Iron Wolves", "Organization")], events=[("g", "attack", "t")])
    store = store_of(f)
    update_resolution(store, MINTER)
    word = "https://w3id.org/kg-news/ns#labelWord"
    assert _values(store, MOEN, word) == {"halvard", "moen"}
    assert _values(store, WOLVES, word) == {"iron", "wolves"}
    group = MINTER.entity("Group", "a masked gunman", "w1")
    assert _values(store, group, LABEL) == {"a masked gunman"} and not _values(store, group, word)
