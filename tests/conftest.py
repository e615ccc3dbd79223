"""Shared fixtures: the spaCy pipeline (loaded once), a helper that reads facts from text, and
the stores of whole builds of the seeds and of the dev set (each built once per session).

Every test gets a marker (``pyproject.toml`` lists them): ``browser`` when it drives Chromium,
``virtuoso`` when it runs on a Virtuoso server, ``model`` when it needs the spaCy model (it uses a
fixture below that loads it, or is marked so), and ``unit`` otherwise; ``make test-fast`` runs
the ``unit`` ones, in which loading the model fails the test."""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator

import pytest
from factsamples import DEV, SEEDS

from kg.build.pipeline import build, prepare
from kg.config import Settings
from kg.extract import extract_facts
from kg.model.facts import Article, ArticleFacts
from kg.nlp.pipeline import load
from kg.store import Store, open_store
from kg.text.sources import content_hash

#: Fixtures that load the spaCy model (a test that uses one, directly or through another fixture, is ``model``).
MODEL_FIXTURES = {"nlp", "read", "seeds_store", "dev_store"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        if "chromium" in names:
            item.add_marker(pytest.mark.browser)
        if item.module.__name__ == "test_store_virtuoso" or (callspec is not None and "virtuoso" in callspec.id):
            item.add_marker(pytest.mark.virtuoso)
        if names & MODEL_FIXTURES:
            item.add_marker(pytest.mark.model)
        if not any(item.get_closest_marker(m) for m in ("browser", "virtuoso", "model")):
            item.add_marker(pytest.mark.unit)


@pytest.fixture(autouse=True)
def _unit_tests_load_no_model(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``unit`` test that loads a spaCy model fails, in this process (watertight where no other test
    loaded it first, as in ``make test-fast``: ``kg.nlp.pipeline.load`` keeps what it loaded) or in a
    kg it runs (that reads ``KG_MODEL``)."""
    if request.node.get_closest_marker("unit") is not None:
        import spacy

        def refuse(*args: object, **kwargs: object) -> None:
            raise AssertionError("a unit test loaded the spaCy model: mark it model (tests/conftest.py)")

        monkeypatch.setattr(spacy, "load", refuse)
        monkeypatch.setenv("KG_MODEL", "unit-tests-load-no-model")  # a kg run in a child process fails too


@pytest.fixture(scope="session")
def nlp():  # type: ignore[no-untyped-def]
    return load()


@pytest.fixture(scope="session")
def read(nlp) -> Callable[..., ArticleFacts]:  # type: ignore[no-untyped-def]
    """Facts of a short text, as a build would read them (``date``: the article's, for texts that need one)."""

    def _read(text: str, article_id: str = "t", date: str | None = None) -> ArticleFacts:
        art, cleaned = prepare(Article(id=article_id, text=text, date=date, content_hash=content_hash(text)))
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


def roles_in_time(facts: ArticleFacts) -> set[tuple[str, str, str, bool]]:
    """(person label, role, org label, former) of the roles."""
    return {(facts.entities[r.person].label, r.role, facts.entities[r.org].label, r.former) for r in facts.roles}


def find_chromium() -> str | None:
    """Debian's chromium, the browser of the page tests."""
    for name in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if name and os.path.exists(name):
            return name
    return None


@pytest.fixture(scope="module")
def chromium() -> str:
    """Chromium's path; the test skips without it (fails in CI, where ``make test`` installs it)."""
    path = find_chromium()
    if path is None:
        msg = "chromium is not installed: apt-get install chromium"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return path
