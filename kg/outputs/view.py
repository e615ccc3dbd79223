"""The network view: one self-contained HTML page that works with no network at all.

pyvis holds the nodes, edges and options (its HTML writers are not used: they load
scripts from CDNs or write ``lib/`` into the working directory, and they do not escape).
The page is rendered by kg's own Jinja2 template with autoescape on, with vis-network's
script and stylesheet (shipped inside the pyvis package) inlined. The data goes in as
JSON in a ``<script type="application/json">`` block with ``<``, ``>`` and ``&``
escaped, and the page's script puts every text in with ``textContent``. A
Content-Security-Policy allows only the page's own two scripts (by hash) and no fetches.

Every entity and fact is in the page; the page draws those that pass its filters (entity
type, article, event class, date range: the event's own date, else its article's; "unlinked entities"), and if more than
``max_nodes`` (default ``MAX_NODES`` = 1,500) pass, only the most central ones: each node
carries its ``rank`` by PageRank (``kg.outputs.analysis.pagerank``, undirected projection),
computed here. "show more" draws the next ``max_nodes``; a double-click on a node (or
"show N hidden neighbours" in its panel) adds its neighbours. Physics runs until the
layout is stable (fewer iterations for bigger drawings), then stops; it runs again
briefly when entities are added. Event edges take the colour of their CAMEO quad class
(``QUAD_COLORS``) when they have a ``kg:eventClass``; role edges are dashed.

The page's state is on ``<body>``: ``data-visible-nodes``, ``data-visible-edges``,
``data-cutoff``, ``data-drawn``, ``data-stabilized``, ``data-first-draw-ms`` (and the
performance marks ``kg-first-draw``, ``kg-stabilized``). Test hooks, also handy as deep
links (values percent-encoded, pairs joined by ``&``): ``#select-edge=<fact IRI>``,
``#select-node=<entity IRI>``, ``#search=<label>`` open the side panel as a click or a
search would; ``#types=Person,Place``, ``#article=<IRI>``, ``#class=<IRI>`` or
``#class=quad:<quad class>``, ``#since=``/``#until=`` (YYYY-MM-DD), ``#isolated=1``,
``#limit=N``, ``#expand=<entity IRI>`` set the filters. ``window.kgSelectEdge(id)``,
``kgSelectNode``, ``kgFocus``, ``kgSetFilter({...})``, ``kgShowMore()``,
``kgExpand(id)`` and ``kgState()`` do the same from script.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ..errors import KgError, UsageError
from ..files import write_atomic
from ..model.cameo import QUAD_CLASSES
from ..model.facts import ENTITY_TYPES
from .network import Edge, Network

__all__ = ["write_view", "render_view", "script_json", "TYPE_STYLES", "QUAD_COLORS", "MAX_NODES"]

#: Shape and colour of each entity type (the legend shows the four of ENTITY_TYPES).
TYPE_STYLES: dict[str, dict[str, str]] = {
    "Person": {"shape": "dot", "color": "#4e79a7"},
    "Organization": {"shape": "square", "color": "#f28e2b"},
    "Place": {"shape": "triangle", "color": "#59a14f"},
    "Group": {"shape": "diamond", "color": "#b07aa1"},
    "Entity": {"shape": "dot", "color": "#9d9d9d"},
}
EVENT_COLOR = "#555555"
ROLE_COLOR = "#8fa8c8"
HIGHLIGHT_COLOR = "#111111"
#: Colour of an event edge by the CAMEO quad class of its kg:eventClass, when it has one.
QUAD_COLORS: dict[str, str] = {
    "verbal cooperation": "#6baed6",
    "material cooperation": "#1f5fa8",
    "verbal conflict": "#f39b34",
    "material conflict": "#d62728",
}
#: Past this many entities the page first draws the most central ones (PageRank).
MAX_NODES = 1500

_TEMPLATES = Path(__file__).parent.parent / "templates"
_VIS_DIR = "lib/vis-9.1.2"
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_JSON_ESCAPE_RE = re.compile("[<>&\u2028\u2029]")


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` block: no ``<``, ``>``, ``&`` or line separators."""
    text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return _JSON_ESCAPE_RE.sub(lambda m: _JSON_ESCAPES[m.group(0)], text)


