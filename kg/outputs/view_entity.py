"""One entity as a dossier (``kg serve``'s ``/entity/{path}``): its names and aliases, type, roles over
time, its events grouped by article (each article's title a link to its page, with its date), who
reported what about it, a small ego network drawn with the view's styles and vis-network, and
schema.org JSON-LD for linked-data consumers.

An entity that entity resolution put in a cluster (``owl:sameAs`` its canonical IRI, ``kg/resolve``)
is shown with the facts of every IRI of the cluster. The page is read in three rounds of SELECTs
through a caller's ``select_many``: the cluster, then its facts, then the names and types of the
entities those facts name.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup

from ..model.cameo import quad_class
from ..model.vocab import PREFIXES, sparql_prefixes
from .network import Edge, Network, Node
from .view import QUAD_COLORS, TYPE_STYLES, _node_size, _options, _vis_edges, script_json
from .view_pages import Assets, Row, SelectMany, entity_type, environment, iri_term, local_name, merge, truth, values

_P = sparql_prefixes("kg", "rdf", "rdfs", "org", "prov", "dcterms", "schema", "skos", "owl", "time")
#: At most this many other entities in the ego network (those in the most facts with this one).
EGO_MAX = 40


def cluster_query(iri: str) -> str:
    """The canonical IRI of ``iri``'s cluster (if it is in one), every member, and the outside IRIs it is the same as."""
    n = iri_term(iri)
    return _P + f"""SELECT ?canonical ?member ?external WHERE {{
      {{ BIND({n} AS ?canonical) ?canonical kg:mentionedIn ?r }}
      UNION {{ {n} owl:sameAs ?canonical . ?canonical kg:mentionedIn ?r }}
      OPTIONAL {{ ?member owl:sameAs ?canonical }}
      OPTIONAL {{ ?canonical owl:sameAs ?external FILTER NOT EXISTS {{ ?external kg:mentionedIn ?x }} }}
    }}"""


def _values(iris: list[str]) -> str:
    return "VALUES ?e { " + " ".join(iri_term(i) for i in iris) + " }"


def dossier_queries(iris: list[str]) -> list[str]:
    """The facts of the IRIs of one entity: names and types, events, roles, articles that mention it."""
    v = _values(iris)
    article = """OPTIONAL {{ ?{f} prov:wasDerivedFrom ?article . ?article a kg:Article
                  OPTIONAL {{ ?article dcterms:title ?title }} OPTIONAL {{ ?article schema:datePublished ?date }} }}"""
    return [
        _P + f"""SELECT ?e ?p ?v WHERE {{ {v} ?e ?p ?v
          FILTER(?p IN (rdfs:label, skos:prefLabel, skos:altLabel, rdf:type)) }}""",
        _P + f"""SELECT ?event ?as ?action ?actor ?target ?reporter ?negated ?modality ?confidence ?sentence ?begin
                        ?class ?classLabel ?classCode ?quadLabel ?article ?title ?date WHERE {{ {v}
          {{ ?event kg:actor ?e BIND("actor" AS ?as) }} UNION {{ ?event kg:target ?e BIND("target" AS ?as) }}
          UNION {{ ?event kg:reportedBy ?e BIND("reporter" AS ?as) }}
          ?event kg:action ?action .
          OPTIONAL {{ ?event kg:actor ?actor }} OPTIONAL {{ ?event kg:target ?target }}
          OPTIONAL {{ ?event kg:reportedBy ?reporter }} OPTIONAL {{ ?event kg:negated ?negated }}
          OPTIONAL {{ ?event kg:modality ?modality }} OPTIONAL {{ ?event kg:confidence ?confidence }}
          OPTIONAL {{ ?event kg:evidence ?ev . ?ev kg:sentence ?sentence OPTIONAL {{ ?ev kg:beginIndex ?begin }} }}
          OPTIONAL {{ ?event kg:eventClass ?class OPTIONAL {{ ?class skos:prefLabel ?classLabel }}
                      OPTIONAL {{ ?class skos:notation ?classCode }}
                      OPTIONAL {{ ?class skos:broader/skos:prefLabel ?quadLabel }} }}
          {article.format(f="event")}
        }}""",
        _P + f"""SELECT ?m ?as ?person ?org ?role ?former ?since ?sinceText ?until ?untilText ?confidence ?sentence
                        ?article ?title ?date WHERE {{ {v}
          {{ ?m org:member ?e BIND("member" AS ?as) }} UNION {{ ?m org:organization ?e BIND("organization" AS ?as) }}
          ?m org:member ?person ; org:organization ?org .
          OPTIONAL {{ ?m kg:roleLabel ?role }} OPTIONAL {{ ?m kg:former ?former }}
          OPTIONAL {{ ?m kg:confidence ?confidence }} OPTIONAL {{ ?m kg:evidence/kg:sentence ?sentence }}
          OPTIONAL {{ ?m org:memberDuring/time:hasBeginning ?b OPTIONAL {{ ?b kg:timeText ?sinceText }}
                      OPTIONAL {{ ?b time:inXSDDate|time:inXSDgYearMonth|time:inXSDgYear ?since }} }}
          OPTIONAL {{ ?m org:memberDuring/time:hasEnd ?x OPTIONAL {{ ?x kg:timeText ?untilText }}
                      OPTIONAL {{ ?x time:inXSDDate|time:inXSDgYearMonth|time:inXSDgYear ?until }} }}
          {article.format(f="m")}
        }}""",
        _P + f"""SELECT ?article ?title ?date WHERE {{ {v} ?article kg:mentions ?e
          OPTIONAL {{ ?article dcterms:title ?title }} OPTIONAL {{ ?article schema:datePublished ?date }} }}""",
    ]


