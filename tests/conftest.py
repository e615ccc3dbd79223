"""Shared fixtures: the spaCy pipeline (loaded once), a helper that reads facts from text, and
the stores of whole builds of the seeds and of the dev set (each built once per session)."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from factsamples import DEV, SEEDS

from kg.config import Settings
from kg.extract import extract_facts
from kg.facts import Article, ArticleFacts
from kg.nlp.pipeline import load
from kg.pipeline import build, prepare
from kg.sources import content_hash
from kg.store import Store, open_store


@pytest.fixture(scope="session")
def nlp():  # type: ignore[no-untyped-def]
    return load()


@pytest.fixture(scope="session")
def read(nlp) -> Callable[[str], ArticleFacts]:  # type: ignore[no-untyped-def]
    """Facts of a short text, as a build would read them."""

    def _read(text: str, article_id: str = "t") -> ArticleFacts:
        art, cleaned = prepare(Article(id=article_id, text=text, content_hash=content_hash(text)))
        return extract_facts(nlp(cleaned), art)

    return _read


def _built(folder, tmp_path_factory) -> Iterator[Store]:  # type: ignore[no-untyped-def]
    where = tmp_path_factory.mktemp(folder.name) / "store"
    build([folder], Settings(store=str(where), workers=1))
    store = open_store(where)
    yield store
    store.close()


@pytest.fixture(scope="session")
def seeds_store(tmp_path_factory) -> Iterator[Store]:  # type: ignore[no-untyped-def]
    """A store built from ``seeds/`` with the real pipeline (read only: do not write to it)."""
    yield from _built(SEEDS, tmp_path_factory)


@pytest.fixture(scope="session")
def dev_store(tmp_path_factory) -> Iterator[Store]:  # type: ignore[no-untyped-def]
    """A store built from the dev set (read only); the tests that use it skip where it is absent."""
    if not DEV.is_dir():
        pytest.skip(f"the dev set ({DEV}) is not here: it lives outside the repository")
    yield from _built(DEV, tmp_path_factory)


def triples(facts: ArticleFacts, asserted_only: bool = True) -> set[tuple[str | None, str, str | None]]:
    """(actor label, action, target label) of the events, for readable assertions."""
    lab = lambda k: None if k is None else facts.entities[k].label  # noqa: E731
    return {
        (lab(e.actor), e.action, lab(e.target))
        for e in facts.events
        if not asserted_only or (not e.negated and e.modality in ("asserted", "reported"))
    }


def roles(facts: ArticleFacts) -> set[tuple[str, str, str]]:
    """(person label, role, org label) of the roles."""
    return {(facts.entities[r.person].label, r.role, facts.entities[r.org].label) for r in facts.roles}
