"""``kg serve``: a SPARQL 1.1 Protocol endpoint, a query page, entity pages and the view.

Safe by default (what Oxigraph server and Fuseki do, and what a naive rdflib endpoint does
not): read-only unless ``--allow-update`` *and* a bearer token; ``SERVICE`` and ``LOAD``
refused with a 400 before anything runs (by parsing, see ``kg.serve.worker``); ``FROM``, ``FROM
NAMED`` and the dataset parameters choose graphs of the store and nothing else, relative IRIs resolve
against the endpoint's URL or ``--base`` (``kg.serve.dataset``); every query in a worker process that is killed at the timeout; caps on
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
    GET  /openapi.json     the OpenAPI description of all this
"""
from __future__ import annotations

import hmac
import ipaddress
import json
import re
import socket
import sys
import threading
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, AsyncIterator, Callable, MutableMapping
from urllib.parse import parse_qsl, quote, urlsplit

import pyoxigraph as ox
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.concurrency import run_in_threadpool
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..errors import StoreError, StoreLocked, UsageError
from ..model.vocab import KG_NS, sparql_prefixes
from ..rdf.query import QUERY_DIR
from ..store import require_store
from .dataset import QUERY_DATASET_PARAMS, UPDATE_DATASET_PARAMS, dataset_params
from .limits import Limits, OriginGuard, SingleFlight, guarded_protocol
from .worker import (
    GRAPH_TYPES,
    RESULT_TYPES,
    PoolBusy,
    QueryTimeout,
    Rejected,
    Reply,
    WorkerCrashed,
    WorkerPool,
    scan,
    store_fingerprint,
)

__all__ = ["ServeConfig", "create_app", "serve", "check_config", "negotiate"]

_TEMPLATES = Path(__file__).parent.parent / "templates"
_STATIC = {"query.js": "text/javascript", "query.css": "text/css", "entity.css": "text/css"}
PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"
_RESULT_OFFERS = [*RESULT_TYPES, "application/json", "application/xml"]
_GRAPH_OFFERS = [*GRAPH_TYPES, "application/json", "application/turtle", "application/xml"]
_ALIASES = {"application/json": None, "application/xml": "application/sparql-results+xml"}
#: other names clients give the graph formats (SPARQLWrapper sends application/turtle)
_GRAPH_ALIASES = {"application/json": "application/ld+json", "application/turtle": "text/turtle",
                  "application/xml": "application/rdf+xml"}
_WRITE_TYPES = ("text/turtle", "application/n-triples")


@dataclass(frozen=True)
class ServeConfig:
    """Everything ``kg serve`` is told; ``check_config`` says what is wrong with it."""

    store: str
    host: str = "127.0.0.1"
    port: int = 7878
    timeout: float = 30.0
    allow_update: bool = False
    token: str | None = None
    cors: str | None = None
    base: str = "https://kg.example.org/"
    max_rows: int = 10_000
    max_body: int = 1_000_000
    workers: int = 2
    #: base IRI of queries and updates (relative IRIs); None: the endpoint's own URL
    query_base: str | None = None


def check_config(c: ServeConfig) -> None:
    """Raise ``UsageError`` for settings that make no sense or would be unsafe."""
    if c.allow_update and not c.token:
        raise UsageError("--allow-update needs a token (--token-file FILE, or KG_TOKEN): updates are only taken "
                         "with 'Authorization: Bearer T'")
    if c.token is not None and not c.allow_update:
        raise UsageError("--token is only used with --allow-update")
    if c.token is not None and (not c.token.strip() or any(ch.isspace() or ord(ch) < 33 for ch in c.token)):
        raise UsageError("--token must be non-empty and contain no spaces or control characters")
    if c.cors is not None and not re.fullmatch(r"https?://[^/\s*?#@]+", c.cors):
        raise UsageError(f"--cors takes one origin such as http://localhost:3000 (scheme://host[:port], no path), "
                         f"not {c.cors!r}; allowing every origin is not offered")
    if not 0 < c.timeout <= 86_400:
        raise UsageError("--timeout must be a number of seconds above 0")
    if not 0 <= c.port <= 65_535:
        raise UsageError("--port must be between 0 and 65535 (0 picks a free port)")
    if c.max_rows < 1 or c.max_body < 1 or c.workers < 1:
        raise UsageError("--max-rows, --max-body and --workers must be at least 1")
    if not re.fullmatch(r"https?://[^\s<>\"]+/", c.base):
        raise UsageError(f"base IRI {c.base!r} must be an absolute http(s) IRI ending in '/'")
    if c.query_base is not None and not re.fullmatch(r"https?://[^\s<>\"]+/", c.query_base):
        raise UsageError(f"base IRI {c.query_base!r} must be an absolute http(s) IRI ending in '/'")


