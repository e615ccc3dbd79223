"""The whole-store canned queries were reshaped for Oxigraph's evaluator (docs/ontology.md, "How the
whole-store queries are shaped"): each gives the rows the query gave before (``tests/queries_before/``),
as many times each, in the order of its ORDER BY keys, on stores with and without resolution, and on the
store of a real build; and on rdflib too (the dev-set scorer runs events.rq and roles.rq there)."""
from __future__ import annotations

import collections
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

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


def _triples_read(graph: rdflib.Graph, sparql: str) -> int:
    """How many triples rdflib reads from ``graph`` to answer ``sparql``."""
    read = 0
    triples = graph.triples

    def counted(pattern: Any) -> Iterator[Any]:
        nonlocal read
        for t in triples(pattern):
            read += 1
            yield t

    graph.triples = counted  # type: ignore[method-assign,assignment]
    try:
        list(graph.query(sparql))
    finally:
        del graph.triples
    return read


def _graph_of(n: int) -> rdflib.Graph:
    """The union graph of ``n`` invented articles of the same shape, resolved, as the scorer reads it."""
    facts = []
    for i in range(n):
        text = f"Reporter {i}: the Copper League sued the Tin Union and did not pay the Lead Guild."
        f = article(f"lin{i}", text, [("c", "Copper League", "Organization"), ("t", f"Tin Union {i}", "Organization"),
                                     ("l", "Lead Guild", "Organization"), ("p", f"Ilse Varga{i}", "Person")],
                    events=[("c", "sue", "t"), ("c", "pay", "l"), ("t", "answer", None), ("l", "fine", "c")],
                    roles=[("p", "treasurer", "c")])
        f.events[0] = replace(f.events[0], cameo="11")
        f.events[1] = replace(f.events[1], negated=True)
        f.events[2] = replace(f.events[2], modality="planned")
        f.events[3] = replace(f.events[3], cameo="17", reported_by="p", modality="reported")
        facts.append(f)
    store = store_of(*facts)
    update_resolution(store, MINTER)
    graph = rdflib.Graph()
    graph.parse(data=store.dump("nt", union=True).decode("utf-8"), format="nt")
    return graph


def test_whole_store_queries_read_a_store_twice_as_big_in_about_twice_the_reads_on_rdflib() -> None:
    """rdflib evaluates a join of subqueries whole, once per row of the group around it: a shape that
    reads a whole table per event grows with the square of the store (events.rq took 175 s instead of
    2 s on 60 articles that way; shared-words.rq before its word tables read 3.6 times as many
    triples here). Counted in triples read, not in time."""
    small, big = _graph_of(6), _graph_of(12)
    for name in [*KEYS, "shared-words.rq"]:
        sparql = (ROOT / "queries" / name).read_text(encoding="utf-8")
        a, b = _triples_read(small, sparql), _triples_read(big, sparql)
        assert a > 0 and b < 2.6 * a, (name, a, b)
