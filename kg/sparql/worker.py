"""A query worker of ``kg serve`` (``python -m kg.sparql.worker``): a process that opens the store
read-only (one read-write worker when updates are allowed), drops its network (``kg.sparql.sandbox``),
checks each request (``kg.sparql.guard``), evaluates it in a thread with a 512 MB stack, caps the rows,
and writes the answer (``kg.sparql.results``), framed on its standard output.
"""
from __future__ import annotations

import json
import os
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Any

from .dataset import Dataset, engine_options, unknown_function
from .guard import _one_line, check, inspect
from .lexer import Rejected, canonical
from .results import GRAPH_TYPES, RESULT_TYPES, write_boolean, write_solutions, write_triples
from .sandbox import sandbox

#: Stack of the worker thread that parses and evaluates.
WORKER_STACK = 512 * 1024 * 1024


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

    parser = argparse.ArgumentParser(prog="python -m kg.sparql.worker", description="a kg serve query worker")
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


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
