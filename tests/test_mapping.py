"""kg/rdf/mapping.py: facts -> one article's triples, deterministic and exact."""
from __future__ import annotations

from decimal import Decimal

import pyoxigraph
import pytest
from factsamples import ODD, S_FORMER, S_NOT, S_ROLE, S_THROW, TEXT, minter, sample_facts
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef
from rdflib.compare import graph_diff, isomorphic, to_isomorphic
from rdflib.namespace import DCTERMS, FOAF, PROV, RDF, RDFS, SKOS, XSD

from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence
from kg.model.vocab import KG, ORG, SCHEMA
from kg.rdf.mapping import Terms, article_graph, describe_entity, entity_lines, to_ntriples, triple_lines

M = minter()
FACTS = sample_facts()
AID = FACTS.article.id


@pytest.fixture(scope="module")
def graph() -> Graph:
    return article_graph(sample_facts(), minter())


def ent(key: str) -> URIRef:
    e = FACTS.entities[key]
    return URIRef(M.entity(e.type, e.label, AID))


def _diff(a: Graph, b: Graph) -> str:
    _, only_a, only_b = graph_diff(to_isomorphic(a), to_isomorphic(b))
    return f"only in first:\n{to_ntriples(only_a)}\nonly in second:\n{to_ntriples(only_b)}"


def event_of(g: Graph, actor: str, action: str) -> URIRef:
    found = [e for e in g.subjects(KG.actor, ent(actor)) if (e, KG.action, Literal(action)) in g]
    assert len(found) == 1, found
    return found[0]


def test_mapping_is_deterministic(graph: Graph) -> None:
    again = article_graph(sample_facts(), minter())
    assert isomorphic(graph, again), _diff(graph, again)
    assert to_ntriples(graph) == to_ntriples(again)
    assert set(graph) == set(again)  # no blank nodes: equal, not just isomorphic


def test_article(graph: Graph) -> None:
    a = URIRef(M.article(AID))
    art = FACTS.article
    assert a == URIRef("https://kg.example.org/article/seed%2Fharbor-2012-02-25.txt")
    for t in (KG.Article, SCHEMA.NewsArticle):
        assert (a, RDF.type, t) in graph
    assert (a, SCHEMA.identifier, Literal(art.id)) in graph
    assert (a, KG.contentHash, Literal(art.content_hash)) in graph
    assert (a, DCTERMS.title, Literal(ODD)) in graph
    assert (a, SCHEMA.datePublished, Literal("2012-02-25", datatype=XSD.date)) in graph
    assert (a, SCHEMA.text, Literal(TEXT)) in graph
    assert set(graph.objects(a, KG.mentions)) == {ent(k) for k in FACTS.entities}


@pytest.mark.parametrize(
    ("key", "classes"),
    [
        ("ferrante", {KG.Person, SCHEMA.Person, FOAF.Person}),
        ("harbor", {KG.Organization, ORG.Organization, SCHEMA.Organization}),
        ("us", {KG.Place, SCHEMA.Place}),
        ("gunman", {KG.Group, FOAF.Group}),
    ],
)
def test_entity_types(graph: Graph, key: str, classes: set) -> None:
    assert set(graph.objects(ent(key), RDF.type)) == classes


def test_entity_labels(graph: Graph) -> None:
    ferrante = ent("ferrante")
    assert ferrante == URIRef("https://kg.example.org/entity/person/nadia-ferrante")
    assert list(graph.objects(ferrante, RDFS.label)) == [Literal("Nadia Ferrante")]
    assert set(graph.objects(ferrante, SKOS.altLabel)) == {Literal("Ferrante")}  # not the label itself
    assert set(graph.objects(ent("front"), SKOS.altLabel)) == {Literal(ODD), Literal('the "Black Reed Front"')}


def test_groups_are_local_to_the_article(graph: Graph) -> None:
    gunman = str(ent("gunman"))
    assert gunman == "https://kg.example.org/entity/seed%2Fharbor-2012-02-25.txt/group/a-gunman"
    assert str(ent("us")) == "https://kg.example.org/entity/place/us"


def test_event_with_target(graph: Graph) -> None:
    e = event_of(graph, "demonstrators", "throw")
    assert (e, RDF.type, KG.Event) in graph
    assert (e, KG.target, ent("us")) in graph
    assert (e, KG.negated, Literal(False)) in graph
    assert (e, KG.modality, KG.asserted) in graph
    assert (e, PROV.wasDerivedFrom, URIRef(M.article(AID))) in graph
    assert (e, KG.rule, Literal("svo")) in graph
    assert not list(graph.objects(e, KG.reportedBy))


