"""Incremental resolution: what a build reads, counts and writes grows with the articles it
changed, not with the store.

A resolution keeps a *memo* beside the store (``kg-resolution.json`` in an embedded store's
directory; in memory for any other store, for the life of the handle): per article graph, what
resolution reads of it (``data.ArticleData`` without its text), the acronym pairs its text states
(rule 2), and its mention counts with the signature they were counted under. The next resolution
reads again only the article graphs whose content hash or layout differ from the memo's, or that
the caller says it rewrote (``touched``), drops the ones gone from the store, and counts mentions
again only in an article whose entities' names or grouping into clusters changed (the
signature), so only the texts of the articles the change reaches are read. The rules themselves
then run over the whole store's entities, in memory: they are global by nature ("only one
expansion in the store", "the one cluster with a longer name") and cheap next to reading and
counting. So the result is the full recompute's by construction; ``tests/test_resolve_increment.py``
checks it over random orders of builds and removals.

The memo is used only when it describes the resolution graph the store holds (the same
``kg:inputDigest``) and was made by the same resolution code; anything else (another kg, a memo
lost or damaged, ``kg build --full-resolve``) starts from an empty memo, which is the full
recompute. Article graphs written through the same handle (``note_written``, called by
``kg.build.writer``) are read again even when their content hash is the same.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..store import Store
from .acronyms import text_pairs
from .clusters import Clusters
from .data import Q_TEXTS, ArticleData, StoreData, StoredEntity, gather, only_graphs, read_articles
from .mentions import article_names, count_in_text

#: The memo file in an embedded store's directory.
MEMO_FILE = "kg-resolution.json"
_VERSION = 1


@dataclass
class Memo:
    """What the last resolution read and counted, per article graph (see the module docstring)."""

    digest: str = ""  # the kg:inputDigest of the resolution graph it was made with
    code: str = ""  # the digest of the resolution code
    articles: dict[str, ArticleData] = field(default_factory=dict)  # graph -> data (no text)
    pairs: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # graph -> (acronym, expansion)
    counts: dict[str, tuple[str, list[int]]] = field(default_factory=dict)  # article IRI -> (signature, counts)


@dataclass
class Change:
    """What a resolution read again: article graphs read, dropped, and texts read for counting."""

    read: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    counted: list[str] = field(default_factory=list)
    full: bool = False


def _memo_path(store: Store) -> Path | None:
    path = getattr(store, "path", None)
    return Path(path) / MEMO_FILE if isinstance(path, Path) and not getattr(store, "read_only", False) else None


def load_memo(store: Store) -> Memo:
    """The store's memo (an empty one if it has none, or one that does not read)."""
    held = store.__dict__.get("_kg_resolution_memo")
    if isinstance(held, Memo):
        return held
    path = _memo_path(store)
    if path is None or not path.is_file():
        return Memo()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw.get("version") != _VERSION:
            return Memo()
        memo = Memo(digest=raw["digest"], code=raw["code"])
        for g, a in raw["articles"].items():
            memo.articles[g] = ArticleData(
                a["iri"], g, a["id"], a["hash"], a["layout"],
                namings=[(e, t, n, tuple(alts)) for e, t, n, alts in a["namings"]],
                partners={(x, y) for x, y in a["partners"]}, members={(p, o, r) for p, o, r in a["members"]},
                role_labels={(r, n) for r, n in a["role_labels"]}, classes=set(a["classes"]))
            memo.pairs[g] = [(x, y) for x, y in a["pairs"]]
        memo.counts = {art: (sig, list(ns)) for art, (sig, ns) in raw["counts"].items()}
        return memo
    except (OSError, ValueError, KeyError, TypeError):
        return Memo()


