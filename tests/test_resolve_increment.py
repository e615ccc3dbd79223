"""Incremental resolution (kg/resolve/increment.py) gives the store a full recompute gives it.

Random subsets of a pool of invented articles are stored in random orders, in several steps, with
articles replaced by another version and removed between steps; the resolution is brought up to
date after each step, from the memo the step before left. The store's N-Quads at the end must be
those of one store built at once from the final articles with a full recompute. The pool is made
so that the store-wide rules change their minds as articles come and go: an acronym with one
expansion and then two, a name qualified by one country and then two, a short name that becomes
ambiguous, a misspelling outnumbered, a common noun used by a second article.
"""
from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_resolve_rules import BASE, MINTER, article, store_of

from kg.model.facts import ArticleFacts
from kg.resolve.curation import Curation
from kg.resolve.graph import read_clusters, resolve_store, update_resolution
from kg.resolve.index import open_index
from kg.store import MemoryStore, Store

pytestmark = pytest.mark.unit

P, O, L = "Person", "Organization", "Place"  # noqa: E741

POOL: dict[str, list[ArticleFacts]] = {
    "a": [article("a", "Halvard Moen of the Ostmark Rowing League spoke in Tarnby.",
                  [("m", "Halvard Moen", P), ("r", "Ostmark Rowing League", O), ("t", "Tarnby", L)],
                  roles=[("m", "chairman", "r")]),
          article("a", "Halvard Moen and Ingrid Moen met in Tarnby.",
                  [("m", "Halvard Moen", P), ("i", "Ingrid Moen", P), ("t", "Tarnby", L)],
                  events=[("m", "meet", "i")])],
    "b": [article("b", "Moen of the Ostmark Rowing League denied it.",
                  [("m", "Moen", P), ("r", "Ostmark Rowing League", O)], roles=[("m", "chairman", "r")])],
    "c": [article("c", "The Valdorian News Agency (VNA) said the harbour closed.",
                  [("v", "Valdorian News Agency", O), ("t", "Tarnby", L)]),
          article("c", "A harbour closed near Tarnby, a spokesman said.", [("t", "Tarnby", L)])],
    "d": [article("d", "VNA reported a storm in Tarnby.", [("v", "VNA", O), ("t", "Tarnby", L)],
                  events=[("v", "report", "t")])],
    "e": [article("e", "The Valdorian Naval Academy (VNA) opened a school.", [("v", "Valdorian Naval Academy", O)])],
    "f": [article("f", "The Norwegian Fisheries Board met the Fisheries Board in Norway.",
                  [("n", "Norwegian Fisheries Board", O), ("f", "Fisheries Board", O), ("no", "Norway", L)])],
    "g": [article("g", "The Danish Fisheries Board disagreed.", [("n", "Danish Fisheries Board", O)])],
    "h": [article("h", "The Wrold Bank and the World Bank lent money to Tarnby.",
                  [("w", "Wrold Bank", O), ("b", "World Bank", O), ("t", "Tarnby", L)],
                  events=[("b", "lend", "t")])],
    "i": [article("i", "The World Bank lent again.", [("b", "World Bank", O)]),
          article("i", "The Wrold Bank lent again.", [("w", "Wrold Bank", O)])],
    "j": [article("j", "The Farmers' Union Congress met; the congress voted.",
                  [("u", "Farmers' Union Congress", O), ("c", "congress", O)])],
    "k": [article("k", "The congress of the Ostmark Rowing League met; the Rowers cheered.",
                  [("c", "congress", O), ("r", "Ostmark Rowing League", O)])],
    "l": [article("l", "Per Moen, a rower of the Ostmark Rowing League, won in the U.S.",
                  [("p", "Per Moen", P), ("r", "Ostmark Rowing League", O), ("us", "U.S.", L)],
                  roles=[("p", "rower", "r")]),
          article("l", "The United States welcomed Per Moen.", [("p", "Per Moen", P), ("us", "United States", L)],
                  events=[("us", "welcome", "p")])],
    "m": [article("m", "The Rowers, the Ostmark Rowing League, met.",
                  [("r", "Ostmark Rowing League", O, {"Ostmark Rowing League", "Rowers"})])],
    # a place of the store makes "Ostmark Rowing League" a qualified form of "Rowing League"
    "n": [article("n", "The Rowing League thanked Ostmark.", [("rl", "Rowing League", O), ("o", "Ostmark", L)],
                  events=[("rl", "thank", "o")])],
    # far from the rest: a short name that joins by a common partner, which another article renames
    "p": [article("p", "Zelda Quist of Quist Holdings met Tarnby Council.",
                  [("z", "Zelda Quist", P), ("q", "Quist Holdings", O), ("c", "Tarnby Council", O)],
                  events=[("z", "meet", "c")])],
    "q": [article("q", "Quist met the Tarnby Council.", [("z", "Quist", P), ("c", "Tarnby Council", O)],
                  events=[("z", "meet", "c")]),
          article("q", "Quist met the council of Tarnby.", [("z", "Quist", P), ("c", "Council of Tarnby", O)],
                  events=[("z", "meet", "c")])],
    "r": [article("r", "The Council of Tarnby, the Tarnby Council, met.",
                  [("c", "Tarnby Council", O, {"Tarnby Council", "Council of Tarnby"})])],
    "s": [article("s", "Otto Quist arrived.", [("o", "Otto Quist", P)])],
}


