"""Shared fixtures: the spaCy pipeline (loaded once) and a helper that reads facts from text."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from kg.extract import extract_facts
from kg.facts import Article, ArticleFacts
from kg.nlp.pipeline import load
from kg.pipeline import prepare
from kg.sources import content_hash


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
