"""``/store``: the SPARQL 1.1 Graph Store Protocol (``?graph=IRI`` or ``?default``). GET reads a graph
and is always allowed; PUT, POST and DELETE need ``--allow-update`` and the token, and write named
graphs only (the default graph is the union of them all)."""
from __future__ import annotations

from typing import Any

import pyoxigraph as ox
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from ..sparql.lexer import Rejected
from ..sparql.results import GRAPH_TYPES
from .protocol import _body, _error, _media_type, _params, _utf8, graph_media, rdf_answer
from .state import ServeState, serve_state

_WRITE_TYPES = ("text/turtle", "application/n-triples")


def graph_param(request: Request) -> str | None:
    """The graph a request names: its IRI, or None for ``?default`` (``Rejected`` unless exactly one)."""
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


async def store_get(request: Request, state: ServeState = Depends(serve_state)) -> Response:
    """A graph, whole (a 504 at the timeout, a 507 at the memory limit: never a 200 with part of it)."""
    try:
        graph = graph_param(request)
        media = graph_media(request.headers.get("accept"))
    except Rejected as err:
        return _error(err.status, err.message)
    reply = await state.call({"op": "graph_get", "graph": graph, "format": GRAPH_TYPES[media]})
    if isinstance(reply, Response):
        return reply
    if reply.status != 200:
        return _error(reply.status, reply.header.get("message", "the read failed"))
    if reply.header.get("truncated"):  # a SPARQL server upstream cut it: an error, not part of a graph
        return _error(502, "the SPARQL server served here cut the graph at its row limit; raise it, or read "
                           "the graph from the server itself")
    return rdf_answer(reply.body, media)


async def _write_request(request: Request, max_body: int) -> tuple[dict[str, Any], bytes]:
    """The worker's request for a PUT, POST or DELETE (``Rejected`` for a wrong graph, media type or body)."""
    graph = graph_param(request)
    if graph is None:
        raise Rejected("the default graph is the union of every graph of the store, read-only here: "
                       "write a named graph (?graph=IRI)", 405)
    if request.method == "DELETE":
        return {"op": "graph_delete", "graph": graph}, b""
    media, mparams = _media_type(request.headers.get("content-type"))
    if media not in _WRITE_TYPES:
        raise Rejected(f"send the graph as {' or '.join(_WRITE_TYPES)}", 415)
    if mparams.get("charset", "utf-8") not in ("utf-8", "utf8"):
        raise Rejected("only UTF-8 is accepted", 415)
    body = await _body(request, max_body)
    _utf8(body, "graph")
    return {"op": "graph_put", "graph": graph, "format": media, "replace": request.method == "PUT",
            "base": str(request.url)}, body


async def store_write(request: Request, state: ServeState = Depends(serve_state)) -> Response:
    denied = state.authorize(request)
    if denied is not None:
        return denied
    try:
        header, body = await _write_request(request, state.config.max_body)
    except Rejected as err:
        return _error(err.status, err.message, {"Allow": "GET, HEAD"} if err.status == 405 else None)
    reply = await state.ask(header, body, write=True, failed="the write failed")
    return reply if isinstance(reply, Response) else Response(status_code=reply.status)


_GRAPH_PARAMS = [{"name": "graph", "in": "query", "required": False, "schema": {"type": "string"}},
                 {"name": "default", "in": "query", "required": False, "schema": {"type": "string"}}]

router = APIRouter()
router.add_api_route("/store", store_get, methods=["GET"], summary="Graph Store Protocol: read a graph",
                     openapi_extra={"parameters": _GRAPH_PARAMS}, response_class=Response)
for _method in ("PUT", "POST", "DELETE"):
    router.add_api_route("/store", store_write, methods=[_method], response_class=Response,
                         summary=f"Graph Store Protocol: {_method} a graph (--allow-update and the token)",
                         openapi_extra={"parameters": _GRAPH_PARAMS}, operation_id=f"store_{_method.lower()}")
