"""The query worker of ``kg serve --store sparql+http://...``: the same checks, row cap and answers as
over a directory (``kg.sparql.executor``), with the store opened by ``kg.store.open_store`` and every
query sent through the ``Store`` protocol to the SPARQL server, which evaluates it.

What differs, and why:

- read-only: the server takes writes itself (``kg build --store URL``), so updates and Graph Store
  writes are refused (``kg serve`` refuses ``--allow-update`` with a server store before it starts);
- the dataset is kg's graphs on the server (``SparqlHttpStore``): their union is the default graph
  and ``GRAPH <g>`` reads one of them. The dataset parameters (``default-graph-uri``,
  ``named-graph-uri``) choose among kg's graphs only: another IRI is an empty graph, as over a
  directory, so no request reads the server's other graphs. ``FROM`` and ``FROM NAMED`` in the
  query are refused with a 400 (the server would read them as written);
- the functions a query calls are the server's to judge (its own errors come back as a 400);
- the worker is not network-isolated (it must reach the server); ``SERVICE`` and ``LOAD`` are still
  refused by the guard before anything is sent. The pool's timeout kills the worker, which closes
  the connection; the server's own time limit bounds what it does after that.
"""
from __future__ import annotations

import json
import time
from typing import Any

from ..errors import QueryError, StoreError
from ..store import open_store
from .dataset import Dataset, Inspected
from .executor import Executor
from .lexer import Rejected
from .results import write_triples

#: Seconds for which the list of kg's graphs on the server is trusted; then it is read again, so a
#: build that writes to the server meanwhile is seen.
GRAPHS_FRESH = 5.0


class RemoteExecutor(Executor):
    """An ``Executor`` whose store is a SPARQL server (``kg.store.sparql_http``), read-only."""

    def __init__(self, path: str, mode: str, out_fd: int, base: str | None = None) -> None:
        super().__init__(path, mode, out_fd)
        self.base = base
        self.graphs: set[str] = set()
        self.listed = 0.0

    def open(self) -> None:
        if self.mode != "read":
            raise StoreError("a SPARQL server is served read-only: write to it with kg build --store URL")
        store = open_store(self.path, self.base, read_only=True)
        if hasattr(store, "attempts"):
            store.attempts = 1  # a failure is said at once; the pool's timeout bounds the wait
        self.store = store
        self.fresh(force=True)  # reach the server now: a wrong URL fails at startup with the reason

    def fresh(self, force: bool = False) -> None:
        """Read the list of kg's graphs again once it is ``GRAPHS_FRESH`` seconds old."""
        if force or time.monotonic() - self.listed > GRAPHS_FRESH:
            self.graphs = set(self.store.graphs())
            self.listed = time.monotonic()

    def close(self) -> None:
        self.store = None

    def handle(self, req: dict[str, Any], body: bytes) -> tuple[dict[str, Any], bytes]:
        """Answer one request; the server's errors become answers: a query it refuses a 400, one it
        cannot answer (unreachable, cut short by its time limit) a 502 with the reason."""
        if req.get("op") == "ping":
            return {"status": 200}, b""
        try:
            self.fresh()
            return self.dispatch(req, body)
        except QueryError as err:
            raise Rejected(err.message, 400) from None
        except StoreError as err:
            raise Rejected(err.message, 502) from None

    def dispatch(self, req: dict[str, Any], body: bytes) -> tuple[dict[str, Any], bytes]:
        import pyoxigraph as ox

        op = req.get("op")
        if op == "query":
            return self.query(req)
        if op == "select":  # trusted, server-built queries: rows of plain values
            rows = [self.store.select(text) for text in req["queries"]]
            return {"status": 200}, json.dumps(rows, ensure_ascii=False).encode("utf-8")
        if op == "construct":  # trusted
            triples = list(self.store.raw_query(req["text"]))
            return {"status": 200 if triples else 404, "count": len(triples)}, write_triples(triples, req["format"])
        if op == "graph_get":
            graph = req.get("graph")
            if graph and graph not in self.graphs:
                self.fresh(force=True)
                if graph not in self.graphs:
                    return {"status": 404, "message": f"no graph {graph} in the store"}, b""
            triples = list(dict.fromkeys(ox.Triple(q.subject, q.predicate, q.object)
                                         for g in ([graph] if graph else sorted(self.graphs))
                                         for q in self.store.quads(g)))  # a page at a time: all of it
            return {"status": 200, "count": len(triples)}, write_triples(triples, req["format"])
        raise Rejected("this endpoint serves a SPARQL server read-only: send updates to the server itself", 403)

    def refuse(self, seen: Inspected, dataset: Dataset | None, base: str | None) -> None:
        if seen.dataset_clause:
            raise Rejected("FROM and FROM NAMED are not taken when kg serve serves a SPARQL server: the default graph "
                           "is the union of kg's graphs; read one with GRAPH <IRI> { }, or choose graphs with the "
                           "default-graph-uri / named-graph-uri parameters")

    def chosen(self, dataset: Dataset) -> tuple[list[str], list[str]]:
        """The graphs of ``dataset`` that are kg's on the server (the list read again if one is not
        known yet: a build may just have written it); the others are empty graphs."""
        if not set(dataset.default + dataset.named) <= self.graphs:
            self.fresh(force=True)
        return [g for g in dataset.default if g in self.graphs], [g for g in dataset.named if g in self.graphs]

    def evaluate(self, text: str, seen: Inspected, dataset: Dataset | None, base: str | None,
                 whole: bool = False) -> tuple[Any, bool]:
        """Send the checked text, with the endpoint's base IRI first (a BASE of the query's own comes
        after it, and wins). An answer the server cut at its row limit is passed on marked as cut,
        or with ``whole`` refused with the server's setting named (a 502)."""
        sent = f"BASE <{base}>\n{text}" if base else text
        graphs = None if dataset is None else self.chosen(dataset)
        return (self.store.raw_query(sent, graphs), False) if whole else self.store.capped_query(sent, graphs)
