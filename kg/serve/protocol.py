"""The HTTP side of the SPARQL 1.1 Protocol and Graph Store Protocol: content negotiation (Accept),
form and query-string parameters, request bodies and their media types, the dataset parameters,
and errors as one line of text."""
from __future__ import annotations

import re
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.responses import PlainTextResponse, Response
from starlette.requests import ClientDisconnect

from ..sparql.dataset import QUERY_DATASET_PARAMS, UPDATE_DATASET_PARAMS, dataset_params
from ..sparql.lexer import Rejected
from ..sparql.results import GRAPH_TYPES, RESULT_TYPES

_RESULT_OFFERS = [*RESULT_TYPES, "application/json", "application/xml"]


_GRAPH_OFFERS = [*GRAPH_TYPES, "application/json", "application/turtle", "application/xml"]


_ALIASES = {"application/json": None, "application/xml": "application/sparql-results+xml"}


#: other names clients give the graph formats (SPARQLWrapper sends application/turtle)
_GRAPH_ALIASES = {"application/json": "application/ld+json", "application/turtle": "text/turtle",
                  "application/xml": "application/rdf+xml"}


def _ranges(header: str) -> list[tuple[str, str, float]]:
    out = []
    for part in header.split(","):
        fields = part.split(";")
        media = fields[0].strip().lower()
        if media == "*":
            media = "*/*"
        if media.count("/") != 1:
            continue
        q = 1.0
        for p in fields[1:]:
            k, _, v = p.partition("=")
            if k.strip().lower() == "q":
                try:
                    q = float(v.strip())
                except ValueError:
                    q = -1.0
        if not 0.0 <= q <= 1.0:  # also NaN
            continue
        t, s = media.split("/")
        out.append((t.strip(), s.strip(), q))
    return out


def negotiate(accept: str | None, offered: list[str]) -> str | None:
    """The offered media type the Accept header prefers (server order breaks ties); None: 406."""
    if accept is None or not accept.strip():
        return offered[0]
    ranges = _ranges(accept)
    if not ranges:
        return offered[0]
    best, best_q = None, 0.0
    for media in offered:
        t, s = media.split("/")
        q, spec = 0.0, -1
        for rt, rs, rq in ranges:
            sp = 2 if (rt, rs) == (t, s) else 1 if (rt == t and rs == "*") else 0 if (rt, rs) == ("*", "*") else -1
            if sp > spec:
                spec, q = sp, rq
        if spec >= 0 and q > best_q:
            best, best_q = media, q
    return best


def _results_media(accept: str | None) -> str | None:
    m = negotiate(accept, _RESULT_OFFERS)
    if m in _ALIASES:
        return _ALIASES[m] or "application/sparql-results+json"
    return m


def _graph_media(accept: str | None) -> str | None:
    m = negotiate(accept, _GRAPH_OFFERS)
    return _GRAPH_ALIASES.get(m or "", m)


def _content_type(media: str) -> str:
    return f"{media}; charset=utf-8" if media.startswith("text/") else media


def query_media(accept: str | None) -> tuple[str | None, str | None]:
    """The media types a query's answer may take: (SPARQL results, RDF); ``Rejected`` (406) if neither."""
    results, graph = _results_media(accept), _graph_media(accept)
    if results is None and graph is None:
        raise Rejected("the Accept header allows none of " + ", ".join([*RESULT_TYPES, *GRAPH_TYPES]), 406)
    return results, graph


def graph_media(accept: str | None) -> str:
    """The RDF media type of a graph read; ``Rejected`` (406) if the Accept header allows none."""
    media = _graph_media(accept)
    if media is None:
        raise Rejected("the Accept header allows none of " + ", ".join(GRAPH_TYPES), 406)
    return media


#: The ``?format=`` names of an entity's RDF (they win over the Accept header).
ENTITY_FORMATS = {"turtle": "text/turtle", "ttl": "text/turtle", "nt": "application/n-triples",
                  "jsonld": "application/ld+json"}


