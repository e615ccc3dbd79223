"""``kg serve``: a SPARQL 1.1 Protocol endpoint, a query page, entity pages and the view.

Safe by default (what Oxigraph server and Fuseki do, and what a naive rdflib endpoint does
not): read-only unless ``--allow-update`` *and* a bearer token; ``SERVICE`` and ``LOAD``
refused with a 400 before anything runs (by parsing, see ``kg.sparql.guard``); ``FROM``, ``FROM
NAMED`` and the dataset parameters choose graphs of the store and nothing else, relative IRIs resolve
against the endpoint's URL or ``--base`` (``kg.sparql.dataset``); every query in a worker process that is killed at the timeout; caps on
result rows and request bodies; CORS off unless ``--cors ORIGIN``; the Host header checked
(DNS rebinding); 127.0.0.1 unless told otherwise.

Routes::

    GET  /                 the query page (editor, canned queries, results table, CSV/JSON downloads)
    GET|POST /sparql       SPARQL 1.1 Protocol: query (GET ?query=, form POST, direct POST), update
                           (POST, with --allow-update and the token); no query: the service description
    GET|PUT|POST|DELETE /store   SPARQL 1.1 Graph Store Protocol (?graph=IRI or ?default); GET is a
                           read and always allowed, the others need --allow-update and the token
    GET  /queries          the canned queries of queries/ (name, description, text) as JSON
    GET  /view             the network view (kg.outputs.network + kg.outputs.view, rendered from the store)
    GET  /entity/{path}    the entity {base}entity/{path}: HTML, or Turtle / N-Triples / JSON-LD by Accept
    GET  /article/{id}     the article {base}article/{id}: its text with every fact highlighted (kg.outputs.view_article)
    GET  /static/{name}    the pages' scripts and stylesheets (kg.outputs.view_pages.static_text)
    GET  /openapi.json     the OpenAPI description of all this
"""
from __future__ import annotations

import hmac
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import pyoxigraph as ox
from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.middleware.cors import CORSMiddleware

from .. import __version__
from ..sparql.lexer import Rejected, scan
from ..sparql.pool import PoolBusy, QueryTimeout, Reply, WorkerCrashed, WorkerPool
from ..sparql.results import GRAPH_TYPES, RESULT_TYPES
from .config import ServeConfig, check_config
from .limits import OriginGuard
from .middleware import HeadAsGet, HostGuard, SecurityHeaders, _host_names
from .page_routes import add_pages
from .protocol import (
    _body,
    _content_type,
    _dataset,
    _error,
    _graph_media,
    _media_type,
    _params,
    _results_media,
    _utf8,
)

_WRITE_TYPES = ("text/turtle", "application/n-triples")


