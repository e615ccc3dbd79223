"""build(): the one place that knows the order of the stages.

sources -> hygiene -> clean -> split -> spaCy -> extract -> merge pieces, map offsets back
-> mapping -> store (one transaction per article, as soon as its facts are ready)
-> export (graph.ttl) and view (graph.html).

Offsets: spaCy parses the *hygienic* text (``nlp.hygiene.sanitize``: NFC, invisible and control
characters removed), blanked by ``nlp.clean`` where it is not story text (same length), and cut into
pieces of at most ``max_chars`` characters (``nlp.hygiene.split``). Extraction gives offsets into a
piece; ``ArticleFacts`` leaving this module hold offsets into the *original* ``Article.text``, and
every ``Evidence.text`` is exactly ``article.text[start:end]``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import chain, islice
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .config import Settings
from .extract import extract_facts
from .facts import Article, ArticleFacts, Entity, Evidence
from .iris import Minter
from .mapping import article_graph, to_ntriples
from .nlp.clean import clean
from .nlp.hygiene import Sanitized, sanitize, split
from .nlp.pipeline import load
from .sources import Note, Skipped, read_articles
from .store import Store, open_store

#: Longest piece of text given to spaCy at once. spaCy refuses more than ``nlp.max_length``
#: (1,000,000) characters and its memory grows with the length of a Doc: measured with
#: en_core_web_sm, peak RSS 0.31 GB for a 50,000-character Doc, 0.48 GB for 100,000, and the
#: shorter Doc also parses faster per character.
DEFAULT_MAX_CHARS = 50_000
#: Characters spaCy may hold in one batch per process (batch size = this // max_chars, between 1
#: and 16). Measured: a batch of 4 pieces of 50,000 characters peaks at 0.76 GB, a batch of one at
#: 0.34 GB, with the same throughput (batch size hardly matters to en_core_web_sm's speed).
BATCH_CHARS = 50_000

_SURROGATE = re.compile("[\ud800-\udfff]")


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


@dataclass
class _Work:
    """One article on its way through the parser: its pieces, and the facts merged so far."""

    article: Article  # original text, title and date filled
    hyg: Sanitized
    pieces: list[tuple[int, int]]
    facts: ArticleFacts
    done: int = 0
    #: entity key -> the pieces it was found in (short names are folded only across pieces)
    seen_in: dict[str, set[int]] = field(default_factory=dict)


def _plan(article: Article, max_chars: int) -> tuple[_Work, str]:
    if _SURROGATE.search(article.text):  # not encodable in RDF; one for one keeps the offsets
        article = replace(article, text=_SURROGATE.sub("\ufffd", article.text))
    hyg = sanitize(article.text)
    cleaned = clean(hyg.text)
    art = replace(article, title=article.title or cleaned.title, date=article.date or cleaned.date)
    work = _Work(art, hyg, split(cleaned.text, max_chars), ArticleFacts(article=art))
    return work, cleaned.text


def _add_piece(work: _Work, piece: ArticleFacts, offset: int, k: int) -> None:
    """Merge the facts of one piece into its article's, with offsets into the original text."""
    text, hyg = work.article.text, work.hyg

    def back(ev: Evidence) -> Evidence:
        start, end = hyg.span(ev.start + offset, ev.end + offset)
        return Evidence(text=text[start:end], start=start, end=end)

    out = work.facts
    out.events.extend(replace(e, evidence=back(e.evidence), trigger=back(e.trigger) if e.trigger else None)
                      for e in piece.events)
    out.roles.extend(replace(r, evidence=back(r.evidence)) for r in piece.roles)
    for key, ent in piece.entities.items():
        work.seen_in.setdefault(key, set()).add(k)
        have = out.entities.get(key)
        if have is None:
            out.entities[key] = Entity(key=ent.key, label=ent.label, type=ent.type,
                                       aliases=set(ent.aliases), mentions=ent.mentions)
        else:
            _merge_entity(have, ent)


def _merge_entity(into: Entity, other: Entity) -> None:
    into.aliases |= other.aliases
    into.mentions += other.mentions
    if len(other.label) > len(into.label) and into.type != "Place":
        into.label = other.label


def _fold_short_names(facts: ArticleFacts, seen_in: dict[str, set[int]]) -> None:
    """After merging pieces: a person named by part of exactly one longer name is that person.

    Within one piece extraction already does this ("Karzai" -> "Hamid Karzai"); across pieces a
    short name can only be joined here, and only with a longer name never seen in the same piece
    (where extraction has already decided).
    """
    from .extract.entities import norm_name

    persons = [e for e in facts.entities.values() if e.type == "Person"]
    words = {e.key: {norm_name(w) for w in re.split(r"[\s\-]+", e.label)} - {""} for e in persons}
    target: dict[str, str] = {}
    for e in persons:
        mine = words[e.key]
        longer = [o.key for o in persons if o.key != e.key and len(words[o.key]) > len(mine) and mine <= words[o.key]]
        if mine and len(longer) == 1 and not seen_in.get(e.key, set()) & seen_in.get(longer[0], set()):
            target[e.key] = longer[0]
    if not target:
        return

    def final(k: str | None) -> str | None:
        seen = set()
        while k in target and k not in seen:
            seen.add(k)
            k = target[k]
        return k

    for old in target:
        new = final(old)
        if new != old and new in facts.entities and old in facts.entities:
            _merge_entity(facts.entities[new], facts.entities.pop(old))
    facts.events = [replace(e, actor=final(e.actor), target=final(e.target), reported_by=final(e.reported_by))
                    for e in facts.events]
    facts.roles = [replace(r, person=final(r.person) or r.person, org=final(r.org) or r.org) for r in facts.roles]


