"""One article as a page (``kg serve``'s ``/article/{id}``, ``kg view --article ID``): its title, date
and source; its text with each fact's evidence highlighted at the fact's character offsets
(``kg:beginIndex``/``kg:endIndex`` into ``schema:text``), the names of its entities coloured by type
as in the view's legend, and each fact inline after its evidence (actor → action → target, with
modality, negation, reporter, CAMEO class, when and where, and confidence; a role with its years). Clicking a highlight or a fact shows the
fact in a side panel, with links to its entities.

The entities' names are found in the text by the names and aliases the article gives them (its
``kg:Naming``): the graph keeps no offsets for mentions, only for facts. The text is cut into pieces in
Python and every piece is escaped by the template: no article text ever becomes markup.

The page's state, for tests and deep links: ``#fact=N`` opens fact N (``window.kgShowFact(N)``),
``#evidence=N`` a highlight's facts; ``<body data-facts data-placed data-evidence>`` count the facts,
those with a place in the text, and the highlights.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..errors import UsageError
from ..model.cameo import quad_class
from ..model.names import fold_query
from ..model.vocab import sparql_prefixes
from .view import QUAD_COLORS
from .view_pages import (
    Assets,
    Row,
    SelectMany,
    entity_type,
    environment,
    iri_term,
    local_name,
    merge,
    truth,
    values,
)

_P = sparql_prefixes("kg", "rdf", "rdfs", "org", "prov", "dcterms", "schema", "skos", "owl", "time", "sem")


def article_queries(iri: str) -> list[str]:
    """The SELECTs of one article's page: what it is, its events, its roles, the entities it names."""
    a = iri_term(iri)
    return [
        _P + f"""SELECT ?p ?v WHERE {{ {a} ?p ?v FILTER(?p IN (dcterms:title, schema:datePublished, dcterms:source,
                 schema:url, schema:identifier, schema:text)) }}""",
        _P + f"""SELECT ?fact ?actor ?action ?target ?negated ?modality ?reporter ?claimer ?confidence ?rule ?time
                        ?stamp ?earliest ?latest ?place ?dateline
                        ?begin ?end ?sentence ?class ?classLabel ?classCode ?quadLabel WHERE {{
          ?fact prov:wasDerivedFrom {a} ; a kg:Event ; kg:action ?action .
          OPTIONAL {{ ?fact kg:actor ?actor }} OPTIONAL {{ ?fact kg:target ?target }}
          OPTIONAL {{ ?fact kg:negated ?negated }} OPTIONAL {{ ?fact kg:modality ?modality }}
          OPTIONAL {{ ?fact kg:reportedBy ?reporter }} OPTIONAL {{ ?fact kg:claimedBy ?claimer }}
          OPTIONAL {{ ?fact kg:confidence ?confidence }} OPTIONAL {{ ?fact kg:rule ?rule }}
          OPTIONAL {{ ?fact kg:timeText ?time }} OPTIONAL {{ ?fact sem:hasTimeStamp ?stamp }}
          OPTIONAL {{ ?fact sem:hasEarliestBeginTimeStamp ?earliest ; sem:hasLatestEndTimeStamp ?latest }}
          OPTIONAL {{ ?fact sem:hasPlace ?place }} OPTIONAL {{ ?fact kg:datelinePlace ?dateline }}
          OPTIONAL {{ ?fact kg:evidence ?ev . ?ev kg:beginIndex ?begin ; kg:endIndex ?end
                      OPTIONAL {{ ?ev kg:sentence ?sentence }} }}
          OPTIONAL {{ ?fact kg:eventClass ?class OPTIONAL {{ ?class skos:prefLabel ?classLabel }}
                      OPTIONAL {{ ?class skos:notation ?classCode }}
                      OPTIONAL {{ ?class skos:broader/skos:prefLabel ?quadLabel }} }}
        }}""",
        _P + f"""SELECT ?fact ?person ?org ?role ?former ?confidence ?rule ?begin ?end ?sentence
                        ?since ?sinceText ?until ?untilText WHERE {{
          ?fact prov:wasDerivedFrom {a} ; a org:Membership ; org:member ?person ; org:organization ?org .
          OPTIONAL {{ ?fact kg:roleLabel ?role }} OPTIONAL {{ ?fact kg:former ?former }}
          OPTIONAL {{ ?fact kg:confidence ?confidence }} OPTIONAL {{ ?fact kg:rule ?rule }}
          OPTIONAL {{ ?fact kg:evidence ?ev . ?ev kg:beginIndex ?begin ; kg:endIndex ?end
                      OPTIONAL {{ ?ev kg:sentence ?sentence }} }}
          OPTIONAL {{ ?fact org:memberDuring/time:hasBeginning ?b OPTIONAL {{ ?b kg:timeText ?sinceText }}
                      OPTIONAL {{ ?b time:inXSDDate|time:inXSDgYearMonth|time:inXSDgYear ?since }} }}
          OPTIONAL {{ ?fact org:memberDuring/time:hasEnd ?e OPTIONAL {{ ?e kg:timeText ?untilText }}
                      OPTIONAL {{ ?e time:inXSDDate|time:inXSDgYearMonth|time:inXSDgYear ?until }} }}
        }}""",
        _P + f"""SELECT ?entity ?type ?name ?alias WHERE {{
          {a} kg:mentions ?entity .
          OPTIONAL {{ ?n kg:entity ?entity ; prov:wasDerivedFrom {a} .
                      OPTIONAL {{ ?n kg:entityType ?type }} OPTIONAL {{ ?n kg:name ?name }}
                      OPTIONAL {{ ?n kg:alias ?alias }} }}
        }}""",
    ]


