"""The store -> Network projection (kg.network)."""
from __future__ import annotations

import dataclasses

import networkx as nx

import viewsamples as vs
from kg.network import Edge, Network, load_network, to_networkx
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
        (vs.GUNMAN, vs.ADVISERS, "kill", "event"),
        (vs.KARZAI, vs.TALIBAN, "condemn", "event"),
        (vs.WARDAK, vs.MINISTRY, "visit", "event"),
        (vs.EVIL, vs.EVILORG, "meet", "event"),
        (vs.LITTLE, vs.PENTAGON, "press secretary", "role"),
        (vs.MUJAHID, vs.TALIBAN, "spokesman", "role"),
        (vs.WARDAK, vs.MINISTRY, "defense minister", "role"),
        (vs.EVIL, vs.EVILORG, f"chief {vs.SCRIPT}", "role"),
    }
    assert all(e.target is not None for e in net.edges)


def test_edge_provenance() -> None:
    net = _network()
    kill = next(e for e in net.edges if e.label == "kill")
    assert kill.sentence == vs.KILL_SENTENCE
    assert kill.title == f"Gunman kills two advisers {vs.SCRIPT}"
    assert kill.article_source == f"seeds/{vs.IMG}.txt"  # dcterms:source
    assert kill.date == "2012-02-25"
    assert kill.article == vs.MINTER.article("kabul-shooting")
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
    assert vs.KABUL not in {n.id for n in net.nodes}  # only in the negated attack
    assert all(not e.negated and e.modality in ("asserted", "reported") for e in net.edges if e.kind == "event")


def test_include_negated_and_other_modalities_on_request() -> None:
    net = load_network(vs.build_store(), include_negated=True, modalities=("asserted", "reported", "planned", "hypothetical"))
    by_label = {e.label: e for e in net.edges}
    assert by_label["attack"].negated is True
    assert by_label["threaten"].modality == "hypothetical"
    assert by_label["planned_trip"].modality == "planned"
    assert vs.KABUL in {n.id for n in net.nodes}


def test_untargeted_events_are_facts_of_their_actor() -> None:
    net = _network()
    assert [(e.source, e.label, e.target) for e in net.untargeted] == [(vs.KARZAI, "call", None)]
    assert net.untargeted[0].sentence == vs.CALM_SENTENCE
    facts = {(e.label, e.kind) for e in net.facts_of(vs.KARZAI)}
    assert facts == {("call", "event"), ("condemn", "event")}
    assert net.node(vs.KARZAI).degree == 1  # the target-less call is not a link


def test_label_choice_is_deterministic_and_aliases_kept() -> None:
    wardak = _network().node(vs.WARDAK)
    assert wardak.label == "Abdul Rahim Wardak"
    assert wardak.aliases == ("Abdul Rahim Wardák",)


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
    from kg.mapping import article_graph, to_ntriples

    store.replace_graph(vs.MINTER.graph(facts.article.id), to_ntriples(article_graph(facts, vs.MINTER)))
    labels = {e.label for e in load_network(store).edges}
    assert "condemn" not in labels and "kill" in labels


def test_empty_store() -> None:
    net = load_network(MemoryStore())
    assert net == Network()


def test_plain_dataclasses() -> None:
    net = _network()
    assert dataclasses.is_dataclass(net) and all(dataclasses.is_dataclass(x) for x in (*net.nodes, *net.edges))
    assert all(isinstance(v, (str, int, bool, tuple, type(None))) for n in net.nodes for v in dataclasses.astuple(n))


def test_to_networkx() -> None:
    net = _network()
    g = to_networkx(net)
    assert isinstance(g, nx.MultiDiGraph)
    assert sorted(g.nodes) == [n.id for n in net.nodes]
    assert g.number_of_edges() == len(net.edges)
    assert g.nodes[vs.TALIBAN]["type"] == "Organization"
    assert dict(g.degree()) == {n.id: n.degree for n in net.nodes}
    # two parallel edges Wardak -> ministry: an event and a role, keyed by fact IRI
    keys = {k: d["kind"] for _, _, k, d in g.edges(vs.WARDAK, keys=True, data=True)}
    assert sorted(keys.values()) == ["event", "role"]
    assert g.graph["untargeted"][0]["label"] == "call"
    edge: Edge = net.edges[0]
    assert g.edges[edge.source, edge.target, edge.id]["sentence"] == edge.sentence
