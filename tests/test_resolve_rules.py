"""Entity resolution across articles: which entities merge and which stay apart (kg/resolve/).

The articles are hand-written facts (no spaCy) stored through the real mapping, so the rules
see exactly what a build writes; the last test checks the extractor's US variants with spaCy.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable

from factsamples import BASE  # also puts the project on sys.path

from kg.build.jobs import to_graph
from kg.build.writer import write_article
from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence, Role
from kg.model.iris import Minter
from kg.resolve.curation import Curation
from kg.resolve.graph import resolve_store, update_resolution
from kg.resolve.linking import Link
from kg.resolve.rules import Resolution
from kg.store import MemoryStore, Store

MINTER = Minter(BASE)


def iri(etype: str, label: str, article: str | None = None) -> str:
    return MINTER.entity(etype, label, article)


def article(aid: str, text: str, entities: Iterable[tuple], events: Iterable[tuple] = (),
            roles: Iterable[tuple] = ()) -> ArticleFacts:
    """Facts of one article. entities: (key, label, type[, aliases]); events: (actor, action, target);
    roles: (person, role, org). Every fact's evidence is the whole text."""
    ev = Evidence(text=text, start=0, end=len(text))
    ents = {}
    for e in entities:
        key, label, etype, *rest = e
        ents[key] = Entity(key, label, etype, set(rest[0]) if rest else {label})
    return ArticleFacts(
        article=Article(id=aid, text=text, content_hash=hashlib.sha256(text.encode()).hexdigest()),
        entities=ents,
        events=[Event(actor=a, action=act, target=t, evidence=ev) for a, act, t in events],
        roles=[Role(person=p, role=r, org=o, evidence=ev) for p, r, o in roles],
    )


def store_of(*facts: ArticleFacts, store: Store | None = None) -> Store:
    st = store if store is not None else MemoryStore()
    for f in facts:
        write_article(st, to_graph(f, MINTER))
    return st


def resolve(*facts: ArticleFacts, curation: Curation | None = None, links: list[Link] | None = None) -> Resolution:
    st = store_of(*facts)
    return resolve_store(st, BASE, curation or Curation(), links or [])


def same(res: Resolution, a: str, b: str) -> bool:
    return res.of[a] is res.of[b]


# --- rule 1: the same name ------------------------------------------------------------------


def test_us_variants_across_articles_are_one_place_labelled_united_states():
    res = resolve(
        article("a", "Troops of the U.S. left.", [("us", "U.S.", "Place")]),
        article("b", "The United States said no.", [("us", "United States", "Place")]),
        article("c", "America said no.", [("us", "America", "Place")]),
        article("d", "The US said no.", [("us", "US", "Place")]),
    )
    members = [iri("Place", n) for n in ("U.S.", "United States", "America", "US")]
    assert len({id(res.of[m]) for m in members}) == 1
    cl = res.of[members[0]]
    assert cl.label == "United States" and cl.canonical == iri("Place", "United States")
    assert {"America", "US", "U.S."} <= set(cl.aliases)
    assert set(cl.counts) == {MINTER.article(x) for x in "abcd"}


def test_names_that_differ_in_case_accents_titles_are_one():
    res = resolve(
        article("a", "Frédéric Marchetti spoke.", [("g", "Frédéric Marchetti", "Person")]),
        article("b", "Minister Frederic Marchetti spoke.", [("g", "Minister Frederic Marchetti", "Person")]),
    )
    assert same(res, iri("Person", "Frédéric Marchetti"), iri("Person", "Minister Frederic Marchetti"))


def test_different_types_never_merge_a_capital_and_its_government():
    res = resolve(
        article("a", "Protesters marched in Oslo.", [("w", "Oslo", "Place")]),
        article("b", "Oslo imposed sanctions.", [("w", "Oslo", "Organization")]),
    )
    place, gov = iri("Place", "Oslo"), iri("Organization", "Oslo")
    assert place != gov and not same(res, place, gov)
    assert (res.of[place].type, res.of[gov].type) == ("Place", "Organization")


