"""Mention counts: how often an article's text names a cluster (any of its names, whole words,
case-sensitive, the longest first; places also by their variants and demonyms), at least 1.
"""
from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from typing import Protocol

from ..model.names import name_key
from ..nlp.lexicon import DEMONYMS, PLACE_ALIASES
from .clusters import Clusters
from .data import StoreData, StoredEntity

_TOKEN = re.compile(r"\w+|[^\w\s]")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


@lru_cache(maxsize=1)
def _place_variants() -> dict[str, frozenset[str]]:
    """Place key -> how texts also name it: "US", "U.S.", "America", "American" for "United States"."""
    out: dict[str, set[str]] = defaultdict(set)
    for alias, canon in PLACE_ALIASES.items():
        if not alias.startswith("the "):
            out[name_key(canon, "Place")].add(alias.upper() if len(re.sub(r"[^a-z]", "", alias)) <= 4 else alias.title())
    for demonym, country in DEMONYMS.items():
        out[name_key(country, "Place")].add(demonym.title())
    return {k: frozenset(v) for k, v in out.items()}


def _variants(ent: StoredEntity) -> set[str]:
    """Other ways a text names a place (none for other types)."""
    if ent.type != "Place":
        return set()
    table = _place_variants()
    return set().union(*(table.get(name_key(n, "Place"), frozenset()) for n in ent.names()))


class Finds(Protocol):
    """Anything that says which cluster an entity is in (``Clusters``, ``increment.Roots``)."""

    def find(self, iri: str) -> str: ...


def article_names(iris: set[str], ents: dict[str, StoredEntity], uf: Finds) -> dict[tuple[str, ...], set[str]]:
    """The tokens of every name (and place variant) of an article's entities -> the clusters (roots) they name."""
    names: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for i in iris:
        if i not in ents:
            continue
        for n in ents[i].names() | _variants(ents[i]):
            toks = tuple(_tokens(n))
            if toks:
                names[toks].add(uf.find(i))
    return names


def count_in_text(text: str, names: dict[tuple[str, ...], set[str]]) -> dict[str, int]:
    """root -> how often ``text`` names it: whole tokens, the longest name first at each place."""
    first: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for toks in names:
        first[toks[0]].append(toks)
    for cands in first.values():
        cands.sort(key=len, reverse=True)
    tokens = _tokens(text)
    found: dict[str, int] = defaultdict(int)
    k = 0
    while k < len(tokens):
        step = 1
        for toks in first.get(tokens[k], ()):
            if tuple(tokens[k : k + len(toks)]) == toks:
                for r in names[toks]:
                    found[r] += 1
                step = len(toks)
                break
        k += step
    return found


def count_mentions(data: StoreData, ents: dict[str, StoredEntity], uf: Clusters) -> dict[str, dict[str, int]]:
    """root -> article -> how often the article's text names the cluster (at least 1 if it mentions it)."""
    result: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for art, iris in data.mentions.items():
        roots = {uf.find(i) for i in iris if i in ents}
        found = count_in_text(data.texts.get(art, ""), article_names(iris, ents, uf))
        for r in roots:
            result[r][art] = max(1, found.get(r, 0))
    return result