def others_query(iris: list[str]) -> str:
    """Names, types and canonical IRIs of the other entities of the facts."""
    return _P + f"""SELECT ?e ?label ?type ?canonical WHERE {{ {_values(iris)}
      OPTIONAL {{ ?e rdfs:label|skos:prefLabel ?label }}
      OPTIONAL {{ ?e a ?type FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group)) }}
      OPTIONAL {{ ?e owl:sameAs ?canonical . ?canonical kg:mentionedIn ?r }}
    }}"""


@dataclass
class Who:
    """An entity a fact names: where its page is, what it is called, its type."""

    iri: str
    label: str
    type: str
    href: str | None


@dataclass
class Article:
    iri: str
    title: str
    date: str
    href: str | None


@dataclass
class Happening:
    """One event of the entity, ready to show."""

    iri: str
    roles: list[str]  # how the entity takes part: actor, target, reporter
    action: str
    actor: Who | None
    target: Who | None
    reporter: Who | None
    negated: bool
    modality: str
    confidence: str
    sentence: str
    cls: str
    quad: str
    article: Article | None
    begin: int


@dataclass
class Tenure:
    """One membership: a role in an organization, with what the text says of when."""

    iri: str
    person: Who
    org: Who
    role: str
    former: bool
    since: str
    until: str
    sentence: str
    article: Article | None
    confidence: str


@dataclass
class Dossier:
    iri: str
    label: str
    type: str
    names: list[str]
    members: list[str]  # the cluster's other IRIs
    same_as: list[str]  # IRIs outside the store it is the same as
    events: list[Happening]
    roles: list[Tenure]  # as a member
    staff: list[Tenure]  # as the organization
    articles: list[Article]
    who: dict[str, Who] = field(default_factory=dict)


