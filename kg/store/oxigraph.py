"""The embedded backends over pyoxigraph: ``OxigraphStore`` (persistent, RocksDB under a
directory) and ``MemoryStore`` (in memory, for tests and throwaway builds)."""
from __future__ import annotations

import io
import os
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO, Callable, Collection, Iterator, TypeVar

import pyoxigraph as ox

from ..errors import QueryError, StoreError, StoreLocked
from ..model.vocab import PREFIXES
from .base import EXPORT_FORMATS, Row, ntriples_lines, register

T = TypeVar("T")


#: A blank node in N-Triples text (or, harmlessly, text in a literal that looks like one).
_BLANK = re.compile(r"(?:^|\s)_:", re.M)


def _has_blank(ntriples: str) -> bool:
    """Whether N-Triples hold a blank node; the cheap substring test first: most graphs have no "_:" at all."""
    return "_:" in ntriples and _BLANK.search(ntriples) is not None


class _OxigraphBase:
    """Shared implementation over a ``pyoxigraph.Store``."""

    _store: ox.Store
    #: A handle that cannot write (``OxigraphStore(read_only=True)``): nothing to flush.
    read_only = False

    #: Characters of N-Triples written between two flushes. RocksDB keeps what is written in memory
    #: tables until they are flushed, and Oxigraph does not bound them (docs/benchmarks.md).
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
        differ deleted and inserted (RocksDB is slow to drop or write a quad, and a rebuild changes
        few), or drop
        and insert all when either side has blank nodes, whose labels do not match across writes."""
        if _has_blank(old) or _has_blank(ntriples):
            return f"DROP SILENT GRAPH {g} ;\nINSERT DATA {{ GRAPH {g} {{\n{ntriples}\n}} }}"
        have = set(ntriples_lines(old))
        want = set(ntriples_lines(ntriples))
        gone, new = "\n".join(have - want), "\n".join(want - have)
        return f"DELETE DATA {{ GRAPH {g} {{\n{gone}\n}} }} ;\nINSERT DATA {{ GRAPH {g} {{\n{new}\n}} }}"

    def change_graph(self, graph: str, removed: str, added: str) -> None:
        if not removed.strip() and not added.strip():
            return
        g = ox.NamedNode(graph)
        self._drop_prefetch(graph)
        try:
            if not removed.strip():  # a load parses N-Triples faster than an update
                self._store.load(input=added, format=ox.RdfFormat.N_TRIPLES, to_graph=g)
            else:
                self._store.update(f"DELETE DATA {{ GRAPH {g} {{\n{removed}\n}} }} ;\n"
                                   f"INSERT DATA {{ GRAPH {g} {{\n{added}\n}} }}")
            self._count(removed + added)
        except (OSError, SyntaxError, ValueError) as err:
            raise StoreError(f"could not write graph {graph}: {err}") from err

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
        read = self._drop_prefetch(graph)
        if read is not None and not read.cancel():
            read.exception()  # the dump under way ends first: it must not outlive the handle
        self._store.update(f"DROP SILENT GRAPH {ox.NamedNode(graph)}")

    def graphs(self) -> list[str]:
        return sorted(g.value for g in self._store.named_graphs())

    def raw_query(self, sparql: str) -> object:
        try:
            return self._store.query(sparql, use_default_graph_as_union=True)
        except SyntaxError as err:
            raise QueryError(f"the query does not parse: {err}") from err
        except (OSError, RuntimeError) as err:
            raise QueryError(f"the query failed: {err}") from err

    def capped_query(self, sparql: str) -> tuple[object, bool]:
        """``raw_query``: the embedded store never cuts an answer."""
        return self.raw_query(sparql), False

    def select(self, sparql: str) -> list[Row]:
        res = self.raw_query(sparql)
        if not isinstance(res, ox.QuerySolutions):
            raise QueryError("expected a SELECT query")
        names = [v.value for v in res.variables]
        try:
            return [dict(zip(names, [None if v is None else v.value for v in sol])) for sol in res]
        except (OSError, RuntimeError) as err:
            raise QueryError(f"the query failed: {err}") from err

    def dump(self, fmt: str, union: bool) -> bytes:
        rdf_format = EXPORT_FORMATS[fmt]
        if not union and fmt == "nquads":
            buf = io.BytesIO()
            _OxigraphBase.dump_to(self, buf, fmt, union)
            return buf.getvalue()
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
        return self._store.dump(format=rdf_format, prefixes=PREFIXES) or b""

    def dump_to(self, out: BinaryIO, fmt: str, union: bool, disjoint: bool = False,
                first: Collection[str] = ()) -> None:
        """``dump`` written to a binary file as it is read, graph by graph (a window of graphs dumped on
        one thread per core) rather than made whole in memory: N-Quads; and Turtle of the union when the
        caller knows that no two graphs hold the same triple (``disjoint``: each article graph of kg
        holds only its own nodes), as the graphs' own Turtle one after the other under one set of
        prefixes. Otherwise as ``dump``, which writes a triple two graphs hold once. ``first``: IRIs of
        big graphs, read from the start wherever they come in the file (``_chunks``)."""
        if not union and fmt == "nquads":
            nt = ox.RdfFormat.N_TRIPLES
            for graph, text in self._chunks(lambda g: self._store.dump(format=nt, from_graph=g) or b"",
                                            first=first):
                out.write(text if graph is None else text.replace(b" .\n", b" %s .\n" % graph))
        elif union and fmt == "turtle" and disjoint and not any(True for _ in self._store.quads_for_pattern(
                None, None, None, ox.DefaultGraph())):
            head = False
            for _, text in self._chunks(lambda g: self._store.dump(format=ox.RdfFormat.TURTLE, from_graph=g,
                                                                   prefixes=PREFIXES) or b"", default=False,
                                        first=first):
                body = _after_prefixes(text)
                if body.strip():
                    if not head:
                        out.write(text[: len(text) - len(body)])
                        head = True
                    out.write(body)
        else:
            out.write(self.dump(fmt, union))

    #: Graphs ``dump_to`` reads ahead of the one it writes (their text is held until written).
    DUMP_WINDOW = 64

    def _chunks(self, dump: Callable[[ox.NamedNode | ox.BlankNode | ox.DefaultGraph], bytes], default: bool = True,
                first: Collection[str] = ()) -> Iterator[tuple[bytes | None, bytes]]:
        """(graph term or None for the default graph, ``dump`` of it): the default graph (unless not
        ``default``), then every named graph by IRI, dumped on one thread per core (pyoxigraph lets go
        of the GIL while it reads), at most ``DUMP_WINDOW`` ahead of the one the caller has: the
        threads go on reading while the caller writes. The graphs of ``first`` are read from the
        start, wherever they come: a big graph reached last would be read alone at the end, the
        other threads idle (kg's resolution graph sorts after the article graphs)."""
        graphs: list[ox.NamedNode | ox.BlankNode | ox.DefaultGraph] = [
            *([ox.DefaultGraph()] if default else []), *sorted(self._store.named_graphs(), key=lambda g: g.value)]
        early = [i for i, g in enumerate(graphs) if isinstance(g, ox.NamedNode) and g.value in first]
        rest = set(range(len(graphs))) - set(early)
        order = iter([*early, *sorted(rest)])
        reads: dict[int, Future[bytes]] = {}
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            for i, g in enumerate(graphs):
                while len(reads) < self.DUMP_WINDOW + len(early) and (nxt := next(order, None)) is not None:
                    reads[nxt] = pool.submit(dump, graphs[nxt])
                text = reads.pop(i).result()
                yield (None if isinstance(g, ox.DefaultGraph) else str(g).encode("utf-8")), text

    def _graph_dumps(self) -> list[tuple[bytes | None, bytes]]:
        """Every graph as N-Triples (the default graph first, then by IRI), dumped on one thread per
        core. An N-Triples line never holds a raw newline, so each line ends in " .\n", where the
        N-Quads graph term goes."""
        nt = ox.RdfFormat.N_TRIPLES
        return list(self._chunks(lambda g: self._store.dump(format=nt, from_graph=g) or b""))

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
            try:
                if not self.read_only:
                    store.flush()
            except OSError as err:  # a full disk: what was committed before is kept
                raise StoreError(f"could not flush the store: {err}") from err
            finally:
                del store


class OxigraphStore(_OxigraphBase):
    """The persistent embedded store: a RocksDB directory that survives crashes. ``read_only``: a
    handle that takes no lock, so it opens beside a build that writes (it sees what was committed
    when it opened), like the workers of ``kg serve``. A path that holds no store yet is opened
    read-write as without ``read_only``."""

    def __init__(self, path: Path | str, read_only: bool = False) -> None:
        self.path = Path(path)
        self._prefetched = {}
        self.read_only = read_only and (self.path / "CURRENT").is_file()  # else opened (and made) as before
        if self.read_only:
            self._again(lambda: None)
            return
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._store = ox.Store(str(self.path))
        except OSError as err:
            if "lock" in str(err).lower():
                raise StoreLocked(
                    f"store {self.path} is locked by another kg process; wait for it to finish or use another --store"
                ) from err
            raise StoreError(f"cannot open store {self.path}: {err}") from err


    #: Reads of a read-only handle tried again (each on a fresh handle) when the writer beside it
    #: had just removed a file the handle was told about (compaction, a new manifest).
    ATTEMPTS = 6

    def _again(self, read: Callable[[], T]) -> T:
        """``read()`` on a read-only handle, opened again after a storage error (see ``ATTEMPTS``)."""
        for attempt in range(self.ATTEMPTS):
            try:
                if attempt or "_store" not in self.__dict__:
                    self._store = ox.Store.read_only(str(self.path))
                return read()
            except (OSError, RuntimeError, QueryError) as err:
                if attempt == self.ATTEMPTS - 1 or not any(w in str(err) for w in _STORAGE_ERRORS):
                    if isinstance(err, QueryError):
                        raise
                    raise StoreError(f"cannot read store {self.path}: {err}") from err
                time.sleep(0.02 * 2**attempt)
        raise AssertionError("unreachable")

    def select(self, sparql: str) -> list[Row]:
        return self._again(lambda: super(OxigraphStore, self).select(sparql)) if self.read_only else super().select(sparql)

    def dump(self, fmt: str, union: bool) -> bytes:
        if self.read_only:
            return self._again(lambda: super(OxigraphStore, self).dump(fmt, union))
        return super().dump(fmt, union)

    def dump_to(self, out: BinaryIO, fmt: str, union: bool, disjoint: bool = False,
                first: Collection[str] = ()) -> None:
        if not self.read_only:
            return super().dump_to(out, fmt, union, disjoint, first)
        start = out.tell()

        def again() -> None:  # a read tried again starts the file again
            out.seek(start)
            out.truncate()
            super(OxigraphStore, self).dump_to(out, fmt, union, disjoint, first)

        self._again(again)


def _after_prefixes(turtle: bytes) -> bytes:
    """Turtle text without the ``@prefix`` lines it starts with."""
    i = 0
    while turtle.startswith(b"@prefix", i):
        i = turtle.index(b"\n", i) + 1
    return turtle[i:]


#: What RocksDB says when a read-only handle meets a file the writer has removed.
_STORAGE_ERRORS = ("Corruption", "IO error", "No such file")


class MemoryStore(_OxigraphBase):
    """An in-memory store with the same behaviour; nothing is written to disk."""

    def __init__(self) -> None:
        self._store = ox.Store()
        self._prefetched = {}


register("directory", lambda location, base, read_only: OxigraphStore(location, read_only))
register("memory", lambda location, base, read_only: MemoryStore())
