"""The store -> Network projection (kg.outputs.network)."""
from __future__ import annotations

import dataclasses

import networkx as nx
import pytest
import viewsamples as vs

from kg.errors import UsageError
from kg.model.cameo import quad_class
from kg.outputs.network import Edge, Network, load_network, to_networkx
from kg.outputs.select import article_network, class_network, date_network, ego_network, find_entity, select
from kg.store import MemoryStore


def _network() -> Network:
    return load_network(vs.build_store())


def _triples(net: Network) -> set[tuple[str, str | None, str, str]]:
    return {(e.source, e.target, e.label, e.kind) for e in net.edges}


def test_nodes_types_labels_degrees() -> None:
    net = _network()
    got = {n.id: (n.label, n.type, n.degree) for n in net.nodes}
    assert got == vs.EXPECTED_NODES


def test_degree_counts_drawn_edges() -> None:
    net = _network()
    for n in net.nodes:
        assert n.degree == sum((e.source == n.id) + (e.target == n.id) for e in net.edges)


def test_edges() -> None:
    net = _network()
    assert _triples(net) == {
        (vs.GUNMAN, vs.GUARDS, "kill", "event"),
        (vs.MOEN, vs.WOLVES, "condemn", "event"),
        (vs.IBARRA, vs.MINISTRY, "visit", "event"),
        (vs.EVIL, vs.EVILORG, "meet", "event"),
        (vs.FERRANTE, vs.HARBOR, "press secretary", "role"),
        (vs.KAMARA, vs.WOLVES, "spokesman", "role"),
        (vs.IBARRA, vs.MINISTRY, "fisheries minister", "role"),
        (vs.EVIL, vs.EVILORG, f"chief {vs.SCRIPT}", "role"),
    }
    assert all(e.target is not None for e in net.edges)


def test_edge_provenance() -> None:
    net = _network()
    kill = next(e for e in net.edges if e.label == "kill")
    assert kill.sentence == vs.KILL_SENTENCE
    assert kill.title == f"Gunman kills two guards {vs.SCRIPT}"
    assert kill.article_source == f"seeds/{vs.IMG}.txt"  # dcterms:source
    assert kill.date == "2012-02-25"
    assert kill.article == vs.MINTER.article("bergen-shooting")
    assert (kill.negated, kill.modality) == (False, "asserted")
    condemn = next(e for e in net.edges if e.label == "condemn")
    assert condemn.article_source == vs.JS_URL  # no dcterms:source: schema:url
    assert condemn.title == vs.HREF_TITLE
    assert condemn.modality == "reported"
    meet = next(e for e in net.edges if e.label == "meet")
    assert meet.sentence == vs.HOSTILE_SENTENCE


def test_negated_planned_and_hypothetical_events_are_not_edges() -> None:
    net = _network()
    labels = {e.label for e in (*net.edges, *net.untargeted)}
    assert not labels & {"attack", "threaten", "planned_trip"}
    assert vs.BERGEN not in {n.id for n in net.nodes}  # only in the negated attack
    events = [e for e in net.edges if e.kind == "event"]
    assert events and all(not e.negated and e.modality in ("asserted", "reported") for e in events)


def test_include_negated_and_other_modalities_on_request() -> None:
    net = load_network(vs.build_store(), include_negated=True, modalities=("asserted", "reported", "planned", "hypothetical"))
    by_label = {e.label: e for e in net.edges}
    assert by_label["attack"].negated is True
    assert by_label["threaten"].modality == "hypothetical"
    assert by_label["planned_trip"].modality == "planned"
    assert vs.BERGEN in {n.id for n in net.nodes}


def test_untargeted_events_are_facts_of_their_actor() -> None:
    net = _network()
    assert [(e.source, e.label, e.target) for e in net.untargeted] == [(vs.MOEN, "call", None)]
    assert net.untargeted[0].sentence == vs.CALL_SENTENCE
    facts = {(e.label, e.kind) for e in net.facts_of(vs.MOEN)}
    assert facts == {("call", "event"), ("condemn", "event")}
    assert net.node(vs.MOEN).degree == 1  # the target-less call is not a link


def test_label_choice_is_deterministic_and_aliases_kept() -> None:
    ibarra = _network().node(vs.IBARRA)
    assert ibarra.label == "Tomas Ibarra"
    assert ibarra.aliases == ("Tomas Ibárra",)


def test_deterministic_and_sorted() -> None:
    a = _network()
    b = load_network(vs.build_store(list(reversed(vs.sample_facts()))))
    assert a == b
    assert [n.id for n in a.nodes] == sorted(n.id for n in a.nodes)
    assert [e.id for e in a.edges] == sorted(e.id for e in a.edges)


def test_reingest_replaces_facts() -> None:
    store = vs.build_store()
    facts = vs.sample_facts()[1]
    facts.events.clear()
    from kg.build.jobs import to_graph
    from kg.build.writer import write_article

    write_article(store, to_graph(facts, vs.MINTER))
    labels = {e.label for e in load_network(store).edges}
    assert "condemn" not in labels and "kill" in labels