ARTICLES_QUERY = _P + """SELECT ?article ?id ?title WHERE { ?article a kg:Article .
  OPTIONAL { ?article schema:identifier ?id } OPTIONAL { ?article dcterms:title ?title } }"""


def find_article(rows: list[Row], query: str) -> str:
    """The IRI of the article named by ``query``: its IRI, its id or its title (any case), among
    ``ARTICLES_QUERY``'s rows; ``UsageError`` if none or several."""
    q = fold_query(query)
    for test in (
        lambda r: r["article"] == query,
        lambda r: r.get("id") == query,
        lambda r: bool(q) and fold_query(r.get("id") or "") == q,
        lambda r: bool(q) and fold_query(r.get("title") or "") == q,
    ):
        chosen = sorted({a for r in rows if (a := r.get("article")) and test(r)})
        if len(chosen) == 1:
            return chosen[0]
        if len(chosen) > 1:
            raise UsageError(f"{query!r} names {len(chosen)} articles; give the article's id or IRI")
    raise UsageError(f"no article {query!r} in the store (give its id, IRI or title)")


@dataclass
class Ent:
    """An entity as the article names it: IRI, label, type, every name, and where a click on it leads."""

    iri: str
    label: str
    type: str
    names: tuple[str, ...] = ()
    href: str | None = None
    n: int = 0


@dataclass
class Fact:
    """An event or a role of the article, ready to show."""

    n: int
    iri: str
    kind: str  # "event" | "role"
    action: str
    actor: Ent | None = None
    target: Ent | None = None
    negated: bool = False
    modality: str = "asserted"
    reporter: Ent | None = None
    claimer: Ent | None = None
    cls_code: str = ""
    cls_label: str = ""
    quad: str = ""
    confidence: str = ""
    rule: str = ""
    time: str = ""
    #: the time's calendar value: a day, a month, a year, or a span "first/last"
    date: str = ""
    #: where the event happened (the clause's place), or the dateline's place (``dateline``)
    place: Ent | None = None
    dateline: bool = False
    former: bool = False
    since: str = ""
    until: str = ""
    sentence: str = ""
    begin: int | None = None
    end: int | None = None
    evidence: int | None = None  # the highlight it is shown at

    @property
    def quad_color(self) -> str:
        return QUAD_COLORS.get(self.quad, "")


@dataclass
class Piece:
    """A run of the text: plain, a name of an entity, or a highlight holding both and its facts."""

    text: str = ""
    ent: Ent | None = None
    n: int = 0  # a highlight's number
    parts: list[Piece] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


@dataclass
class ArticleData:
    """Everything an article page shows."""

    iri: str
    id: str
    title: str
    date: str
    source: str
    url: str
    text: str
    entities: list[Ent]
    facts: list[Fact]


def read_article(select_many: SelectMany, iri: str, href: Callable[[str], str | None]) -> ArticleData | None:
    """The article ``iri`` and its facts, read with ``select_many``; None if the store has no such
    article. ``href``: where a click on an entity leads (None: nowhere)."""
    meta, events, roles, names = select_many(article_queries(iri))
    if not meta:
        return None
    prop = {local_name(r["p"]): r["v"] for r in sorted(meta, key=lambda r: (r["p"] or "", len(r["v"] or "")),
                                                           reverse=True)}
    kinds = values(names, "entity", "type")
    labels, aliases = values(names, "entity", "name"), values(names, "entity", "alias")
    ents: dict[str, Ent] = {}

    def ent(iri: str | None) -> Ent | None:
        if not iri:
            return None
        if iri not in ents:
            found = sorted(labels.get(iri, ()), key=lambda s: (len(s), s))
            label = found[0] if found else local_name(iri)
            every = tuple(sorted(set(found) | aliases.get(iri, set()), key=lambda s: (-len(s), s)))
            ents[iri] = Ent(iri, label, entity_type(kinds.get(iri)), every, href(iri), len(ents))
        return ents[iri]

    for r in names:
        ent(r["entity"])
    facts: list[Fact] = []
    for fid, e in sorted(merge(events, "fact").items(), key=lambda kv: _order(kv[1], kv[0])):
        code = (e.get("classCode") or _code(e.get("class"))) if e.get("class") else ""
        facts.append(Fact(
            0, fid, "event", e.get("action") or "", ent(e.get("actor")), ent(e.get("target")), truth(e.get("negated")),
            local_name(e.get("modality")) or "asserted", ent(e.get("reporter")), ent(e.get("claimer")), code,
            e.get("classLabel") or "", quad_class(code, e.get("quadLabel")) if e.get("class") else "",
            e.get("confidence") or "", e.get("rule") or "", e.get("time") or "", _date(e),
            ent(e.get("place") or e.get("dateline")), not e.get("place") and bool(e.get("dateline")),
            sentence=e.get("sentence") or "", begin=_int(e.get("begin")), end=_int(e.get("end"))))
    for fid, r in sorted(merge(roles, "fact").items(), key=lambda kv: _order(kv[1], kv[0])):
        facts.append(Fact(
            0, fid, "role", r.get("role") or "member", ent(r.get("person")), ent(r.get("org")),
            confidence=r.get("confidence") or "", rule=r.get("rule") or "", former=truth(r.get("former")),
            since=r.get("since") or r.get("sinceText") or "", until=r.get("until") or r.get("untilText") or "",
            sentence=r.get("sentence") or "", begin=_int(r.get("begin")), end=_int(r.get("end"))))
    facts.sort(key=lambda f: (f.begin if f.begin is not None else 1 << 62, f.kind != "event", f.iri))
    for i, f in enumerate(facts):
        f.n = i + 1
    order = sorted(ents.values(), key=lambda x: (x.type == "Entity", x.type, x.label.casefold(), x.iri))
    for i, x in enumerate(order):
        x.n = i + 1
    return ArticleData(iri, prop.get("identifier") or local_name(iri), prop.get("title") or "",
                       prop.get("datePublished") or "", prop.get("source") or "", prop.get("url") or "",
                       prop.get("text") or "", order, facts)


