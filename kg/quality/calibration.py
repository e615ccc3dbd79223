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
   method (iteratively reweighted least squares): a few lines of numpy, no other dependency. Each
   group of articles weighs the same (``balanced``): the group the rules were written on is large
   and easy, and would otherwise set the base rate for text the rules never saw. The penalty is
   chosen per kind from ``L2_GRID`` by leave-one-group-out log loss; the features of
   ``NEVER_RAISE`` may not get a positive weight.

The folds are groups of articles (``--groups``: file-name prefixes, as ``score.py`` reads them),
or single articles when no groups are given. ``cross_check`` fits on all groups but one (choosing
the penalty on those alone) and scores the one held out, for each group in turn: those held-out
probabilities say whether a confidence of 0.8 means 80 right in 100 on a kind of article the
model, and the rules tuned on the other groups, never saw.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np
import yaml

from ..build.pipeline import extract_articles
from ..config import Settings
from ..errors import UsageError
from ..extract.confidence.model import OTHER, Model
from ..model.facts import Article, ArticleFacts
from ..text.sources import read_articles
from .evaluate import GoldArticle, Reliability, load_gold, reliability

__all__ = ["Sample", "samples", "fit", "Fitted", "fit_logistic", "fit_signed", "choose_l2", "cross_check",
           "CrossCheck", "write_models", "labelled_articles", "load_groups", "group_of", "assign_groups", "balanced",
           "held_out_logits", "platt", "DEFAULT_L2", "L2_GRID", "MIN_LEVEL", "NEVER_RAISE", "VISIBLE_MODALITIES",
           "PROMISE_PRECISION", "PROMISE_SHARE", "UNGROUPED"]

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
#: What the README promises of ``FILTER(?confidence >= 0.8)`` on articles the rules were not
#: written on: rows that are right this often, and at least this share of all rows.
PROMISE_PRECISION = 0.85
PROMISE_SHARE = 0.40
#: The group of an article that no prefix of the groups file names.
UNGROUPED = "ungrouped"


@dataclass(frozen=True)
class Sample:
    """One fact a user would see: its kind, its gold article, its features, whether it is right,
    and the group of articles it is held out with (``fold``: the group, else the article)."""

    kind: str
    article: str
    features: Mapping[str, str | float]
    right: bool
    group: str = ""

    @property
    def fold(self) -> str:
        return self.group or self.article


def load_groups(path: Path) -> dict[str, list[str]]:
    """A groups file (YAML: group name -> file-name prefixes, as ``score.py --groups`` reads it)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise UsageError(f"cannot read the groups file {path}: {err.strerror or err}") from err
    except yaml.YAMLError as err:
        raise UsageError(f"{path} is not YAML: {err}") from err
    if not isinstance(data, dict) or not data or not all(
            isinstance(v, list) and v and all(isinstance(p, (str, int)) for p in v) for v in data.values()):
        raise UsageError(f"{path} is not a groups file: write one line per group, "
                         "'name: [prefix, ...]' (file-name prefixes of its articles)")
    return {str(name): [str(p) for p in prefixes] for name, prefixes in data.items()}


def group_of(article: str, groups: Mapping[str, Sequence[str]]) -> str:
    """The first group with a prefix of the article's file name, else ``UNGROUPED``."""
    return next((name for name, prefixes in groups.items() if any(article.startswith(p) for p in prefixes)),
                UNGROUPED)


def assign_groups(data: Sequence[Sample], groups: Mapping[str, Sequence[str]]) -> list[Sample]:
    """The samples, each in its article's group (the folds of ``cross_check`` and of the penalty's choice)."""
    return [replace(s, group=group_of(s.article, groups)) for s in data]


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

