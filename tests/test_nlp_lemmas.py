"""Verb lemmas repaired by English spelling rules (hand-written sentences)."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("sentence, word, lemma", [
    ("The agency rates the group as stateless.", "rates", "rate"),
    ("Rebels are waging war in the north.", "waging", "wage"),
    ("She hopes the talks succeed.", "hopes", "hope"),
    ("He passes the report to the minister.", "passes", "pass"),
    ("The mechanic fixes old trucks.", "fixes", "fix"),
    ("Thieves robbed two banks.", "robbed", "rob"),
    ("The dog kept wagging its tail.", "wagging", "wag"),
    ("Governor Ana Lima tells reporters that the rebels retook the port.", "retook", "retake"),
])
def test_verb_lemma(nlp, sentence, word, lemma):  # type: ignore[no-untyped-def]
    tok = next(t for t in nlp(sentence) if t.text == word)
    assert tok.lemma_ == lemma


def test_events_read_the_repaired_lemma(read):  # type: ignore[no-untyped-def]
    f = read("The Harbor Board rates the Iron Wolves among the most dangerous groups.")
    assert any(e.action.startswith("rate") for e in f.events)
    assert not any(e.action.startswith("rat ") or e.action == "rat" for e in f.events)