def _inline_safe(text: str, tag: str, name: str) -> str:
    """Check that an asset can sit inside ``<tag>...</tag>`` as is; drop source-map comments."""
    text = re.sub(r"^\s*(//|/\*)# sourceMappingURL=.*$", "", text, flags=re.MULTILINE)
    if re.search(rf"</{tag}|<!--", text, flags=re.IGNORECASE):
        raise KgError(f"{name} contains '</{tag}' or '<!--' and cannot be inlined; reinstall pyvis==0.3.2")
    return text


@lru_cache(maxsize=1)
def _assets() -> dict[str, str]:
    vis = resources.files("pyvis").joinpath(_VIS_DIR)
    return {
        "vis_js": _inline_safe(vis.joinpath("vis-network.min.js").read_text("utf-8"), "script", "vis-network.min.js"),
        "vis_css": _inline_safe(vis.joinpath("vis-network.css").read_text("utf-8"), "style", "vis-network.css"),
        "view_js": _inline_safe((_TEMPLATES / "view.js").read_text("utf-8"), "script", "view.js"),
        "view_css": _inline_safe((_TEMPLATES / "view.css").read_text("utf-8"), "style", "view.css"),
    }


def _csp(*scripts: str) -> str:
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode("ascii") + "'" for s in scripts
    )
    return (
        f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:; font-src data:; "
        "connect-src 'none'; base-uri 'none'; form-action 'none'"
    )


@lru_cache(maxsize=1)
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


def _node_size(degree: int) -> float:
    return round(min(11 + 6 * math.log2(1 + degree), 40), 1)


def _options(n_nodes: int, n_edges: int) -> dict[str, Any]:
    """vis-network options for a page that first draws ``n_nodes`` nodes and ``n_edges`` edges."""
    groups = {
        t: {
            "shape": s["shape"],
            "color": {"background": s["color"], "border": s["color"],
                      "highlight": {"background": s["color"], "border": "#222222"},
                      "hover": {"background": s["color"], "border": "#222222"}},
        }
        for t, s in TYPE_STYLES.items()
    }
    big = n_nodes + n_edges > 3000
    return {
        "autoResize": True,
        "groups": groups,
        "nodes": {
            "borderWidth": 1,
            "font": {"size": 17, "color": "#222222", "strokeWidth": 4, "strokeColor": "#ffffff"},
            "widthConstraint": {"maximum": 180},
            "scaling": {"label": {"drawThreshold": 4}},
        },
        "edges": {
            "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}},
            "font": {"size": 13, "color": "#444444", "strokeWidth": 3, "strokeColor": "#ffffff", "align": "horizontal"},
            "widthConstraint": {"maximum": 160},
            "width": 1.5,
            "selectionWidth": 2.5,
        },
        "layout": {"randomSeed": 7, "improvedLayout": n_nodes <= 150},
        "interaction": {"hover": True, "tooltipDelay": 150, "navigationButtons": False, "keyboard": False,
                        "hideEdgesOnDrag": big, "zoomView": True},
        "physics": _physics(n_nodes, big),
    }


def _physics(n_nodes: int, big: bool) -> dict[str, Any]:
    # forceAtlas2Based: its central gravity grows with the distance (barnesHut's does not),
    # so the many small components of a news graph (pairs, stars) pack around the centre
    # instead of drifting to a thin ring far apart; that keeps the zoom after fit, and so
    # the labels, readable on small graphs.
    return {
        "enabled": True,
        "solver": "forceAtlas2Based",
        "forceAtlas2Based": {"gravitationalConstant": -60, "centralGravity": 0.012, "springLength": 90,
                             "springConstant": 0.08, "damping": 0.5, "avoidOverlap": 0.6},
        "maxVelocity": 60,
        "minVelocity": 0.75,
        "stabilization": {"enabled": True, "iterations": _iterations(n_nodes, big),
                          "updateInterval": 50, "fit": True},
    }


