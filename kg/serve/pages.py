"""The query page's side of ``kg serve``: its canned queries, its template environment, and the
static files the pages load (``kg.outputs.view_pages`` holds their text)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..rdf.query import QUERY_DIR

_TEMPLATES = Path(__file__).parent.parent / "templates"


#: The files under ``/static/``: the query page's, the article and entity pages' (``kg.outputs.view_pages``).
_STATIC = {"query.js": "text/javascript", "query.css": "text/css", "entity.css": "text/css", "page.css": "text/css",
           "article.css": "text/css", "article.js": "text/javascript", "ego.js": "text/javascript", "kg-types.css": "text/css",
           "vis-network.min.js": "text/javascript", "vis-network.css": "text/css"}


def canned_queries(folder: Path = QUERY_DIR) -> list[dict[str, str]]:
    """The ``.rq`` files of ``queries/``: name, description (the comment header) and text."""
    out = []
    for path in sorted(folder.glob("*.rq")):
        text = path.read_text(encoding="utf-8")
        header = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            header.append(line.lstrip("#").strip())
        out.append({"name": path.name, "description": " ".join(h for h in header if h), "query": text})
    return out


@lru_cache(maxsize=1)
def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(_TEMPLATES)), autoescape=True, undefined=StrictUndefined)
