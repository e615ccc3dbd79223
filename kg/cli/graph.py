"""kg build, and the commands that read the graph: query, export, view, analyze, path, stats."""
from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape as markup_escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .. import api
from ..config import load_settings
from ..errors import KgError, UsageError
from ..sparql.pool import DEFAULT_MEMORY
from .app import ModelOpt, StoreOpt, _cell, _data_out, _drawn, _fail, _json_out, app, err, out, safe


@app.command()
def build(
    paths: list[Path] = typer.Argument(..., help="article files (.txt, .html, .jsonl), folders of them, or - for standard input"),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="also write DIR/graph.ttl and DIR/graph.html "
                                           "(both cover the whole store: they take time that grows with it; "
                                           "by default a build writes the store only, and kg export and kg view "
                                           "write them on request)"),
    no_out: bool = typer.Option(False, "--no-out", help="store only (the default; kept for scripts that pass it)"),
    workers: Optional[int] = typer.Option(None, "--workers", help="worker processes that parse and extract "
                                          "(default: CPU cores; 1 runs in this process)"),
    dask: Optional[str] = typer.Option(None, "--dask", metavar="ADDRESS",
                                       help="run extraction on the Dask cluster whose scheduler is at ADDRESS "
                                            "(tcp://HOST:8786); this process writes the store"),
    store: Optional[str] = StoreOpt,
    model: Optional[str] = ModelOpt,
    force: bool = typer.Option(False, "--force", help="re-extract articles even if they are unchanged"),
    max_chars: int = typer.Option(50_000, "--max-chars", min=1000,
                                  help="longest text parsed at once; longer articles are split on paragraphs"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="one line per article: stored or unchanged"),
    curation: Optional[Path] = typer.Option(None, "--curation", help="curation file (default ./curation.toml, "
                                            "or KG_CURATION, or tool.kg.curation in pyproject.toml)"),
    follow_symlinks: bool = typer.Option(False, "--follow-symlinks", help="in folders, also read symbolic links "
                                         "that lead out of the folder (by default they are skipped)"),
    full_resolve: bool = typer.Option(False, "--full-resolve", help="recompute the entity resolution from "
                                      "every article of the store (by default a build reads again only the "
                                      "articles it changed; the result is the same)"),
    max_article_bytes: Optional[str] = typer.Option(None, "--max-article-bytes", metavar="SIZE",
                                                    help="skip an article (a file, standard input or a JSON line) "
                                                         "larger than this: bytes, or 512K, 8M (default 4M, or "
                                                         "KG_MAX_ARTICLE_BYTES)"),
) -> None:
    """Extract facts from articles into the store; with --out, also write graph.ttl and graph.html."""
    from ..text.sources import inputs

    try:
        load_settings(store=store, model=model, workers=workers,  # bad settings are said before inputs are read
                      max_article_bytes=max_article_bytes)
        found = inputs(paths, follow_symlinks)
        # a JSON-lines file or standard input holds an unknown number of articles
        total = None if any(i.kind in ("jsonl", "stdin") for i in found) else len(found)
        with _build_progress(total, verbose) as progress:
            report = api.build(paths, store, None if no_out or out_dir is None else out_dir, model=model, workers=workers, force=force,
                               max_chars=max_chars, curation=curation, dask=dask, follow_symlinks=follow_symlinks,
                               progress=progress, full_resolve=full_resolve, max_article_bytes=max_article_bytes)
    except KgError as e:
        _fail(e)
        return
    held = report.held
    made = f"; {report.events} events, {report.roles} roles in them" if report.articles else ""
    err.print(f"kg: {report.articles} article(s) stored, {report.unchanged} unchanged, {len(report.skipped)} skipped"
              f"{made}; the store holds {held.get('articles', 0)} articles, {held.get('events', 0)} events, "
              f"{held.get('roles', 0)} roles", highlight=False)
    for path in report.outputs:
        err.print(f"kg: wrote {path}", highlight=False)
    raise typer.Exit(1 if report.skipped else 0)


