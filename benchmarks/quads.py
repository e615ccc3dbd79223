"""Which quads an article writes, and why: the N-Triples a build stores, counted by fact kind (the kind of
node the triple is about, from the path of kg's IRIs: ``{base}event/...``, ``{base}evidence/...``) and
predicate, for ``benchmarks/run.py`` (section 4).

Article graphs are counted from the text each article's graph is written as (``jobs.to_graph``); the
resolution graph, written once for the store, from its N-Triples after resolution.
"""
from __future__ import annotations

import collections
from typing import Callable

#: kind of node (first path segment of a kg IRI) -> what it is
KINDS = {
    "article": "the article (title, date, text, hash, the entities it mentions)",
    "event": "events (who, what, whom, modality, class, time, place, provenance)",
    "evidence": "evidence: a sentence and its offsets, once per sentence however many facts it holds",
    "naming": "namings: the type and names one article gives an entity",
    "membership": "roles (org:Membership)",
    "interval": "role intervals (org:memberDuring)",
    "instant": "instants of role intervals and of the publication",
    "entity": "entities: types, labels, other names, label words, mention records",
    "mention": "mention records: an entity's mention count in one article",
    "role": "roles' descriptions (org:Role)",
    "cameo": "CAMEO classes",
    "resolution": "the resolution graph's digest of its inputs",
}


class QuadCounter:
    """Counts N-Triples lines by (graph kind, node kind, predicate)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.counts: collections.Counter[tuple[str, str, str]] = collections.Counter()

    def kind(self, subject: str) -> str:
        iri = subject[1:-1]
        if iri.startswith(self.base):
            return iri[len(self.base):].split("/", 1)[0]
        if "/cameo/" in iri:
            return "cameo"
        return "other"

    def add(self, graph: str, ntriples: str) -> None:
        count = self.counts
        for line in ntriples.split("\n"):
            parts = line.split(" ", 2)
            if len(parts) == 3:
                count[(graph, self.kind(parts[0]), _short(parts[1]))] += 1


def _short(predicate: str) -> str:
    iri = predicate[1:-1]
    cut = max(iri.rfind("#"), iri.rfind("/"))
    return iri[cut + 1:]


def table(counter: QuadCounter, articles: int, line: Callable[[str], None]) -> None:
    """The table: quads per article by node kind (article graphs), with the predicates that make them up;
    then the resolution graph's quads by node kind and predicate."""
    for graph, per in (("article", articles), ("resolution", articles)):
        by_kind: collections.Counter[str] = collections.Counter()
        preds: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for (g, kind, pred), n in counter.counts.items():
            if g == graph:
                by_kind[kind] += n
                preds[kind][pred] += n
        total = sum(by_kind.values())
        if not total:
            continue
        where = "article graphs" if graph == "article" else "the resolution graph (written once for the store)"
        line(f"quads per article in {where}: {total / per:,.1f} ({total:,} in all)")
        line(f"  {'kind':<11} {'per article':>11} {'share':>6}  predicates (per article)")
        for kind, n in by_kind.most_common():
            parts = ", ".join(f"{p} {c / per:.1f}" for p, c in preds[kind].most_common())
            line(f"  {kind:<11} {n / per:>11.1f} {n / total:>6.1%}  {parts}")
        for kind in by_kind:
            if kind in KINDS:
                continue
            line(f"  ({kind}: nodes outside kg's IRIs)")
    line("kinds: " + "; ".join(f"{k}: {v}" for k, v in KINDS.items()))
