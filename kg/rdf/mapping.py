"""Facts of one article -> the triples of that article's named graph (no spaCy here).

The same facts always give the same triples: IRIs come from ``iris.Minter`` and node
order never matters, so re-building an article gives an isomorphic (indeed equal) graph.

An article graph holds only triples about the article's own nodes (the article, its facts,
evidence, intervals, and one ``kg:Naming`` per entity: the type and names the article gives it), so no
triple is in two article graphs. The descriptions of the nodes articles share (an entity's types
and names, a role's label, an event class) are ``shared_triples``: they are stated once, in the
``{base}resolution`` graph, which every build recomputes from the namings. Oxigraph's union default
graph (what kg queries) is not deduplicated: a description in 1,000 article graphs would be 1,000
solutions of every pattern that reads it.

Mapping runs once per article on every build, so it is written to be cheap: the terms it uses
are bound once at import (a ``DefinedNamespace`` look-up costs a call), literals that repeat in
an article (booleans, rules, actions, confidences) are made once per article, a sentence shared
by several facts gets its evidence triples once, and ``to_ntriples`` writes each distinct term
once.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, XSD
from rdflib.term import Node

from ..model.cameo import CAMEO_ROOTS, quad_of
from ..model.facts import ArticleFacts, Entity, Evidence, Role, Time
from ..model.iris import Minter
from ..model.vocab import (
    INSTANT_PROPERTIES,
    KG,
    MODALITY_TERMS,
    ORG,
    PREFIXES,
    SCHEMA,
    SEM,
    SKOS,
    TIME,
    TIME_DATATYPES,
    TYPE_CLASSES,
    cameo_class,
    quad_concept,
)

Triple = tuple[Node, Node, Node]

#: Version of the layout of an article graph (``kg:layoutVersion`` of its article): a build
#: re-reads an article whose graph has another one, even if its text is unchanged. 2: entity, role
#: and class descriptions moved out of the article graphs (``kg:Naming``, ``shared_triples``).
LAYOUT_VERSION = 2

_TYPE, _LABEL = RDF.type, RDFS.label
_DERIVED = PROV.wasDerivedFrom
_TRUE, _FALSE = Literal(True), Literal(False)
(_EVENT, _ACTOR, _ACTION, _TARGET, _NEGATED, _MODALITY, _REPORTED_BY, _CLAIMED_BY, _EVENT_CLASS,
 _CLASS_REASON, _LEMMA, _TIME_TEXT, _DATELINE_PLACE, _EVIDENCE, _EVIDENCE_CLASS, _CONFIDENCE, _RULE,
 _SENTENCE, _BEGIN, _END, _FORMER, _MENTIONS) = (
    KG.Event, KG.actor, KG.action, KG.target, KG.negated, KG.modality, KG.reportedBy, KG.claimedBy,
    KG.eventClass, KG.classReason, KG.lemma, KG.timeText, KG.datelinePlace, KG.evidence, KG.Evidence,
    KG.confidence, KG.rule, KG.sentence, KG.beginIndex, KG.endIndex, KG.former, KG.mentions)
_NAMING, _NAMED, _ENTITY_TYPE, _NAME, _ALIAS, _ROLE_LABEL = (
    KG.Naming, KG.entity, KG.entityType, KG.name, KG.alias, KG.roleLabel)
_LAYOUT = Literal(LAYOUT_VERSION)
_HAS_PLACE = SEM.hasPlace
_ALT_LABEL = SKOS.altLabel
_MEMBERSHIP, _MEMBER, _ORGANIZATION, _ROLE, _ROLE_CLASS = (
    ORG.Membership, ORG.member, ORG.organization, ORG.role, ORG.Role)


def article_graph(facts: ArticleFacts, minter: Minter) -> Graph:
    """Everything one article's facts say, its own graph and the shared descriptions together
    (an rdflib Graph, for validation and comparison)."""
    g = Graph()
    for prefix, ns in PREFIXES.items():
        g.bind(prefix, ns)
    for t in article_triples(facts, minter) | shared_triples(facts, minter):
        g.add(t)
    return g


class Literals(dict):
    """Plain string literals of one article, each made once."""

    def __missing__(self, text: str) -> Literal:
        lit = self[text] = Literal(text)
        return lit


def article_triples(facts: ArticleFacts, minter: Minter) -> set[Triple]:  # noqa: C901 (18): one branch per optional fact field
    """The triples of one article's facts as a plain set (cheap: no graph index is built)."""
    g: set[Triple] = set()
    add = g.add
    lit = Literals()
    art = facts.article
    a = URIRef(minter.article(art.id))
    add((a, _TYPE, KG.Article))
    add((a, _TYPE, SCHEMA.NewsArticle))
    add((a, SCHEMA.identifier, Literal(art.id)))
    if art.title:
        add((a, DCTERMS.title, Literal(art.title)))
    if art.date:
        add((a, SCHEMA.datePublished, _date(art.date)))
    if art.url:
        add((a, SCHEMA.url, Literal(art.url, datatype=XSD.anyURI)))
    if art.path:
        add((a, DCTERMS.source, Literal(art.path)))
    add((a, KG.contentHash, Literal(art.content_hash)))
    add((a, KG.layoutVersion, _LAYOUT))
    add((a, SCHEMA.text, Literal(art.text)))

    iri_of: dict[str, URIRef] = {}
    for iri, ent, keys in _one_per_iri(facts, minter):
        _entity(g, iri, ent, a, art.id, minter, lit)
        iri_of.update((k, iri) for k in keys)
    prov = _Provenance(g, a, art.id, minter, lit)

    told = Counter((ev.actor, ev.action, ev.target, ev.evidence.start) for ev in facts.events)
    for ev in facts.events:
        # the same actor, action and target twice in a sentence ("said A, and said B"): told apart by the verb
        verb = (ev.trigger.start,) if ev.trigger is not None and told[(ev.actor, ev.action, ev.target, ev.evidence.start)] > 1 else ()
        e = URIRef(minter.fact("event", art.id, ev.actor, ev.action, ev.target, ev.evidence.start, ev.evidence.end, *verb))
        add((e, _TYPE, _EVENT))
        if ev.actor is not None:
            add((e, _ACTOR, iri_of[ev.actor]))
        add((e, _ACTION, lit[ev.action]))
        if ev.target is not None:
            add((e, _TARGET, iri_of[ev.target]))
        add((e, _NEGATED, _TRUE if ev.negated else _FALSE))
        add((e, _MODALITY, MODALITY_TERMS[ev.modality]))
        if ev.reported_by is not None:
            add((e, _REPORTED_BY, iri_of[ev.reported_by]))
        # (claimed_by and place are looked up leniently: a key merged away after extraction, e.g. by
        # the pipeline's cross-piece folding of short names, loses the link rather than the article)
        if ev.claimed_by in iri_of:
            add((e, _CLAIMED_BY, iri_of[ev.claimed_by]))
        if ev.cameo is not None:
            add((e, _EVENT_CLASS, cameo_class(ev.cameo)))
        elif ev.class_reason:
            add((e, _CLASS_REASON, lit[ev.class_reason]))
        if ev.lemma:
            add((e, _LEMMA, lit[ev.lemma]))
        if ev.time is not None:
            _event_time(g, e, ev.time, lit)
        if ev.place in iri_of:
            add((e, _DATELINE_PLACE if ev.place_from_dateline else _HAS_PLACE, iri_of[ev.place]))
        prov.add(e, ev.evidence, ev.confidence, ev.rule)

    for ro in facts.roles:
        m = URIRef(minter.fact("membership", art.id, ro.person, ro.role, ro.org, ro.evidence.start))
        add((m, _TYPE, _MEMBERSHIP))
        add((m, _MEMBER, iri_of[ro.person]))
        add((m, _ORGANIZATION, iri_of[ro.org]))
        add((m, _ROLE, URIRef(minter.role(ro.role))))
        add((m, _ROLE_LABEL, lit[ro.role]))
        add((m, _FORMER, _TRUE if ro.former else _FALSE))
        if ro.former or ro.new or ro.since is not None or ro.until is not None:
            _member_during(g, m, a, ro, art.id, art.date, minter)
        prov.add(m, ro.evidence, ro.confidence, ro.rule)
    return g


