"""The view in a real browser: headless Debian chromium with networking off.

How "the payloads never ran" is checked, without injecting anything into the page: the
hostile sample text (see viewsamples.py) is markup that, if the page ever parsed it as
HTML, would create an ``<img onerror=...>`` or a ``<script>`` element, and that, if it
ever ran, would set ``data-pwned`` on ``<html>`` (besides ``window.__pwned``). The page
is opened with a deep link that renders the hostile fact into the side panel, and
``--dump-dom`` prints the live DOM after the page's scripts ran. The test then asserts,
structurally, that no element the payloads would create exists (no ``<img>``, exactly the
page's own three ``<script>`` elements, no ``javascript:`` link) and, behaviourally, that
no ``data-pwned`` attribute was set. The structural check is the one that matters: the
page's Content-Security-Policy would also stop an injected handler from running, so the
behavioural check alone could hide an escaping bug. The hostile text must instead show
up in the panel as text.

``--dump-dom`` cannot click, so the dump tests use the page's deep links
(``#select-edge=<IRI>``, ``#select-node=<IRI>``, ``#search=<label>``), which call the same
functions as the click and search handlers. ``test_real_clicks_over_devtools`` also clicks
the canvas for real, over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
NUL-separated JSON on fds 3 and 4, so no websocket library and no TCP port), and checks
that the page logs no error and no CSP violation.

Without chromium these tests skip, or fail when the CI environment variable is set.
"""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import pytest
import viewsamples as vs

from kg.outputs.network import Network, load_network
from kg.outputs.view import MAX_NODES, QUAD_COLORS, _ranks, write_view

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--proxy-server=127.0.0.1:9",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--window-size=1200,800",
]


#: The same, with the loopback address reachable (for pages a local kg serve serves).
LOOPBACK_FLAGS = [f if not f.startswith("--host-resolver-rules=") else "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
                  for f in CHROMIUM_FLAGS]


@pytest.fixture(scope="module")
def network() -> Network:
    return load_network(vs.build_store())


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory, network: Network) -> Path:
    out = tmp_path_factory.mktemp("view") / "graph.html"
    write_view(network, out, title=f"sample {vs.SCRIPT}")
    return out


def _dump_dom(chromium: str, url: str, tmp_path: Path) -> str:
    profile = tmp_path / f"profile-{time.monotonic_ns()}"
    profile.mkdir()
    proc = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=10000", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "<body" in proc.stdout, proc.stderr[-2000:]
    return proc.stdout


def _url(path: Path, fragment: str = "") -> str:
    return path.resolve().as_uri() + fragment


