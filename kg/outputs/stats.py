"""Counts that say how big the graph is and what it holds.

**An entity** is one entity after resolution: one cluster of the store's resolution graph, what
``kg entities`` lists (``entity_counts``). ``kg stats`` counts those, ``kg entities`` lists them,
and the view and GraphML say how many of them they draw (only the entities in a kept fact are
nodes there). The entity IRIs the articles mint (one per name and type an article gives, before
resolution joins them) are counted apart, as such.
"""
from __future__ import annotations

from collections import Counter

from ..config import DEFAULTS
from ..model.facts import ENTITY_TYPES
from ..model.vocab import sparql_prefixes
from ..store import Store

#: Articles, events and roles, one row each (``?what``, ``?n``) when the store holds any.
_KINDS = """
  { ?x a kg:Article . BIND("articles" AS ?what) }
  UNION { ?x a kg:Event . BIND("events" AS ?what) }
  UNION { ?x a org:Membership . BIND("roles" AS ?what) }"""
_TOTALS = sparql_prefixes("kg", "org") + f"SELECT ?what (COUNT(DISTINCT ?x) AS ?n) WHERE {{{_KINDS}\n}} GROUP BY ?what\n"
_COUNTS = sparql_prefixes("kg", "org") + f"""
SELECT ?what (COUNT(DISTINCT ?x) AS ?n) WHERE {{{_KINDS}
  UNION {{ ?x a ?type . FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group)) BIND("iris" AS ?what) }}
}} GROUP BY ?what
"""

#: the rows of ``entity_counts`` by type, in ``facts.ENTITY_TYPES`` order
TYPE_ROWS = {"Person": "people", "Organization": "organizations", "Place": "places", "Group": "groups"}
ORDER = ("articles", "entities", *TYPE_ROWS.values(), "events", "roles", "entity IRIs")
#: what each row counts, for the table of ``kg stats``
MEANING = {
    "entities": "after resolution (kg entities)",
    "entity IRIs": "before resolution",
    "events": "all, also negated or planned",
    "quads": "in all graphs",
}


def entity_counts(store: Store, base: str | None = None) -> dict[str, int]:
    """The one count of entities: the clusters ``kg entities`` lists, in total ("entities") and
    by type ("people", "organizations", "places", "groups")."""
    from ..resolve.lookup import list_entities

    by_type = Counter(c.type for c in list_entities(store, base or DEFAULTS["base"]))
    out = {"entities": sum(by_type.values())}
    out.update({row: by_type.get(t, 0) for t, row in TYPE_ROWS.items()})
    assert set(TYPE_ROWS) == set(ENTITY_TYPES)
    return out


def totals(store: Store) -> dict[str, int]:
    """Articles, events (all: also negated or planned) and roles in the store, as ``counts`` has them."""
    found = {r["what"]: int(r["n"] or 0) for r in store.select(_TOTALS)}
    return {name: found.get(name, 0) for name in ("articles", "events", "roles")}



def counts(store: Store, base: str | None = None) -> dict[str, int]:
    """Articles, entities (in total and by type), events, roles, entity IRIs, named graphs, quads."""
    found = {r["what"]: int(r["n"] or 0) for r in store.select(_COUNTS)}
    found["entity IRIs"] = found.pop("iris", 0)
    found.update(entity_counts(store, base))
    result = {name: found.get(name, 0) for name in ORDER}
    result["named graphs"] = len(store.graphs())
    result["quads"] = len(store)
    return result
