"""Article graphs written to the store by a thread of their own, while the build parses on.

pyoxigraph releases the GIL while it loads N-Triples, so the writes of one article overlap the parse of the next
ones instead of adding to it. The writer keeps the order of the graphs and the build's guarantees:
each article is still one transaction, and at most ``depth`` parsed articles wait to be written.
Progress stays on the caller's thread: ``put`` and ``close`` return the articles written since
the last call, and a write error is raised there, with the store's own message. One article the
store cannot hold (pyoxigraph's ``MemoryError``: a literal over its 16 MiB buffer) is not an error of
the build: it is handed back by ``refused`` and the next articles are written.
"""
from __future__ import annotations

import queue
import threading
from typing import Callable

from ..store import Store
from ..resolve.increment import note_written
from .jobs import ArticleGraph

#: Graphs parsed but not yet written, at most: bounds memory when the store is slower than the parse.
DEPTH = 8


def write_article(store: Store, article: ArticleGraph, seen: set[int] | None = None) -> None:
    """Store one article as a build does: its shared descriptions added first (so a query never
    meets an entity of the article without its names), then its graph replaced in one transaction.
    ``seen`` holds the hashes of the description lines already added by this build, which are not
    sent again (most of an article's are: the entities and classes of earlier articles). A
    description left out by mistake (a hash collision) or left behind by a crash between the two
    writes is set right by the build's resolution, which rewrites the shared graph from the
    article graphs."""
    shared = article.shared
    if seen is not None and shared:
        fresh = [line for line in shared.split("\n") if hash(line) not in seen]
        seen.update(map(hash, fresh))
        shared = "\n".join(fresh)
    if shared:
        store.add_triples(article.shared_graph, shared)
    store.replace_graph(article.graph, article.ntriples)
    note_written(store, article.graph, shared)


class StoreWriter:
    """``put(article)`` queues an article's graph; a thread writes them to the store, in order."""

    def __init__(self, store: Store, depth: int = DEPTH,
                 every: tuple[int, Callable[[list[str]], None]] | None = None) -> None:
        self._store = store
        self._every = every  # (n, call): call(graphs) on this thread after each n articles written
        self._since: list[str] = []
        self._all: list[str] = []
        self._todo: queue.Queue[ArticleGraph | None] = queue.Queue(maxsize=depth)
        self._done: queue.SimpleQueue[ArticleGraph] = queue.SimpleQueue()
        self._refused: queue.SimpleQueue[tuple[ArticleGraph, str]] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._seen: set[int] = set()
        self._reported = False
        self._thread = threading.Thread(target=self._run, name="kg-store-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (item := self._todo.get()) is not None:
            if self._error is not None:
                continue  # drain, so that a caller blocked in put() wakes up and sees the error
            try:
                write_article(self._store, item, self._seen)
            except MemoryError as err:  # this article too large for the store: the build goes on
                self._refused.put((item, str(err) or "out of memory"))
            except BaseException as err:  # noqa: BLE001 - handed to the caller's thread, raised there
                self._error = err
            else:
                self._done.put(item)
                self._step(item.graph)

    def _step(self, graph: str) -> None:
        """After each ``every[0]`` articles written, ``every[1]`` of their graphs (a build resolves
        them, so no resolution holds more than that many articles' changes at once)."""
        if self._every is None:
            self._all.append(graph)
            return
        self._since.append(graph)
        if len(self._since) >= self._every[0]:
            graphs, self._since = self._since, []
            try:
                self._every[1](graphs)
            except BaseException as err:  # noqa: BLE001 - handed to the caller's thread, raised there
                self._error = err

    def put(self, article: ArticleGraph) -> list[ArticleGraph]:
        """Queue one article (waits while ``depth`` are queued); the articles written since the last call."""
        self._raise()
        self._todo.put(article)
        return self.written()

    def written(self) -> list[ArticleGraph]:
        """The articles written since the last call, in order."""
        out = []
        while True:
            try:
                out.append(self._done.get_nowait())
            except queue.Empty:
                return out

    def refused(self) -> list[tuple[ArticleGraph, str]]:
        """The articles the store could not hold since the last call, and why (the store's message)."""
        out = []
        while True:
            try:
                out.append(self._refused.get_nowait())
            except queue.Empty:
                return out

    def pending(self) -> list[str]:
        """The graphs written since the last call of ``every`` (all of them without ``every``)."""
        return list(self._since) if self._every is not None else list(self._all)

    def close(self) -> list[ArticleGraph]:
        """Wait until every queued article is written; the articles written since the last call.
        Raises the first write error (once); the graphs queued after it are not written."""
        if self._thread.is_alive():  # the thread ends only at the None that close() queues
            self._todo.put(None)
            self._thread.join()
        self._raise()
        return self.written()

    def _raise(self) -> None:
        if self._error is not None and not self._reported:
            self._reported = True
            raise self._error
