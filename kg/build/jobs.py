"""A few articles in, their named graphs out: the unit of work a build hands to a worker.

``run_job`` parses, extracts and maps a job of consecutive articles (``jobs`` cuts them: at most
``JOB_ARTICLES`` articles and ``BATCH_CHARS`` characters) and returns each article's triples as
N-Triples text (those of its own named graph, and the descriptions it adds to the shared one),
never spaCy objects, so it runs the same in
this process, in a process pool or on a Dask worker. Each process (each thread, on a threaded Dask
worker) loads the model once. A job's pieces go to spaCy in batches (``batches``) inside a
``memory_zone`` that each process keeps open over consecutive jobs until they have parsed
``ZONE_CHARS`` characters (``Zone``): the strings and lexemes they add to the vocabulary are then
freed, so memory stays flat over a long build, and the words their articles share are looked up
once, not once a job. Batching changes no annotation: en_core_web_sm gives the same tags, parses
and entities to a text in a batch of 1, 4 or 16 (checked on 60 generated articles).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, replace
from typing import TypeVar

from spacy.language import Language

from ..extract import extract_facts
from ..model.facts import Article, ArticleFacts
from ..model.iris import Minter
from ..nlp.pipeline import load
from ..rdf.mapping import article_triples, shared_triples, to_ntriples
from .pieces import add_piece, finish, plan

#: Characters spaCy may hold in one batch, and in one job. Measured: a batch of 4 pieces of
#: 50,000 characters peaks at 0.76 GB, a batch of one at 0.34 GB.
BATCH_CHARS = 50_000
#: Most pieces in one spaCy batch, and most articles in one job. Short texts parse faster four at a
#: time in one memory zone than one by one, each in its own (60 generated articles: 2-18% less CPU).
BATCH_PIECES = 4
JOB_ARTICLES = 4
#: Characters a process parses in one memory zone, over several jobs. spaCy makes a lexeme for
#: every word type new to the vocabulary (33 us each, measured), and a zone forgets them all: with a
#: zone a job, 60 generated articles made 13,210 lexemes of 2,374 word types. The zone's own memory
#: is a few MB of strings, bounded by this.
ZONE_CHARS = 400_000

T = TypeVar("T")


@dataclass(frozen=True)
class JobSpec:
    """What every job of a build shares: the model, the base of minted IRIs, the longest piece."""

    model: str
    base: str
    max_chars: int
    #: Characters a thread parses in one memory zone over consecutive jobs (``zone``); 0: a zone
    #: per job, closed when it ends (what a lone call wants). The build's runners set ``ZONE_CHARS``.
    zone_chars: int = 0


@dataclass(frozen=True)
class ArticleGraph:
    """One article's result: its named graph as sorted N-Triples, the descriptions it adds to the
    shared graph (``mapping.shared_triples``), and what the build report counts."""

    article_id: str
    graph: str
    ntriples: str
    shared_graph: str
    shared: str
    events: int
    roles: int


def batches(items: Iterable[T], size: Callable[[T], int], max_items: int, max_size: int) -> Iterator[list[T]]:
    """Consecutive items, in order, cut into lists of at most ``max_items`` items whose sizes add up
    to at most ``max_size`` (an item larger than that is a list of its own)."""
    batch: list[T] = []
    total = 0
    for item in items:
        n = size(item)
        if batch and (len(batch) == max_items or total + n > max_size):
            yield batch
            batch, total = [], 0
        batch.append(item)
        total += n
    if batch:
        yield batch


def jobs(articles: Iterable[Article]) -> Iterator[list[Article]]:
    """The build's articles cut into jobs: consecutive articles parsed in one memory zone."""
    return batches(articles, lambda a: len(a.text), JOB_ARTICLES, BATCH_CHARS)


