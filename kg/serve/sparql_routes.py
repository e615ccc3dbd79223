"""``/sparql``: the SPARQL 1.1 Protocol. A query by GET (``?query=``), form POST or direct POST;
an update by POST with ``--allow-update`` and the token; a GET without either is the service
description. Every text is scanned (``kg.sparql.lexer``) before a worker runs it, and estimated
(``kg.sparql.cost``): a light query may take the worker kept for light ones."""
from __future__ import annotations

from typing import Any

import pyoxigraph as ox
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..sparql.cost import light
from ..sparql.lexer import Rejected, scan
from .config import ServeConfig
from .protocol import _body, _dataset, _error, _media_type, _params, _utf8, query_media, rdf_answer
from .state import ServeState, serve_state

_SD = "http://www.w3.org/ns/sparql-service-description#"
_FORMATS = "http://www.w3.org/ns/formats/"
_POST_TYPES = ("application/x-www-form-urlencoded", "application/sparql-query", "application/sparql-update")


def service_description(request: Request, config: ServeConfig) -> Response:
    """The endpoint described in Turtle (SPARQL 1.1 Service Description): formats, limits, update or not."""
    endpoint = ox.NamedNode(str(request.url.replace(query="", fragment="")))
    sd, fmt = _SD, _FORMATS
    svc = ox.BlankNode("service")
    ds = ox.BlankNode("dataset")
    dg = ox.BlankNode("defaultGraph")
    a = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")

    def t(s: Any, p: str, o: Any) -> ox.Triple:
        return ox.Triple(s, ox.NamedNode(p) if p != "a" else a, o)

    rows = f"at most {config.max_rows} result rows" if config.max_rows else "no cap on result rows"
    memory = f"{config.max_memory} MB of memory per query" if config.max_memory else "no memory limit per query"
    cut = ox.NamedNode(endpoint.value + CUT_FRAGMENT)
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
            f"{config.timeout:g} s, {rows} of a SELECT (graphs are whole or an error), request bodies up to "
            f"{config.max_body} bytes, {memory}.")),
        t(cut, "http://www.w3.org/2000/01/rdf-schema#comment", ox.Literal(
            f"A SELECT result whose head links here was cut at the row cap of this endpoint ({config.max_rows} "
            "rows: kg serve --max-rows N raises it, --max-rows 0 lifts it); a LIMIT in the query keeps it whole.")),
    ]
    for f in ("SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV",
              "Turtle", "N-Triples", "JSON-LD", "RDF_XML"):
        triples.append(t(svc, sd + "resultFormat", ox.NamedNode(fmt + f)))
    if config.allow_update:
        triples.append(t(svc, sd + "supportedLanguage", ox.NamedNode(sd + "SPARQL11Update")))
    body = ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes={"sd": sd, "fmt": fmt}) or b""
    return Response(body, media_type="text/turtle; charset=utf-8")


async def _operations(request: Request, max_body: int) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """The request's parameters, queries and updates, from the query string and a POST's body
    (``Rejected`` for a malformed request: wrong media type or charset, too long, two operations)."""
    raw_qs = request.scope.get("query_string", b"")
    if len(raw_qs) > max_body:
        raise Rejected(f"the URL is over the limit of {max_body} bytes; POST the query instead", 414)
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
        if media not in _POST_TYPES:
            raise Rejected(f"unsupported Content-Type {media}: use application/x-www-form-urlencoded, "
                           "application/sparql-query or application/sparql-update", 415)
        body = await _body(request, max_body)
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
    return params, queries, updates


async def _update(request: Request, state: ServeState, text: str, base: str) -> Response:
    denied = state.authorize(request)
    if denied is not None:
        return denied
    await run_in_threadpool(scan, text, True)  # ~0.3 s for 1 MB: off the event loop
    reply = await state.ask({"op": "update", "text": text, "base": base}, write=True, failed="the update failed")
    return reply if isinstance(reply, Response) else Response(status_code=204)


#: The fragment of the endpoint's URL that a cut SELECT result links to in its head (SPARQL 1.1 JSON
#: ``head.link``, XML ``<link href>``): the service description says there what the cap is.
CUT_FRAGMENT = "#max-rows"


def _checked(text: str) -> bool:
    """Scan ``text`` (``Rejected`` if the guard refuses it) and say whether it is light."""
    scan(text)
    return light(text)


async def sparql(request: Request, state: ServeState = Depends(serve_state)) -> Response:
    config = state.config
    try:
        params, queries, updates = await _operations(request, config.max_body)
        if not queries and not updates:
            if request.method == "GET":
                return service_description(request, config)
            raise Rejected("no query or update in the request")
        dataset = _dataset(params, update=bool(updates))
        base = config.query_base or str(request.url.replace(query="", fragment=""))
        if updates:
            return await _update(request, state, updates[0], base)
        text = queries[0]
        cheap = await run_in_threadpool(_checked, text)
        results, graph = query_media(request.headers.get("accept"))
    except Rejected as err:
        return _error(err.status, err.message)
    endpoint = str(request.url.replace(query="", fragment=""))
    reply = await state.call({"op": "query", "text": text, "results": results, "graph": graph,
                              "max_rows": config.max_rows, "dataset": dataset, "base": base,
                              "link": endpoint + CUT_FRAGMENT}, light=cheap)
    if isinstance(reply, Response):
        return reply
    if reply.status != 200:
        return _error(reply.status, reply.header.get("message", "the query failed"))
    cut = reply.header.get("count", config.max_rows) if reply.header.get("truncated") else None
    if cut is not None and reply.header.get("form") in ("construct", "describe"):  # a SPARQL server upstream cut it
        return _error(502, "the SPARQL server served here cut the graph at its row limit; raise it, or narrow "
                           "the query")
    return rdf_answer(reply.body, reply.header["type"], cut)


_QUERY_PARAMS = [
    {"name": "query", "in": "query", "required": False, "schema": {"type": "string"},
     "description": "a SPARQL query (no query: the service description)"},
    {"name": "update", "in": "query", "required": False, "schema": {"type": "string"},
     "description": "never accepted by GET (400): POST updates"},
    {"name": "Accept", "in": "header", "required": False, "schema": {"type": "string"}},
]
_BODY_SPEC = {"requestBody": {"required": False, "content": {
    "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {
        "query": {"type": "string"}, "update": {"type": "string"}}}},
    "application/sparql-query": {"schema": {"type": "string"}},
    "application/sparql-update": {"schema": {"type": "string"}},
}}}

router = APIRouter()
router.add_api_route("/sparql", sparql, methods=["GET"], summary="SPARQL query (or the service description)",
                     openapi_extra={"parameters": _QUERY_PARAMS}, response_class=Response)
router.add_api_route("/sparql", sparql, methods=["POST"], summary="SPARQL query or update",
                     openapi_extra={"parameters": _QUERY_PARAMS, **_BODY_SPEC}, response_class=Response,
                     operation_id="sparql_post")