def test_negated_event(graph: Graph) -> None:
    e = event_of(graph, "moen", "blame")
    assert list(graph.objects(e, KG.negated)) == [Literal(True)]
    assert list(graph.objects(e, KG.negated))[0].datatype == XSD.boolean
    negated = set(graph.subjects(KG.negated, Literal(True)))
    assert negated == {e}


def test_reported_event(graph: Graph) -> None:
    e = event_of(graph, "gunman", "kill")
    assert (e, KG.modality, KG.reported) in graph
    assert (e, KG.reportedBy, ent("ferrante")) in graph
    assert (e, KG.target, ent("guards")) in graph
    (conf,) = graph.objects(e, KG.confidence)
    assert conf.datatype == XSD.decimal and str(conf) == "0.6"
    assert conf.toPython() == Decimal("0.6") and isinstance(conf.toPython(), Decimal)  # well-typed in memory too


def test_agentless_passive_has_no_actor(graph: Graph) -> None:
    (e,) = graph.subjects(KG.target, ent("wounded"))
    assert (e, RDF.type, KG.Event) in graph
    assert (e, KG.action, Literal("wound")) in graph
    assert not list(graph.objects(e, KG.actor))
    assert len(set(graph.subjects(RDF.type, KG.Event))) == len(FACTS.events)


def test_intransitive_event_has_no_target(graph: Graph) -> None:
    e = event_of(graph, "ibarra", "call")
    assert not list(graph.objects(e, KG.target))
    assert (e, KG.modality, KG.planned) in graph


@pytest.mark.parametrize(
    ("person", "role", "org", "former", "sentence"),
    [
        ("ferrante", "press secretary", "harbor", False, S_ROLE),
        ("ibarra", "defense minister", "norway", True, S_FORMER),
    ],
)
def test_membership(graph: Graph, person: str, role: str, org: str, former: bool, sentence: str) -> None:
    (m,) = graph.subjects(ORG.member, ent(person))
    assert (m, RDF.type, ORG.Membership) in graph
    assert list(graph.objects(m, ORG.organization)) == [ent(org)]
    (r,) = graph.objects(m, ORG.role)
    assert r == URIRef(M.role(role))
    assert (r, RDF.type, ORG.Role) in graph
    assert (r, RDFS.label, Literal(role)) in graph
    assert list(graph.objects(m, KG.former)) == [Literal(former)]
    (ev,) = graph.objects(m, KG.evidence)
    assert (ev, KG.sentence, Literal(sentence)) in graph
    assert (m, PROV.wasDerivedFrom, URIRef(M.article(AID))) in graph


@pytest.mark.parametrize(("actor", "action"), [("demonstrators", "throw"), ("moen", "blame"), ("gunman", "kill")])
def test_evidence_offsets(graph: Graph, actor: str, action: str) -> None:
    e = event_of(graph, actor, action)
    (ev,) = graph.objects(e, KG.evidence)
    assert (ev, RDF.type, KG.Evidence) in graph
    begin = graph.value(ev, KG.beginIndex)
    end = graph.value(ev, KG.endIndex)
    assert begin.datatype == XSD.integer and end.datatype == XSD.integer
    sentence = str(graph.value(ev, KG.sentence))
    assert TEXT[begin.toPython() : end.toPython()] == sentence
    assert sentence in (S_THROW, S_NOT, S_ROLE)


def test_shared_sentence_shares_one_evidence_node(graph: Graph) -> None:
    kill = event_of(graph, "gunman", "kill")
    (m,) = graph.subjects(ORG.member, ent("ferrante"))
    assert graph.value(kill, KG.evidence) == graph.value(m, KG.evidence)


def _oxigraph_literals(nt: str) -> dict[tuple[str, str], set[str]]:
    out: dict[tuple[str, str], set[str]] = {}
    for q in pyoxigraph.parse(nt, format=pyoxigraph.RdfFormat.N_TRIPLES):
        if isinstance(q.object, pyoxigraph.Literal):
            out.setdefault((q.subject.value, q.predicate.value), set()).add(q.object.value)
    return out


def test_odd_literals_round_trip_through_ntriples(graph: Graph) -> None:
    nt = to_ntriples(graph)
    assert len(nt.split("\n")) == len(graph), "one N-Triples line per triple"
    lits = _oxigraph_literals(nt)
    a = M.article(AID)
    assert lits[(a, str(DCTERMS.title))] == {ODD}
    assert lits[(a, str(SCHEMA.text))] == {TEXT}
    assert ODD in lits[(str(ent("front")), str(SKOS.altLabel))]
    (ev,) = graph.objects(event_of(graph, "moen", "blame"), KG.evidence)
    assert lits[(str(ev), str(KG.sentence))] == {S_NOT}
    # and oxigraph sees exactly the triples rdflib has
    assert sum(1 for _ in pyoxigraph.parse(nt, format=pyoxigraph.RdfFormat.N_TRIPLES)) == len(graph)