def test_groups_are_local_and_never_merge():
    res = resolve(
        article("a", "A gunman fired.", [("g", "a gunman", "Group")]),
        article("b", "A gunman fired.", [("g", "a gunman", "Group")]),
    )
    a, b = iri("Group", "a gunman", "a"), iri("Group", "a gunman", "b")
    assert a != b and not same(res, a, b)


# --- rule 2: acronyms -----------------------------------------------------------------------


VNA_TEXT = "Valdoria's state broadcaster Valdorian News Agency (VNA) said the harbour was closed. VNA added more."


def test_acronym_and_expansion_merge_when_an_article_pairs_them():
    res = resolve(
        article("a", VNA_TEXT, [("k", "VNA", "Organization")]),
        article("b", "The Valdorian News Agency reported a test.", [("k", "Valdorian News Agency", "Organization")]),
    )
    acr, full = iri("Organization", "VNA"), iri("Organization", "Valdorian News Agency")
    assert same(res, acr, full)
    cl = res.of[acr]
    assert cl.label == "Valdorian News Agency" and cl.canonical == full and "VNA" in cl.aliases
    assert ("acronym" in {rule for *_, rule in cl.reasons})


def test_acronym_and_expansion_stay_apart_when_no_article_pairs_them():
    res = resolve(
        article("a", "VNA said the port was closed.", [("k", "VNA", "Organization")]),
        article("b", "The Valdorian News Agency reported a test.", [("k", "Valdorian News Agency", "Organization")]),
    )
    assert not same(res, iri("Organization", "VNA"), iri("Organization", "Valdorian News Agency"))


def test_an_acronym_alone_takes_the_expansion_its_article_gives_as_label():
    text = 'the chief of the Valdorian People\'s Front [VPF] said the VPF would march.'
    res = resolve(article("a", text, [("k", "VPF", "Organization")]))
    cl = res.of[iri("Organization", "VPF")]
    assert cl.label == "Valdorian People's Front" and cl.aliases == ["VPF"]


def test_one_entity_carrying_both_names_pairs_them_for_the_store():
    res = resolve(
        article("a", "The Baltic Fisheries Treaty Organization met.", [("n", "Baltic Fisheries Treaty Organization", "Organization", {"BFTO"})]),
        article("b", "BFTO ordered workers out.", [("n", "BFTO", "Organization")]),
    )
    assert same(res, iri("Organization", "BFTO"), iri("Organization", "Baltic Fisheries Treaty Organization"))


# --- rule 3: country-qualified organizations, common nouns -------------------------------------


def test_country_qualified_organization_joins_its_short_name():
    res = resolve(
        article("a", "The US Fisheries Board said the Fisheries Board spokesperson would speak.",
                [("l", "US Fisheries Board", "Organization"), ("s", "Fisheries Board", "Organization")]),
        article("b", "The Fisheries Board criticised the United States Senate.",
                [("s", "Fisheries Board", "Organization"), ("us", "United States", "Place")]),
        article("c", "The Cabinet Office said no.", [("h", "Cabinet Office", "Organization")]),
    )
    long, short = iri("Organization", "US Fisheries Board"), iri("Organization", "Fisheries Board")
    assert same(res, long, short) and res.of[short].label == "US Fisheries Board"
    assert not same(res, short, iri("Organization", "Cabinet Office"))


def test_a_short_name_qualified_by_two_countries_stays_apart():
    res = resolve(
        article("a", "The Peruvian Navy and the Norwegian Navy sailed; the Navy said.",
                [("i", "Peruvian Navy", "Organization"), ("m", "Norwegian Navy", "Organization"),
                 ("n", "Navy", "Organization")]),
    )
    navy = iri("Organization", "Navy")
    assert not same(res, navy, iri("Organization", "Peruvian Navy"))
    assert not same(res, navy, iri("Organization", "Norwegian Navy"))


