"""The only place kg mints IRIs: deterministic, and valid for any input text.

Names are turned into readable slugs (ASCII letters, digits and hyphens); whatever a slug
cannot carry (non-Latin text, emoji) is kept by percent-encoding its UTF-8 bytes, so two
different names never share an IRI by accident and every IRI parses in strict parsers.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from urllib.parse import quote


@lru_cache(maxsize=65536)
def slug(text: str, max_len: int = 80) -> str:
    """A lowercase, hyphenated, IRI-safe form of ``text``; never empty.

    Latin letters lose their accents ("Gérald" -> "gerald"); other letters and digits are
    percent-encoded rather than dropped; anything else separates words. An empty result
    or an over-long one ends in a short hash of the text, so it stays distinct.
    """
    words: list[str] = []
    word: list[str] = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch):
            continue
        if ch.isascii() and ch.isalnum():
            word.append(ch.lower())
        elif not ch.isascii() and ch.isalnum():
            word.append(quote(ch, safe=""))
        elif word:
            words.append("".join(word))
            word = []
    if word:
        words.append("".join(word))
    out = "-".join(words)
    if not out:
        return "x" + _short_hash(text)
    if len(out) > max_len:
        cut = out[: max_len - 9]
        cut = re.sub(r"%[0-9A-F]?$", "", cut).rstrip("-")
        out = f"{cut}-{_short_hash(text)}"
    return out


@lru_cache(maxsize=65536)
def segment(text: str) -> str:
    """An identifier kept exactly, as one IRI path segment: percent-encoded, reversible.

    Used for article ids, which users and tools match literally ("000_c1fb5056ffc75613").
    """
    encoded = quote(unicodedata.normalize("NFC", text).encode("utf-8", "surrogatepass"), safe="-_.~")
    return encoded if encoded not in ("", ".", "..") else "x" + _short_hash(text)


def _short_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


class Minter:
    """Mints every IRI of the graph under one base IRI (``https://.../`` ending in a slash)."""

    def __init__(self, base: str) -> None:
        # fullmatch, not match + "$": "$" also matches before a trailing newline.
        ok = re.fullmatch(r"[a-z][a-z0-9+.-]*://(?:[^\x00-\x20\x7f<>\"{}|\\^`%]|%[0-9A-Fa-f]{2})+/", base)
        if ok:  # and what the regex lets through must be an IRI to a strict parser (ports, C1 controls, ...)
            import pyoxigraph

            try:
                pyoxigraph.NamedNode(base + "x")
            except ValueError:
                ok = None
        if not ok:
            from ..errors import UsageError

            raise UsageError(f"base IRI {base!r} must be an absolute http(s) IRI ending in '/'")
        self.base = base

    def article(self, article_id: str) -> str:
        """The article itself (a schema:NewsArticle)."""
        return f"{self.base}article/{segment(article_id)}"

    def graph(self, article_id: str) -> str:
        """The named graph that holds everything read from one article."""
        return f"{self.base}graph/{segment(article_id)}"

    def resolution_graph(self) -> str:
        """The one graph of what articles share: entity, role and class descriptions, and the
        cross-article entity resolution (never an article graph: those are {base}graph/...)."""
        return f"{self.base}resolution"

    def entity(self, etype: str, label: str, article_id: str | None = None) -> str:
        """A named entity (global, by type and name) or an unnamed group (local to its article)."""
        if etype == "Group" and article_id is not None:
            return f"{self.base}entity/{segment(article_id)}/group/{slug(label)}"
        return f"{self.base}entity/{slug(etype)}/{slug(label)}"

    def fact(self, kind: str, article_id: str, *parts: object) -> str:
        """An event, membership or evidence node: a hash of what makes it that fact."""
        digest = hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        return f"{self.base}{kind}/{segment(article_id)}/{digest}"

    def role(self, label: str) -> str:
        """An org:Role such as "press secretary", shared by every membership that names it."""
        return f"{self.base}role/{slug(label)}"