def shared_triples(facts: ArticleFacts, minter: Minter) -> set[Triple]:
    """The descriptions of the shared nodes an article points to, for the ``{base}resolution``
    graph: each entity's types and names, each role's type and label, each event class."""
    g: set[Triple] = set()
    for iri, ent, _ in _one_per_iri(facts, minter):
        describe_entity(g, iri, ent.type, {ent.label}, ent.aliases - {ent.label})
    for ro in facts.roles:
        describe_role(g, URIRef(minter.role(ro.role)), ro.role)
    for code in {ev.cameo for ev in facts.events if ev.cameo is not None}:
        describe_class(g, code)
    return g


def describe_entity(g: set[Triple], iri: URIRef, etype: str, labels: Iterable[str], aliases: Iterable[str],
                    lit: Literals | None = None) -> None:
    """An entity's classes (kg's and the standard ones), rdfs:label and skos:altLabel (``lit``:
    literals made once, when many entities are described together)."""
    lit = lit if lit is not None else Literals()
    for cls in TYPE_CLASSES[etype]:
        g.add((iri, _TYPE, cls))
    for label in labels:
        g.add((iri, _LABEL, lit[label]))
    for alias in aliases:
        g.add((iri, _ALT_LABEL, lit[alias]))


def entity_lines(terms: Terms, iri: str, etype: str, labels: Iterable[str], aliases: Iterable[str]) -> list[str]:
    """``describe_entity`` as N-Triples lines, written as text (the resolution graph describes every
    entity of the store at once, where making rdflib terms first cost more than writing them)."""
    e, plain = terms.iri(iri), terms.plain
    return ([f"{e} <{_TYPE}> <{cls}> ." for cls in TYPE_CLASSES[etype]]
            + [f"{e} <{_LABEL}> {plain(label)} ." for label in labels]
            + [f"{e} <{_ALT_LABEL}> {plain(alias)} ." for alias in aliases])