#: Without a terminal, ``kg build`` logs a progress line every this many articles, or this many seconds.
LOG_EVERY_ARTICLES = 50
LOG_EVERY_SECONDS = 10.0


@contextmanager
def _build_progress(total: int | None, verbose: bool) -> Iterator[Callable[[str], None]]:
    """The ``progress`` of a build: a bar on a terminal; else (a log, a pipe) a plain line every
    ``LOG_EVERY_ARTICLES`` articles or ``LOG_EVERY_SECONDS`` seconds. Skipped inputs and notes
    (and, with ``verbose``, every article) are a line of their own either way."""
    def said(message: str) -> None:
        if message.startswith(("skipped", "note")) or verbose:
            err.print(f"kg: {safe(message)}", markup=False, highlight=False)

    if err.is_terminal:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err) as bar:
            task = bar.add_task("building", total=total)

            def on_bar(message: str) -> None:
                if not message.startswith("note"):
                    bar.update(task, advance=1, description=message[:60])
                said(message)

            yield on_bar
        return
    start = last = time.monotonic()
    done: Counter[str] = Counter()

    def on_log(message: str) -> None:
        nonlocal last
        said(message)
        kind = message.split(" ", 1)[0]
        if kind == "note":
            return
        done[kind] += 1
        n, now = sum(done.values()), time.monotonic()
        if n % LOG_EVERY_ARTICLES == 0 or now - last >= LOG_EVERY_SECONDS:
            last = now
            of = f" of {total}" if total is not None else ""
            err.print(f"kg: building: {n}{of} inputs done ({done['stored']} stored, {done['unchanged']} unchanged, "
                      f"{done['skipped']} skipped) in {now - start:.0f} s", markup=False, highlight=False)

    yield on_log