def read_dossier(select_many: SelectMany, iri: str, href: Callable[[str], str | None],
                 article_href: Callable[[str], str | None]) -> Dossier | None:
    """The dossier of ``iri`` (None if the store says nothing of it); ``href``/``article_href``: the page of an entity/article."""
    (cluster,) = select_many([cluster_query(iri)])
    canonical = next((r["canonical"] for r in cluster if r.get("canonical")), None) or iri
    iris = sorted({canonical, iri} | {m for r in cluster if (m := r.get("member"))})
    same_as = sorted({x for r in cluster if (x := r.get("external"))})
    info, events, roles, mentions = select_many(dossier_queries(iris))
    if not (info or events or roles):
        return None
    mine = set(iris)
    others = sorted({v for r in [*events, *roles] for k in ("actor", "target", "reporter", "person", "org")
                     if (v := r.get(k)) and v not in mine})
    (names,) = select_many([others_query(others)]) if others else ([],)
    canon = {r["e"]: r["canonical"] or "" for r in names if r.get("e") and r.get("canonical")}
    labels, kinds = values(names, "e", "label"), values(names, "e", "type")
    by_p = defaultdict(set)
    for r in info:
        by_p[local_name(r["p"])].add(r["v"] or "")
    pref = sorted(values(info, "e", "v").get(canonical, set()) & by_p["prefLabel"], key=lambda s: (len(s), s))
    all_labels = sorted(by_p["prefLabel"] | by_p["label"], key=lambda s: (len(s), s))
    label = (pref or all_labels or [local_name(canonical)])[0]
    me = Who(canonical, label, entity_type(by_p["type"]), href(canonical))
    who: dict[str, Who] = {i: me for i in iris}

    def person(i: str | None) -> Who | None:
        if not i:
            return None
        if i not in who:
            c = canon.get(i, i)
            found = sorted(labels.get(c, set()) or labels.get(i, set()), key=lambda s: (len(s), s))
            who[i] = who.get(c) or Who(c, found[0] if found else local_name(i),
                                       entity_type(kinds.get(c, set()) | kinds.get(i, set())), href(c))
        return who[i]

    arts: dict[str, Article] = {}

    def article(r: dict[str, str | None]) -> Article | None:
        a = r.get("article")
        if not a:
            return None
        if a not in arts:
            arts[a] = Article(a, r.get("title") or local_name(a), r.get("date") or "", article_href(a))
        return arts[a]

    as_ = values(events, "event", "as")
    happenings = []
    for eid, e in merge(events, "event").items():
        code = e.get("classCode") or (local_name(e.get("class"))[:2] if e.get("class") else "")
        cls = " ".join(x for x in (code, e.get("classLabel") or "") if x)
        happenings.append(Happening(
            eid, sorted(as_[eid], key=("actor", "target", "reporter").index), e.get("action") or "",
            person(e.get("actor")), person(e.get("target")), person(e.get("reporter")), truth(e.get("negated")),
            local_name(e.get("modality")) or "asserted", e.get("confidence") or "", e.get("sentence") or "", cls,
            quad_class(code, e.get("quadLabel")) if e.get("class") else "", article(e), int(e.get("begin") or 0)))
    tenures = {"member": [], "organization": []}  # type: dict[str, list[Tenure]]
    for mid, r in merge(roles, "m").items():
        p, o = person(r.get("person")), person(r.get("org"))
        if p is None or o is None:
            continue
        tenures[r.get("as") or "member"].append(Tenure(
            mid, p, o, r.get("role") or "member", truth(r.get("former")), r.get("since") or r.get("sinceText") or "",
            r.get("until") or r.get("untilText") or "", r.get("sentence") or "", article(r), r.get("confidence") or ""))
    for r in mentions:
        article(r)
    names_of = sorted(set(all_labels) | by_p["altLabel"], key=lambda s: (s != label, s.casefold()))
    return Dossier(canonical, label, me.type, names_of, [i for i in iris if i != canonical], same_as,
                   happenings, _once(tenures["member"]), _once(tenures["organization"]),
                   sorted(arts.values(), key=lambda a: (a.date or "9999", a.title)), who)


def _when(t: Tenure) -> tuple[str, str, str]:
    return (t.since or (t.article.date if t.article else "") or "9999", t.role, t.org.label)


def _once(tenures: list[Tenure]) -> list[Tenure]:
    """The tenures in time order, one of those an article states alike in several sentences."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for t in sorted(tenures, key=lambda t: (*_when(t), t.iri)):
        key = (t.person.iri, t.org.iri, t.role, str(t.former), t.since, t.until, t.article.iri if t.article else "")
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


def by_article(events: list[Happening]) -> list[tuple[Article | None, list[Happening]]]:
    """The events grouped by article, newest article first (undated, then unknown articles last),
    in text order within one."""
    groups: dict[str, list[Happening]] = defaultdict(list)
    arts: dict[str, Article | None] = {}
    for h in events:
        key = h.article.iri if h.article else ""
        groups[key].append(h)
        arts[key] = h.article
    dated = sorted((k for k in groups if arts[k] is not None and arts[k].date),  # type: ignore[union-attr]
                   key=lambda k: (arts[k].date, arts[k].title), reverse=True)  # type: ignore[union-attr]
    undated = sorted((k for k in groups if k and k not in dated), key=lambda k: arts[k].title)  # type: ignore[union-attr]
    order = dated + undated + ([""] if "" in groups else [])
    return [(arts[k], sorted(groups[k], key=lambda h: (h.begin, h.iri))) for k in order]


def reports(d: Dossier) -> list[tuple[Who, list[Happening]]]:
    """Who reported what about the entity: the events it is actor or target of that someone reported."""
    found: dict[str, tuple[Who, list[Happening]]] = {}
    for h in d.events:
        if h.reporter is not None and h.reporter.iri != d.iri and ({"actor", "target"} & set(h.roles)):
            found.setdefault(h.reporter.iri, (h.reporter, []))[1].append(h)
    return sorted(found.values(), key=lambda kv: (-len(kv[1]), kv[0].label))


def ego_network(d: Dossier) -> Network:
    """The entity and the others of its drawn facts (events asserted or reported, not negated, with
    a target; roles), at most ``EGO_MAX`` others, those in the most facts with it first."""
    edges = []
    for h in d.events:
        if h.actor and h.target and not h.negated and h.modality in ("asserted", "reported"):
            edges.append(Edge(h.iri, h.actor.iri, h.target.iri, h.action, "event", quad_class=h.quad))
    for t in (*d.roles, *d.staff):
        edges.append(Edge(t.iri, t.person.iri, t.org.iri, t.role, "role", former=t.former))
    weight = Counter(x for e in edges for x in (e.source, e.target) if x and x != d.iri)
    keep = {d.iri} | {x for x, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:EGO_MAX]}
    edges = sorted((e for e in edges if e.source in keep and e.target in keep), key=lambda e: e.id)
    degree = Counter(x for e in edges for x in (e.source, e.target))
    people = {w.iri: w for w in d.who.values()}
    nodes = [Node(i, people[i].label, people[i].type, degree.get(i, 0)) for i in sorted(keep) if i in people]
    return Network(nodes=nodes, edges=edges)


def ego_data(d: Dossier, network: Network) -> dict[str, Any]:
    """vis-network data of the ego network: the view's groups, edge colours and options."""
    links = {w.iri: w.href for w in d.who.values()}
    nodes = [{"id": n.id, "label": n.label, "group": n.type if n.type in TYPE_STYLES else "Entity",
              "size": _node_size(n.degree) + (6 if n.id == d.iri else 0), "href": links.get(n.id),
              "borderWidth": 3 if n.id == d.iri else 1} for n in network.nodes]
    options = _options(len(nodes), len(network.edges))
    options["physics"]["stabilization"]["iterations"] = 300
    options["interaction"]["zoomView"] = False
    return {"nodes": nodes, "edges": _vis_edges(network.edges), "options": options, "center": d.iri}


