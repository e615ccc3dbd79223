"""What keeps a SPARQL request of ``kg serve`` local and bounded.

Oxigraph (pyoxigraph 0.5) follows ``SERVICE`` and ``LOAD`` to any address, has no query
timeout, and overflows its stack (the whole process dies with SIGSEGV) on deeply nested
or very long queries; rdflib's parser hits Python's recursion limit from about 30 nested
brackets. So a request goes through four layers:

1. ``kg.serve.sparql_text.canonical(text)`` — an exact SPARQL 1.1 lexer reads the text once and
   writes it again without comments or escapes (the *canonical* text, the only one checked and
   run: see that module); bracket depth at most ``MAX_DEPTH``, at most ``MAX_OPERATORS``
   tokens that deepen the algebra (operators, ``{``, ``UNION``, ``OPTIONAL``...), and no word
   that starts like ``SERVICE`` or ``LOAD``. Cheap: the server runs it (``scan``) before
   anything else, and the worker again to get the text it checks and runs.
2. ``check(text, update)`` — rdflib's SPARQL parser over the canonical text; the parse tree is
   walked for ``ServiceGraphPattern`` and ``Load``. It also gives the query form and what
   ``kg.serve.dataset`` needs (FROM / FROM NAMED, the functions called). It runs in a worker,
   under the timeout, because parsing pathological text can take seconds. FROM, FROM NAMED and
   USING are allowed: they choose graphs of the store, and Oxigraph never fetches them.
   Oxigraph then runs the canonical text.
3. A worker process (``python -m kg.serve.worker``) opens the store read-only
   (``pyoxigraph.Store.read_only``; one read-write worker when updates are allowed), drops
   its network (``kg.serve.sandbox``: a network namespace where the kernel allows it, and a seccomp
   filter that refuses IPv4/IPv6 sockets), evaluates in a
   thread with a 512 MB stack, caps result rows, and serializes the answer.
4. ``WorkerPool`` — in the server: a few read workers and an optional writer; a request
   that runs past the timeout gets its worker killed (SIGKILL) and replaced while the
   other workers keep answering.

Measured on the 2-core development machine (pyoxigraph 0.5.13): a read-only open beside a
live writer works and sees the writes made before it (15 ms on a small store); it does not
see later writes, so a worker re-opens when the store's CURRENT, MANIFEST or WAL files
change (and again, up to five times, when a read fails because compaction removed a file). On the
main 8 MB stack Oxigraph dies between 1,000 and 50,000 chained operators (``!``, ``+``, ``||``,
``UNION``, ``/``, ``BIND``...) or at 10,000 nested groups; on a 256 MB stack 20,000 of each kind
passed (the worker has 512 MB). Nested collections ``((( )))`` parse in cubic time: 130 ms at
depth 64, over a minute at 1,000.
"""
from __future__ import annotations

import csv
import io
import json
import os
import queue
import re
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from .sandbox import SANDBOX_ENV, sandbox
from .dataset import Dataset, Inspected, engine_options, inspect_tree, repair_rdflib_parser, unknown_function
from .sparql_text import FORBIDDEN, MAX_DEPTH, MAX_OPERATORS, Rejected, canonical, scan

__all__ = [
    "MAX_DEPTH", "MAX_OPERATORS", "Rejected", "scan", "canonical", "check", "WorkerPool", "Reply",
    "QueryTimeout", "PoolBusy", "WorkerCrashed", "RESULT_TYPES", "GRAPH_TYPES", "store_fingerprint", "SANDBOX_ENV",
]

#: Stack of the worker thread that parses and evaluates.
WORKER_STACK = 512 * 1024 * 1024

#: media type -> result format name, for SELECT/ASK (server preference first).
RESULT_TYPES: dict[str, str] = {
    "application/sparql-results+json": "json",
    "application/sparql-results+xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
#: media type -> RDF format name, for CONSTRUCT/DESCRIBE and graph reads.
GRAPH_TYPES: dict[str, str] = {
    "text/turtle": "turtle",
    "application/n-triples": "nt",
    "application/ld+json": "jsonld",
    "application/rdf+xml": "rdfxml",
}
# --- 2. the parse check (runs in a worker) ------------------------------------------------

_PARSE_FORBIDDEN = {
    "ServiceGraphPattern": FORBIDDEN["SERVICE"],
    "Load": FORBIDDEN["LOAD"],
}
_FORMS = {"SelectQuery": "select", "AskQuery": "ask", "ConstructQuery": "construct", "DescribeQuery": "describe"}


def _walk(tree: Any) -> Iterable[str]:
    """Names of every CompValue in an rdflib parse tree (iterative: trees can be deep)."""
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue

    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CompValue):
            yield node.name
            stack.extend(node.values())
        elif isinstance(node, (list, tuple, ParseResults)):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())


