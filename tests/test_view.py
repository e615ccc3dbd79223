"""The HTML view (kg.outputs.view): self-contained, escaped, atomic. No browser here (see test_view_browser.py)."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import viewsamples as vs

from kg.errors import KgError, UsageError
from kg.outputs.network import Network, load_network
from kg.outputs.view import EVENT_COLOR, MAX_NODES, QUAD_COLORS, ROLE_COLOR, render_view, script_json, write_view

HOSTILE_TITLE = f"{vs.SCRIPT} {vs.HREF_TITLE}"


class _Page(HTMLParser):
    """Every start tag with its attributes, and the text of each <script> and <style>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.styles: list[str] = []
        self.text: dict[str, str] = {}
        self._open: str | None = None
        self._buf: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "style", "title", "h1"):
            self._open, self._buf = tag, []

    def handle_data(self, data: str) -> None:
        if self._open:
            self._buf.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == self._open:
            text = "".join(self._buf)
            if tag == "script":
                self.scripts.append((self.tags[-1][1] if self.tags[-1][0] == "script" else {}, text))
            elif tag == "style":
                self.styles.append(text)
            else:
                self.text[tag] = text
            self._open = None


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    return page


@pytest.fixture(scope="module")
def network() -> Network:
    return load_network(vs.build_store())


@pytest.fixture(scope="module")
def html(network: Network) -> str:
    return render_view(network, title=HOSTILE_TITLE)


def _data(html: str) -> dict:
    page = _parse(html)
    blocks = [text for attrs, text in page.scripts if attrs.get("id") == "kg-data"]
    assert len(blocks) == 1
    return json.loads(blocks[0])


