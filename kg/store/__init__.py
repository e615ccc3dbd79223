"""The graph store: one named graph per article, replaced atomically on re-ingest.

``Store`` (``kg.store.base``) is the interface the rest of kg uses. Backends register how they open
a location: ``OxigraphStore`` (``kg.store.oxigraph``) a directory, the embedded persistent store,
and ``MemoryStore`` an in-memory one; ``SparqlHttpStore`` (``kg.store.sparql_http``) a SPARQL
server (``--store sparql+http://...``). All pass ``tests/test_store_contract.py``.
"""
from __future__ import annotations

from .base import (
                   EXPORT_FORMATS,
                   Row,
                   Store,
                   close_after_error,
                   is_remote,
                   ntriples_lines,
                   open_store,
                   opened,
                   register,
                   require_store,
                   select_all,
                   store_exists,
)
from .oxigraph import MemoryStore, OxigraphStore  # importing a backend registers it
from .sparql_http import SparqlHttpStore

__all__ = ["EXPORT_FORMATS", "MemoryStore", "OxigraphStore", "Row", "SparqlHttpStore", "Store", "close_after_error",
           "is_remote", "ntriples_lines", "open_store", "opened", "register", "require_store", "select_all",
           "store_exists"]