def check(text: str, update: bool = False) -> str:
    """Parse with rdflib and refuse SERVICE and LOAD; the query form.

    Returns ``"select"``, ``"ask"``, ``"construct"``, ``"describe"`` or ``"update"``.
    """
    return inspect(text, update)[0]


def inspect(text: str, update: bool = False) -> tuple[str, Inspected]:
    """``check``, and what the parse tree says of the dataset and the functions called. The
    answers for short texts are remembered (rdflib takes ~10 ms for a canned query)."""
    if len(text) <= 20_000:
        return _check_short(text, update)
    return _check(text, update)


@lru_cache(maxsize=512)
def _check_short(text: str, update: bool) -> tuple[str, Inspected]:
    return _check(text, update)


def _check(text: str, update: bool) -> tuple[str, Inspected]:
    from pyparsing import ParseBaseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    repair_rdflib_parser()
    what = "update" if update else "query"
    try:
        tree = parseUpdate(text) if update else parseQuery(text)
    except ParseBaseException as err:
        raise Rejected(f"the {what} does not parse: {_one_line(str(err))}") from None
    except RecursionError:
        raise Rejected(f"the {what} is nested too deep to parse") from None
    except (ValueError, TypeError, AttributeError, IndexError, KeyError) as err:
        raise Rejected(f"the {what} does not parse: {_one_line(str(err)) or type(err).__name__}") from None
    form = "update"
    for name in _walk(tree):
        if name in _PARSE_FORBIDDEN:
            raise Rejected(_PARSE_FORBIDDEN[name])
        if not update and name in _FORMS and form == "update":
            form = _FORMS[name]
    if not update and form == "update":
        raise Rejected("the query is not a SELECT, ASK, CONSTRUCT or DESCRIBE query")
    return form, inspect_tree(tree)


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- result writers (in the worker) -------------------------------------------------------

_XSD = "http://www.w3.org/2001/XMLSchema#"
_XSD_STRING = _XSD + "string"
_BARE = {
    _XSD + "integer": re.compile(r"[+-]?[0-9]+"),
    _XSD + "decimal": re.compile(r"[+-]?[0-9]*\.[0-9]+"),
    _XSD + "double": re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.?[0-9]+)[eE][+-]?[0-9]+"),
    _XSD + "boolean": re.compile(r"true|false"),
}


def _json_term(t: Any) -> dict[str, Any]:
    import pyoxigraph as ox

    if isinstance(t, ox.NamedNode):
        return {"type": "uri", "value": t.value}
    if isinstance(t, ox.BlankNode):
        return {"type": "bnode", "value": t.value}
    if isinstance(t, ox.Literal):
        out: dict[str, Any] = {"type": "literal", "value": t.value}
        if t.language:
            out["xml:lang"] = t.language
        elif t.datatype.value != _XSD_STRING:
            out["datatype"] = t.datatype.value
        return out
    return {"type": "triple", "value": {"subject": _json_term(t.subject), "predicate": _json_term(t.predicate),
                                        "object": _json_term(t.object)}}


def _xml_term(t: Any) -> str:
    import pyoxigraph as ox

    if isinstance(t, ox.NamedNode):
        return f"<uri>{xml_escape(t.value)}</uri>"
    if isinstance(t, ox.BlankNode):
        return f"<bnode>{xml_escape(t.value)}</bnode>"
    if isinstance(t, ox.Literal):
        if t.language:
            attr = f" xml:lang={quoteattr(t.language)}"
        elif t.datatype.value != _XSD_STRING:
            attr = f" datatype={quoteattr(t.datatype.value)}"
        else:
            attr = ""
        return f"<literal{attr}>{xml_escape(t.value)}</literal>"
    return (f"<triple><subject>{_xml_term(t.subject)}</subject><predicate>{_xml_term(t.predicate)}</predicate>"
            f"<object>{_xml_term(t.object)}</object></triple>")


