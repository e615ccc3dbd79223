"""networkx analysis (kg.outputs.analysis), charts (kg.outputs.charts) and the analyze / path / view commands."""
from __future__ import annotations

import math
import os
from pathlib import Path

import networkx as nx
import pytest
import viewsamples as vs
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import UsageError
from kg.outputs import analysis as an
from kg.outputs.charts import CHART_FILES, activity_chart, top_actors_chart, write_charts
from kg.outputs.network import Edge, Network, Node, load_network
from kg.store import OxigraphStore


@pytest.fixture(scope="module")
def network() -> Network:
    return load_network(vs.build_store())


def test_undirected_projection_weights_and_no_self_loops() -> None:
    a, b = "urn:a", "urn:b"
    net = Network(
        nodes=[Node(a, "A", "Person", 5), Node(b, "B", "Person", 3)],
        edges=[Edge(f"urn:e{i}", s, t, "x", "event") for i, (s, t) in enumerate([(a, b), (b, a), (a, b), (a, a)])],
    )
    g = an.undirected(net)
    assert isinstance(g, nx.Graph) and not g.is_directed()
    assert g[a][b]["weight"] == 3 and not nx.number_of_selfloops(g)


def test_rankings(network: Network) -> None:
    ranks = an.rankings(network)
    assert [r.id for r in ranks] == [n.id for n in network.nodes]
    assert math.isclose(sum(r.pagerank for r in ranks), 1.0, rel_tol=1e-6)
    by_id = {r.id: r for r in ranks}
    assert by_id[vs.WOLVES].degree == 2
    # Iron Wolves lies between Kamara and Moen; a leaf lies between nothing
    assert by_id[vs.WOLVES].betweenness > 0 and by_id[vs.KAMARA].betweenness == 0
    assert an.top(ranks, "betweenness", 1)[0].id in (vs.WOLVES, vs.EVIL, vs.EVILORG, vs.IBARRA, vs.MINISTRY)
    assert by_id[vs.WOLVES].pagerank > by_id[vs.KAMARA].pagerank
    assert [r.label for r in an.top(ranks, "degree", 3)] == sorted(r.label for r in ranks if r.degree == 2)[:3]
    assert an.rankings(network) == ranks  # deterministic
    with pytest.raises(UsageError):
        an.top(ranks, "fame")


def test_betweenness_is_sampled_with_a_seed_on_big_graphs(monkeypatch: pytest.MonkeyPatch) -> None:
    net = vs.synthetic_network(120)
    monkeypatch.setattr(an, "BETWEENNESS_EXACT_LIMIT", 50)
    monkeypatch.setattr(an, "BETWEENNESS_SAMPLES", 20)
    first = {r.id: r.betweenness for r in an.rankings(net)}
    assert first == {r.id: r.betweenness for r in an.rankings(net)}
    assert any(first.values())


def test_communities(network: Network) -> None:
    found = an.communities(network)
    assert found == an.communities(network) == an.communities(network, an.rankings(network))
    members = [m for c in found for m in c.members]
    assert len(members) == len(set(members))  # a partition
    assert set(members) == {n.id for n in network.nodes if n.degree}
    assert [len(c.members) for c in found] == sorted((len(c.members) for c in found), reverse=True)
    together = next(c for c in found if vs.WOLVES in c.members)
    assert vs.KAMARA in together.members and together.internal_facts >= 1
    assert [c.index for c in found] == list(range(len(found)))
    ranks = {r.id: r.community for r in an.rankings(network)}
    assert ranks[vs.KAMARA] == ranks[vs.WOLVES] >= 0


def test_activity(network: Network) -> None:
    days = an.activity(network)
    assert [d.date for d in days] == ["2012-02-25", ""]  # undated last
    bergen, undated = days
    assert (bergen.events, bergen.roles, bergen.articles) == (3, 4, 1)  # kill, meet, call; four roles
    assert (undated.events, undated.roles, undated.articles) == (2, 0, 1)  # condemn, visit


