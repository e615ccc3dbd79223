"""The store -> a plain network projection: entities as nodes, events and roles as edges.

``load_network(store)`` runs two SELECTs over the union graph (the facts, then the labels
and types of the entities they name) and returns plain dataclasses, sorted, so the same
store always gives the same ``Network`` (and so the same HTML from ``kg.outputs.view``).

What is drawn:

* an **event** (``kg:Event``) with a ``kg:target`` is an edge actor -> target, labelled
  with its ``kg:action``; only events that are not negated and whose modality is
  ``asserted`` or ``reported`` are kept (the same rule as ``queries/events.rq``);
* an event with **no target** ("Moen called for a recount") is not an edge: it is kept in
  ``Network.untargeted`` and listed among the facts of its actor node;
* a **membership** (``org:Membership``) is an edge person -> organization, labelled with
  the role's ``rdfs:label``, kind ``"role"``.

An event's class is optional: when it has a ``kg:eventClass`` (a CAMEO root concept), the
edge carries the concept's IRI, label (``skos:prefLabel``), code (``skos:notation``, else
the digits ending the IRI) and CAMEO quad class, taken from a ``skos:broader`` concept
labelled like one or else from the root code (01-05 verbal cooperation, 06-09 material
cooperation, 10-14 verbal conflict, 15-20 material conflict). Without one those fields
are empty strings.

Subgraphs for the view and the analysis (plain functions, the result is a ``Network``
again, with degrees counted in it): ``ego_network`` (within N hops of an entity, on the
undirected projection), ``article_network``, ``class_network``, ``date_network``;
``find_entity`` resolves a label, alias or IRI to a node.

Nodes are the entities that take part in a kept fact. ``degree`` counts the drawn edges
at a node (a self-loop counts twice, as in networkx); target-less events do not count.
"""
from __future__ import annotations

import calendar
import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Iterable

from ..model.cameo import quad_class
from ..model.facts import ENTITY_TYPES
from ..model.vocab import KG_NS, sparql_prefixes

if TYPE_CHECKING:  # pragma: no cover
    import networkx

    from ..store import Row, Store


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
    #: the event's own time: as the text gives it ("on Sunday"), and the first and last day it can be
    #: (ISO days; "" where the event has no calendar value)
    when: str = ""
    first: str = ""
    last: str = ""
    negated: bool = False
    modality: str = "asserted"
    former: bool = False
    event_class: str = ""  # IRI of the kg:eventClass concept, "" if none
    event_class_label: str = ""
    event_class_code: str = ""  # CAMEO root code "01".."20" when known
    quad_class: str = ""  # one of QUAD_CLASSES, or ""


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

    def facts(self) -> list[Edge]:
        """Every kept fact: the drawn edges and the target-less events."""
        return [*self.edges, *self.untargeted]


_PREFIXES = sparql_prefixes("kg", "org", "rdfs", "dcterms", "schema", "prov", "skos", "sem")


# One row per fact (more if a fact has several values of an optional property; the rows
# of one fact are merged in Python, taking the smallest value, so the choice is stable).
# Each fact is matched inside its own article graph, which also describes its article and words
# its role (kg:roleLabel; org:role/rdfs:label in a graph written before kg:layoutVersion 2, when
# the role's description was repeated in every article graph that named it, and multiplied the
# rows of every fact that joined it over the union graph). Each event class is described once, by
# CLASSES_QUERY.
FACTS_QUERY = (
    _PREFIXES
    + """
SELECT ?fact ?kind ?source ?target ?label ?negated ?modality ?former
       ?sentence ?article ?title ?file ?url ?date ?class
WHERE { GRAPH ?g {
  {
    ?fact a kg:Event ; kg:actor ?source ; kg:action ?label .
    BIND("event" AS ?kind)
    OPTIONAL { ?fact kg:target ?target }
    OPTIONAL { ?fact kg:negated ?negated }
    OPTIONAL { ?fact kg:modality ?modality }
  } UNION {
    ?fact a org:Membership ; org:member ?source ; org:organization ?target .
    BIND("role" AS ?kind)
    OPTIONAL { { ?fact kg:roleLabel ?label } UNION { ?fact org:role/rdfs:label ?label } }
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
} OPTIONAL { ?fact kg:eventClass ?class } }
"""
)