def _csv_value(t: Any) -> str:
    import pyoxigraph as ox

    if t is None:
        return ""
    if isinstance(t, ox.BlankNode):
        return f"_:{t.value}"
    if isinstance(t, (ox.NamedNode, ox.Literal)):
        return t.value
    return str(t)


def _tsv_value(t: Any) -> str:
    import pyoxigraph as ox

    if t is None:
        return ""
    if isinstance(t, ox.Literal) and not t.language:
        bare = _BARE.get(t.datatype.value)
        if bare is not None and bare.fullmatch(t.value):
            return t.value
    return str(t).replace("\t", "\\t")


def write_solutions(variables: list[str], rows: list[list[Any]], fmt: str) -> bytes:
    """SELECT results in the SPARQL 1.1 JSON, XML, CSV or TSV format (UTF-8)."""
    if fmt == "json":
        bindings = [{v: _json_term(t) for v, t in zip(variables, row) if t is not None} for row in rows]
        doc = {"head": {"vars": variables}, "results": {"bindings": bindings}}
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if fmt == "xml":
        out = ['<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>']
        out += [f"<variable name={quoteattr(v)}/>" for v in variables]
        out.append("</head><results>")
        for row in rows:
            out.append("<result>")
            out += [f"<binding name={quoteattr(v)}>{_xml_term(t)}</binding>"
                    for v, t in zip(variables, row) if t is not None]
            out.append("</result>")
        out.append("</results></sparql>")
        return "".join(out).encode("utf-8")
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\r\n")
        writer.writerow(variables)
        writer.writerows([_csv_value(t) for t in row] for row in rows)
        return buf.getvalue().encode("utf-8")
    if fmt == "tsv":
        lines = ["\t".join("?" + v for v in variables)]
        lines += ["\t".join(_tsv_value(t) for t in row) for row in rows]
        return ("\n".join(lines) + "\n").encode("utf-8")
    raise ValueError(fmt)


def write_boolean(value: bool, fmt: str) -> bytes:
    """ASK results in the SPARQL 1.1 JSON or XML format (CSV/TSV: ``true`` or ``false``)."""
    word = "true" if value else "false"
    if fmt == "json":
        return b'{"head":{},"boolean":' + word.encode() + b"}"
    if fmt == "xml":
        return (f'<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head></head>'
                f"<boolean>{word}</boolean></sparql>").encode()
    return word.encode()


def write_triples(triples: list[Any], fmt: str) -> bytes:
    """Triples as Turtle (with kg's prefixes), N-Triples or JSON-LD."""
    import pyoxigraph as ox

    from ..model.vocab import PREFIXES

    if fmt == "turtle":
        iris = set()
        for t in triples:
            for term in (t.subject, t.predicate, t.object):
                if isinstance(term, ox.NamedNode):
                    iris.add(term.value)
                elif isinstance(term, ox.Literal):
                    iris.add(term.datatype.value)
        used = {p: ns for p, ns in PREFIXES.items() if any(i.startswith(ns) for i in iris)}
        return ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=used) or b""
    if fmt == "nt":
        return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
    if fmt == "rdfxml":
        return write_rdfxml(triples)
    return ox.serialize(triples, format=ox.RdfFormat.JSON_LD) or b"[]"


#: The longest end of an IRI that can be an XML element's local name (an NCName, roughly).
_NCNAME_END = re.compile(r"[^\W\d][\w.\-\u00b7]*$")


def write_rdfxml(triples: list[Any]) -> bytes:
    """Triples as RDF/XML (rdflib's ``SPARQLStore`` asks for it). RDF/XML writes a predicate as an
    element name, so a predicate IRI that does not end in a name (``http://e/p/1``) cannot be
    written: ``Rejected`` (406) says so, where pyoxigraph would write a malformed element."""
    import pyoxigraph as ox

    from ..model.vocab import PREFIXES

    for t in triples:
        if not _NCNAME_END.search(t.predicate.value):
            raise Rejected(f"RDF/XML cannot write the predicate <{t.predicate.value}> (it does not end in a name); "
                           "ask for Turtle, N-Triples or JSON-LD", 406)
    used = {p: ns for p, ns in PREFIXES.items() if any(t.predicate.value.startswith(ns) for t in triples)}
    return ox.serialize(triples, format=ox.RdfFormat.RDF_XML, prefixes=used) or b""