# --- content negotiation -------------------------------------------------------------------


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


# --- request parsing -----------------------------------------------------------------------


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
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Rejected(f"the request body is over the limit of {limit} bytes (--max-body)", 413)
        chunks.append(chunk)
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


# --- the ASGI guards -------------------------------------------------------------------------


class HostGuard:
    """Refuse (421) a request whose Host is not a name this server is known by (DNS rebinding)."""

    def __init__(self, app: ASGIApp, names: set[str], any_ip: bool) -> None:
        self.app = app
        self.names = names
        self.any_ip = any_ip

    def allowed(self, host: str | None) -> bool:
        if not host:
            return False
        host = host.strip().lower()
        if host.startswith("["):
            name = host[1:].split("]", 1)[0]
        else:
            name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
        name = name.rstrip(".")
        if name in self.names:
            return True
        if self.any_ip:
            try:
                ipaddress.ip_address(name)
                return True
            except ValueError:
                return False
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        if not self.allowed(host):
            status = 400 if not host else 421
            msg = "missing Host header" if not host else f"this server does not answer for host {host!r}"
            response = _error(status, msg)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """nosniff, no referrer, no framing, and a locked-down CSP unless the route set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def wrapped(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY"), (b"cross-origin-resource-policy", b"same-origin")]
                if b"content-security-policy" not in names:
                    extra.append((b"content-security-policy", DATA_CSP.encode()))
                headers += [(k, v) for k, v in extra if k not in names]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, wrapped)


class HeadAsGet:
    """HEAD wherever GET works (HTTP requires it; FastAPI's GET routes answer HEAD with 405): the
    request runs as a GET and the answer goes out with its headers and no body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def _host_names(c: ServeConfig) -> tuple[set[str], bool]:
    names = {"localhost", "127.0.0.1", "::1"}
    host = c.host.strip("[]").lower()
    wildcard = host in ("0.0.0.0", "::", "")
    if not wildcard:
        names.add(host)
    else:
        names.update({socket.gethostname().lower(), socket.getfqdn().lower()})
    base_host = urlsplit(c.base).hostname
    if base_host:
        names.add(base_host.lower())
    return names, wildcard


# --- canned queries, templates -----------------------------------------------------------------


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


# --- the entity page -----------------------------------------------------------------------------

_Q_PREFIXES = sparql_prefixes("kg", "rdf", "org", "rdfs", "skos", "prov", "dcterms")


def _entity_queries(node: str) -> list[str]:
    return [
        _Q_PREFIXES + f"SELECT ?p ?v WHERE {{ {node} ?p ?v FILTER(?p IN (rdfs:label, skos:altLabel, rdf:type)) }}",
        _Q_PREFIXES + f"""SELECT ?event ?as ?action ?other ?otherLabel ?negated ?modality ?sentence ?article ?title
                            ?reporter ?reporterLabel WHERE {{
          {{ ?event kg:actor {node} . BIND("actor" AS ?as)
             OPTIONAL {{ ?event kg:target ?other OPTIONAL {{ ?other rdfs:label ?otherLabel }} }} }}
          UNION {{ ?event kg:target {node} . BIND("target" AS ?as)
             OPTIONAL {{ ?event kg:actor ?other OPTIONAL {{ ?other rdfs:label ?otherLabel }} }} }}
          UNION {{ ?event kg:reportedBy {node} . BIND("reporter" AS ?as)
             OPTIONAL {{ ?event kg:actor ?other OPTIONAL {{ ?other rdfs:label ?otherLabel }} }} }}
          ?event kg:action ?action .
          OPTIONAL {{ ?event kg:negated ?negated }}
          OPTIONAL {{ ?event kg:modality ?modality }}
          OPTIONAL {{ ?event kg:reportedBy ?reporter OPTIONAL {{ ?reporter rdfs:label ?reporterLabel }} }}
          OPTIONAL {{ ?event kg:evidence/kg:sentence ?sentence }}
          OPTIONAL {{ ?event prov:wasDerivedFrom ?article OPTIONAL {{ ?article dcterms:title ?title }} }}
        }}""",
        _Q_PREFIXES + f"""SELECT ?m ?as ?other ?otherLabel ?role ?former ?sentence ?article ?title WHERE {{
          {{ ?m org:member {node} ; org:organization ?other . BIND("member" AS ?as) }}
          UNION {{ ?m org:organization {node} ; org:member ?other . BIND("organization" AS ?as) }}
          OPTIONAL {{ ?other rdfs:label ?otherLabel }}
          OPTIONAL {{ ?m kg:roleLabel ?role }}
          OPTIONAL {{ ?m kg:former ?former }}
          OPTIONAL {{ ?m kg:evidence/kg:sentence ?sentence }}
          OPTIONAL {{ ?m prov:wasDerivedFrom ?article OPTIONAL {{ ?article dcterms:title ?title }} }}
        }}""",
        _Q_PREFIXES + f"""SELECT ?article ?title WHERE {{
          ?article kg:mentions {node} OPTIONAL {{ ?article dcterms:title ?title }} }}""",
    ]


def _merge(rows: list[dict[str, str | None]], key: str) -> list[dict[str, str | None]]:
    """One dict per ``key`` value; of several values of a column, the shortest (then smallest)."""
    groups: dict[str, list[dict[str, str | None]]] = {}
    for r in rows:
        groups.setdefault(r.get(key) or "", []).append(r)
    out = []
    for k in sorted(groups):
        merged: dict[str, str | None] = {}
        for col in groups[k][0]:
            values = sorted({v for r in groups[k] if (v := r.get(col)) is not None}, key=lambda s: (len(s), s))
            merged[col] = values[0] if values else None
        out.append(merged)
    return out


def _local(iri: str | None) -> str:
    if not iri:
        return ""
    return iri[len(KG_NS):] if iri.startswith(KG_NS) else iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]


