"""Input files and folders -> ``Article`` objects, with a stable id and a content hash.

A ``.txt`` file is one article; its id is the file name stem (stable across runs and
machines). Bad inputs (empty, binary, undecodable) are reported as ``Skipped``, never raised,
so one bad file does not stop a build.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from .errors import UsageError
from .facts import Article

SUFFIXES = (".txt",)


@dataclass(frozen=True)
class Skipped:
    """An input that was not ingested, and why (one line, names the file)."""

    path: str
    reason: str


def content_hash(text: str) -> str:
    """sha256 of the article text: the same text always gives the same hash."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _decode(data: bytes) -> str | None:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return None
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    return text


def read_file(path: Path) -> Article | Skipped:
    """Read one text file as an article, or say why it cannot be."""
    try:
        data = path.read_bytes()
    except OSError as err:
        return Skipped(str(path), f"cannot be read: {err.strerror or err}")
    text = _decode(data)
    if text is None:
        return Skipped(str(path), "is binary or not in a known text encoding (UTF-8, UTF-16, Windows-1252)")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return Skipped(str(path), "is empty")
    return Article(id=path.stem, text=text, path=str(path), content_hash=content_hash(text))


def expand(paths: Iterable[str | Path]) -> list[Path]:
    """Files named, and the article files inside folders named (recursively, sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES))
        elif p.is_file():
            out.append(p)
        else:
            raise UsageError(f"{p} does not exist: give article files (.txt) or folders that hold them")
    return out


def read_articles(paths: Iterable[str | Path]) -> Iterator[Article | Skipped]:
    """Every article under the given paths, in a stable order, with the bad ones reported."""
    for path in expand(paths):
        yield read_file(path)
