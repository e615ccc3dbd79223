"""The whole-store canned queries were reshaped for Oxigraph's evaluator (docs/ontology.md, "How the
whole-store queries are shaped"): each gives the rows the query gave before (``tests/queries_before/``),
as many times each, in the order of its ORDER BY keys, on stores with and without resolution, and on the
store of a real build; and on rdflib too (the dev-set scorer runs events.rq and roles.rq there)."""
from __future__ import annotations

import collections
from dataclasses import replace
from pathlib import Path

import pytest
import rdflib
from factsamples import sample_facts
from test_resolve_rules import MINTER, article, store_of

from kg.resolve.graph import update_resolution
from kg.store import Store

ROOT = Path(__file__).resolve().parents[1]
BEFORE = Path(__file__).resolve().parent / "queries_before"

#: query -> the columns its ORDER BY sorts by (rows that tie on them may come in any order)
KEYS = {
    "events.rq": ("article", "sentence", "actor", "action", "target"),
    "roles.rq": ("article", "org", "person", "role"),
    "events-by-class.rq": ("code", "article", "sentence", "actor", "action"),
    "said-what.rq": ("article", "source", "sentence", "action"),
    "entities.rq": ("mentions", "label"),
    "top-actors.rq": ("events", "actor"),
    "events-per-article.rq": ("article",),
    "conflict-cooperation.rq": ("events", "actor1", "actor2"),
}


def _rows(store: Store, sparql: str) -> list[tuple[tuple[str, str | None], ...]]:
    return [tuple(sorted(r.items())) for r in store.select(sparql)]


def _same(store: Store, name: str) -> int:
    old = _rows(store, (BEFORE / name).read_text(encoding="utf-8"))
    new = _rows(store, (ROOT / "queries" / name).read_text(encoding="utf-8"))
    assert collections.Counter(new) == collections.Counter(old), name
    keys = KEYS[name]
    assert [tuple(dict(r)[k] for k in keys) for r in new] == [tuple(dict(r)[k] for k in keys) for r in old], name
    return len(old)


def _articles() -> list:  # -> list[ArticleFacts]
    """Invented articles: a short name that joins its full name (a member's owl:sameAs), a label two
    entities share, an event with two targets, an agentless one, an actor that is its own target,
    several event classes, a reported and a claimed event, a negated, a planned and a hypothetical one, roles."""
    sample = sample_facts()
    text_a = "Halvard Moen of the Iron Wolves condemned the Harbor Authority and the Salt Guild."
    a = article("qa", text_a, [("m", "Halvard Moen", "Person"), ("w", "Iron Wolves", "Organization"),
                               ("h", "Harbor Authority", "Organization"), ("g", "Salt Guild", "Organization")],
                events=[("m", "condemn", "h"), ("m", "condemn", "g"), ("w", "praise", "w"), (None, "attack", "g")],
                roles=[("m", "leader", "w")])
    a.events[0] = replace(a.events[0], cameo="11")
    a.events[1] = replace(a.events[1], cameo="11")
    a.events[2] = replace(a.events[2], cameo="05", reported_by="h")
    a.events[3] = replace(a.events[3], cameo="18", claimed_by="w", modality="reported")
    text_b = "Moen of the Iron Wolves met the Salt Guild; Moen did not threaten them."
    b = article("qb", text_b, [("m", "Moen", "Person"), ("w", "Iron Wolves", "Organization"),
                               ("g", "Salt Guild", "Organization")],
                events=[("m", "meet", "g"), ("m", "threaten", "g"), ("g", "meet", "m"), ("w", "attack", "g"),
                        ("g", "sue", "w")],
                roles=[("m", "spokesman", "w"), ("m", "leader", "w")])
    b.events[0] = replace(b.events[0], cameo="04")
    b.events[1] = replace(b.events[1], cameo="13", negated=True)
    b.events[2] = replace(b.events[2], cameo="04", confidence=0.5)
    b.events[3] = replace(b.events[3], cameo="18", modality="planned")
    b.events[4] = replace(b.events[4], cameo="11", modality="hypothetical")
    return [sample, a, b]


def test_reshaped_queries_give_the_rows_they_gave_with_and_without_resolution() -> None:
    unresolved = store_of(*_articles())  # labels only: the rdfs:label fallback of events.rq and roles.rq
    resolved = store_of(*_articles())
    update_resolution(resolved, MINTER)
    for store in (unresolved, resolved):
        counts = {name: _same(store, name) for name in KEYS}
        assert counts["events.rq"] >= 6 and counts["roles.rq"] >= 3 and counts["said-what.rq"] >= 2, counts
    counts = {name: _same(resolved, name) for name in KEYS}
    assert counts["entities.rq"] >= 5 and counts["conflict-cooperation.rq"] >= 2, counts


def test_reshaped_queries_give_the_same_rows_on_rdflib() -> None:
    store = store_of(*_articles())
    update_resolution(store, MINTER)
    graph = rdflib.Graph()
    graph.parse(data=store.dump("nt", union=True).decode("utf-8"), format="nt")
    for name in KEYS:
        old = graph.query((BEFORE / name).read_text(encoding="utf-8"))
        new = graph.query((ROOT / "queries" / name).read_text(encoding="utf-8"))
        assert list(new) and collections.Counter(new) == collections.Counter(old), name


@pytest.mark.model
def test_reshaped_queries_give_the_rows_they_gave_on_the_seeds(seeds_store: Store) -> None:
    counts = {name: _same(seeds_store, name) for name in KEYS}
    assert counts["events.rq"] > 50, counts