@app.command()
def query(
    sparql: str = typer.Argument(..., help="a SPARQL query, or a .rq file (also a name from queries/)"),
    fmt: Optional[str] = typer.Option(None, "--format", "-f", help="table, csv, tsv or json (default: a table "
                                      "on a terminal, TSV into a file or a pipe, every value whole)"),
    timeout: float = typer.Option(api.QUERY_TIMEOUT, "--timeout", help="seconds the query may run before it is stopped"),
    max_memory: int = typer.Option(DEFAULT_MEMORY, "--max-memory", help="MB of memory the query may take (0: no limit)"),
    allow_service: bool = typer.Option(False, "--allow-service", help="let SERVICE call other SPARQL endpoints "
                                       "(the query worker then keeps its network)"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Run a SPARQL query over the union of all articles' graphs, as kg serve runs one: checked, in a
    worker process stopped at the timeout and the memory limit."""
    from ..rdf.query import FORMATS, display_prefixes, render, shorten

    try:
        if fmt is not None and fmt not in FORMATS:
            raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        result = api.query(sparql, store, timeout=timeout, max_memory=max_memory, allow_service=allow_service)
        counted = fmt in (None, "table") and isinstance(result, tuple)  # the row count on stderr, as a table has it
        if fmt is None:  # a box 80 columns wide would cut values: a file or a pipe gets them whole
            fmt = "table" if sys.stdout.isatty() or not isinstance(result, tuple) else "tsv"
        if fmt == "table" and isinstance(result, tuple):
            cols, rows = result
            short = display_prefixes(load_settings(store=store).base)  # IRIs as prefixed names, not wrapped letter by letter
            shown = [[shorten(v, short) for v in r] for r in rows]
            table = Table(show_lines=False)
            for i, col in enumerate(cols):
                iris = [v for r in rows if (v := r[i])]
                if iris and all(v.startswith(("http://", "https://", "urn:")) for v in iris):  # an IRI column
                    table.add_column(safe(col), no_wrap=True, overflow="ellipsis", max_width=30)
                else:
                    table.add_column(safe(col))
            for r in shown:
                table.add_row(*[_cell(v) for v in r])
            out.print(table)
            err.print(f"{len(rows)} row(s)", highlight=False)
        else:
            text = render(result, "json" if fmt == "table" else fmt)
            text = _json_out(text) if fmt in ("json", "table") else _data_out(text)
            sys.stdout.write(text if text.endswith("\n") else text + "\n")  # CSV ends with its last row's line end
            if counted and isinstance(result, tuple):
                err.print(f"{len(result[1])} row(s)", highlight=False)
    except KgError as e:
        _fail(e)


@app.command()
def export(
    fmt: str = typer.Option("turtle", "--format", "-f", help="turtle, nt, nquads, trig or jsonld"),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="file to write (default: standard output)"),
    per_article: bool = typer.Option(False, "--per-article", help="JSON-LD: one named graph per article (a dataset) "
                                     "instead of the union as one graph; N-Quads and TriG always keep them apart"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Export the graph: Turtle/N-Triples/JSON-LD hold the union, N-Quads/TriG keep one graph per article."""
    try:
        data = api.export(fmt, store, output, per_article=per_article)
        if output is None:
            sys.stdout.buffer.write(data)
        else:
            err.print(f"kg: wrote {output}", highlight=False)
    except KgError as e:
        _fail(e)


@app.command()
def view(
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="HTML file to write (default: "
                                          "output/graph.html, or output/article.html with --article)"),
    entity: Optional[str] = typer.Option(None, "--entity", help="only this entity (label, alias or IRI) and its surroundings"),
    hops: int = typer.Option(2, "--hops", min=0, help="with --entity: how many links out"),
    article: Optional[str] = typer.Option(None, "--article", help="write this article's page instead (id, IRI or "
                                          "title): its text with every fact highlighted"),
    cls: Optional[str] = typer.Option(None, "--class", help="only events of this class (IRI, CAMEO code, label or quad class)"),
    since: Optional[str] = typer.Option(None, "--since", help="only facts dated on or after YYYY[-MM[-DD]] (an "
                                        "event's own date, else its article's; a year or month: its first day)"),
    until: Optional[str] = typer.Option(None, "--until", help="only facts dated on or before YYYY[-MM[-DD]] (an "
                                        "event's own date, else its article's; a year or month: its last day)"),
    max_nodes: int = typer.Option(1500, "--max-nodes", min=1, help="draw at most this many entities at first (most central)"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Write the interactive network view, or one article's page (one self-contained HTML file, works offline)."""
    try:
        if article is not None:
            if entity is not None or cls is not None or since is not None or until is not None:
                raise UsageError("--article writes the article's own page and takes no --entity, --class, --since "
                                 "or --until; the network view filters by article itself (graph.html#article=<IRI>)")
            page = api.article_page(article, output or Path("output/article.html"), store)
            err.print(f"kg: wrote {page.path} (article {markup_escape(safe(page.title))}: {page.facts} facts, "
                      f"{page.placed} highlighted in its text)", highlight=False)
            return
        output = output or Path("output/graph.html")
        drawn = api.view(output, store, entity=entity, hops=hops, cls=cls, since=since, until=until,
                         max_nodes=max_nodes)
        err.print(f"kg: wrote {output} ({drawn.nodes} nodes, {drawn.edges} edges): "
                  f"{_drawn(drawn.nodes, drawn.entities, bool(drawn.selection))}", highlight=False)
    except KgError as e:
        _fail(e)


@app.command()
def analyze(
    top_n: int = typer.Option(10, "--top", min=1, help="how many entities per ranking, communities and dates"),
    graphml: Optional[Path] = typer.Option(None, "--graphml", help="also write the network as GraphML (Gephi)"),
    gexf: Optional[Path] = typer.Option(None, "--gexf", help="also write the network as GEXF (Gephi)"),
    charts: Optional[Path] = typer.Option(None, "--charts", help="also write top-actors.png and activity.png here"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Actor rankings (degree, PageRank, betweenness), communities, activity over time; Gephi export."""
    try:
        found = api.analyze(store, graphml=graphml, gexf=gexf, charts=charts, chart_top=max(top_n, 15))
        for measure, title in (("degree", "links"), ("pagerank", "PageRank"), ("betweenness", "betweenness")):
            table = Table("#", "entity", "type", title, title=f"top {top_n} by {title}", title_justify="left")
            for i, r in enumerate(found.top(measure, top_n), 1):
                value = str(r.degree) if measure == "degree" else f"{getattr(r, measure):.4f}"
                table.add_row(str(i), _cell(r.label), _cell(r.type), value)
            out.print(table)
        table = Table("#", "size", "facts inside", "members (most central first)",
                      title=f"communities (Louvain): {len(found.communities)} of 2 or more", title_justify="left")
        for c in found.communities[:top_n]:
            more = f" (+{len(c.labels) - 6})" if len(c.labels) > 6 else ""
            table.add_row(str(c.index + 1), str(len(c.members)), str(c.internal_facts),
                          _cell("; ".join(c.labels[:6]) + more))
        out.print(table)
        table = Table("article date", "articles", "events", "roles", title="activity over time", title_justify="left")
        for d in found.activity:
            table.add_row(_cell(d.date or "undated"), str(d.articles), str(d.events), str(d.roles))
        out.print(table)
        for path in found.written:
            err.print(f"kg: wrote {path}", highlight=False)
        if graphml is not None or gexf is not None:
            err.print(f"kg: the network: {_drawn(len(found.network.nodes), found.entities)}", highlight=False)
    except KgError as e:
        _fail(e)


@app.command()
def path(
    a: str = typer.Argument(..., help="one entity: label, alias or IRI"),
    b: str = typer.Argument(..., help="the other entity"),
    store: Optional[str] = StoreOpt,
) -> None:
    """How two entities are connected: a shortest chain of events and roles, with their sentences."""
    try:
        found = api.connect(a, b, store)
    except KgError as e:
        _fail(e)
        return
    hops = found.hops
    if hops is None:
        err.print(f"kg: {safe(found.a)} and {safe(found.b)} are not connected",
                  markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    if not hops:
        out.print(f"{safe(found.a)} and {safe(b)} are the same entity", markup=False, highlight=False, soft_wrap=True)
        return
    out.print(f"{safe(hops[0].source_label)} \u2192 {safe(hops[-1].target_label)}: {len(hops)} "
              f"{'hop' if len(hops) == 1 else 'hops'}", markup=False, highlight=False, soft_wrap=True)
    for i, hop in enumerate(hops, 1):
        out.print(f"{i}. {safe(hop.source_label)} \u2014 {safe(hop.target_label)}", markup=False, highlight=False, soft_wrap=True)
        for f in hop.facts[:3]:
            src = hop.source_label if f.source == hop.source else hop.target_label
            dst = hop.target_label if f.source == hop.source else hop.source_label
            what = f"{src} \u2014 {f.label} of \u2014 {dst}" if f.kind == "role" else f"{src} \u2192 {f.label} \u2192 {dst}"
            where = f" [{f.title}{', ' + f.date if f.date else ''}]" if f.title or f.date else ""
            out.print(f"   {f.kind}: {safe(what)}{safe(where)}", markup=False, highlight=False, soft_wrap=True)
            if f.sentence:
                out.print(f"     \u201c{safe(f.sentence)}\u201d", markup=False, highlight=False, soft_wrap=True)
        if len(hop.facts) > 3:
            out.print(f"   (+{len(hop.facts) - 3} more facts)", markup=False, highlight=False, soft_wrap=True)


@app.command()
def stats(store: Optional[str] = StoreOpt) -> None:
    """Counts: articles, entities by type, events, roles, triples."""
    from ..outputs.stats import MEANING, TYPE_ROWS

    try:
        numbers = api.stats(store)
    except KgError as e:
        _fail(e)
        return
    table = Table("what", "count", "counts")
    for name, value in numbers.items():
        table.add_row(_cell(f"  {name}" if name in TYPE_ROWS.values() else name), str(value), MEANING.get(name, ""))
    out.print(table)
