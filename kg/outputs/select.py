"""Parts of a network: one entity and its surroundings, one article, one event class, a span of
publication dates (what ``kg view`` draws with --entity, --article, --class, --since, --until).
"""
from __future__ import annotations

import re
from collections import defaultdict, deque
from dataclasses import replace
from typing import Callable, Iterable
from urllib.parse import unquote

from ..errors import UsageError
from ..model.names import fold_query
from .network import Edge, Network, Node


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


def find_entity(network: Network, query: str) -> Node:
    """The node named by an IRI, a label or an alias (any case); the best linked one if several.

    Raises ``UsageError`` (with close matches, if any) when nothing matches.
    """
    for n in network.nodes:
        if n.id == query:
            return n
    q = fold_query(query)
    if not q:
        raise UsageError("no entity given")

    def rank(nodes: list[Node]) -> Node:
        return sorted(nodes, key=lambda n: (-n.degree, n.label, n.id))[0]

    exact = [n for n in network.nodes if q in {fold_query(s) for s in (n.label, *n.aliases)}]
    if exact:
        return rank(exact)
    near = [n for n in network.nodes if any(q in fold_query(s) for s in (n.label, *n.aliases))]
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
    q = fold_query(article)
    for test in (
        lambda e: e.article == article,
        lambda e: e.article and _article_key(e.article) == article,
        lambda e: e.article and fold_query(e.title) == q,
        lambda e: e.article and fold_query(_article_key(e.article)) == q,
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
    q = fold_query(cls)
    events = [e for e in network.facts() if e.event_class]
    if not events:
        raise UsageError("no event in the graph has a class (kg:eventClass) yet")

    def matches(e: Edge) -> bool:
        if e.event_class == cls or fold_query(e.event_class_label) == q or e.quad_class == q:
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
    """The facts dated from ``since`` to ``until``, both included: by the event's own date where it
    has one (a day, or any day of its month, year or span: ``Edge.first`` .. ``Edge.last``), else by
    its article's (``schema:datePublished``).

    Dates are ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (``date_bound``); undated facts are left out.
    """
    since, until = date_range(since, until)

    def inside(e: Edge) -> bool:
        first, last = (e.first, e.last) if e.first and e.last else (e.date[:10], e.date[:10])
        if not _DATE.fullmatch(first) or not _DATE.fullmatch(last):
            return False
        return (since is None or last >= since) and (until is None or first <= until)

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
