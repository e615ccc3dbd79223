"""An optional offline linking table: label, type, external IRI (a Wikidata entity, say).

A CSV or TSV file (TSV if the name ends in .tsv/.tab or the first line holds a tab) with
three columns ``label, type, iri`` and an optional header row naming them; blank lines and
lines starting with ``#`` are ignored. ``kg.resolve`` gives every entity cluster of that type
one of whose names is the label (compared like cluster names: case, accents and punctuation
ignored, "U.S." = "United States") an ``owl:sameAs`` link to the IRI; two clusters linked to
the same IRI are one entity. Nothing is fetched: no network at run time.

Where it is: ``linking = "FILE"`` in the curation file (relative to it), else ``KG_LINKING``.
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError

TYPES = ("Person", "Organization", "Place")


@dataclass(frozen=True)
class Link:
    """One row: entities of ``type`` named ``label`` are the thing ``iri`` names."""

    label: str
    type: str
    iri: str
    line: int = 0


def linking_path(from_curation: Path | None = None) -> Path | None:
    """The table named by the curation file, else by ``KG_LINKING``; None if neither names one."""
    if from_curation is not None:
        return from_curation
    env = os.environ.get("KG_LINKING")
    return Path(env) if env else None


def load_links(path: Path | None) -> list[Link]:
    """Read the table (no table: no links). A bad row is a one-line error naming FILE:LINE."""
    if path is None:
        return []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as err:
        raise UsageError(f"linking table {path} does not exist (named in the curation file or KG_LINKING)") from err
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(f"cannot read linking table {path}: {err}") from err
    return parse_links(text, str(path), tab=True if path.suffix.lower() in (".tsv", ".tab") else None)


def parse_links(text: str, where: str = "links", tab: bool | None = None) -> list[Link]:
    import pyoxigraph as ox

    first = next((line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")), "")
    delimiter = "\t" if tab or (tab is None and "\t" in first) else ","
    links: list[Link] = []
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    for row in reader:
        n = reader.line_num
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in row]
        if [c.lower() for c in cells[:3]] == ["label", "type", "iri"]:
            continue
        if len(cells) < 3 or not all(cells[:3]):
            raise UsageError(f"{where}:{n}: want three columns: label, type, iri")
        label, etype, iri = cells[:3]
        canon = etype[:1].upper() + etype[1:].lower()
        if canon not in TYPES:
            raise UsageError(f"{where}:{n}: type must be one of {', '.join(TYPES)}, not {etype!r}")
        try:
            ox.NamedNode(iri)
        except ValueError as err:
            raise UsageError(f"{where}:{n}: {iri!r} is not an absolute IRI") from err
        if ":" not in iri:
            raise UsageError(f"{where}:{n}: {iri!r} is not an absolute IRI")
        links.append(Link(label=label, type=canon, iri=iri, line=n))
    return links
