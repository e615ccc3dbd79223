"""The HTML routes of ``kg serve``: the query page, its static files, the canned queries, the network
view, entity pages and article pages. Every page is read through the workers (``ServeState``), drawn
from ``kg/templates`` with its text escaped, and sent with a strict Content-Security-Policy."""
from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache, partial
from typing import Any, Callable
from urllib.parse import quote

import pyoxigraph as ox
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..outputs.view_article import read_article, render_article
from ..outputs.view_entity import read_dossier, render_dossier
from ..outputs.view_pages import Assets, static_text
from ..sparql.lexer import Rejected
from ..sparql.pool import Reply
from ..sparql.results import GRAPH_TYPES
from ..sparql.worker import store_fingerprint
from .middleware import PAGE_CSP
from .pages import _STATIC, QUERY_CSP, canned_queries, query_page
from .protocol import _error, _params, page_media, rdf_answer
from .state import PAGE_ERRORS, ServeState, serve_state
from .vendor import MEDIA as VENDOR_MEDIA
from .vendor import vendored


class _PoolStore:
    """Just enough of ``kg.store.Store`` (``select``) for ``kg.outputs.network.load_network``, via the pool."""

    def __init__(self, run: Callable[[dict[str, Any]], Reply]) -> None:
        self._run = run

    def select(self, sparql: str) -> list[dict[str, str | None]]:
        reply = self._run({"op": "select", "queries": [sparql]})
        if reply.status != 200:
            raise Rejected(reply.header.get("message", "the query failed"), reply.status)
        return json.loads(reply.body)[0]


@lru_cache(maxsize=None)
def _vendored_body(name: str) -> tuple[bytes, str]:
    body = vendored(name)
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _static_body(name: str) -> tuple[bytes, str, str] | None:
    """A static file's bytes, ETag and media type (vendored files are read and checked once)."""
    if name in VENDOR_MEDIA:
        return (*_vendored_body(name), VENDOR_MEDIA[name])
    if name not in _STATIC:
        return None
    body = static_text(name).encode("utf-8")
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', _STATIC[name]


def _href(prefix: str, route: str, iri: str) -> str | None:
    """This server's page of ``iri`` (``route`` + the rest of it) if it starts with ``prefix``, else None."""
    return route + iri[len(prefix):] if iri.startswith(prefix) else None


def _rest_of(request: Request, marker: str) -> str:
    """The raw (still percent-encoded) path after ``marker``."""
    raw = request.scope.get("raw_path") or quote(request.url.path).encode()
    return raw.decode("latin-1").split(marker, 1)[-1]


router = APIRouter()


@router.get("/", response_class=HTMLResponse, summary="the query page")
async def index(state: ServeState = Depends(serve_state)) -> Response:
    c = state.config
    html = query_page(c.base, c.timeout, c.max_rows, c.allow_update)
    return HTMLResponse(html, headers={"Content-Security-Policy": QUERY_CSP})


@router.get("/static/{name}", summary="the pages' scripts and stylesheets")
async def static(request: Request, name: str) -> Response:
    found = _static_body(name)
    if found is None:
        return _error(404, "no such file")
    body, etag, media = found
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=f"{media}; charset=utf-8", headers=headers)


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    return Response(status_code=204)


@router.get("/queries", summary="the canned queries of queries/")
async def queries() -> Response:
    return JSONResponse(canned_queries())


def _render_view(state: ServeState) -> str:
    from ..api import view
    return view(store=_PoolStore(state.run)).html or ""  # type: ignore[arg-type]  # it reads with select() alone


@router.get("/view", response_class=HTMLResponse, summary="the network view")
async def view(state: ServeState = Depends(serve_state)) -> Response:
    try:  # drawn once per version of the store, on a thread, one drawing at a time
        html = await state.view_flight.get(store_fingerprint(state.config.store), partial(_render_view, state))
    except PAGE_ERRORS as err:
        return state.page_failure(err, "drawing the network", "the network")
    m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    csp = (m.group(1).replace("&#39;", "'") if m else "default-src 'none'") + "; frame-ancestors 'none'"
    return HTMLResponse(html, headers={"Content-Security-Policy": csp})


@router.get("/article/{path:path}", summary="an article: its text with every fact highlighted",
            response_class=HTMLResponse)
async def article(request: Request, path: str, state: ServeState = Depends(serve_state)) -> Response:
    base = state.config.base
    try:
        iri = ox.NamedNode(base + "article/" + _rest_of(request, "/article/")).value
    except ValueError:
        return _error(404, "not an article IRI")
    from ..outputs.view_article import article_queries

    rows = await state.select(article_queries(iri))
    if isinstance(rows, Response):
        return rows
    data = read_article(lambda _queries: rows, iri, partial(_href, base + "entity/", "/entity/"))
    if data is None:
        return _error(404, f"no article {iri} in the store")
    html = render_article(data, Assets(inline=False), generator=f"kg {__version__}")
    return HTMLResponse(html, headers={"Content-Security-Policy": PAGE_CSP})


def _dossier(state: ServeState, iri: str, url: str) -> str | None:
    """The entity's page, read with blocking calls (on a thread); None if the store has no such entity."""
    base = state.config.base
    d = read_dossier(state.select_sync, iri, partial(_href, base + "entity/", "/entity/"),
                     partial(_href, base + "article/", "/article/"))
    if d is None:
        return None
    return render_dossier(d, Assets(inline=False), generator=f"kg {__version__}", page_url=url)


@router.get("/entity/{path:path}", summary="an entity: HTML, or RDF by content negotiation",
            response_class=Response,
            openapi_extra={"parameters": [{"name": "format", "in": "query", "required": False,
                                           "schema": {"type": "string", "enum": ["turtle", "nt", "jsonld"]}}]})
async def entity(request: Request, path: str, state: ServeState = Depends(serve_state)) -> Response:
    try:
        node = ox.NamedNode(state.config.base + "entity/" + _rest_of(request, "/entity/"))
    except ValueError:
        return _error(404, "not an entity IRI")
    try:
        fmt = next((v for k, v in _params(request.scope.get("query_string", b"")) if k == "format"), None)
        media = page_media(fmt, request.headers.get("accept"))
    except Rejected as err:
        return _error(err.status, err.message)
    if media in GRAPH_TYPES:
        text = (f"CONSTRUCT {{ {node} ?p ?o . ?s ?q {node} }} WHERE {{ {{ {node} ?p ?o }} UNION "
                f"{{ ?s ?q {node} }} }}")  # whole: a graph is never cut
        reply = await state.call({"op": "construct", "text": text, "format": GRAPH_TYPES[media]}, light=True)
        if isinstance(reply, Response):
            return reply
        if reply.status == 404:
            return _error(404, f"no entity {node.value} in the store")
        if reply.status != 200:
            return _error(reply.status, reply.header.get("message", "the query failed"))
        return rdf_answer(reply.body, media)
    try:
        html = await run_in_threadpool(_dossier, state, node.value, str(request.url.replace(query="", fragment="")))
    except PAGE_ERRORS as err:
        return state.page_failure(err, "reading the entity", "the entity")
    if html is None:
        return _error(404, f"no entity {node.value} in the store")
    return HTMLResponse(html, headers={"Vary": "Accept", "Content-Security-Policy": PAGE_CSP})
