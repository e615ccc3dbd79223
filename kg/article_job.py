"""One article in, its named graph out: the unit of work a build hands to a worker.

``run_job`` parses, extracts and maps one article and returns its triples as N-Triples text (the
article's quads, all in its one named graph), never spaCy objects, so it runs the same in this
process, in a process pool or on a Dask worker. Each process (each thread, on a threaded Dask
worker) loads the model once. The parse runs inside spaCy's ``memory_zone``: the strings and
lexemes an article adds to the vocabulary are freed when it is done, so memory stays flat over a
long build.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace

from spacy.language import Language

from .extract import extract_facts
from .facts import Article, ArticleFacts
from .iris import Minter
from .mapping import article_triples, to_ntriples
from .nlp.pipeline import load
from .pieces import add_piece, finish, plan

#: Characters spaCy may hold in one batch (batch size = this // max_chars, between 1 and 16).
#: Measured: a batch of 4 pieces of 50,000 characters peaks at 0.76 GB, a batch of one at
#: 0.34 GB, with the same throughput (batch size hardly matters to en_core_web_sm's speed).
BATCH_CHARS = 50_000


@dataclass(frozen=True)
class JobSpec:
    """What every job of a build shares: the model, the base of minted IRIs, the longest piece."""

    model: str
    base: str
    max_chars: int


@dataclass(frozen=True)
class ArticleGraph:
    """One article's result: its named graph as sorted N-Triples, and what the build report counts."""

    article_id: str
    graph: str
    ntriples: str
    events: int
    roles: int


def read_article(nlp: Language, article: Article, max_chars: int) -> ArticleFacts:
    """The facts of one article: its pieces parsed in one memory zone, extracted, merged back."""
    limit = min(max_chars, nlp.max_length)
    work, text = plan(article, limit)
    batch = max(1, min(16, BATCH_CHARS // limit))
    with nlp.memory_zone():
        docs = nlp.pipe((text[s:e] for s, e in work.pieces), batch_size=batch)
        for k, doc in enumerate(docs):
            s, e = work.pieces[k]
            piece = replace(work.article, text=work.hyg.text[s:e])
            add_piece(work, extract_facts(doc, piece), s, k)
            del doc
    return finish(work)


def to_graph(facts: ArticleFacts, minter: Minter) -> ArticleGraph:
    """Map an article's facts to its named graph (N-Triples text the store takes as it is)."""
    aid = facts.article.id
    return ArticleGraph(aid, minter.graph(aid), to_ntriples(article_triples(facts, minter)),
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


def run_job(article: Article, spec: JobSpec) -> ArticleGraph:
    """Parse, extract and map one article (picklable: a worker process or a Dask worker runs it)."""
    return to_graph(read_article(model(spec.model), article, spec.max_chars), Minter(spec.base))
