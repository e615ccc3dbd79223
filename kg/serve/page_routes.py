"""The HTML routes of ``kg serve``: the query page, its static files, the canned queries, the network
view, entity pages and article pages. Every page is read through the workers (``call``), drawn from
``kg/templates`` with its text escaped, and sent with a strict Content-Security-Policy."""
from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from typing import Any, Awaitable, Callable
from urllib.parse import quote

import pyoxigraph as ox
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..outputs.view_article import read_article, render_article
from ..outputs.view_entity import read_dossier, render_dossier
from ..outputs.view_pages import Assets, static_text
from ..sparql.lexer import Rejected
from ..sparql.pool import PoolBusy, QueryTimeout, Reply, WorkerCrashed
from ..sparql.results import GRAPH_TYPES
from ..sparql.worker import store_fingerprint
from .config import ServeConfig
from .limits import SingleFlight
from .middleware import PAGE_CSP
from .pages import _STATIC, QUERY_CSP, canned_queries, query_page
from .protocol import _content_type, _error, _params, negotiate
from .vendor import MEDIA as VENDOR_MEDIA
from .vendor import vendored

Call = Callable[..., Awaitable["Reply | Response"]]


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


def add_pages(app: FastAPI, config: ServeConfig, call: Call, run: Callable[[dict[str, Any]], Reply]) -> None:
    """Add the page routes to ``app``; ``call`` runs a request in the workers (a ``Response`` when it
    failed), ``run`` the same, blocking, for code that runs on a thread."""
    entity_prefix = config.base + "entity/"
    view_flight: SingleFlight[str] = SingleFlight()

    article_prefix = config.base + "article/"

    def article_href(iri: str) -> str | None:
        return "/article/" + iri[len(article_prefix):] if iri.startswith(article_prefix) else None

    def select_sync(queries: list[str]) -> list[list[dict[str, str | None]]]:
        """Rows of trusted, server-built SELECTs, from a thread (``Rejected`` if they failed)."""
        reply = run({"op": "select", "queries": queries})
        if reply.status != 200:
            raise Rejected(reply.header.get("message", "the query failed"), reply.status)
        return json.loads(reply.body)

    def entity_href(iri: str) -> str | None:
        return "/entity/" + iri[len(entity_prefix):] if iri.startswith(entity_prefix) else None

    def rest_of(request: Request, marker: str) -> str:
        raw = request.scope.get("raw_path") or quote(request.url.path).encode()
        return raw.decode("latin-1").split(marker, 1)[-1]

    @app.get("/", response_class=HTMLResponse, summary="the query page")
    async def index() -> Response:
        html = query_page(config.base, config.timeout, config.max_rows, config.allow_update)
        return HTMLResponse(html, headers={"Content-Security-Policy": QUERY_CSP})

    @app.get("/static/{name}", summary="the pages' scripts and stylesheets")
    async def static(request: Request, name: str) -> Response:
        found = _static_body(name)
        if found is None:
            return _error(404, "no such file")
        body, etag, media = found
        headers = {"Cache-Control": "no-cache", "ETag": etag}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=f"{media}; charset=utf-8", headers=headers)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/queries", summary="the canned queries of queries/")
    async def queries() -> Response:
        return JSONResponse(canned_queries())

    def render_view() -> str:
        from ..api import view
        return view(store=_PoolStore(run)).html or ""  # type: ignore[arg-type]  # it reads with select() alone

    @app.get("/view", response_class=HTMLResponse, summary="the network view")
    async def view() -> Response:
        try:  # drawn once per version of the store, on a thread, one drawing at a time
            html = await view_flight.get(store_fingerprint(config.store), render_view)
        except Rejected as err:
            return _error(err.status, err.message)
        except QueryTimeout:
            return _error(504, f"drawing the network took longer than the {config.timeout:g} s timeout")
        except (PoolBusy, WorkerCrashed) as err:
            return _error(503, f"the network could not be read: {err}", {"Retry-After": "2"})
        m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
        csp = (m.group(1).replace("&#39;", "'") if m else "default-src 'none'") + "; frame-ancestors 'none'"
        return HTMLResponse(html, headers={"Content-Security-Policy": csp})

    async def select_many(queries: list[str]) -> list[list[dict[str, str | None]]] | Response:
        reply = await call({"op": "select", "queries": queries})
        if isinstance(reply, Response):
            return reply
        if reply.status != 200:
            return _error(reply.status, reply.header.get("message", "the query failed"))
        return json.loads(reply.body)

    @app.get("/article/{path:path}", summary="an article: its text with every fact highlighted",
             response_class=HTMLResponse)
    async def article(request: Request, path: str) -> Response:
        try:
            iri = ox.NamedNode(config.base + "article/" + rest_of(request, "/article/")).value
        except ValueError:
            return _error(404, "not an article IRI")
        from ..outputs.view_article import article_queries

        rows = await select_many(article_queries(iri))
        if isinstance(rows, Response):
            return rows
        data = read_article(lambda _queries: rows, iri, entity_href)
        if data is None:
            return _error(404, f"no article {iri} in the store")
        html = render_article(data, Assets(inline=False), generator=f"kg {__version__}")
        return HTMLResponse(html, headers={"Content-Security-Policy": PAGE_CSP})

    @app.get("/entity/{path:path}", summary="an entity: HTML, or RDF by content negotiation",
             response_class=Response,
             openapi_extra={"parameters": [{"name": "format", "in": "query", "required": False,
                                            "schema": {"type": "string", "enum": ["turtle", "nt", "jsonld"]}}]})
    async def entity(request: Request, path: str) -> Response:
        try:
            node = ox.NamedNode(entity_prefix + rest_of(request, "/entity/"))
        except ValueError:
            return _error(404, "not an entity IRI")
        try:
            fmt = next((v for k, v in _params(request.scope.get("query_string", b"")) if k == "format"), None)
        except Rejected as err:
            return _error(err.status, err.message)
        by_name = {"turtle": "text/turtle", "ttl": "text/turtle", "nt": "application/n-triples",
                   "jsonld": "application/ld+json"}
        if fmt is not None:
            media = by_name.get(fmt)
            if media is None:
                return _error(400, "format is one of turtle, nt, jsonld")
        else:
            media = negotiate(request.headers.get("accept"), ["text/html", *GRAPH_TYPES, "application/xhtml+xml"])
            if media is None:
                return _error(406, "the Accept header allows none of text/html, " + ", ".join(GRAPH_TYPES))
        headers = {"Vary": "Accept"}
        if media in GRAPH_TYPES:
            text = (f"CONSTRUCT {{ {node} ?p ?o . ?s ?q {node} }} WHERE {{ {{ {node} ?p ?o }} UNION "
                    f"{{ ?s ?q {node} }} }} LIMIT {config.max_rows}")
            reply = await call({"op": "construct", "text": text, "format": GRAPH_TYPES[media]})
            if isinstance(reply, Response):
                return reply
            if reply.status == 404:
                return _error(404, f"no entity {node.value} in the store")
            if reply.status != 200:
                return _error(reply.status, reply.header.get("message", "the query failed"))
            return Response(reply.body, media_type=_content_type(media), headers=headers)
        def dossier() -> str | None:
            d = read_dossier(select_sync, node.value, entity_href, article_href)
            if d is None:
                return None
            url = str(request.url.replace(query="", fragment=""))
            return render_dossier(d, Assets(inline=False), generator=f"kg {__version__}", page_url=url)

        try:
            html = await run_in_threadpool(dossier)
        except Rejected as err:
            return _error(err.status, err.message)
        except QueryTimeout:
            return _error(504, f"reading the entity took longer than the {config.timeout:g} s timeout")
        except (PoolBusy, WorkerCrashed) as err:
            return _error(503, f"the entity could not be read: {err}", {"Retry-After": "2"})
        if html is None:
            return _error(404, f"no entity {node.value} in the store")
        return HTMLResponse(html, headers={**headers, "Content-Security-Policy": PAGE_CSP})