def test_a_common_noun_joins_the_one_name_it_ends_in_its_article():
    res = resolve(
        article("a", "Reporters covered the Farmers' Union Congress. During the congress, Moen spoke.",
                [("w", "Farmers' Union Congress", "Organization"), ("c", "congress", "Organization")]),
    )
    assert same(res, iri("Organization", "congress"), iri("Organization", "Farmers' Union Congress"))
    # once a second article uses the common noun it may be another congress: it stands alone
    res = resolve(
        article("a", "Reporters covered the Farmers' Union Congress. During the congress, Moen spoke.",
                [("w", "Farmers' Union Congress", "Organization"), ("c", "congress", "Organization")]),
        article("b", "The congress voted.", [("c", "congress", "Organization")]),
    )
    assert not same(res, iri("Organization", "congress"), iri("Organization", "Farmers' Union Congress"))


# --- rule 5: short person names ---------------------------------------------------------------


def _moen(aid: str = "a") -> ArticleFacts:
    return article(aid, "Norwegian President Halvard Moen called for a ceasefire and condemned the Iron Wolves.",
                   [("k", "Halvard Moen", "Person", {"Halvard Moen", "Moen"}), ("af", "Norway", "Place"),
                    ("t", "Iron Wolves", "Organization")],
                   events=[("k", "condemn", "t")], roles=[("k", "President", "af")])


def test_short_name_joins_the_full_name_when_they_share_an_organization():
    res = resolve(_moen(), article("b", "President Moen of Norway spoke.",
                                   [("k", "Moen", "Person"), ("af", "Norway", "Place")],
                                   roles=[("k", "President", "af")]))
    short, full = iri("Person", "Moen"), iri("Person", "Halvard Moen")
    assert same(res, short, full)
    cl = res.of[short]
    assert cl.label == "Halvard Moen" and cl.canonical == full and ("short name" in {r for *_, r in cl.reasons})


def test_short_name_joins_the_full_name_through_a_common_partner():
    res = resolve(_moen(), article("b", "Moen blamed the Iron Wolves.", [("k", "Moen", "Person"), ("t", "Iron Wolves", "Organization")],
                                   events=[("k", "blame", "t")]))
    assert same(res, iri("Person", "Moen"), iri("Person", "Halvard Moen"))


def test_short_name_without_evidence_stays_apart():
    res = resolve(_moen(), article("b", "Moen won the chess final.", [("k", "Moen", "Person")]))
    assert not same(res, iri("Person", "Moen"), iri("Person", "Halvard Moen"))


def test_an_ambiguous_short_name_stays_apart_even_with_evidence():
    res = resolve(
        _moen(),
        article("c", "Ingrid Moen of Norway condemned the Iron Wolves.",
                [("w", "Ingrid Moen", "Person"), ("af", "Norway", "Place"), ("t", "Iron Wolves", "Organization")],
                events=[("w", "condemn", "t")], roles=[("w", "council head", "af")]),
        article("b", "Moen of Norway condemned the Iron Wolves.", [("k", "Moen", "Person"), ("t", "Iron Wolves", "Organization"),
                                                                    ("af", "Norway", "Place")],
                events=[("k", "condemn", "t")], roles=[("k", "President", "af")]),
    )
    short = iri("Person", "Moen")
    assert not same(res, short, iri("Person", "Halvard Moen")) and not same(res, short, iri("Person", "Ingrid Moen"))


def test_full_names_that_merely_share_a_word_stay_apart():
    res = resolve(article("a", "Peter Lund met Peter Vance.", [("k", "Peter Lund", "Person"), ("b", "Peter Vance", "Person")],
                          events=[("k", "meet", "b")]))
    assert not same(res, iri("Person", "Peter Lund"), iri("Person", "Peter Vance"))


# --- the linking table ------------------------------------------------------------------------