class _Dom(HTMLParser):
    """Elements of a dumped DOM (tag, attributes) and the text under a chosen id."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "source", "wbr", "area", "base", "col", "embed", "track"}

    def __init__(self, text_of: str = "") -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text_of = text_of
        self.depth = 0  # >0 while inside the element whose text is collected
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag in self.VOID:
            return
        if self.depth:
            self.depth += 1
        elif self.text_of and a.get("id") == self.text_of:
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag not in self.VOID:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)

    def attrs_of(self, tag: str) -> dict[str, str | None]:
        return next(a for t, a in self.elements if t == tag)


def _parse(dom: str, text_of: str = "") -> _Dom:
    d = _Dom(text_of)
    d.feed(dom)
    d.close()
    return d


def _assert_not_pwned(d: _Dom) -> None:
    tags = [t for t, _ in d.elements]
    assert "img" not in tags, "a payload became an <img> element"
    scripts = [a for t, a in d.elements if t == "script"]
    assert len(scripts) == 3, f"expected the page's 3 scripts, found {len(scripts)}"
    assert [a.get("type") for a in scripts] == ["application/json", None, None]
    for t, a in d.elements:
        for name, value in a.items():
            assert not name.startswith("on"), f"<{t} {name}=...> in the live DOM"
            assert not (value or "").strip().lower().startswith("javascript:"), f"<{t} {name}={value!r}>"
    assert "data-pwned" not in d.attrs_of("html")


def test_draws_offline_and_payloads_never_run(chromium: str, page: Path, network: Network, tmp_path: Path) -> None:
    dom = _dump_dom(chromium, _url(page), tmp_path)
    d = _parse(dom)
    body = d.attrs_of("body")
    assert body.get("data-drawn") == str(len(network.nodes)), body
    assert body.get("data-stabilized") == "true"
    assert len(network.nodes) > 0
    _assert_not_pwned(d)
    assert any(t == "canvas" for t, _ in d.elements)


def test_edge_panel_shows_sentence_title_and_source(chromium: str, page: Path, network: Network, tmp_path: Path) -> None:
    meet = next(e for e in network.edges if e.label == "meet")
    dom = _dump_dom(chromium, _url(page, "#select-edge=" + quote(meet.id, safe="")), tmp_path)
    d = _parse(dom, text_of="kg-panel-body")
    panel = "".join(d.text)
    assert vs.HOSTILE_SENTENCE in panel  # the hostile markup, shown as text
    assert meet.title in panel
    assert f"seeds/{vs.IMG}.txt" in panel
    assert "hidden" not in next(a for t, a in d.elements if a.get("id") == "kg-panel")
    _assert_not_pwned(d)


def test_javascript_source_is_text_not_a_link(chromium: str, page: Path, network: Network, tmp_path: Path) -> None:
    condemn = next(e for e in network.edges if e.label == "condemn")
    dom = _dump_dom(chromium, _url(page, "#select-edge=" + quote(condemn.id, safe="")), tmp_path)
    d = _parse(dom, text_of="kg-panel-body")
    panel = "".join(d.text)
    assert "Moen condemned the Iron Wolves." in panel
    assert vs.HREF_TITLE in panel and vs.JS_URL in panel
    assert not any(t == "a" for t, _ in d.elements)
    _assert_not_pwned(d)


def test_node_panel_lists_facts_including_targetless(chromium: str, page: Path, tmp_path: Path) -> None:
    dom = _dump_dom(chromium, _url(page, "#select-node=" + quote(vs.MOEN, safe="")), tmp_path)
    panel = "".join(_parse(dom, text_of="kg-panel-body").text)
    assert "Halvard Moen" in panel
    assert vs.CALL_SENTENCE in panel  # target-less event: a fact of its actor, not an edge
    assert "Moen condemned the Iron Wolves." in panel


def test_hostile_node_panel(chromium: str, page: Path, tmp_path: Path) -> None:
    dom = _dump_dom(chromium, _url(page, "#select-node=" + quote(vs.EVIL, safe="")), tmp_path)
    d = _parse(dom, text_of="kg-panel-body")
    panel = "".join(d.text)
    assert vs.IMG in panel and f"chief {vs.SCRIPT}" in panel and vs.HOSTILE_SENTENCE in panel
    _assert_not_pwned(d)


def test_search_focuses_a_node_by_label(chromium: str, page: Path, tmp_path: Path) -> None:
    dom = _dump_dom(chromium, _url(page, "#search=" + quote("ibárra", safe="")), tmp_path)  # an alias, any case
    panel = "".join(_parse(dom, text_of="kg-panel-body").text)
    assert "Tomas Ibarra" in panel and "Ibarra visited the ministry." in panel


def test_empty_network_page(chromium: str, tmp_path: Path) -> None:
    out = tmp_path / "empty.html"
    write_view(Network(), out)
    dom = _dump_dom(chromium, _url(out), tmp_path)
    d = _parse(dom, text_of="kg-empty")
    assert d.attrs_of("body").get("data-drawn") == "0"
    assert "no facts yet" in "".join(d.text)


# --- real clicks over the DevTools protocol (on a pipe) -------------------------------


class _Cdp:
    """A minimal DevTools client over --remote-debugging-pipe (fd 3: commands, fd 4: replies)."""

    def __init__(self, chromium: str, profile: Path) -> None:
        cmd_r, self._cmd_w = os.pipe()
        self._out_r, out_w = os.pipe()

        def fds() -> None:  # runs in the child before exec
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)

        self.proc = subprocess.Popen(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds,
            pass_fds=(3, 4),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(cmd_r)
        os.close(out_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            ready, _, _ = select.select([self._out_r], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._out_r, 1 << 16)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if self.session and not method.startswith(("Target.", "Browser.")):
            msg["sessionId"] = self.session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def js(self, expression: str, wait: bool = False) -> Any:
        """The value of ``expression`` in the page (``wait``: of the promise it gives)."""
        res = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": wait})
        if "exceptionDetails" in res:
            raise RuntimeError(res["exceptionDetails"])
        return res["result"].get("value")

    def problems(self) -> list[dict[str, Any]]:
        """Exceptions, and errors or warnings the page logged, since the events were last cleared."""
        return [
            e["params"]
            for e in self.events
            if e.get("method") == "Runtime.exceptionThrown"
            or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] in ("error", "warning"))
            or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "warning", "assert"))
        ]

    def wait_for(self, expression: str, timeout: float = 30) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(expression)

    def click(self, x: float, y: float) -> None:
        self.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except (OSError, TimeoutError, EOFError, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_w, self._out_r):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def cdp(chromium: str, tmp_path: Path) -> Iterator[_Cdp]:
    if sys.platform == "win32":
        pytest.skip("--remote-debugging-pipe needs POSIX file descriptors")
    profile = tmp_path / "cdp-profile"
    profile.mkdir()
    client = _Cdp(chromium, profile)
    try:
        targets = client.call("Target.getTargets")["targetInfos"]
        page_target = next(t for t in targets if t["type"] == "page")
        client.session = client.call("Target.attachToTarget", {"targetId": page_target["targetId"], "flatten": True})[
            "sessionId"
        ]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            client.call(domain)
        yield client
    finally:
        client.close()


_NODE_XY = """(id => { const p = kgNetwork.canvasToDOM(kgNetwork.getPositions([id])[id]);
  const r = document.getElementById('kg-network').getBoundingClientRect(); return [p.x + r.left, p.y + r.top]; })"""
# the point halfway along the (curved) edge, where vis-network also puts its label
_EDGE_XY = """(id => { const p = kgNetwork.canvasToDOM(kgNetwork.body.edges[id].edgeType.getPoint(0.5));
  const r = document.getElementById('kg-network').getBoundingClientRect(); return [p.x + r.left, p.y + r.top]; })"""
_PANEL = "document.getElementById('kg-panel').hidden ? '' : document.getElementById('kg-panel-body').textContent"


def test_real_clicks_over_devtools(cdp: _Cdp, page: Path, network: Network) -> None:
    cdp.call("Page.navigate", {"url": _url(page)})
    cdp.wait_for("document.body && document.body.dataset.stabilized === 'true'")
    assert cdp.js("document.body.dataset.drawn") == str(len(network.nodes))

    # click the hostile "meet" edge on the canvas
    meet = next(e for e in network.edges if e.label == "meet")
    x, y = cdp.js(f"{_EDGE_XY}({json.dumps(meet.id)})")
    assert cdp.js(f"document.elementFromPoint({x}, {y}).tagName") == "CANVAS"
    cdp.click(x, y)
    panel = cdp.wait_for(_PANEL, timeout=10)
    assert vs.HOSTILE_SENTENCE in panel and meet.title in panel

    # close the panel (it covers part of the canvas), then click Moen's node
    cdp.js("document.getElementById('kg-panel-close').click()")
    x, y = cdp.js(f"{_NODE_XY}({json.dumps(vs.MOEN)})")
    assert cdp.js(f"document.elementFromPoint({x}, {y}).tagName") == "CANVAS"
    cdp.click(x, y)
    panel = cdp.wait_for(_PANEL, timeout=10)
    assert "Halvard Moen" in panel and vs.CALL_SENTENCE in panel

    # hover the hostile node: vis-network's tooltip holds our DOM element, its text is the label
    cdp.js("document.getElementById('kg-panel-close').click()")
    x, y = cdp.js(f"{_NODE_XY}({json.dumps(vs.EVIL)})")
    cdp.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + 1, "y": y + 1})
    tip = cdp.wait_for(
        "(t => t && t.style.visibility === 'visible' && [t.textContent, t.querySelectorAll('*').length,"
        " t.querySelectorAll('img,script,a').length])(document.querySelector('.vis-tooltip'))",
        timeout=10,
    )
    assert tip[0].startswith(vs.IMG) and tip[2] == 0

    assert cdp.js("typeof window.__pwned") == "undefined"
    assert cdp.js("document.documentElement.hasAttribute('data-pwned')") is False
    assert cdp.js("document.querySelectorAll('img').length") == 0
    problems = cdp.problems()
    assert problems == [], problems


# --- filters, the top-N cut-off and neighbour expansion ------------------------------


def _groups_visible(cdp: _Cdp) -> list[str]:
    return cdp.js("kgState().visibleNodes.map(id => kgNetwork.body.data.nodes.get(id).group).sort()")


def test_type_filter_by_deep_link(chromium: str, page: Path, network: Network, tmp_path: Path) -> None:
    dom = _dump_dom(chromium, _url(page, "#types=Person,Organization"), tmp_path)
    body = _parse(dom).attrs_of("body")
    # the two Groups go, and with them the only link of each; nobody else loses every link
    expected = [n for n in network.nodes if n.type != "Group"]
    assert body.get("data-visible-nodes") == str(len(expected)) == body.get("data-drawn"), body
    assert body.get("data-cutoff") == "false"


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Network]:
    store = vs.build_store()
    vs.classify(store)
    net = load_network(store)
    out = tmp_path_factory.mktemp("classified") / "graph.html"
    write_view(net, out, title="classified")
    return out, net


def _change(cdp: _Cdp, selector: str, value: str | bool) -> None:
    prop = "checked" if isinstance(value, bool) else "value"
    cdp.js(f"(e => {{ e.{prop} = {json.dumps(value)}; e.dispatchEvent(new Event('change', {{bubbles: true}})); }})"
           f"(document.querySelector({json.dumps(selector)}))")


def test_filters_through_the_controls(cdp: _Cdp, classified: tuple[Path, Network]) -> None:
    page, net = classified
    cdp.call("Page.navigate", {"url": _url(page)})
    cdp.wait_for("document.body && document.body.dataset.stabilized === 'true'")
    everyone = len(net.nodes)
    assert cdp.js("document.body.dataset.visibleNodes") == str(everyone)

    # entity type: a real click on the Group checkbox
    cdp.js("document.querySelector('#kg-filter-types input[value=Group]').click()")
    assert "Group" not in _groups_visible(cdp)
    assert cdp.js("document.body.dataset.visibleNodes") == str(everyone - 2)
    assert cdp.js("kgNetwork.body.data.nodes.length") == everyone - 2
    cdp.js("document.querySelector('#kg-filter-types input[value=Group]').click()")
    assert cdp.js("document.body.dataset.visibleNodes") == str(everyone)

    # event class: a CAMEO quad class, and the event edge's colour says which
    kill = next(e for e in net.edges if e.label == "kill")
    assert cdp.js(f"kgNetwork.body.data.edges.get({json.dumps(kill.id)}).color.color") == QUAD_COLORS["material conflict"]
    options = cdp.js("Array.from(document.querySelectorAll('#kg-filter-class option')).map(o => o.value)")
    assert options == ["", "quad:material conflict", "quad:verbal conflict", f"{vs.CAMEO}11", f"{vs.CAMEO}18"]
    _change(cdp, "#kg-filter-class", "quad:material conflict")
    assert cdp.js("kgState().visibleNodes") == sorted([vs.GUNMAN, vs.GUARDS])
    _change(cdp, "#kg-filter-class", f"{vs.CAMEO}11")
    assert cdp.js("kgState().visibleNodes") == sorted([vs.MOEN, vs.WOLVES])
    labels = cdp.js("Array.from(document.querySelectorAll('#kg-filter-class option')).map(o => o.textContent)")
    assert any(vs.HOSTILE_CLASS in t for t in labels)  # a payload in a class label: an option's text
    assert cdp.js(f"kgSelectEdge({json.dumps(next(e.id for e in net.edges if e.label == 'condemn'))})") is True
    assert vs.HOSTILE_CLASS in cdp.js(_PANEL)
    _change(cdp, "#kg-filter-class", "")

    # article (the hostile title is an option's text)
    titles = cdp.js("Array.from(document.querySelectorAll('#kg-filter-article option')).map(o => o.textContent)")
    assert vs.HREF_TITLE in titles
    _change(cdp, "#kg-filter-article", vs.MINTER.article("moen-condemns"))
    assert cdp.js("kgState().visibleNodes") == sorted([vs.MOEN, vs.WOLVES, vs.IBARRA, vs.MINISTRY])
    _change(cdp, "#kg-filter-article", "")

    # date range: Moen's only fact that day has no target, so he is hidden unless asked for
    _change(cdp, "#kg-filter-since", "2012-02-25")
    _change(cdp, "#kg-filter-until", "2012-02-25")
    assert cdp.js("document.body.dataset.visibleNodes") == str(everyone - 1)
    assert "1 without links hidden" in cdp.js("document.getElementById('kg-status').textContent")
    _change(cdp, "#kg-filter-isolated", True)
    assert cdp.js("document.body.dataset.visibleNodes") == str(everyone)
    _change(cdp, "#kg-filter-since", "2012-02-26")
    assert cdp.js("document.body.dataset.visibleNodes") == "0"
    assert "none pass the filters" in cdp.js("document.getElementById('kg-status').textContent")

    cdp.js("document.getElementById('kg-filter-reset').click()")
    assert cdp.js("document.body.dataset.visibleNodes") == str(everyone)
    assert cdp.js("document.getElementById('kg-filter-since').value") == ""
    # the edge panel names the class
    assert cdp.js(f"kgSelectEdge({json.dumps(kill.id)})") is True
    assert "18 assault (material conflict)" in cdp.js(_PANEL)
    assert cdp.js("typeof window.__pwned") == "undefined" and cdp.js("document.querySelectorAll('img').length") == 0
    _assert_no_console_problems(cdp)


def _assert_no_console_problems(cdp: _Cdp) -> None:
    problems = cdp.problems()
    assert problems == [], problems


def test_double_click_expands_a_cut_off_graph(cdp: _Cdp, network: Network, tmp_path: Path) -> None:
    out = tmp_path / "cut.html"
    write_view(network, out, max_nodes=3)
    cdp.call("Page.navigate", {"url": _url(out)})
    cdp.wait_for("document.body && document.body.dataset.stabilized === 'true'")
    state = cdp.js("kgState()")
    assert state["cutoff"] is True and len(state["visibleNodes"]) == 3
    assert cdp.js("document.getElementById('kg-more').hidden") is False
    # a visible node with a hidden neighbour; double-click it for real
    visible = set(state["visibleNodes"])
    node = next(n for n in sorted(visible) if any(
        {e.source, e.target} - visible for e in network.edges if n in (e.source, e.target)))
    hidden = {e.target if e.source == node else e.source for e in network.edges if node in (e.source, e.target)} - visible
    x, y = cdp.js(f"{_NODE_XY}({json.dumps(node)})")
    cdp.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    for count in (1, 2):
        for kind in ("mousePressed", "mouseReleased"):
            cdp.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": count})
    cdp.wait_for(f"kgState().visibleNodes.length === {3 + len(hidden)}", timeout=10)
    assert set(cdp.js("kgState().visibleNodes")) == visible | hidden
    cdp.wait_for("document.body.dataset.stabilized === 'true'", timeout=20)
    # "show more" until nothing is cut off; then the button goes
    for _ in range(len(network.nodes)):
        if cdp.js("document.body.dataset.cutoff") == "false":
            break
        cdp.js("document.getElementById('kg-more').click()")
        cdp.wait_for("document.body.dataset.stabilized === 'true'", timeout=20)
    assert cdp.js("document.body.dataset.visibleNodes") == str(len(network.nodes))
    assert cdp.js("document.getElementById('kg-more').hidden") is True
    _assert_no_console_problems(cdp)


def test_top_n_cut_off_on_3000_nodes(cdp: _Cdp, tmp_path: Path) -> None:
    net = vs.synthetic_network(3000, seed=3)
    out = tmp_path / "big.html"
    write_view(net, out)  # default cut-off: MAX_NODES
    ranks = _ranks(net)
    top = sorted(n.id for n in net.nodes if ranks[n.id] < MAX_NODES)
    cdp.call("Page.navigate", {"url": _url(out)})
    cdp.wait_for("document.body && document.body.dataset.stabilized === 'true'", timeout=60)
    assert cdp.js("document.body.dataset.cutoff") == "true"
    assert cdp.js("document.body.dataset.visibleNodes") == str(MAX_NODES) == cdp.js("document.body.dataset.drawn")
    assert cdp.js("kgState().visibleNodes") == top  # the most central by PageRank
    assert cdp.js("performance.getEntriesByName('kg-first-draw').length") == 1
    assert "the most central of 3000" in cdp.js("document.getElementById('kg-status').textContent")
    # expand one node's neighbours on a tighter cut
    assert len(cdp.js("kgSetFilter({limit: 20}).visibleNodes")) == 20
    visible = set(cdp.js("kgState().visibleNodes"))
    hub = min(visible, key=lambda i: ranks[i])
    around = {e.target if e.source == hub else e.source for e in net.edges if hub in (e.source, e.target)}
    assert cdp.js(f"kgExpand({json.dumps(hub)})") == len(around - visible)
    assert set(cdp.js("kgState().visibleNodes")) == visible | around
    cdp.wait_for("document.body.dataset.stabilized === 'true'", timeout=30)  # changes wait for the layout
    # "show more" (a real click on the button): the next MAX_NODES most central come in
    cdp.js("document.getElementById('kg-more').click()")
    more = {n.id for n in net.nodes if ranks[n.id] < 20 + MAX_NODES} | visible | around
    cdp.wait_for(f"document.body.dataset.visibleNodes === '{len(more)}'", timeout=30)
    assert set(cdp.js("kgState().visibleNodes")) == more
    _assert_no_console_problems(cdp)
