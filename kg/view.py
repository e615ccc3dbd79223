"""The network view: one self-contained HTML page that works with no network at all.

pyvis holds the nodes, edges and options (its HTML writers are not used: they load
scripts from CDNs or write ``lib/`` into the working directory, and they do not escape).
The page is rendered by kg's own Jinja2 template with autoescape on, with vis-network's
script and stylesheet (shipped inside the pyvis package) inlined. The data goes in as
JSON in a ``<script type="application/json">`` block with ``<``, ``>`` and ``&``
escaped, and the page's script puts every text in with ``textContent``. A
Content-Security-Policy allows only the page's own two scripts (by hash) and no fetches.

Test hooks, also handy as deep links: ``page.html#select-edge=<fact IRI>``,
``#select-node=<entity IRI>`` and ``#search=<label>`` (values percent-encoded) open the
side panel as a click or a search would; ``window.kgSelectEdge(id)`` etc. do the same.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import re
import tempfile
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from .errors import KgError, UsageError
from .facts import ENTITY_TYPES
from .network import Edge, Network

__all__ = ["write_view", "render_view", "script_json", "TYPE_STYLES"]

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

_TEMPLATES = Path(__file__).parent / "templates"
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
    return round(min(14 + 7 * math.log2(1 + degree), 48), 1)


def _options(n_nodes: int, n_edges: int) -> dict[str, Any]:
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
            "font": {"size": 14, "color": "#222222", "strokeWidth": 3, "strokeColor": "#ffffff"},
            "widthConstraint": {"maximum": 180},
        },
        "edges": {
            "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}},
            "font": {"size": 11, "color": "#444444", "strokeWidth": 3, "strokeColor": "#ffffff", "align": "horizontal"},
            "widthConstraint": {"maximum": 160},
            "width": 1.5,
            "selectionWidth": 2,
        },
        "layout": {"randomSeed": 7, "improvedLayout": n_nodes <= 150},
        "interaction": {"hover": True, "tooltipDelay": 150, "navigationButtons": False, "keyboard": False,
                        "hideEdgesOnDrag": big},
        "physics": {
            "enabled": True,
            "solver": "barnesHut",
            "barnesHut": {"gravitationalConstant": -6000, "centralGravity": 0.25, "springLength": 140,
                          "springConstant": 0.04, "damping": 0.3, "avoidOverlap": 0.2},
            "stabilization": {"enabled": True, "iterations": 300 if big else 1000, "updateInterval": 50, "fit": True},
        },
    }


def _fact(e: Edge, drawn: bool) -> dict[str, Any]:
    return {
        "id": e.id, "kind": e.kind, "source": e.source, "target": e.target, "label": e.label,
        "sentence": e.sentence, "title": e.title, "articleSource": e.article_source, "article": e.article,
        "date": e.date, "modality": e.modality, "negated": e.negated, "former": e.former, "drawn": drawn,
    }


def _vis_edges(edges: list[Edge]) -> list[dict[str, Any]]:
    """vis-network edges; parallel edges curve apart (a reversed pair bends to opposite sides)."""
    seen: dict[tuple[str, str], int] = {}
    out = []
    for e in edges:
        key = (e.source, e.target or "")
        k = seen.get(key, 0)
        seen[key] = k + 1
        role = e.kind == "role"
        out.append({
            "id": e.id,
            "from": e.source,
            "to": e.target,
            "label": e.label,
            "dashes": role,
            "color": {"color": ROLE_COLOR if role else EVENT_COLOR, "highlight": "#d62728", "hover": "#d62728"},
            "smooth": {"enabled": True, "type": "curvedCW", "roundness": round(0.12 + 0.18 * k, 2)},
        })
    return out


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


def render_view(network: Network, title: str = "kg network") -> str:
    """The HTML text of the view (what ``write_view`` writes)."""
    net = _pyvis_network(network, title)
    nodes, edges, heading, _height, _width, options_json = net.get_network_data()
    facts = [_fact(e, True) for e in network.edges] + [_fact(e, False) for e in network.untargeted]
    facts.sort(key=lambda f: f["id"])
    data = {"title": heading, "nodes": nodes, "edges": edges, "options": json.loads(options_json), "facts": facts}
    assets = _assets()
    present = {n.type for n in network.nodes}
    legend = [{"label": t, **TYPE_STYLES[t]} for t in ENTITY_TYPES]
    if "Entity" in present:
        legend.append({"label": "other", **TYPE_STYLES["Entity"]})
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
        event_color=EVENT_COLOR,
        role_color=ROLE_COLOR,
        node_count=len(network.nodes),
        edge_count=len(network.edges),
        fact_count=len(facts),
    )


def write_view(network: Network, path: str | os.PathLike[str], title: str = "kg network") -> None:
    """Write the view of ``network`` to ``path`` as one self-contained HTML file.

    The page is written to a temporary file beside ``path`` and renamed over it, so a
    reader never sees half a page; nothing else is written.
    """
    target = Path(path)
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {target}: directory {target.parent} does not exist; create it first")
    html = render_view(network, title)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(html)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(err, OSError):
            raise KgError(f"cannot write {target}: {err.strerror or err}") from err
        raise
