"""Which clauses are events and how they are read: states, thoughts, intentions, requests,
questions, conditions, habits and statements, each on invented sentences."""
from __future__ import annotations

from conftest import triples
from handparse import hand_read


def actions(facts, asserted_only: bool = True) -> set[str]:  # type: ignore[no-untyped-def]
    return {act.split()[0] for _, act, _ in triples(facts, asserted_only)}


def mode_of(facts, lemma: str) -> str | None:  # type: ignore[no-untyped-def]
    found = [e for e in facts.events if e.action.split()[0] == lemma]
    return found[0].modality if found else None


def test_states_and_non_agentive_changes_are_not_events():
    f = hand_read("The rebels controlled the northern province. Shares of Acme Corp gained 12 percent.")
    assert not {"control", "gain"} & actions(f, asserted_only=False)
    f = hand_read("Tom Reyes owned a red truck and faced two lawsuits.")
    assert not {"own", "face"} & actions(f, asserted_only=False)


def test_thinking_perceiving_and_feeling_are_not_events():
    f = hand_read("Maria Lopez said she believed the campaign helped. Tom Reyes heard the bridge collapse.")
    assert "say" in actions(f)
    assert not {"believe", "hear"} & actions(f, asserted_only=False)
    f = hand_read("Many farmers resent the new tax. Mayor Lind was excited by the offer.")
    assert not {"resent", "excite"} & actions(f, asserted_only=False)


def test_a_passive_that_tells_a_state_or_a_hedge_is_no_event():
    f = hand_read("Omar Haddad was born in Cairo. Acme Corp is located in Lyon.")
    assert not {"bear", "locate"} & actions(f, asserted_only=False)
    f = hand_read("Minister Ken Sato is expected to sign the budget on Monday.")
    assert "expect" not in actions(f, asserted_only=False)
    assert "sign" not in actions(f)


def test_a_name_given_by_a_participle_is_no_event():
    f = hand_read("Rico Vance, dubbed the Iron Fist, was arrested by the police on Monday.")
    assert "dub" not in actions(f, asserted_only=False)
    assert "arrest" in actions(f)


def test_motion_to_somewhere_phase_verbs_and_get_with_objects_are_events():
    f = hand_read("Marta Quill went to Norway.")
    assert ("Marta Quill", "go to", "Norway") in triples(f)
    f = hand_read("Officer Dale Brant stopped the truck. Jon Pike got a job at the mill.")
    assert "stop" in actions(f) and "get" in actions(f)
    f = hand_read("Tariq Osman was kept in custody for a week.")
    assert "keep" in actions(f)
    f = hand_read("Marta Quill began to cry and wanted to go.")
    assert not {"begin", "want", "go"} & actions(f, asserted_only=False)


def test_intransitive_lead_is_a_standing_transitive_lead_a_deed():
    f = hand_read("Early returns put Lena Fors ahead, with her rival Ivo Zane leading in the north.")
    assert "lead" not in actions(f, asserted_only=False)
    f = hand_read("Ivan Petrov led the protest in the capital.")
    assert "lead" in actions(f)


def test_a_participle_that_elaborates_a_statement_is_not_another():
    f = hand_read("Senator Ruth Hale praised the firefighters, noting their courage.")
    assert "praise" in actions(f)
    assert "note" not in actions(f, asserted_only=False)


def test_an_absolute_construction_is_its_subjects_statement():
    f = hand_read("With Dana Lee stating that the plan failed, the board of Acme Corp resigned.")
    assert any(a == "Dana Lee" and act == "state" for a, act, _ in triples(f))


def test_purpose_is_intended_except_after_a_call_meeting_or_visit():
    f = hand_read("Police fired into the air to disperse the crowd.")
    assert mode_of(f, "disperse") == "planned"
    f = hand_read("Police used tear gas to disperse the protesters.")
    assert mode_of(f, "disperse") == "planned"
    f = hand_read("Mayor Rosa Ruiz called Dan Lee to apologize for the delay.")
    assert mode_of(f, "apologize") == "asserted"
    f = hand_read("Minister Ortiz met Karl Lind to discuss the plan.")
    assert mode_of(f, "discuss") == "asserted"


def test_requested_and_ordered_deeds_are_not_done():
    f = hand_read("Imam Yusuf Bakr called on his followers to defy the government.")
    assert mode_of(f, "defy") == "hypothetical"
    f = hand_read("General Obi ordered the troops to leave. The villagers were ordered to leave the town.")
    left = [e for e in f.events if e.action.startswith("leave")]
    assert len(left) == 2 and all(e.modality == "hypothetical" for e in left)


def test_what_someone_agrees_or_decides_to_do_is_planned():
    f = hand_read("Maria Lopez agreed to help the police.")
    assert "agree" in actions(f)
    assert mode_of(f, "help") == "planned"


