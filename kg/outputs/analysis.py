"""Graph questions SPARQL answers badly, as plain functions over ``kg.outputs.network.Network``.

* ``rankings``: every entity with its degree, PageRank and betweenness;
* ``communities``: Louvain communities (fixed seed, so the same graph gives the same answer);
* ``activity``: facts per article date (``schema:datePublished``);
* ``connection``: how two entities are connected, hop by hop, with the facts on the way;
* ``gephi_graph`` / ``write_graphml`` / ``write_gexf``: the network for Gephi, with every
  attribute a plain string or number (no ``None``, no lists, no XML-illegal characters).

Centrality is measured on the **undirected projection**: one link between two entities
per pair, weighted by the number of facts (events and roles, either way) between them,
self-loops dropped. Direction says who acted, but for "who matters in this story" being
acted upon counts as much as acting. PageRank (networkx, scipy backend) uses the weights;
betweenness counts hops (unweighted) and is exact up to ``BETWEENNESS_EXACT_LIMIT`` nodes,
above that estimated from a fixed-seed sample of ``BETWEENNESS_SAMPLES`` sources.
"""
from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..errors import UsageError
from ..files import atomic_write
from .network import Edge, Network
from .select import find_entity

if TYPE_CHECKING:  # pragma: no cover
    import networkx

__all__ = [
    "Rank", "Community", "Activity", "Hop", "undirected", "pagerank", "rankings", "top", "communities",
    "activity", "connection", "gephi_graph", "write_graphml", "write_gexf", "SEED",
]

#: Seed of every randomised algorithm here (Louvain, sampled betweenness).
SEED = 7
BETWEENNESS_EXACT_LIMIT = 2000
BETWEENNESS_SAMPLES = 256


@dataclass(frozen=True)
class Rank:
    """One entity's centrality (PageRank sums to 1; betweenness is normalised to [0, 1])."""

    id: str
    label: str
    type: str
    degree: int
    pagerank: float
    betweenness: float
    community: int = -1


@dataclass(frozen=True)
class Community:
    """A community: its number (0 = largest), members by PageRank, and the facts inside it."""

    index: int
    members: tuple[str, ...]
    labels: tuple[str, ...]
    internal_facts: int


@dataclass(frozen=True)
class Activity:
    """Facts of the articles published on one day ("" = articles with no date)."""

    date: str
    events: int
    roles: int
    articles: int


@dataclass(frozen=True)
class Hop:
    """One step of a path: from -> to, and the facts that link the two (either direction)."""

    source: str
    target: str
    source_label: str
    target_label: str
    facts: tuple[Edge, ...] = field(default_factory=tuple)


