"""Killings and other deeds done to people, told in the ways news tells them.

Hand-written sentences with invented names only. A killing is read from a verb ("shot X to death",
"shot and killed X"), from a noun with its doer elsewhere in the clause ("eligible for parole for
the killing of X"), or from a judgement ("stands accused of killing X"); how sure the text is
comes from the frame (a charge alleges, a sentence or parole establishes, "not charged" denies).
"""
from __future__ import annotations

from handparse import hand_read

from spacy.tokens import Doc

from kg.extract import extract_facts
from kg.model.facts import Article


def events(facts, action):  # type: ignore[no-untyped-def]
    """(actor label, target label, modality, negated) of the events with this action."""
    lab = lambda k: None if k is None else facts.entities[k].label  # noqa: E731
    return {(lab(e.actor), lab(e.target), e.modality, e.negated) for e in facts.events if e.action == action}


# ----- a noun names the deed, the clause names the doer --------------------------------------


def test_parole_for_a_killing_establishes_it_and_its_negation_is_the_paroles():
    f = hand_read("Brandt, 47, will not be eligible for parole until 2031 for the 1995 killing of Helen Marsh in Denver.")
    assert events(f, "kill") == {("Brandt", "Helen Marsh", "asserted", False)}


def test_denied_parole_for_a_killing():
    f = hand_read("Oscar Brandt was denied parole for the killing of Helen Marsh.")
    assert ("Oscar Brandt", "Helen Marsh", "asserted", False) in events(f, "kill")


def test_in_prison_for_a_murder_establishes_it():
    f = hand_read("Oscar Brandt remains in prison for the 1990 murder of Helen Marsh.")
    assert events(f, "murder") == {("Oscar Brandt", "Helen Marsh", "asserted", False)}


def test_a_punishment_still_faced_only_alleges():
    f = hand_read("Oscar Brandt faces life in prison for the killing of Helen Marsh.")
    assert events(f, "kill") == {("Oscar Brandt", "Helen Marsh", "reported", False)}


def test_not_charged_in_a_killing_is_negated():
    f = hand_read("Oscar Brandt was not charged in the killing of Helen Marsh.")
    assert {(a, t, n) for a, t, _, n in events(f, "kill")} == {("Oscar Brandt", "Helen Marsh", True)}


def test_possessor_of_a_deed_noun_with_a_by_phrase_is_the_victim():
    f = hand_read("Victor Hale's murder by Oscar Brandt shocked the town.")
    assert events(f, "murder") == {("Oscar Brandt", "Victor Hale", "asserted", False)}


# ----- judging participles ---------------------------------------------------------------------


def test_stands_accused_alleges_the_deed_and_accuses_no_one():
    f = hand_read("Oscar Brandt stands accused of killing Helen Marsh.")
    assert events(f, "kill") == {("Oscar Brandt", "Helen Marsh", "reported", False)}
    assert not any(actor == "Oscar Brandt" for actor, *_ in events(f, "accuse"))


def test_held_accused_takes_the_passive_subject():
    f = hand_read("Oscar Brandt escaped in May. He was held accused of killing the banker, Helen Marsh.")
    assert events(f, "kill") == {("Oscar Brandt", "Helen Marsh", "reported", False)}


def test_a_fronted_conviction_establishes_the_deed():
    f = hand_read("Convicted of killing Helen Marsh in 1990, Oscar Brandt was sentenced to life.")
    assert events(f, "kill") == {("Oscar Brandt", "Helen Marsh", "asserted", False)}


# ----- verbs -----------------------------------------------------------------------------------


def test_shot_to_death_active_and_passive():
    assert ("Oscar Brandt", "Victor Hale", "asserted", False) in events(
        hand_read("Oscar Brandt shot Victor Hale to death outside his home."), "shoot")
    assert ("Oscar Brandt", "Victor Hale", "asserted", False) in events(
        hand_read("Victor Hale was shot to death by Oscar Brandt."), "shoot")


def test_firing_at_someone_is_no_killing():
    f = hand_read("Oscar Brandt fired at Victor Hale from a window.")
    assert not events(f, "kill") and not events(f, "shoot")


def test_two_verbs_share_the_object_of_the_second():
    f = hand_read("Oscar Brandt shot and mortally wounded Victor Hale.")
    assert ("Oscar Brandt", "Victor Hale", "asserted", False) in events(f, "shoot")
    f = hand_read("Rebels ambushed and killed Victor Hale.")
    assert ("Rebels", "Victor Hale", "asserted", False) in events(f, "ambush")


def test_a_shared_object_must_name_people():
    f = hand_read("The gunman shot and then fled the scene.")
    assert events(f, "shoot") == {("gunman", None, "asserted", False)}


def test_deaths_caused_by_a_passive_deed_have_no_actor():
    f = hand_read("A bus was bombed in the capital on Monday, killing six soldiers and wounding 30 civilians.")
    assert events(f, "kill") == {(None, "six soldiers", "asserted", False)}
    assert events(f, "wound") == {(None, "30 civilians", "asserted", False)}