def save_memo(store: Store, memo: Memo) -> None:
    """Keep the memo for the next resolution (written whole, then renamed over the old one)."""
    store.__dict__["_kg_resolution_memo"] = memo
    path = _memo_path(store)
    if path is None:
        return
    raw: dict[str, Any] = {"version": _VERSION, "digest": memo.digest, "code": memo.code, "articles": {
        g: {"iri": a.iri, "id": a.id, "hash": a.hash, "layout": a.layout, "namings": a.namings,
            "partners": sorted(a.partners), "members": sorted(a.members), "role_labels": sorted(a.role_labels),
            "classes": sorted(a.classes), "pairs": memo.pairs.get(g, [])}
        for g, a in sorted(memo.articles.items())}, "counts": memo.counts}
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(raw, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        forget_memo(store)  # the next resolution recomputes everything


def forget_memo(store: Store) -> None:
    """Drop the memo: the next resolution recomputes everything."""
    store.__dict__.pop("_kg_resolution_memo", None)
    path = _memo_path(store)
    if path is not None:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass


def note_written(store: Store, graph: str) -> None:
    """Record that an article graph was written through this handle: the next resolution reads it
    again even if its content hash is the same (a rebuild with ``--force`` by a newer extractor)."""
    store.__dict__.setdefault("_kg_written", set()).add(graph)


def refresh(store: Store, memo: Memo, current: dict[str, tuple[str, str]],
            touched: Iterable[str] = ()) -> tuple[Change, dict[str, str]]:
    """Bring the memo up to the store's article graphs (``current``: graph -> (content hash, layout)),
    reading again the graphs that are new, changed or ``touched``; returns what it did, and the texts
    it read (article IRI -> text)."""
    change = Change(full=not memo.articles)
    gone = sorted(set(memo.articles) - set(current))
    for g in gone:
        memo.articles.pop(g, None)
        memo.pairs.pop(g, None)
    change.dropped = gone
    stale = {g for g, (h, v) in current.items()
             if g not in memo.articles or (memo.articles[g].hash, memo.articles[g].layout) != (h, v)}
    stale |= (set(touched) | store.__dict__.pop("_kg_written", set())) & set(current)
    fresh = read_articles(store, None if change.full else sorted(stale)) if stale else []
    for g in stale:
        memo.articles.pop(g, None)
        memo.pairs.pop(g, None)
    for art in fresh:
        memo.pairs[art.graph] = text_pairs(art.text)
        memo.counts.pop(art.iri, None)
        memo.articles[art.graph] = art
    change.read = sorted(a.graph for a in fresh)
    known = {a.iri for a in memo.articles.values()}
    memo.counts = {a: c for a, c in memo.counts.items() if a in known}
    return change, {a.iri: a.text for a in fresh}


def memo_data(memo: Memo) -> tuple[StoreData, list[tuple[str, str, str]]]:
    """The store's data (texts left out) and the acronym pairs its texts state, from the memo."""
    arts = sorted(memo.articles.values(), key=lambda a: a.iri)
    stated = [(a.iri, acr, exp) for a in arts for acr, exp in memo.pairs.get(a.graph, [])]
    return gather(arts), stated


class MemoCounter:
    """Counts mentions as ``mentions.count_mentions`` does, reusing the memo's count of an article
    whose signature (its names, grouped by cluster) is unchanged, and reading the texts of the others."""

    def __init__(self, store: Store, memo: Memo, texts: dict[str, str], change: Change) -> None:
        self.store, self.memo, self.texts, self.change = store, memo, texts, change
        self.graph_of = {a.iri: g for g, a in memo.articles.items()}

    def __call__(self, data: StoreData, ents: dict[str, StoredEntity], uf: Clusters) -> dict[str, dict[str, int]]:
        result: dict[str, dict[str, int]] = defaultdict(dict)
        todo: list[tuple[str, list[str], dict[tuple[str, ...], set[str]], str]] = []
        for art, iris in data.mentions.items():
            names = article_names(iris, ents, uf)
            groups: dict[str, list[str]] = defaultdict(list)  # root -> the article's members of it
            for i in sorted(iris):
                if i in ents:
                    groups[uf.find(i)].append(i)
            roots = sorted(groups, key=lambda r: groups[r])  # in an order that does not depend on the roots
            index = {r: n for n, r in enumerate(roots)}
            sig = hashlib.sha1(repr(([groups[r] for r in roots],
                                     sorted((t, sorted(index[r] for r in rs)) for t, rs in names.items())))
                               .encode("utf-8")).hexdigest()
            had = self.memo.counts.get(art)
            if had is not None and had[0] == sig and len(had[1]) == len(roots):
                for r, n in zip(roots, had[1]):
                    result[r][art] = n
            else:
                todo.append((art, roots, names, sig))
        self.texts.update(self._read_texts([art for art, *_ in todo if art not in self.texts]))
        for art, roots, names, sig in todo:
            found = count_in_text(self.texts.get(art, ""), names)
            counts = [max(1, found.get(r, 0)) for r in roots]
            for r, n in zip(roots, counts):
                result[r][art] = n
            self.memo.counts[art] = (sig, counts)
        self.change.counted = sorted(art for art, *_ in todo)
        return result

    def _read_texts(self, articles: list[str]) -> dict[str, str]:
        """The texts of some articles (by article IRI), read from their graphs."""
        graphs = sorted({self.graph_of[a] for a in articles if a in self.graph_of})
        if not graphs:
            return {}
        article_of = {g: a for a, g in self.graph_of.items()}
        rows = self.store.select(Q_TEXTS % {"only": only_graphs(graphs)})
        return {article_of.get(r["g"] or "", ""): r["text"] or "" for r in rows}