# --- the app ---------------------------------------------------------------------------------------


class _PoolStore:
    """Just enough of ``kg.store.Store`` (``select``) for ``kg.outputs.network.load_network``, via the pool."""

    def __init__(self, run: Callable[[dict[str, Any]], Reply]) -> None:
        self._run = run

    def select(self, sparql: str) -> list[dict[str, str | None]]:
        reply = self._run({"op": "select", "queries": [sparql]})
        if reply.status != 200:
            raise Rejected(reply.header.get("message", "the query failed"), reply.status)
        return json.loads(reply.body)[0]


def create_app(config: ServeConfig, pool: WorkerPool | None = None) -> FastAPI:
    """The ASGI app. Without ``pool``, its lifespan starts (and stops) one over ``config.store``."""
    check_config(config)
    state: dict[str, Any] = {"pool": pool}
    view_flight: SingleFlight[str] = SingleFlight()
    entity_prefix = config.base + "entity/"

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        own = state["pool"] is None
        if own:
            p = WorkerPool(config.store, size=config.workers, writer=config.allow_update)
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

    # --- pages ---------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, summary="the query page")
    async def index() -> Response:
        html = _env().get_template("query.html").render(
            base=config.base, version=__version__, timeout=f"{config.timeout:g}", max_rows=config.max_rows,
            updates=config.allow_update)
        return HTMLResponse(html, headers={"Content-Security-Policy": PAGE_CSP})

    @app.get("/static/{name}", summary="the query page's script and stylesheets")
    async def static(name: str) -> Response:
        if name not in _STATIC:
            return _error(404, "no such file")
        return Response((_TEMPLATES / name).read_bytes(), media_type=f"{_STATIC[name]}; charset=utf-8",
                        headers={"Cache-Control": "no-cache"})

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

    @app.get("/entity/{path:path}", summary="an entity: HTML, or RDF by content negotiation",
             response_class=Response,
             openapi_extra={"parameters": [{"name": "format", "in": "query", "required": False,
                                            "schema": {"type": "string", "enum": ["turtle", "nt", "jsonld"]}}]})
    async def entity(request: Request, path: str) -> Response:
        raw = request.scope.get("raw_path") or quote(request.url.path).encode()
        rest = raw.decode("latin-1").split("/entity/", 1)[-1]
        try:
            node = ox.NamedNode(entity_prefix + rest)
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
        reply = await call({"op": "select", "queries": _entity_queries(str(node))})
        if isinstance(reply, Response):
            return reply
        if reply.status != 200:
            return _error(reply.status, reply.header.get("message", "the query failed"))
        info, events, roles, articles = json.loads(reply.body)
        if not (info or events or roles):
            return _error(404, f"no entity {node.value} in the store")
        html = _entity_html(node.value, info, events, roles, articles, entity_prefix)
        return HTMLResponse(html, headers={**headers, "Content-Security-Policy": PAGE_CSP})

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