def test_a_contrasted_clause_keeps_its_own_polarity():
    f = hand_read("The army has not commented, but Major Ian Kerr says the rebels fled.")
    says = [e for e in f.events if e.action == "say"]
    assert says and not says[0].negated
    comment = [e for e in f.events if e.action.startswith("comment")]
    assert comment and comment[0].negated


def test_a_denied_subject_denies_the_clause():
    f = hand_read("No group has claimed the bombing of the bridge.")
    claims = [e for e in f.events if e.action.startswith("claim")]
    assert claims and all(e.negated for e in claims)


def test_the_main_clause_of_a_condition_is_hypothetical():
    f = hand_read("If the report is true, Premier Ivo Zane condemned the raid.")
    assert mode_of(f, "condemn") == "hypothetical"


def test_questions_are_not_asserted():
    f = hand_read("Did the police arrest Tom Reyes?")
    assert "arrest" not in actions(f)
    f = hand_read("The map shows which villages the rebels attacked.")
    assert "attack" not in actions(f)


def test_instructions_are_not_events():
    f = hand_read("Always lock the door and check the windows.")
    assert not actions(f)


def test_a_simple_present_tells_a_habit_or_state_but_speech_is_an_event(read):
    f = read("Acme Corp sells tractors to farmers in Chile.")
    assert mode_of(f, "sell") == "generic"
    f = read("Governor Ana Lima tells reporters that the rebels retook the port.")
    assert "tell" in actions(f) and "retake" in actions(f)
    f = read('"We reject the offer of the rebels," the ministry of Ruritania said.')
    assert mode_of(f, "reject") != "generic"


def test_a_gerund_subject_states_no_deed():
    f = hand_read("Blaming the police for the riots helped no one, Mayor Karl Lind said.")
    assert "blame" not in actions(f)


def test_the_means_or_purpose_of_a_noun_is_not_done():
    f = hand_read("The engineers of Acme Corp presented a method for cleaning the river.")
    assert mode_of(f, "clean") == "hypothetical"
    f = hand_read("Senator Ruth Hale said Acme Corp is a leader in building bridges.")
    assert "build" not in actions(f)


def test_a_hedged_infinitive_is_not_asserted():
    f = hand_read("Analysts at the Lyon Institute appear to accept that the fraud was rare.")
    assert "accept" not in actions(f)
    f = hand_read("The volunteers are ready to rebuild the school.")
    assert "rebuild" not in actions(f)


def test_a_split_passive_subject_is_one_passive_subject():
    f = hand_read("Earlier, Maria Costa of Lyon, and Tom Ruiz and Dan Ortiz were each fined for missing the vote.")
    suspended = {t for a, act, t in triples(f) if act.startswith("fine") and a is None}
    assert {"Maria Costa", "Tom Ruiz", "Dan Ortiz"} <= suspended


def test_a_passive_subject_without_passive_auxiliary_is_the_doer(nlp):
    """A hand-built parse: "rescuers" labelled a passive subject of "dug", which has no auxiliary."""
    from spacy.tokens import Doc

    from kg.extract import extract_facts
    from kg.model.facts import Article

    words = ["Rescuers", "from", "Peru", "dug", "through", "the", "mud", "."]
    doc = Doc(nlp.vocab, words=words, heads=[3, 0, 1, 3, 3, 6, 4, 3],
              deps=["nsubjpass", "prep", "pobj", "ROOT", "prep", "det", "pobj", "punct"],
              tags=["NNS", "IN", "NNP", "VBD", "IN", "DT", "NN", "."],
              pos=["NOUN", "ADP", "PROPN", "VERB", "ADP", "DET", "NOUN", "PUNCT"],
              lemmas=["rescuer", "from", "Peru", "dig", "through", "the", "mud", "."],
              ents=["O", "O", "B-GPE", "O", "O", "O", "O", "O"])
    f = extract_facts(doc, Article(id="t", text=doc.text, content_hash="t"))
    assert any(a is not None and "Rescuers" in a and act.startswith("dig") for a, act, _ in triples(f))


def test_a_verb_has_one_subject_the_nearest():
    f = hand_read('"It is a sad day for the fishermen of the town," Mayor Karl Lind said.')
    assert {a for a, act, _ in triples(f) if act == "say"} == {"Karl Lind"}


def test_the_subject_of_a_passive_acts_in_an_active_conjunct():
    f = hand_read("The workers from Peru were given coffee at the palace and sang in the hall.")
    assert any(a is not None and "workers" in a and act.startswith("sing") for a, act, _ in triples(f))


def test_an_infinitive_joined_to_a_finite_verb_is_imposed_not_done():
    f = hand_read("Carl Dunn was banned for two years and to repay the prize money.")
    assert "repay" not in actions(f)


