"""The store -> a plain network projection: entities as nodes, events and roles as edges.

``load_network(store)`` runs two SELECTs over the union graph (the facts, then the labels
and types of the entities they name) and returns plain dataclasses, sorted, so the same
store always gives the same ``Network`` (and so the same HTML from ``kg.view``).

What is drawn:

* an **event** (``kg:Event``) with a ``kg:target`` is an edge actor -> target, labelled
  with its ``kg:action``; only events that are not negated and whose modality is
  ``asserted`` or ``reported`` are kept (the same rule as ``queries/events.rq``);
* an event with **no target** ("Karzai called for calm") is not an edge: it is kept in
  ``Network.untargeted`` and listed among the facts of its actor node;
* a **membership** (``org:Membership``) is an edge person -> organization, labelled with
  the role's ``rdfs:label``, kind ``"role"``.

Nodes are the entities that take part in a kept fact. ``degree`` counts the drawn edges
at a node (a self-loop counts twice, as in networkx); target-less events do not count.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Iterable

from .facts import ENTITY_TYPES
from .vocab import KG_NS

if TYPE_CHECKING:  # pragma: no cover
    import networkx

    from .store import Row, Store

__all__ = ["Edge", "Network", "Node", "load_network", "to_networkx", "DRAWN_MODALITIES"]

#: Modalities of the events that are drawn (planned and hypothetical ones are not).
DRAWN_MODALITIES: tuple[str, ...] = ("asserted", "reported")


@dataclass(frozen=True)
class Node:
    """An entity: its IRI, one label, its kg type and the number of drawn edges at it."""

    id: str
    label: str
    type: str
    degree: int = 0
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Edge:
    """One fact: an event (actor -> target) or a membership (person -> organization).

    ``target`` is ``None`` only for target-less events (kept in ``Network.untargeted``).
    ``article_source`` is the article's ``dcterms:source`` (its file) or, failing that,
    its ``schema:url``.
    """

    id: str
    source: str
    target: str | None
    label: str
    kind: str  # "event" | "role"
    sentence: str = ""
    article: str = ""
    title: str = ""
    article_source: str = ""
    date: str = ""
    negated: bool = False
    modality: str = "asserted"
    former: bool = False


@dataclass
class Network:
    """Nodes and edges sorted by id; ``untargeted`` holds the events with no target."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    untargeted: list[Edge] = field(default_factory=list)

    def node(self, node_id: str) -> Node:
        """The node with this IRI (KeyError if absent)."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def facts_of(self, node_id: str) -> list[Edge]:
        """Every kept fact a node takes part in: edges at it and its target-less events."""
        return [e for e in (*self.edges, *self.untargeted) if node_id in (e.source, e.target)]


_PREFIXES = f"""\
PREFIX kg: <{KG_NS}>
PREFIX org: <http://www.w3.org/ns/org#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX schema: <https://schema.org/>
PREFIX prov: <http://www.w3.org/ns/prov#>
"""

# One row per fact (more if a fact has several values of an optional property; the rows
# of one fact are merged in Python, taking the smallest value, so the choice is stable).
FACTS_QUERY = (
    _PREFIXES
    + """
SELECT ?fact ?kind ?source ?target ?label ?negated ?modality ?former
       ?sentence ?article ?title ?file ?url ?date
WHERE {
  {
    ?fact a kg:Event ; kg:actor ?source ; kg:action ?label .
    BIND("event" AS ?kind)
    OPTIONAL { ?fact kg:target ?target }
    OPTIONAL { ?fact kg:negated ?negated }
    OPTIONAL { ?fact kg:modality ?modality }
  } UNION {
    ?fact a org:Membership ; org:member ?source ; org:organization ?target .
    BIND("role" AS ?kind)
    OPTIONAL { ?fact org:role/rdfs:label ?label }
    OPTIONAL { ?fact kg:former ?former }
  }
  OPTIONAL { ?fact kg:evidence/kg:sentence ?sentence }
  OPTIONAL {
    ?fact prov:wasDerivedFrom ?article .
    OPTIONAL { ?article dcterms:title ?title }
    OPTIONAL { ?article dcterms:source ?file }
    OPTIONAL { ?article schema:url ?url }
    OPTIONAL { ?article schema:datePublished ?date }
  }
}
"""
)

# Labels and kg types of every entity that takes part in an event or a membership.
ENTITIES_QUERY = (
    _PREFIXES
    + """