def nquads(store: Store) -> list[str]:
    return sorted(line for line in store.dump("nquads", union=False).decode("utf-8").split("\n") if line)


def full_build(final: dict[str, ArticleFacts], curation: Curation | None = None) -> Store:
    store = store_of(*final.values())
    update_resolution(store, MINTER, curation=curation or Curation(), full=True)
    return store


def curated() -> Curation:
    """Decisions over the pool's entities: every kind, so the increments must follow them too."""
    cur = Curation()
    cur.add("never_merge", entities=["person/moen", "person/ingrid-moen"])
    cur.add("split", entity="organization/congress")
    cur.add("merge", entities=["organization/world-bank", "organization/valdorian-naval-academy"])
    cur.add("rename", entity="organization/vna", label="The VNA")
    cur.add("retype", entity="organization/quist-holdings", type="Person")
    return cur


# one step: (article id, version, or -1 to remove it)
steps = st.lists(st.lists(st.tuples(st.sampled_from(sorted(POOL)), st.integers(-1, 1)), min_size=1, max_size=8),
                 min_size=1, max_size=6)


def run_plan(plan: list[list[tuple[str, int]]], curation: Curation) -> tuple[Store, dict[str, ArticleFacts]]:
    """Store and resolve the plan's steps one after the other; the store and the articles it ends with."""
    store = MemoryStore()
    final: dict[str, ArticleFacts] = {}
    for step in plan:
        touched = []
        for aid, version in step:
            if version < 0:
                store.remove_graph(MINTER.graph(aid))
                final.pop(aid, None)
                continue
            facts = POOL[aid][version % len(POOL[aid])]
            store_of(facts, store=store)
            final[aid] = facts
            touched.append(MINTER.graph(aid))
        res = update_resolution(store, MINTER, curation=curation, touched=touched)
        assert res is not None and res.change is not None
    return store, final


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_increments_in_any_order_give_the_store_of_one_full_build(plan):
    store, final = run_plan(plan, Curation())
    assert nquads(store) == nquads(full_build(final))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_increments_under_curation_give_the_store_of_one_full_build(plan):
    store, final = run_plan(plan, curated())
    assert nquads(store) == nquads(full_build(final, curated()))


def test_the_index_counts_articles_events_and_roles_as_the_store_does():
    from kg.outputs.stats import totals
    from kg.resolve.graph import held_totals

    store, _ = run_plan([[("a", 0), ("b", 0), ("h", 0)], [("a", 1), ("b", -1), ("i", 0)]], Curation())
    counted = totals(store)
    assert counted["articles"] == 3 and counted["events"] > 0 and counted["roles"] == 0
    assert held_totals(store, BASE) == counted
    full = full_build({x: POOL[x][v] for x, v in (("a", 1), ("h", 0), ("i", 0))})
    assert held_totals(full, BASE) == totals(full) == counted


def test_an_article_far_from_the_rest_reaches_only_its_own_clusters():
    store = store_of(*(POOL[x][0] for x in "abcdefghjklm"))
    update_resolution(store, MINTER, curation=Curation())
    store_of(POOL["s"][0], store=store)
    res = update_resolution(store, MINTER, curation=Curation(), touched=[MINTER.graph("s")])
    assert res is not None and res.change is not None and not res.change.full
    assert res.change.read == [MINTER.graph("s")] and res.change.counted == [MINTER.article("s")]
    assert [c.label for c in res.clusters] == ["Otto Quist"]
    assert nquads(store) == nquads(full_build({x: POOL[x][0] for x in "abcdefghjklms"}))


def test_a_new_article_is_all_that_is_read_and_only_the_clusters_it_reaches_are_counted_again():
    store = store_of(*(POOL[x][0] for x in "acfgj"))
    first = update_resolution(store, MINTER, curation=Curation())
    assert first is not None and first.change is not None and first.change.full
    store_of(POOL["b"][0], store=store)
    res = update_resolution(store, MINTER, curation=Curation(), touched=[MINTER.graph("b")])
    assert res is not None and res.change is not None and not res.change.full
    assert res.change.read == [MINTER.graph("b")]
    # "Moen" joins Halvard Moen's cluster, but a's text is counted by a's own names, as before
    assert res.change.counted == [MINTER.article("b")]
    assert nquads(store) == nquads(full_build({x: POOL[x][0] for x in "abcfgj"}))
    store_of(POOL["m"][0], store=store)  # a new name of the League: every article naming it is counted again
    res = update_resolution(store, MINTER, curation=Curation(), touched=[MINTER.graph("m")])
    assert res is not None and res.change is not None
    assert res.change.counted == [MINTER.article(x) for x in "abm"]
    assert nquads(store) == nquads(full_build({x: POOL[x][0] for x in "abcfgjm"}))


