"""Context terms in RDF: what kg/rdf/mapping.py writes for classes, time, place, claims and dated
roles, and that the shapes reject each kind of broken context (no model)."""
from __future__ import annotations

from collections.abc import Callable

import pyshacl
import pytest
from factsamples import ONTOLOGY, SHAPES, minter, sample_facts
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, SKOS, XSD

from kg.model.vocab import CAMEO, KG, ORG, SEM, TIME, cameo_class
from kg.rdf.mapping import article_graph

SH = Namespace("http://www.w3.org/ns/shacl#")
FACTS = sample_facts()
M = minter()
AID = FACTS.article.id


@pytest.fixture(scope="module")
def graph() -> Graph:
    return article_graph(sample_facts(), minter())


@pytest.fixture(scope="module")
def shapes() -> Graph:
    return Graph().parse(SHAPES, format="turtle")


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ONTOLOGY, format="turtle")


def ent(key: str) -> URIRef:
    e = FACTS.entities[key]
    return URIRef(M.entity(e.type, e.label, AID))


def ev_of(g: Graph, action: str) -> URIRef:
    (e,) = g.subjects(KG.action, Literal(action))
    return e


def test_event_class_and_its_concept(graph: Graph) -> None:
    e = ev_of(graph, "throw")
    assert list(graph.objects(e, KG.eventClass)) == [cameo_class("18")]
    assert (e, KG.lemma, Literal("throw stone")) in graph
    c = cameo_class("18")
    assert (c, RDF.type, SKOS.Concept) in graph
    assert (c, SKOS.notation, Literal("18")) in graph
    assert (c, SKOS.prefLabel, Literal("assault", lang="en")) in graph
    assert (c, SKOS.broader, CAMEO["material-conflict"]) in graph
    assert (CAMEO["material-conflict"], SKOS.prefLabel, Literal("material conflict", lang="en")) in graph


def test_no_class_has_its_reason(graph: Graph) -> None:
    e = ev_of(graph, "blame")
    assert not list(graph.objects(e, KG.eventClass))
    assert str(graph.value(e, KG.classReason)).startswith("verb not in lexicon: blame")


def test_time_stamps(graph: Graph) -> None:
    throw = ev_of(graph, "throw")
    assert graph.value(throw, KG.timeText) == Literal("Sunday")
    assert graph.value(throw, SEM.hasTimeStamp) == Literal("2012-02-19", datatype=XSD.date)
    call = ev_of(graph, "call")
    assert graph.value(call, SEM.hasTimeStamp) == Literal("2012", datatype=XSD.gYear)
    kill = ev_of(graph, "kill")
    assert graph.value(kill, SEM.hasEarliestBeginTimeStamp) == Literal("2012-02-13", datatype=XSD.date)
    assert graph.value(kill, SEM.hasLatestEndTimeStamp) == Literal("2012-02-19", datatype=XSD.date)
    assert not list(graph.objects(kill, SEM.hasTimeStamp))
    wound = ev_of(graph, "wound")  # text only: nothing to resolve it against
    assert graph.value(wound, KG.timeText) == Literal("Saturday") and not list(graph.objects(wound, SEM.hasTimeStamp))


def test_places(graph: Graph) -> None:
    assert graph.value(ev_of(graph, "throw"), SEM.hasPlace) == ent("norway")
    blame = ev_of(graph, "blame")
    assert graph.value(blame, KG.datelinePlace) == ent("bergen") and not list(graph.objects(blame, SEM.hasPlace))
    assert (ent("bergen"), RDF.type, KG.Place) in graph


def test_claimed_by(graph: Graph) -> None:
    assert graph.value(ev_of(graph, "kill"), KG.claimedBy) == ent("front")


def test_dated_roles(graph: Graph) -> None:
    a = URIRef(M.article(AID))
    pub = graph.value(a, TIME.hasTime)
    assert (pub, RDF.type, TIME.Instant) in graph
    assert graph.value(pub, TIME.inXSDDate) == Literal("2012-02-25", datatype=XSD.date)
    (former,) = graph.subjects(ORG.member, ent("ibarra"))
    i = graph.value(former, ORG.memberDuring)
    assert (i, RDF.type, TIME.Interval) in graph and (i, TIME.before, pub) in graph
    (since,) = graph.subjects(ORG.member, ent("ferrante"))
    j = graph.value(since, ORG.memberDuring)
    assert (j, TIME.inside, pub) in graph and not list(graph.objects(j, TIME.before))
    b = graph.value(j, TIME.hasBeginning)
    assert graph.value(b, TIME.inXSDgYear) == Literal("2010", datatype=XSD.gYear)
    assert graph.value(b, KG.timeText) == Literal("2010")


def test_an_undated_role_has_no_interval() -> None:
    from dataclasses import replace

    facts = sample_facts()
    facts.roles = [replace(r, former=False, since=None) for r in facts.roles]
    g = article_graph(facts, minter())
    assert not list(g.objects(None, ORG.memberDuring)) and not list(g.objects(None, TIME.hasTime))