SELECT DISTINCT ?entity ?label ?type
WHERE {
  { ?f kg:actor ?entity } UNION { ?f kg:target ?entity }
  UNION { ?f org:member ?entity } UNION { ?f org:organization ?entity }
  OPTIONAL { ?entity rdfs:label ?label }
  OPTIONAL {
    ?entity a ?type .
    FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group))
  }
}
"""
)


def _true(value: str | None) -> bool:
    return value in ("true", "1")


def _first(values: Iterable[str | None]) -> str | None:
    present = sorted(v for v in values if v is not None)
    return present[0] if present else None


def _merge_facts(rows: list[Row]) -> list[Edge]:
    by_fact: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if row.get("fact"):
            by_fact[row["fact"]].append(row)  # type: ignore[index]
    edges = []
    for fact_id in sorted(by_fact):
        group = by_fact[fact_id]

        def pick(name: str, group: list[Row] = group) -> str | None:
            return _first(r.get(name) for r in group)

        kind = pick("kind") or "event"
        modality = pick("modality") or f"{KG_NS}asserted"
        if modality.startswith(KG_NS):
            modality = modality[len(KG_NS) :]
        edges.append(
            Edge(
                id=fact_id,
                source=pick("source") or "",
                target=pick("target"),
                label=pick("label") or ("member" if kind == "role" else ""),
                kind=kind,
                sentence=pick("sentence") or "",
                article=pick("article") or "",
                title=pick("title") or "",
                article_source=pick("file") or pick("url") or "",
                date=pick("date") or "",
                negated=_true(pick("negated")),
                modality=modality,
                former=_true(pick("former")),
            )
        )
    return edges


def _kept(edge: Edge, modalities: tuple[str, ...], include_negated: bool) -> bool:
    if edge.kind == "role":
        return True
    return (include_negated or not edge.negated) and edge.modality in modalities


def load_network(
    store: Store,
    *,
    modalities: tuple[str, ...] = DRAWN_MODALITIES,
    include_negated: bool = False,
) -> Network:
    """Project the store's events and memberships onto a ``Network``.

    By default only non-negated events whose modality is asserted or reported are kept;
    ``modalities`` and ``include_negated`` widen that (e.g. for analysis). Memberships
    are always kept. A node's label is its shortest ``rdfs:label`` (ties: alphabetical),
    the others are its ``aliases``; its type is the first kg class it has in
    ``facts.ENTITY_TYPES`` order ("Entity" if it has none).
    """
    facts = [e for e in _merge_facts(store.select(FACTS_QUERY)) if e.source and _kept(e, modalities, include_negated)]
    edges = [e for e in facts if e.target is not None]
    untargeted = [e for e in facts if e.target is None]

    labels: dict[str, set[str]] = defaultdict(set)
    types: dict[str, set[str]] = defaultdict(set)
    for row in store.select(ENTITIES_QUERY):
        ent = row["entity"]
        if ent is None:
            continue
        if row.get("label") is not None:
            labels[ent].add(row["label"])  # type: ignore[arg-type]
        if row.get("type") is not None:
            types[ent].add(row["type"][len(KG_NS) :])  # type: ignore[index]

    degree: dict[str, int] = defaultdict(int)
    members: set[str] = set()
    for e in edges:
        degree[e.source] += 1
        degree[e.target] += 1  # type: ignore[index]
        members.update((e.source, e.target))  # type: ignore[arg-type]
    members.update(e.source for e in untargeted)

    nodes = []
    for ent in sorted(members):
        names = sorted(labels.get(ent, ()), key=lambda s: (len(s), s))
        label = names[0] if names else _local_name(ent)
        etype = next((t for t in ENTITY_TYPES if t in types.get(ent, ())), "Entity")
        nodes.append(Node(id=ent, label=label, type=etype, degree=degree.get(ent, 0), aliases=tuple(sorted(names[1:]))))
    return Network(nodes=nodes, edges=edges, untargeted=untargeted)


def _local_name(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1] or iri


def to_networkx(network: Network) -> networkx.MultiDiGraph:
    """The network as a ``networkx.MultiDiGraph``: nodes keyed by IRI, edges keyed by fact IRI.

    Node attributes: label, type, degree, aliases. Edge attributes: every ``Edge`` field
    but source and target. Target-less events are in ``graph.graph["untargeted"]`` (dicts).
    """
    import networkx as nx

    g = nx.MultiDiGraph()
    for n in network.nodes:
        g.add_node(n.id, label=n.label, type=n.type, degree=n.degree, aliases=n.aliases)
    for e in network.edges:
        attrs = asdict(e)
        del attrs["source"], attrs["target"], attrs["id"]
        g.add_edge(e.source, e.target, key=e.id, id=e.id, **attrs)
    g.graph["untargeted"] = [asdict(e) for e in network.untargeted]
    return g
