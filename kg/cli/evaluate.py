"""kg eval: scores against gold files, the reliability of the confidence, and fitting it."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.table import Table

from ..config import load_settings
from ..errors import KgError, UsageError

if TYPE_CHECKING:
    from ..quality.calibration import CrossCheck
    from ..quality.evaluate import Reliability
from .app import ModelOpt, StoreOpt, _cell, _fail, app, err, out, safe


@app.command(name="eval")
def eval_cmd(
    gold: Path = typer.Argument(..., help="folder of gold *.yaml files (schema in docs/quality.md)"),
    store: Optional[str] = StoreOpt,
    misses: bool = typer.Option(False, "--misses", help="list the gold facts that were not found"),
    calibration: bool = typer.Option(False, "--calibration",
                                     help="also print a reliability table: the store's facts by confidence, "
                                          "and how many of each bin are right; with --articles: the confidence "
                                          "model's out-of-sample check on the gold articles (no store needed)"),
    fit_confidence: Optional[Path] = typer.Option(None, "--fit-confidence",
                                                  help="fit the confidence model on the gold articles (read from "
                                                       "--articles, not from the store) and write its coefficients "
                                                       "here; prints the out-of-sample check"),
    articles: Optional[Path] = typer.Option(None, "--articles",
                                            help="the gold articles' texts (--calibration, --fit-confidence)"),
    groups: Optional[Path] = typer.Option(None, "--groups",
                                          help="YAML of group name -> file-name prefixes: hold out a group of "
                                               "articles at a time (default: one article at a time)"),
    model: Optional[str] = ModelOpt,
) -> None:
    """Score the store's events and roles against gold files: precision, recall, F1."""
    if fit_confidence is not None or articles is not None or groups is not None:
        _check_confidence(gold, articles, fit_confidence, groups, calibration, model)
        return
    from ..quality.evaluate import calibration as store_calibration
    from ..quality.evaluate import evaluate, load_gold, undeclared
    from ..store import opened

    try:
        golds = load_gold(gold)  # the arguments first: a bad gold folder is said before the store is opened
        for line in undeclared(golds):
            err.print(f"kg: note: {safe(line)}", markup=False, highlight=False)
        with opened(load_settings(store=store).store, read_only=True) as st:
            result = evaluate(st, golds)
            tables = store_calibration(st, gold) if calibration else None
    except KgError as e:
        _fail(e)
        return
    table = Table("article", "events P", "events R", "events F1", "roles P", "roles R", "roles F1")
    for name, scores in result.items():
        ev, ro = scores["events"], scores["roles"]
        table.add_row(_cell(name), f"{ev.precision:.3f}", f"{ev.recall:.3f}", f"{ev.f1:.3f}",
                      f"{ro.precision:.3f}", f"{ro.recall:.3f}", f"{ro.f1:.3f}")
    out.print(table)
    if misses:
        for g in result["total"]["events"].misses:
            out.print(f"missed event {safe(g)}", markup=False, highlight=False)
        for g in result["total"]["roles"].misses:
            out.print(f"missed role  {safe(g)}", markup=False, highlight=False)
    if tables is not None:
        _print_reliability("the store's facts against the gold", tables)


