"""Acronyms and their expansions: "VNA" and "Valdorian News Agency", from a name or a text that pairs them (rule 2)."""
from __future__ import annotations

import re

from ..nlp.lexicon import ACRONYM_SMALL_WORDS


_ACRONYM = re.compile(r"^(?:[A-Z]\.){2,8}$|^[A-Z][A-Z&]{1,7}$")


_PAREN_AFTER = re.compile(r"[\(\[]\s*((?:[A-Z]\.){2,8}|[A-Z][A-Z&]{1,7})\s*[\)\]]")


_PAREN_BEFORE = re.compile(r"\b((?:[A-Z]\.){2,8}|[A-Z][A-Z&]{1,7})\s*[\(\[]([^\)\]\n]{3,100})[\)\]]")


_WORD = re.compile(r"[^\s\(\)\[\],;:\"\u201c\u201d]+")


LABEL_WITH_ACRONYM = re.compile(r"^(.*\S)\s*[\(\[]\s*((?:[A-Z]\.){2,8}|[A-Z][A-Z&]{1,7})\s*[\)\]]$")


def acronym_of(name: str) -> str | None:
    """"VNA" -> "vna", "U.N." -> "un"; None if the name is not an acronym."""
    s = name.strip()
    return re.sub(r"[^A-Za-z]", "", s).lower() if _ACRONYM.match(s) else None


def _initials(expansion: str) -> set[str]:
    tokens = [t for t in re.split(r"\s+", expansion.strip()) if t]
    out = set()
    for hyphens in (False, True):
        parts: list[str] = []
        for t in tokens:
            parts.extend(re.split(r"[-\u2010\u2011]", t) if hyphens else [t])
        clean = [re.sub(r"[^\w]", "", p) for p in parts]
        clean = [c for c in clean if c]
        for skip in (False, True):
            use = [c for c in clean if not (skip and c.lower() in ACRONYM_SMALL_WORDS)]
            out.add("".join(c[0].lower() for c in use))
    return out


def expands(acronym: str, expansion: str) -> bool:
    """Whether ``expansion`` spells out the acronym key ("vna", "Valdorian News Agency")."""
    ws = expansion.split()
    return len(ws) >= 2 and ws[0][:1].isupper() and acronym in _initials(expansion)


def text_pairs(text: str) -> list[tuple[str, str]]:
    """(acronym key, expansion) pairs a text states: "Valdorian News Agency (VNA)", "VPF (Valdorian ...)"."""
    pairs = []
    for m in _PAREN_AFTER.finditer(text):
        acr = re.sub(r"[^A-Za-z]", "", m.group(1)).lower()
        before = list(_WORD.finditer(text, max(0, m.start() - 200), m.start()))
        toks = [w.group(0) for w in before][-(len(acr) + 4):]
        for i in range(len(toks) - 1, -1, -1):
            cand = " ".join(toks[i:]).rstrip(",")
            if expands(acr, cand):
                pairs.append((acr, re.sub(r"['\u2019]s$", "", cand)))
                break
    for m in _PAREN_BEFORE.finditer(text):
        acr = re.sub(r"[^A-Za-z]", "", m.group(1)).lower()
        inside = " ".join(m.group(2).split())
        if expands(acr, inside):
            pairs.append((acr, inside))
    return pairs
