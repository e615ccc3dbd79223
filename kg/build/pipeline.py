"""build(): the one place that knows the order of the stages.

sources -> hygiene -> clean -> split -> spaCy -> extract -> merge pieces, map offsets back
-> mapping (these per article, in workers: ``jobs``, ``workers``)
-> store (one transaction per article, as soon as its graph is ready, by this process alone, in a
   writer thread that overlaps the parse: ``writer``)
-> entity resolution -> on request (``out_dir``), export (graph.ttl) and view (graph.html) of the whole store.

Offsets into pieces and back to the original text: see ``pieces``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..config import Settings
from ..errors import KgError, UsageError
from ..files import check_writable, make_folder
from ..model.facts import Article, ArticleFacts
from ..model.iris import Minter
from ..model.vocab import sparql_prefixes
from ..nlp.clean import clean
from ..nlp.hygiene import sanitize
from ..nlp.pipeline import load
from ..rdf.mapping import LAYOUT_VERSION
from ..store import Store, close_after_error, open_store
from ..text.sources import Note, Skipped, read_articles
from .jobs import ArticleGraph, JobSpec, Zone, jobs, read_job
from .workers import run_articles
from .writer import StoreWriter

#: Longest piece of text given to spaCy at once. spaCy refuses more than ``nlp.max_length``
#: (1,000,000) characters and its memory grows with the length of a Doc: measured with
#: en_core_web_sm, peak RSS 0.31 GB for a 50,000-character Doc, 0.48 GB for 100,000, and the
#: shorter Doc also parses faster per character.
DEFAULT_MAX_CHARS = 50_000

#: A long build resolves the articles it stored every so many (``kg.resolve.increment``), so that
#: resolution never holds a whole large store in memory: the peak stays what it is at this many
#: articles, whatever the size of the build (docs/benchmarks.md).
RESOLVE_EVERY = 1000

@dataclass
class BuildReport:
    """What a build did: counts, and the inputs it skipped with the reason."""

    articles: int = 0
    unchanged: int = 0
    events: int = 0
    roles: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    #: what the whole store holds after the build: "articles", "events", "roles" (``outputs.stats.totals``)
    held: dict[str, int] = field(default_factory=dict)


def prepare(article: Article) -> tuple[Article, str]:
    """An article ready for ``extract_facts`` and the text to parse, for one-Doc use (tests, notebooks).

    The returned article's text is the hygienic text (the original when hygiene changes nothing),
    so ``extract_facts(nlp(text), art)`` gives offsets into ``art.text``. ``extract_article`` is
    the full path: pieces, and offsets mapped back to the original text.
    """
    hyg = sanitize(article.text)
    cleaned = clean(hyg.text)
    art = replace(article, text=hyg.text, title=article.title or cleaned.title, date=article.date or cleaned.date)
    return art, cleaned.text


def extract_articles(articles: Iterable[Article], settings: Settings,
                     max_chars: int = DEFAULT_MAX_CHARS) -> Iterator[ArticleFacts]:
    """Parse articles with spaCy and read their facts, in input order, a job of a few articles at a
    time, in this process (a build runs the same jobs in workers: ``jobs``, ``workers``).

    Articles are read lazily; each job's are yielded as soon as it is parsed, and memory is bounded
    by one job, not by the number or the length of the articles.
    """
    _check_max_chars(max_chars)
    todo = iter(articles)
    first = next(todo, None)
    if first is None:  # nothing to parse: no model to load
        return
    nlp = load(settings.model)
    zone = Zone(nlp)
    try:
        for job in jobs(chain([first], todo)):
            yield from read_job(nlp, job, max_chars, zone)
    finally:
        zone.close()


def _check_max_chars(max_chars: int) -> None:
    if max_chars < 1:
        raise UsageError("--max-chars must be at least 1")


def extract_article(article: Article, settings: Settings, max_chars: int = DEFAULT_MAX_CHARS) -> ArticleFacts:
    """The facts of one article, exactly as a build reads them."""
    return next(iter(extract_articles([article], settings, max_chars)))


def check_outputs(out_dir: Path) -> None:
    """Make ``out_dir`` (a one-line ``KgError`` if it cannot be); ``UsageError`` unless graph.ttl and
    graph.html can be written there."""
    make_folder(out_dir)
    for name in OUTPUT_FILES:
        check_writable(out_dir / name)


#: What ``build`` writes into ``out_dir``.
OUTPUT_FILES = ("graph.ttl", "graph.html")


def stored_hashes(store: Store) -> dict[str, str]:
    """Article IRI -> content hash of what the store holds, for the articles stored in this kg's
    graph layout (``mapping.LAYOUT_VERSION``): the others are read again even if unchanged."""
    rows = store.select(
        sparql_prefixes("kg")
        + f"SELECT ?a ?h WHERE {{ ?a a kg:Article ; kg:contentHash ?h ; kg:layoutVersion {LAYOUT_VERSION} }}"
    )
    return {r["a"] or "": r["h"] or "" for r in rows}


def known_articles(store: Store, base: str) -> dict[str, str]:
    """``stored_hashes``, from the resolution's index when it describes the store (no article read)."""
    from ..resolve.graph import known_hashes

    known = known_hashes(store, base, str(LAYOUT_VERSION))
    return known if known is not None else stored_hashes(store)