def test_no_remote_or_external_resources(html: str) -> None:
    page = _parse(html)
    assert "<script src" not in html.lower()
    for tag, attrs in page.tags:
        assert tag not in ("link", "iframe", "img", "object", "embed", "base"), tag
        if tag == "script":
            assert "src" not in attrs
        for name, value in attrs.items():
            if name in ("src", "href", "action", "srcset", "poster", "data"):
                pytest.fail(f"<{tag} {name}={value!r}>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.IGNORECASE)
    assert "sourceMappingURL" not in html
    assert not re.search(r"@import|url\(\s*['\"]?(https?:|//)", "".join(page.styles), re.IGNORECASE)


def test_scripts_are_the_data_block_vis_and_the_view(html: str) -> None:
    page = _parse(html)
    kinds = [attrs.get("type") for attrs, _ in page.scripts]
    assert kinds == ["application/json", None, None]
    assert "vis-network" in page.scripts[1][1] and "kg-data" in page.scripts[2][1]


def test_content_security_policy_allows_exactly_the_page_scripts(html: str) -> None:
    page = _parse(html)
    csp = next(a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert csp is not None and "default-src 'none'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    for _attrs, text in page.scripts[1:]:
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        assert f"'sha256-{digest}'" in csp


@pytest.mark.parametrize(
    "needle",
    ["<script>window.__pwned", "<img src=x", "<img", 'href="javascript:', "<a href", 'onerror="window'],
)
def test_hostile_text_never_appears_as_markup(html: str, needle: str) -> None:
    # the data block escapes < > & as \u003c \u003e \u0026, the visible text is HTML-escaped:
    # so none of these appear anywhere in the raw page, not even inside the data
    assert needle not in html


def test_hostile_text_survives_as_data(html: str, network: Network) -> None:
    data = _data(html)
    labels = {n["label"] for n in data["nodes"]}
    assert vs.IMG in labels and vs.SCRIPT in labels
    sentences = {f["sentence"] for f in data["facts"]}
    assert vs.HOSTILE_SENTENCE in sentences
    assert {f["title"] for f in data["facts"]} >= {vs.HREF_TITLE}
    assert {f["articleSource"] for f in data["facts"]} >= {vs.JS_URL, f"seeds/{vs.IMG}.txt"}
    raw = next(text for attrs, text in _parse(html).scripts if attrs.get("id") == "kg-data")
    assert not set(raw) & set("<>&\u2028\u2029")


def test_title_and_heading_escaped(html: str) -> None:
    page = _parse(html)
    assert page.text["title"] == HOSTILE_TITLE
    assert page.text["h1"] == HOSTILE_TITLE
    assert "<title>&lt;script&gt;window.__pwned" in html


def test_data_matches_network(html: str, network: Network) -> None:
    data = _data(html)
    assert [n["id"] for n in data["nodes"]] == [n.id for n in network.nodes]
    assert [e["id"] for e in data["edges"]] == [e.id for e in network.edges]
    groups = {n["id"]: n["group"] for n in data["nodes"]}
    assert groups[vs.MOEN] == "Person" and groups[vs.GUNMAN] == "Group" and groups[vs.WOLVES] == "Organization"
    sizes = {n["id"]: n["size"] for n in data["nodes"]}
    assert sizes[vs.WOLVES] > sizes[vs.MOEN]  # degree 2 > degree 1
    dashes = {e["label"]: e["dashes"] for e in data["edges"]}
    assert dashes["spokesman"] is True and dashes["kill"] is False
    assert {e["label"] for e in data["edges"]} >= {"kill", "condemn", "visit", "meet"}
    # the target-less call is a fact (of Moen) but not an edge
    call = [f for f in data["facts"] if f["label"] == "call"]
    assert call and call[0]["target"] is None and call[0]["source"] == vs.MOEN and not call[0]["drawn"]
    assert "call" not in {e["label"] for e in data["edges"]}
    physics = data["options"]["physics"]
    assert physics["solver"] in ("barnesHut", "forceAtlas2Based") and physics["stabilization"]["enabled"]


def test_legend_lists_the_four_types(html: str) -> None:
    legend = html[html.index('id="kg-legend"') : html.index("</aside>", html.index('id="kg-legend"'))]
    for t in ("Person", "Organization", "Place", "Group", "role"):
        assert t in legend


def test_render_is_deterministic(network: Network) -> None:
    assert render_view(network, "t") == render_view(load_network(vs.build_store(list(reversed(vs.sample_facts())))), "t")


def test_empty_network(tmp_path: Path) -> None:
    out = tmp_path / "empty.html"
    write_view(Network(), out)
    html = out.read_text("utf-8")
    assert "no facts yet" in html
    data = _data(html)
    assert data["nodes"] == [] and data["edges"] == [] and data["facts"] == []


def test_write_is_atomic_and_writes_nothing_else(tmp_path: Path, network: Network, monkeypatch: pytest.MonkeyPatch) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    monkeypatch.chdir(cwd)
    out = out_dir / "graph.html"
    write_view(network, out, title="first")
    assert sorted(os.listdir(out_dir)) == ["graph.html"]
    assert os.listdir(cwd) == []  # no lib/, no temp file in the working directory
    assert "<title>first</title>" in out.read_text("utf-8")
    write_view(network, out, title="second")  # replaces
    assert sorted(os.listdir(out_dir)) == ["graph.html"]
    assert "<title>second</title>" in out.read_text("utf-8")
    assert out.stat().st_mode & 0o777 == 0o644


def test_failed_write_leaves_old_file_and_no_temp(tmp_path: Path, network: Network, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "graph.html"
    out.write_text("old", "utf-8")

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KgError, match="cannot write"):
        write_view(network, out)
    assert out.read_text("utf-8") == "old"
    assert sorted(os.listdir(tmp_path)) == ["graph.html"]


def test_missing_directory_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        write_view(Network(), tmp_path / "nope" / "graph.html")
    assert os.listdir(tmp_path) == []


def test_script_json_escapes() -> None:
    text = script_json({"a": "</script><!-- & \u2028\u2029 é"})
    assert not set(text) & set("<>&\u2028\u2029") and text.isascii()
    assert json.loads(text) == {"a": "</script><!-- & \u2028\u2029 é"}


# --- filters, classes, the cut-off ------------------------------------------------------


def test_ranks_are_by_pagerank(html: str, network: Network) -> None:
    data = _data(html)
    ranks = {n["id"]: n["rank"] for n in data["nodes"]}
    assert sorted(ranks.values()) == list(range(len(network.nodes)))
    from kg.outputs.analysis import pagerank

    pr = pagerank(network)
    order = sorted(ranks, key=ranks.get)
    assert len(order) > 1 and all(pr[a] >= pr[b] - 1e-12 for a, b in zip(order, order[1:]))
    assert data["limit"] == MAX_NODES


def test_filter_controls_and_their_data(html: str, network: Network) -> None:
    page = _parse(html)
    boxes = [a["value"] for t, a in page.tags if t == "input" and a.get("name") == "type"]
    assert boxes == ["Person", "Organization", "Group"]  # the types present, in legend order
    data = _data(html)
    arts = {a["id"]: a for a in data["articles"]}
    assert set(arts) == {vs.MINTER.article("bergen-shooting"), vs.MINTER.article("moen-condemns")}
    assert arts[vs.MINTER.article("bergen-shooting")]["date"] == "2012-02-25"
    assert data["classes"] == [] and data["quadColors"] == {}
    assert re.search(r'<label hidden>class <select id="kg-filter-class">', html)  # no classes: no class filter
    assert '<span id="kg-filter-dates">' in html  # one article has a date


def test_event_classes_colour_edges_and_fill_the_class_filter() -> None:
    store = vs.build_store()
    vs.classify(store)
    net = load_network(store)
    html = render_view(net)
    data = _data(html)
    colours = {e["label"]: e["color"]["color"] for e in data["edges"]}
    assert colours["kill"] == QUAD_COLORS["material conflict"] and colours["condemn"] == QUAD_COLORS["verbal conflict"]
    assert colours["visit"] == EVENT_COLOR and colours["spokesman"] == ROLE_COLOR
    assert [(c["code"], c["label"], c["quad"], c["facts"]) for c in data["classes"]] == [
        ("11", vs.HOSTILE_CLASS, "verbal conflict", 1), ("18", "assault", "material conflict", 1)]
    kill = next(f for f in data["facts"] if f["label"] == "kill")
    assert (kill["cls"], kill["clsCode"], kill["quad"]) == (f"{vs.CAMEO}18", "18", "material conflict")
    legend = html[html.index('id="kg-legend"') : html.index("</aside>", html.index('id="kg-legend"'))]
    assert "material conflict" in legend and "verbal conflict" in legend and "material cooperation" not in legend
    assert '<label>class <select id="kg-filter-class">' in html


def test_big_network_keeps_every_node_and_cuts_in_the_page() -> None:
    net = vs.synthetic_network(3000)
    data = _data(render_view(net, max_nodes=500))
    assert len(data["nodes"]) == 3000 and len(data["facts"]) == len(net.edges)
    assert data["limit"] == 500
    physics = data["options"]["physics"]
    assert physics["stabilization"]["iterations"] <= 200 and data["options"]["layout"]["improvedLayout"] is False
    with pytest.raises(UsageError):
        render_view(net, max_nodes=0)