def test_a_reflexive_object_is_no_other_target():
    f = hand_read("The two gunmen later shot themselves.")
    kills = [(a, t) for a, act, t in triples(f) if act.startswith("shoot")]
    assert kills and all(t is None for _, t in kills)


def test_the_head_of_a_relative_clause_fills_its_object_gap():
    f = hand_read("Soldiers rebuilt the three villages that the rebel fighters burned in May.")
    assert ("rebel fighters", "burn", "three villages") in triples(f)


def test_one_praises_the_owner_of_the_praised_quality():
    f = hand_read("Senator Ruth Hale criticized Mayor Dan Ortiz's budget.")
    assert ("Ruth Hale", "criticize", "Dan Ortiz") in triples(f)


def test_a_named_agent_not_found_leaves_no_agentless_fact():
    f = hand_read("Omar Haddad was sentenced by Judge Mirela Ostrava-Quint to five years.")
    sentenced = [a for a, act, _ in triples(f) if act.startswith("sentence")]
    assert sentenced and None not in sentenced


def test_an_agent_in_apposition_names_the_doer():
    f = hand_read("Rico Vance was interviewed by the newspaper, the Daily Clarion.")
    assert any(a is not None and "Clarion" in a and act.startswith("interview") for a, act, _ in triples(f))


def test_a_pronoun_object_is_not_the_subject_of_its_own_participle():
    f = hand_read("Rico Vance married the heiress, making him the richest man in town.")
    assert any(a == "Rico Vance" and act.startswith("marry") for a, act, _ in triples(f))
    assert not any(act.startswith("make") for _, act, _ in triples(f))


def test_a_statement_is_the_statement_of_its_issuer():
    f = hand_read('A United Nations statement on Friday said "the aid convoys were looted."')
    assert any(a is not None and "United Nations" in a and act == "say" for a, act, _ in triples(f))


def test_natural_forces_are_not_actors():
    f = hand_read("The flood killed twelve villagers in the valley.")
    kills = [(a, t) for a, act, t in triples(f) if act.startswith("kill")]
    assert kills and all(a is None for a, _ in kills)
    assert not any(e.label.lower() == "flood" for e in f.entities.values())


def test_motion_needs_somewhere_to_go():
    f = hand_read("A waiter went into a shop. The refugees from Syria have come here.")
    assert not any(act.startswith("go") for _, act, _ in triples(f))
    assert any(a is not None and "refugees" in a and act.startswith("come") for a, act, _ in triples(f))
    f = hand_read("Acme Corp came in third in the tender. The dockers of Ruritania went on strike.")
    assert any(act.startswith("come") for _, act, _ in triples(f))
    assert any(act.startswith("go") for _, act, _ in triples(f))


def test_an_infinitive_after_a_verb_it_does_not_complete_is_a_purpose():
    f = hand_read("The engineers flew to Oslo to repair the dam.")
    assert mode_of(f, "repair") == "planned"
    f = hand_read("Ana Lima became the first woman to climb the peak.")
    assert mode_of(f, "climb") == "asserted"


def test_a_passive_conjunct_of_a_negated_clause_is_its_own():
    f = hand_read("The delegates could not enter the hall, but were instead given seats in the yard.")
    given = [e for e in f.events if e.action.startswith("give")]
    assert given and not given[0].negated and given[0].actor is None


def test_finding_that_and_being_reminded_of_are_thoughts():
    f = hand_read("A panel of Acme Corp found that most claims were false.")
    assert "find" not in actions(f, asserted_only=False)
    f = hand_read("Police found the body of Ann Lee near the river.")
    assert "find" in actions(f)
    f = hand_read('"We are reminded of our duty to the poor," Mayor Karl Lind said.')
    assert "remind" not in actions(f, asserted_only=False)


def test_one_answers_the_one_who_asserted():
    f = hand_read("The district court replied to Senator Ruth Hale's charges on Monday.")
    assert any(act.startswith("reply") and t == "Ruth Hale" for _, act, t in triples(f))


def test_a_participle_before_a_title_is_an_adjective():
    f = hand_read("Mayor Karl Lind talked to visiting President Ana Reyes in the garden.")
    assert any(a == "Karl Lind" and act.startswith("talk") and t == "Ana Reyes" for a, act, t in triples(f))
    assert "visit" not in actions(f, asserted_only=False)


def test_gapped_clauses_share_the_verb():
    f = hand_read("Carl Dunn was jailed for five years, Victor Hale for three, and Tom Reyes for two.")
    suspended = {t for a, act, t in triples(f) if act.startswith("jail")}
    assert {"Carl Dunn", "Victor Hale", "Tom Reyes"} <= suspended