def _iterations(n_nodes: int, big: bool) -> int:
    # vis-network draws nothing until the initial stabilisation ends, at about 6 ms an
    # iteration for 500 nodes and 20 ms for 1,500 in headless Chromium on two cores:
    # fewer iterations for bigger graphs keep the first draw within a few seconds
    # (benchmarks/view_bench.py); the page shows the progress meanwhile.
    if big or n_nodes > 1000:
        return 100
    if n_nodes > 400:
        return 200
    if n_nodes > 150:
        return 400
    return 1000


def _edge_color(e: Edge) -> str:
    if e.kind == "role":
        return ROLE_COLOR
    return QUAD_COLORS.get(e.quad_class, EVENT_COLOR)


def _fact(e: Edge, drawn: bool) -> dict[str, Any]:
    return {
        "id": e.id, "kind": e.kind, "source": e.source, "target": e.target, "label": e.label,
        "sentence": e.sentence, "title": e.title, "articleSource": e.article_source, "article": e.article,
        "date": e.date, "when": e.when, "first": e.first, "last": e.last, "modality": e.modality, "negated": e.negated, "former": e.former, "drawn": drawn,
        "cls": e.event_class, "clsLabel": e.event_class_label, "clsCode": e.event_class_code, "quad": e.quad_class,
    }


def _vis_edges(edges: list[Edge]) -> list[dict[str, Any]]:
    """vis-network edges; parallel edges curve apart (a reversed pair bends to opposite sides)."""
    seen: dict[tuple[str, str], int] = {}
    out = []
    for e in edges:
        key = (e.source, e.target or "")
        k = seen.get(key, 0)
        seen[key] = k + 1
        out.append({
            "id": e.id,
            "from": e.source,
            "to": e.target,
            "label": e.label,
            "dashes": e.kind == "role",
            "color": {"color": _edge_color(e), "highlight": HIGHLIGHT_COLOR, "hover": HIGHLIGHT_COLOR},
            "smooth": {"enabled": True, "type": "curvedCW", "roundness": round(0.12 + 0.18 * k, 2)},
        })
    return out


def _ranks(network: Network) -> dict[str, int]:
    """Each node's place by PageRank (0 = most central); ties by degree, label, IRI."""
    from .analysis import pagerank

    pr = pagerank(network)
    order = sorted(network.nodes, key=lambda n: (-round(pr.get(n.id, 0.0), 12), -n.degree, n.label, n.id))
    return {n.id: i for i, n in enumerate(order)}


def _articles(facts: list[Edge]) -> list[dict[str, Any]]:
    by_iri: dict[str, dict[str, Any]] = {}
    for e in facts:
        if not e.article:
            continue
        a = by_iri.setdefault(e.article, {"id": e.article, "title": e.title, "date": e.date,
                                           "source": e.article_source, "facts": 0})
        a["facts"] += 1
    return sorted(by_iri.values(), key=lambda a: (a["date"] or "9999", a["title"], a["id"]))


def _classes(facts: list[Edge]) -> list[dict[str, Any]]:
    by_iri: dict[str, dict[str, Any]] = {}
    for e in facts:
        if e.kind != "event" or not e.event_class:
            continue
        c = by_iri.setdefault(e.event_class, {"id": e.event_class, "label": e.event_class_label,
                                               "code": e.event_class_code, "quad": e.quad_class, "facts": 0})
        c["facts"] += 1
    return sorted(by_iri.values(), key=lambda c: (c["code"] or "99", c["label"], c["id"]))


def _pyvis_network(network: Network, title: str) -> Any:
    from pyvis.network import Network as PyvisNetwork  # imports IPython: keep it off import time

    net = PyvisNetwork(height="100%", width="100%", directed=True, heading=title)
    # plain list assignment: pyvis's add_node/add_edge are O(n) per call
    net.nodes = [
        {"id": n.id, "label": n.label, "group": n.type if n.type in TYPE_STYLES else "Entity",
         "size": _node_size(n.degree), "degree": n.degree, "aliases": list(n.aliases)}
        for n in network.nodes
    ]
    net.edges = _vis_edges(network.edges)
    net.options = _options(len(network.nodes), len(network.edges))
    return net


