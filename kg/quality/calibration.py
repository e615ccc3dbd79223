"""Fitting the confidence model offline, and checking it out of sample.

The model (``kg/extract/confidence/model.py``) is a logistic regression per kind of fact (events,
roles) over the features extraction records on each fact. Here its coefficients are fitted:

1. the gold articles are read and extracted exactly as a build reads them, and each fact users
   would see (the rows of ``queries/events.rq``: not negated, asserted or reported; every row of
   ``queries/roles.rq``) is labelled right or wrong with ``kg eval``'s matching (a row is right
   when it matches some gold fact of its article: what precision counts);
2. categorical features become one column per level; a level seen fewer than ``MIN_LEVEL`` times
   is pooled into ``other`` (so is any level the model meets later, a new rule name for one);
   numeric features are standardised;
3. the weights maximise the log-likelihood with an L2 penalty (not on the intercept), by Newton's
   method (iteratively reweighted least squares): a few lines of numpy, no other dependency. The
   penalty is chosen per kind from ``L2_GRID`` by leave-one-article-out log loss; the features of
   ``NEVER_RAISE`` may not get a positive weight.

``cross_check`` fits on all articles but one and scores the one left out, for each article in
turn: pooled, those held-out probabilities say whether a confidence of 0.8 means 80 right in 100
on articles the model never saw.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from ..build.pipeline import extract_articles
from ..config import Settings
from ..errors import UsageError
from ..extract.confidence.model import OTHER, Model
from ..model.facts import Article, ArticleFacts
from ..text.sources import read_articles
from .evaluate import GoldArticle, Reliability, load_gold, reliability

__all__ = ["Sample", "samples", "fit", "Fitted", "fit_logistic", "fit_signed", "choose_l2", "cross_check",
           "CrossCheck", "write_models", "labelled_articles", "DEFAULT_L2", "L2_GRID", "MIN_LEVEL", "NEVER_RAISE",
           "VISIBLE_MODALITIES"]

#: The modalities of the events that ``queries/events.rq`` returns (the rows users see).
VISIBLE_MODALITIES = ("asserted", "reported")
#: L2 penalties tried on the standardised weights (a prior toward "this feature says nothing"),
#: and the one used when there are too few articles to choose.
L2_GRID = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0)
DEFAULT_L2 = 2.0
#: Fewer examples of a categorical level than this and it is pooled into ``other``.
MIN_LEVEL = 5
#: Numeric features whose weight may not be positive: a fact read through a pronoun further back,
#: deeper in the parse or from a longer sentence is never more likely right for that. A fit that
#: would give one a positive weight leaves it out instead (weight 0).
NEVER_RAISE = frozenset(("coreference distance", "clause depth", "sentence length"))
KINDS = ("events", "roles")


@dataclass(frozen=True)
class Sample:
    """One fact a user would see: its kind, its gold article, its features, and whether it is right."""

    kind: str
    article: str
    features: Mapping[str, str | float]
    right: bool


def _label(names: dict[str, str], key: str | None) -> str | None:
    return names.get(key) if key is not None else None


def samples(facts: Iterable[ArticleFacts], golds: Sequence[GoldArticle]) -> list[Sample]:
    """The labelled facts of the articles that have gold (others are skipped).

    Rows are labelled as ``kg eval`` labels the store's rows; an entity's label is its name in
    its article (a build may later give it a longer name from another article).
    """
    out: list[Sample] = []
    for art in facts:
        gold = next((g for g in golds if g.stem in art.article.id), None)
        if gold is None:
            continue
        names = {k: e.label for k, e in art.entities.items()}
        seen: set[tuple[object, ...]] = set()
        for ev in art.events:
            if ev.negated or ev.modality not in VISIBLE_MODALITIES:
                continue
            key: tuple[object, ...] = (ev.actor, ev.action, ev.target, ev.evidence.start, ev.evidence.end)
            if key in seen:  # one event node in the graph, one row
                continue
            seen.add(key)
            row = {"article": art.article.id, "actor": _label(names, ev.actor), "action": ev.action,
                   "target": _label(names, ev.target)}
            out.append(Sample("events", gold.name, ev.features,
                              any(gold.event_ok(row, g) for g in gold.events)))
        for ro in art.roles:
            key = (ro.person, ro.role, ro.org, ro.evidence.start)
            if key in seen:
                continue
            seen.add(key)
            row = {"article": art.article.id, "person": _label(names, ro.person), "role": ro.role,
                   "org": _label(names, ro.org)}
            out.append(Sample("roles", gold.name, ro.features, any(gold.role_ok(row, g) for g in gold.roles)))
    return out


# ----- the design matrix ----------------------------------------------------------------------

@dataclass(frozen=True)
class _Design:
    """Which columns the features become: categorical levels and standardised numbers."""

    levels: dict[str, list[str]]
    numeric: dict[str, tuple[float, float]]

    @classmethod
    def of(cls, feats: Sequence[Mapping[str, str | float]], min_level: int) -> "_Design":
        names = sorted({n for f in feats for n in f})
        levels: dict[str, list[str]] = {}
        numeric: dict[str, tuple[float, float]] = {}
        for name in names:
            values = [f.get(name) for f in feats]
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                x = np.array(values, dtype=float)
                scale = float(x.std())
                if scale > 0:
                    numeric[name] = (float(x.mean()), scale)
                continue
            counts = Counter(str(v) if v is not None else OTHER for v in values)
            kept = sorted(v for v, n in counts.items() if n >= min_level and v != OTHER)
            if len(kept) < len(counts):
                kept.append(OTHER)
            if len(kept) > 1:
                levels[name] = kept
        return cls(levels, numeric)

    @property
    def columns(self) -> list[tuple[str, str]]:
        return [(n, lv) for n, lvs in self.levels.items() for lv in lvs] + [(n, "") for n in self.numeric]

    @property
    def signs(self) -> np.ndarray:
        """Per column (and the intercept, last): -1 where the weight may not be positive, else 0."""
        return np.array([-1.0 if lv == "" and name in NEVER_RAISE else 0.0 for name, lv in self.columns] + [0.0])

    def matrix(self, feats: Sequence[Mapping[str, str | float]]) -> np.ndarray:
        index = {c: j for j, c in enumerate(self.columns)}
        x = np.zeros((len(feats), len(index) + 1))
        x[:, -1] = 1.0  # the intercept
        for i, f in enumerate(feats):
            for name, lvs in self.levels.items():
                raw = f.get(name)
                level = str(raw) if raw is not None and str(raw) in lvs else OTHER
                if level in lvs:  # an unseen value with no "other" column adds nothing, as in Model
                    x[i, index[(name, level)]] = 1.0
            for name, (mean, scale) in self.numeric.items():
                v = f.get(name)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    x[i, index[(name, "")]] = (float(v) - mean) / scale
        return x

    def model(self, w: np.ndarray) -> Model:
        cat: dict[str, dict[str, float]] = {}
        num: dict[str, tuple[float, float, float]] = {}
        for (name, lv), weight in zip(self.columns, w[:-1].tolist()):
            if name in self.levels:
                cat.setdefault(name, {})[lv] = round(weight, 4)
            else:
                mean, scale = self.numeric[name]
                num[name] = (round(mean, 4), round(scale, 4), round(weight, 4))
        return Model(intercept=round(float(w[-1]), 4), categorical=cat, numeric=num)


# ----- fitting --------------------------------------------------------------------------------

def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 50) -> np.ndarray:
    """Weights maximising the L2-penalised log-likelihood of a logistic model (last column: the
    intercept, barely penalised), by Newton's method."""
    n, k = x.shape
    penalty = np.full(k, float(l2))
    penalty[-1] = 1e-4  # keeps the intercept finite when one fold has only right (or wrong) rows
    w = np.zeros(k)
    for _ in range(iterations):
        z = np.clip(x @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (p - y) + penalty * w
        # einsum, not BLAS: on matrices this small BLAS threads cost more than they save
        hess = np.einsum("ij,ik->jk", x * (p * (1 - p))[:, None], x) + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return w


@dataclass(frozen=True)
class Fitted:
    """The models of a fit, one per kind of fact, and the L2 penalty each was fitted with."""

    models: dict[str, Model]
    l2: dict[str, float]
    counts: dict[str, tuple[int, int]]  # kind -> (facts, right ones)


def fit_signed(x: np.ndarray, y: np.ndarray, l2: float, signs: np.ndarray) -> np.ndarray:
    """``fit_logistic`` with sign constraints: a column whose weight comes out against its sign
    (``signs`` -1: not positive) is left out (weight 0) and the rest refitted, until none is."""
    free = np.ones(x.shape[1], dtype=bool)
    while True:
        w = np.zeros(x.shape[1])
        w[free] = fit_logistic(x[:, free], y, l2)
        wrong = free & (signs * w < 0)
        if not wrong.any():
            return w
        free &= ~wrong


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def choose_l2(x: np.ndarray, y: np.ndarray, groups: Sequence[str], signs: np.ndarray | None = None,
              grid: Sequence[float] = L2_GRID) -> float:
    """The penalty of the grid with the lowest leave-one-group-out log loss (DEFAULT_L2 with one group)."""
    signs = np.zeros(x.shape[1]) if signs is None else signs
    names = sorted(set(groups))
    if len(names) < 2:
        return DEFAULT_L2
    g = np.array(groups)
    losses = []
    for l2 in grid:
        held = np.zeros(len(y))
        for name in names:
            out = g == name
            w = fit_signed(x[~out], y[~out], l2, signs)
            held[out] = 1.0 / (1.0 + np.exp(-np.clip(x[out] @ w, -30, 30)))
        losses.append(_log_loss(held, y))
    return float(grid[int(np.argmin(losses))])


def fit(data: Sequence[Sample], l2: float | None = None, min_level: int = MIN_LEVEL) -> Fitted:
    """One model per kind of fact, fitted on the samples of that kind (a kind with none: a flat
    0.5). ``l2`` None: chosen per kind from ``L2_GRID`` by leave-one-article-out log loss."""
    models: dict[str, Model] = {}
    penalties: dict[str, float] = {}
    counts: dict[str, tuple[int, int]] = {}
    for kind in KINDS:
        mine = [s for s in data if s.kind == kind]
        counts[kind] = (len(mine), sum(1 for s in mine if s.right))
        if not mine:
            models[kind], penalties[kind] = Model(0.0, {}, {}), DEFAULT_L2
            continue
        feats = [s.features for s in mine]
        design = _Design.of(feats, min_level)
        x = design.matrix(feats)
        y = np.array([1.0 if s.right else 0.0 for s in mine])
        signs = design.signs
        penalties[kind] = l2 if l2 is not None else choose_l2(x, y, [s.article for s in mine], signs)
        models[kind] = design.model(fit_signed(x, y, penalties[kind], signs))
    return Fitted(models, penalties, counts)


def write_models(models: Mapping[str, Model], path: Path, note: str) -> None:
    """Write the coefficients file the extractor reads (``kg/extract/confidence/confidence.json``)."""
    data = {"note": note, **{kind: models[kind].to_json() for kind in KINDS}}
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")


# ----- out of sample --------------------------------------------------------------------------

@dataclass
class CrossCheck:
    """Held-out predictions, pooled over the articles (each scored by a model fitted without it)."""

    predictions: list[tuple[Sample, float]]

    def table(self, kind: str | None = None) -> Reliability:
        """The reliability table of one kind (or of all facts)."""
        return reliability([(p, s.right) for s, p in self.predictions if kind is None or s.kind == kind])

    def log_loss(self, kind: str | None = None) -> float:
        pairs = [(p, s.right) for s, p in self.predictions if kind is None or s.kind == kind]
        if not pairs:
            return 0.0
        return _log_loss(np.array([p for p, _ in pairs]), np.array([1.0 if r else 0.0 for _, r in pairs]))


def cross_check(data: Sequence[Sample], l2: float | None = None, min_level: int = MIN_LEVEL) -> CrossCheck:
    """Fit on every article but one (penalty chosen on those articles alone), predict the one left
    out; for each article."""
    out: list[tuple[Sample, float]] = []
    for article in sorted({s.article for s in data}):
        models = fit([s for s in data if s.article != article], l2, min_level).models
        out.extend((s, models[s.kind].probability(s.features)) for s in data if s.article == article)
    return CrossCheck(out)


def labelled_articles(gold_dir: Path, articles: Sequence[str | Path], model: str) -> list[Sample]:
    """Read and extract the articles that have a gold file, as a build would, and label their facts."""
    golds = load_gold(gold_dir)
    found = [a for a in read_articles(articles) if isinstance(a, Article) and any(g.stem in a.id for g in golds)]
    if not found:
        raise UsageError(f"none of the articles under {', '.join(map(str, articles))} has a gold file in {gold_dir}")
    return samples(extract_articles(found, Settings(model=model)), golds)