def test_a_role_with_years_has_a_beginning_and_an_end(shapes: Graph, ontology: Graph) -> None:
    from dataclasses import replace

    from kg.model.facts import Time

    facts = sample_facts()
    facts.roles = [replace(r, former=True, since=Time("1994", "1994", "gYear"), until=Time("1997", "1997", "gYear"))
                   for r in facts.roles]
    g = article_graph(facts, minter())
    for interval in g.objects(None, ORG.memberDuring):
        assert (interval, TIME.before, g.value(URIRef(M.article(AID)), TIME.hasTime)) in g
        assert g.value(g.value(interval, TIME.hasBeginning), TIME.inXSDgYear) == Literal("1994", datatype=XSD.gYear)
        assert g.value(g.value(interval, TIME.hasEnd), TIME.inXSDgYear) == Literal("1997", datatype=XSD.gYear)
        assert g.value(g.value(interval, TIME.hasEnd), KG.timeText) == Literal("1997")
    assert _validate(g, shapes, ontology)[0]


# ----- shapes -------------------------------------------------------------------------------------

def _validate(g: Graph, shapes: Graph, ontology: Graph, inference: str = "rdfs") -> tuple[bool, set, str]:
    conforms, report, text = pyshacl.validate(g, shacl_graph=shapes, ont_graph=ontology, inference=inference)
    found = {(report.value(r, SH.resultPath), report.value(r, SH.sourceConstraintComponent))
             for r in report.subjects(RDF.type, SH.ValidationResult)}
    return bool(conforms), found, text


@pytest.mark.parametrize("inference", ["rdfs", "none"])
def test_the_sample_with_context_conforms(shapes: Graph, ontology: Graph, inference: str) -> None:
    conforms, _, text = _validate(article_graph(sample_facts(), minter()), shapes, ontology, inference)
    assert conforms, text


def class_and_reason(g: Graph) -> None:
    g.add((ev_of(g, "throw"), KG.classReason, Literal("also a reason")))


def neither_class_nor_reason(g: Graph) -> None:
    g.remove((ev_of(g, "blame"), KG.classReason, None))


def two_classes(g: Graph) -> None:
    g.add((ev_of(g, "throw"), KG.eventClass, cameo_class("19")))


def bad_notation(g: Graph) -> None:
    g.set((cameo_class("18"), SKOS.notation, Literal("180")))


def wrong_quad(g: Graph) -> None:
    g.set((cameo_class("18"), SKOS.broader, URIRef("https://w3id.org/kg-news/cameo/somewhere")))


def stamp_as_string(g: Graph) -> None:
    g.set((ev_of(g, "throw"), SEM.hasTimeStamp, Literal("2012-02-19")))


def stamp_without_text(g: Graph) -> None:
    g.remove((ev_of(g, "throw"), KG.timeText, None))


def half_an_interval(g: Graph) -> None:
    g.remove((ev_of(g, "kill"), SEM.hasLatestEndTimeStamp, None))


def two_places(g: Graph) -> None:
    g.add((ev_of(g, "throw"), KG.datelinePlace, URIRef(M.entity("Place", "Bergen"))))


def interval_before_and_inside(g: Graph) -> None:
    (m,) = g.subjects(ORG.member, ent("ibarra"))
    i = g.value(m, ORG.memberDuring)
    g.add((i, TIME.inside, g.value(i, TIME.before)))


def instant_date_as_string(g: Graph) -> None:
    pub = g.value(URIRef(M.article(AID)), TIME.hasTime)
    g.set((pub, TIME.inXSDDate, Literal("2012-02-25")))


BROKEN: list[tuple[Callable[[Graph], None], URIRef | None, URIRef]] = [
    (class_and_reason, None, SH.XoneConstraintComponent),
    (neither_class_nor_reason, None, SH.XoneConstraintComponent),
    (two_classes, KG.eventClass, SH.MaxCountConstraintComponent),
    (bad_notation, SKOS.notation, SH.PatternConstraintComponent),
    (wrong_quad, SKOS.broader, SH.InConstraintComponent),
    (stamp_as_string, SEM.hasTimeStamp, SH.OrConstraintComponent),
    (stamp_without_text, KG.timeText, SH.MinCountConstraintComponent),
    (half_an_interval, SEM.hasLatestEndTimeStamp, SH.MinCountConstraintComponent),
    (interval_before_and_inside, None, SH.XoneConstraintComponent),
    (instant_date_as_string, TIME.inXSDDate, SH.DatatypeConstraintComponent),
]


@pytest.mark.parametrize(("breaker", "path", "component"), BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_broken_context_does_not_conform(shapes: Graph, ontology: Graph, breaker, path, component) -> None:
    g = article_graph(sample_facts(), minter())
    breaker(g)
    conforms, found, text = _validate(g, shapes, ontology)
    assert not conforms, f"{breaker.__name__}: the graph conforms"
    assert (path, component) in found, f"{breaker.__name__}: wrong violation:\n{text}"


def test_two_places_do_not_conform(shapes: Graph, ontology: Graph) -> None:
    g = article_graph(sample_facts(), minter())
    two_places(g)
    conforms, found, text = _validate(g, shapes, ontology, inference="none")
    assert not conforms
    assert any(c == SH.MaxCountConstraintComponent for _, c in found), text