def render_view(network: Network, title: str = "kg network", max_nodes: int = MAX_NODES,
                store_entities: int | None = None) -> str:
    """The HTML text of the view (what ``write_view`` writes).

    ``store_entities``: the store's count of entities (``kg.outputs.stats.entity_counts``); the header
    then says how many of them are nodes (those in a drawn or listed fact) when that differs.

    Every node and fact is in the page; if more than ``max_nodes`` entities pass the
    page's filters it first draws the ``max_nodes`` most central (PageRank on the
    undirected projection) and offers "show more" and a neighbour expand on double-click.
    """
    if max_nodes < 1:
        raise UsageError(f"max_nodes must be at least 1, not {max_nodes}")
    net = _pyvis_network(network, title)
    nodes, edges, heading, _height, _width, _options_json = net.get_network_data()
    ranks = _ranks(network)
    for n in nodes:
        n["rank"] = ranks[n["id"]]
    all_facts = [*network.edges, *network.untargeted]
    facts = [_fact(e, True) for e in network.edges] + [_fact(e, False) for e in network.untargeted]
    facts.sort(key=lambda f: f["id"])
    linked = sum(1 for n in network.nodes if n.degree)
    first = min(max_nodes, linked or len(network.nodes))
    options = _options(first, len(network.edges) if first == len(network.nodes) else 2 * first)
    quads = sorted({e.quad_class for e in network.edges if e.quad_class}, key=QUAD_CLASSES.index)
    data = {
        "title": heading, "nodes": nodes, "edges": edges, "options": options, "facts": facts,
        "limit": max_nodes, "articles": _articles(all_facts), "classes": _classes(all_facts),
        "quadColors": {q: QUAD_COLORS[q] for q in quads},
    }
    assets = _assets()
    present = {n.type for n in network.nodes}
    legend = [{"label": t, **TYPE_STYLES[t]} for t in ENTITY_TYPES]
    if "Entity" in present:
        legend.append({"label": "other", **TYPE_STYLES["Entity"]})
    types = [{"name": t, "label": "other" if t == "Entity" else t, "color": TYPE_STYLES[t]["color"],
              "count": sum(1 for n in network.nodes if n.type == t)}
             for t in (*ENTITY_TYPES, "Entity") if t in present]
    template = _environment().get_template("view.html")
    return template.render(
        title=heading,
        csp=_csp(assets["vis_js"], assets["view_js"]),
        data_json=Markup(script_json(data)),
        vis_js=Markup(assets["vis_js"]),
        vis_css=Markup(assets["vis_css"]),
        view_js=Markup(assets["view_js"]),
        view_css=Markup(assets["view_css"]),
        legend=legend,
        quads=[{"label": q, "color": QUAD_COLORS[q]} for q in quads],
        types=types,
        event_color=EVENT_COLOR,
        role_color=ROLE_COLOR,
        node_count=len(network.nodes),
        store_entities=store_entities,
        edge_count=len(network.edges),
        fact_count=len(facts),
        limit=max_nodes,
        has_dates=any(e.date or e.first for e in all_facts),
        has_classes=bool(data["classes"]),
    )


def write_view(
    network: Network, path: str | os.PathLike[str], title: str = "kg network", max_nodes: int = MAX_NODES,
    store_entities: int | None = None,
) -> None:
    """Write the view of ``network`` to ``path`` as one self-contained HTML file.

    ``max_nodes``: how many entities the page draws at first (see ``render_view``).

    The page is written to a temporary file beside ``path`` and renamed over it, so a
    reader never sees half a page; nothing else is written.
    """
    target = Path(path)
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {target}: directory {target.parent} does not exist; create it first")
    html = render_view(network, title, max_nodes=max_nodes, store_entities=store_entities)
    write_atomic(target, html.encode("utf-8"), make_parents=False)
