"""Context of facts, one construction at a time, on hand-written sentences (never article text).

Event class (CAMEO) and its lookup key, the reason for no class, time normalised against the
article date, place from the clause or the dateline, reported speech and claims of
responsibility, negation and modality (kept and classed), coreference distance (a feature of
the confidence), dated roles (former, new, since).
"""
from __future__ import annotations

from collections.abc import Callable

import pytest

from kg.model.facts import ArticleFacts, Event, Role

Read = Callable[..., ArticleFacts]


def label(facts: ArticleFacts, key: str | None) -> str | None:
    return None if key is None else facts.entities[key].label


def event(facts: ArticleFacts, action: str, actor: str | None = "") -> Event:
    found = [e for e in facts.events if e.action == action and (actor == "" or label(facts, e.actor) == actor)]
    assert len(found) == 1, [(label(facts, e.actor), e.action, label(facts, e.target)) for e in facts.events]
    return found[0]


def role(facts: ArticleFacts, person: str) -> Role:
    (found,) = [r for r in facts.roles if label(facts, r.person) == person]
    return found


# ----- event classes --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "action", "code", "lemma"),
    [
        ("The president called for a ceasefire.", "call for", "02", "call for"),
        ("The minister called the ambassador.", "call", "04", "call"),
        ("Rebels killed two soldiers.", "kill", "18", "kill"),
        ("The senator condemned the decision.", "condemn decision", "11", "condemn"),
        ("The Black Reed Front claimed responsibility for the bombing.", "claim", "01", "claim responsibility"),
        ("The minister apologized for the remarks.", "apologize for", "05", "apologize for"),
        ("Police arrested the suspect.", "arrest", "17", "arrest"),
        ("Norway expelled the diplomats.", "expel", "16", "expel"),
        ("The army shelled the village.", "shell", "19", "shell"),
        ("Protesters threw stones at the police.", "throw stone", "18", "throw stone"),
        ("The company ordered its workers out of the mines.", "order", "16", "order out"),
        ("The navy recalled the crew.", "recall", "16", "recall"),
        ("Sailors rescued the divers.", "rescue", "07", "rescue"),
    ],
)
def test_event_class_from_the_lexicon(read: Read, text: str, action: str, code: str, lemma: str) -> None:
    ev = event(read(text), action)
    assert (ev.cameo, ev.lemma, ev.class_reason) == (code, lemma, None)


def test_unknown_verb_gets_a_reason_not_a_guess(read: Read) -> None:
    ev = event(read("The general found the documents."), "find document")
    assert ev.cameo is None and ev.class_reason == "verb not in lexicon: find" and ev.lemma == "find"


def test_ambiguous_verb_gets_a_reason(read: Read) -> None:
    ev = event(read("Protesters gathered outside the embassy in Quito."), "gather")
    assert ev.cameo is None and ev.class_reason.startswith("ambiguous verb: gather")


def test_a_sense_that_needs_a_person_target_is_not_taken_for_a_thing(read: Read) -> None:
    facts = read("Army chief John Sorensen, who has held the post since March 2011, resigned.")
    assert event(facts, "hold").cameo is None
    assert event(facts, "resign").cameo == "08"


# ----- negation and modality --------------------------------------------------------------------

def test_negated_and_planned_events_keep_their_modality_and_get_a_class(read: Read) -> None:
    neg = event(read("The senator did not criticize the army."), "criticize")
    assert neg.negated and neg.modality == "asserted" and neg.cameo == "11"
    planned = event(read("The army will attack the city."), "attack")
    assert planned.modality == "planned" and planned.cameo == "18"
    refused = event(read("Officials refused to meet the envoy."), "meet")
    assert refused.negated and refused.cameo == "04"


