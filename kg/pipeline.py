"""build(): the one place that knows the order of the stages.

sources -> clean -> spaCy -> extract -> mapping -> store (one transaction per article)
-> export (graph.ttl) and view (graph.html).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from .config import Settings
from .extract import extract_facts
from .facts import Article, ArticleFacts
from .iris import Minter
from .mapping import article_triples, to_ntriples
from .nlp.clean import clean
from .nlp.pipeline import load
from .sources import Skipped, read_articles
from .store import Store, open_store


@dataclass
class BuildReport:
    """What a build did: counts, and the inputs it skipped with the reason."""

    articles: int = 0
    unchanged: int = 0
    events: int = 0
    roles: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)


def prepare(article: Article) -> tuple[Article, str]:
    """Clean an article for parsing; fill title and date from the text when it has them."""
    cleaned = clean(article.text)
    art = replace(article, title=article.title or cleaned.title, date=article.date or cleaned.date)
    return art, cleaned.text


def extract_texts(articles: list[Article], settings: Settings) -> Iterable[ArticleFacts]:
    """Parse articles with spaCy and read their facts, in input order."""
    nlp = load(settings.model)
    prepared = [prepare(a) for a in articles]
    docs = nlp.pipe(((text, art) for art, text in prepared), as_tuples=True, batch_size=16,
                    n_process=max(1, min(settings.workers, len(prepared))) if len(prepared) > 4 else 1)
    for doc, art in docs:
        yield extract_facts(doc, art)


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
) -> BuildReport:
    """Read, extract, store and export; each article replaces its own named graph."""
    from .export import export_file
    from .network import load_network
    from .view import write_view

    report = BuildReport()
    minter = Minter(settings.base)
    store = open_store(settings.store)
    try:
        known = stored_hashes(store)
        todo: list[Article] = []
        for item in read_articles(paths):
            if isinstance(item, Skipped):
                report.skipped.append(item)
                if progress:
                    progress(f"skipped {item.path}: {item.reason}")
                continue
            if not force and known.get(minter.article(item.id)) == item.content_hash:
                report.unchanged += 1
                if progress:
                    progress(f"unchanged {item.id}")
                continue
            todo.append(item)
        for facts in extract_texts(todo, settings):
            triples = article_triples(facts, minter)
            store.replace_graph(minter.graph(facts.article.id), to_ntriples(triples))
            report.articles += 1
            report.events += len(facts.events)
            report.roles += len(facts.roles)
            if progress:
                progress(f"stored {facts.article.id}")
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