def _entity_html(iri: str, info: list[dict[str, Any]], events: list[dict[str, Any]], roles: list[dict[str, Any]],
                 articles: list[dict[str, Any]], prefix: str) -> str:
    rdfs_label = "http://www.w3.org/2000/01/rdf-schema#label"
    alt = "http://www.w3.org/2004/02/skos/core#altLabel"
    rdf_type = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    labels = sorted({r["v"] for r in info if r["p"] == rdfs_label}, key=lambda s: (len(s), s))
    aliases = sorted({r["v"] for r in info if r["p"] == alt} | set(labels[1:]))
    types = sorted({_local(r["v"]) for r in info if r["p"] == rdf_type and (r["v"] or "").startswith(KG_NS)})

    def link(other: str | None) -> str | None:
        return "/entity/" + other[len(prefix):] if other and other.startswith(prefix) else None

    def event_row(e: dict[str, Any]) -> dict[str, Any]:
        return {**e, "link": link(e.get("other")), "otherName": e.get("otherLabel") or _local(e.get("other")),
                "modality": _local(e.get("modality")) or "asserted", "negated": e.get("negated") in ("true", "1"),
                "reporterName": e.get("reporterLabel") or _local(e.get("reporter")),
                "reporterLink": link(e.get("reporter"))}

    def of(kind: str) -> list[dict[str, Any]]:
        return [event_row(e) for e in _merge([e for e in events if e["as"] == kind], "event")]

    rows = [{**r, "link": link(r.get("other")), "otherName": r.get("otherLabel") or _local(r.get("other")),
             "former": r.get("former") in ("true", "1")} for r in _merge(roles, "m")]
    return _env().get_template("entity.html").render(
        iri=iri, label=labels[0] if labels else _local(iri), aliases=aliases, types=types,
        as_actor=of("actor"), as_target=of("target"), reported=of("reporter"),
        memberships=[r for r in rows if r["as"] == "member"], members=[r for r in rows if r["as"] == "organization"],
        articles=_merge(articles, "article"), version=__version__,
    )


# --- running it -----------------------------------------------------------------------------------


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror or err}; choose another --port "
                         "(0 picks a free one)") from err
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The http URL of a bound socket (IPv6 in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def connection_limits(limits: Limits = Limits()) -> dict[str, Any]:
    """uvicorn settings under which idle or slow clients hold no slot others need (``kg.serve.limits``):
    no cap on open connections as such (uvicorn's ``limit_concurrency`` answered 503 to everyone
    once 200 sockets were open), but a read deadline and caps that close the oldest idle ones."""
    return {"http": guarded_protocol(limits), "limit_concurrency": None, "h11_max_incomplete_event_size": limits.max_head}


def _exit_on_sigterm() -> None:
    """SIGTERM ends ``kg serve`` like a normal return: uvicorn finishes its requests, then raises the
    signal again with the handler it found, this one, so ``serve``'s cleanup (the workers, the
    socket) runs and the exit code is 0 instead of death by the signal."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(_sig: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)


def serve(config: ServeConfig, announce: Callable[[str, WorkerPool], None] | None = None) -> None:
    """Bind, start the workers, announce the URL, and answer until interrupted."""
    import uvicorn

    check_config(config)
    require_store(config.store)  # only kg build creates a store, --allow-update included
    _exit_on_sigterm()
    sock = _bind(config.host, config.port)
    pool = WorkerPool(config.store, size=config.workers, writer=config.allow_update)
    try:
        pool.start()
    except OSError as err:
        sock.close()
        if "lock" in str(err).lower():
            raise StoreLocked(f"store {config.store} is locked by another kg process (kg build?); --allow-update "
                              "needs it to itself; wait for it to finish or serve read-only") from err
        raise StoreError(f"cannot open store {config.store}: {err}") from err
    try:
        app = create_app(config, pool)
        server = uvicorn.Server(uvicorn.Config(
            app, log_level="warning", access_log=False, proxy_headers=False, server_header=False,
            lifespan="on", timeout_graceful_shutdown=3, timeout_keep_alive=5, **connection_limits()))
        if announce is not None:
            announce(url_of(sock), pool)
        else:
            print(f"kg serve: {url_of(sock)}", flush=True)
        server.run(sockets=[sock])
    finally:
        pool.close()
        sock.close()
        sys.stdout.flush()