def _check_confidence(gold: Path, articles: Optional[Path], target: Optional[Path], groups: Optional[Path],
                      calibration: bool, model: Optional[str]) -> None:
    """The confidence model on the gold articles: its out-of-sample check (held out by group, or by
    article), and with ``target`` the model fitted on them all, written there."""
    from ..quality.calibration import assign_groups, cross_check, fit, labelled_articles, load_groups, write_models

    try:
        if target is None and not calibration:
            raise UsageError("--articles and --groups are read only with --calibration or --fit-confidence OUT")
        if articles is None:
            raise UsageError(f"{'--fit-confidence' if target is not None else '--groups'} needs --articles DIR: "
                             "the texts of the gold articles")
        if target is not None and not target.parent.is_dir():
            raise UsageError(f"cannot write {target}: folder {target.parent} does not exist")
        prefixes = load_groups(groups) if groups is not None else None
        data = labelled_articles(gold, [articles], load_settings(model=model).model, progress=lambda n: err.print(
            f"kg: reading the {n} gold articles of {safe(articles)}", markup=False, highlight=False))
        if not data:
            raise UsageError(f"the articles with gold in {gold} gave no facts to fit on")
        if prefixes is not None:
            data = assign_groups(data, prefixes)
        folds = list(dict.fromkeys(s.fold for s in data))
        check = None
        if len(folds) > 1:
            check = cross_check(data, progress=lambda k, fold: err.print(
                f"kg: fold {k} of {len(folds)}: fitting without {safe(fold)}", markup=False, highlight=False))
        counts = ""
        if target is not None:
            fitted = fit(data)
            n_articles = len({s.article for s in data})
            counts = ", ".join(f"{kind}: {n} facts, {r} right, l2 {fitted.l2[kind]:g}"
                               for kind, (n, r) in fitted.counts.items())
            held = f"{len(folds)} groups" if prefixes is not None else "articles"
            write_models(fitted.models, target, f"kg eval --fit-confidence on {n_articles} gold articles, "
                                                f"held out by {held} ({counts})")
    except KgError as e:
        _fail(e)
        return
    if check is None:
        out.print("one gold article (or group): no out-of-sample check", markup=False, highlight=False, soft_wrap=True)
    elif prefixes is not None:
        for fold in check.groups:
            _print_reliability(f"held-out group {fold} (fitted on the other groups)",
                               {kind: check.table(kind, fold) for kind in ("events", "roles")}
                               | {"all": check.table(None, fold)}, lines=False)
        _print_reliability(f"out of sample: each of the {len(folds)} groups scored by a model fitted on the others",
                           {kind: check.table(kind) for kind in ("events", "roles")} | {"all": check.table()})
        _print_groups(check)
    else:
        _print_reliability(f"out of sample: each of the {len(folds)} articles scored by a model fitted on the others",
                           {kind: check.table(kind) for kind in ("events", "roles")} | {"all": check.table()})
    if target is not None:
        out.print(f"wrote {target} ({counts})", markup=False, highlight=False, soft_wrap=True)


def _print_groups(check: CrossCheck) -> None:
    """Per held-out group: the facts at 0.8 or above (share, precision) and below 0.5, and whether
    the README's promise for ``FILTER(?confidence >= 0.8)`` holds in every group."""
    from ..quality.calibration import PROMISE_PRECISION, PROMISE_SHARE

    table = Table("held out", "facts", "right", ">=0.8 share", ">=0.8 right", "<0.5 facts", "<0.5 right")
    held: list[str] = []
    for fold in [*check.groups, None]:
        rel = check.table(None, fold)
        n, right = rel.at_least(0.8)
        low, low_right = rel.below(0.5)
        share = n / rel.count if rel.count else 0.0
        if fold is not None and n and right / n >= PROMISE_PRECISION and share >= PROMISE_SHARE:
            held.append(fold)
        table.add_row(_cell(fold if fold is not None else "all"), str(rel.count),
                      f"{sum(r for _, r in rel.pairs) / rel.count:.3f}" if rel.count else "-",
                      f"{share:.1%}", f"{right / n:.3f}" if n else "-", str(low),
                      f"{low_right / low:.3f}" if low else "-")
    out.print(table)
    missed = [g for g in check.groups if g not in held]
    out.print(f"confidence >= 0.8 right >= {PROMISE_PRECISION:.0%} of the time on >= {PROMISE_SHARE:.0%} of the facts: "
              f"{len(held)} of {len(check.groups)} groups" + (f" (not: {', '.join(map(safe, missed))})" if missed else ""),
              markup=False, highlight=False, soft_wrap=True)
    low, low_right = check.table().below(0.5)
    out.print(f"confidence < 0.5: {low} facts, {low_right / low:.1%} right" if low else "confidence < 0.5: no facts",
              markup=False, highlight=False, soft_wrap=True)


def _print_reliability(title: str, tables: dict[str, Reliability], lines: bool = True) -> None:
    """A reliability table per kind of fact, and how sure the facts with confidence >= 0.8 are."""
    out.print(f"confidence: {title}", markup=False, highlight=False, soft_wrap=True)
    # per kind: facts in the bin and the share of them that is right (narrow enough for 80 columns)
    table = Table("confidence", *(h for kind in tables for h in (kind, "right")), "mean")
    bins = {kind: rel.bins() for kind, rel in tables.items()}
    for k, b in enumerate(next(iter(bins.values()))):
        cells = [f"{b.low:.1f}-{b.high:.1f}"]
        for kind in tables:
            c = bins[kind][k]
            cells += [str(c.count), f"{c.precision:.3f}" if c.count else "-"]
        last = bins[list(tables)[-1]][k]
        table.add_row(*cells, f"{last.mean_confidence:.3f}" if last.count else "-")
    out.print(table)
    if not lines:
        return
    for kind, rel in tables.items():
        n, right = rel.at_least(0.8)
        share = n / rel.count if rel.count else 0.0
        precision = f"{right / n:.3f}" if n else "-"
        out.print(f"{kind}: confidence >= 0.8: {n} of {rel.count} facts ({share:.1%}), precision {precision}",
                  markup=False, highlight=False, soft_wrap=True)
