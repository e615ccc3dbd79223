"""The store writer thread: graphs written in order, each once; a write error reaches the caller's
thread with its message; nothing queued after a failed write is written; a build through it stores
every article."""
from __future__ import annotations

import threading

import pytest

from kg.build.jobs import ArticleGraph
from kg.build.writer import StoreWriter
from kg.errors import StoreError
from kg.store import MemoryStore

SHARED = "urn:g:shared"


def art(i: int, ntriples: str = "", shared: str = "") -> ArticleGraph:
    return ArticleGraph(str(i), f"urn:g:{i}", ntriples, SHARED, shared, 0, 0)


def ids(arts: list[ArticleGraph]) -> list[int]:
    return [int(a.article_id) for a in arts]


class Recording:
    """A store that records the graphs it is given and fails on one of them."""

    def __init__(self, fail_on: str | None = None, gate: threading.Event | None = None) -> None:
        self.written: list[str] = []
        self.threads: set[str] = set()
        self.fail_on = fail_on
        self.gate = gate

    def add_triples(self, graph: str, ntriples: str) -> None:
        self.written.append(f"{graph} += {ntriples}")

    def replace_graph(self, graph: str, ntriples: str) -> None:
        if self.gate is not None:
            self.gate.wait(5)
        self.threads.add(threading.current_thread().name)
        if graph == self.fail_on:
            raise StoreError(f"could not write graph {graph}: disk full")
        self.written.append(graph)


def test_graphs_are_written_in_order_in_another_thread_and_tags_come_back_in_order() -> None:
    store = Recording()
    writer = StoreWriter(store)  # type: ignore[arg-type]
    done = []
    for i in range(50):
        done += writer.put(art(i))
    done += writer.close()
    assert store.written == [f"urn:g:{i}" for i in range(50)]
    assert ids(done) == list(range(50))
    assert store.threads == {"kg-store-writer"}
    assert writer.close() == []  # closing twice is harmless


def test_put_waits_while_the_queue_is_full() -> None:
    gate = threading.Event()
    store = Recording(gate=gate)
    writer = StoreWriter(store, depth=2)  # type: ignore[arg-type]
    for i in range(3):  # one in the writer's hands, two queued
        writer.put(art(i))
    seen: list[ArticleGraph] = []
    blocked = threading.Thread(target=lambda: seen.extend(writer.put(art(3))))
    blocked.start()
    blocked.join(0.3)
    assert blocked.is_alive() and store.written == []
    gate.set()
    blocked.join(5)
    assert ids(seen + writer.close()) == [0, 1, 2, 3]


def test_a_write_error_is_raised_once_to_the_caller_and_later_graphs_are_not_written() -> None:
    store = Recording(fail_on="urn:g:3")
    writer = StoreWriter(store, depth=1)  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="urn:g:3: disk full"):
        for i in range(20):
            writer.put(art(i))
    writer.close()  # already reported: does not raise again
    assert store.written == ["urn:g:0", "urn:g:1", "urn:g:2"]


def test_an_error_in_the_last_graphs_is_raised_by_close() -> None:
    store = Recording(fail_on="urn:g:1")
    writer = StoreWriter(store)  # type: ignore[arg-type]
    writer.put(art(0))
    writer.put(art(1))
    with pytest.raises(StoreError, match="disk full"):
        writer.close()


def test_shared_descriptions_are_added_before_the_article_graph_is_replaced() -> None:
    store = Recording()
    writer = StoreWriter(store)  # type: ignore[arg-type]
    writer.put(art(0, shared="<urn:e> <urn:p> \"x\" ."))
    writer.put(art(1))
    writer.close()
    assert store.written == [f'{SHARED} += <urn:e> <urn:p> "x" .', "urn:g:0", "urn:g:1"]


def test_a_description_already_added_by_the_build_is_not_sent_again() -> None:
    store = Recording()
    writer = StoreWriter(store)  # type: ignore[arg-type]
    writer.put(art(0, shared='<urn:e> <urn:p> "x" .'))
    writer.put(art(1, shared='<urn:e> <urn:p> "x" .\n<urn:f> <urn:p> "y" .'))
    writer.put(art(2, shared='<urn:f> <urn:p> "y" .'))
    writer.close()
    assert store.written == [f'{SHARED} += <urn:e> <urn:p> "x" .', "urn:g:0",
                             f'{SHARED} += <urn:f> <urn:p> "y" .', "urn:g:1", "urn:g:2"]


def test_a_real_store_holds_what_the_writer_wrote() -> None:
    store = MemoryStore()
    writer = StoreWriter(store)
    for i in range(5):
        writer.put(art(i, f"<urn:s> <urn:p> \"{i}\" .", "<urn:e> <urn:p> \"shared\" ."))
    assert ids(writer.close()) == [0, 1, 2, 3, 4]
    assert sorted(store.graphs()) == [f"urn:g:{i}" for i in range(5)] + [SHARED]
    assert len(store) == 6


def test_every_n_articles_the_writer_hands_their_graphs_over_on_its_thread():
    store = Recording()
    calls: list[tuple[list[str], str]] = []
    writer = StoreWriter(store, every=(2, lambda graphs: calls.append((graphs, threading.current_thread().name))))
    for i in range(5):
        writer.put(art(i, "<urn:s> <urn:p> <urn:o> ."))
    writer.close()
    assert [graphs for graphs, _ in calls] == [["urn:g:0", "urn:g:1"], ["urn:g:2", "urn:g:3"]]
    assert {name for _, name in calls} == {"kg-store-writer"}
    assert writer.pending() == ["urn:g:4"]  # left for the build's last resolution


def test_an_error_of_the_call_every_n_articles_reaches_the_caller():
    def fail(graphs: list[str]) -> None:
        raise StoreError("resolution failed")

    writer = StoreWriter(Recording(), every=(1, fail))
    writer.put(art(0, "<urn:s> <urn:p> <urn:o> ."))
    with pytest.raises(StoreError, match="resolution failed"):
        writer.close()
