"""Write the graph out: Turtle (union of all articles), N-Triples, N-Quads, TriG, JSON-LD.

Files are written to a temporary file beside the target and renamed, so a crash never
leaves half a file where a whole one was.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..files import write_atomic
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
    return store.dump(fmt, union=fmt not in DATASET_FORMATS)


def export_file(store: Store, path: Path, fmt: str) -> None:
    """Serialize the store to a file, atomically."""
    write_atomic(path, serialize(store, fmt))


assert set(EXPORT_FORMATS) <= set(FORMATS)
