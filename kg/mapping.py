"""Facts of one article -> the triples of that article's named graph (no spaCy here).

The same facts always give the same triples: IRIs come from ``iris.Minter`` and node
order never matters, so re-building an article gives an isomorphic (indeed equal) graph.
"""
from __future__ import annotations

from collections.abc import Iterable

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.term import Node
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, XSD

from .facts import ArticleFacts, Entity, Evidence
from .iris import Minter
from .vocab import KG, MODALITY_TERMS, ORG, PREFIXES, SCHEMA, TYPE_CLASSES


Triple = tuple[Node, Node, Node]


def article_graph(facts: ArticleFacts, minter: Minter) -> Graph:
    """The RDF graph of one article's facts (an rdflib Graph, for validation and comparison)."""
    g = Graph()
    for prefix, ns in PREFIXES.items():
        g.bind(prefix, ns)
    for t in article_triples(facts, minter):
        g.add(t)
    return g


def article_triples(facts: ArticleFacts, minter: Minter) -> set[Triple]:
    """The triples of one article's facts as a plain set (cheap: no graph index is built)."""
    g: set[Triple] = set()
    art = facts.article
    a = URIRef(minter.article(art.id))
    g.add((a, RDF.type, KG.Article))
    g.add((a, RDF.type, SCHEMA.NewsArticle))
    g.add((a, SCHEMA.identifier, Literal(art.id)))
    if art.title:
        g.add((a, DCTERMS.title, Literal(art.title)))
    if art.date:
        g.add((a, SCHEMA.datePublished, _date(art.date)))
    if art.url:
        g.add((a, SCHEMA.url, Literal(art.url, datatype=XSD.anyURI)))
    if art.path:
        g.add((a, DCTERMS.source, Literal(art.path)))
    g.add((a, KG.contentHash, Literal(art.content_hash)))
    g.add((a, SCHEMA.text, Literal(art.text)))

    iri_of: dict[str, URIRef] = {}
    for key, ent in sorted(facts.entities.items()):
        iri_of[key] = _entity(g, ent, a, art.id, minter)

    for ev in facts.events:
        e = URIRef(minter.fact("event", art.id, ev.actor, ev.action, ev.target, ev.evidence.start, ev.evidence.end))
        g.add((e, RDF.type, KG.Event))
        if ev.actor is not None:
            g.add((e, KG.actor, iri_of[ev.actor]))
        g.add((e, KG.action, Literal(ev.action)))
        if ev.target is not None:
            g.add((e, KG.target, iri_of[ev.target]))
        g.add((e, KG.negated, Literal(ev.negated)))
        g.add((e, KG.modality, MODALITY_TERMS[ev.modality]))
        if ev.reported_by is not None:
            g.add((e, KG.reportedBy, iri_of[ev.reported_by]))
        _provenance(g, e, a, ev.evidence, ev.confidence, ev.rule, art.id, minter)

    for ro in facts.roles:
        m = URIRef(minter.fact("membership", art.id, ro.person, ro.role, ro.org, ro.evidence.start))
        role = URIRef(minter.role(ro.role))
        g.add((m, RDF.type, ORG.Membership))
        g.add((m, ORG.member, iri_of[ro.person]))
        g.add((m, ORG.organization, iri_of[ro.org]))
        g.add((m, ORG.role, role))
        g.add((role, RDF.type, ORG.Role))
        g.add((role, RDFS.label, Literal(ro.role)))
        g.add((m, KG.former, Literal(ro.former)))
        _provenance(g, m, a, ro.evidence, ro.confidence, ro.rule, art.id, minter)
    return g


def _entity(g: set[Triple], ent: Entity, article: URIRef, article_id: str, minter: Minter) -> URIRef:
    iri = URIRef(minter.entity(ent.type, ent.label, article_id))
    for cls in TYPE_CLASSES[ent.type]:
        g.add((iri, RDF.type, cls))
    g.add((iri, RDFS.label, Literal(ent.label)))
    for alias in sorted(ent.aliases - {ent.label}):
        g.add((iri, SKOS.altLabel, Literal(alias)))
    g.add((article, KG.mentions, iri))
    return iri


def _provenance(
    g: set[Triple], fact: URIRef, article: URIRef, ev: Evidence, confidence: float, rule: str, article_id: str, minter: Minter
) -> None:
    node = URIRef(minter.fact("evidence", article_id, ev.start, ev.end))
    g.add((fact, PROV.wasDerivedFrom, article))
    g.add((fact, KG.evidence, node))
    g.add((fact, KG.confidence, Literal(str(round(confidence, 3)), datatype=XSD.decimal)))
    g.add((fact, KG.rule, Literal(rule)))
    g.add((node, RDF.type, KG.Evidence))
    g.add((node, KG.sentence, Literal(ev.text)))
    g.add((node, KG.beginIndex, Literal(ev.start)))
    g.add((node, KG.endIndex, Literal(ev.end)))
    g.add((node, PROV.wasDerivedFrom, article))


def _date(text: str) -> Literal:
    if len(text) == 10 and text[4] == "-" and text[7] == "-":
        return Literal(text, datatype=XSD.date)
    return Literal(text)


def to_ntriples(triples: Iterable[Triple]) -> str:
    """Sorted N-Triples lines (stable text for the store and for diffs), written by pyoxigraph's
    term syntax, which escapes every character N-Triples requires."""
    return "\n".join(sorted(f"{_ox(s)} {_ox(p)} {_ox(o)} ." for s, p, o in triples))


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
