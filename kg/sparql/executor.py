"""What a query worker does with a request (``Executor``): check it (``kg.sparql.guard``), run it on
the store it opened read-only (one read-write executor when updates are allowed), cap a SELECT's rows
(a graph is whole or an error, never cut), and write the answer (``kg.sparql.results``).
``kg.sparql.worker`` runs one in a process of its own for ``kg serve``, ``kg query`` and
``kg.api.query``; ``kg.sparql.remote`` is the same over a SPARQL server.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from .dataset import Dataset, Inspected, engine_options, unknown_function
from .frames import ProtocolError, read_frame, write_frame
from .guard import _one_line, check, inspect
from .lexer import Rejected, canonical
from .results import GRAPH_TYPES, RESULT_TYPES, write_boolean, write_solutions, write_triples


#: Seconds after which the store on a SPARQL server counts as changed (it has no files to watch).
SERVER_FRESH = 60


def store_fingerprint(path: str | Path) -> tuple[tuple[str, int, int], ...]:
    """Names, sizes and mtimes of the files that change when RocksDB commits (not the info LOG); for
    a server's URL, the current span of ``SERVER_FRESH`` seconds (``/view`` is drawn again after it)."""
    if "://" in str(path):
        return (("server", int(time.time() // SERVER_FRESH), 0),)
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

#: The status of an answer that needed more memory than a worker may take (WebDAV's Insufficient Storage).
MEMORY_STATUS = 507


def memory_message(limit: int | None) -> str:
    """What a client is told when its request hit the worker's memory limit (``limit`` MB, or none known)."""
    size = f"the limit of {limit} MB per query worker" if limit else "the memory the query worker has"
    return (f"the query needed more than {size} (--max-memory) and was stopped; the worker was replaced. "
            "Make it more selective, or raise --max-memory")


class Executor:
    """The loop of a worker process over an Oxigraph directory: read a request frame, answer with one frame."""

    def __init__(self, path: str, mode: str, out_fd: int, allow_service: bool = False,
                 max_memory: int | None = None) -> None:
        self.path = path
        self.mode = mode
        self.out_fd = out_fd
        self.allow_service = allow_service  # kg query --allow-service: SERVICE runs (the worker has its network)
        self.max_memory = max_memory  # MB a query may take (the worker's limit), for the message
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
                header, body = read_frame(in_fd)
            except (EOFError, ProtocolError):
                self.close()
                return
            try:
                reply, data = self.handle(header, body)
            except Rejected as err:
                reply, data = {"status": err.status, "message": err.message}, b""
            except MemoryError:
                reply, data = {"status": MEMORY_STATUS, "message": memory_message(self.max_memory),
                               "restart": True}, b""
            except SyntaxError as err:
                reply, data = {"status": 400, "message": f"the query does not parse: {_one_line(str(err))}"}, b""
            except OSError as err:  # with SERVICE allowed, it may be the other endpoint that failed
                what = "the query failed" if self.allow_service else "the store could not be read"
                reply, data = {"status": 503, "message": f"{what}: {_one_line(str(err))}"}, b""
            except (ValueError, TypeError, RuntimeError) as err:
                reply, data = {"status": 400, "message": _one_line(str(err)) or type(err).__name__}, b""
            write_frame(self.out_fd, reply, data)

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
            except (Rejected, SyntaxError, MemoryError):
                raise
            except (OSError, ValueError, RuntimeError) as err:
                text = str(err)
                storage = isinstance(err, OSError) or any(w in text for w in _STORAGE_ERRORS)
                if not storage or attempt == attempts - 1:
                    raise
                self.store = None
                time.sleep(0.02 * 2**attempt)
        raise AssertionError("unreachable")

    def dispatch(self, req: dict[str, Any], body: bytes) -> tuple[dict[str, Any], bytes]:  # noqa: C901 (20): one branch per worker operation
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
            triples = [ox.Triple(q.subject, q.predicate, q.object)
                       for q in self.store.quads_for_pattern(None, None, None, named)]
            return {"status": 200, "count": len(triples)}, write_triples(triples, req["format"])
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
        default graph that queries see; all of it (the timeout and the memory limit bound it)."""
        import pyoxigraph as ox

        seen = dict.fromkeys(ox.Triple(q.subject, q.predicate, q.object)
                             for q in self.store.quads_for_pattern(None, None, None, None))  # ordered, each once
        return {"status": 200, "count": len(seen)}, write_triples(list(seen), req["format"])

    def refuse(self, seen: Inspected, dataset: Dataset | None, base: str | None) -> None:
        """Refuse (``Rejected``) what the store cannot run as asked, before anything runs."""
        missing = unknown_function(seen.functions, base)
        if missing is not None:
            raise Rejected(f"the query calls the extension function <{missing}>, which this endpoint does not "
                           "implement (Oxigraph: the SPARQL 1.1 functions and the XSD casts)")

    def evaluate(self, text: str, seen: Inspected, dataset: Dataset | None, base: str | None,
                 whole: bool = False) -> tuple[Any, bool]:
        """Run the checked text: pyoxigraph's result, and whether the store itself cut it short (never
        here); ``whole``: a store that cuts answers refuses to instead."""
        return self.store.query(text, **engine_options(dataset, seen.dataset_clause, base)), False

    def query(self, req: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
        """A request's query: canonical text, checked, refused or run, written in the media asked for;
        a SELECT's rows capped at ``max_rows`` (0: no cap), a graph always whole."""
        import pyoxigraph as ox

        text = canonical(req["text"], allow_service=self.allow_service)  # what is checked is what runs
        form, seen = inspect(text, allow_service=self.allow_service)
        base = req.get("base")
        dataset = Dataset(tuple(req["dataset"]["default"]), tuple(req["dataset"]["named"])) if req.get("dataset") else None
        self.refuse(seen, dataset, base)
        media = req.get("results") if form in ("select", "ask") else req.get("graph")
        if not media:
            kinds = "SPARQL results" if form in ("select", "ask") else "RDF"
            offered = RESULT_TYPES if form in ("select", "ask") else GRAPH_TYPES
            return {"status": 406, "message": f"a {form.upper()} query gives {kinds}; the Accept header allows none of "
                                              f"{', '.join(offered)}"}, b""
        graph = form in ("construct", "describe")
        res, cut = self.evaluate(text, seen, dataset, base, bool(req.get("whole")) or graph)
        cap = int(req.get("max_rows") or 0) or None
        head: dict[str, Any] = {"status": 200, "type": media, "form": form, "truncated": cut}
        if isinstance(res, ox.QueryBoolean):
            return head, write_boolean(bool(res), RESULT_TYPES[media])
        items: list[Any] = []
        if isinstance(res, ox.QuerySolutions):
            variables = [v.value for v in res.variables]
            for sol in res:
                if cap is not None and len(items) >= cap:
                    head["truncated"] = True
                    break
                items.append([sol[v] for v in variables])
            head["count"] = len(items)
            link = req.get("link") if head["truncated"] else None  # where the results say they were cut
            return head, write_solutions(variables, items, RESULT_TYPES[media], link)
        items = list(res)  # a graph is whole: cutting it would give a client part of a graph as if it were all
        head["count"] = len(items)
        return head, write_triples(items, GRAPH_TYPES[media])
