"""The contract every store backend passes: replace, union queries, dumps, locking."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest
import virtuoso

from kg.errors import QueryError, StoreLocked
from kg.store import MemoryStore, OxigraphStore, select_all

G1, G2 = "https://kg.example.org/graph/a", "https://kg.example.org/graph/b"
T = '<https://kg.example.org/s> <https://kg.example.org/p> "{}" .'


@pytest.fixture(params=["memory", "oxigraph", "virtuoso"])
def store(request, tmp_path):  # type: ignore[no-untyped-def]
    if request.param == "virtuoso":  # a SparqlHttpStore on a real Virtuoso, emptied for each test
        st = virtuoso.empty_store(request)
    else:
        st = MemoryStore() if request.param == "memory" else OxigraphStore(tmp_path / "store")
    yield st
    st.close()


def test_replace_graph_replaces_only_that_graph(store):
    store.replace_graph(G1, T.format("one"))
    store.replace_graph(G2, T.format("two"))
    store.replace_graph(G1, T.format("uno"))
    rows = store.select("SELECT ?o WHERE { ?s ?p ?o } ORDER BY ?o")
    assert [r["o"] for r in rows] == ["two", "uno"]
    assert store.graphs() == [G1, G2]
    assert len(store) == 2


def test_select_all_gives_each_query_its_own_rows_in_order(store):
    store.replace_graph(G1, "\n".join(T.format(x) for x in ("a", "b", "c")))
    queries = [f'SELECT ?o WHERE {{ ?s ?p ?o FILTER(?o != "{x}") }} ORDER BY ?o' for x in ("a", "b", "c", "z")]
    assert select_all(store, queries) == [store.select(q) for q in queries]
    assert [[r["o"] for r in rows] for rows in select_all(store, queries)][:2] == [["b", "c"], ["a", "c"]]
    assert select_all(store, []) == []


def test_remove_graph(store):
    store.replace_graph(G1, T.format("one"))
    store.remove_graph(G1)
    store.remove_graph(G1)
    assert len(store) == 0 and store.graphs() == []


def test_replacing_a_graph_that_overlaps_the_old_one_leaves_exactly_the_new_one(store):
    keep, drop, new = T.format("kept"), T.format("dropped"), T.format("new")
    odd = '<https://kg.example.org/s> <https://kg.example.org/p> "tab\\there \\u00e9" .'
    breaks = "line\u2028sep\x85nel\x1cfs"  # raw in N-Triples, but not line ends there
    broken = f"{ox.NamedNode('https://kg.example.org/s')} {ox.NamedNode('https://kg.example.org/q')} {ox.Literal(breaks)} ."
    store.replace_graph(G1, "\n".join([keep, drop, odd, broken]))
    store.replace_graph(G1, "\n".join([odd, new, keep, ""]))
    rows = store.select("SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?o")
    assert [r["o"] for r in rows] == ["kept", "new", "tab\there \u00e9"]
    assert len(store) == 3
    store.replace_graph(G1, broken)
    store.add_triples(G1, broken.replace("/q>", "/r>"))
    assert [r["o"] for r in store.select("SELECT ?o WHERE { ?s ?p ?o }")] == [breaks, breaks]


def test_a_graph_read_ahead_is_replaced_exactly_and_a_write_in_between_voids_the_read(store):
    old, new, late = T.format("old"), T.format("new"), T.format("late")
    store.replace_graph(G1, old)
    store.replace_graph(G2, old)
    store.prefetch_graph(G1)
    store.replace_graph(G1, new)  # the diff against what was read ahead
    store.prefetch_graph(G2)
    store.add_triples(G2, late)  # not in what was read ahead: this replace must still drop it
    store.replace_graph(G2, new)
    rows = store.select("SELECT ?g ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g ?o")
    assert [(r["g"], r["o"]) for r in rows] == [(G1, "new"), (G2, "new")]
    store.prefetch_graph(G1)  # read ahead, never replaced: closing the store waits for it
    store.prefetch_graph("https://kg.example.org/graph/none")


@pytest.mark.parametrize("kind", ["memory", "oxigraph"])
def test_replacing_a_graph_with_blank_nodes(kind, tmp_path):  # (SPARQL servers refuse them in INSERT DATA)
    store = MemoryStore() if kind == "memory" else OxigraphStore(tmp_path / "store")
    blank, keep = '_:b <https://kg.example.org/p> "blank" .', T.format("kept")
    store.replace_graph(G1, blank)
    store.replace_graph(G1, blank + "\n" + keep)
    rows = store.select("SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?o")
    assert [r["o"] for r in rows] == ["blank", "kept"]
    assert len(store) == 2
    store.close()


def test_add_triples_adds_to_what_the_graph_holds(store):
    store.replace_graph(G1, T.format("one"))
    store.add_triples(G1, T.format("two") + "\n" + T.format("one"))
    store.add_triples(G1, T.format("two"))  # adding again changes nothing
    store.add_triples(G2, T.format("three"))  # a new graph
    rows = store.select("SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?o")
    assert [r["o"] for r in rows] == ["one", "three", "two"]
    assert store.graphs() == [G1, G2]
    assert len(store) == 3


def test_change_graph_takes_out_and_puts_in_only_the_given_triples(store):
    store.replace_graph(G1, "\n".join(T.format(x) for x in ("one", "two", "three")))
    store.replace_graph(G2, T.format("two"))
    store.change_graph(G1, T.format("two") + "\n" + T.format("absent"), T.format("four") + "\n" + T.format("one"))
    store.change_graph(G1, "", "")  # nothing to do
    rows = store.select("SELECT ?g ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g ?o")
    assert rows, "the graphs hold triples"
    assert [(r["g"], r["o"]) for r in rows] == [(G1, "four"), (G1, "one"), (G1, "three"), (G2, "two")]
    store.change_graph(G2, "", T.format("five"))  # only additions
    assert len(store) == 5


def test_odd_literals_round_trip(store):
    odd = 'quote " back\\slash \n newline <script> \u202e rtl \U0001F600'
    line = f"{ox.NamedNode('https://kg.example.org/s')} {ox.NamedNode('https://kg.example.org/p')} {ox.Literal(odd)} ."
    store.replace_graph(G1, line)
    assert store.select("SELECT ?o WHERE { ?s ?p ?o }")[0]["o"] == odd


def test_dumps_parse_back(store):
    store.replace_graph(G1, T.format("one"))
    store.replace_graph(G2, T.format("one"))
    ttl = store.dump("turtle", union=True)
    assert len(list(ox.parse(ttl, format=ox.RdfFormat.TURTLE))) == 1
    nq = store.dump("nquads", union=False)
    assert len(list(ox.parse(nq, format=ox.RdfFormat.N_QUADS))) == 2


def test_dumps_keep_every_quad_with_its_graph(store):
    """N-Quads gives each graph's triples under that graph, even a literal that ends in " ." before
    a newline or holds characters that some line splitters cut at; the union formats hold each
    distinct triple once."""
    s, p = ox.NamedNode("https://kg.example.org/s"), ox.NamedNode("https://kg.example.org/p")
    odd = [ox.Literal(text) for text in ("ends with .\n", "a .\n<x> .", "para\u2029line\u2028x\x85y\x1c", "plain")]
    store.replace_graph(G1, "\n".join(f"{s} {p} {o} ." for o in odd))
    store.replace_graph(G2, f"{s} {p} {odd[3]} .\n{s} {p} {ox.Literal('only b')} .")
    quads = set(ox.parse(store.dump("nquads", union=False), format=ox.RdfFormat.N_QUADS))
    want = {ox.Quad(s, p, o, ox.NamedNode(G1)) for o in odd}
    want |= {ox.Quad(s, p, o, ox.NamedNode(G2)) for o in (odd[3], ox.Literal("only b"))}
    assert quads == want
    for fmt, rdf in (("nt", ox.RdfFormat.N_TRIPLES), ("turtle", ox.RdfFormat.TURTLE)):
        triples = list(ox.parse(store.dump(fmt, union=True), format=rdf))
        assert sorted(map(str, triples)) == sorted({str(ox.Triple(q.subject, q.predicate, q.object)) for q in want})


def test_bad_query_is_a_query_error(store):
    with pytest.raises(QueryError):
        store.select("SELEKT nothing")


def test_persistent_store_survives_reopen(tmp_path: Path):
    st = OxigraphStore(tmp_path / "s")
    st.replace_graph(G1, T.format("kept"))
    st.close()
    del st
    again = OxigraphStore(tmp_path / "s")
    assert again.select("SELECT ?o WHERE { ?s ?p ?o }")[0]["o"] == "kept"


def test_second_process_gets_store_locked(tmp_path: Path):
    path = tmp_path / "locked"
    holder = OxigraphStore(path)
    code = (
        "import sys\nfrom kg.store import OxigraphStore\nfrom kg.errors import StoreLocked\n"
        f"try:\n    OxigraphStore({str(path)!r})\nexcept StoreLocked as e:\n    print(e); sys.exit(3)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    holder.close()
    assert res.returncode == 3, res.stderr
    assert "locked by another kg process" in res.stdout
    assert StoreLocked.code in res.stdout