def test_a_removed_article_is_dropped_from_the_memo_and_its_clusters_counted_again():
    store = store_of(*(POOL[x][0] for x in "hi"))
    update_resolution(store, MINTER, curation=Curation())
    store.remove_graph(MINTER.graph("i"))
    res = update_resolution(store, MINTER, curation=Curation())
    assert res is not None and res.change is not None
    assert res.change.read == [] and res.change.dropped == [MINTER.graph("i")]
    assert set(open_index(store).articles()) == {MINTER.graph("h")}
    assert nquads(store) == nquads(full_build({"h": POOL["h"][0]}))


def test_a_stale_memo_is_not_used():
    store = store_of(POOL["a"][0])
    update_resolution(store, MINTER, curation=Curation())
    open_index(store).set_meta("digest", "something else")  # as if the graph were written by another resolution
    store_of(POOL["b"][0], store=store)
    res = update_resolution(store, MINTER, curation=Curation(), touched=[MINTER.graph("b")])
    assert res is not None and res.change is not None and res.change.full


def test_the_incremental_resolution_has_the_clusters_of_the_plain_computation():
    store = store_of(*(POOL[x][0] for x in "abdef"))
    update_resolution(store, MINTER, curation=Curation())
    store_of(POOL["c"][0], store=store)
    res = update_resolution(store, MINTER, curation=Curation(), touched=[MINTER.graph("c")])
    plain = resolve_store(store, BASE, Curation(), [])
    assert res is not None and res.clusters and res.change is not None and not res.change.full
    recomputed = {c.canonical: (c.label, c.members, c.aliases) for c in res.clusters}
    assert {c.canonical: (c.label, c.members, c.aliases) for c in plain.clusters if c.canonical in recomputed} == recomputed
    assert [(c.canonical, c.label, c.members, c.aliases, c.counts) for c in read_clusters(store, BASE)] == \
           [(c.canonical, c.label, c.members, c.aliases, c.counts) for c in plain.clusters]


#: shared-words.rq as it was before the kg:labelWord index: the words of each label worked out by REGEX.
SHARED_WORDS_BY_REGEX = r"""PREFIX kg: <https://w3id.org/kg-news/ns#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT DISTINCT ?type ?label1 ?label2 ?entity1 ?entity2 WHERE {
  { SELECT DISTINCT ?type ?entity1 ?label1 ?alternatives WHERE {
      VALUES ?type { kg:Person kg:Organization kg:Place }
      ?entity1 skos:prefLabel ?label1 .
      FILTER EXISTS { ?entity1 kg:mentionedIn ?m1 } FILTER EXISTS { ?entity1 a ?type }
      BIND(REPLACE(LCASE(?label1), "[^\\p{L}\\p{N}]+", " ") AS ?spaced)
      BIND(REPLACE(?spaced, "\\b(\\p{L}{1,2}|the|and|for)\\b", " ") AS ?kept)
      BIND(REPLACE(REPLACE(?kept, "^ +| +$", ""), " +", "|") AS ?alternatives)
      FILTER(?alternatives != "") } }
  { SELECT DISTINCT ?type ?entity2 ?label2 ?words2 WHERE {
      VALUES ?type { kg:Person kg:Organization kg:Place }
      ?entity2 skos:prefLabel ?label2 .
      FILTER EXISTS { ?entity2 kg:mentionedIn ?m2 } FILTER EXISTS { ?entity2 a ?type }
      BIND(REPLACE(LCASE(?label2), "[^\\p{L}\\p{N}]+", " ") AS ?words2) } }
  FILTER(STR(?entity1) < STR(?entity2))
  FILTER(REGEX(?words2, CONCAT("\\b(", ?alternatives, ")\\b")))
}
ORDER BY ?type ?label1 ?label2"""


def test_shared_words_through_the_index_gives_the_rows_of_comparing_every_pair():
    from pathlib import Path

    from kg.resolve.lines import label_words

    assert label_words("The Ostmark Rowing-League of Tarnby, 2nd & G7 for Ås") == \
        {"ostmark", "rowing", "league", "tarnby", "2nd", "g7"}
    store = store_of(*(POOL[x][0] for x in "abcdefghjkl"))
    update_resolution(store, MINTER, curation=Curation())
    query = (Path(__file__).resolve().parents[1] / "queries" / "shared-words.rq").read_text(encoding="utf-8")
    rows = store.select(query)
    assert len(rows) >= 3 and rows == store.select(SHARED_WORDS_BY_REGEX)


def test_an_index_of_another_version_is_made_again(tmp_path):
    from kg.resolve.index import INDEX_FILE
    from kg.store import OxigraphStore

    old = sqlite3.connect(tmp_path / INDEX_FILE)
    old.executescript("CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT); INSERT INTO meta VALUES ('version', '0');"
                      "CREATE TABLE article (graph TEXT PRIMARY KEY, iri TEXT);")
    old.commit()
    old.close()
    store = OxigraphStore(tmp_path)
    try:
        store_of(POOL["a"][0], store=store)
        res = update_resolution(store, MINTER, curation=Curation())
        assert res is not None and res.change is not None and res.change.full
        assert set(open_index(store).articles()) == {MINTER.graph("a")}
    finally:
        store.close()