class Zone:
    """A spaCy memory zone kept open over consecutive jobs until they have parsed ``budget``
    characters, then closed (a job that fails closes it too); the next job opens a new one."""

    def __init__(self, nlp: Language, budget: int = ZONE_CHARS) -> None:
        self._nlp = nlp
        self._budget = budget
        self._stack: ExitStack | None = None
        self._used = 0

    @contextmanager
    def job(self, chars: int) -> Iterator[None]:
        """Parse inside the open zone (opened if none is); count ``chars`` against the budget."""
        if self._stack is None:
            self._stack = ExitStack()
            self._stack.enter_context(self._nlp.memory_zone())
        try:
            yield
        except BaseException:
            self.close()
            raise
        self._used += chars
        if self._used >= self._budget:
            self.close()

    def close(self) -> None:
        """Free what the zone added to the vocabulary (nothing if no zone is open)."""
        stack, self._stack, self._used = self._stack, None, 0
        if stack is not None:
            stack.close()


def read_job(nlp: Language, articles: Sequence[Article], max_chars: int,
             zone: Zone | None = None) -> list[ArticleFacts]:
    """The facts of each article: their pieces parsed in a memory zone (``zone``'s, or one of their
    own, closed when they are done), extracted, merged back."""
    limit = min(max_chars, nlp.max_length)
    planned = [plan(article, limit) for article in articles]
    pieces = [(work, text, k, s, e) for work, text in planned for k, (s, e) in enumerate(work.pieces)]
    scope: AbstractContextManager[object] = (nlp.memory_zone() if zone is None
                                             else zone.job(sum(e - s for *_, s, e in pieces)))
    with scope:
        for batch in batches(pieces, lambda p: p[4] - p[3], BATCH_PIECES, BATCH_CHARS):
            docs = nlp.pipe((text[s:e] for _, text, _, s, e in batch), batch_size=len(batch))
            for (work, _, k, s, e), doc in zip(batch, docs):
                piece = replace(work.article, text=work.hyg.text[s:e])
                add_piece(work, extract_facts(doc, piece), s, k)
                del doc
    return [finish(work) for work, _ in planned]


def to_graph(facts: ArticleFacts, minter: Minter) -> ArticleGraph:
    """Map an article's facts to its named graph and its shared descriptions (N-Triples text the
    store takes as it is)."""
    aid = facts.article.id
    return ArticleGraph(aid, minter.graph(aid), to_ntriples(article_triples(facts, minter)),
                        minter.resolution_graph(), to_ntriples(shared_triples(facts, minter)),
                        len(facts.events), len(facts.roles))


_local = threading.local()


def model(name: str) -> Language:
    """This thread's copy of the pipeline ``name`` (spaCy objects are not shared between threads)."""
    cache = getattr(_local, "models", None)
    if cache is None:
        cache = _local.models = {}
    if name not in cache:
        cache[name] = load(name) if threading.current_thread() is threading.main_thread() else load.__wrapped__(name)
    return cache[name]


def zone(name: str, budget: int = ZONE_CHARS) -> Zone:
    """This thread's memory zone for the pipeline ``name``, shared by the jobs it runs."""
    zones = getattr(_local, "zones", None)
    if zones is None:
        zones = _local.zones = {}
    if name not in zones:
        zones[name] = Zone(model(name), budget)
    return zones[name]


def close_zone(name: str) -> None:
    """Close this thread's zone for ``name``, if it has one: what its jobs added is freed now."""
    open_zone = getattr(_local, "zones", {}).get(name)
    if open_zone is not None:
        open_zone.close()


def run_job(articles: Sequence[Article], spec: JobSpec) -> list[ArticleGraph]:
    """Parse, extract and map a job's articles, in order (picklable: a worker process or a Dask
    worker runs it), in this thread's zone (``zone``) if ``spec.zone_chars`` asks for one."""
    minter = Minter(spec.base)
    shared = zone(spec.model, spec.zone_chars) if spec.zone_chars > 0 else None
    facts = read_job(model(spec.model), articles, spec.max_chars, shared)
    return [to_graph(one, minter) for one in facts]