def test_connection(network: Network) -> None:
    hops = an.connection(network, "Idris Kamara", "Halvard Moen")
    assert hops is not None
    assert [(h.source_label, h.target_label) for h in hops] == [("Idris Kamara", "Iron Wolves"), ("Iron Wolves", "Halvard Moen")]
    assert [f.label for f in hops[0].facts] == ["spokesman"] and hops[0].facts[0].sentence
    assert [f.label for f in hops[1].facts] == ["condemn"]  # taken against its direction
    assert hops[1].facts[0].sentence == "Moen condemned the Iron Wolves."
    ibarra = an.connection(network, vs.IBARRA, vs.MINISTRY)
    assert ibarra is not None and [f.kind for f in ibarra[0].facts] == ["event", "role"]  # both facts, events first
    assert an.connection(network, "Nadia Ferrante", "Halvard Moen") is None
    assert an.connection(network, "Moen", vs.MOEN) == []
    with pytest.raises(UsageError):
        an.connection(network, "Nobody", "Moen")


def test_gephi_graph_attributes_are_plain(network: Network) -> None:
    g = an.gephi_graph(network)
    assert g.number_of_nodes() == len(network.nodes) and g.number_of_edges() == len(network.edges)
    assert g.number_of_nodes() and g.number_of_edges()
    for _, attrs in g.nodes(data=True):
        assert attrs and all(isinstance(v, (str, int, float)) for v in attrs.values()), attrs
    for _, _, attrs in g.edges(data=True):
        assert attrs and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in attrs.values()), attrs
        assert "type" not in attrs and "id" not in attrs  # GEXF would take them as the edge's own type and id
    assert g.nodes[vs.EVIL]["label"] == vs.IMG


def test_graphml_and_gexf_round_trip(tmp_path: Path, network: Network) -> None:
    hostile = Network(
        nodes=[*network.nodes, Node("urn:ctl", "bell\x07 and nul\x00", "Entity", 1)],
        edges=[*network.edges, Edge("urn:ctl-e", "urn:ctl", vs.MOEN, "say\x0b", "event", sentence="a\x1fb")],
    )
    graphml, gexf = tmp_path / "g.graphml", tmp_path / "g.gexf"
    an.write_graphml(hostile, graphml)
    an.write_gexf(hostile, gexf)
    assert sorted(os.listdir(tmp_path)) == ["g.gexf", "g.graphml"]  # no temp files left
    for g in (nx.read_graphml(graphml), nx.read_gexf(gexf)):
        assert g.number_of_nodes() == len(hostile.nodes) and g.number_of_edges() == len(hostile.edges)
    back = nx.read_graphml(graphml)
    assert back.nodes[vs.EVIL]["label"] == vs.IMG  # markup kept as text, escaped by the XML writer
    assert back.nodes["urn:ctl"]["label"] == "bell\ufffd and nul\ufffd"
    kill = next(e for e in network.edges if e.label == "kill")
    assert back.edges[kill.source, kill.target, kill.id]["sentence"] == vs.KILL_SENTENCE
    assert back.edges[kill.source, kill.target, kill.id]["negated"] == "false"
    assert isinstance(back.nodes[vs.WOLVES]["pagerank"], float)
    assert gexf.read_text("utf-8").count("<viz:color") == len(hostile.nodes)
    with pytest.raises(UsageError, match="does not exist"):
        an.write_gexf(network, tmp_path / "nope" / "g.gexf")


PNG = b"\x89PNG\r\n\x1a\n"


def test_charts(tmp_path: Path, network: Network) -> None:
    paths = write_charts(network, tmp_path)
    assert [p.name for p in paths] == list(CHART_FILES) and sorted(os.listdir(tmp_path)) == sorted(CHART_FILES)
    for p in paths:
        assert p.read_bytes().startswith(PNG) and p.stat().st_size > 5000
    # labels are text, not mathtext: "$" must not break the drawing; an empty network draws a note
    dollars = Network(nodes=[Node("urn:d", "$x^2$ and $", "Person", 1), Node("urn:e", "e", "Place", 1)],
                      edges=[Edge("urn:f", "urn:d", "urn:e", "pay", "event", date="2020-01-01")])
    top_actors_chart(an.rankings(dollars), tmp_path / "d.png")
    activity_chart(an.activity(dollars), tmp_path / "a.png")
    write_charts(Network(), tmp_path)
    assert (tmp_path / "d.png").read_bytes().startswith(PNG)
    with pytest.raises(UsageError):
        write_charts(network, tmp_path / "missing")


