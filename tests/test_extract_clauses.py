"""Which clauses are events and how they are read: states, thoughts, intentions, requests,
questions, conditions, habits and statements, each on invented sentences."""
from __future__ import annotations

from conftest import triples


def actions(facts, asserted_only: bool = True) -> set[str]:  # type: ignore[no-untyped-def]
    return {act.split()[0] for _, act, _ in triples(facts, asserted_only)}


def mode_of(facts, lemma: str) -> str | None:  # type: ignore[no-untyped-def]
    found = [e for e in facts.events if e.action.split()[0] == lemma]
    return found[0].modality if found else None


def test_states_and_non_agentive_changes_are_not_events(read):
    f = read("The rebels controlled the northern province. Shares of Acme Corp gained 12 percent.")
    assert not {"control", "gain"} & actions(f, asserted_only=False)
    f = read("Tom Reyes owned a red truck and faced three charges.")
    assert not {"own", "face"} & actions(f, asserted_only=False)


def test_thinking_perceiving_and_feeling_are_not_events(read):
    f = read("Maria Lopez said she believed the campaign helped. Tom Reyes saw the bus falling.")
    assert "say" in actions(f)
    assert not {"believe", "see"} & actions(f, asserted_only=False)
    f = read("Many farmers resent the new tax. Mayor Lind was excited by the offer.")
    assert not {"resent", "excite"} & actions(f, asserted_only=False)


def test_a_passive_that_tells_a_state_or_a_hedge_is_no_event(read):
    f = read("Omar Haddad was born in Cairo. Acme Corp is located in Lyon.")
    assert not {"bear", "locate"} & actions(f, asserted_only=False)
    f = read("Minister Ken Sato is expected to discuss the budget with the unions.")
    assert "expect" not in actions(f, asserted_only=False)
    assert "discuss" not in actions(f)


def test_a_name_given_by_a_participle_is_no_event(read):
    f = read("Rico Vance, dubbed the Iron Fist, was arrested by the police on Monday.")
    assert "dub" not in actions(f, asserted_only=False)
    assert "arrest" in actions(f)


def test_motion_to_somewhere_phase_verbs_and_get_with_objects_are_events(read):
    f = read("Marta Quill went to Canada.")
    assert ("Marta Quill", "go to", "Canada") in triples(f)
    f = read("Officer Dale Brant stopped the truck. Jon Pike got a job at the mill.")
    assert "stop" in actions(f) and "get" in actions(f)
    f = read("Tariq Osman was kept in custody for a week.")
    assert "keep" in actions(f)
    f = read("Marta Quill began to cry and wanted to go.")
    assert not {"begin", "want", "go"} & actions(f, asserted_only=False)


def test_intransitive_lead_is_a_standing_transitive_lead_a_deed(read):
    f = read("Results show Lena Fors leading with 52 percent.")
    assert "lead" not in actions(f, asserted_only=False)
    f = read("Ivan Petrov led the protest in the capital.")
    assert "lead" in actions(f)


def test_a_participle_that_elaborates_a_statement_is_not_another(read):
    f = read("Senator Ruth Hale praised the firefighters, noting their courage.")
    assert "praise" in actions(f)
    assert "note" not in actions(f, asserted_only=False)


def test_an_absolute_construction_is_its_subjects_statement(read):
    f = read("With Dana Lee stating that the plan failed, the board of Acme Corp resigned.")
    assert any(a == "Dana Lee" and act == "state" for a, act, _ in triples(f))


def test_purpose_is_intended_except_after_a_call_meeting_or_visit(read):
    f = read("Police fired into the air to disperse the crowd.")
    assert mode_of(f, "disperse") == "planned"
    f = read("Mayor Rosa Ruiz called Dan Lee to apologize for the delay.")
    assert mode_of(f, "apologize") == "asserted"
    f = read("Minister Ortiz met Karl Lind to discuss the plan.")
    assert mode_of(f, "discuss") == "asserted"


def test_requested_and_ordered_deeds_are_not_done(read):
    f = read("Imam Yusuf Bakr called on his followers to defy the government.")
    assert mode_of(f, "defy") == "hypothetical"
    f = read("General Obi ordered the troops to leave. The villagers were ordered to leave the town.")
    assert all(e.modality == "hypothetical" for e in f.events if e.action.startswith("leave"))


def test_what_someone_agrees_or_decides_to_do_is_planned(read):
    f = read("Maria Lopez agreed to help the police.")
    assert "agree" in actions(f)
    assert mode_of(f, "help") == "planned"


