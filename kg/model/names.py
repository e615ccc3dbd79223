"""Names as kg compares them: folded (case, accents, punctuation), stripped of a leading "the" and a
trailing "'s", persons' titles dropped, places' variants and demonyms joined (``name_key``), and the
most complete of several names (``completeness``). Entity resolution and the network's lookups use these.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..nlp.lexicon import DEMONYMS, PLACE_ALIASES, RANKS

_HONORIFICS = frozenset(w.rstrip(".") for w in RANKS) | {"mr", "mrs", "ms", "miss", "dr", "sir", "dame", "lord", "lady"}


@lru_cache(maxsize=262144)
def fold(text: str) -> str:
    """Lowercase, accents dropped, every run of non-alphanumerics one space ("Jong-Un" -> "jong un")."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch):
            continue
        out.append(ch.lower() if ch.isalnum() else " ")
    return " ".join("".join(out).split())


@lru_cache(maxsize=262144)
def compact(text: str) -> str:
    """``fold`` without its spaces: the key a name is known by within an article ("Soo-Min" and "Soo Min"
    are "soomin", "Gérald" is "gerald")."""
    return fold(text).replace(" ", "")


def words(text: str) -> list[str]:
    """The folded words of a name, a possessive "'s" inside it dropped."""
    return fold(text.replace("'s ", " ").replace("\u2019s ", " ")).split()


def strip_name(name: str) -> str:
    """A name without a leading "the" and a trailing "'s", spaces collapsed."""
    s = " ".join(name.split())
    s = re.sub(r"^(?:the|The|THE)\s+", "", s)
    return re.sub(r"['\u2019]s$", "", s).strip()


def person_words(name: str) -> list[str]:
    """A person's name words without leading titles ("President Halvard Moen" -> halvard, moen)."""
    ws = words(strip_name(name))
    while len(ws) > 1 and ws[0] in _HONORIFICS:
        ws = ws[1:]
    return ws


@lru_cache(maxsize=262144)
def name_key(name: str, etype: str) -> str:
    """The normalized form two names of one type must share to be the same name (rule 1)."""
    s = strip_name(name)
    low = s.lower()
    if etype in ("Place", "Organization"):
        s = PLACE_ALIASES.get(low, PLACE_ALIASES.get(fold(s), s))
    if etype == "Place":
        s = DEMONYMS.get(low, DEMONYMS.get(fold(s), s))
    if etype == "Person":
        return "".join(person_words(s))
    return "".join(words(s))


@lru_cache(maxsize=65536)
def completeness(label: str) -> tuple[int, int, int, str]:
    """Sort key: the most complete name first (most words, characters, capitals; then by text)."""
    return (-len(words(label)), -len(label), -sum(ch.isupper() for ch in label), label)


def fold_query(text: str) -> str:
    """A name or query as lookups compare it: spaces collapsed, case folded (accents kept)."""
    return " ".join(text.split()).casefold()
