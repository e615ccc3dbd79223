"""Turtle and N-Quads exports are Oxigraph's own serializer, graph by graph on threads and streamed to
the file: the same graph (isomorphic) and the same quads as the store holds, each triple once. Turtle
is streamed so when every graph is one kg wrote (no triple in two of them); otherwise it is written
as ``Store.dump`` writes it, each triple once."""
from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import rdflib
from rdflib.compare import isomorphic
from test_query_shapes import _articles
from test_resolve_rules import MINTER, store_of

from kg.outputs.export import export_file, kg_graphs
from kg.resolve.graph import update_resolution
from kg.store import MemoryStore


def _store() -> MemoryStore:
    store = store_of(*_articles())
    update_resolution(store, MINTER)
    assert isinstance(store, MemoryStore)
    store.DUMP_WINDOW = 2  # several windows of graphs
    return store


def _held(store: MemoryStore) -> set[ox.Quad]:
    return set(store._store.quads_for_pattern(None, None, None))


def test_turtle_is_the_union_each_triple_once(tmp_path: Path) -> None:
    store = _store()
    held = _held(store)
    union = rdflib.Graph()
    union.parse(data="".join(f"{q.triple} .\n" for q in held), format="nt")
    export_file(store, tmp_path / "g.ttl", "turtle")
    data = (tmp_path / "g.ttl").read_bytes()
    assert kg_graphs(store) and data != store.dump("turtle", union=True)  # streamed, not the sorted dump
    assert data.count(b"@prefix kg:") == 1
    assert isomorphic(rdflib.Graph().parse(data=data, format="turtle"), union)
    assert isomorphic(rdflib.Graph().parse(data=store.dump("turtle", union=True), format="turtle"), union)
    triples = list(ox.parse(data, format=ox.RdfFormat.TURTLE))
    assert len(triples) == len(set(triples)) == len({q.triple for q in held}) > 100


def test_nquads_keep_every_quad_with_its_graph(tmp_path: Path) -> None:
    store = _store()
    export_file(store, tmp_path / "g.nq", "nquads")
    data = (tmp_path / "g.nq").read_bytes()
    assert data == store.dump("nquads", union=False)
    quads = list(ox.parse(data, format=ox.RdfFormat.N_QUADS))
    assert len(quads) == len(set(quads)) and set(quads) == _held(store)
    assert len({q.graph_name for q in quads}) > 3


def test_an_empty_store_exports_nothing(tmp_path: Path) -> None:
    store = MemoryStore()
    export_file(store, tmp_path / "e.ttl", "turtle")
    assert (tmp_path / "e.ttl").read_bytes() == b"" == store.dump("nquads", union=False)


def test_a_triple_in_two_graphs_of_another_writer_is_written_once(tmp_path: Path) -> None:
    store = _store()
    line = "<https://kg.example.org/x> <https://kg.example.org/p> \"shared\" ."
    store.add_triples("https://kg.example.org/other/1", line)
    store.add_triples("https://kg.example.org/other/2", line)
    assert not kg_graphs(store)
    export_file(store, tmp_path / "g.ttl", "turtle")
    triples = list(ox.parse((tmp_path / "g.ttl").read_bytes(), format=ox.RdfFormat.TURTLE))
    assert len(triples) == len(set(triples)) == len({q.triple for q in _held(store)})


def test_big_graphs_read_first_are_still_written_in_their_place() -> None:
    """``first`` starts the reads of the graphs it names (the resolution graph, which sorts last)
    ahead of the others; the file is the same, whichever graphs it names."""
    import io

    store = _store()
    graphs = [g.value for g in sorted(store._store.named_graphs(), key=lambda g: g.value)]
    assert len(graphs) >= 4
    for fmt, union in (("nquads", False), ("turtle", True)):
        plain = io.BytesIO()
        store.dump_to(plain, fmt, union, union)
        for first in ([graphs[-1]], [graphs[0], graphs[2]], graphs, ["https://example.org/no-such-graph"]):
            out = io.BytesIO()
            store.dump_to(out, fmt, union, union, first)
            assert out.getvalue() == plain.getvalue(), (fmt, first)
