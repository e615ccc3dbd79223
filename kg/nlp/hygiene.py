"""Text hygiene before NLP: the text spaCy sees is clean, every offset still points into the original.

``sanitize(text)`` returns the text to parse and a map back to ``text``:

- removed: zero-width characters (U+200B-U+200D, U+2060, U+FEFF), the soft hyphen (U+00AD) and the
  invisible operators (U+2061-U+2064); bidi marks, embeddings, overrides and isolates (U+200E, U+200F,
  U+061C, U+202A-U+202E, U+2066-U+2069); C0 and C1 control characters and DEL, except tab and
  newline; lone surrogates; a carriage return before a newline;
- turned into ``"\\n"`` (one for one): a carriage return not followed by a newline, vertical tab,
  form feed, NEL (U+0085), line and paragraph separators (U+2028, U+2029);
- then Unicode NFC. NFC can change lengths ("e" + U+0301 -> "é"), so it is applied per
  *normalization segment*: a run that starts at a character that never combines with what precedes
  it (canonical combining class 0, unchanged by NFC, not the second half of a canonical
  composition). Every character of a segment that NFC changed maps to the whole original segment.

The map (``Sanitized.span``) turns a span of the clean text into the span of the original text it
came from: ``original[a:b]`` is the same characters, plus any removed ones inside the span, with
combining sequences never cut. A span's start maps to the original position of its first character
(removed characters before it are not included), its end to just after its last character (removed
characters after it are not included). Text that needs no change costs no map at all.

``split(text, limit)`` cuts a long text into pieces of at most ``limit`` characters on paragraph
boundaries (blank lines, then single newlines, then sentence ends, then any whitespace; a hard cut
only when a piece holds none of them), so an article longer than spaCy's ``max_length`` or a memory
bound is parsed piece by piece.
"""
from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Sanitized", "sanitize", "is_blank", "split", "REMOVED_CHARS"]

#: Characters removed from the text before parsing (a regex character class body).
REMOVED_CHARS = (
    "\u200b-\u200d\u2060\ufeff\u00ad\u2061-\u2064"  # zero-width, soft hyphen, invisible operators
    "\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\x00-\x08\x0e-\x1f\x7f\x80-\x84\x86-\x9f"  # C0 (but tab, newline and the line breaks below), DEL, C1 (but NEL)
    "\ud800-\udfff"  # lone surrogates
)
_LINE_BREAKS = "\x0b\x0c\x85\u2028\u2029"
#: One match per character that hygiene changes: removed, or replaced by a newline.
_SPECIAL = re.compile(f"(?P<removed>[{REMOVED_CHARS}]|\\r(?=\\n))|(?P<newline>[\\r{_LINE_BREAKS}])")
_VISIBLE = re.compile(f"[^\\s{REMOVED_CHARS}]")
_WORD = re.compile(r"[^ \n\t]+")  # ASCII spaces, tabs and newlines are NFC-stable boundaries


