"""The graph store as kg sees it: the ``Store`` protocol, opening a store by its location, and
the registry of backends (``kg.store.oxigraph`` and ``kg.store.sparql_http`` register theirs;
this module imports neither).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Protocol

import pyoxigraph as ox

from ..errors import NoStore, StoreError

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

    def change_graph(self, graph: str, removed: str, added: str) -> None:
        """Take the N-Triples ``removed`` out of the named graph ``graph`` and put ``added`` in, in one
        transaction where the backend has them (what a resolution changed of its graph)."""

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

    def capped_query(self, sparql: str) -> tuple[object, bool]:
        """``raw_query``, and whether the store cut the answer short at a row limit of its own (a
        server's); ``raw_query`` refuses such an answer, ``kg serve``, which caps rows anyway, marks it."""

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


def select_all(store: Store, queries: list[str]) -> list[list[Row]]:
    """The rows of several SELECTs, run at once on threads: pyoxigraph lets go of the GIL while it
    evaluates, and a SPARQL server answers requests side by side."""
    if len(queries) < 2:
        return [store.select(q) for q in queries]
    with ThreadPoolExecutor(max_workers=min(len(queries), 4)) as pool:
        return list(pool.map(store.select, queries))


#: An opener: (location, base, read_only) -> an open store.
Opener = Callable[[str, "str | None", bool], Store]
#: Where a location of each kind is opened: "directory", "memory", or a URL scheme ("sparql+http").
_BACKENDS: dict[str, Opener] = {}


def register(kind: str, opener: Opener) -> None:
    """Open locations of ``kind`` ("directory", "memory", or a URL scheme such as "sparql+http") with ``opener``."""
    _BACKENDS[kind] = opener


def _kind(location: str | Path | None) -> str:
    """Which registered backend opens ``location``: its URL scheme when one is registered, else a directory."""
    if location is None or str(location) == ":memory:":
        return "memory"
    scheme = str(location).split("://", 1)[0] if "://" in str(location) else ""
    return scheme if scheme in _BACKENDS and scheme not in ("directory", "memory") else "directory"


def is_remote(location: str | Path | None) -> bool:
    """Whether ``location`` names a server (a registered URL scheme, ``sparql+http(s)://``) rather than a directory."""
    return _kind(location) not in ("directory", "memory")


def store_exists(location: str | Path | None) -> bool:
    """Whether ``location`` holds a store: an in-memory or remote one always does; a directory
    does when RocksDB's ``CURRENT`` file is in it (an empty or missing folder holds none)."""
    if _kind(location) != "directory":
        return True
    return (Path(str(location)) / "CURRENT").is_file()


def require_store(location: str | Path | None) -> None:
    """Raise ``NoStore`` (exit code 2) unless ``location`` holds a store; creates nothing."""
    if not store_exists(location):
        raise NoStore(str(location))


@contextmanager
def opened(location: str | Path | None, base: str | None = None, create: bool = False,
           read_only: bool = False) -> Iterator[Store]:
    """``with opened(path) as store:`` opens the store and always closes it. Without ``create`` a
    directory that holds no store is refused (``NoStore``) and nothing is created: only a build
    makes a store, so a mistyped ``--store`` is an error, not an empty graph. ``read_only``: see
    ``OxigraphStore``; the commands that only read use it, and answer while a build writes."""
    if not create:
        require_store(location)
    store = open_store(location, base, read_only)
    try:
        yield store
    except BaseException:
        close_after_error(store)
        raise
    store.close()


def close_after_error(store: Store) -> None:
    """Close a store while an error is on its way up: an error of the close itself (the disk that
    was full for the write is full for the flush too) must not hide the first one."""
    try:
        store.close()
    except (OSError, StoreError):
        pass


def open_store(location: str | Path | None, base: str | None = None, read_only: bool = False) -> Store:
    """Open the store at a directory, an in-memory one for ``None`` or ``":memory:"``, or the SPARQL
    server of a ``sparql+http(s)://`` URL (kg's graphs there are those under ``base``, default the settings')."""
    return _BACKENDS[_kind(location)](str(location), base, read_only)