# ----- time ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "action", "value", "datatype"),
    [
        ("Rebels attacked the town on Sunday.", "attack", "2014-03-02", "date"),  # article: Fri 2014-03-07
        ("The minister resigned yesterday.", "resign", "2014-03-06", "date"),
        ("Police arrested the suspect in 2013.", "arrest", "2013", "gYear"),
        ("The envoy met the president on March 3.", "meet", "2014-03-03", "date"),
        ("Troops shelled the village on Friday, February 28, 2014.", "shell", "2014-02-28", "date"),
    ],
)
def test_time_of_the_clause_resolved_against_the_article_date(
        read: Read, text: str, action: str, value: str, datatype: str) -> None:
    ev = event(read(text, date="2014-03-07"), action)
    assert ev.time is not None and (ev.time.value, ev.time.datatype) == (value, datatype)


def test_last_week_is_the_calendar_week_before(read: Read) -> None:
    ev = event(read("The mayor condemned the bombing last week.", date="2014-03-07"), "condemn bombing")
    assert (ev.time.text, ev.time.datatype, ev.time.begin, ev.time.end) == (
        "last week", "interval", "2014-02-24", "2014-03-02")


def test_without_an_article_date_the_text_is_kept(read: Read) -> None:
    ev = event(read("Rebels attacked the town on Saturday."), "attack")
    assert ev.time.text == "Saturday" and ev.time.value is None


def test_a_date_belongs_to_its_own_clause(read: Read) -> None:
    """The date of the saying is not the date of what is said, and vice versa."""
    facts = read("On Sunday, the ministry said soldiers had killed the rebel leader.", date="2014-03-08")
    assert event(facts, "kill").time is None
    facts = read("He said the police arrested the men on Thursday.", date="2014-03-08")
    assert event(facts, "arrest").time.value == "2014-03-06"


def test_a_when_clause_shares_the_time_of_its_main_clause(read: Read) -> None:
    facts = read("Four guards were hurt on Sunday when rioters threw a firebomb into their post.",
                 date="2014-03-07")
    assert event(facts, "throw firebomb").time.value == "2014-03-02"


# ----- place --------------------------------------------------------------------------------------

def test_place_in_the_clause(read: Read) -> None:
    facts = read("Protesters rallied in Arequipa.")
    ev = event(facts, "rally")
    assert label(facts, ev.place) == "Arequipa" and not ev.place_from_dateline
    assert facts.entities[ev.place].type == "Place"


def test_place_named_with_a_region_noun(read: Read) -> None:
    facts = read("Four guards were hurt on Sunday when rioters threw a firebomb into their post in the "
                 "southern province of Sindh.")
    assert label(facts, event(facts, "throw firebomb").place) == "Sindh"


def test_a_facility_is_a_place(read: Read) -> None:
    facts = read("The envoys held talks inside the embassy.")
    ev = event(facts, "hold talk")
    assert ev.cameo == "04" and ev.lemma == "hold talk"
    assert facts.entities[ev.place].type == "Place" and label(facts, ev.place).endswith("embassy")


def test_the_dateline_when_the_clause_names_no_place(read: Read) -> None:
    facts = read("ELDORET - Kenyan police arrested two suspects.\n\nThe suspects were released in Kisumu.")
    arrest = event(facts, "arrest")
    assert label(facts, arrest.place) == "Eldoret" and arrest.place_from_dateline
    release = event(facts, "release")
    assert label(facts, release.place) == "Kisumu" and not release.place_from_dateline


# ----- attribution ------------------------------------------------------------------------------

def test_reported_speech_is_attributed_to_the_speaker(read: Read) -> None:
    facts = read("Senator Jane Doe said rebels kidnapped two aid workers.")
    kidnap = event(facts, "kidnap")
    assert kidnap.modality == "reported" and label(facts, kidnap.reported_by) == "Jane Doe"
    assert kidnap.cameo == "18"
    assert event(facts, "say").cameo == "01"  # the speech act itself