@dataclass(frozen=True)
class Sanitized:
    """The clean text and the map from its offsets to those of the original text."""

    text: str
    original_length: int
    #: original start of each clean character; None when the text was not changed at all
    starts: array | None = None
    #: original end of each clean character; None when it is always start + 1
    ends: array | None = None

    @property
    def changed(self) -> bool:
        return self.starts is not None

    def start(self, i: int) -> int:
        """Original offset for a span that starts at clean offset ``i``."""
        if self.starts is None:
            return i
        return self.starts[i] if i < len(self.text) else self.original_length

    def end(self, i: int) -> int:
        """Original offset for a span that ends at clean offset ``i``."""
        if self.starts is None:
            return i
        if i <= 0:
            return 0
        return self.ends[i - 1] if self.ends is not None else self.starts[i - 1] + 1

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the clean span ``[start, end)``."""
        a = self.start(start)
        return a, max(a, self.end(end))


def is_blank(text: str) -> bool:
    """True if nothing but whitespace and characters hygiene removes: nothing to read."""
    return _VISIBLE.search(text) is None


def sanitize(text: str) -> Sanitized:
    """The text spaCy should parse, with the map back to ``text`` (see the module docstring)."""
    n = len(text)
    if _SPECIAL.search(text) is None:
        if text.isascii() or unicodedata.is_normalized("NFC", text):
            return Sanitized(text, n)
        step1, starts = text, array("q", range(n))
    else:
        parts: list[str] = []
        starts = array("q")
        pos = 0
        for m in _SPECIAL.finditer(text):
            a = m.start()
            if a > pos:
                parts.append(text[pos:a])
                starts.extend(range(pos, a))
            if m.lastgroup == "newline":
                parts.append("\n")
                starts.append(a)
            pos = m.end()
        parts.append(text[pos:])
        starts.extend(range(pos, n))
        step1 = "".join(parts)
        if step1.isascii() or unicodedata.is_normalized("NFC", step1):
            return Sanitized(step1, n, starts)
    return _nfc(step1, starts, n)


def _nfc(text: str, starts1: array, n: int) -> Sanitized:
    """NFC per normalization segment; ``starts1`` maps ``text`` (1:1 chars) to the original."""
    parts: list[str] = []
    starts = array("q")
    ends = array("q")
    pos = 0

    def copy(a: int, b: int) -> None:
        if b > a:
            parts.append(text[a:b])
            seg = starts1[a:b]
            starts.extend(seg)
            ends.extend(x + 1 for x in seg)

    for m in _WORD.finditer(text):
        word = m.group()
        if word.isascii() or unicodedata.is_normalized("NFC", word):
            continue
        copy(pos, m.start())
        for a, b in _segments(word):
            seg = word[a:b]
            nfc = unicodedata.normalize("NFC", seg)
            if nfc == seg:
                copy(m.start() + a, m.start() + b)
            else:
                first, last = starts1[m.start() + a], starts1[m.start() + b - 1] + 1
                parts.append(nfc)
                starts.extend([first] * len(nfc))
                ends.extend([last] * len(nfc))
        pos = m.end()
    copy(pos, len(text))
    return Sanitized("".join(parts), n, starts, ends)


def _segments(word: str) -> list[tuple[int, int]]:
    """Spans of ``word`` that NFC normalizes independently (split before each stable character)."""
    second = _composes_with_previous()
    cuts = [0]
    for i in range(1, len(word)):
        c = word[i]
        if not unicodedata.combining(c) and c not in second and unicodedata.normalize("NFC", c) == c:
            cuts.append(i)
    cuts.append(len(word))
    return list(zip(cuts, cuts[1:]))


@lru_cache(maxsize=1)
def _composes_with_previous() -> frozenset[str]:
    """Characters that can be the second of a canonical composition (NFC_Quick_Check = Maybe)."""
    out = {chr(c) for c in range(0x1161, 0x1176)} | {chr(c) for c in range(0x11A8, 0x11C3)}  # Hangul V, T
    for cp in range(0x110000):
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<"):
            parts = d.split()
            if len(parts) == 2:
                out.add(chr(int(parts[1], 16)))
    return frozenset(out)


_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")
_NEWLINE = re.compile(r"\n\s*")
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+")
_SPACE = re.compile(r"\s+")


def split(text: str, limit: int) -> list[tuple[int, int]]:
    """Cut ``text`` into consecutive ``[start, end)`` pieces of at most ``limit`` characters.

    The pieces cover the text exactly. A cut goes after the last blank line of the window that is
    past its middle, else after the last newline, sentence end or whitespace past the middle, else
    after the last one anywhere in the window (same order), else at ``limit`` (moved back so a
    combining sequence stays whole). The separator stays at the end of the piece before the cut.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    n = len(text)
    if n <= limit:
        return [(0, n)]
    out: list[tuple[int, int]] = []
    pos = 0
    while n - pos > limit:
        cut = _cut(text, pos, pos + limit)
        out.append((pos, cut))
        pos = cut
    out.append((pos, n))
    return out


def _cut(text: str, pos: int, stop: int) -> int:
    half = pos + (stop - pos) // 2
    found: list[int] = []
    for rx in (_BLANK_LINE, _NEWLINE, _SENTENCE_END, _SPACE):
        last = None
        for m in rx.finditer(text, pos, stop):
            if m.end() > pos:
                last = m.end()
        if last is not None:
            if last > half:
                return last
            found.append(last)
    if found:
        return found[0]
    cut = stop
    while cut > pos + 1 and stop - cut < 32 and (unicodedata.combining(text[cut]) or text[cut] in _composes_with_previous()):
        cut -= 1
    return cut
