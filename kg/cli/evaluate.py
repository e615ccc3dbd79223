"""kg eval: scores against gold files, the reliability of the confidence, and fitting it."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.table import Table

from ..config import load_settings
from ..errors import KgError, UsageError

if TYPE_CHECKING:
    from ..quality.evaluate import Reliability
from .app import ModelOpt, StoreOpt, _cell, _fail, app, err, out, safe


@app.command(name="eval")
def eval_cmd(
    gold: Path = typer.Argument(..., help="folder of gold *.yaml files (schema in docs/quality.md)"),
    store: Optional[str] = StoreOpt,
    misses: bool = typer.Option(False, "--misses", help="list the gold facts that were not found"),
    calibration: bool = typer.Option(False, "--calibration",
                                     help="also print a reliability table: the store's facts by confidence, "
                                          "and how many of each bin are right"),
    fit_confidence: Optional[Path] = typer.Option(None, "--fit-confidence",
                                                  help="fit the confidence model on the gold articles (read from "
                                                       "--articles, not from the store) and write its coefficients "
                                                       "here; prints the leave-one-article-out check"),
    articles: Optional[Path] = typer.Option(None, "--articles", help="the gold articles' texts (--fit-confidence)"),
    model: Optional[str] = ModelOpt,
) -> None:
    """Score the store's events and roles against gold files: precision, recall, F1."""
    if fit_confidence is not None or articles is not None:
        _fit_confidence(gold, articles, fit_confidence, model)
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


def _fit_confidence(gold: Path, articles: Optional[Path], target: Optional[Path], model: Optional[str]) -> None:
    from ..quality.calibration import cross_check, fit, labelled_articles, write_models

    try:
        if target is None:
            raise UsageError("--articles is read only with --fit-confidence OUT")
        if articles is None:
            raise UsageError("--fit-confidence needs --articles DIR: the texts of the gold articles")
        if not target.parent.is_dir():
            raise UsageError(f"cannot write {target}: folder {target.parent} does not exist")
        data = labelled_articles(gold, [articles], load_settings(model=model).model)
        if not data:
            raise UsageError(f"the articles with gold in {gold} gave no facts to fit on")
        check = cross_check(data) if len({s.article for s in data}) > 1 else None
        fitted = fit(data)
        n_articles = len({s.article for s in data})
        counts = ", ".join(f"{kind}: {n} facts, {r} right, l2 {fitted.l2[kind]:g}" for kind, (n, r) in fitted.counts.items())
        write_models(fitted.models, target, f"kg eval --fit-confidence on {n_articles} gold articles ({counts})")
    except KgError as e:
        _fail(e)
        return
    if check is not None:
        tables = {kind: check.table(kind) for kind in ("events", "roles")}
        tables["all"] = check.table()
        _print_reliability(f"out of sample: each of the {n_articles} articles scored by a model fitted on the others",
                           tables)
    else:
        out.print("one gold article: no out-of-sample check", markup=False, highlight=False, soft_wrap=True)
    out.print(f"wrote {target} ({counts})", markup=False, highlight=False, soft_wrap=True)


def _print_reliability(title: str, tables: dict[str, Reliability]) -> None:
    """A reliability table per kind of fact, and how sure the facts with confidence >= 0.8 are."""
    out.print(f"confidence: {title}", markup=False, highlight=False, soft_wrap=True)
    for kind, rel in tables.items():
        table = Table(f"{kind}: confidence", "facts", "right", "precision", "mean confidence")
        for b in rel.bins():
            table.add_row(f"{b.low:.1f}-{b.high:.1f}", str(b.count), str(b.right),
                          f"{b.precision:.3f}" if b.count else "-", f"{b.mean_confidence:.3f}" if b.count else "-")
        out.print(table)
    for kind, rel in tables.items():
        n, right = rel.at_least(0.8)
        share = n / rel.count if rel.count else 0.0
        precision = f"{right / n:.3f}" if n else "-"
        out.print(f"{kind}: confidence >= 0.8: {n} of {rel.count} facts ({share:.1%}), precision {precision}",
                  markup=False, highlight=False, soft_wrap=True)
