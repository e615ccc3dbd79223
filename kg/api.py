"""kg as a library: the plain functions the command line (``kg.cli``) is a thin layer over.

    from kg import api

    api.build(["seeds"], store="output/store")
    events = api.query("events.rq", store="output/store")
    print(events.columns, len(events.rows))
    api.view("graph.html", store="output/store")

``store`` is a directory, a ``sparql+http(s)://`` URL, or None for the settings (``KG_STORE``,
``[tool.kg] store`` in ./pyproject.toml, ``output/store``); the functions that only read also take
an open ``kg.store.Store`` (``kg serve`` passes its workers' one). The other settings are resolved
the same way (``kg.config``). Functions return plain data and raise ``kg.errors.KgError`` subclasses
(each with a code and a message that says what to do); none prints.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from .config import Settings, load_settings
from .errors import UsageError

if TYPE_CHECKING:  # pragma: no cover
    from .build.pipeline import BuildReport
    from .outputs.analysis import Activity, Community, Hop, Rank
    from .outputs.network import Network
    from .resolve.lookup import Fact
    from .resolve.rules import Cluster
    from .store import Store

__all__ = ["Table", "View", "Analysis", "Shown", "Connection", "build", "query", "export", "view", "analyze",
           "entities", "show", "connect", "stats", "writable", "Page", "article_page"]

#: Where a store is: a directory, a ``sparql+http(s)://`` URL, or None (the settings).
StoreArg = str | os.PathLike[str] | None
#: A store to read: where it is, or an open ``Store``.
ReadArg: TypeAlias = "str | os.PathLike[str] | Store | None"


class Table(NamedTuple):
    """The answer to a SELECT: column names and rows of plain values (None where unbound)."""

    columns: list[str]
    rows: list[list[str | None]]


def _location(store: StoreArg) -> str | None:
    return None if store is None else os.fspath(store)


def _is_location(store: object) -> bool:
    return store is None or isinstance(store, (str, os.PathLike))


def _path(path: str | os.PathLike[str] | None) -> Path | None:
    return None if path is None else Path(path)


@contextmanager
def _reading(store: ReadArg) -> Iterator[tuple[Store, Settings]]:
    """The store, opened read-only (it answers while a build writes) unless it is open already, and the settings."""
    from .store import opened

    if not _is_location(store):
        yield store, load_settings()  # type: ignore[misc]
        return
    resolved = load_settings(store=_location(store))  # type: ignore[arg-type]
    with opened(resolved.store, read_only=True) as st:
        yield st, resolved


def writable(path: str | os.PathLike[str]) -> Path:
    """``path``, or ``UsageError`` unless it can be written where it is: its folder exists, and it is
    nothing yet, a file, a link to one, or a FIFO (not a folder, a device or a socket: ``kg.files``)."""
    from .files import check_writable

    return check_writable(path)


def build(paths: Iterable[str | os.PathLike[str]], store: StoreArg = None, out: str | os.PathLike[str] | None = None, *,
          model: str | None = None, workers: int | None = None, force: bool = False, max_chars: int = 50_000,
          curation: str | os.PathLike[str] | None = None, dask: str | None = None, follow_symlinks: bool = False,
          progress: Callable[[str], None] | None = None, full_resolve: bool = False,
          max_article_bytes: int | str | None = None) -> BuildReport:
    """Extract facts from articles (files, folders, ``-`` for standard input) into the store; with
    ``out``, also write graph.ttl and graph.html there. ``progress`` gets one line per article.
    Entity resolution reads again only what the build changed; ``full_resolve``: the whole store.
    An article over ``max_article_bytes`` (default: the settings', 4 MiB; ``512K``, ``8M`` will do) is skipped."""
    from .build.pipeline import build as run_build
    from .resolve.curation import using

    settings = load_settings(store=_location(store), model=model, workers=workers,
                             max_article_bytes=max_article_bytes)
    with using(_path(curation)):
        return run_build([Path(p) for p in paths], settings, out_dir=_path(out),
                         progress=progress, force=force, max_chars=max_chars, dask=dask,
                         follow_symlinks=follow_symlinks, full_resolve=full_resolve)


def query(sparql: str, store: ReadArg = None, *, timeout: float | None = None, max_memory: int | None = None,
          allow_service: bool = False) -> Table | bool | bytes:
    """Run SPARQL over the union of all articles' graphs: a query, or a ``.rq`` file (a path, or a
    canned query's name such as ``events.rq``). SELECT gives a ``Table``, ASK a bool, CONSTRUCT and
    DESCRIBE Turtle. Every query runs as ``kg serve`` runs one (``kg.sparql``): checked (no SERVICE,
    no LOAD, bounded nesting: a one-line ``QueryError``), its FROM and FROM NAMED choosing graphs of
    the store (one it does not hold is empty), in a worker process stopped at ``timeout`` seconds
    (default ``QUERY_TIMEOUT``) and limited to ``max_memory`` MB (default ``DEFAULT_MEMORY``, 0: no
    limit), cut off from the network over a directory. ``allow_service``: SERVICE may run, and the
    worker keeps its network."""
    from .rdf.query import query_text
    from .sparql.pool import DEFAULT_MEMORY

    text = query_text(sparql)
    timeout = QUERY_TIMEOUT if timeout is None else timeout
    memory = DEFAULT_MEMORY if max_memory is None else max_memory
    if not timeout > 0:
        raise UsageError(f"the timeout must be a number of seconds above 0, not {timeout:g}")
    if memory < 0:
        raise UsageError(f"the memory limit must be a number of MB (0: none), not {memory}")
    return _guarded(text, _query_location(store), timeout, memory, allow_service)


#: Seconds a query of ``kg query`` or ``query()`` may run unless told otherwise.
QUERY_TIMEOUT = 120.0


def _query_location(store: ReadArg) -> StoreArg:
    """Where the store a query runs over is: the worker process opens it itself."""
    if _is_location(store):
        return store  # type: ignore[return-value]
    path = getattr(store, "path", None)
    if isinstance(path, Path):
        return path
    raise UsageError("a query runs in a worker process, which opens the store itself: give the store's location "
                     "(a directory or a sparql+http:// URL), not an open in-memory or server store")


def _refusal(message: str) -> str:
    """The guard's message, with what lets a refused SERVICE run (the guard's words are kg serve's too)."""
    from .sparql.lexer import FORBIDDEN

    if message == FORBIDDEN["SERVICE"]:
        return "SERVICE (federated query) is not allowed unless asked for: kg query --allow-service (allow_service=True) lets it call other endpoints"
    return message


def _guarded(text: str, store: StoreArg, timeout: float, max_memory: int, allow_service: bool) -> Table | bool | bytes:
    """``text`` through the guard of ``kg.sparql``, as ``kg serve`` runs it: in a worker process that
    is killed at ``timeout`` (sandboxed over a directory; over a SPARQL server, it sends the query there)."""
    import json

    from .errors import QueryError, StoreError
    from .sparql.executor import memory_message
    from .sparql.lexer import Rejected, scan
    from .sparql.pool import PoolBusy, QueryTimeout, WorkerCrashed, WorkerOptions, WorkerOutOfMemory, WorkerPool
    from .store import is_remote, require_store

    settings = load_settings(store=_location(store))
    location = settings.store
    if location == ":memory:":
        raise UsageError("a query runs in a worker process: give a store directory or a server, not :memory:")
    try:
        scan(text, allow_service=allow_service)
    except Rejected as err:
        raise QueryError(_refusal(err.message)) from err
    require_store(location)
    options = WorkerOptions(max_memory=max_memory or None, allow_service=allow_service)
    pool = WorkerPool(location, size=1, respawn=False, base=settings.base, options=options)
    try:
        try:
            pool.start()
        except OSError as err:
            if is_remote(location):  # the worker said why it cannot reach the server
                raise StoreError(str(err)) from err
            raise StoreError(f"cannot open store {location} in a query worker: {err}") from err
        reply = pool.run({"op": "query", "text": text, "results": "application/sparql-results+json",
                          "graph": "text/turtle", "max_rows": 0, "dataset": None, "base": None, "whole": True},
                         timeout=timeout)
    except QueryTimeout as err:
        raise QueryError(f"the query ran longer than the {timeout:g} s timeout and was stopped (--timeout); "
                         "make it more selective, or give it more time") from err
    except WorkerOutOfMemory as err:
        raise QueryError(memory_message(max_memory or None)) from err
    except WorkerCrashed as err:
        raise QueryError("the query crashed its worker process (too large or too deeply nested?)") from err
    except PoolBusy as err:
        raise QueryError(f"the query worker failed: {err}") from err
    finally:
        pool.close()
    if reply.status != 200:
        raise QueryError(_refusal(str(reply.header.get("message", "the query failed"))))
    if reply.header.get("truncated"):  # only a server cuts (at its own row limit): never a partial table
        raise QueryError("the SPARQL server cut the answer at its row limit; raise it (Virtuoso: ResultSetMaxRows "
                         "in the [SPARQL] section of virtuoso.ini; kg serve: --max-rows), or narrow the query")
    if reply.header.get("type") == "text/turtle":
        return reply.body
    answer = json.loads(reply.body)
    if "boolean" in answer:
        return bool(answer["boolean"])
    columns = list(answer["head"]["vars"])
    rows = [[b[c]["value"] if c in b else None for c in columns] for b in answer["results"]["bindings"]]
    return Table(columns, rows)


def export(fmt: str = "turtle", store: ReadArg = None, output: str | os.PathLike[str] | None = None,
           per_article: bool = False) -> bytes:
    """The graph as ``fmt`` (turtle, nt, nquads, trig, jsonld; Turtle, N-Triples and JSON-LD hold the
    union, N-Quads and TriG one graph per article); also written to ``output`` when given."""
    import stat

    from .files import target, write_atomic
    from .outputs.export import STREAMED, check_format, export_file, serialize

    check_format(fmt, per_article)
    streamed = fmt in STREAMED
    if output is not None:
        now = target(output)[1]  # before the store is read: a folder, a device, a socket is said at once
        streamed = streamed and not (now is not None and stat.S_ISFIFO(now.st_mode))  # a pipe is not read back
    with _reading(store) as (st, _):
        if output is not None and streamed:  # written as it is read, then returned
            export_file(st, Path(output), fmt)
            return Path(output).read_bytes()
        data = serialize(st, fmt, per_article=per_article)
    if output is not None:
        write_atomic(output, data)
    return data


@dataclass
class View:
    """The network view: the file written (or, with no file, the page's HTML), what it draws, and of what."""

    path: Path | None
    html: str | None
    nodes: int
    edges: int
    entities: int  # the store's entities after resolution (``kg entities``)
    selection: str  # what was selected, "" for the whole store


def view(output: str | os.PathLike[str] | None = None, store: ReadArg = None, *, entity: str | None = None,
         hops: int = 2, article: str | None = None, cls: str | None = None, since: str | None = None,
         until: str | None = None, max_nodes: int = 1500) -> View:
    """The interactive network view, one self-contained HTML file (written to ``output``, else
    returned as ``View.html``), of the whole store or of one entity's surroundings, one article,
    one event class or a span of publication dates."""
    from .outputs.network import load_network
    from .outputs.select import date_range, select
    from .outputs.stats import entity_counts
    from .outputs.view import render_view, write_view

    target = None if output is None else writable(output)  # the options first: nothing is read before
    date_range(since, until)
    with _reading(store) as (st, settings):
        network = load_network(st)
        total = entity_counts(st, settings.base)["entities"]
    network, what = select(network, entity=entity, hops=hops, article=article, cls=cls, since=since, until=until)
    title = "kg: news knowledge graph" + (f" \u2014 {what}" if what else "")
    html = None
    if target is not None:
        write_view(network, target, title=title, max_nodes=max_nodes, store_entities=total)
    else:
        html = render_view(network, title=title, max_nodes=max_nodes, store_entities=total)
    return View(target, html, len(network.nodes), len(network.edges), total, what)


@dataclass
class Analysis:
    """Rankings (degree, PageRank, betweenness), communities and activity over time of the network."""

    network: Network
    ranks: list[Rank]
    communities: list[Community]
    activity: list[Activity]
    entities: int  # the store's entities after resolution
    written: list[Path] = field(default_factory=list)

    def top(self, measure: str, n: int = 10) -> list[Rank]:
        """The ``n`` highest by ``measure`` (degree, pagerank, betweenness)."""
        from .outputs.analysis import top

        return top(self.ranks, measure, n)


def analyze(store: ReadArg = None, *, graphml: str | os.PathLike[str] | None = None,
            gexf: str | os.PathLike[str] | None = None, charts: str | os.PathLike[str] | None = None,
            chart_top: int = 15) -> Analysis:
    """Actor rankings, communities and activity; also the network as GraphML or GEXF (Gephi) and
    the charts (top-actors.png, activity.png, ``chart_top`` actors) into the folder ``charts``."""
    from .outputs.analysis import activity, communities, rankings, write_gexf, write_graphml
    from .outputs.network import load_network
    from .outputs.stats import entity_counts

    for target in (graphml, gexf):  # the options first: nothing is read or written before they are good
        if target is not None:
            writable(target)
    if charts is not None and not Path(charts).is_dir():
        raise UsageError(f"cannot write charts to {charts}: not a directory; create it first")
    with _reading(store) as (st, settings):
        network = load_network(st)
        total = entity_counts(st, settings.base)["entities"]
    ranks = rankings(network)
    result = Analysis(network, ranks, communities(network, ranks), activity(network), total)
    if graphml is not None:
        write_graphml(network, graphml, ranks)
        result.written.append(Path(graphml))
    if gexf is not None:
        write_gexf(network, gexf, ranks)
        result.written.append(Path(gexf))
    if charts is not None:
        from .outputs.charts import write_charts

        result.written.extend(Path(p) for p in write_charts(network, charts, ranks, n=chart_top))
    return result


def entities(store: ReadArg = None, *, type: str | None = None, search: str | None = None,
             limit: int | None = None) -> list[Cluster]:
    """The entities after resolution, most mentioned first: of one type (Person, Organization,
    Place, Group; a prefix will do), with a name containing ``search``, at most ``limit``."""
    from .resolve.lookup import list_entities

    with _reading(store) as (st, settings):
        found = list_entities(st, settings.base, type, search)
    return found[:limit] if limit else found


@dataclass
class Shown:
    """One entity: its cluster (names, IRIs, mentions), every event and role it takes part in, and
    why each member IRI joined it (the rule)."""

    cluster: Cluster
    facts: list[Fact]
    why: dict[str, str]  # member IRI -> rule
    article_ids: dict[str, str]  # article IRI -> id
    base: str


def show(entity: str, store: ReadArg = None, *, curation: str | os.PathLike[str] | None = None) -> Shown:
    """One entity, named by a label, an alias, an IRI or ``type/slug``: its names, IRIs, articles,
    and every event and role it takes part in, with the sentences."""
    from .resolve.curation import using
    from .resolve.graph import stored_resolution
    from .resolve.lookup import entity_facts, find_cluster

    with _reading(store) as (st, settings), using(_path(curation)):
        res = stored_resolution(st, settings.base)
        cl, _ = find_cluster(res, entity, settings.base)
        facts = entity_facts(st, res, cl)
    why = {m: rule for a, b, rule in cl.reasons for m in (a, b)}
    return Shown(cl, facts, why, dict(res.article_ids), settings.base)


@dataclass
class Connection:
    """How two entities are connected: their labels, and the hops between them (None: not
    connected; empty: the same entity)."""

    a: str
    b: str
    hops: list[Hop] | None


def connect(a: str, b: str, store: ReadArg = None) -> Connection:
    """A shortest chain of events and roles between two entities (labels, aliases or IRIs)."""
    from .outputs.analysis import connection
    from .outputs.network import load_network
    from .outputs.select import find_entity

    with _reading(store) as (st, _):
        network = load_network(st)
    hops = connection(network, a, b)
    return Connection(find_entity(network, a).label, find_entity(network, b).label, hops)


def stats(store: ReadArg = None) -> dict[str, int]:
    """Counts: articles, entities (after resolution, and by type), events, roles, entity IRIs,
    named graphs, quads."""
    from .outputs.stats import counts

    with _reading(store) as (st, settings):
        return counts(st, settings.base)


@dataclass
class Page:
    """An article's or an entity's page: the file written (or, with no file, the HTML), its title,
    and how many facts it shows (and of them, how many it highlights in the text)."""

    path: Path | None
    html: str | None
    title: str
    facts: int
    placed: int = 0


def article_page(article: str, output: str | os.PathLike[str] | None = None, store: ReadArg = None) -> Page:
    """One article as a self-contained page (written to ``output``, else returned as ``Page.html``):
    its text with every fact's evidence highlighted at its offsets, names coloured by type, each
    fact inline; the article named by its id, IRI or title."""
    from .files import write_atomic
    from .outputs.view_article import ARTICLES_QUERY, find_article, read_article, render_article
    from .outputs.view_pages import Assets

    target = None if output is None else writable(output)
    with _reading(store) as (st, _):
        iri = find_article(st.select(ARTICLES_QUERY), article)
        data = read_article(lambda queries: [st.select(q) for q in queries], iri, lambda _iri: None)
    if data is None:
        raise UsageError(f"no article {article!r} in the store")
    html = render_article(data, Assets(inline=True))
    if target is not None:
        write_atomic(target, html.encode("utf-8"))
    placed = sum(1 for f in data.facts if f.evidence is not None)
    return Page(target, None if target is not None else html, data.title or data.id, len(data.facts), placed)
