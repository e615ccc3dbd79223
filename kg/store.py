"""The graph store: one named graph per article, replaced atomically on re-ingest.

``Store`` is the interface the rest of kg uses; ``OxigraphStore`` is the embedded,
persistent backend (RocksDB under a directory) and ``MemoryStore`` the in-memory one
used by tests and throwaway builds. Both pass ``tests/test_store_contract.py``, and so does
``store_sparql.SparqlHttpStore``, a SPARQL server (``--store sparql+http://...``).
"""
from __future__ import annotations

import os
import re
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from contextlib import contextmanager
from typing import Iterator, Protocol

import pyoxigraph as ox

from .errors import NoStore, QueryError, StoreError, StoreLocked
from .vocab import PREFIXES

#: Row of a SELECT result: variable name -> lexical value (IRI, literal text) or None.
Row = dict[str, str | None]

EXPORT_FORMATS = {
    "turtle": ox.RdfFormat.TURTLE,
    "nt": ox.RdfFormat.N_TRIPLES,
    "nquads": ox.RdfFormat.N_QUADS,
    "trig": ox.RdfFormat.TRIG,
}


class Store(Protocol):
    """What kg needs from a graph store."""

    def replace_graph(self, graph: str, ntriples: str) -> None:
        """Replace the named graph ``graph`` by the given N-Triples, in one transaction."""

    def add_triples(self, graph: str, ntriples: str) -> None:
        """Add the given N-Triples to the named graph ``graph`` (those it holds already change nothing)."""

    def prefetch_graph(self, graph: str) -> None:
        """A hint: ``graph`` is about to be replaced. A backend may start reading what it holds now
        (the embedded store diffs the old graph against the new one), so that the read overlaps
        the caller's work; any other write to the graph first makes the read void."""

    def remove_graph(self, graph: str) -> None:
        """Drop a named graph (no error if it is absent)."""

    def graphs(self) -> list[str]:
        """IRIs of the named graphs held."""

    def select(self, sparql: str) -> list[Row]:
        """Run a SELECT over the union of all graphs; values as plain strings."""

    def raw_query(self, sparql: str) -> object:
        """Run any query form over the union graph; the backend's own result object."""

    def dump(self, fmt: str, union: bool) -> bytes:
        """Serialize the store: the union graph (triples) or every graph (quads)."""

    def __len__(self) -> int:
        """Number of quads."""

    def close(self) -> None:
        """Flush and release the store."""


def ntriples_lines(ntriples: str) -> list[str]:
    """The non-blank lines of N-Triples text, split at "\n" only: a literal may hold U+2028, U+0085
    or U+001C-1E unescaped (pyoxigraph writes them so), which ``str.splitlines`` would cut."""
    return [line for line in ntriples.split("\n") if line.strip()]


#: A blank node in N-Triples text (or, harmlessly, text in a literal that looks like one).
_BLANK = re.compile(r"(?:^|\s)_:", re.M)


def _has_blank(ntriples: str) -> bool:
    """Whether N-Triples hold a blank node; the substring test first, because the regex alone
    takes 0.13 s over a 5 MB graph (measured) and most graphs have no "_:" at all."""
    return "_:" in ntriples and _BLANK.search(ntriples) is not None


def select_all(store: Store, queries: list[str]) -> list[list[Row]]:
    """The rows of several SELECTs, run at once on threads: pyoxigraph lets go of the GIL while it
    evaluates, and a SPARQL server answers requests side by side (the nine reads of entity
    resolution over 200 articles, as they were: 0.60 s one after the other, 0.40 s on threads, measured)."""
    if len(queries) < 2:
        return [store.select(q) for q in queries]
    with ThreadPoolExecutor(max_workers=min(len(queries), 4)) as pool:
        return list(pool.map(store.select, queries))