# The label, code and quad-class labels of every event class used, wherever they are described
# (the article graphs, or a graph of their own): each class once, then each property apart.
CLASSES_QUERY = (
    _PREFIXES
    + """
SELECT DISTINCT ?class ?property ?value
WHERE {
  { SELECT DISTINCT ?class WHERE { ?fact kg:eventClass ?class } }
  {
    ?class skos:prefLabel|rdfs:label ?value . BIND("classLabel" AS ?property)
  } UNION {
    ?class skos:notation ?value . BIND("classCode" AS ?property)
  } UNION {
    { SELECT DISTINCT ?class ?quad WHERE { ?class skos:broader ?quad } }
    ?quad skos:prefLabel|rdfs:label ?value . BIND("quadLabel" AS ?property)
  }
}
"""
)


# The events' own times: the text, and a time stamp or the bounds of a span, one row per value (a
# query of their own: one more OPTIONAL group in FACTS_QUERY made Virtuoso 7.2 drop the targets and
# classes of some events).
TIMES_QUERY = (
    _PREFIXES
    + """
SELECT ?fact ?property ?value
WHERE {
  { ?fact kg:timeText ?value . BIND("when" AS ?property) }
  UNION { ?fact sem:hasTimeStamp ?value . BIND("stamp" AS ?property) }
  UNION { ?fact sem:hasEarliestBeginTimeStamp ?value . BIND("earliest" AS ?property) }
  UNION { ?fact sem:hasLatestEndTimeStamp ?value . BIND("latest" AS ?property) }
}
"""
)


# Labels and kg types of every entity that takes part in an event or a membership: each
# (entity, article graph) pair once, then the names and the type that article gives it (its
# kg:Naming; a graph written before kg:layoutVersion 2 describes the entity itself).
ENTITIES_QUERY = (
    _PREFIXES
    + """
SELECT DISTINCT ?entity ?label ?type
WHERE {
  { SELECT DISTINCT ?g ?entity WHERE { GRAPH ?g {
      { ?f kg:actor ?entity } UNION { ?f kg:target ?entity }
      UNION { ?f org:member ?entity } UNION { ?f org:organization ?entity } } } }
  OPTIONAL { GRAPH ?g { { ?n kg:entity ?entity ; kg:name ?label } UNION { ?entity rdfs:label ?label } } }
  OPTIONAL {
    GRAPH ?g { { ?n kg:entity ?entity ; kg:entityType ?type } UNION { ?entity a ?type } }
    FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group))
  }
}
"""
)


def day_span(begin: str, end: str) -> tuple[str, str]:
    """The first and last day of a time stamp or span given as xsd:date, gYearMonth or gYear values
    ("2012-02" -> 2012-02-01, 2012-02-29); ("", "") if either is not one."""
    first, last = _day(begin, False), _day(end, True)
    return (first, last) if first and last else ("", "")


def _day(value: str, last: bool) -> str:
    m = re.fullmatch(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?", value.strip()[:10])
    if m is None:
        return ""
    year, month = int(m[1]), int(m[2] or (12 if last else 1))
    if not 1 <= month <= 12:
        return ""
    day = int(m[3]) if m[3] else (calendar.monthrange(year, month)[1] if last else 1)
    return f"{year:04d}-{month:02d}-{day:02d}"


def _true(value: str | None) -> bool:
    return value in ("true", "1")


def _first(values: Iterable[str | None]) -> str | None:
    present = sorted(v for v in values if v is not None)
    return present[0] if present else None


def _classes(rows: list[Row]) -> dict[str, dict[str, list[str]]]:
    """Event class IRI -> property (classLabel, classCode, quadLabel) -> its values, sorted."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        cls, prop, value = row.get("class"), row.get("property"), row.get("value")
        if cls and prop and value is not None:
            found[cls][prop].add(value)
    return {c: {p: sorted(v) for p, v in props.items()} for c, props in found.items()}


def _times(rows: list[Row]) -> dict[str, dict[str, str]]:
    """Event IRI -> its time's properties (when, stamp, earliest, latest): the smallest value of each."""
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for row in rows:
        fact, prop, value = row.get("fact"), row.get("property"), row.get("value")
        if fact and prop and value is not None and (prop not in found[fact] or value < found[fact][prop]):
            found[fact][prop] = value
    return found


def _merge_facts(rows: list[Row], classes: dict[str, dict[str, list[str]]],
                 times: dict[str, dict[str, str]] | None = None) -> list[Edge]:
    by_fact: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if row.get("fact"):
            by_fact[row["fact"]].append(row)  # type: ignore[index]
    times = times or {}
    edges = []
    for fact_id in sorted(by_fact):
        group = by_fact[fact_id]

        def pick(name: str, group: list[Row] = group) -> str | None:
            return _first(r.get(name) for r in group)

        kind = pick("kind") or "event"
        modality = pick("modality") or f"{KG_NS}asserted"
        if modality.startswith(KG_NS):
            modality = modality[len(KG_NS) :]
        cls = pick("class") or ""
        about = classes.get(cls, {})
        when = times.get(fact_id, {})
        first, last = day_span(when.get("stamp") or when.get("earliest") or "", when.get("stamp") or when.get("latest") or "")
        code = _class_code(cls, _first(about.get("classCode", []))) if cls else ""
        quad = quad_class(code, *about.get("quadLabel", [])) if cls else ""
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
                when=when.get("when") or "",
                first=first,
                last=last,
                negated=_true(pick("negated")),
                modality=modality,
                former=_true(pick("former")),
                event_class=cls,
                event_class_label=_first(about.get("classLabel", [])) or "",
                event_class_code=code,
                quad_class=quad,
            )
        )
    return edges


