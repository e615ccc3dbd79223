"""Finding an entity by a name, an IRI or ``type/slug``, its facts, and the list of entities: what
``kg entities``, ``kg show`` and the curation commands read.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..model.facts import ENTITY_TYPES
from ..model.names import fold_query, name_key
from ..model.vocab import sparql_prefixes
from ..store import Store
from .curation import to_iri, to_ref
from .graph import read_clusters, resolve_store
from .rules import Cluster, Resolution

_P = sparql_prefixes("kg", "rdfs", "skos", "schema", "org", "owl", "prov", "sem", "time")


def find_cluster(res: Resolution, query: str, base: str) -> tuple[Cluster, str | None]:
    """The cluster a label, alias, IRI or ``type/slug`` reference names, and the member IRI when an
    IRI was given. Raises ``UsageError`` when nothing or several clusters match."""
    from ..errors import UsageError

    q = query.strip()
    if not q:
        raise UsageError("no entity given")
    if re.match(r"^[a-z][a-z0-9+.-]*://", q) or ("/" in q and " " not in q):
        iri = to_iri(q, base)
        if iri in res.of:
            return res.of[iri], iri
        if re.match(r"^[a-z][a-z0-9+.-]*://", q):
            raise UsageError(f"no entity {q} in the store (kg entities lists them)")
    fq = fold_query(q)

    def names(cl: Cluster) -> set[str]:
        out = {cl.label, *cl.aliases}
        if res.data is not None:
            for m in cl.members:
                e = res.data.entities.get(m)
                if e is not None:
                    out |= e.names()
        return {fold_query(n) for n in out}

    exact = [cl for cl in res.clusters if fq in names(cl)]
    if not exact:  # "U.S." for "United States", "President Moen" for "Moen"
        exact = [cl for cl in res.clusters if cl.type != "Group" and name_key(q, cl.type)
                 and name_key(q, cl.type) in {name_key(n, cl.type) for n in {cl.label, *cl.aliases}}]
    if len(exact) == 1:
        return exact[0], None
    if len(exact) > 1:
        named = [cl for cl in exact if cl.type != "Group"]
        if len(named) == 1:
            return named[0], None
        listed = "; ".join(f"{cl.label} ({cl.type}, {to_ref(cl.canonical, base)})" for cl in exact[:8])
        raise UsageError(f"{query!r} names {len(exact)} entities: {listed}; give one's IRI")
    near = sorted({cl.label for cl in res.clusters if any(fq in n for n in names(cl))})
    near += [label for label in _similar(fq, res.clusters, names) if label not in near]
    hint = "; did you mean " + ", ".join(repr(n) for n in near[:8]) + "?" if near else ""
    raise UsageError(f"no entity named {query!r} in the store{hint}")


#: How alike a misspelt name and an entity's name must be to be offered (``difflib``'s ratio).
SIMILAR = 0.75


def _similar(fq: str, clusters: list[Cluster], names: Callable[[Cluster], set[str]]) -> list[str]:
    """The labels of the clusters with a name like ``fq`` (a folded query), most alike first:
    "Halvard Meon" finds "Halvard Moen"."""
    import difflib

    label_of: dict[str, str] = {}
    for cl in clusters:
        for n in names(cl):
            label_of.setdefault(n, cl.label)
    found = difflib.get_close_matches(fq, list(label_of), n=8, cutoff=SIMILAR)
    return list(dict.fromkeys(label_of[n] for n in found))


@dataclass
class Fact:
    """One event or role an entity takes part in, for ``kg show``."""

    kind: str  # "event" | "role"
    role: str  # actor, target, reporter | member, organization
    text: str  # "Halvard Moen -> call for -> (none)"
    sentence: str
    article: str  # article id
    iri: str
    flags: str = ""
    #: when: a role's years ("1994 to 1997", "since 2010"); an event's time ("on Sunday, 2012-02-19")
    when: str = ""
    #: where an event happened (its place's name), "" if the text gives none
    where: str = ""


Q_SHOW_EVENTS = _P + """SELECT ?f ?as ?actor ?action ?target ?reporter ?sentence ?article ?negated ?modality
                               ?time ?stamp ?earliest ?latest ?place WHERE {
  VALUES ?e { %(members)s }
  { ?f kg:actor ?e BIND("actor" AS ?as) } UNION { ?f kg:target ?e BIND("target" AS ?as) }
  UNION { ?f kg:reportedBy ?e BIND("reporter" AS ?as) }
  ?f a kg:Event ; kg:action ?action .
  OPTIONAL { ?f kg:actor ?actor } OPTIONAL { ?f kg:target ?target } OPTIONAL { ?f kg:reportedBy ?reporter }
  OPTIONAL { ?f kg:evidence/kg:sentence ?sentence } OPTIONAL { ?f prov:wasDerivedFrom ?article }
  OPTIONAL { ?f kg:negated ?negated } OPTIONAL { ?f kg:modality ?modality }
  OPTIONAL { ?f kg:timeText ?time } OPTIONAL { ?f sem:hasTimeStamp ?stamp }
  OPTIONAL { ?f sem:hasEarliestBeginTimeStamp ?earliest ; sem:hasLatestEndTimeStamp ?latest }
  OPTIONAL { ?f sem:hasPlace ?place }
}"""


Q_SHOW_ROLES = _P + """SELECT ?f ?as ?person ?org ?role ?former ?sentence ?article ?since ?sinceText ?until ?untilText
WHERE {
  VALUES ?e { %(members)s }
  { ?f org:member ?e BIND("member" AS ?as) } UNION { ?f org:organization ?e BIND("organization" AS ?as) }
  ?f org:member ?person ; org:organization ?org .
  OPTIONAL { ?f kg:roleLabel ?role } OPTIONAL { ?f kg:former ?former }
  OPTIONAL { ?f org:memberDuring/time:hasBeginning ?b OPTIONAL { ?b kg:timeText ?sinceText }
             OPTIONAL { ?b time:inXSDDate|time:inXSDgYearMonth|time:inXSDgYear ?since } }
  OPTIONAL { ?f org:memberDuring/time:hasEnd ?x OPTIONAL { ?x kg:timeText ?untilText }
             OPTIONAL { ?x time:inXSDDate|time:inXSDgYearMonth|time:inXSDgYear ?until } }
  OPTIONAL { ?f kg:evidence/kg:sentence ?sentence } OPTIONAL { ?f prov:wasDerivedFrom ?article }
}"""


def entity_facts(store: Store, res: Resolution, cluster: Cluster) -> list[Fact]:
    """Every event (as actor, target or reporter) and role (as member or organization) of a cluster."""
    import pyoxigraph as ox

    members = " ".join(str(ox.NamedNode(m)) for m in cluster.members)

    def name(iri: str | None) -> str:
        if not iri:
            return "(none)"
        cl = res.of.get(iri)
        return cl.label if cl is not None else iri.rsplit("/", 1)[-1]

    def article(iri: str | None) -> str:
        return res.article_ids.get(iri or "", (iri or "").rsplit("/", 1)[-1])

    facts: dict[tuple[str, str], Fact] = {}
    for r in sorted(store.select(Q_SHOW_EVENTS % {"members": members}), key=lambda r: tuple(v or "" for v in r.values())):
        key = (r["f"] or "", r["as"] or "")
        if key in facts:
            continue
        flags = []
        if r.get("negated") in ("true", "1"):
            flags.append("negated")
        modality = (r.get("modality") or "").rsplit("#", 1)[-1]
        if modality and modality != "asserted":
            flags.append(modality + (f" by {name(r['reporter'])}" if r.get("reporter") and modality == "reported" else ""))
        date = r.get("stamp") or (f"{r['earliest']}/{r['latest']}" if r.get("earliest") and r.get("latest") else "")
        when = (r.get("time") or date) + (f", {date}" if r.get("time") and date and date != r.get("time") else "")
        facts[key] = Fact("event", r["as"] or "", f"{name(r['actor'])} \u2192 {r['action']} \u2192 {name(r['target'])}",
                          r.get("sentence") or "", article(r.get("article")), r["f"] or "", ", ".join(flags),
                          when, name(r["place"]) if r.get("place") else "")
    for r in sorted(store.select(Q_SHOW_ROLES % {"members": members}), key=lambda r: tuple(v or "" for v in r.values())):
        key = (r["f"] or "", r["as"] or "")
        if key in facts:
            continue
        former = "former" if r.get("former") in ("true", "1") else ""
        facts[key] = Fact("role", r["as"] or "", f"{name(r['person'])} \u2014 {r.get('role') or 'member'} of \u2014 {name(r['org'])}",
                          r.get("sentence") or "", article(r.get("article")), r["f"] or "", former,
                          _years(r.get("since") or r.get("sinceText"), r.get("until") or r.get("untilText")))
    order = {"actor": 0, "target": 1, "reporter": 2, "member": 3, "organization": 4}
    return sorted(facts.values(), key=lambda f: (order.get(f.role, 9), f.article, f.sentence, f.text))


def _years(since: str | None, until: str | None) -> str:
    """A role's years as ``kg show`` writes them: "1994 to 1997", "since 2010", "until March 2015"."""
    if since and until:
        return f"{since} to {until}"
    if since:
        return f"since {since}"
    return f"until {until}" if until else ""


def list_entities(store: Store, base: str, etype: str | None = None, search: str | None = None) -> list[Cluster]:
    """The store's entities (its resolution graph; computed if it has none), most mentioned first."""
    from ..errors import UsageError

    clusters = read_clusters(store, base)
    if not clusters and store.select(_P + "SELECT ?a WHERE { ?a a kg:Article } LIMIT 1"):
        clusters = resolve_store(store, base).clusters
    if etype is not None:
        fitting = [t for t in ENTITY_TYPES if t.casefold().startswith(etype.strip().casefold())]
        wanted = fitting[0] if len(fitting) == 1 and etype.strip() else None
        if wanted is None:
            raise UsageError(f"unknown type {etype!r}; choose one of {', '.join(ENTITY_TYPES)}")
        clusters = [c for c in clusters if c.type == wanted]
    if search:
        s = fold_query(search)
        clusters = [c for c in clusters if any(s in fold_query(n) for n in (c.label, *c.aliases))]
    return sorted(clusters, key=lambda c: (-c.mentions, c.label.casefold(), c.canonical))