def _finish(work: _Work) -> ArticleFacts:
    facts = work.facts
    if len(work.pieces) > 1:
        _fold_short_names(facts, work.seen_in)
    facts.entities = dict(sorted(facts.entities.items()))
    return facts


def extract_articles(articles: Iterable[Article], settings: Settings,
                     max_chars: int = DEFAULT_MAX_CHARS) -> Iterator[ArticleFacts]:
    """Parse articles with spaCy and read their facts, in input order, one article at a time.

    Articles are read lazily; each is yielded as soon as its last piece is parsed, so a caller
    that stores it at once commits article by article. Memory is bounded by the batch (about
    ``BATCH_CHARS`` characters per process), not by the number or the length of the articles.
    """
    if max_chars < 1:
        from .errors import UsageError

        raise UsageError("--max-chars must be at least 1")
    todo = iter(articles)
    first = next(todo, None)
    if first is None:  # nothing to parse (say, every article unchanged): no model to load
        return
    nlp = load(settings.model)
    limit = min(max_chars, nlp.max_length)
    pending: dict[int, _Work] = {}

    def feed() -> Iterator[tuple[str, tuple[int, int]]]:
        for i, art in enumerate(chain([first], todo)):
            work, text = _plan(art, limit)
            pending[i] = work
            for k, (s, e) in enumerate(work.pieces):
                yield text[s:e], (i, k)

    stream = feed()
    head = list(islice(stream, 5))
    n_process = settings.workers if len(head) > 4 else 1
    batch = max(1, min(16, BATCH_CHARS // limit))
    docs = nlp.pipe(chain(head, stream), as_tuples=True, batch_size=batch, n_process=n_process)
    for doc, (i, k) in docs:
        work = pending[i]
        s, e = work.pieces[k]
        piece = replace(work.article, text=work.hyg.text[s:e])
        _add_piece(work, extract_facts(doc, piece), s, k)
        del doc
        work.done += 1
        if work.done == len(work.pieces):
            del pending[i]
            yield _finish(work)


def extract_article(article: Article, settings: Settings, max_chars: int = DEFAULT_MAX_CHARS) -> ArticleFacts:
    """The facts of one article, exactly as a build reads them."""
    return next(iter(extract_articles([article], settings, max_chars)))


def extract_texts(articles: list[Article], settings: Settings) -> Iterable[ArticleFacts]:
    """Parse articles with spaCy and read their facts, in input order (see ``extract_articles``)."""
    return extract_articles(articles, settings)


def stored_hashes(store: Store) -> dict[str, str]:
    """Article IRI -> content hash of what the store holds."""
    rows = store.select(
        "SELECT ?a ?h WHERE { ?a a <https://w3id.org/kg-news/ns#Article> ; <https://w3id.org/kg-news/ns#contentHash> ?h }"
    )
    return {r["a"] or "": r["h"] or "" for r in rows}


def build(
    paths: Iterable[str | Path],
    settings: Settings,
    out_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
    force: bool = False,
    max_chars: int = DEFAULT_MAX_CHARS,
) -> BuildReport:
    """Read, extract, store and export; each article replaces its own named graph.

    Each article is committed (one transaction) as soon as its facts are ready, so a build that
    is killed keeps every article stored before; a re-run skips the articles whose content hash
    the store already holds (unless ``force``) and does the rest.
    """
    from .export import export_file
    from .network import load_network
    from .view import write_view

    report = BuildReport()
    minter = Minter(settings.base)
    items = read_articles(paths)  # checks the paths before the store is opened
    say = progress or (lambda message: None)
    store = open_store(settings.store, settings.base)
    try:
        known = stored_hashes(store)

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

        for facts in extract_articles(todo(), settings, max_chars):
            graph = article_graph(facts, minter)
            store.replace_graph(minter.graph(facts.article.id), to_ntriples(graph))
            report.articles += 1
            report.events += len(facts.events)
            report.roles += len(facts.roles)
            say(f"stored {facts.article.id}")
        from .resolve import update_resolution  # cross-article entities: the {base}resolution graph

        update_resolution(store, minter, say)
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            ttl = out_dir / "graph.ttl"
            export_file(store, ttl, "turtle")
            html = out_dir / "graph.html"
            write_view(load_network(store), html, title="kg: news knowledge graph")
            report.outputs = [str(ttl), str(html)]
    finally:
        store.close()
    return report