def describe_role(g: set[Triple], role: URIRef, label: str) -> None:
    """An org:Role and its label ("press secretary")."""
    g.add((role, _TYPE, _ROLE_CLASS))
    g.add((role, _LABEL, Literal(label)))


def describe_class(g: set[Triple], code: str) -> None:
    """The CAMEO root concept and its quad class, as in ontology/cameo.ttl: type, label, notation
    and broader concept; the rest of the scheme (skos:inScheme, definitions, scope notes) is in cameo.ttl."""
    c, quad = cameo_class(code), quad_of(code)
    q = quad_concept(quad)
    g.add((c, _TYPE, SKOS.Concept))
    g.add((c, SKOS.prefLabel, Literal(CAMEO_ROOTS[code], lang="en")))
    g.add((c, SKOS.notation, Literal(code)))
    g.add((c, SKOS.broader, q))
    g.add((q, _TYPE, SKOS.Concept))
    g.add((q, SKOS.prefLabel, Literal(quad, lang="en")))


def _event_time(g: set[Triple], e: URIRef, t: Time, lit: Literals) -> None:
    """kg:timeText always; a SEM time stamp (day, month, year) or earliest/latest bounds (a week, a decade)."""
    g.add((e, _TIME_TEXT, lit[t.text]))
    if t.value is not None and t.datatype in TIME_DATATYPES:
        g.add((e, SEM.hasTimeStamp, Literal(t.value, datatype=TIME_DATATYPES[t.datatype])))
    elif t.datatype == "interval" and t.begin and t.end:
        g.add((e, SEM.hasEarliestBeginTimeStamp, _stamp(t.begin)))
        g.add((e, SEM.hasLatestEndTimeStamp, _stamp(t.end)))


def _stamp(value: str) -> Literal:
    """A bound of an interval: a day (xsd:date), or a year (xsd:gYear) for "the 1990s", "2002-2003"."""
    return Literal(value, datatype=XSD.gYear if len(value) == 4 else XSD.gYearMonth if len(value) == 7 else XSD.date)