def test_a_claim_of_responsibility_is_linked_to_the_attack_reported_before(read: Read) -> None:
    facts = read("Gunmen killed three soldiers in Quito on Tuesday. The Black Reed Front claimed responsibility "
                 "for the attack.", date="2014-03-07")
    kill = event(facts, "kill")
    assert label(facts, kill.claimed_by) == "Black Reed Front"
    claim = event(facts, "claim")
    assert claim.lemma == "claim responsibility" and claim.cameo == "01"
    assert len(facts.events) == 2  # no new event: the attack is the one the article reports


def test_a_claim_follows_the_claimed_deeds_date(read: Read) -> None:
    facts = read("Gunmen killed three soldiers on Tuesday. On Thursday, a bomb killed a policeman. "
                 "The Black Reed Front claimed responsibility for Thursday's attack.", date="2014-03-07")
    kills = [e for e in facts.events if e.action == "kill"]
    claimed = [e for e in kills if e.claimed_by is not None]
    assert all(e.time is not None for e in claimed)
    assert [e.time.value for e in claimed] in ([], ["2014-03-06"])  # never Tuesday's
    if not claimed:  # the bomb is no actor: the claim gives the event itself
        (own,) = [e for e in facts.events if e.rule == "claim-responsibility"]
        assert own.time.value == "2014-03-06"


def test_a_claim_with_nothing_to_link_gives_a_reported_event_of_its_own(read: Read) -> None:
    facts = read("The Black Reed Front claimed responsibility for an attack on the Transport Ministry.")
    (own,) = [e for e in facts.events if e.rule == "claim-responsibility"]
    assert label(facts, own.actor) == "Black Reed Front" and own.action == "attack"
    assert label(facts, own.target) == "Transport Ministry"
    assert own.modality == "reported" and own.reported_by == own.actor == own.claimed_by
    assert own.cameo == "18" and 0.0 <= own.confidence <= 1.0


def test_a_generic_claim_attributes_nothing(read: Read) -> None:
    facts = read("Rebels killed two soldiers. The Black Reed Front often claims responsibility for attacks.")
    assert any(e.action == "kill" for e in facts.events)
    assert all(e.claimed_by is None for e in facts.events)


# ----- confidence: coreference distance -------------------------------------------------------------

def test_a_pronoun_actor_records_its_coreference_distance_for_the_confidence(read: Read) -> None:
    facts = read("Prime Minister John Sorensen met Jane Doe. He thanked her.")
    met, thanked = event(facts, "meet"), event(facts, "thank")
    assert met.coref_distance is None and thanked.coref_distance == 1
    assert met.features["actor"] == "name" and met.features["coreference distance"] == 0.0
    assert thanked.features["actor"] == "pronoun" and thanked.features["coreference distance"] == 1.0
    same = event(read("The Black Reed Front said it had not attacked the base."), "attack")
    assert same.coref_distance == 0


# ----- dated roles ----------------------------------------------------------------------------------

def test_former_and_new_roles(read: Read) -> None:
    facts = read("Former Peruvian Defense Minister John Sorensen met the new Peruvian Transport Minister Ana Prieto.")
    old, new = role(facts, "John Sorensen"), role(facts, "Ana Prieto")
    assert old.former and not old.new
    assert new.new and not new.former


@pytest.mark.parametrize(
    ("text", "person", "value", "datatype"),
    [
        ("John Sorensen, the Peruvian defense minister since 2010, met reporters.", "John Sorensen", "2010", "gYear"),
        ("Army chief John Sorensen, who has held the post since March 2011, resigned.", "John Sorensen", "2011-03",
         "gYearMonth"),
        ("Harbor Board spokesman Tom Reyes, who has been spokesman since 2013, spoke.", "Tom Reyes", "2013", "gYear"),
    ],
)
def test_a_role_held_since(read: Read, text: str, person: str, value: str, datatype: str) -> None:
    r = role(read(text), person)
    assert r.since is not None and (r.since.value, r.since.datatype) == (value, datatype)


def test_an_undated_role_has_no_time(read: Read) -> None:
    r = role(read("Harbor Board spokesman Tom Reyes spoke."), "Tom Reyes")
    assert not r.former and not r.new and r.since is None