def create_app(config: ServeConfig, pool: WorkerPool | None = None) -> FastAPI:
    """The ASGI app. Without ``pool``, its lifespan starts (and stops) one over ``config.store``."""
    check_config(config)
    state: dict[str, Any] = {"pool": pool}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        own = state["pool"] is None
        if own:
            p = WorkerPool(config.store, size=config.workers, writer=config.allow_update, base=config.base)
            await run_in_threadpool(p.start)
            state["pool"] = p
        try:
            yield
        finally:
            if own:
                state["pool"].close()
                state["pool"] = None

    app = FastAPI(title="kg SPARQL endpoint", version=__version__, docs_url=None, redoc_url=None,
                  lifespan=lifespan, description=__doc__)

    def run(header: dict[str, Any], body: bytes = b"", write: bool = False) -> Reply:
        p: WorkerPool | None = state["pool"]
        if p is None:
            raise Rejected("the server is starting or stopping", 503)
        return p.run(header, body, timeout=config.timeout, write=write)

    async def call(header: dict[str, Any], body: bytes = b"", write: bool = False) -> Reply | Response:
        try:
            return await run_in_threadpool(run, header, body, write)
        except Rejected as err:
            return _error(err.status, err.message)
        except QueryTimeout:
            return _error(504, f"the query ran longer than the {config.timeout:g} s timeout (--timeout) and was "
                               "stopped; make it more selective or add a LIMIT")
        except PoolBusy as err:
            return _error(503, f"{err}; try again shortly", {"Retry-After": "2"})
        except WorkerCrashed:
            return _error(400, "the query crashed its worker (too large or too deeply nested?); it was restarted")

    def authorize(request: Request) -> Response | None:
        if not config.allow_update:
            return _error(403, "this endpoint is read-only; start kg serve with --allow-update --token T to "
                               "accept updates")
        auth = request.headers.get("authorization", "")
        scheme, _, given = auth.partition(" ")
        ok = scheme.lower() == "bearer" and config.token is not None and hmac.compare_digest(
            given.strip().encode("utf-8", "surrogateescape"), config.token.encode("utf-8"))
        if not ok:
            return _error(401, "updates need 'Authorization: Bearer <token>' with the token kg serve was started "
                               "with", {"WWW-Authenticate": 'Bearer realm="kg"'})
        return None

    # --- /sparql ---------------------------------------------------------------------------

    def service_description(request: Request) -> Response:
        endpoint = ox.NamedNode(str(request.url.replace(query="", fragment="")))
        sd = "http://www.w3.org/ns/sparql-service-description#"
        fmt = "http://www.w3.org/ns/formats/"
        svc = ox.BlankNode("service")
        ds = ox.BlankNode("dataset")
        dg = ox.BlankNode("defaultGraph")
        a = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")

        def t(s: Any, p: str, o: Any) -> ox.Triple:
            return ox.Triple(s, ox.NamedNode(p) if p != "a" else a, o)

        triples = [
            t(svc, "a", ox.NamedNode(sd + "Service")),
            t(svc, sd + "endpoint", endpoint),
            t(svc, sd + "supportedLanguage", ox.NamedNode(sd + "SPARQL11Query")),
            t(svc, sd + "feature", ox.NamedNode(sd + "UnionDefaultGraph")),
            t(svc, sd + "defaultEntailmentRegime", ox.NamedNode("http://www.w3.org/ns/entailment/Simple")),
            t(svc, sd + "defaultDataset", ds),
            t(ds, "a", ox.NamedNode(sd + "Dataset")),
            t(ds, sd + "defaultGraph", dg),
            t(dg, "a", ox.NamedNode(sd + "Graph")),
            t(svc, "http://www.w3.org/2000/01/rdf-schema#comment", ox.Literal(
                f"kg {__version__}: the default graph is the union of every article's graph. Read-only unless "
                f"started with --allow-update. SERVICE and LOAD are refused; FROM, FROM NAMED, default-graph-uri and "
                f"named-graph-uri select graphs of the store (an IRI it does not hold is an empty graph). Timeout "
                f"{config.timeout:g} s, at most {config.max_rows} result rows, request bodies up to "
                f"{config.max_body} bytes.")),
        ]
        for f in ("SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV",
                  "Turtle", "N-Triples", "JSON-LD", "RDF_XML"):
            triples.append(t(svc, sd + "resultFormat", ox.NamedNode(fmt + f)))
        if config.allow_update:
            triples.append(t(svc, sd + "supportedLanguage", ox.NamedNode(sd + "SPARQL11Update")))
        body = ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes={"sd": sd, "fmt": fmt}) or b""
        return Response(body, media_type="text/turtle; charset=utf-8")

    async def sparql(request: Request) -> Response:
        try:
            raw_qs = request.scope.get("query_string", b"")
            if len(raw_qs) > config.max_body:
                raise Rejected(f"the URL is over the limit of {config.max_body} bytes; POST the query instead", 414)
            params = _params(raw_qs)
            direct_query = direct_update = None
            if request.method == "POST":
                media, mparams = _media_type(request.headers.get("content-type"))
                if not media:
                    raise Rejected("a POST needs a Content-Type: application/x-www-form-urlencoded, "
                                   "application/sparql-query or application/sparql-update")
                charset = mparams.get("charset", "utf-8")
                if charset not in ("utf-8", "utf8"):
                    raise Rejected(f"only UTF-8 is accepted, not charset={charset}", 415)
                if media not in ("application/x-www-form-urlencoded", "application/sparql-query",
                                 "application/sparql-update"):
                    raise Rejected(f"unsupported Content-Type {media}: use application/x-www-form-urlencoded, "
                                   "application/sparql-query or application/sparql-update", 415)
                body = await _body(request, config.max_body)
                if media == "application/x-www-form-urlencoded":
                    params += _params(body)
                elif media == "application/sparql-query":
                    direct_query = _utf8(body, "query")
                else:
                    direct_update = _utf8(body, "update")
            queries = [v for k, v in params if k == "query"] + ([direct_query] if direct_query is not None else [])
            updates = [v for k, v in params if k == "update"] + ([direct_update] if direct_update is not None else [])
            if queries and updates:
                raise Rejected("a request carries either a query or an update, not both")
            if len(queries) > 1:
                raise Rejected("more than one query in the request")
            if len(updates) > 1:
                raise Rejected("more than one update in the request")
            if updates and request.method == "GET":
                raise Rejected("an update must be sent by POST (form or application/sparql-update), not GET")
            if not queries and not updates:
                if request.method == "GET":
                    return service_description(request)
                raise Rejected("no query or update in the request")
            dataset = _dataset(params, update=bool(updates))
            base = config.query_base or str(request.url.replace(query="", fragment=""))
            if updates:
                denied = authorize(request)
                if denied is not None:
                    return denied
                await run_in_threadpool(scan, updates[0], True)  # ~0.3 s for 1 MB: off the event loop
                reply = await call({"op": "update", "text": updates[0], "base": base}, write=True)
                if isinstance(reply, Response):
                    return reply
                if reply.status >= 300:
                    return _error(reply.status, reply.header.get("message", "the update failed"))
                return Response(status_code=204)
            text = queries[0]
            await run_in_threadpool(scan, text)
            results, graph = _results_media(request.headers.get("accept")), _graph_media(request.headers.get("accept"))
            if results is None and graph is None:
                raise Rejected("the Accept header allows none of " + ", ".join([*RESULT_TYPES, *GRAPH_TYPES]), 406)
        except Rejected as err:
            return _error(err.status, err.message)
        reply = await call({"op": "query", "text": text, "results": results, "graph": graph,
                            "max_rows": config.max_rows, "dataset": dataset, "base": base})
        if isinstance(reply, Response):
            return reply
        if reply.status != 200:
            return _error(reply.status, reply.header.get("message", "the query failed"))
        headers = {"Vary": "Accept"}
        if reply.header.get("truncated"):
            headers["X-Kg-Truncated"] = str(config.max_rows)
        return Response(reply.body, media_type=_content_type(reply.header["type"]), headers=headers)

    query_params = [
        {"name": "query", "in": "query", "required": False, "schema": {"type": "string"},
         "description": "a SPARQL query (no query: the service description)"},
        {"name": "update", "in": "query", "required": False, "schema": {"type": "string"},
         "description": "never accepted by GET (400): POST updates"},
        {"name": "Accept", "in": "header", "required": False, "schema": {"type": "string"}},
    ]
    body_spec = {"requestBody": {"required": False, "content": {
        "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {
            "query": {"type": "string"}, "update": {"type": "string"}}}},
        "application/sparql-query": {"schema": {"type": "string"}},
        "application/sparql-update": {"schema": {"type": "string"}},
    }}}
    app.add_api_route("/sparql", sparql, methods=["GET"], summary="SPARQL query (or the service description)",
                      openapi_extra={"parameters": query_params}, response_class=Response)
    app.add_api_route("/sparql", sparql, methods=["POST"], summary="SPARQL query or update",
                      openapi_extra={"parameters": query_params, **body_spec}, response_class=Response,
                      operation_id="sparql_post")

    # --- /store: the Graph Store Protocol ----------------------------------------------------

    def graph_param(request: Request) -> str | None:
        params = _params(request.scope.get("query_string", b""))
        graphs = [v for k, v in params if k == "graph"]
        default = any(k == "default" for k, _ in params)
        if len(graphs) + default != 1:
            raise Rejected("name exactly one graph: ?graph=<IRI> or ?default")
        if default:
            return None
        try:
            return ox.NamedNode(graphs[0]).value
        except ValueError:
            raise Rejected(f"{graphs[0]!r} is not an absolute IRI") from None

    async def store_get(request: Request) -> Response:
        try:
            graph = graph_param(request)
            media = _graph_media(request.headers.get("accept"))
            if media is None:
                raise Rejected("the Accept header allows none of " + ", ".join(GRAPH_TYPES), 406)
        except Rejected as err:
            return _error(err.status, err.message)
        reply = await call({"op": "graph_get", "graph": graph, "format": GRAPH_TYPES[media],
                            "max_rows": config.max_rows})
        if isinstance(reply, Response):
            return reply
        if reply.status != 200:
            return _error(reply.status, reply.header.get("message", "the read failed"))
        headers = {"Vary": "Accept"}
        if reply.header.get("truncated"):
            headers["X-Kg-Truncated"] = str(config.max_rows)
        return Response(reply.body, media_type=_content_type(media), headers=headers)

    async def store_write(request: Request) -> Response:
        denied = authorize(request)
        if denied is not None:
            return denied
        try:
            graph = graph_param(request)
            if graph is None:
                raise Rejected("the default graph is the union of every graph of the store, read-only here: "
                               "write a named graph (?graph=IRI)", 405)
            if request.method == "DELETE":
                header: dict[str, Any] = {"op": "graph_delete", "graph": graph}
                body = b""
            else:
                media, mparams = _media_type(request.headers.get("content-type"))
                if media not in _WRITE_TYPES:
                    raise Rejected(f"send the graph as {' or '.join(_WRITE_TYPES)}", 415)
                if mparams.get("charset", "utf-8") not in ("utf-8", "utf8"):
                    raise Rejected("only UTF-8 is accepted", 415)
                body = await _body(request, config.max_body)
                _utf8(body, "graph")
                header = {"op": "graph_put", "graph": graph, "format": media, "replace": request.method == "PUT",
                          "base": str(request.url)}
        except Rejected as err:
            return _error(err.status, err.message, {"Allow": "GET, HEAD"} if err.status == 405 else None)
        reply = await call(header, body, write=True)
        if isinstance(reply, Response):
            return reply
        if reply.status >= 300:
            return _error(reply.status, reply.header.get("message", "the write failed"))
        return Response(status_code=reply.status)

    graph_params = [{"name": "graph", "in": "query", "required": False, "schema": {"type": "string"}},
                    {"name": "default", "in": "query", "required": False, "schema": {"type": "string"}}]
    app.add_api_route("/store", store_get, methods=["GET"], summary="Graph Store Protocol: read a graph",
                      openapi_extra={"parameters": graph_params}, response_class=Response)
    for method in ("PUT", "POST", "DELETE"):
        app.add_api_route("/store", store_write, methods=[method], response_class=Response,
                          summary=f"Graph Store Protocol: {method} a graph (--allow-update and the token)",
                          openapi_extra={"parameters": graph_params}, operation_id=f"store_{method.lower()}")

    add_pages(app, config, call, run)

    if config.cors:
        app.add_middleware(CORSMiddleware, allow_origins=[config.cors], allow_credentials=False,
                           allow_methods=["GET", "POST"], allow_headers=["Accept", "Content-Type", "Authorization"],
                           expose_headers=["X-Kg-Truncated"], max_age=600)
    app.add_middleware(OriginGuard, cors=config.cors)  # a browser's POST from another origin: 403
    names, any_ip = _host_names(config)
    app.add_middleware(HostGuard, names=names, any_ip=any_ip)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)  # outermost: also on the guards' own answers
    return app
