"""What kg/rdf/mapping.py writes conforms to ontology/shapes.ttl; broken graphs do not."""
from __future__ import annotations

from collections.abc import Callable

import pyshacl
import pytest
from factsamples import ONTOLOGY, SHAPES, minter, sample_facts
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, RDFS, XSD

from kg.model.vocab import KG, KG_NS, MODALITY_TERMS, ORG
from kg.rdf.mapping import article_graph

SH = Namespace("http://www.w3.org/ns/shacl#")


@pytest.fixture(scope="module")
def shapes() -> Graph:
    return Graph().parse(SHAPES, format="turtle")


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ONTOLOGY, format="turtle")


def validate(data: Graph, shapes: Graph, ontology: Graph, inference: str = "rdfs") -> tuple[bool, Graph, str]:
    conforms, report, text = pyshacl.validate(
        data, shacl_graph=shapes, ont_graph=ontology, inference=inference, abort_on_first=False
    )
    return bool(conforms), report, text


def violations(report: Graph) -> set[tuple[URIRef | None, URIRef | None]]:
    """(result path, constraint component) of every result in a validation report."""
    return {
        (report.value(r, SH.resultPath), report.value(r, SH.sourceConstraintComponent))
        for r in report.subjects(RDF.type, SH.ValidationResult)
    }


def fresh() -> Graph:
    return article_graph(sample_facts(), minter())


def test_mapping_output_conforms(shapes: Graph, ontology: Graph) -> None:
    conforms, _, text = validate(fresh(), shapes, ontology)
    assert conforms, text


def test_mapping_output_conforms_without_inference(shapes: Graph, ontology: Graph) -> None:
    """Without inference the sh:class checks bite: entities must carry their kg class."""
    conforms, _, text = validate(fresh(), shapes, ontology, inference="none")
    assert conforms, text


def test_mapping_output_conforms_to_the_shapes_alone(shapes: Graph) -> None:
    """No ontology, no inference: the shapes say themselves what an entity is (kgsh:AnyEntity)."""
    conforms, report, text = pyshacl.validate(fresh(), shacl_graph=shapes, abort_on_first=False)
    assert conforms, text
    g = fresh()
    g.set((_one(g, KG.Event), KG.actor, _one(g, KG.Article)))
    conforms, report, text = pyshacl.validate(g, shacl_graph=shapes)
    assert not conforms and (KG.actor, SH.NodeConstraintComponent) in violations(report), text


def test_mapping_output_conforms_after_ntriples_round_trip(shapes: Graph, ontology: Graph) -> None:
    from kg.rdf.mapping import to_ntriples

    g = Graph().parse(data=to_ntriples(fresh()), format="nt")
    conforms, _, text = validate(g, shapes, ontology)
    assert conforms, text


def test_actor_that_is_not_an_entity_fails_without_inference(shapes: Graph, ontology: Graph) -> None:
    """(With RDFS inference kg:actor's range would make the article an entity: see shapes.ttl.)"""
    g = fresh()
    e = _one(g, KG.Event)
    g.set((e, KG.actor, _one(g, KG.Article)))
    conforms, report, text = validate(g, shapes, ontology, inference="none")
    assert not conforms
    assert (KG.actor, SH.NodeConstraintComponent) in violations(report), text  # kgsh:AnyEntity


def test_agentless_passive_conforms_and_needs_its_target(shapes: Graph, ontology: Graph) -> None:
    g = fresh()
    (passive,) = (e for e in g.subjects(RDF.type, KG.Event) if (e, KG.actor, None) not in g)
    assert (passive, KG.target, None) in g
    assert validate(g, shapes, ontology)[0]
    g.remove((passive, KG.target, None))
    conforms, report, text = validate(g, shapes, ontology)
    assert not conforms
    focus = {report.value(r, SH.focusNode) for r in report.subjects(RDF.type, SH.ValidationResult)}
    assert focus == {passive}, text


@pytest.mark.parametrize("modality", sorted(MODALITY_TERMS))
def test_every_modality_conforms(shapes: Graph, ontology: Graph, modality: str) -> None:
    g = fresh()
    g.set((_one(g, KG.Event), KG.modality, MODALITY_TERMS[modality]))
    conforms, _, text = validate(g, shapes, ontology)
    assert conforms, text


def test_shapes_have_targets_in_the_sample(shapes: Graph, ontology: Graph) -> None:
    """The sample exercises every node shape, so 'conforms' is not vacuous."""
    g = fresh()
    for cls in (KG.Article, KG.Person, KG.Organization, KG.Place, KG.Group, KG.Event, KG.Evidence, ORG.Membership):
        assert any(g.subjects(RDF.type, cls)), cls
        assert (None, SH.targetClass, cls) in shapes, cls


def _one(g: Graph, cls: URIRef, pred: URIRef | None = None, obj=None) -> URIRef:
    nodes = sorted(s for s in g.subjects(RDF.type, cls) if pred is None or (s, pred, obj) in g)
    assert nodes, (cls, pred, obj)
    return nodes[0]


def _intransitive_event(g: Graph) -> URIRef:
    (e,) = (e for e in g.subjects(RDF.type, KG.Event) if (e, KG.target, None) not in g)
    return e


def no_actor(g: Graph) -> None:
    """An event without actor (and without target: an agentless passive needs one)."""
    g.remove((_intransitive_event(g), KG.actor, None))


def begin_after_end(g: Graph) -> None:
    ev = _one(g, KG.Evidence)
    end = g.value(ev, KG.endIndex).toPython()
    g.set((ev, KG.beginIndex, Literal(end + 5)))