def test_a_contrasted_clause_keeps_its_own_polarity(read):
    f = read("The army has not commented, but Major Ian Kerr says the rebels fled.")
    says = [e for e in f.events if e.action == "say"]
    assert says and not says[0].negated
    comment = [e for e in f.events if e.action.startswith("comment")]
    assert comment and comment[0].negated


def test_a_denied_subject_denies_the_clause(read):
    f = read("No group has claimed the attack on the convoy.")
    claims = [e for e in f.events if e.action.startswith("claim")]
    assert claims and all(e.negated for e in claims)


def test_the_main_clause_of_a_condition_is_hypothetical(read):
    f = read("If the report is true, Premier Ivo Zane condemned the raid.")
    assert mode_of(f, "condemn") == "hypothetical"


def test_questions_are_not_asserted(read):
    f = read("Did the police arrest Tom Reyes?")
    assert "arrest" not in actions(f)
    f = read("The map shows which villages the rebels attacked.")
    assert "attack" not in actions(f)


def test_instructions_are_not_events(read):
    f = read("Always secure your child with the straps and watch the cart.")
    assert not actions(f)


def test_a_simple_present_tells_a_habit_or_state_but_speech_is_an_event(read):
    f = read("Acme Corp sells tractors to farmers in Chile.")
    assert mode_of(f, "sell") == "generic"
    f = read("Governor Nur tells reporters that the troops retook the town.")
    assert "tell" in actions(f) and "retake" in actions(f)
    f = read('"We affirm that our forces left the area," the ministry of Ruritania said.')
    assert mode_of(f, "affirm") != "generic"


def test_a_gerund_subject_states_no_deed(read):
    f = read('Judge Amy Hale said: "Saying you are sorry you got caught is no plea for mercy."')
    assert "catch" not in actions(f)


def test_the_means_or_purpose_of_a_noun_is_not_done(read):
    f = read("The crew of the Orion tested a technique for repairing the hull.")
    assert mode_of(f, "repair") == "hypothetical"
    f = read("Senator Ruth Hale said Peru is a partner with Chile in promoting trade.")
    assert "promote" not in actions(f)


def test_a_hedged_infinitive_is_not_asserted(read):
    f = read("Observers from the Carter Center appear to concur that the fraud was rare.")
    assert "concur" not in actions(f)
    f = read("The soldiers are ready to defend the town.")
    assert "defend" not in actions(f)


def test_a_split_passive_subject_is_one_passive_subject(read):
    f = read("In addition, Reggie Lane from Ohio, and Tom Ruiz and Dan Ortiz were each suspended for leaving the bench.")
    suspended = {t for a, act, t in triples(f) if act.startswith("suspend") and a is None}
    assert {"Reggie Lane", "Tom Ruiz", "Dan Ortiz"} <= suspended


def test_a_passive_subject_without_passive_auxiliary_is_the_doer(nlp):
    """A hand-built parse: "rescuers" labelled a passive subject of "dug", which has no auxiliary."""
    from spacy.tokens import Doc

    from kg.extract import extract_facts
    from kg.facts import Article

    words = ["Rescuers", "from", "Peru", "dug", "through", "the", "mud", "."]
    doc = Doc(nlp.vocab, words=words, heads=[3, 0, 1, 3, 3, 6, 4, 3],
              deps=["nsubjpass", "prep", "pobj", "ROOT", "prep", "det", "pobj", "punct"],
              tags=["NNS", "IN", "NNP", "VBD", "IN", "DT", "NN", "."],
              pos=["NOUN", "ADP", "PROPN", "VERB", "ADP", "DET", "NOUN", "PUNCT"],
              lemmas=["rescuer", "from", "Peru", "dig", "through", "the", "mud", "."],
              ents=["O", "O", "B-GPE", "O", "O", "O", "O", "O"])
    f = extract_facts(doc, Article(id="t", text=doc.text, content_hash="t"))
    assert any(a is not None and "Rescuers" in a and act.startswith("dig") for a, act, _ in triples(f))


def test_a_verb_has_one_subject_the_nearest(read):
    f = read('"It is a tragic day for the families of the victims," Mayor Karl Lind said.')
    assert {a for a, act, _ in triples(f) if act == "say"} == {"Karl Lind"}


def test_the_subject_of_a_passive_acts_in_an_active_conjunct(read):
    f = read("The delegates from Peru were offered rooms at the palace and feasted in the hall.")
    assert any(a is not None and "delegates" in a and act.startswith("feast") for a, act, _ in triples(f))


def test_an_infinitive_joined_to_a_finite_verb_is_imposed_not_done(read):
    f = read("Carl Dunn was sentenced to ten years in prison and to pay a fine to the city.")
    assert "pay" not in actions(f)


