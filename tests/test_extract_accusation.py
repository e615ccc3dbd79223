"""Deeds named inside a charge, trial, verdict or judgement, and participial adjuncts.

Hand-written sentences only. The doer of "of killing Y" is the one the judgement is about;
a charge alleges (reported), a conviction establishes, an acquittal denies.
"""
from __future__ import annotations

from handparse import hand_read

from spacy.tokens import Doc

from kg.extract import extract_facts
from kg.model.facts import Article


def events(facts, action):  # type: ignore[no-untyped-def]
    """(actor label, target label, modality, negated, reported_by label) of events with an action."""
    lab = lambda k: None if k is None else facts.entities[k].label  # noqa: E731
    return {(lab(e.actor), lab(e.target), e.modality, e.negated, lab(e.reported_by))
            for e in facts.events if e.action == action}


def test_object_of_an_accusation_is_the_doer_and_the_deed_is_alleged():
    f = hand_read("Prosecutors accused Daniel Okafor of poisoning Helen Marsh.")
    assert events(f, "poison") == {("Daniel Okafor", "Helen Marsh", "reported", False, "Prosecutors")}


def test_condemning_someone_for_a_deed_attributes_it_to_the_condemner():
    f = hand_read("Maria Keller condemned Syria for shelling Lebanon.")
    (actor, target, modality, negated, by), = events(f, "shell")
    assert (actor, target, modality, negated) == ("Syria", "Lebanon", "reported", False)
    assert by == "Maria Keller"


def test_charged_in_an_event_noun_gives_the_accused_as_actor():
    f = hand_read("Victor Hale was arrested and charged in the stabbing of Laura Finch.")
    assert events(f, "stab") == {("Victor Hale", "Laura Finch", "reported", False, None)}


def test_trial_beside_the_verb_counts_as_the_judgement():
    f = hand_read("Last year Oscar Brandt went on trial for the murder of Ivan Petrov.")
    assert {(a, t, m) for a, t, m, _, _ in events(f, "murder")} == {("Oscar Brandt", "Ivan Petrov", "reported")}


def test_a_conviction_establishes_the_deed():
    f = hand_read("Oscar Brandt was convicted of murdering Ivan Petrov.")
    assert {(a, t, m, n) for a, t, m, n, _ in events(f, "murder")} == {("Oscar Brandt", "Ivan Petrov", "asserted", False)}


def test_not_guilty_is_negated():
    f = hand_read("The jury found Oscar Brandt not guilty of murdering Ivan Petrov.")
    assert {(a, t, n) for a, t, _, n, _ in events(f, "murder")} == {("Oscar Brandt", "Ivan Petrov", True)}


def test_acquittal_is_negated():
    f = hand_read("A court acquitted Oscar Brandt of killing Ivan Petrov.")
    assert {(a, t, n) for a, t, _, n, _ in events(f, "kill")} == {("Oscar Brandt", "Ivan Petrov", True)}


def test_plain_purpose_gerund_keeps_the_subject():
    f = hand_read("Anna Berg apologized for insulting Tom Reyes.")
    assert events(f, "insult") == {("Anna Berg", "Tom Reyes", "asserted", False, None)}


def test_participial_adjunct_takes_the_clause_subject_even_when_passive():
    f = hand_read("Paul Dorn, serving a life sentence for strangling Mary Cole, was denied parole again.")
    assert ("Paul Dorn", "Mary Cole", "asserted", False, None) in events(f, "strangle")


def test_result_participle_after_a_passive_verb_has_no_actor():
    def flooders(text: str) -> list[str | None]:  # "flood" or "flood valley": the object may join the action
        f = hand_read(text)
        return [None if e.actor is None else f.entities[e.actor].label for e in f.events if e.action.startswith("flood")]

    assert flooders("The rebels damaged the dam, flooding the valley.") == ["rebels"]  # an active verb's subject floods
    assert "dam" not in flooders("The dam was damaged by the storm, flooding the valley.")


def test_elaborating_saying_is_not_a_second_statement():
    f = hand_read("The Northern Front claimed the bombing, saying it was revenge for the raids.")
    assert not events(f, "say")


def test_named_apposition_on_the_organization_names_the_head():
    f = hand_read("Maria Lopez was shot by the head of the National Security Bureau, Carlos Vidal.")
    assert ("Carlos Vidal", "Maria Lopez") in {(a, t) for a, t, *_ in events(f, "shoot")}


def test_relative_clause_on_an_apposition_is_the_named_person():
    f = hand_read("The square was named after Jorge Reyes, a teacher who assassinated Pedro Salas.")
    assert ("Jorge Reyes", "Pedro Salas") in {(a, t) for a, t, *_ in events(f, "assassinate")}


def test_a_name_before_the_gerund_is_its_doer(nlp):
    """A hand-built parse (the model gives this one only on some sentences): "of X shooting Y"."""
    words = ["They", "saw", "footage", "of", "Victor", "Hale", "shooting", "Daniel", "Okafor", "."]
    doc = Doc(nlp.vocab, words=words,
              heads=[1, 1, 1, 2, 5, 3, 3, 8, 6, 1],
              deps=["nsubj", "ROOT", "dobj", "prep", "compound", "pobj", "pcomp", "compound", "dobj", "punct"],
              tags=["PRP", "VBD", "NN", "IN", "NNP", "NNP", "VBG", "NNP", "NNP", "."],
              pos=["PRON", "VERB", "NOUN", "ADP", "PROPN", "PROPN", "VERB", "PROPN", "PROPN", "PUNCT"],
              lemmas=["they", "see", "footage", "of", "Victor", "Hale", "shoot", "Daniel", "Okafor", "."],
              ents=["O", "O", "O", "O", "B-PERSON", "I-PERSON", "O", "B-PERSON", "I-PERSON", "O"])
    f = extract_facts(doc, Article(id="t", text=doc.text, content_hash="t"))
    assert ("Victor Hale", "Daniel Okafor", "asserted", False, None) in events(f, "shoot")


def test_agent_noun_with_the_victim_named_before_it():
    f = hand_read("Mora defended Jack Brown, who shot Moreau assassin Victor Hale.")
    assert {(a, t) for a, t, *_ in events(f, "assassinate")} == {("Victor Hale", "Moreau")}


def test_an_accused_killer_is_alleged():
    f = hand_read("Police arrested Tom Reyes, the alleged killer of Ann Jones.")
    assert {(a, t, m) for a, t, m, _, _ in events(f, "kill")} == {("Tom Reyes", "Ann Jones", "reported")}