def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 50,
                 weights: np.ndarray | None = None, start: np.ndarray | None = None) -> np.ndarray:
    """Weights maximising the L2-penalised (sample-weighted) log-likelihood of a logistic model
    (last column: the intercept, barely penalised), by Newton's method from ``start`` (zeros)."""
    n, k = x.shape
    sw = np.ones(n) if weights is None else weights
    penalty = np.full(k, float(l2))
    penalty[-1] = 1e-4  # keeps the intercept finite when one fold has only right (or wrong) rows
    w = np.zeros(k) if start is None else start.copy()
    for _ in range(iterations):
        z = np.clip(x @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (sw * (p - y)) + penalty * w
        # einsum, not BLAS: on matrices this small BLAS threads cost more than they save
        hess = np.einsum("ij,ik->jk", x * (sw * p * (1 - p))[:, None], x) + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-6:
            break
    return w


@dataclass(frozen=True)
class Fitted:
    """The models of a fit, one per kind of fact, the L2 penalty each was fitted with, and the
    slope of the recalibration its held-out logits asked for (1: none)."""

    models: dict[str, Model]
    l2: dict[str, float]
    counts: dict[str, tuple[int, int]]  # kind -> (facts, right ones)
    slope: dict[str, float]


def fit_signed(x: np.ndarray, y: np.ndarray, l2: float, signs: np.ndarray,
               weights: np.ndarray | None = None, start: np.ndarray | None = None) -> np.ndarray:
    """``fit_logistic`` with sign constraints: a column whose weight comes out against its sign
    (``signs`` -1: not positive) is left out (weight 0) and the rest refitted, until none is."""
    free = np.ones(x.shape[1], dtype=bool)
    while True:
        w = np.zeros(x.shape[1])
        w[free] = fit_logistic(x[:, free], y, l2, weights=weights, start=None if start is None else start[free])
        wrong = free & (signs * w < 0)
        if not wrong.any():
            return w
        free &= ~wrong


def _log_loss(p: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.average(-(y * np.log(p) + (1 - y) * np.log(1 - p)), weights=weights))


def balanced(groups: Sequence[str]) -> np.ndarray:
    """Sample weights under which every group weighs the same (mean weight 1): a large group whose
    facts the rules were tuned on does not set the base rate for the others."""
    names, inverse, counts = np.unique(np.array(groups), return_inverse=True, return_counts=True)
    return len(groups) / (len(names) * counts[inverse])


def held_out_logits(x: np.ndarray, y: np.ndarray, groups: Sequence[str], grid: Sequence[float], signs: np.ndarray,
                    weights: np.ndarray | None = None) -> np.ndarray:
    """Each row's logit under a model fitted without its group (leave one group out), for each
    penalty of ``grid`` (one row per penalty; each fit starts from the previous penalty's)."""
    g = np.array(groups)
    z = np.zeros((len(grid), len(y)))
    for name in sorted(set(groups)):
        out = g == name
        w: np.ndarray | None = None
        for k, l2 in enumerate(grid):
            w = fit_signed(x[~out], y[~out], l2, signs, None if weights is None else weights[~out], start=w)
            z[k, out] = x[out] @ w
    return z


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def choose_l2(x: np.ndarray, y: np.ndarray, groups: Sequence[str], signs: np.ndarray | None = None,
              grid: Sequence[float] = L2_GRID, weights: np.ndarray | None = None) -> float:
    """The penalty of the grid with the lowest leave-one-group-out log loss (DEFAULT_L2 with one group)."""
    return _choose(x, y, groups, np.zeros(x.shape[1]) if signs is None else signs, grid, weights)[0]


def _choose(x: np.ndarray, y: np.ndarray, groups: Sequence[str], signs: np.ndarray, grid: Sequence[float],
            weights: np.ndarray | None) -> tuple[float, np.ndarray | None]:
    """``choose_l2``, and the held-out logits under the penalty chosen (None with one group)."""
    if len(set(groups)) < 2:
        return DEFAULT_L2, None
    z = held_out_logits(x, y, groups, grid, signs, weights)
    best = int(np.argmin([_log_loss(_sigmoid(row), y, weights) for row in z]))
    return float(grid[best]), z[best]


def platt(z: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> tuple[float, float]:
    """(slope, shift) of the logistic recalibration ``slope * z + shift`` of held-out logits; the slope
    kept in (0, 1]: it may only temper a model that is surer out of sample than it should be."""
    x = np.column_stack([z, np.ones(len(z))])
    slope, shift = fit_logistic(x, y, 1e-4, weights=weights)
    if not 0.0 < slope <= 1.0:
        slope = min(max(float(slope), 1e-3), 1.0)
        shift = _shift(slope * z, y, weights)
    return float(slope), float(shift)


def _shift(z: np.ndarray, y: np.ndarray, weights: np.ndarray | None) -> float:
    """The intercept that, added to fixed logits, maximises the likelihood (Newton's method in one variable)."""
    sw = np.ones(len(z)) if weights is None else weights
    b = 0.0
    for _ in range(50):
        p = _sigmoid(z + b)
        step = float(np.sum(sw * (p - y)) / max(float(np.sum(sw * p * (1 - p))), 1e-9))
        b -= step
        if abs(step) < 1e-9:
            break
    return b


def fit(data: Sequence[Sample], l2: float | None = None, min_level: int = MIN_LEVEL, balance: bool = True,
        recalibrate: bool = False) -> Fitted:
    """One model per kind of fact, fitted on the samples of that kind (a kind with none: a flat
    0.5). The folds are the samples' groups (``Sample.fold``): ``l2`` None is chosen from ``L2_GRID``
    by leave-one-group-out log loss; ``balance`` weighs every group alike; ``recalibrate`` tempers
    the model by a Platt step on its leave-one-group-out logits (a no-op when they are not too sure;
    off by default: on kg's dev set it raised the grouped out-of-sample log loss, docs/quality.md)."""
    models: dict[str, Model] = {}
    penalties: dict[str, float] = {}
    counts: dict[str, tuple[int, int]] = {}
    slopes: dict[str, float] = {}
    for kind in KINDS:
        mine = [s for s in data if s.kind == kind]
        counts[kind] = (len(mine), sum(1 for s in mine if s.right))
        slopes[kind] = 1.0
        if not mine:
            models[kind], penalties[kind] = Model(0.0, {}, {}), DEFAULT_L2
            continue
        feats = [s.features for s in mine]
        design = _Design.of(feats, min_level)
        x = design.matrix(feats)
        y = np.array([1.0 if s.right else 0.0 for s in mine])
        folds = [s.fold for s in mine]
        weights = balanced(folds) if balance else None
        signs = design.signs
        held = None
        if l2 is None or recalibrate:
            penalties[kind], held = _choose(x, y, folds, signs, L2_GRID if l2 is None else (l2,), weights)
        if l2 is not None:
            penalties[kind] = l2
        w = fit_signed(x, y, penalties[kind], signs, weights)
        if recalibrate and held is not None:
            slope, shift = platt(held, y, weights)
            w = w * slope
            w[-1] += shift
            slopes[kind] = slope
        models[kind] = design.model(w)
    return Fitted(models, penalties, counts, slopes)


def write_models(models: Mapping[str, Model], path: Path, note: str) -> None:
    """Write the coefficients file the extractor reads (``kg/extract/confidence/confidence.json``)."""
    data = {"note": note, **{kind: models[kind].to_json() for kind in KINDS}}
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")


# ----- out of sample --------------------------------------------------------------------------

@dataclass
class CrossCheck:
    """Held-out predictions, pooled over the folds (each group scored by a model fitted without it)."""

    predictions: list[tuple[Sample, float]]

    def table(self, kind: str | None = None, group: str | None = None) -> Reliability:
        """The reliability table of one kind (or of all facts), of one group (or of all)."""
        return reliability([(p, s.right) for s, p in self.predictions
                            if (kind is None or s.kind == kind) and (group is None or s.fold == group)])

    @property
    def groups(self) -> list[str]:
        """The folds, in the order they were first held out."""
        return list(dict.fromkeys(s.fold for s, _ in self.predictions))

    def log_loss(self, kind: str | None = None) -> float:
        pairs = [(p, s.right) for s, p in self.predictions if kind is None or s.kind == kind]
        if not pairs:
            return 0.0
        return _log_loss(np.array([p for p, _ in pairs]), np.array([1.0 if r else 0.0 for _, r in pairs]))


def cross_check(data: Sequence[Sample], l2: float | None = None, min_level: int = MIN_LEVEL,
                balance: bool = True, recalibrate: bool = False,
                progress: Callable[[int, str], None] | None = None) -> CrossCheck:
    """Fit on every fold but one (penalty and recalibration chosen on those folds alone), predict
    the one held out; for each fold (a group of articles, or an article when no groups are given).
    ``progress`` is told each fold (its number from 1, its name) before it is fitted."""
    out: list[tuple[Sample, float]] = []
    for k, fold in enumerate(dict.fromkeys(s.fold for s in data), 1):
        if progress is not None:
            progress(k, fold)
        models = fit([s for s in data if s.fold != fold], l2, min_level, balance, recalibrate).models
        out.extend((s, models[s.kind].probability(s.features)) for s in data if s.fold == fold)
    return CrossCheck(out)


def labelled_articles(gold_dir: Path, articles: Sequence[str | Path], model: str,
                      progress: Callable[[int], None] | None = None) -> list[Sample]:
    """Read and extract the articles that have a gold file, as a build would, and label their facts
    (``progress`` is told how many articles are about to be extracted)."""
    golds = load_gold(gold_dir)
    found = [a for a in read_articles(articles) if isinstance(a, Article) and any(g.stem in a.id for g in golds)]
    if not found:
        raise UsageError(f"none of the articles under {', '.join(map(str, articles))} has a gold file in {gold_dir}")
    if progress is not None:
        progress(len(found))
    return samples(extract_articles(found, Settings(model=model)), golds)
