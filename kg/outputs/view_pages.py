"""What the article and entity pages share: reading rows through a caller's ``select``, the page
template environment, the entity-type stylesheet (the view's legend colours), display-safe text,
and the two ways a page ships its assets (linked from ``kg serve``, or inlined in one file with a
Content-Security-Policy of hashes).

No text from the store ever becomes markup: templates autoescape, data blocks go through
``script_json``, and text is also shown with C0/C1 control characters made visible (U+FFFD) and
every string from the data inside ``<bdi>`` (or an element that isolates it), so that bidi controls
in a name or title cannot reorder the page around it.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from ..errors import UsageError
from ..model.facts import ENTITY_TYPES
from ..model.vocab import KG_NS, PREFIXES
from .view import TYPE_STYLES

Row = dict[str, str | None]
#: Runs several SELECT queries, returns their rows in order (a store's ``select`` per query, or one
#: request to ``kg serve``'s workers).
SelectMany = Callable[[list[str]], list[list[Row]]]

TEMPLATES = Path(__file__).parent.parent / "templates"

_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def shown(text: object) -> str:
    """``text`` as a page shows it: control characters (but tab and line breaks) as U+FFFD."""
    return _CONTROLS.sub("\ufffd", "" if text is None else str(text))


def bdi(text: object) -> Markup:
    """Escaped, display-safe ``text`` in a ``<bdi>``: its bidi controls end where it ends."""
    return Markup("<bdi>") + escape(shown(text)) + Markup("</bdi>")


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
                      keep_trailing_newline=True)
    env.filters["shown"] = shown
    env.filters["bdi"] = bdi
    return env


def iri_term(iri: str) -> str:
    """``<iri>`` for SPARQL text, or ``UsageError`` if ``iri`` is not an absolute IRI."""
    import pyoxigraph as ox

    try:
        return str(ox.NamedNode(iri))
    except ValueError:
        raise UsageError(f"{iri!r} is not an IRI") from None


def local_name(iri: str | None) -> str:
    """The last segment of an IRI (kg's own terms without their namespace)."""
    if not iri:
        return ""
    if iri.startswith(KG_NS):
        return iri[len(KG_NS):]
    return iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1] or iri


def merge(rows: list[Row], key: str) -> dict[str, dict[str, str | None]]:
    """One dict per ``key`` value, in first-seen order; of several values of a column, the shortest (then smallest)."""
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        if r.get(key):
            groups[r[key]].append(r)  # type: ignore[index]
    out = {}
    for k, group in groups.items():
        merged: dict[str, str | None] = {}
        for col in group[0]:
            values = sorted({v for r in group if (v := r.get(col)) is not None}, key=lambda s: (len(s), s))
            merged[col] = values[0] if values else None
        out[k] = merged
    return out


def values(rows: list[Row], key: str, col: str) -> dict[str, set[str]]:
    """``key`` value -> every value of ``col`` in its rows."""
    out: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        if r.get(key) and r.get(col) is not None:
            out[r[key]].add(r[col])  # type: ignore[index,arg-type]
    return out


def truth(value: str | None) -> bool:
    return value in ("true", "1")


def entity_type(iris: set[str] | str | None) -> str:
    """The kg entity type among class IRIs (or one IRI): the first of ``ENTITY_TYPES``, else "Entity"."""
    names = {local_name(i) for i in ([iris] if isinstance(iris, str) else iris or ())
             if i and (i.startswith(KG_NS) or i.startswith(PREFIXES["schema"]))}
    return next((t for t in ENTITY_TYPES if t in names), "Entity")


def types_css() -> str:
    """Classes ``kg-t-<Type>`` in the colours of the view's legend (``TYPE_STYLES``)."""
    lines = []
    for name, style in TYPE_STYLES.items():
        c = style["color"]
        lines.append(f".kg-t-{name} {{ --kg-type: {c}; }}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Assets:
    """How a page gets its stylesheets and scripts: ``inline`` (one file, CSP of hashes in a meta
    element) or linked from ``kg serve``'s ``/static/`` (the server's own CSP header)."""

    inline: bool

    def styles(self, *names: str) -> Markup:
        if not self.inline:
            return Markup("".join(f'<link rel="stylesheet" href="/static/{escape(n)}">' for n in names))
        return Markup("".join(f"<style>{_style(n)}</style>" for n in names))

    def scripts(self, *names: str) -> Markup:
        if not self.inline:
            return Markup("".join(f'<script src="/static/{escape(n)}"></script>' for n in names))
        return Markup("".join(f"<script>{_script(n)}</script>" for n in names))

    def csp_meta(self, scripts: tuple[str, ...], styles: tuple[str, ...]) -> Markup:
        """The meta CSP of an inlined page: exactly its scripts and stylesheets, nothing fetched."""
        if not self.inline:
            return Markup("")
        script_src = _hashes(_script(n) for n in scripts) or "'none'"
        policy = (f"default-src 'none'; script-src {script_src}; "
                  f"style-src {_hashes(_style(n) for n in styles)}; img-src data:; base-uri 'none'; form-action 'none'")
        return Markup('<meta http-equiv="Content-Security-Policy" content="') + escape(policy) + Markup('">')


#: Static files of the pages, by name (besides ``kg-types.css``, made from ``TYPE_STYLES``).
PAGE_FILES = ("page.css", "article.css", "article.js", "query.js", "query.css", "entity.css", "ego.js")


def static_text(name: str) -> str:
    """A page asset's text: a template file, ``kg-types.css``, or vis-network (from pyvis)."""
    if name == "kg-types.css":
        return types_css()
    if name == "kg-prefixes.json":
        return json.dumps(PREFIXES, indent=1, sort_keys=True)
    if name in ("vis-network.min.js", "vis-network.css"):
        from .view import _assets

        return _assets()["vis_js" if name.endswith(".js") else "vis_css"]
    if name in PAGE_FILES:
        return (TEMPLATES / name).read_text("utf-8")
    raise KeyError(name)


@lru_cache(maxsize=None)
def _style(name: str) -> str:
    from .view import _inline_safe

    return _inline_safe(static_text(name), "style", name)


@lru_cache(maxsize=None)
def _script(name: str) -> str:
    from .view import _inline_safe

    return _inline_safe(static_text(name), "script", name)


def _hashes(texts: Iterable[str]) -> str:
    return " ".join("'sha256-" + base64.b64encode(hashlib.sha256(t.encode("utf-8")).digest()).decode("ascii") + "'"
                    for t in texts)