def test_a_result_that_is_no_deed_to_people_stays_out():
    f = hand_read("The dam was damaged by the storm, flooding the valley.")
    assert not events(f, "flood")


def test_copula_equates_the_relative_clause_noun_with_the_name():
    assert ("Oscar Brandt", "Victor Hale", "asserted", False) in events(
        hand_read("Oscar Brandt is the man who killed Victor Hale."), "kill")
    assert ("Oscar Brandt", "Victor Hale", "asserted", False) in events(
        hand_read("The gunman who killed Victor Hale was Oscar Brandt."), "kill")


def test_a_when_clause_has_no_object_gap():
    f = hand_read("Reporters toured the village where the rebels attacked.")
    attacks = events(f, "attack")
    assert attacks and not any(t is not None for _, t, _, _ in attacks)


# ----- a name the parser hung elsewhere --------------------------------------------------------


def test_agent_named_after_a_person_noun_is_the_name():
    """The small model hangs this name on the verb (npadvmod), not on "inmate"."""
    f = hand_read("Victor Hale was stabbed to death in his cell by another inmate, Laura Finch.")
    assert events(f, "stab") == {("Laura Finch", "Victor Hale", "asserted", False)}


def test_object_named_after_a_person_noun_is_the_name(nlp):
    """A hand-built parse: the name after "the banker," hung on the verb instead of the noun."""
    words = ["Brandt", "killed", "the", "banker", ",", "Helen", "Marsh", "."]
    doc = Doc(nlp.vocab, words=words, spaces=[True, True, True, False, True, True, False, False],
              heads=[1, 1, 3, 1, 3, 6, 1, 1],
              deps=["nsubj", "ROOT", "det", "dobj", "punct", "compound", "npadvmod", "punct"],
              tags=["NNP", "VBD", "DT", "NN", ",", "NNP", "NNP", "."],
              pos=["PROPN", "VERB", "DET", "NOUN", "PUNCT", "PROPN", "PROPN", "PUNCT"],
              lemmas=["Brandt", "kill", "the", "banker", ",", "Helen", "Marsh", "."],
              ents=["B-PERSON", "O", "O", "O", "O", "B-PERSON", "I-PERSON", "O"])
    f = extract_facts(doc, Article(id="t", text=doc.text, content_hash="t"))
    assert events(f, "kill") == {("Brandt", "Helen Marsh", "asserted", False)}


# ----- more of the same --------------------------------------------------------------------------


def test_a_deed_noun_with_coordinated_victims_gives_one_event_each():
    f = hand_read("Oscar Brandt was executed for the murders of Helen Marsh and Victor Hale.")
    assert {(a, t) for a, t, _, _ in events(f, "murder")} == {("Oscar Brandt", "Helen Marsh"), ("Oscar Brandt", "Victor Hale")}


def test_a_death_is_a_killing_only_as_what_someone_is_judged_for():
    f = hand_read("Oscar Brandt was charged with murder in the death of Helen Marsh.")
    assert events(f, "kill") == {("Oscar Brandt", "Helen Marsh", "reported", False)}
    assert not events(hand_read("Oscar Brandt mourned the death of Helen Marsh."), "kill")


def test_a_passive_adjunct_is_done_to_the_clause_subject():
    f = hand_read("Helen Marsh died after being shot by Oscar Brandt.")
    assert events(f, "shoot") == {("Oscar Brandt", "Helen Marsh", "asserted", False)}


def test_a_judgement_that_may_come_does_not_state_the_deed():
    for text in ("Oscar Brandt could face charges in the killing of Helen Marsh.",
                 "Oscar Brandt could face charges for killing Helen Marsh."):
        assert {m for *_, m, _ in events(hand_read(text), "kill")} == {"hypothetical"}


def test_a_sentence_still_to_come_is_for_a_deed_done():
    assert events(hand_read("Oscar Brandt will be sentenced next week for killing Helen Marsh."), "kill") == {
        ("Oscar Brandt", "Helen Marsh", "asserted", False)}
    assert events(hand_read("Oscar Brandt will be sentenced next week for the murder of Helen Marsh."), "murder") == {
        ("Oscar Brandt", "Helen Marsh", "asserted", False)}


def test_deaths_caused_by_a_thing_or_a_deed_have_no_actor():
    assert events(hand_read("The blast killed 12 people in the market."), "kill") == {(None, "12 people", "asserted", False)}
    f = hand_read("The bombing, which killed 12 people, was condemned by the council.")
    assert events(f, "kill") == {(None, "12 people", "asserted", False)}


def test_the_attacker_of_an_attack_noun_is_the_actor():
    f = hand_read("An airstrike by the Red Army killed 12 civilians.")
    assert events(f, "kill") == {("Red Army", "12 civilians", "asserted", False)}


def test_harm_to_a_body_is_no_injury():
    assert not events(hand_read("Its decision hurt Acme Steel."), "hurt")


def test_a_probable_deed_is_not_stated():
    f = hand_read("Helen Marsh was probably killed by a second gunman.")
    assert {m for *_, m, _ in events(f, "kill")} == {"hypothetical"}