class _OxigraphBase:
    """Shared implementation over a ``pyoxigraph.Store``."""

    _store: ox.Store

    #: Characters of N-Triples written between two flushes. RocksDB keeps what is written in memory
    #: tables until they are flushed, and Oxigraph does not bound them: storing 3,000 generated seed
    #: articles (99,000 characters each), RSS grew by 1.1 GB without flushes and stayed flat
    #: (+0.4%) flushing every 8 MB, which was also faster (42 s against 52 s).
    FLUSH_CHARS = 8_000_000
    _unflushed = 0

    #: graph IRI -> the graph's N-Triples being read on a thread (``prefetch_graph``)
    _prefetched: dict[str, Future[bytes | None]]

    def prefetch_graph(self, graph: str) -> None:
        self._drop_prefetch(graph)
        pool = ThreadPoolExecutor(max_workers=1)  # pyoxigraph lets go of the GIL while it dumps
        self._prefetched[graph] = pool.submit(self._store.dump, format=ox.RdfFormat.N_TRIPLES,
                                              from_graph=ox.NamedNode(graph))
        pool.shutdown(wait=False)

    def _drop_prefetch(self, graph: str) -> Future[bytes | None] | None:
        """Forget (and return) the read of ``graph`` under way: a write to the graph voids it."""
        return self._prefetched.pop(graph, None)

    def replace_graph(self, graph: str, ntriples: str) -> None:
        g = ox.NamedNode(graph)
        read = self._drop_prefetch(graph)
        try:
            if self._store.contains_named_graph(g):  # one transaction: the old graph or the new one
                old = read.result() if read is not None else self._store.dump(format=ox.RdfFormat.N_TRIPLES,
                                                                              from_graph=g)
                self._store.update(self._replacement(g, (old or b"").decode("utf-8"), ntriples))
            else:  # a new graph: a load is one transaction too, and parses N-Triples 20% faster
                self._store.load(input=ntriples, format=ox.RdfFormat.N_TRIPLES, to_graph=g)
            self._count(ntriples)
        except (OSError, SyntaxError, ValueError) as err:
            raise StoreError(f"could not write graph {graph}: {err}") from err

    @staticmethod
    def _replacement(g: ox.NamedNode, old: str, ntriples: str) -> str:
        """The update that turns graph ``g`` from ``old`` into ``ntriples``: only the lines that
        differ deleted and inserted (RocksDB takes about 30 us a quad to drop or to write, and a
        rebuild changes few: rewriting all 170,000 triples of a shared graph took 10 s), or drop
        and insert all when either side has blank nodes, whose labels do not match across writes."""
        if _has_blank(old) or _has_blank(ntriples):
            return f"DROP SILENT GRAPH {g} ;\nINSERT DATA {{ GRAPH {g} {{\n{ntriples}\n}} }}"
        have = set(ntriples_lines(old))
        want = set(ntriples_lines(ntriples))
        gone, new = "\n".join(have - want), "\n".join(want - have)
        return f"DELETE DATA {{ GRAPH {g} {{\n{gone}\n}} }} ;\nINSERT DATA {{ GRAPH {g} {{\n{new}\n}} }}"

    def add_triples(self, graph: str, ntriples: str) -> None:
        self._drop_prefetch(graph)
        try:
            self._store.load(input=ntriples, format=ox.RdfFormat.N_TRIPLES, to_graph=ox.NamedNode(graph))
            self._count(ntriples)
        except (OSError, SyntaxError, ValueError) as err:
            raise StoreError(f"could not add to graph {graph}: {err}") from err

    def _count(self, ntriples: str) -> None:
        """Flush once ``FLUSH_CHARS`` characters were written since the last flush."""
        self._unflushed += len(ntriples)
        if self._unflushed >= self.FLUSH_CHARS:
            self._unflushed = 0
            self._store.flush()

    def remove_graph(self, graph: str) -> None:
        self._drop_prefetch(graph)
        self._store.update(f"DROP SILENT GRAPH {ox.NamedNode(graph)}")

    def graphs(self) -> list[str]:
        return sorted(g.value for g in self._store.named_graphs())

    def raw_query(self, sparql: str) -> object:
        try:
            return self._store.query(sparql, use_default_graph_as_union=True)
        except SyntaxError as err:
            raise QueryError(f"the query does not parse: {err}") from err
        except OSError as err:
            raise QueryError(f"the query failed: {err}") from err

    def select(self, sparql: str) -> list[Row]:
        res = self.raw_query(sparql)
        if not isinstance(res, ox.QuerySolutions):
            raise QueryError("expected a SELECT query")
        names = [v.value for v in res.variables]
        return [dict(zip(names, [None if v is None else v.value for v in sol])) for sol in res]

    def dump(self, fmt: str, union: bool) -> bytes:
        rdf_format = EXPORT_FORMATS[fmt]
        if union:
            lines: set[str] = set()
            for _, ntriples in self._graph_dumps():
                lines.update(ntriples.decode("utf-8").split("\n"))
            lines.discard("")
            if rdf_format == ox.RdfFormat.N_TRIPLES:
                return "".join(f"{line}\n" for line in sorted(lines)).encode("utf-8")
            text = "\n".join(sorted(lines))
            return ox.serialize(ox.parse(text, format=ox.RdfFormat.N_TRIPLES), format=rdf_format,
                                prefixes=PREFIXES) or b""
        if rdf_format == ox.RdfFormat.N_QUADS:
            return b"".join(ntriples if graph is None else ntriples.replace(b" .\n", b" %s .\n" % graph)
                            for graph, ntriples in self._graph_dumps())
        return self._store.dump(format=rdf_format, prefixes=PREFIXES) or b""

    def _graph_dumps(self) -> list[tuple[bytes | None, bytes]]:
        """Every graph as N-Triples (the default graph first, then by IRI), dumped on one thread per
        core: pyoxigraph lets go of the GIL while it reads, and the 1M-triple benchmark store dumps
        in 4.6 s on two cores against 8.1 s in one ``Store.dump``. An N-Triples line never holds a
        raw newline, so each line ends in " .\n", where the N-Quads graph term goes."""
        named = sorted(self._store.named_graphs(), key=lambda g: g.value)
        graphs: list[ox.NamedNode | ox.BlankNode | ox.DefaultGraph] = [ox.DefaultGraph(), *named]

        def one(g: ox.NamedNode | ox.BlankNode | ox.DefaultGraph) -> bytes:
            return self._store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=g) or b""

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            dumps = list(pool.map(one, graphs))
        terms = [None] + [str(g).encode("utf-8") for g in named]
        return list(zip(terms, dumps))

    def __len__(self) -> int:
        return len(self._store)

    def close(self) -> None:
        """Flush and drop the handle, which releases the directory lock (RocksDB's LOCK file)."""
        pending, self._prefetched = self._prefetched, {}
        for read in pending.values():
            if not read.cancel():
                read.exception()  # wait: a dump under way ends before the handle goes
        store = self.__dict__.pop("_store", None)
        if store is not None:
            store.flush()
            del store


