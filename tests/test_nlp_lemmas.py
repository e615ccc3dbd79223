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
    ("Ana Lima co-founded the Varno Trust.", "co-founded", "co-found"),
    ("Two senators co-wrote the bill.", "co-wrote", "co-write"),
    ("She co-chaired the panel for a year.", "co-chaired", "co-chair"),
    ("Police arrested and re-detained the two men.", "re-detained", "re-detain"),
    ("Jane Smith was re-elected as president.", "re-elected", "re-elect"),
])
def test_verb_lemma(nlp, sentence, word, lemma):  # type: ignore[no-untyped-def]
    tok = next(t for t in nlp(sentence) if t.text == word)
    assert tok.lemma_ == lemma


def test_a_co_word_is_one_token(nlp):  # type: ignore[no-untyped-def]
    """ "co-founder", "re-elected" are one word to the role rules ("Varno Inc. co-founder Ana Lima"); other hyphens still cut."""
    words = [t.text for t in nlp("Varno Inc. co-founder Ana Lima, a well-known banker, co-chaired it and was re-elected.")]
    assert "co-founder" in words and "co-chaired" in words and "re-elected" in words
    assert "well-known" not in words


def test_a_co_founder_before_a_name_holds_the_role(read):  # type: ignore[no-untyped-def]
    f = read("Varno Inc. co-founder Ana Velt joined the board of the Harbor Trust.")
    assert f.roles
    assert any(r.role == "co-founder" and r.org == "Organization:varnoinc" for r in f.roles), f.roles


def test_events_read_the_repaired_lemma(read):  # type: ignore[no-untyped-def]
    f = read("The Harbor Board rates the Iron Wolves among the most dangerous groups.")
    assert any(e.action.startswith("rate") for e in f.events)
    assert not any(e.action.startswith("rat ") or e.action == "rat" for e in f.events)


@pytest.mark.model
def test_a_paragraph_starts_a_sentence_and_its_second_word_never_does() -> None:
    """The parser may split a name at a paragraph's start ("Varno | Ferries has paid ..."); a lone
    word with no final punctuation is no sentence, so the second word is marked as no start."""
    from kg.nlp.pipeline import load, paragraphs

    nlp = load()
    doc = paragraphs(nlp.make_doc("Harbor Board Fines Ferry Firm\nVarno Ferries has paid a fine.\nYes.\n\"No\", he said."))
    starts = {t.text: t.is_sent_start for t in doc}
    assert starts["Varno"] is True and starts["Ferries"] is False
    yes = next(t for t in doc if t.text == "Yes")
    assert yes.is_sent_start is True and doc[yes.i + 1].is_sent_start is not False  # "." is punctuation
    quote = next(t for t in doc if t.text == '"')
    assert doc[quote.i + 1].is_sent_start is not False  # a paragraph opening with punctuation keeps the parser free
    parsed = nlp("Harbor Board Fines Ferry Firm\nVarno Ferries has paid a fine to the board.")
    assert [s.text.strip() for s in parsed.sents][1] == "Varno Ferries has paid a fine to the board."


def test_an_occupation_noun_taken_for_a_verb_before_a_name_is_a_noun(nlp):  # type: ignore[no-untyped-def]
    doc = nlp("Ian Roe became friends with future Grey Hounds guitarist Bo Lam in high school.")
    tok = next(t for t in doc if t.text == "guitarist")
    assert (tok.pos_, tok.tag_) == ("NOUN", "NN")


def test_the_occupation_noun_gives_the_title_before_the_name(read):  # type: ignore[no-untyped-def]
    f = read("Ian Roe became friends with future Grey Hounds guitarist Bo Lam in high school.")
    assert f.roles
    assert any(f.entities[r.person].label == "Bo Lam" and r.role == "guitarist" for r in f.roles)
    assert not any(e.action == "guitarist" for e in f.events)


def test_a_plural_noun_heading_a_clause_with_a_subject_is_its_verb(nlp, read):  # type: ignore[no-untyped-def]
    text = 'The U.S. Department of Agriculture notes, \"Ozone causes more damage to plants than all other pollutants combined\", highlighting the importance of air quality.'
    doc = nlp(text)
    tok = next(t for t in doc if t.text == "notes")
    assert (tok.pos_, tok.tag_, tok.lemma_) == ("VERB", "VBZ", "note")
    f = read(text)
    assert any(e.action == "note" and e.actor and "agriculture" in e.actor for e in f.events)
    assert not any(e.action == "combine" for e in f.events)  # pollutants are no people done to
    notes = next(t for t in nlp("The notes of the meeting were lost.") if t.text == "notes")
    assert notes.pos_ == "NOUN"