def test_empty_store() -> None:
    net = load_network(MemoryStore())
    assert net == Network()


def test_plain_dataclasses() -> None:
    net = _network()
    assert dataclasses.is_dataclass(net) and all(dataclasses.is_dataclass(x) for x in (*net.nodes, *net.edges))
    assert net.nodes and all(isinstance(v, (str, int, bool, tuple, type(None))) for n in net.nodes for v in dataclasses.astuple(n))


def test_to_networkx() -> None:
    net = _network()
    g = to_networkx(net)
    assert isinstance(g, nx.MultiDiGraph)
    assert sorted(g.nodes) == [n.id for n in net.nodes]
    assert g.number_of_edges() == len(net.edges)
    assert g.nodes[vs.WOLVES]["type"] == "Organization"
    assert dict(g.degree()) == {n.id: n.degree for n in net.nodes}
    # two parallel edges Ibarra -> ministry: an event and a role, keyed by fact IRI
    keys = {k: d["kind"] for _, _, k, d in g.edges(vs.IBARRA, keys=True, data=True)}
    assert sorted(keys.values()) == ["event", "role"]
    assert g.graph["untargeted"][0]["label"] == "call"
    edge: Edge = net.edges[0]
    assert g.edges[edge.source, edge.target, edge.id]["sentence"] == edge.sentence


# --- event classes (optional) -------------------------------------------------------


def test_event_class_is_optional_and_read_when_present() -> None:
    plain = _network()
    assert plain.edges and all(e.event_class == e.quad_class == e.event_class_label == "" for e in plain.edges)
    store = vs.build_store()
    vs.classify(store)
    net = load_network(store)
    by_label = {e.label: e for e in net.edges}
    kill, condemn = by_label["kill"], by_label["condemn"]
    assert (kill.event_class, kill.event_class_label, kill.event_class_code, kill.quad_class) == (
        f"{vs.CAMEO}18", "assault", "18", "material conflict")  # quad from the broader concept
    assert (condemn.event_class_code, condemn.quad_class) == ("11", "verbal conflict")  # quad from the code
    assert by_label["visit"].event_class == "" and by_label["spokesman"].event_class == ""
    assert [e.id for e in net.edges] == [e.id for e in plain.edges]  # no fact gained or lost


@pytest.mark.parametrize(
    ("code", "labels", "quad"),
    [("01", (), "verbal cooperation"), ("5", (), "verbal cooperation"), ("06", (), "material cooperation"),
     ("09", (), "material cooperation"), ("10", (), "verbal conflict"), ("14", (), "verbal conflict"),
     ("15", (), "material conflict"), ("20", (), "material conflict"), ("190", (), "material conflict"),
     ("21", (), ""), ("", (), ""), (None, ("Verbal Cooperation",), "verbal cooperation"),
     ("19", ("Material Cooperation",), "material cooperation"), ("x", ("fight",), "")],
)
def test_quad_class(code: str | None, labels: tuple[str, ...], quad: str) -> None:
    assert quad_class(code, *labels) == quad


# --- subgraphs ------------------------------------------------------------------------


def test_find_entity_by_iri_label_alias_and_substring() -> None:
    net = _network()
    assert find_entity(net, vs.MOEN).id == vs.MOEN
    assert find_entity(net, "halvard MOEN").id == vs.MOEN
    assert find_entity(net, "Tomas Ibárra").id == vs.IBARRA  # an alias
    assert find_entity(net, "Kamara").id == vs.KAMARA  # the one substring match
    with pytest.raises(UsageError, match="did you mean"):
        find_entity(net, "a")  # many substring matches
    with pytest.raises(UsageError, match="no entity named 'Nobody'"):
        find_entity(net, "Nobody")


def test_ego_network_hops() -> None:
    net = _network()
    zero = ego_network(net, "Kamara", hops=0)
    assert [n.id for n in zero.nodes] == [vs.KAMARA] and zero.edges == []
    one = ego_network(net, "Kamara", hops=1)
    assert {n.id for n in one.nodes} == {vs.KAMARA, vs.WOLVES}
    two = ego_network(net, "Kamara", hops=2)
    assert {n.id for n in two.nodes} == {vs.KAMARA, vs.WOLVES, vs.MOEN}
    assert {e.label for e in two.edges} == {"spokesman", "condemn"}
    assert [e.label for e in two.untargeted] == ["call"]  # Moen's target-less event comes along
    assert {n.id: n.degree for n in two.nodes} == {vs.KAMARA: 1, vs.WOLVES: 2, vs.MOEN: 1}
    # induced: both Ibarra -> ministry facts, although one hop reaches the ministry
    ibarra = ego_network(net, vs.IBARRA, hops=1)
    assert sorted(e.label for e in ibarra.edges) == ["fisheries minister", "visit"]
    with pytest.raises(UsageError):
        ego_network(net, "Kamara", hops=-1)


