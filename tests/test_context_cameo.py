"""The CAMEO verb lexicon and concept scheme: consistent with each other, the mapping and the view."""
from __future__ import annotations

import pytest
from factsamples import ROOT
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, SKOS

from kg.extract.context.cameo import AMBIGUOUS, LEXICON, TARGET_SENSES, classify
from kg.model.cameo import CAMEO_ROOTS, QUAD_CLASSES, quad_class, quad_of
from kg.model.vocab import CAMEO_SCHEME, cameo_class, quad_concept
from kg.rdf.mapping import describe_class

CAMEO_TTL = ROOT / "ontology" / "cameo.ttl"


@pytest.fixture(scope="module")
def scheme() -> Graph:
    return Graph().parse(CAMEO_TTL, format="turtle")


def test_scheme_has_the_20_roots_under_the_4_quads(scheme: Graph) -> None:
    roots = {str(o) for o in scheme.objects(None, SKOS.notation)}
    assert roots == {f"{i:02d}" for i in range(1, 21)} == set(CAMEO_ROOTS)
    for code, label in CAMEO_ROOTS.items():
        c = cameo_class(code)
        assert (c, SKOS.prefLabel, Literal(label, lang="en")) in scheme
        (broader,) = scheme.objects(c, SKOS.broader)
        assert broader == quad_concept(quad_of(code))
        assert (broader, SKOS.narrower, c) in scheme
    tops = set(scheme.objects(CAMEO_SCHEME, SKOS.hasTopConcept))
    assert tops == {quad_concept(q) for q in QUAD_CLASSES}


def test_the_quad_class_of_a_class_code_or_label() -> None:
    for code in CAMEO_ROOTS:
        assert quad_class(code) == quad_of(code) == quad_class(code.lstrip("0"))
    assert quad_class("", "", "Verbal Conflict ") == "verbal conflict"
    assert quad_class("00") == quad_class("21") == quad_class("x") == quad_class(None) == ""


def test_mapping_writes_exactly_the_schemes_triples(scheme: Graph) -> None:
    """What an article graph says about a concept is what cameo.ttl says (a subset of it)."""
    for code in CAMEO_ROOTS:
        g: set = set()
        describe_class(g, code)
        missing = [t for t in g if t not in scheme]
        assert not missing, missing


def test_cameo_ttl_parses_with_pyoxigraph() -> None:
    import pyoxigraph

    quads = list(pyoxigraph.parse(path=str(CAMEO_TTL), format=pyoxigraph.RdfFormat.TURTLE))
    assert len(quads) == len(Graph().parse(CAMEO_TTL, format="turtle"))


def test_lexicon_is_large_and_well_formed() -> None:
    assert len(LEXICON) >= 500 and len({k.split()[0] for k in LEXICON}) >= 300
    assert set(LEXICON.values()) <= set(CAMEO_ROOTS)
    assert set(LEXICON.values()) == set(CAMEO_ROOTS), "every root class has verbs"
    for key in LEXICON:
        assert key == key.lower().strip() and "  " not in key, key
    assert not set(AMBIGUOUS) & set(LEXICON), "an ambiguous verb has no class of its own"
    assert set(TARGET_SENSES.values()) <= set(CAMEO_ROOTS)


@pytest.mark.parametrize(
    ("keys", "code"),
    [
        (["call for"], "02"), (["call"], "04"), (["kill"], "18"), (["condemn"], "11"), (["say"], "01"),
        (["apologize for", "apologize"], "05"), (["meet"], "04"), (["arrest"], "17"), (["detain"], "17"),
        (["expel"], "16"), (["deport"], "17"), (["threaten"], "13"), (["attack"], "18"), (["shoot"], "18"),
        (["wound"], "18"), (["fire round", "fire"], "19"), (["rescue"], "07"), (["claim responsibility", "claim"], "01"),
        (["throw grenade", "throw"], "18"), (["order out", "order"], "16"), (["order"], "10"),
        (["crack down on", "crack down", "crack"], "17"), (["urge"], "02"), (["massacre"], "20"),
        (["investigate"], "09"), (["protest"], "14"), (["deploy"], "15"), (["release"], "08"), (["help"], "07"),
        (["cooperate with", "cooperate"], "06"), (["promise"], "03"), (["reject"], "12"),
    ],
)
def test_classify(keys: list[str], code: str) -> None:
    lemma = keys[-1]
    got, key, reason = classify(keys, lemma, has_target=False)
    assert got == code and reason is None
    assert key in keys


def test_unknown_verb_gets_no_class_and_a_reason() -> None:
    assert classify(["find on floor", "find"], "find", True) == (None, "find", "verb not in lexicon: find")


def test_ambiguous_verb_gets_no_class_unless_a_key_decides() -> None:
    code, key, reason = classify(["strike"], "strike", True)
    assert code is None and key == "strike" and reason.startswith("ambiguous verb: strike")
    assert classify(["fire shell", "fire"], "fire", False)[0] == "19"
    assert classify(["fire"], "fire", True)[0] is None


def test_target_senses_need_a_target() -> None:
    assert classify(["recall"], "recall", has_target=True)[0] == "16"
    assert classify(["recall"], "recall", has_target=False)[0] is None


def test_concept_iris() -> None:
    assert cameo_class("18") == URIRef("https://w3id.org/kg-news/cameo/18")
    assert quad_concept("material conflict") == URIRef("https://w3id.org/kg-news/cameo/material-conflict")
    g: set = set()
    describe_class(g, "18")
    assert (cameo_class("18"), RDF.type, SKOS.Concept) in g