def _tiny(text: str) -> ArticleFacts:
    ev = Evidence(text=text, start=0, end=max(len(text), 1))
    return ArticleFacts(
        article=Article(id=text or "empty", text=text, title=text or None),
        entities={"a": Entity("a", text or "?", "Person", {text + "!"}), "b": Entity("b", text or "?", "Group")},
        events=[Event(actor="a", action=text or "do", target="b", evidence=ev)],
    )


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_any_text_round_trips_through_ntriples(text: str) -> None:
    g = article_graph(_tiny(text), minter())
    nt = to_ntriples(g)
    parsed = list(pyoxigraph.parse(nt, format=pyoxigraph.RdfFormat.N_TRIPLES))
    assert len(parsed) == len(g)
    values = {q.object.value for q in parsed if isinstance(q.object, pyoxigraph.Literal)}
    assert text + "!" in values
    if text:
        assert text in values
    assert isomorphic(Graph().parse(data=nt, format="nt"), g)


@given(st.text(), st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x10FFFF,
                                                     blacklist_categories=("Cs",)), min_size=1))
def test_terms_given_as_strings_are_written_as_their_rdflib_terms(text: str, path: str) -> None:
    from kg.rdf.mapping import Terms

    assert Terms().plain(text) == Terms().term(Literal(text))
    iri = "https://example.org/" + path
    try:
        expected = Terms().term(URIRef(iri))
    except ValueError:  # not an IRI: refused the same way
        with pytest.raises(ValueError):
            Terms().iri(iri)
    else:
        assert Terms().iri(iri) == expected


@given(st.sampled_from(["Person", "Organization", "Place", "Group"]),
       st.lists(st.text(min_size=1, max_size=12), max_size=3), st.lists(st.text(min_size=1, max_size=12), max_size=3))
@settings(max_examples=60, deadline=None)
def test_entity_lines_write_what_describe_entity_says(etype: str, labels: list[str], aliases: list[str]) -> None:
    """The resolution graph writes entities as text (``entity_lines``), an article's shared
    descriptions through terms (``describe_entity``): the same lines, whatever the names hold."""
    iri = "https://kg.example.org/entity/organization/odd"
    g: set = set()
    describe_entity(g, URIRef(iri), etype, labels + [ODD], aliases)
    assert sorted(set(entity_lines(Terms(), iri, etype, labels + [ODD], aliases))) == sorted(triple_lines(g))


def test_two_keys_of_one_iri_give_one_naming_with_one_name() -> None:
    text = "Voters spoke. The voters said no."
    art = Article(id="case-twins", text=text)
    ev = Evidence(text=text, start=0, end=len(text))
    facts = ArticleFacts(article=art, entities={
        "Group:Voters": Entity(key="Group:Voters", label="Voters", type="Group"),
        "Group:voters": Entity(key="Group:voters", label="voters", type="Group")},
        events=[Event(actor="Group:Voters", action="speak", evidence=ev),
                Event(actor="Group:voters", action="say", evidence=ev)])
    g = article_graph(facts, M)
    namings = list(g.subjects(RDF.type, KG.Naming))
    assert len(namings) == 1
    assert len(list(g.objects(namings[0], KG.name))) == 1
    assert {str(o) for o in g.objects(namings[0], KG.alias)} | {str(o) for o in g.objects(namings[0], KG.name)} \
        == {"Voters", "voters"}
    actors = {g.value(e, KG.actor) for e in g.subjects(RDF.type, KG.Event)}
    assert len(actors) == 1 and None not in actors


def test_one_triple_told_twice_in_a_sentence_is_two_events() -> None:
    text = "Ann said no, and said it twice."
    art = Article(id="twice", text=text)
    ev = Evidence(text=text, start=0, end=len(text))
    facts = ArticleFacts(article=art, entities={"Person:ann": Entity(key="Person:ann", label="Ann", type="Person")},
                         events=[Event(actor="Person:ann", action="say", evidence=ev, trigger=Evidence("said", 4, 8)),
                                 Event(actor="Person:ann", action="say", evidence=ev, trigger=Evidence("said", 17, 21))])
    g = article_graph(facts, M)
    assert len(list(g.subjects(RDF.type, KG.Event))) == 2