def test_a_subject_joined_to_an_earlier_object_is_its_own_verbs():
    f = hand_read("The crews drove to the coast and the United Nations says it has flown in tents.")
    assert {a for a, act, _ in triples(f) if act == "say"} == {"United Nations"}


def test_an_agentless_retelling_of_a_deed_whose_doer_is_named_is_one_fact():
    f = hand_read("Carl Dunn was sentenced on Monday. Judge Ana Lima sentenced Carl Dunn to five years.")
    sentenced = {(a, t) for a, act, t in triples(f) if act.startswith("sentence")}
    assert ("Ana Lima", "Carl Dunn") in sentenced and (None, "Carl Dunn") not in sentenced


def test_a_headline_is_read_for_what_only_it_states():
    f = hand_read("Mayor Ana Lima resigns over scandal\n\nThe city council of Lyon met on Monday.")
    resigned = [e for e in f.events if e.action.startswith("resign")]
    assert resigned and resigned[0].modality == "asserted"
    assert resigned[0].evidence.text == "Mayor Ana Lima resigns over scandal"
    f = hand_read("Senator Ruth Hale suspended for a year\n\nThe ethics board of the senate met on Monday.")
    assert any(a is None and act.startswith("suspend") and t == "Ruth Hale" for a, act, t in triples(f))


def test_a_headline_infinitive_is_planned_and_a_fact_told_again_in_the_body_is_the_bodys():
    f = hand_read("Acme to buy Lyon Steel\n\nAcme Corp said on Monday that it had talked to Lyon Steel.")
    assert "buy" not in actions(f)
    f = hand_read("Nordia Bank buys Lyon Steel\n\nNordia Bank bought Lyon Steel on Monday for $2 billion.")
    bought = [e for e in f.events if e.action.startswith("buy")]
    assert len(bought) == 1 and "Monday" in bought[0].evidence.text


def test_an_attempt_is_one_event_the_attempted_deed():
    f = hand_read("Tom Reyes attempted to climb the wall of the prison.")
    assert "climb" in actions(f) and "attempt" not in actions(f, asserted_only=False)
    f = hand_read("Tom Reyes attempted a rescue of the miners.")
    assert "attempt" in actions(f)


def test_a_hashtag_is_no_verb(nlp):
    """A hand-built parse: the tagger read the tag "#Boycott" as a verb."""
    from spacy.tokens import Doc

    from kg.extract import extract_facts
    from kg.model.facts import Article

    words = ["Students", "#", "Boycott", "Acme", "Corp", "."]
    doc = Doc(nlp.vocab, words=words, spaces=[True, False, True, True, False, False], heads=[2, 2, 2, 4, 2, 2],
              deps=["nsubj", "punct", "ROOT", "compound", "dobj", "punct"],
              tags=["NNS", "$", "VBP", "NNP", "NNP", "."],
              pos=["NOUN", "SYM", "VERB", "PROPN", "PROPN", "PUNCT"],
              lemmas=["student", "#", "boycott", "Acme", "Corp", "."],
              ents=["O", "O", "O", "B-ORG", "I-ORG", "O"])
    f = extract_facts(doc, Article(id="t", text=doc.text, content_hash="t"))
    assert not f.events


def test_an_obligation_is_not_a_deed_a_vote_to_act_is():
    f = hand_read("The tenants of Lyon Street have to leave their flats.")
    assert "leave" not in actions(f)
    f = hand_read("The council of Lyon voted to close the mine.")
    assert "close" in actions(f)


def test_a_relative_pronoun_subject_makes_a_relative_clause():
    f = hand_read("Police thanked the jury for their work to convict Carl Dunn who robbed the bank of Lyon.")
    assert any(a == "Carl Dunn" and act.startswith("rob") for a, act, _ in triples(f))


def test_an_embedded_question_after_a_preposition_is_asked_not_stated():
    f = hand_read("Questions remain as to why the rebels of Mora attacked the convoy.")
    assert "attack" not in actions(f)


def test_a_phrasal_verb_of_amount_is_a_state():
    f = hand_read("The other six parties, which made up only 3 percent of votes, protested.")
    assert "make" not in actions(f, asserted_only=False)


def test_a_name_before_a_title_object_is_the_object():
    f = hand_read('Afterwards, Judge Ana Lima said, "I declare John Kofi Mensah president-elect."')
    assert any(act.startswith("declare") and t == "John Kofi Mensah" for _, act, t in triples(f))


def test_a_by_phrase_hung_on_the_noun_before_it_is_the_agent():
    f = hand_read("Mayor Karl Lind was joined in the announcement by Police Chief Ana Reyes.")
    assert ("Ana Reyes", "join", "Karl Lind") in triples(f)
    f = hand_read("Mayor Karl Lind was injured in a crash by the river.")
    injured = [a for a, act, _ in triples(f) if act.startswith("injure")]
    assert injured and all(a is None for a in injured)