def _class_code(iri: str, notation: str | None) -> str:
    if notation and notation.strip().isdigit():
        return notation.strip()[:2].zfill(2)
    m = re.search(r"(\d{2,4})/?$", iri)
    return m.group(1)[:2] if m else ""


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
    ``facts.ENTITY_TYPES`` order ("Entity" if it has none). When the store holds a
    resolution graph (``kg.resolve``), the IRIs of one cluster are one node, the canonical
    IRI, labelled with the cluster's ``skos:prefLabel``, every other name an alias.
    """
    classes = _classes(store.select(CLASSES_QUERY))
    facts = [e for e in _merge_facts(store.select(FACTS_QUERY), classes, _times(store.select(TIMES_QUERY)))
             if e.source and _kept(e, modalities, include_negated)]
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

    # Entity resolution (kg/resolve/): the IRIs of one cluster are one node, its canonical IRI.
    canonical_of, clusters = _clusters(store)
    if canonical_of:
        edges = [_collapse(e, canonical_of) for e in edges]
        untargeted = [_collapse(e, canonical_of) for e in untargeted]
        for member, canonical in canonical_of.items():
            labels[canonical] |= labels.get(member, set())

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
        aliases = tuple(sorted(names[1:]))
        if ent in clusters:
            label, etype, known = clusters[ent]
            aliases = tuple(sorted((known | set(names)) - {label}))
        nodes.append(Node(id=ent, label=label, type=etype, degree=degree.get(ent, 0), aliases=aliases))
    return Network(nodes=nodes, edges=edges, untargeted=untargeted)


# The resolution graph's clusters: a canonical entity is a node with a kg:mentionedIn.
CLUSTERS_QUERY = (
    _PREFIXES
    + sparql_prefixes("owl")
    + """SELECT DISTINCT ?member ?canonical WHERE {
  { SELECT DISTINCT ?canonical WHERE { ?canonical kg:mentionedIn ?record } }
  ?member owl:sameAs ?canonical .
}
"""
)


CANONICAL_QUERY = (
    _PREFIXES
    + """SELECT DISTINCT ?canonical ?label ?type ?alias WHERE {
  { SELECT DISTINCT ?canonical WHERE { ?canonical kg:mentionedIn ?record } }
  GRAPH ?g {
    ?canonical skos:prefLabel ?label ; a ?type .
    FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group))
    OPTIONAL { ?canonical skos:altLabel ?alias }
  }
}
"""
)


def _clusters(store: Store) -> tuple[dict[str, str], dict[str, tuple[str, str, set[str]]]]:
    """member IRI -> canonical IRI, and canonical IRI -> (label, type, aliases); empty without resolution."""
    canonical_of = {r["member"]: r["canonical"] for r in store.select(CLUSTERS_QUERY) if r["member"] and r["canonical"]}
    found: dict[str, tuple[str, str, set[str]]] = {}
    for r in sorted(store.select(CANONICAL_QUERY), key=lambda r: tuple(v or "" for v in r.values())):
        c = r["canonical"] or ""
        etype = (r["type"] or "")[len(KG_NS):]
        label, have, aliases = found.get(c, (r["label"] or "", etype, set()))
        if ENTITY_TYPES.index(etype) < ENTITY_TYPES.index(have):
            have = etype
        if r.get("alias"):
            aliases.add(r["alias"])  # type: ignore[arg-type]
        found[c] = (label, have, aliases)
    return canonical_of, found


def _collapse(edge: Edge, canonical_of: dict[str, str]) -> Edge:
    source = canonical_of.get(edge.source, edge.source)
    target = canonical_of.get(edge.target, edge.target) if edge.target is not None else None
    return edge if (source, target) == (edge.source, edge.target) else replace(edge, source=source, target=target)


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
