"""Article graphs written to the store by a thread of their own, while the build parses on.

pyoxigraph releases the GIL while it loads N-Triples (measured: a pure-Python loop ran at full
speed beside a 300,000-triple load), so the writes of one article overlap the parse of the next
ones instead of adding to it. The writer keeps the order of the graphs and the build's guarantees:
each article is still one transaction, and at most ``depth`` parsed articles wait to be written.
Progress stays on the caller's thread: ``put`` and ``close`` return the tags of the articles
written since the last call, and a write error is raised there, with the store's own message.
"""
from __future__ import annotations

import queue
import threading
from typing import Generic, TypeVar

from .store import Store

T = TypeVar("T")

#: Graphs parsed but not yet written, at most: bounds memory when the store is slower than the parse.
DEPTH = 8


class StoreWriter(Generic[T]):
    """``put(graph, ntriples, tag)`` queues a graph; a thread replaces the graphs in the store, in order."""

    def __init__(self, store: Store, depth: int = DEPTH) -> None:
        self._store = store
        self._todo: queue.Queue[tuple[str, str, T] | None] = queue.Queue(maxsize=depth)
        self._done: queue.SimpleQueue[T] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._reported = False
        self._thread = threading.Thread(target=self._run, name="kg-store-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (item := self._todo.get()) is not None:
            if self._error is not None:
                continue  # drain, so that a caller blocked in put() wakes up and sees the error
            graph, ntriples, tag = item
            try:
                self._store.replace_graph(graph, ntriples)
            except BaseException as err:  # noqa: BLE001 - handed to the caller's thread, raised there
                self._error = err
            else:
                self._done.put(tag)

    def put(self, graph: str, ntriples: str, tag: T) -> list[T]:
        """Queue one graph (waits while ``depth`` graphs are queued); the tags written so far."""
        self._raise()
        self._todo.put((graph, ntriples, tag))
        return self.written()

    def written(self) -> list[T]:
        """The tags of the graphs written since the last call, in order."""
        out = []
        while True:
            try:
                out.append(self._done.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> list[T]:
        """Wait until every queued graph is written; the tags written since the last call.
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
