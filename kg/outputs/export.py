"""Write the graph out: Turtle (union of all articles), N-Triples, N-Quads, TriG, JSON-LD.

Files are written to a temporary file beside the target and renamed, so a crash never
leaves half a file where a whole one was (a FIFO is written in place; ``kg.files``).
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import BinaryIO

from ..errors import UsageError
from ..files import atomic_write, sync, write_atomic
from ..model.vocab import sparql_prefixes
from ..store import EXPORT_FORMATS, Store

FORMATS = ("turtle", "nt", "nquads", "trig", "jsonld")
SUFFIX = {"turtle": ".ttl", "nt": ".nt", "nquads": ".nq", "trig": ".trig", "jsonld": ".jsonld"}


#: the formats that keep one graph per article (JSON-LD does with ``per_article``)
DATASET_FORMATS = ("nquads", "trig")


def check_format(fmt: str, per_article: bool = False) -> None:
    """``UsageError`` for an unknown format, or ``per_article`` with a format of one graph."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if per_article and fmt in ("turtle", "nt"):
        raise UsageError(f"{fmt} holds one graph; for one graph per article use nquads, trig or jsonld --per-article")


def serialize(store: Store, fmt: str, per_article: bool = False) -> bytes:
    """The store in one format. Turtle, N-Triples and JSON-LD hold the union of the graphs, each
    triple once (JSON-LD as one graph, what ``rdflib.Graph().parse`` reads); N-Quads, TriG and
    JSON-LD with ``per_article`` keep each graph apart (a JSON-LD dataset of named graphs)."""
    check_format(fmt, per_article)
    if fmt == "jsonld" and per_article:
        from rdflib import Dataset

        ds = Dataset()
        ds.parse(data=store.dump("nquads", union=False).decode("utf-8"), format="nquads")
        return ds.serialize(format="json-ld", encoding="utf-8")
    if fmt == "jsonld":
        import pyoxigraph as ox

        triples = ox.parse(store.dump("nt", union=True), format=ox.RdfFormat.N_TRIPLES)
        return ox.serialize(triples, format=ox.RdfFormat.JSON_LD) or b"[]"
    if fmt in STREAMED and getattr(store, "dump_to", None) is not None:
        buf = io.BytesIO()
        _dump_to(store, buf, fmt)
        return buf.getvalue()
    return store.dump(fmt, union=fmt not in DATASET_FORMATS)


#: Formats the embedded store writes graph by graph (``dump_to``), the others being made whole first.
STREAMED = ("turtle", "nquads")


def _dump_to(store: Store, out: BinaryIO, fmt: str) -> None:
    union = fmt not in DATASET_FORMATS
    big = [r["g"] for r in store.select(_Q_RESOLUTION) if r["g"]]  # read from the start: it is the biggest
    store.dump_to(out, fmt, union, union and kg_graphs(store), big)  # type: ignore[attr-defined]


_Q_RESOLUTION = sparql_prefixes("kg") + "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?g kg:inputDigest ?d } }"


def export_file(store: Store, path: Path, fmt: str) -> None:
    """Serialize the store to a file, atomically; Turtle and N-Quads of the embedded store streamed to
    it as they are read (``dump_to``: N-Quads, and Turtle of a store whose graphs are all kg's)."""
    if fmt not in STREAMED or getattr(store, "dump_to", None) is None:
        write_atomic(path, serialize(store, fmt))
        return

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            _dump_to(store, fh, fmt)
            sync(fh)

    atomic_write(path, write, make_parents=True)


_Q_GRAPHS = sparql_prefixes("kg") + """SELECT ?g ?a ?v ?d WHERE { GRAPH ?g {
  { ?a a kg:Article OPTIONAL { ?a kg:layoutVersion ?v } } UNION { ?g kg:inputDigest ?d } } }"""


def kg_graphs(store: Store) -> bool:
    """Whether every named graph is one kg wrote: an article graph of the current layout (one article;
    it holds only triples about that article's own nodes) or the resolution graph (the one graph with
    a ``kg:inputDigest``). Then no triple is in two graphs, and the union is their concatenation."""
    from ..rdf.mapping import LAYOUT_VERSION

    rows = store.select(_Q_GRAPHS)
    articles: dict[str, list[tuple[str | None, str | None]]] = {}
    digests = set()
    for r in rows:
        if r["d"] is not None:
            digests.add(r["g"])
        if r["a"] is not None:
            articles.setdefault(r["g"] or "", []).append((r["a"], r["v"]))
    if len(digests) > 1 or set(articles) & digests:
        return False
    if any(len(found) != 1 or found[0][1] != str(LAYOUT_VERSION) for found in articles.values()):
        return False
    if len({found[0][0] for found in articles.values()}) != len(articles):
        return False
    return set(store.graphs()) == set(articles) | digests


assert set(EXPORT_FORMATS) <= set(FORMATS)