def test_a_reflexive_object_is_no_other_target(read):
    f = read("Two suspects in the Lorca case have killed themselves.")
    kills = [(a, t) for a, act, t in triples(f) if act.startswith("kill")]
    assert kills and all(t is None for _, t in kills)


def test_the_head_of_a_relative_clause_fills_its_object_gap(read):
    f = read("Government troops retook two towns that rebel fighters captured late Friday.")
    assert ("rebel fighters", "capture", "two towns") in triples(f)


def test_one_praises_the_owner_of_the_praised_quality(read):
    f = read("Senator Ruth Hale commended Mayor Dan Ortiz's leadership.")
    assert ("Ruth Hale", "commend", "Dan Ortiz") in triples(f)


def test_a_named_agent_not_found_leaves_no_agentless_fact(read):
    f = read("Omar Haddad was sentenced by Judge Mirela Ostrava-Quint to five years.")
    assert not any(a is None and act.startswith("sentence") for a, act, _ in triples(f))


def test_an_agent_in_apposition_names_the_doer(read):
    f = read("Rico Vance was interviewed by the newspaper, the Daily Clarion.")
    assert any(a is not None and "Clarion" in a and act.startswith("interview") for a, act, _ in triples(f))


def test_a_pronoun_object_is_not_the_subject_of_its_own_participle(read):
    f = read("Rico Vance paid the guards a fortune, giving him control of the prison.")
    assert ("Rico Vance", "pay", "guards") in triples(f)
    assert not any(act.startswith("give") for _, act, _ in triples(f))


def test_a_statement_is_the_statement_of_its_issuer(read):
    f = read('A United Nations statement on Friday said "the aid convoys were looted."')
    assert any(a is not None and "United Nations" in a and act == "say" for a, act, _ in triples(f))


def test_natural_forces_are_not_actors(read):
    f = read("The flood killed twelve villagers in the valley.")
    kills = [(a, t) for a, act, t in triples(f) if act.startswith("kill")]
    assert kills and all(a is None for a, _ in kills)
    assert not any(e.label.lower() == "flood" for e in f.entities.values())


def test_motion_needs_somewhere_to_go(read):
    f = read("Another guest went into the room. The refugees from Syria have come here.")
    assert not any(act.startswith("go") for _, act, _ in triples(f))
    assert any(a is not None and "refugees" in a and act.startswith("come") for a, act, _ in triples(f))
    f = read("The Renamo party came in second. The army of Ruritania went on alert.")
    assert any(act.startswith("come") for _, act, _ in triples(f))
    assert any(act.startswith("go") for _, act, _ in triples(f))


def test_an_infinitive_after_a_verb_it_does_not_complete_is_a_purpose(read):
    f = read("The crew of the Orion lifted off to complete the repairs.")
    assert mode_of(f, "complete") == "planned"
    f = read("Tom Reyes became the first mayor to visit Antarctica.")
    assert mode_of(f, "visit") == "asserted"


def test_a_passive_conjunct_of_a_negated_clause_is_its_own(read):
    f = read("The delegates could not enter the hall, but were instead given seats in the yard.")
    given = [e for e in f.events if e.action.startswith("give")]
    assert given and not given[0].negated and given[0].actor is None


def test_finding_that_and_being_reminded_of_are_thoughts(read):
    f = read("Researchers from Acme Corp found that most injuries were falls.")
    assert "find" not in actions(f, asserted_only=False)
    f = read("Police found the body of Ann Lee near the river.")
    assert "find" in actions(f)
    f = read('"We are reminded of the courage of the firefighters," Mayor Karl Lind said.')
    assert "remind" not in actions(f, asserted_only=False)


def test_one_answers_the_one_who_asserted(read):
    f = read("The district court responded to Senator Ruth Hale's claims on Monday.")
    assert any(act.startswith("respond") and t == "Ruth Hale" for _, act, t in triples(f))


def test_a_participle_before_a_title_is_an_adjective(read):
    f = read("Mayor Karl Lind met with visiting President Ana Reyes at the palace.")
    assert any(a == "Karl Lind" and act.startswith("meet") and t == "Ana Reyes" for a, act, t in triples(f))
    assert "visit" not in actions(f, asserted_only=False)


def test_gapped_clauses_share_the_verb(read):
    f = read("Carl Dunn has been suspended for the season, Victor Hale for 30 games, and Tom Reyes for six.")
    suspended = {t for a, act, t in triples(f) if act.startswith("suspend")}
    assert {"Carl Dunn", "Victor Hale", "Tom Reyes"} <= suspended


def test_a_subject_joined_to_an_earlier_object_is_its_own_verbs(read):
    f = read("Navy ships are rushing to the coast and the United Nations says it is sending food.")
    assert {a for a, act, _ in triples(f) if act == "say"} == {"United Nations"}
