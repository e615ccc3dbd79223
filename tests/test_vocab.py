"""kg/model/vocab.py's closed namespace and ontology/kg.ttl declare the same terms."""
from __future__ import annotations

import pyoxigraph
import pytest
from factsamples import ONTOLOGY, SHAPES
from rdflib import OWL, RDF, RDFS, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection

from kg.model.facts import MODALITIES
from kg.model.vocab import KG, KG_NS, MODALITY_TERMS, ORG, SCHEMA, SEM, TYPE_CLASSES

FOAF = "http://xmlns.com/foaf/0.1/"
PROV = "http://www.w3.org/ns/prov#"
NIF = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ONTOLOGY, format="turtle")


def _local(iri: object) -> str | None:
    return str(iri)[len(KG_NS) :] if isinstance(iri, URIRef) and str(iri).startswith(KG_NS) else None


def _python_terms() -> set[str]:
    return {name for name in KG.__annotations__ if not name.startswith("_")}


def test_declared_terms_equal_python_terms(ontology: Graph) -> None:
    declared = {name for name in map(_local, ontology.subjects()) if name is not None}
    python = _python_terms()
    only_ttl = sorted(declared - python)
    only_py = sorted(python - declared)
    assert not only_ttl and not only_py, (
        "ontology/kg.ttl and class KG in kg/model/vocab.py disagree:\n"
        f"  declared in kg.ttl but missing from KG: {only_ttl}\n"
        f"  in KG but not declared in kg.ttl:       {only_py}"
    )


@pytest.mark.parametrize("path", [ONTOLOGY, SHAPES], ids=["kg.ttl", "shapes.ttl"])
def test_every_kg_iri_used_is_a_term(path, ontology: Graph) -> None:
    """No typo'd kg: IRI hides in the object position of the ontology or in the shapes."""
    g = Graph().parse(path, format="turtle")
    used = {name for triple in g for name in map(_local, triple) if name is not None}
    unknown = sorted(used - _python_terms())
    assert not unknown, f"{path.name} uses kg: IRIs that are not terms of KG: {unknown}"


def test_every_term_is_typed_labelled_and_commented(ontology: Graph) -> None:
    kinds = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.NamedIndividual}
    problems = []
    for name in sorted(_python_terms()):
        term = KG[name]
        if not kinds & set(ontology.objects(term, RDF.type)):
            problems.append(f"kg:{name} has no OWL type")
        for prop in (RDFS.label, RDFS.comment):
            values = list(ontology.objects(term, prop))
            if not values or not all(isinstance(v, Literal) and str(v).strip() for v in values):
                problems.append(f"kg:{name} has no {prop.n3()}")
    assert not problems, "\n".join(problems)


def test_misspelt_term_raises() -> None:
    with pytest.raises(AttributeError):
        KG.Evnt  # noqa: B018
    with pytest.raises(AttributeError):
        KG.reported_by  # noqa: B018
    assert KG.reportedBy == URIRef(KG_NS + "reportedBy")


def test_ontology_header(ontology: Graph) -> None:
    headers = list(ontology.subjects(RDF.type, OWL.Ontology))
    assert len(headers) == 1, headers
    header = headers[0]
    assert ontology.value(header, OWL.versionInfo) is not None
    assert ontology.value(header, URIRef("http://purl.org/dc/terms/license")) is not None


ALIGNMENT = [
    (KG.Article, RDFS.subClassOf, SCHEMA.NewsArticle),
    (KG.Person, RDFS.subClassOf, SCHEMA.Person),
    (KG.Person, RDFS.subClassOf, URIRef(FOAF + "Person")),
    (KG.Organization, RDFS.subClassOf, ORG.Organization),
    (KG.Place, RDFS.subClassOf, SCHEMA.Place),
    (KG.Group, RDFS.subClassOf, URIRef(FOAF + "Group")),
    (KG.Event, RDFS.subClassOf, SEM.Event),
    (KG.Evidence, RDFS.subClassOf, URIRef(NIF + "String")),
    (KG.actor, RDFS.subPropertyOf, SEM.hasActor),
    (KG.target, RDFS.subPropertyOf, SCHEMA.object),
    (KG.reportedBy, RDFS.subPropertyOf, URIRef(PROV + "wasAttributedTo")),
    (KG.mentions, RDFS.subPropertyOf, SCHEMA.mentions),
    (KG.sentence, RDFS.subPropertyOf, URIRef(NIF + "anchorOf")),
    (KG.beginIndex, RDFS.subPropertyOf, URIRef(NIF + "beginIndex")),
    (KG.endIndex, RDFS.subPropertyOf, URIRef(NIF + "endIndex")),
] + [(KG[name], RDFS.subClassOf, KG.Entity) for name in ("Person", "Organization", "Place", "Group")]


@pytest.mark.parametrize("triple", ALIGNMENT, ids=lambda t: f"{_local(t[0])}->{t[2].n3()}")
def test_alignment(ontology: Graph, triple) -> None:
    assert triple in ontology


def test_type_classes_are_entailed(ontology: Graph) -> None:
    """Every standard class mapping.py writes for an entity type is a superclass of its kg class."""
    for classes in TYPE_CLASSES.values():
        kg_class, *standard = classes
        supers = set(ontology.transitive_objects(kg_class, RDFS.subClassOf))
        assert set(standard) <= supers, (kg_class, set(standard) - supers)


def test_modality_individuals(ontology: Graph) -> None:
    assert set(MODALITY_TERMS) == set(MODALITIES), "kg/model/facts.py MODALITIES and kg/model/vocab.py MODALITY_TERMS differ"
    members = set(ontology.subjects(RDF.type, KG.Modality))
    assert members == set(MODALITY_TERMS.values()), f"kg.ttl's modalities: {sorted(map(_local, members))}"
    for m in members:
        assert (m, RDF.type, OWL.NamedIndividual) in ontology
    (one_of,) = ontology.objects(ontology.value(KG.Modality, OWL.equivalentClass), OWL.oneOf)
    assert set(Collection(ontology, one_of)) == members


def test_shapes_allow_exactly_the_modalities() -> None:
    shapes = Graph().parse(SHAPES, format="turtle")
    sh = Namespace("http://www.w3.org/ns/shacl#")
    (prop,) = shapes.subjects(sh.path, KG.modality)
    allowed = set(Collection(shapes, shapes.value(prop, sh["in"])))
    assert allowed == set(MODALITY_TERMS.values()), sorted(map(_local, allowed))


def test_kg_ttl_parses_with_pyoxigraph(ontology: Graph) -> None:
    quads = list(pyoxigraph.parse(path=str(ONTOLOGY), format=pyoxigraph.RdfFormat.TURTLE))
    assert len(quads) == len(ontology)
    subjects = {q.subject.value for q in quads if isinstance(q.subject, pyoxigraph.NamedNode)}
    assert KG_NS + "Event" in subjects


def test_shapes_parse_with_pyoxigraph() -> None:
    quads = list(pyoxigraph.parse(path=str(SHAPES), format=pyoxigraph.RdfFormat.TURTLE))
    assert len(quads) == len(Graph().parse(SHAPES, format="turtle"))