def test_a_name_misspelt_beside_the_right_one_joins_it_and_never_labels_it():
    wrong, right = iri("Organization", "Wolrd Food Programme"), iri("Organization", "World Food Programme")
    res = resolve(article("a", "The Wolrd Food Programme and the World Food Programme...",
                          [("o1", "Wolrd Food Programme", "Organization"), ("o2", "World Food Programme", "Organization")]),
                  article("b", "The World Food Programme said.", [("o", "World Food Programme", "Organization")]))
    assert same(res, wrong, right)
    assert res.of[wrong].label == "World Food Programme" and res.of[wrong].canonical == right
    assert "Wolrd Food Programme" in res.of[wrong].aliases


def test_names_a_swap_apart_stay_apart_without_an_article_naming_both_or_a_majority():
    a, b = iri("Organization", "Sotne Group"), iri("Organization", "Stone Group")
    apart = resolve(article("a", "Sotne Group said.", [("o", "Sotne Group", "Organization")]),
                    article("b", "Stone Group said.", [("o", "Stone Group", "Organization")]),
                    article("c", "Stone Group said.", [("o", "Stone Group", "Organization")]))
    assert not same(apart, a, b)  # never in one article
    even = resolve(article("a", "Sotne Group and Stone Group.", [("o1", "Sotne Group", "Organization"),
                                                                ("o2", "Stone Group", "Organization")]))
    assert not same(even, a, b)  # which one is the slip? nothing says
    short = resolve(article("a", "Acme Corp and Amce Corp.", [("o1", "Acme Corp", "Organization"), ("o2", "Amce Corp", "Organization")]),
                    article("b", "Acme Corp.", [("o", "Acme Corp", "Organization")]))
    assert not same(short, iri("Organization", "Acme Corp"), iri("Organization", "Amce Corp"))  # four letters


def test_linking_table_links_and_merges_by_external_iri():
    q = "http://www.wikidata.org/entity/Q4115189"
    links = [Link("Halvard Moen", "Person", q), Link("Moen", "Person", q), Link("Moen", "Place", "http://example.org/p")]
    res = resolve(_moen(), article("b", "Moen won the chess final.", [("k", "Moen", "Person")]), links=links)
    cl = res.of[iri("Person", "Moen")]
    assert same(res, iri("Person", "Moen"), iri("Person", "Halvard Moen")) and cl.external == [q]


# --- the extractor, across articles (spaCy) ----------------------------------------------------


def test_the_extractor_gives_us_variants_one_iri_across_articles(read):
    iris = set()
    for i, text in enumerate(["U.S. troops left Quito on Monday.", "The United States said it would leave.",
                              "America sent more troops to Quito."]):
        facts = read(text, article_id=f"x{i}")
        iris |= {MINTER.entity(e.type, e.label, f"x{i}") for e in facts.entities.values() if e.type == "Place"
                 and e.label != "Quito"}
    res = resolve(*[read(t, article_id=f"y{i}") for i, t in enumerate(["U.S. troops left Quito.", "The United States left."])])
    assert iris == {iri("Place", "United States")}
    assert res.of[iri("Place", "United States")].label == "United States"


def test_update_writes_one_resolution_graph():
    st = store_of(_moen(), article("b", "President Moen of Norway spoke.",
                                   [("k", "Moen", "Person"), ("af", "Norway", "Place")], roles=[("k", "President", "af")]))
    update_resolution(st, MINTER, curation=Curation())
    graphs = st.graphs()
    assert f"{BASE}resolution" in graphs and len(graphs) == 3
    rows = st.select(f"""SELECT ?m ?c WHERE {{ GRAPH <{BASE}resolution> {{
        ?m <http://www.w3.org/2002/07/owl#sameAs> ?c }} }}""")
    assert [(r["m"], r["c"]) for r in rows] == [(iri("Person", "Moen"), iri("Person", "Halvard Moen"))]
