"""Counts that say how big the graph is and what it holds."""
from __future__ import annotations

from .store import Store

_COUNTS = """
PREFIX kg: <https://w3id.org/kg-news/ns#>
PREFIX org: <http://www.w3.org/ns/org#>
SELECT ?what (COUNT(DISTINCT ?x) AS ?n) WHERE {
  { ?x a kg:Article . BIND("articles" AS ?what) }
  UNION { ?x a kg:Person . BIND("people" AS ?what) }
  UNION { ?x a kg:Organization . BIND("organizations" AS ?what) }
  UNION { ?x a kg:Place . BIND("places" AS ?what) }
  UNION { ?x a kg:Group . BIND("groups" AS ?what) }
  UNION { ?x a kg:Event . BIND("events" AS ?what) }
  UNION { ?x a org:Membership . BIND("roles" AS ?what) }
} GROUP BY ?what
"""

ORDER = ("articles", "people", "organizations", "places", "groups", "events", "roles")


def counts(store: Store) -> dict[str, int]:
    """Articles, entities by type, events and roles, plus the number of quads."""
    found = {r["what"]: int(r["n"] or 0) for r in store.select(_COUNTS)}
    result = {name: found.get(name, 0) for name in ORDER}
    result["named graphs"] = len(store.graphs())
    result["quads"] = len(store)
    return result