def _member_during(g: set[Triple], m: URIRef, article: URIRef, ro: Role, article_id: str, published: str | None,
                   minter: Minter) -> None:
    """org:memberDuring a time:Interval: before the article's publication (former, then-), or
    going on at it (new, since ...), with its beginning and end when the text gives them (since
    2010; from 1994 to 1997)."""
    interval = URIRef(minter.fact("interval", article_id, str(m)))
    pub = URIRef(minter.fact("instant", article_id, "published"))
    g.add((m, ORG.memberDuring, interval))
    g.add((interval, _TYPE, TIME.Interval))
    g.add((article, TIME.hasTime, pub))
    g.add((pub, _TYPE, TIME.Instant))
    if published and len(published) == 10:
        g.add((pub, TIME.inXSDDate, Literal(published, datatype=XSD.date)))
    g.add((interval, TIME.before if ro.former else TIME.inside, pub))
    for when, prop, name in ((ro.since, TIME.hasBeginning, "begin"), (ro.until, TIME.hasEnd, "end")):
        if when is None:
            continue
        instant = URIRef(minter.fact("instant", article_id, str(m), name))
        g.add((interval, prop, instant))
        g.add((instant, _TYPE, TIME.Instant))
        g.add((instant, _TIME_TEXT, Literal(when.text)))
        value, datatype = _instant_value(when)
        if value is not None and datatype in INSTANT_PROPERTIES:
            g.add((instant, INSTANT_PROPERTIES[datatype], Literal(value, datatype=TIME_DATATYPES[datatype])))


def _instant_value(t: Time) -> tuple[str | None, str | None]:
    """The calendar value of a role's beginning or end: its own, or for a span ("earlier this
    month") the month or year both its bounds are in (an instant has no span)."""
    if t.datatype != "interval" or not t.begin or not t.end:
        return t.value, t.datatype
    if t.begin[:7] == t.end[:7] and len(t.begin) >= 7:
        return t.begin[:7], "gYearMonth"
    if t.begin[:4] == t.end[:4]:
        return t.begin[:4], "gYear"
    return None, None


def _one_per_iri(facts: ArticleFacts, minter: Minter) -> list[tuple[URIRef, Entity, list[str]]]:
    """The article's entities by IRI, each with the keys that name it: two keys whose labels differ only in
    case or punctuation ("Voters", "voters") mint one IRI, and are one entity with the other labels as aliases."""
    merged: dict[URIRef, tuple[Entity, list[str]]] = {}
    for key, ent in sorted(facts.entities.items()):
        iri = URIRef(minter.entity(ent.type, ent.label, facts.article.id))
        if iri in merged:
            first, keys = merged[iri]
            merged[iri] = (replace(first, aliases=first.aliases | ent.aliases | {ent.label}), keys + [key])
        else:
            merged[iri] = (ent, [key])
    return [(iri, ent, keys) for iri, (ent, keys) in merged.items()]


def _entity(g: set[Triple], iri: URIRef, ent: Entity, article: URIRef, article_id: str, minter: Minter,
            lit: Literals) -> None:
    """``article kg:mentions entity``, and the article's kg:Naming of it: its type and names as read there."""
    naming = URIRef(minter.fact("naming", article_id, iri))
    g.add((article, _MENTIONS, iri))
    g.add((naming, _TYPE, _NAMING))
    g.add((naming, _NAMED, iri))
    g.add((naming, _ENTITY_TYPE, TYPE_CLASSES[ent.type][0]))
    g.add((naming, _NAME, lit[ent.label]))
    for alias in ent.aliases - {ent.label}:
        g.add((naming, _ALIAS, lit[alias]))
    g.add((naming, _DERIVED, article))


