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

import re
from collections import defaultdict, deque
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Iterable
from urllib.parse import unquote

from ..errors import UsageError
from ..model.facts import ENTITY_TYPES
from ..model.vocab import KG_NS

if TYPE_CHECKING:  # pragma: no cover
    import networkx

    from ..store import Row, Store

__all__ = [
    "Edge", "Network", "Node", "load_network", "to_networkx", "DRAWN_MODALITIES", "QUAD_CLASSES", "quad_class",
    "find_entity", "ego_network", "article_network", "class_network", "date_network", "restrict", "select",
]

#: Modalities of the events that are drawn (planned and hypothetical ones are not).
DRAWN_MODALITIES: tuple[str, ...] = ("asserted", "reported")

#: CAMEO quad classes, in the order of their root codes.
QUAD_CLASSES: tuple[str, ...] = ("verbal cooperation", "material cooperation", "verbal conflict", "material conflict")


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


_PREFIXES = f"""\
PREFIX kg: <{KG_NS}>
PREFIX org: <http://www.w3.org/ns/org#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX schema: <https://schema.org/>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
"""

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


def _merge_facts(rows: list[Row], classes: dict[str, dict[str, list[str]]]) -> list[Edge]:
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
        cls = pick("class") or ""
        about = classes.get(cls, {})
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


_QUAD_BY_CODE = {f"{c:02d}": QUAD_CLASSES[0 if c <= 5 else 1 if c <= 9 else 2 if c <= 14 else 3] for c in range(1, 21)}