# --- the wire between the server and a worker ----------------------------------------------

_FRAME = struct.Struct(">II")
MAX_FRAME = 1 << 30


class ProtocolError(Exception):
    """A worker sent something that is not a frame (it crashed or wrote to stdout)."""


def _write_frame(fd: int, header: dict[str, Any], body: bytes = b"") -> None:
    head = json.dumps(header, ensure_ascii=False).encode("utf-8")
    data = memoryview(_FRAME.pack(len(head), len(body)) + head + body)
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes:
    import select

    chunks: list[bytes] = []
    while n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError("the pipe was closed")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _read_frame(fd: int, deadline: float | None = None) -> tuple[dict[str, Any], bytes]:
    head_len, body_len = _FRAME.unpack(_read_exact(fd, _FRAME.size, deadline))
    if head_len > MAX_FRAME or body_len > MAX_FRAME:
        raise ProtocolError("frame too large")
    try:
        header = json.loads(_read_exact(fd, head_len, deadline))
    except ValueError as err:
        raise ProtocolError(str(err)) from err
    return header, _read_exact(fd, body_len, deadline)


# --- 3. the worker process ------------------------------------------------------------------


def store_fingerprint(path: str | Path) -> tuple[tuple[str, int, int], ...]:
    """Names, sizes and mtimes of the files that change when RocksDB commits (not the info LOG)."""
    out = []
    try:
        entries = list(os.scandir(path))
    except OSError:
        return ()
    for e in entries:
        name = e.name
        if name == "CURRENT" or name.startswith("MANIFEST-") or (name.endswith(".log") and name[:-4].isdigit()):
            try:
                st = e.stat()
            except OSError:
                continue
            out.append((name, st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


_STORAGE_ERRORS = ("Corruption", "IO error", "No such file")


class _Worker:
    """The loop of a worker process: read a request frame, answer with one frame."""

    def __init__(self, path: str, mode: str, out_fd: int) -> None:
        self.path = path
        self.mode = mode
        self.out_fd = out_fd
        self.store: Any = None
        self.fingerprint: tuple[tuple[str, int, int], ...] = ()

    def open(self) -> None:
        import pyoxigraph as ox

        if self.mode == "write":
            Path(self.path).mkdir(parents=True, exist_ok=True)
            self.store = ox.Store(self.path)
        else:
            self.fingerprint = store_fingerprint(self.path)
            self.store = ox.Store.read_only(self.path)

    def fresh(self, force: bool = False) -> None:
        if self.mode == "read":
            fp = store_fingerprint(self.path)
            if force or fp != self.fingerprint or self.store is None:
                self.store = None
                self.open()

    def loop(self, in_fd: int) -> None:
        while True:
            try:
                header, body = _read_frame(in_fd)
            except (EOFError, ProtocolError):
                self.close()
                return
            try:
                reply, data = self.handle(header, body)
            except Rejected as err:
                reply, data = {"status": err.status, "message": err.message}, b""
            except SyntaxError as err:
                reply, data = {"status": 400, "message": f"the query does not parse: {_one_line(str(err))}"}, b""
            except OSError as err:
                reply, data = {"status": 503, "message": f"the store could not be read: {_one_line(str(err))}"}, b""
            except (ValueError, TypeError, RuntimeError) as err:
                reply, data = {"status": 400, "message": _one_line(str(err)) or type(err).__name__}, b""
            _write_frame(self.out_fd, reply, data)

    def close(self) -> None:
        """Let go of the store and of every pyoxigraph object on this thread, the one that made them:
        pyoxigraph's query results may only be dropped by their own thread, and the interpreter
        would otherwise free those kept in reference cycles (an error's traceback) on the main
        thread at exit, printing "PyQuerySolutions is unsendable" for each."""
        import gc

        self.store = None
        gc.collect()

    def handle(self, req: dict[str, Any], body: bytes) -> tuple[dict[str, Any], bytes]:
        """Answer one request. A read-only handle can lose a race with the writer's compaction
        (an SST file it was told about is already gone): re-open and try again, a few times."""
        if req.get("op") == "ping":
            return {"status": 200}, b""
        attempts = 6 if self.mode == "read" else 1
        for attempt in range(attempts):
            try:
                self.fresh(force=attempt > 0)
                return self.dispatch(req, body)
            except (Rejected, SyntaxError):
                raise
            except (OSError, ValueError, RuntimeError) as err:
                text = str(err)
                storage = isinstance(err, OSError) or any(w in text for w in _STORAGE_ERRORS)
                if not storage or attempt == attempts - 1:
                    raise
                self.store = None
                time.sleep(0.02 * 2**attempt)
        raise AssertionError("unreachable")

    def dispatch(self, req: dict[str, Any], body: bytes) -> tuple[dict[str, Any], bytes]:
        import pyoxigraph as ox

        op = req.get("op")
        if op == "query":
            return self.query(req)
        if op == "select":  # trusted, server-built queries: rows of plain values
            out = []
            for text in req["queries"]:
                res = self.store.query(text, use_default_graph_as_union=True)
                names = [v.value for v in res.variables]
                out.append([{n: (None if s[n] is None else s[n].value) for n in names} for s in res])
            return {"status": 200}, json.dumps(out, ensure_ascii=False).encode("utf-8")
        if op == "construct":  # trusted
            triples = list(self.store.query(req["text"], use_default_graph_as_union=True))
            return {"status": 200 if triples else 404, "count": len(triples)}, write_triples(triples, req["format"])
        if op == "graph_get":
            if not req.get("graph"):
                return self.union_graph(req)
            named = ox.NamedNode(req["graph"])
            if not self.store.contains_named_graph(named):
                return {"status": 404, "message": f"no graph {req['graph']} in the store"}, b""
            triples = []
            for q in self.store.quads_for_pattern(None, None, None, named):
                if len(triples) >= req["max_rows"]:
                    return {"status": 200, "truncated": True}, write_triples(triples, req["format"])
                triples.append(ox.Triple(q.subject, q.predicate, q.object))
            return {"status": 200, "truncated": False}, write_triples(triples, req["format"])
        if self.mode != "write":
            raise Rejected("this worker is read-only", 403)
        if op == "update":
            text = canonical(req["text"], update=True)  # what is checked is what runs
            check(text, update=True)
            self.store.update(text, base_iri=req.get("base"))
            self.store.flush()
            return {"status": 204}, b""
        if op == "graph_put":
            g = ox.NamedNode(req["graph"]) if req.get("graph") else ox.DefaultGraph()
            fmt = {"text/turtle": ox.RdfFormat.TURTLE, "application/n-triples": ox.RdfFormat.N_TRIPLES}[req["format"]]
            base = req["graph"] or req.get("base")
            quads = [ox.Quad(t.subject, t.predicate, t.object, g)
                     for t in ox.parse(body, format=fmt, base_iri=base, without_named_graphs=True)]
            existed = isinstance(g, ox.DefaultGraph) or self.store.contains_named_graph(g)
            if req.get("replace"):
                if isinstance(g, ox.DefaultGraph):
                    self.store.clear_graph(g)
                elif existed:
                    self.store.remove_graph(g)
            if isinstance(g, ox.NamedNode):
                self.store.add_graph(g)
            self.store.extend(quads)
            self.store.flush()
            return {"status": 204 if existed else 201}, b""
        if op == "graph_delete":
            if req.get("graph"):
                g = ox.NamedNode(req["graph"])
                if not self.store.contains_named_graph(g):
                    return {"status": 404, "message": f"no graph {req['graph']} in the store"}, b""
                self.store.remove_graph(g)
            else:
                self.store.clear_graph(ox.DefaultGraph())
            self.store.flush()
            return {"status": 204}, b""
        raise Rejected(f"unknown operation {op!r}")

    def union_graph(self, req: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
        """The Graph Store's default graph: the union of every graph, each triple once, as the
        default graph that queries see (up to ``max_rows`` triples)."""
        import pyoxigraph as ox

        seen: dict[Any, None] = {}  # ordered, each triple once
        for q in self.store.quads_for_pattern(None, None, None, None):
            triple = ox.Triple(q.subject, q.predicate, q.object)
            if triple in seen:
                continue
            if len(seen) >= req["max_rows"]:
                return {"status": 200, "truncated": True}, write_triples(list(seen), req["format"])
            seen[triple] = None
        return {"status": 200, "truncated": False}, write_triples(list(seen), req["format"])

    def query(self, req: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
        import pyoxigraph as ox

        text = canonical(req["text"])  # what is checked is what runs
        form, seen = inspect(text)
        base = req.get("base")
        missing = unknown_function(seen.functions, base)
        if missing is not None:
            raise Rejected(f"the query calls the extension function <{missing}>, which this endpoint does not "
                           "implement (Oxigraph: the SPARQL 1.1 functions and the XSD casts)")
        media = req.get("results") if form in ("select", "ask") else req.get("graph")
        if not media:
            kinds = "SPARQL results" if form in ("select", "ask") else "RDF"
            offered = RESULT_TYPES if form in ("select", "ask") else GRAPH_TYPES
            return {"status": 406, "message": f"a {form.upper()} query gives {kinds}; the Accept header allows none of "
                                              f"{', '.join(offered)}"}, b""
        dataset = Dataset(tuple(req["dataset"]["default"]), tuple(req["dataset"]["named"])) if req.get("dataset") else None
        res = self.store.query(text, **engine_options(dataset, seen.dataset_clause, base))
        cap = int(req["max_rows"])
        head: dict[str, Any] = {"status": 200, "type": media, "form": form, "truncated": False}
        if isinstance(res, ox.QueryBoolean):
            return head, write_boolean(bool(res), RESULT_TYPES[media])
        items: list[Any] = []
        if isinstance(res, ox.QuerySolutions):
            variables = [v.value for v in res.variables]
            for sol in res:
                if len(items) >= cap:
                    head["truncated"] = True
                    break
                items.append([sol[v] for v in variables])
            head["count"] = len(items)
            return head, write_solutions(variables, items, RESULT_TYPES[media])
        for triple in res:
            if len(items) >= cap:
                head["truncated"] = True
                break
            items.append(triple)
        head["count"] = len(items)
        return head, write_triples(items, GRAPH_TYPES[media])


def _worker_main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m kg.serve.worker", description="a kg serve query worker")
    parser.add_argument("--store", required=True)
    parser.add_argument("--mode", choices=("read", "write"), default="read")
    args = parser.parse_args(argv)
    isolation = sandbox()  # before any thread starts: the threads inherit the seccomp filter
    out_fd = os.dup(1)  # the reply pipe; anything printed by mistake goes to stderr instead
    os.dup2(2, 1)
    in_fd = 0
    parent = os.getppid()

    def watchdog() -> None:  # die with the server, even in the middle of a long query
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watchdog, name="kg-watchdog", daemon=True).start()
    sys.setrecursionlimit(100_000)
    threading.stack_size(WORKER_STACK)
    worker = _Worker(args.store, args.mode, out_fd)

    def run() -> None:
        try:
            worker.open()
            from rdflib.plugins.sparql import parser  # noqa: F401  (load the grammar before the first query)
        except OSError as err:
            _write_frame(out_fd, {"ready": False, "message": _one_line(str(err))})
            return
        _write_frame(out_fd, {"ready": True, "sandboxed": bool(isolation), "isolation": isolation,
                              "pid": os.getpid()})
        worker.loop(in_fd)

    thread = threading.Thread(target=run, name="kg-worker")
    thread.start()
    thread.join()
    return 0


# --- 4. the pool (in the server) -------------------------------------------------------------


class QueryTimeout(Exception):
    """The request ran past the timeout; its worker was killed."""


class PoolBusy(Exception):
    """Every worker stayed busy for the whole timeout."""


class WorkerCrashed(Exception):
    """The worker died while answering (the request is the likely cause)."""


@dataclass
class Reply:
    """A worker's answer: ``header['status']`` and, for 200, ``header['type']`` and the body."""

    header: dict[str, Any]
    body: bytes

    @property
    def status(self) -> int:
        return int(self.header.get("status", 500))


class _Proc:
    def __init__(self, store: str, mode: str, start_timeout: float) -> None:
        import kg

        env = dict(os.environ)
        root = str(Path(kg.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kg.serve.worker", "--store", store, "--mode", mode],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.wfd = self.proc.stdin.fileno()
        self.rfd = self.proc.stdout.fileno()
        try:
            hello, _ = _read_frame(self.rfd, time.monotonic() + start_timeout)
        except (TimeoutError, EOFError, ProtocolError, OSError) as err:
            self.kill()
            raise OSError(f"the query worker did not start ({type(err).__name__})") from err
        if not hello.get("ready"):
            self.kill()
            raise OSError(hello.get("message") or "the query worker could not open the store")
        self.sandboxed = bool(hello.get("sandboxed"))

    def ask(self, header: dict[str, Any], body: bytes, timeout: float) -> Reply:
        _write_frame(self.wfd, header, body)
        h, b = _read_frame(self.rfd, time.monotonic() + timeout)
        return Reply(h, b)

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


class WorkerPool:
    """``size`` read-only workers (and one writer if ``writer``) over the store at ``path``.

    ``run(request)`` blocks (call it from a thread): it waits up to ``timeout`` for an idle
    worker (``PoolBusy``), then up to ``timeout`` for the answer; past that the worker is
    killed and a new one started in the background (``QueryTimeout``).
    """

    def __init__(self, path: str | Path, size: int = 2, writer: bool = False, start_timeout: float = 60.0) -> None:
        self.path = str(path)
        self.size = size
        self.writer = writer
        self.start_timeout = start_timeout
        self._idle: dict[str, queue.Queue[_Proc]] = {"read": queue.Queue(), "write": queue.Queue()}
        self._all: set[_Proc] = set()
        self._lock = threading.Lock()
        self._closed = False
        self.sandboxed = False
        self.restarts = 0

    def start(self) -> None:
        """Start every worker; ``OSError`` with the worker's message if the store cannot be opened."""
        if self.writer:  # first: it creates a missing store, and the readers need one
            self._add("write")
        procs: list[_Proc] = []
        errors: list[BaseException] = []

        def one() -> None:
            try:
                procs.append(self._spawn("read"))
            except OSError as err:
                errors.append(err)

        threads = [threading.Thread(target=one) for _ in range(self.size)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for p in procs:
            self._idle["read"].put(p)
        if errors:
            self.close()
            raise errors[0]
        self.sandboxed = all(p.sandboxed for p in self._all)

    def _spawn(self, mode: str) -> _Proc:
        proc = _Proc(self.path, mode, self.start_timeout)
        with self._lock:
            if self._closed:
                proc.kill()
                raise OSError("the pool is closed")
            self._all.add(proc)
        return proc

    def _add(self, mode: str) -> None:
        self._idle[mode].put(self._spawn(mode))

    def _replace(self, proc: _Proc, mode: str) -> None:
        with self._lock:
            self._all.discard(proc)
            self.restarts += 1
        proc.kill()

        def respawn() -> None:
            delay = 0.2
            while not self._closed:
                try:
                    self._add(mode)
                    return
                except OSError as err:
                    print(f"kg serve: could not restart a query worker: {err}", file=sys.stderr)
                    time.sleep(delay)
                    delay = min(delay * 2, 5.0)

        threading.Thread(target=respawn, name="kg-respawn", daemon=True).start()

    def run(self, header: dict[str, Any], body: bytes = b"", timeout: float = 30.0, write: bool = False) -> Reply:
        mode = "write" if write else "read"
        if write and not self.writer:
            raise Rejected("updates are disabled", 403)
        try:
            proc = self._idle[mode].get(timeout=timeout)
        except queue.Empty:
            raise PoolBusy(f"all query workers stayed busy for {timeout:g} s") from None
        try:
            reply = proc.ask(header, body, timeout)
        except TimeoutError:
            self._replace(proc, mode)
            raise QueryTimeout(f"stopped after {timeout:g} s") from None
        except (EOFError, ProtocolError, OSError) as err:
            self._replace(proc, mode)
            raise WorkerCrashed(str(err)) from None
        self._idle[mode].put(proc)
        return reply

    def close(self) -> None:
        """Kill every worker (busy ones too)."""
        with self._lock:
            self._closed = True
            procs = list(self._all)
            self._all.clear()
        for p in procs:
            p.kill()


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
