"""The query page's side of ``kg serve``: its canned queries, the terms it completes, its template
environment, and the static files the pages load (``kg.outputs.view_pages`` holds their text,
``kg.serve.vendor`` the vendored YASGUI's)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from markupsafe import Markup

from .. import __version__
from ..model.vocab import KG, PREFIXES
from ..rdf.query import QUERY_DIR
from .middleware import PAGE_CSP
from .vendor import YASGUI_STYLE_HASHES, YASGUI_VERSION

_TEMPLATES = Path(__file__).parent.parent / "templates"


#: The files under ``/static/``: the query page's, the article and entity pages' (``kg.outputs.view_pages``).
_STATIC = {"query.js": "text/javascript", "query.css": "text/css", "entity.css": "text/css", "page.css": "text/css",
           "article.css": "text/css", "article.js": "text/javascript", "ego.js": "text/javascript", "kg-types.css": "text/css", "kg-prefixes.json": "application/json",
           "vis-network.min.js": "text/javascript", "vis-network.css": "text/css"}


def canned_queries(folder: Path = QUERY_DIR) -> list[dict[str, str]]:
    """The ``.rq`` files of ``queries/``: name, description (the comment header), text, and the text
    after the header (``body``: the query page shows the header above the editor, once)."""
    out = []
    for path in sorted(folder.glob("*.rq")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        n = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
        header = [line.lstrip("#").strip() for line in lines[:n]]
        out.append({"name": path.name, "description": " ".join(h for h in header if h), "query": text,
                    "body": "".join(lines[n:]).lstrip("\r\n")})
    return out


@lru_cache(maxsize=1)
def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(_TEMPLATES)), autoescape=True, undefined=StrictUndefined)


#: The query page's CSP: the pages' own, with the column resizer's two fixed style texts allowed by hash.
QUERY_CSP = PAGE_CSP.replace("style-src 'self'", "style-src 'self' " + " ".join(f"'{h}'" for h in YASGUI_STYLE_HASHES))

#: Terms of other vocabularies that kg writes (``kg/rdf``), completed on the query page with kg's own.
OTHER_TERMS = (
    "rdf:type", "rdfs:label", "skos:prefLabel", "skos:altLabel", "skos:notation", "skos:broader", "skos:Concept",
    "owl:sameAs", "prov:wasDerivedFrom", "dcterms:title", "dcterms:source", "schema:datePublished", "schema:url",
    "schema:text", "schema:identifier", "schema:NewsArticle", "schema:Person", "schema:Organization", "schema:Place",
    "foaf:Person", "foaf:Group", "org:Membership", "org:Organization", "org:Role", "org:member", "org:organization",
    "org:role", "org:memberDuring", "time:Instant", "time:Interval", "time:hasBeginning", "time:hasEnd",
    "time:hasTime", "time:inside", "time:before", "time:inXSDDate", "time:inXSDgYearMonth", "time:inXSDgYear",
    "sem:hasTimeStamp", "sem:hasPlace", "sem:hasEarliestBeginTimeStamp", "sem:hasLatestEndTimeStamp",
)


def completion_terms() -> list[str]:
    """Prefixed names the query page completes: the kg ontology's terms and ``OTHER_TERMS``."""
    return sorted({f"kg:{name}" for name in KG.__annotations__ if not name.startswith("_")} | set(OTHER_TERMS))


def query_page(base: str, timeout: float, max_rows: int, updates: bool) -> str:
    """The query page's HTML: YASGUI with the canned queries as tabs, prefixes and terms to complete."""
    from ..outputs.view import script_json

    canned = [{k: q[k] for k in ("name", "description", "body")} for q in canned_queries()]
    data: dict[str, Any] = {"base": base, "canned": canned, "prefixes": PREFIXES, "terms": completion_terms()}
    return _env().get_template("query.html").render(
        version=__version__, yasgui=YASGUI_VERSION, timeout=f"{timeout:g}", max_rows=max_rows, updates=updates,
        page_data=Markup(script_json(data)))