def undirected(network: Network) -> networkx.Graph:
    """One edge per linked pair, ``weight`` = number of facts between them; no self-loops."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(n.id for n in network.nodes)
    weights: Counter[tuple[str, str]] = Counter()
    for e in network.edges:
        if e.target is None or e.target == e.source:
            continue
        low, high = sorted((e.source, e.target))
        weights[(low, high)] += 1
    g.add_weighted_edges_from((a, b, w) for (a, b), w in sorted(weights.items()))
    return g


def pagerank(network: Network, graph: networkx.Graph | None = None) -> dict[str, float]:
    """PageRank of every node on the weighted undirected projection (empty network: {})."""
    import networkx as nx

    g = undirected(network) if graph is None else graph
    if g.number_of_nodes() == 0:
        return {}
    try:
        return nx.pagerank(g, alpha=0.85, weight="weight", max_iter=200, tol=1e-8)
    except nx.PowerIterationFailedConvergence:  # pragma: no cover - not seen with tol 1e-8
        return nx.pagerank(g, alpha=0.85, weight="weight", max_iter=2000, tol=1e-6)


def _betweenness(g: networkx.Graph) -> dict[str, float]:
    import networkx as nx

    n = g.number_of_nodes()
    if n <= BETWEENNESS_EXACT_LIMIT:
        return nx.betweenness_centrality(g, normalized=True)
    return nx.betweenness_centrality(g, k=BETWEENNESS_SAMPLES, normalized=True, seed=SEED)


def _communities(g: networkx.Graph) -> list[set[str]]:
    import networkx as nx

    if g.number_of_nodes() == 0:
        return []
    found = nx.community.louvain_communities(g, weight="weight", seed=SEED)
    return sorted((set(c) for c in found), key=lambda c: (-len(c), min(c)))


def rankings(network: Network) -> list[Rank]:
    """Every entity with degree, PageRank, betweenness and community number, in node order."""
    g = undirected(network)
    pr = pagerank(network, g)
    bc = _betweenness(g) if g.number_of_nodes() else {}
    community = {m: i for i, c in enumerate(_communities(g)) for m in c}
    return [
        Rank(n.id, n.label, n.type, n.degree, pr.get(n.id, 0.0), bc.get(n.id, 0.0), community.get(n.id, -1))
        for n in network.nodes
    ]


_MEASURES: dict[str, Callable[[Rank], float]] = {
    "degree": lambda r: r.degree,
    "pagerank": lambda r: r.pagerank,
    "betweenness": lambda r: r.betweenness,
}


def top(ranks: list[Rank], measure: str, n: int = 10) -> list[Rank]:
    """The ``n`` best by ``measure`` (degree, pagerank or betweenness); ties by label, then IRI."""
    if measure not in _MEASURES:
        raise UsageError(f"unknown measure {measure!r}; choose one of {', '.join(_MEASURES)}")
    key = _MEASURES[measure]
    return sorted(ranks, key=lambda r: (-key(r), r.label, r.id))[: max(n, 0)]


def communities(network: Network, ranks: list[Rank] | None = None) -> list[Community]:
    """Louvain communities of the undirected projection (seeded), largest first.

    Entities with no link are left out (each would be a community of one). Pass the
    ``rankings`` already made to reuse their community numbers and PageRank.
    """
    if ranks is None:
        g = undirected(network)
        pr = pagerank(network, g)
        groups = _communities(g)
    else:
        pr = {r.id: r.pagerank for r in ranks}
        by_number: dict[int, set[str]] = defaultdict(set)
        for r in ranks:
            if r.community >= 0:
                by_number[r.community].add(r.id)
        groups = [by_number[k] for k in sorted(by_number)]
    label = {n.id: n.label for n in network.nodes}
    out: list[Community] = []
    for c in groups:
        if len(c) < 2:
            continue
        members = tuple(sorted(c, key=lambda m: (-pr.get(m, 0.0), label[m], m)))
        internal = sum(1 for e in network.edges if e.source in c and e.target in c)
        out.append(Community(len(out), members, tuple(label[m] for m in members), internal))
    return out


def activity(network: Network) -> list[Activity]:
    """Events and roles per article date, oldest first; undated articles last (date "")."""
    events: Counter[str] = Counter()
    roles: Counter[str] = Counter()
    articles: dict[str, set[str]] = defaultdict(set)
    for e in network.facts():
        day = e.date[:10]
        (roles if e.kind == "role" else events)[day] += 1
        articles[day].add(e.article or e.id)
    days = sorted(articles, key=lambda d: (d == "", d))
    return [Activity(d, events[d], roles[d], len(articles[d])) for d in days]


def connection(network: Network, a: str, b: str) -> list[Hop] | None:
    """A shortest path from entity ``a`` to ``b`` (labels, aliases or IRIs), links taken both ways.

    Among shortest paths the one networkx's breadth-first search meets first (nodes in IRI
    order) is given, so the answer is stable. Each hop lists every drawn fact between its
    two entities, events first. ``[]`` if ``a`` and ``b`` are the same entity, ``None``
    if they are not connected; ``UsageError`` if either names no entity.
    """
    import networkx as nx

    src, dst = find_entity(network, a), find_entity(network, b)
    if src.id == dst.id:
        return []
    g = undirected(network)
    try:
        path = nx.shortest_path(g, src.id, dst.id)
    except nx.NetworkXNoPath:
        return None
    label = {n.id: n.label for n in network.nodes}
    between: dict[frozenset[str], list[Edge]] = defaultdict(list)
    for e in network.edges:
        between[frozenset((e.source, e.target))].append(e)  # type: ignore[arg-type]
    hops = []
    for u, v in zip(path, path[1:]):
        facts = sorted(between[frozenset((u, v))], key=lambda e: (e.kind != "event", e.source != u, e.label, e.id))
        hops.append(Hop(u, v, label[u], label[v], tuple(facts)))
    return hops


# --- Gephi ----------------------------------------------------------------------------

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

_TYPE_RGB = {
    "Person": (78, 121, 167),
    "Organization": (242, 142, 43),
    "Place": (89, 161, 79),
    "Group": (176, 122, 161),
    "Entity": (157, 157, 157),
}


def _text(value: object) -> str:
    return _XML_ILLEGAL.sub("\ufffd", "" if value is None else str(value))


def gephi_graph(network: Network, ranks: list[Rank] | None = None, viz: bool = False) -> networkx.MultiDiGraph:
    """A ``MultiDiGraph`` whose attributes are all ``str``, ``int`` or ``float`` (never ``None``).

    Nodes: label, type, degree, pagerank, betweenness, community, aliases ("; "-joined).
    Edges (keyed by fact IRI): kind, label, sentence, article, title, source, date, modality,
    negated and former ("true"/"false"), event_class, event_class_label, quad_class. With
    ``viz`` nodes also get GEXF colours and sizes.
    """
    import networkx as nx

    ranks = rankings(network) if ranks is None else ranks
    by_id = {r.id: r for r in ranks}
    g = nx.MultiDiGraph()
    for n in network.nodes:
        r = by_id.get(n.id)
        attrs: dict[str, object] = {
            "label": _text(n.label),
            "type": n.type,
            "degree": int(n.degree),
            "pagerank": float(r.pagerank) if r else 0.0,
            "betweenness": float(r.betweenness) if r else 0.0,
            "community": int(r.community) if r else -1,
            "aliases": _text("; ".join(n.aliases)),
        }
        if viz:
            red, green, blue = _TYPE_RGB.get(n.type, _TYPE_RGB["Entity"])
            attrs["viz"] = {"color": {"r": red, "g": green, "b": blue, "a": 1.0}, "size": 5.0 + 2.0 * n.degree}
        g.add_node(n.id, **attrs)
    for e in network.edges:
        g.add_edge(
            e.source,
            e.target,
            key=e.id,
            kind=e.kind,
            label=_text(e.label),
            sentence=_text(e.sentence),
            article=_text(e.article),
            title=_text(e.title),
            source=_text(e.article_source),
            date=_text(e.date),
            modality=e.modality if e.kind == "event" else "",
            negated="true" if e.negated else "false",
            former="true" if e.former else "false",
            event_class=_text(e.event_class),
            event_class_label=_text(e.event_class_label),
            quad_class=e.quad_class,
        )
    return g


def write_graphml(network: Network, path: str | os.PathLike[str], ranks: list[Rank] | None = None) -> None:
    """Write the network as GraphML (Gephi, yEd, Cytoscape), atomically."""
    import networkx as nx

    g = gephi_graph(network, ranks)
    atomic_write(path, lambda tmp: nx.write_graphml(g, tmp, encoding="utf-8", prettyprint=True))


def write_gexf(network: Network, path: str | os.PathLike[str], ranks: list[Rank] | None = None) -> None:
    """Write the network as GEXF 1.2 (Gephi), with node colours by type and sizes by degree."""
    import networkx as nx

    g = gephi_graph(network, ranks, viz=True)
    atomic_write(path, lambda tmp: nx.write_gexf(g, tmp, encoding="utf-8", prettyprint=True, version="1.2draft"))