def json_ld(d: Dossier, page_url: str | None = None) -> dict[str, Any]:
    """schema.org JSON-LD of the entity: type, names, roles (schema:Role), articles, same-as links.
    The context is inline (``@vocab``), so a reader needs nothing from the network to read it."""
    types = {"Person": "Person", "Organization": "Organization", "Place": "Place", "Group": "Organization"}
    doc: dict[str, Any] = {"@context": {"@vocab": PREFIXES["schema"], "kg": PREFIXES["kg"]}, "@id": d.iri,
                           "@type": types.get(d.type, "Thing"), "name": d.label}
    others = [n for n in d.names if n != d.label]
    if others:
        doc["alternateName"] = others
    if d.same_as or d.members:
        doc["sameAs"] = [{"@id": i} for i in (*d.members, *d.same_as)]
    if page_url:
        doc["url"] = page_url
    if d.roles:
        doc["memberOf"] = [_role(t, "memberOf", t.org) for t in d.roles]
    if d.staff and d.type in ("Organization", "Group"):
        doc["member"] = [_role(t, "member", t.person) for t in d.staff]
    if d.articles:
        doc["subjectOf"] = [{"@id": a.iri, "@type": "NewsArticle", "headline": a.title,
                             **({"datePublished": a.date} if a.date else {})} for a in d.articles]
    return doc


def _role(t: Tenure, prop: str, other: Who) -> dict[str, Any]:
    role: dict[str, Any] = {"@type": "OrganizationRole", "roleName": t.role,
                            prop: {"@id": other.iri, "name": other.label}}
    if t.since:
        role["startDate"] = t.since
    if t.until:
        role["endDate"] = t.until
    return role


def render_dossier(d: Dossier, assets: Assets, *, generator: str = "kg", page_url: str | None = None) -> str:
    """The dossier's HTML (``assets``: linked from ``kg serve``, or inlined)."""
    network = ego_network(d)
    scripts = ("vis-network.min.js", "ego.js") if network.edges else ()
    styles = ("page.css", "kg-types.css", "vis-network.css", "entity.css") if network.edges else (
        "page.css", "kg-types.css", "entity.css")
    return environment().get_template("entity.html").render(
        d=d, groups=by_article(d.events), reports=reports(d), quads=QUAD_COLORS, generator=generator,
        ego=Markup(script_json(ego_data(d, network))) if network.edges else None,
        ego_size=(len(network.nodes), len(network.edges)),
        jsonld=Markup(script_json(json_ld(d, page_url))), csp=assets.csp_meta(scripts, styles),
        styles=assets.styles(*styles), scripts=assets.scripts(*scripts), inline=assets.inline,
    )


__all__ = ["read_dossier", "render_dossier", "json_ld", "ego_network", "Dossier", "Row"]