def resolving_writer(store: Store, minter: Minter, say: Callable[[str], None]) -> StoreWriter:
    """A ``StoreWriter`` that resolves what it wrote every ``RESOLVE_EVERY`` articles, on its thread."""
    from ..resolve.graph import update_resolution

    def resolve(graphs: list[str]) -> None:
        update_resolution(store, minter, say, touched=graphs)

    return StoreWriter(store, every=(RESOLVE_EVERY, resolve))


def build(
    paths: Iterable[str | Path],
    settings: Settings,
    out_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
    force: bool = False,
    max_chars: int = DEFAULT_MAX_CHARS,
    dask: str | None = None,
    follow_symlinks: bool = False,
    full_resolve: bool = False,
) -> BuildReport:
    """Read, extract, store and export; each article replaces its own named graph.

    Each article is committed (one transaction) as soon as its facts are ready, so a build that
    is killed keeps every article stored before; a re-run skips the articles whose content hash
    the store already holds (unless ``force``) and does the rest. Articles are parsed in
    ``settings.workers`` processes, or on the Dask scheduler at ``dask``; this process alone writes
    the store. Symbolic links in folders that lead out of them are read only with ``follow_symlinks``.
    Entity resolution then reads again only the articles this build changed (``kg.resolve.increment``);
    ``full_resolve``: all of them.
    """
    from ..outputs.export import export_file
    from ..outputs.network import load_network
    from ..outputs.stats import entity_counts, totals
    from ..outputs.view import write_view

    _check_max_chars(max_chars)
    report = BuildReport()
    minter = Minter(settings.base)
    items = read_articles(paths, follow_symlinks, settings.max_article_bytes)  # the paths checked before the store is opened
    if out_dir is not None:  # and the outputs: said before anything is built
        check_outputs(out_dir)
    say = progress or (lambda message: None)
    store = open_store(settings.store, settings.base)
    try:
        known = known_articles(store, settings.base)

        def todo() -> Iterator[Article]:
            for item in items:
                if isinstance(item, Skipped):
                    report.skipped.append(item)
                    say(f"skipped {item.line}")
                elif isinstance(item, Note):
                    report.notes.append(item)
                    say(f"note {item.line}")
                elif not force and known.get(minter.article(item.id)) == item.content_hash:
                    report.unchanged += 1
                    say(f"unchanged {item.id}")
                else:
                    yield item

        spec = JobSpec(model=settings.model, base=settings.base, max_chars=max_chars)


        def stored(written: list[ArticleGraph]) -> None:
            for art, why in writer.refused():
                report.skipped.append(Skipped(art.article_id, f"could not be stored ({why}); nothing of it was "
                                                              "written (a smaller --max-article-bytes skips it early)"))
                say(f"skipped {report.skipped[-1].line}")
            for done in written:
                report.articles += 1
                report.events += done.events
                report.roles += done.roles
                say(f"stored {done.article_id}")

        writer = resolving_writer(store, minter, say)
        try:
            for done in run_articles(todo(), spec, settings.workers, dask, say):
                stored(writer.put(done))
        except BaseException:
            try:
                stored(writer.close())  # what was parsed is stored, also when the build stops on an error
            except (KgError, OSError):
                pass  # the first error is the one to report
            raise
        stored(writer.close())
        from ..resolve.graph import held_totals, update_resolution  # cross-article entities: the {base}resolution graph

        update_resolution(store, minter, say, if_changed=report.articles == 0 and not full_resolve,
                          full=full_resolve, touched=writer.pending())
        report.held = held_totals(store, settings.base) or totals(store)
        if out_dir is not None:
            ttl, html = (out_dir / name for name in OUTPUT_FILES)
            export_file(store, ttl, "turtle")
            write_view(load_network(store), html, title="kg: news knowledge graph",
                       store_entities=entity_counts(store, settings.base)["entities"])
            report.outputs = [str(ttl), str(html)]
    except BaseException:
        close_after_error(store)
        raise
    store.close()
    return report