class _Provenance:
    """prov:wasDerivedFrom, kg:evidence, kg:confidence and kg:rule of a fact; each evidence node's
    own triples are written once, however many facts share its sentence."""

    def __init__(self, g: set[Triple], article: URIRef, article_id: str, minter: Minter, lit: Literals) -> None:
        self.g, self.article, self.article_id, self.minter, self.lit = g, article, article_id, minter, lit
        self.nodes: dict[tuple[int, int], URIRef] = {}
        self.confidences: dict[float, Literal] = {}

    def add(self, fact: URIRef, ev: Evidence, confidence: float, rule: str) -> None:
        g, article = self.g, self.article
        node = self.nodes.get((ev.start, ev.end))
        if node is None:
            node = self.nodes[(ev.start, ev.end)] = URIRef(self.minter.fact("evidence", self.article_id, ev.start, ev.end))
            g.add((node, _TYPE, _EVIDENCE_CLASS))
            g.add((node, _SENTENCE, Literal(ev.text)))
            g.add((node, _BEGIN, Literal(ev.start)))
            g.add((node, _END, Literal(ev.end)))
            g.add((node, _DERIVED, article))
        conf = self.confidences.get(confidence)
        if conf is None:
            conf = self.confidences[confidence] = Literal(str(round(confidence, 3)), datatype=XSD.decimal)
        g.add((fact, _DERIVED, article))
        g.add((fact, _EVIDENCE, node))
        g.add((fact, _CONFIDENCE, conf))
        g.add((fact, _RULE, self.lit[rule]))


def _date(text: str) -> Literal:
    if len(text) == 10 and text[4] == "-" and text[7] == "-":
        return Literal(text, datatype=XSD.date)
    return Literal(text)


#: Characters an IRI cannot hold (N-Triples IRIREF); an IRI with any goes through pyoxigraph, which
#: rejects it. kg's own IRIs (iris.Minter, vocab) never have them: they are written directly.
_NOT_IN_IRI = re.compile(r'[\x00-\x20<>"{}|^`\\]|^[^:]*$')


def to_ntriples(triples: Iterable[Triple]) -> str:
    """Sorted N-Triples lines (stable text for the store and for diffs), written by pyoxigraph's
    term syntax, which escapes every character N-Triples requires (each distinct term once)."""
    return "\n".join(sorted(triple_lines(triples)))


def triple_lines(triples: Iterable[Triple], terms: Terms | None = None) -> list[str]:
    """One N-Triples line per triple, unsorted (``terms``: the writer of terms, to share its memo)."""
    w = terms if terms is not None else Terms()
    memo, nt = w.memo, w.term
    get = memo.get
    return [f"{get(s) or nt(s)} {get(p) or nt(p)} {get(o) or nt(o)} ." for s, p, o in triples]


class Terms:
    """Terms in N-Triples syntax, each distinct one written once: rdflib terms (``term``), and IRIs
    and plain literals given as strings (``iri``, ``plain``) where making rdflib terms first would
    cost more than writing them (the clusters of entity resolution)."""

    def __init__(self) -> None:
        self.memo: dict[Node, str] = {}
        self._plain: dict[str, str] = {}
        self._iris: dict[str, str] = {}

    def term(self, term: Node) -> str:
        if type(term) is URIRef and not _NOT_IN_IRI.search(term):
            text = self.memo[term] = f"<{term}>"  # what pyoxigraph writes for an IRI it accepts
        else:
            text = self.memo[term] = str(_ox(term))
        return text

    def iri(self, iri: str) -> str:
        """An IRI: as ``term(URIRef(iri))`` writes it (rejected by pyoxigraph if it is not one)."""
        out = self._iris.get(iri)
        if out is None:
            out = self._iris[iri] = f"<{iri}>" if not _NOT_IN_IRI.search(iri) else str(ox.NamedNode(iri))
        return out

    def plain(self, text: str) -> str:
        """A plain literal: as ``term(Literal(text))`` writes it."""
        out = self._plain.get(text)
        if out is None:
            out = self._plain[text] = str(ox.Literal(text))
        return out


def _ox(term: Node) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    if isinstance(term, Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        if term.datatype:
            return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)))
        return ox.Literal(str(term))
    raise TypeError(f"not an RDF term: {term!r}")
