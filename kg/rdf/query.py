"""Run SPARQL over the store and format the answer as a table, CSV, TSV or JSON."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyoxigraph as ox

from ..errors import QueryError, UsageError
from ..store import Store

FORMATS = ("table", "csv", "tsv", "json")
QUERY_DIR = Path(__file__).resolve().parent / "queries"


def query_text(arg: str) -> str:
    """A query given inline, or the text of a ``.rq`` file (a path, or a name in queries/)."""
    if arg.endswith(".rq"):
        path = Path(arg)
        if not path.is_file() and (QUERY_DIR / arg).is_file():
            path = QUERY_DIR / arg
        if not path.is_file():
            raise UsageError(f"query file {arg} does not exist")
        return path.read_text(encoding="utf-8")
    return arg


def run(store: Store, sparql: str) -> tuple[list[str], list[list[str | None]]] | bool | bytes:
    """SELECT -> (columns, rows); ASK -> bool; CONSTRUCT/DESCRIBE -> Turtle bytes."""
    res = store.raw_query(sparql)
    try:  # Oxigraph evaluates as the results are read: its errors come here
        if isinstance(res, ox.QueryBoolean):
            return bool(res)
        if isinstance(res, ox.QuerySolutions):
            cols = [v.value for v in res.variables]
            rows = [[None if sol[c] is None else sol[c].value for c in cols] for sol in res]
            return cols, rows
        if isinstance(res, ox.QueryTriples):
            return ox.serialize(list(res), format=ox.RdfFormat.TURTLE) or b""
    except (OSError, RuntimeError, ValueError) as err:
        raise QueryError(f"the query failed: {err}") from err
    raise QueryError("the store returned an unknown result kind")


#: the parts of the base IRI that get a prefix of their own in tables (``entity:person/halvard-moen``)
BASE_PARTS = ("entity", "article", "event", "role", "graph", "mention")


def display_prefixes(base: str) -> list[tuple[str, str]]:
    """Prefix and namespace pairs for tables, longest namespace first: kg's vocabularies
    (``vocab.PREFIXES``) and the base's own parts (``entity:``, ``article:``, ``graph:``...)."""
    from ..model.vocab import PREFIXES

    pairs = [(p, ns) for p, ns in PREFIXES.items()] + [(part, f"{base}{part}/") for part in BASE_PARTS]
    pairs.append(("base", base))
    return sorted(pairs, key=lambda pair: -len(pair[1]))


def shorten(value: str | None, prefixes: list[tuple[str, str]]) -> str:
    """A value as a table shows it: an IRI in a known namespace as ``prefix:rest``, else as it is."""
    if not value:
        return ""
    for prefix, ns in prefixes:
        if value.startswith(ns) and len(value) > len(ns):
            return f"{prefix}:{value[len(ns):]}"
    return value


def render(result: tuple[list[str], list[list[str | None]]] | bool | bytes, fmt: str) -> str:
    """Text for a result in one of FORMATS (graphs are always Turtle)."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if isinstance(result, bool):
        return json.dumps({"boolean": result}) if fmt == "json" else str(result).lower()
    if isinstance(result, bytes):
        return result.decode("utf-8")
    cols, rows = result
    if fmt == "json":
        return json.dumps([dict(zip(cols, r)) for r in rows], ensure_ascii=False, indent=2)
    if fmt in ("csv", "tsv"):
        buf = io.StringIO()
        writer = csv.writer(buf, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
        writer.writerow(cols)
        writer.writerows([["" if v is None else v for v in r] for r in rows])
        return buf.getvalue()
    raise UsageError("table output is drawn by the command line")