def test_article_network_by_iri_id_and_title() -> None:
    net = _network()
    by_id = article_network(net, "moen-condemns")
    assert {e.label for e in by_id.facts()} == {"condemn", "visit"}
    assert article_network(net, vs.MINTER.article("moen-condemns")) == by_id
    assert article_network(net, vs.HREF_TITLE.upper()) == by_id  # title, any case
    bergen = article_network(net, "bergen-shooting")
    assert {e.label for e in bergen.facts()} >= {"kill", "meet", "call", "spokesman"}
    assert all(e.article == vs.MINTER.article("bergen-shooting") for e in bergen.facts())
    with pytest.raises(UsageError, match="no article"):
        article_network(net, "nope")


def test_class_network() -> None:
    store = vs.build_store()
    vs.classify(store)
    net = load_network(store)
    for query in ("18", "18", "assault", "ASSAULT", f"{vs.CAMEO}18", "material conflict"):
        assert [e.label for e in class_network(net, query).edges] == ["kill"], query
    assert [e.label for e in class_network(net, "verbal conflict").edges] == ["condemn"]
    assert {n.id for n in class_network(net, "11").nodes} == {vs.MOEN, vs.WOLVES}
    with pytest.raises(UsageError, match="classes in the graph: assault, disapprove"):
        class_network(net, "fight")
    with pytest.raises(UsageError, match="no event in the graph has a class"):
        class_network(_network(), "18")


def test_date_network() -> None:
    net = _network()
    day = date_network(net, "2012-02-25", "2012-02-25")
    assert day.facts() and all(e.date == "2012-02-25" for e in day.facts())
    assert "condemn" not in {e.label for e in day.facts()}  # undated article: left out
    assert date_network(net, since="2012-02-26").facts() == []
    assert date_network(net, until="2012-02-25").facts() == day.facts()
    for bad in (("2012-2-25", None), (None, "yesterday"), ("2013-01-01", "2012-01-01")):
        with pytest.raises(UsageError):
            date_network(net, *bad)


def test_select_combines_and_describes() -> None:
    net = _network()
    same, what = select(net)
    assert same is net and what == ""
    sub, what = select(net, article="bergen-shooting", entity="Iron Wolves", hops=1)
    assert {n.id for n in sub.nodes} == {vs.WOLVES, vs.KAMARA}  # condemn is from the other article
    assert what.startswith("article Gunman kills") and what.endswith("Iron Wolves and 1 hop around")


def test_descriptions_repeated_in_many_article_graphs_give_one_row_per_fact() -> None:
    """A role, an event class and an entity described in every article graph (as a build writes
    them) must not multiply the query rows: over the union graph they once gave each fact a row
    per combination of copies, and a 200-article store took minutes to draw."""
    from kg.model.vocab import KG_NS
    from kg.outputs.network import CLASSES_QUERY, ENTITIES_QUERY, FACTS_QUERY

    ex, skos, rdfs, org = "urn:ex:", "http://www.w3.org/2004/02/skos/core#", "http://www.w3.org/2000/01/rdf-schema#", \
        "http://www.w3.org/ns/org#"
    rdf_type = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    store = MemoryStore()
    n = 30
    for i in range(n):
        lines = [
            f"<{ex}ev{i}> <{rdf_type}> <{KG_NS}Event> .", f"<{ex}ev{i}> <{KG_NS}actor> <{ex}police> .",
            f'<{ex}ev{i}> <{KG_NS}action> "arrest" .', f"<{ex}ev{i}> <{KG_NS}target> <{ex}suspect{i}> .",
            f"<{ex}ev{i}> <{KG_NS}eventClass> <{ex}cameo/17> .",
            f'<{ex}cameo/17> <{skos}prefLabel> "coerce"@en .', f'<{ex}cameo/17> <{skos}notation> "17" .',
            f"<{ex}cameo/17> <{skos}broader> <{ex}quad/mc> .", f'<{ex}quad/mc> <{skos}prefLabel> "Material conflict"@en .',
            f"<{ex}m{i}> <{rdf_type}> <{org}Membership> .", f"<{ex}m{i}> <{org}member> <{ex}chief> .",
            f"<{ex}m{i}> <{org}organization> <{ex}police> .", f"<{ex}m{i}> <{org}role> <{ex}role/chief> .",
            f'<{ex}role/chief> <{rdfs}label> "chief" .',
            f'<{ex}police> <{rdfs}label> "the police" .', f"<{ex}police> <{rdf_type}> <{KG_NS}Organization> .",
            f'<{ex}chief> <{rdfs}label> "Chief Ray" .', f"<{ex}chief> <{rdf_type}> <{KG_NS}Person> .",
        ]
        store.replace_graph(f"{ex}graph/{i}", "\n".join(lines))
    assert len(store.select(FACTS_QUERY)) == 2 * n
    assert len(store.select(CLASSES_QUERY)) == 3
    assert len(store.select(ENTITIES_QUERY)) == 2 + n
    net = load_network(store)
    assert len(net.edges) == 2 * n
    arrests = [e for e in net.edges if e.label == "arrest"]
    assert {(e.event_class_label, e.event_class_code, e.quad_class) for e in arrests} == {
        ("coerce", "17", "material conflict")}
    assert {e.label for e in net.edges if e.kind == "role"} == {"chief"}