def test_activity_chart_by_month_when_many_dates(tmp_path: Path) -> None:
    days = [an.Activity(f"2020-{m:02d}-{d:02d}", 1, 0, 1) for m in range(1, 4) for d in range(1, 21)]
    activity_chart(days, tmp_path / "a.png")
    assert (tmp_path / "a.png").read_bytes().startswith(PNG)


# --- the commands ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("store") / "store"
    st = OxigraphStore(path)
    try:
        mem = vs.build_store()
        vs.classify(mem)
        st.replace_graph(vs.BASE + "graph/all", mem.dump("nt", union=True).decode("utf-8"))
    finally:
        st.close()
    return str(path)


def test_analyze_command(store_dir: str, tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["analyze", "--store", store_dir, "--top", "3", "--graphml", str(tmp_path / "g.graphml"),
                                   "--gexf", str(tmp_path / "g.gexf"), "--charts", str(tmp_path)])
    assert res.exit_code == 0, res.output
    for heading in ("top 3 by links", "top 3 by PageRank", "top 3 by betweenness", "communities", "activity over time"):
        assert heading in res.stdout
    assert "Iron Wolves" in res.stdout and "2012-02-25" in res.stdout
    assert sorted(os.listdir(tmp_path)) == sorted(["g.gexf", "g.graphml", *CHART_FILES])


def test_analyze_prints_markup_in_labels_as_text(tmp_path: Path) -> None:
    path = tmp_path / "store"
    st = OxigraphStore(path)
    try:
        facts = vs.sample_facts()[1]
        facts.entities["moen"].label = "[bold red]Moen[/]"
        from kg.build.jobs import to_graph
        from kg.build.writer import write_article

        write_article(st, to_graph(facts, vs.MINTER))
    finally:
        st.close()
    res = CliRunner().invoke(app, ["analyze", "--store", str(path)])
    assert res.exit_code == 0, res.output
    assert "[bold red]Moen[/]" in res.stdout


def test_path_command(store_dir: str) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["path", "Idris Kamara", "Moen", "--store", store_dir])
    assert res.exit_code == 0, res.output
    assert "2 hops" in res.stdout and "spokesman of" in res.stdout
    assert "Moen condemned the Iron Wolves." in res.stdout and "condemn" in res.stdout
    apart = runner.invoke(app, ["path", "Nadia Ferrante", "Moen", "--store", store_dir])
    assert apart.exit_code == 1 and "not connected" in apart.output
    unknown = runner.invoke(app, ["path", "Nobody", "Moen", "--store", store_dir])
    assert unknown.exit_code == 2 and "no entity named" in unknown.output


@pytest.mark.parametrize(
    ("args", "nodes"),
    [
        (["--entity", "Kamara", "--hops", "1"], 2),
        (["--class", "assault"], 2),
        (["--since", "2012-01-01", "--until", "2012-12-31"], 11),
        (["--class", "verbal conflict", "--entity", "Iron Wolves", "--hops", "1"], 2),
    ],
)
def test_view_selections(store_dir: str, tmp_path: Path, args: list[str], nodes: int) -> None:
    out = tmp_path / "v.html"
    res = CliRunner().invoke(app, ["view", "-o", str(out), "--store", store_dir, *args])
    assert res.exit_code == 0, res.output
    assert f"({nodes} nodes," in res.output
    assert out.is_file() and 'data-nodes="%d"' % nodes in out.read_text("utf-8")


@pytest.mark.parametrize(
    "args",
    [["--entity", "Nobody"], ["--article", "nope"], ["--class", "fight"], ["--since", "last week"], ["--hops", "-1", "--entity", "x"]],
)
def test_view_selection_errors(store_dir: str, tmp_path: Path, args: list[str]) -> None:
    res = CliRunner().invoke(app, ["view", "-o", str(tmp_path / "v.html"), "--store", store_dir, *args])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and not (tmp_path / "v.html").exists()