def begin_equals_end(g: Graph) -> None:
    ev = _one(g, KG.Evidence)
    g.set((ev, KG.beginIndex, g.value(ev, KG.endIndex)))


def negative_begin(g: Graph) -> None:
    ev = _one(g, KG.Evidence)
    g.set((ev, KG.beginIndex, Literal(-1)))


def string_offset(g: Graph) -> None:
    ev = _one(g, KG.Evidence)
    g.set((ev, KG.endIndex, Literal(str(g.value(ev, KG.endIndex)))))


def two_actors(g: Graph) -> None:
    e = _one(g, KG.Event)
    g.add((e, KG.actor, URIRef("https://kg.example.org/entity/person/someone-else")))


def confidence_too_high(g: Graph) -> None:
    g.set((_one(g, KG.Event), KG.confidence, Literal("1.5", datatype=XSD.decimal)))


def confidence_float(g: Graph) -> None:
    g.set((_one(g, KG.Event), KG.confidence, Literal(0.5, datatype=XSD.double)))


def unknown_modality(g: Graph) -> None:
    g.set((_one(g, KG.Event), KG.modality, URIRef(KG_NS + "rumoured")))


def negated_as_string(g: Graph) -> None:
    g.set((_one(g, KG.Event), KG.negated, Literal("false")))


def no_evidence(g: Graph) -> None:
    g.remove((_one(g, KG.Event), KG.evidence, None))


def member_is_organization(g: Graph) -> None:
    m = _one(g, ORG.Membership)
    org = g.value(m, ORG.organization)
    g.set((m, ORG.member, org))


def organization_is_person(g: Graph) -> None:
    m = _one(g, ORG.Membership)
    g.set((m, ORG.organization, g.value(m, ORG.member)))


def role_without_label(g: Graph) -> None:
    role = g.value(_one(g, ORG.Membership), ORG.role)
    g.remove((role, RDFS.label, None))


def no_content_hash(g: Graph) -> None:
    g.remove((None, KG.contentHash, None))


def bad_content_hash(g: Graph) -> None:
    g.set((_one(g, KG.Article), KG.contentHash, Literal("")))


def two_titles(g: Graph) -> None:
    from rdflib.namespace import DCTERMS

    g.add((_one(g, KG.Article), DCTERMS.title, Literal("another title")))


def entity_without_label(g: Graph) -> None:
    g.remove((_one(g, KG.Person), RDFS.label, None))


BROKEN: list[tuple[Callable[[Graph], None], URIRef | None, URIRef]] = [
    (no_actor, None, SH.OrConstraintComponent),
    (begin_after_end, KG.beginIndex, SH.LessThanConstraintComponent),
    (begin_equals_end, KG.beginIndex, SH.LessThanConstraintComponent),
    (negative_begin, KG.beginIndex, SH.MinInclusiveConstraintComponent),
    (string_offset, KG.endIndex, SH.DatatypeConstraintComponent),
    (two_actors, KG.actor, SH.MaxCountConstraintComponent),
    (confidence_too_high, KG.confidence, SH.MaxInclusiveConstraintComponent),
    (confidence_float, KG.confidence, SH.DatatypeConstraintComponent),
    (unknown_modality, KG.modality, SH.InConstraintComponent),
    (negated_as_string, KG.negated, SH.DatatypeConstraintComponent),
    (no_evidence, KG.evidence, SH.MinCountConstraintComponent),
    (member_is_organization, ORG.member, SH.OrConstraintComponent),
    (organization_is_person, ORG.organization, SH.OrConstraintComponent),
    (role_without_label, ORG.role, SH.NodeConstraintComponent),
    (no_content_hash, KG.contentHash, SH.MinCountConstraintComponent),
    (bad_content_hash, KG.contentHash, SH.PatternConstraintComponent),
    (two_titles, URIRef("http://purl.org/dc/terms/title"), SH.MaxCountConstraintComponent),
    (entity_without_label, RDFS.label, SH.MinCountConstraintComponent),
]


@pytest.mark.parametrize(("breaker", "path", "component"), BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_broken_graph_does_not_conform(
    shapes: Graph, ontology: Graph, breaker: Callable[[Graph], None], path: URIRef, component: URIRef
) -> None:
    g = fresh()
    breaker(g)
    assert set(g) != set(fresh()), f"{breaker.__name__} changed nothing"
    conforms, report, text = validate(g, shapes, ontology)
    assert not conforms, f"{breaker.__name__}: expected a violation, the graph conforms"
    assert (path, component) in violations(report), f"{breaker.__name__}: wrong violation:\n{text}"


def test_event_without_actor_and_inverted_evidence_together(shapes: Graph, ontology: Graph) -> None:
    """The two defects named in the brief, in one graph: both are reported."""
    g = fresh()
    no_actor(g)
    begin_after_end(g)
    conforms, report, text = validate(g, shapes, ontology)
    assert not conforms
    found = violations(report)
    assert (None, SH.OrConstraintComponent) in found, text
    assert (KG.beginIndex, SH.LessThanConstraintComponent) in found, text


@pytest.mark.parametrize("inference", ["rdfs", "none"])
def test_readme_example_conforms(shapes: Graph, ontology: Graph, inference: str) -> None:
    """The Turtle example in ontology/README.md is a valid article graph."""
    import re

    readme = (ONTOLOGY.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```turtle\n(.*?)```", readme, re.S)
    g = Graph().parse(data="".join(blocks), format="turtle")
    assert any(g.subjects(RDF.type, KG.Event)) and any(g.subjects(RDF.type, ORG.Membership))
    conforms, _, text = validate(g, shapes, ontology, inference=inference)
    assert conforms, text