def _date(row: dict[str, str | None]) -> str:
    """An event's calendar value as the queries write it: the stamp, or "earliest/latest"."""
    if row.get("stamp"):
        return row["stamp"] or ""
    if row.get("earliest") and row.get("latest"):
        return f"{row['earliest']}/{row['latest']}"
    return ""


def _order(row: dict[str, str | None], iri: str) -> tuple[int, str]:
    return (_int(row.get("begin")) or 0, iri)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _code(iri: str | None) -> str:
    m = re.search(r"(\d{2})\d*/?$", iri or "")
    return m.group(1) if m else ""


def pieces(data: ArticleData) -> list[Piece]:
    """The text cut into plain runs, entity names and highlights (a highlight per span of
    overlapping evidence, holding its facts; a fact whose offsets do not fit the text has none)."""
    text = data.text
    spans: list[tuple[int, int, list[Fact]]] = []
    fitting = [(f.begin, f.end, f) for f in data.facts
               if f.begin is not None and f.end is not None and 0 <= f.begin < f.end <= len(text)]
    for b, e, f in sorted(fitting, key=lambda t: (t[0], t[1], t[2].n)):
        if spans and b < spans[-1][1]:
            last = spans[-1]
            spans[-1] = (last[0], max(last[1], e), last[2] + [f])
        else:
            spans.append((b, e, [f]))
    names = _mentions(text, data.entities)
    out: list[Piece] = []
    at = 0
    for n, (b, e, facts) in enumerate(spans, 1):
        out += _named(text, at, b, names)
        for f in facts:
            f.evidence = n
        out.append(Piece(n=n, parts=_named(text, b, e, names), facts=sorted(facts, key=lambda f: f.n)))
        at = e
    return out + _named(text, at, len(text), names)


def _mentions(text: str, entities: list[Ent]) -> list[tuple[int, int, Ent]]:
    """Where the entities' names occur as whole words (the longest name first at each place)."""
    by_name: dict[str, Ent] = {}
    for x in entities:
        for name in x.names:
            if name.strip() and name not in by_name:
                by_name[name] = x
    if not by_name:
        return []
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in sorted(by_name, key=lambda s: (-len(s), s)))
                         + r")(?!\w)")
    return [(m.start(), m.end(), by_name[m.group(0)]) for m in pattern.finditer(text)]


def _named(text: str, start: int, end: int, names: list[tuple[int, int, Ent]]) -> list[Piece]:
    """``text[start:end]`` as plain runs and the entity names wholly inside it."""
    out: list[Piece] = []
    at = start
    for b, e, x in names:
        if b < start or e > end:
            continue
        if b > at:
            out.append(Piece(text=text[at:b]))
        out.append(Piece(text=text[b:e], ent=x))
        at = e
    if at < end:
        out.append(Piece(text=text[at:end]))
    return out


def render_article(data: ArticleData, assets: Assets, *, generator: str = "kg") -> str:
    """The page's HTML (``assets``: linked from ``kg serve``, or inlined for a file)."""
    runs = pieces(data)
    placed = [f for f in data.facts if f.evidence is not None]
    scripts, styles = ("article.js",), ("page.css", "kg-types.css", "article.css")
    return environment().get_template("article.html").render(
        a=data, pieces=runs, placed=len(placed), unplaced=[f for f in data.facts if f.evidence is None],
        highlights=sum(1 for p in runs if p.n), csp=assets.csp_meta(scripts, styles),
        styles=assets.styles(*styles), scripts=assets.scripts(*scripts), inline=assets.inline,
        generator=generator, quads=QUAD_COLORS,
        types=sorted({x.type for x in data.entities}, key=lambda t: (t == "Entity", t)),
    )