def page_media(fmt: str | None, accept: str | None) -> str:
    """An entity's media type: ``text/html`` (or XHTML) or an RDF type, by ``?format=`` if given,
    else by the Accept header; ``Rejected`` with 400 (unknown format) or 406."""
    if fmt is not None:
        media = ENTITY_FORMATS.get(fmt)
        if media is None:
            raise Rejected("format is one of turtle, nt, jsonld")
        return media
    media = negotiate(accept, ["text/html", *GRAPH_TYPES, "application/xhtml+xml"])
    if media is None:
        raise Rejected("the Accept header allows none of text/html, " + ", ".join(GRAPH_TYPES), 406)
    return media


def rdf_answer(body: bytes, media: str, truncated_at: int | None = None) -> Response:
    """An answer in a negotiated media type; ``truncated_at``: the rows a SELECT's answer holds when it
    was cut short, at ``--max-rows`` or at the row limit of the SPARQL server it came from
    (``X-Kg-Truncated``; the JSON and XML results also say so in their head's link). A graph is
    never cut."""
    headers = {"Vary": "Accept"}
    if truncated_at is not None:
        headers["X-Kg-Truncated"] = str(truncated_at)
    return Response(body, media_type=_content_type(media), headers=headers)


def _params(raw: bytes) -> list[tuple[str, str]]:
    """Form / query-string pairs, strictly UTF-8 (``Rejected`` otherwise)."""
    text = re.sub(rb"[\x80-\xff]", lambda m: b"%%%02X" % m.group()[0], raw).decode("ascii")
    try:
        return parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict", max_num_fields=200)
    except UnicodeDecodeError:
        raise Rejected("the parameters are not valid UTF-8") from None
    except ValueError as err:
        raise Rejected(f"bad parameters: {err}") from None


def _media_type(header: str | None) -> tuple[str, dict[str, str]]:
    if header is None:
        return "", {}
    fields = header.split(";")
    params = {}
    for p in fields[1:]:
        k, _, v = p.partition("=")
        params[k.strip().lower()] = v.strip().strip('"').lower()
    return fields[0].strip().lower(), params


async def _body(request: Request, limit: int) -> bytes:
    length = request.headers.get("content-length")
    if length is not None:
        try:
            if int(length) > limit:
                raise Rejected(f"the request body is over the limit of {limit} bytes (--max-body)", 413)
        except ValueError:
            raise Rejected("bad Content-Length") from None
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise Rejected(f"the request body is over the limit of {limit} bytes (--max-body)", 413)
            chunks.append(chunk)
    except ClientDisconnect:  # closed before its body was in (the read timeout, or room for another): no answer is read
        raise Rejected("the connection was closed before the whole request body came", 400) from None
    return b"".join(chunks)


def _dataset(params: list[tuple[str, str]], update: bool) -> dict[str, list[str]] | None:
    """The dataset a query's ``default-graph-uri`` / ``named-graph-uri`` choose (None: the service's
    own, the union); ``Rejected`` for the update forms (pyoxigraph's update takes no dataset: USING,
    WITH and GRAPH in the update do the same) and for a value that is not an absolute IRI."""
    given = {k for k, _ in params}
    wrong = given & set(UPDATE_DATASET_PARAMS if not update else (*QUERY_DATASET_PARAMS, *UPDATE_DATASET_PARAMS))
    if wrong:
        name = sorted(wrong)[0]
        if update:
            raise Rejected(f"{name} is not supported with an update: name the graphs in it (USING, WITH, GRAPH)")
        raise Rejected(f"{name} goes with an update, not a query (use default-graph-uri / named-graph-uri)")
    try:
        chosen = dataset_params(params)
    except ValueError as err:
        raise Rejected(str(err)) from None
    return None if chosen is None else {"default": list(chosen.default), "named": list(chosen.named)}


def _utf8(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Rejected(f"the {what} is not valid UTF-8") from None


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return PlainTextResponse(f"kg: {message}\n", status_code=status, headers=headers)