def quad_class(code: str | None, *labels: str | None) -> str:
    """The CAMEO quad class of an event class: from a label that names one, else from its root code."""
    for label in labels:
        if label and label.strip().lower() in QUAD_CLASSES:
            return label.strip().lower()
    if code:
        m = re.fullmatch(r"0*(\d{1,2})\d*", code.strip())
        if m:
            return _QUAD_BY_CODE.get(f"{int(m.group(1)):02d}", "")
    return ""


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
    facts = [e for e in _merge_facts(store.select(FACTS_QUERY), classes)
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
    + """PREFIX owl: <http://www.w3.org/2002/07/owl#>
SELECT DISTINCT ?member ?canonical WHERE {
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


# --- subgraphs ----------------------------------------------------------------------


def restrict(network: Network, keep: Callable[[Edge], bool], nodes: Iterable[str] = ()) -> Network:
    """The facts ``keep`` accepts, the nodes they name (plus ``nodes``), degrees counted anew."""
    edges = [e for e in network.edges if keep(e)]
    untargeted = [e for e in network.untargeted if keep(e)]
    degree: dict[str, int] = defaultdict(int)
    members = set(nodes)
    for e in edges:
        degree[e.source] += 1
        degree[e.target] += 1  # type: ignore[index]
        members.update((e.source, e.target))  # type: ignore[arg-type]
    members.update(e.source for e in untargeted)
    kept = [replace(n, degree=degree.get(n.id, 0)) for n in network.nodes if n.id in members]
    return Network(nodes=kept, edges=edges, untargeted=untargeted)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def find_entity(network: Network, query: str) -> Node:
    """The node named by an IRI, a label or an alias (any case); the best linked one if several.

    Raises ``UsageError`` (with close matches, if any) when nothing matches.
    """
    for n in network.nodes:
        if n.id == query:
            return n
    q = _fold(query)
    if not q:
        raise UsageError("no entity given")

    def rank(nodes: list[Node]) -> Node:
        return sorted(nodes, key=lambda n: (-n.degree, n.label, n.id))[0]

    exact = [n for n in network.nodes if q in {_fold(s) for s in (n.label, *n.aliases)}]
    if exact:
        return rank(exact)
    near = [n for n in network.nodes if any(q in _fold(s) for s in (n.label, *n.aliases))]
    if len(near) == 1:
        return near[0]
    hint = ""
    if near:
        names = sorted({n.label for n in sorted(near, key=lambda n: (-n.degree, n.label))[:8]})
        hint = "; did you mean " + ", ".join(repr(x) for x in names) + "?"
    raise UsageError(f"no entity named {query!r} in the graph{hint}")


def ego_network(network: Network, entity: str, hops: int = 2) -> Network:
    """Everything within ``hops`` links of ``entity`` (label, alias or IRI), links taken both ways.

    The result holds every drawn fact between two of those entities (the induced
    subgraph, as ``networkx.ego_graph``) and their target-less events.
    """
    if hops < 0:
        raise UsageError(f"--hops must be 0 or more, not {hops}")
    center = find_entity(network, entity).id
    adjacent: dict[str, set[str]] = defaultdict(set)
    for e in network.edges:
        adjacent[e.source].add(e.target)  # type: ignore[arg-type]
        adjacent[e.target].add(e.source)  # type: ignore[index]
    seen = {center}
    frontier = deque([(center, 0)])
    while frontier:
        node, dist = frontier.popleft()
        if dist == hops:
            continue
        for nb in sorted(adjacent[node]):
            if nb not in seen:
                seen.add(nb)
                frontier.append((nb, dist + 1))
    return restrict(network, lambda e: e.source in seen and (e.target is None or e.target in seen), nodes=[center])


def _article_key(iri: str) -> str:
    return unquote(iri.rstrip("/").rsplit("/", 1)[-1])


def article_network(network: Network, article: str) -> Network:
    """The facts of one article, named by its IRI, its id or its title (any case)."""
    facts = network.facts()
    q = _fold(article)
    for test in (
        lambda e: e.article == article,
        lambda e: e.article and _article_key(e.article) == article,
        lambda e: e.article and _fold(e.title) == q,
        lambda e: e.article and _fold(_article_key(e.article)) == q,
    ):
        chosen = {e.article for e in facts if test(e)}
        if len(chosen) == 1:
            return restrict(network, _of_article(chosen.pop()))
        if len(chosen) > 1:
            raise UsageError(f"{article!r} names {len(chosen)} articles; give the article's IRI or id")
    raise UsageError(f"no article {article!r} with facts in the graph (give its id, IRI or title)")


def _of_article(iri: str) -> Callable[[Edge], bool]:
    """Whether a fact comes from the article ``iri``."""
    return lambda e: e.article == iri


def class_network(network: Network, cls: str) -> Network:
    """The events of one class: its IRI, code ("19"), label, or a CAMEO quad class name."""
    q = _fold(cls)
    events = [e for e in network.facts() if e.event_class]
    if not events:
        raise UsageError("no event in the graph has a class (kg:eventClass) yet")

    def matches(e: Edge) -> bool:
        if e.event_class == cls or _fold(e.event_class_label) == q or e.quad_class == q:
            return True
        return bool(e.event_class_code) and q.isdigit() and e.event_class_code == q.zfill(2)

    if not any(matches(e) for e in events):
        known = sorted({e.event_class_label or e.event_class for e in events})[:12]
        raise UsageError(f"no event of class {cls!r}; classes in the graph: {', '.join(known)}")
    return restrict(network, lambda e: e.kind == "event" and matches(e))


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_BOUND = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


def date_bound(value: str, name: str, last: bool = False) -> str:
    """A ``--since`` / ``--until`` date as ``YYYY-MM-DD``: ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``,
    a whole year or month meaning its first day (``last``: its last day). ``UsageError`` for
    anything else, impossible dates (2015-13-01, 2015-02-30) included."""
    import calendar
    import datetime

    m = _BOUND.fullmatch(value.strip())
    try:
        if m is None:
            raise ValueError
        year, month, day = int(m.group(1)), m.group(2), m.group(3)
        if month is None:
            return datetime.date(year, 12 if last else 1, 31 if last else 1).isoformat()
        if day is None:
            end = calendar.monthrange(year, int(month))[1] if 1 <= int(month) <= 12 else 1
            return datetime.date(year, int(month), end if last else 1).isoformat()
        return datetime.date(year, int(month), int(day)).isoformat()
    except ValueError:
        raise UsageError(f"{name} wants a date as YYYY, YYYY-MM or YYYY-MM-DD, and a real one; not {value!r}") from None


def date_range(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    """``--since`` and ``--until`` as first and last days (``date_bound``); ``UsageError`` if
    they are malformed, impossible, or out of order. Checked before any work starts."""
    first = date_bound(since, "--since") if since is not None else None
    last = date_bound(until, "--until", last=True) if until is not None else None
    if first and last and first > last:
        raise UsageError(f"--since {since} is after --until {until}")
    return first, last


def date_network(network: Network, since: str | None = None, until: str | None = None) -> Network:
    """The facts of articles dated (``schema:datePublished``) from ``since`` to ``until``, both included.

    Dates are ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (``date_bound``); facts of undated articles are left out.
    """
    since, until = date_range(since, until)

    def inside(e: Edge) -> bool:
        day = e.date[:10]
        if not _DATE.fullmatch(day):
            return False
        return (since is None or day >= since) and (until is None or day <= until)

    return restrict(network, inside)


def select(
    network: Network,
    *,
    entity: str | None = None,
    hops: int = 2,
    article: str | None = None,
    cls: str | None = None,
    since: str | None = None,
    until: str | None = None,
) -> tuple[Network, str]:
    """Apply the ``kg view`` selections in turn and say what was kept (for a page title).

    Fact filters first (article, class, date range), then the ego network of ``entity``
    within the facts that are left. With no selection the network is returned as is.
    """
    parts = []
    if article is not None:
        network = article_network(network, article)
        titles = sorted({e.title for e in network.facts() if e.title})
        parts.append(f"article {titles[0] if titles else article}")
    if cls is not None:
        network = class_network(network, cls)
        parts.append(f"class {cls}")
    if since is not None or until is not None:
        network = date_network(network, since, until)
        parts.append(f"dates {since or '…'} to {until or '…'}")
    if entity is not None:
        label = find_entity(network, entity).label
        network = ego_network(network, entity, hops)
        parts.append(f"{label} and {hops} {'hop' if hops == 1 else 'hops'} around")
    return network, "; ".join(parts)
