"""Write the graph out: Turtle (union of all articles), N-Triples, N-Quads, TriG, JSON-LD.

Files are written to a temporary file beside the target and renamed, so a crash never
leaves half a file where a whole one was.
"""
from __future__ import annotations

from pathlib import Path

from .errors import UsageError
from .files import write_atomic
from .store import EXPORT_FORMATS, Store

FORMATS = ("turtle", "nt", "nquads", "trig", "jsonld")
SUFFIX = {"turtle": ".ttl", "nt": ".nt", "nquads": ".nq", "trig": ".trig", "jsonld": ".jsonld"}


def serialize(store: Store, fmt: str) -> bytes:
    """The store in one format; triple formats hold the union of the article graphs."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "jsonld":
        from rdflib import Dataset

        ds = Dataset()
        ds.parse(data=store.dump("nquads", union=False).decode("utf-8"), format="nquads")
        return ds.serialize(format="json-ld", encoding="utf-8")
    return store.dump(fmt, union=fmt in ("turtle", "nt"))


def export_file(store: Store, path: Path, fmt: str) -> None:
    """Serialize the store to a file, atomically."""
    write_atomic(path, serialize(store, fmt))


assert set(EXPORT_FORMATS) <= set(FORMATS)