class OxigraphStore(_OxigraphBase):
    """The persistent embedded store: a RocksDB directory that survives crashes."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._prefetched = {}
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._store = ox.Store(str(self.path))
        except OSError as err:
            if "lock" in str(err).lower():
                raise StoreLocked(
                    f"store {self.path} is locked by another kg process; wait for it to finish or use another --store"
                ) from err
            raise StoreError(f"cannot open store {self.path}: {err}") from err


class MemoryStore(_OxigraphBase):
    """An in-memory store with the same behaviour; nothing is written to disk."""

    def __init__(self) -> None:
        self._store = ox.Store()
        self._prefetched = {}


def is_remote(location: str | Path | None) -> bool:
    """Whether ``location`` names a SPARQL server (``sparql+http(s)://``) rather than a directory."""
    return str(location).startswith(("sparql+http://", "sparql+https://"))


def store_exists(location: str | Path | None) -> bool:
    """Whether ``location`` holds a store: an in-memory or remote one always does; a directory
    does when RocksDB's ``CURRENT`` file is in it (an empty or missing folder holds none)."""
    if location is None or str(location) == ":memory:" or is_remote(location):
        return True
    return (Path(location) / "CURRENT").is_file()


def require_store(location: str | Path | None) -> None:
    """Raise ``NoStore`` (exit code 2) unless ``location`` holds a store; creates nothing."""
    if not store_exists(location):
        raise NoStore(str(location))


@contextmanager
def opened(location: str | Path | None, base: str | None = None, create: bool = False) -> Iterator[Store]:
    """``with opened(path) as store:`` opens the store and always closes it. Without ``create`` a
    directory that holds no store is refused (``NoStore``) and nothing is created: only a build
    makes a store, so a mistyped ``--store`` is an error, not an empty graph."""
    if not create:
        require_store(location)
    store = open_store(location, base)
    try:
        yield store
    finally:
        store.close()


def open_store(location: str | Path | None, base: str | None = None) -> Store:
    """Open the store at a directory, an in-memory one for ``None`` or ``":memory:"``, or the SPARQL
    server of a ``sparql+http(s)://`` URL (kg's graphs there are those under ``base``, default the settings')."""
    if location is None or str(location) == ":memory:":
        return MemoryStore()
    if is_remote(location):
        from .store_sparql import SparqlHttpStore

        return SparqlHttpStore(str(location), base)
    return OxigraphStore(location)
