"""NER repairs by general rules (hand-written sentences; where the small model happens to get a
sentence right, its mistake is set by hand on the parsed Doc before the repairs run)."""
from __future__ import annotations

from conftest import roles
from spacy.tokens import Doc, Span

from kg.nlp.repairs import repair_entities


def labels(nlp, text):  # type: ignore[no-untyped-def]
    return {(e.text, e.label_) for e in nlp(text).ents}


def repaired(nlp, text: str, *model_ents: tuple[str, str]) -> set[tuple[str, str]]:
    """Labels after the repairs, the model's entities being ``model_ents`` (text, label)."""
    with nlp.select_pipes(disable=["kg_entity_repairs"]):
        doc: Doc = nlp(text)
    spans = []
    for words, label in model_ents:
        start = next(i for i in range(len(doc)) if doc[i:i + len(words.split())].text == words)
        spans.append(Span(doc, start, start + len(words.split()), label=label))
    doc.ents = spans
    return {(e.text, e.label_) for e in repair_entities(doc).ents}


def test_a_name_an_apposition_calls_a_professor_is_a_person(nlp, read):
    text = "Halvard Nyqvist, a professor of marine biology at the University of Tarnow, agreed."
    assert ("Halvard Nyqvist", "PERSON") in repaired(nlp, text, ("Halvard Nyqvist", "ORG"))
    assert any(p == "Halvard Nyqvist" and r == "professor" for p, r, _ in roles(read(text)))


def test_a_name_with_an_age_is_a_person(nlp):
    found = labels(nlp, "Varga, 41, was arrested.")  # the model alone tags this ORG
    assert ("Varga", "PERSON") in found


def test_a_company_described_by_a_non_role_noun_stays(nlp):
    found = labels(nlp, "Orvane Corporation, a maker of radios, agreed to the deal.")
    assert ("Orvane Corporation", "ORG") in found
    assert not any(label == "PERSON" for _, label in found)


def test_a_hyphenated_surname_of_a_named_person_is_that_person(nlp, read):
    text = "Senator Mark Dunmore-Price arrived. Reporters said Dunmore-Price was detained by guards."
    assert ("Dunmore-Price", "PERSON") in labels(nlp, text)  # the model alone tags it ORG
    f = read(text)
    assert {e.label for e in f.entities.values() if e.type == "Person"} == {"Mark Dunmore-Price"}
    assert not any(e.type == "Organization" for e in f.entities.values())


def test_a_name_after_the_town_of_is_a_place(nlp):
    found = labels(nlp, "Fighting spread to the city of Mosul and the village of Bab al-Hawa.")
    assert ("Bab al-Hawa", "GPE") in found  # the model alone tags it PERSON
    assert ("the University of Tarnow", "ORG") in labels(nlp, "She studied at the University of Tarnow.")


def test_a_name_whose_report_calls_the_speaker_he_is_a_person(nlp, read):
    text = "Varga said he had quarrelled with his neighbours for months before killing Holm."
    assert ("Varga", "PERSON") in labels(nlp, text)  # the model alone tags it ORG
    assert ("Orvane", "ORG") in repaired(nlp, "Orvane said it would sue.", ("Orvane", "ORG"))
    assert any(e.action.startswith("kill") and e.target is not None for e in read(text).events)


def test_a_surname_with_a_particle_is_also_the_name_without_it(nlp):
    found = labels(nlp, "Omar al-Zubaydi was killed. Officials had charged Zubaydi.")
    assert ("Zubaydi", "PERSON") in found  # the model alone tags it GPE
    assert ("Rashidi", "PERSON") in labels(nlp, "Yusuf al-Rashidi was detained. Rashidi was charged.")


def test_one_name_takes_the_label_the_text_shows_for_it(nlp):
    found = [(e.text, e.label_) for e in nlp("Rescuers reached the province of Korvala. "
                                            "Korvala has had rain for ten days.").ents]
    assert found.count(("Korvala", "GPE")) == 2
    found = labels(nlp, "The ruling Velmora party won. Velmora has ruled since 1975.")
    assert ("Velmora party", "ORG") in found and ("Velmora", "ORG") in found  # the model: PERSON
    found = labels(nlp, "The ruling Zamundo party won the vote. Zamundo has ruled since 1975.")
    assert ("Zamundo", "ORG") in found  # the model: GPE


def test_a_title_is_no_part_of_a_name(nlp):
    found = repaired(nlp, "Senior Harbour Agent Douglas Harrow said so.", ("Harbour Agent Douglas Harrow", "PERSON"))
    assert ("Douglas Harrow", "PERSON") in found
    found = repaired(nlp, "Assistant State Attorneys Timothy Brandt and Susan Vale handled the case.",
                     ("State Attorneys Timothy Brandt", "PERSON"), ("Susan Vale", "PERSON"))
    assert ("Timothy Brandt", "PERSON") in found
    assert ("Paul Bishop Jr.", "PERSON") in repaired(nlp, "Paul Bishop Jr. spoke.", ("Paul Bishop Jr.", "PERSON"))


def test_a_name_glued_after_an_organization_is_a_person(nlp, read):
    text = "Psychology major at Tarnow University Ana Ruiz said the rally was peaceful."
    found = labels(nlp, text)
    assert ("Tarnow University", "ORG") in found and ("Ana Ruiz", "PERSON") in found
    assert {(e.label, e.type) for e in read(text).entities.values()} == {("Ana Ruiz", "Person")}


def test_names_the_model_left_out_in_an_argument_position(nlp):
    found = labels(nlp, "She took a job at a Tarnow Depot near the port. The Falcons were fined.")
    assert ("Tarnow Depot", "ORG") in found and ("Falcons", "ORG") in found
    found = repaired(nlp, "Judge Ruth Berman Holm fined Lee.", ("Ruth Berman", "PERSON"), ("Lee", "PERSON"))
    assert ("Ruth Berman Holm", "PERSON") in found
    assert ("the United States Claims Court", "ORG") in labels(nlp, "He sued in the United States Claims Court in Tarnow.")
    assert not any(label == "ORG" for _, label in labels(nlp, "Demonstrators protested in the square."))


def test_an_acronym_in_brackets_is_the_organization_before_it(nlp, read):
    text = "The results were announced by the Korvala Elections Board (KEB). The KEB said turnout was high."
    assert ("KEB", "ORG") in labels(nlp, text)
    f = read(text)
    assert len([e for e in f.entities.values() if e.type == "Organization"]) == 1


def test_a_capitalized_common_noun_inside_a_sentence_is_a_name(nlp):
    found = labels(nlp, "The Varno Falcons beat the Harbour Comets 102-98 in overtime on Sunday.")
    assert ("Harbour Comets", "ORG") in found  # the model alone tags "Comets" as a common noun


def test_a_first_name_taken_for_a_nationality_joins_the_name_but_a_party_does_not(nlp):
    assert ("Ilona Brandt", "PERSON") in labels(nlp, "Ilona Brandt met Tomas Berglund on Tuesday.")
    assert ("Terry Lund", "PERSON") in repaired(nlp, "Republican Terry Lund won.", ("Republican", "NORP"),
                                               ("Terry Lund", "PERSON"))


def test_a_word_for_a_person_before_a_name_makes_it_a_person(nlp):
    found = labels(nlp, "Falcons guard Lee Park scored 31 points, and his teammate Omar Diallo added 20.")
    assert ("Omar Diallo", "PERSON") in found  # the model alone tags it ORG
    assert ("Orvane Corporation", "ORG") in labels(nlp, "The carmaker Orvane Corporation cut jobs.")


def test_a_lowercase_position_word_after_a_team_is_no_part_of_its_name(nlp):
    text = "Velmora Hawks guard Marcus Bell scored 30 points."
    found = repaired(nlp, text, ("Velmora Hawks", "ORG"), ("Marcus Bell", "PERSON"))
    assert ("Velmora Hawks", "ORG") in found


def test_a_capitalized_guard_stays_part_of_the_body(nlp):
    found = repaired(nlp, "The Norwegian Harbour Guard rescued ten fishermen.", ("The Norwegian Harbour Guard", "ORG"))
    assert any(text.endswith("Harbour Guard") for text, _ in found)


def test_an_organization_s_first_word_alone_is_that_organization(nlp):
    text = "Orvane Corporation agreed to buy Castor Foods. Orvane was advised by Dunmore Partners."
    found = repaired(nlp, text, ("Orvane Corporation", "ORG"), ("Castor Foods", "ORG"), ("Dunmore Partners", "ORG"))
    assert ("Orvane", "ORG") in found


def test_an_ordinary_first_word_of_an_organization_stays_a_word(nlp):
    text = "The National Unity Party won. National leaders met."
    assert ("National", "ORG") not in repaired(nlp, text, ("National Unity Party", "ORG"))


def test_a_name_beside_a_role_noun_is_a_person_whatever_the_model_says(nlp):
    text = "Castor's founder, Helen Park, will join the board."
    assert ("Helen Park", "PERSON") in repaired(nlp, text, ("Castor", "ORG"), ("Helen Park", "GPE"))


def test_a_place_name_ending_in_an_institution_word_is_an_organization(nlp):
    text = "Anna Kowal, who had led Harlan General Hospital since 2014, resigned."
    assert ("Harlan General Hospital", "ORG") in repaired(nlp, text, ("Anna Kowal", "PERSON"), ("Harlan General Hospital", "GPE"))
    assert ("Harlan", "GPE") in repaired(nlp, "Troops entered Harlan.", ("Harlan", "GPE"))


def test_a_work_of_art_that_tells_someone_something_is_a_person(nlp):
    text = '"We are innocent," Pavel Novak told reporters.'
    assert ("Pavel Novak", "PERSON") in repaired(nlp, text, ("Pavel Novak", "WORK_OF_ART"))
    assert ("Tarnow Nights", "WORK_OF_ART") in repaired(nlp, "Critics praised Tarnow Nights.", ("Tarnow Nights", "WORK_OF_ART"))


def test_a_body_named_x_of_a_and_b_keeps_both_words(nlp):
    text = "Tom Ruiz, a spokesman for the state Department of Parks and Wildlife, said the lake was closed."
    found = repaired(nlp, text, ("Tom Ruiz", "PERSON"), ("the state Department of Parks", "ORG"), ("Wildlife", "ORG"))
    assert ("Department of Parks and Wildlife", "ORG") in found
    found = repaired(nlp, "The Department of Defense and Orvane signed a deal.", ("The Department of Defense", "ORG"),
                     ("Orvane", "ORG"))
    assert ("Orvane", "ORG") in found


def test_a_lowercase_body_name_keeps_its_words(nlp):
    text = "Meanwhile, the defense ministry has denied involvement."
    assert ("defense ministry", "ORG") in repaired(nlp, text, ("defense ministry", "ORG"))


def test_a_name_loses_the_punctuation_the_model_took_in(nlp):
    with nlp.select_pipes(disable=["kg_entity_repairs"]):
        doc = nlp("The study was funded by the National Health Institute. Critics said it was flawed.")
    doc.ents = [Span(doc, 5, 10, label="ORG")]  # "the National Health Institute ." as the model may tag it
    assert [(e.text, e.label_) for e in repair_entities(doc).ents] == [("the National Health Institute", "ORG")]


def test_a_company_name_stays_a_company_beside_a_role_noun(nlp):
    text = "The mine's owner, Orvane Mining, said it had stopped all work at the site."
    assert ("Orvane Mining", "ORG") in repaired(nlp, text, ("Orvane Mining", "ORG"))
    assert ("Orvane Mining", "ORG") in repaired(nlp, text, ("Orvane Mining", "PERSON"))


def test_a_name_after_a_title_is_a_person_even_when_it_is_also_a_word(nlp):
    found = repaired(nlp, "Secretary of State Ana Costa met the Norwegian foreign minister.", ("State", "ORG"))
    assert ("Ana Costa", "PERSON") in found


def test_a_first_name_that_opens_the_sentence_stays_in_the_name(nlp):
    text = "Ana Moreno defeated Tom Lind in the runoff."
    assert ("Ana Moreno", "PERSON") in repaired(nlp, text, ("Moreno", "PERSON"), ("Tom Lind", "PERSON"))
    assert ("Moreno", "PERSON") in repaired(nlp, "Yesterday Moreno defeated Tom Lind.", ("Moreno", "PERSON"))


def test_two_coordinated_bodies_taken_for_one_are_two(nlp):
    # the spans the model gives, fixed here so the test holds whatever the model tags
    assert repaired(nlp, "Orvane Mining and Tarsa Metals signed a deal.", ("Orvane Mining and Tarsa Metals", "ORG")) == {
        ("Orvane Mining", "ORG"), ("Tarsa Metals", "ORG")}
    assert repaired(nlp, "Orvik Bank and Trust Company raised its fees.", ("Orvik Bank and Trust Company", "ORG")) == {
        ("Orvik Bank and Trust Company", "ORG")}
    assert repaired(nlp, "Hollis and Crane raised its prices.", ("Hollis and Crane", "ORG")) == {
        ("Hollis and Crane", "ORG")}


def test_a_body_s_name_goes_on_over_for_and_capitalized_words(nlp):
    found = labels(nlp, "Lia Marsh joined the Royal Institute for the Study of Tides in 2010.")
    assert any(label == "ORG" and text.endswith("Study of Tides") for text, label in found)


def test_the_plural_of_a_party_s_members_with_the_is_the_party(nlp):
    assert ("Harlow Democrats", "ORG") in labels(nlp, "He wanted the Harlow Democrats to be the party of fairness.")
    assert ("Democrats", "ORG") not in labels(nlp, "Democrats won the vote.")


def test_one_unknown_word_of_a_body_is_its_member_and_a_name_stops_at_in(nlp):
    assert {("Okafor", "PERSON"), ("Harlow United", "ORG")} <= labels(nlp, "Soon after, Okafor of Harlow United had a claim.")
    assert ("The Bank of Norland", "ORG") in labels(nlp, "The Bank of Norland raised rates.")
    assert not [t for t, lab in labels(nlp, "Harlow United beats Orvik City in League Cup") if " in " in t]


def test_a_body_s_name_with_for_keeps_its_in(nlp):
    assert any(t.startswith("The Society for Research in Child") or t.startswith("Society for Research in Child")
               for t, lab in labels(nlp, "The Society for Research in Child Development met in Denver.") if lab == "ORG")


def test_an_organization_s_first_word_the_model_took_for_a_date_is_that_organization(nlp):
    with nlp.select_pipes(disable=["kg_entity_repairs"]):
        doc: Doc = nlp("Orvane Research Center hired Jo Pell. Orvane's deputy director quit.")
    second = [t.i for t in doc if t.text == "Orvane"][1]
    doc.ents = [Span(doc, 0, 3, label="ORG"), Span(doc, 4, 6, label="PERSON"), Span(doc, second, second + 1, label="DATE")]
    found = {(e.start, e.text, e.label_) for e in repair_entities(doc).ents}
    assert (second, "Orvane", "ORG") in found
    assert not any(label == "DATE" for _, _, label in found)


def test_a_surname_parsed_as_an_adjective_subject_is_the_person(nlp):
    with nlp.select_pipes(disable=["kg_entity_repairs"]):
        doc: Doc = nlp("Jo Free will succeed Ann Fu as the trust's director. Free has served as the trust's deputy director since 2011.")
    free = [t for t in doc if t.text == "Free"][1]
    assert free.pos_ == "ADJ" and free.dep_ == "nsubj"  # the model's parse this test is about
    doc.ents = [Span(doc, 0, 2, label="PERSON"), Span(doc, 4, 6, label="PERSON")]
    found = {(e.start, e.label_) for e in repair_entities(doc).ents}
    assert (free.i, "PERSON") in found


def test_a_span_that_holds_its_sentence_s_main_verb_is_no_name(nlp):
    text = "Jo Pell died on Monday. Pell co-founded the Orvane Rights Trust in 1990."
    found = repaired(nlp, text, ("Jo Pell", "PERSON"), ("Pell co-founded the Orvane Rights Trust", "LAW"))
    assert found
    assert not any(label == "LAW" for _, label in found)
    assert ("Pell", "PERSON") in found


def test_a_name_cut_at_a_small_word_goes_on_to_the_acronym_it_spells(nlp):
    text = "Officials named Ann Fu a leader of the Harka Front in the Velmar Highlands (HFVH) on Monday."
    found = repaired(nlp, text, ("Ann Fu", "PERSON"), ("Harka Front", "ORG"), ("Velmar Highlands", "GPE"))
    assert ("Harka Front in the Velmar Highlands", "ORG") in found


def test_a_name_before_an_acronym_it_does_not_spell_stays_as_it_is(nlp):
    text = "Officials named Ann Fu a leader of the Harka Front in the Velmar Highlands (NATO) on Monday."
    found = repaired(nlp, text, ("Ann Fu", "PERSON"), ("Harka Front", "ORG"), ("Velmar Highlands", "GPE"))
    assert ("Harka Front", "ORG") in found


def test_a_person_s_name_run_on_over_of_and_a_body_is_the_person_and_the_body(nlp, read):
    text = "Ann Fu of the Green Party and Bo Lam of Labour kept their seats."
    found = repaired(nlp, text, ("Ann Fu", "PERSON"), ("Green Party", "ORG"), ("Bo Lam of Labour", "PERSON"))
    assert ("Bo Lam", "PERSON") in found and ("Labour", "ORG") in found
    assert ("Bo Lam of Labour", "PERSON") not in found
    listed = "Ann Fu of the Green Party, Bo Lam of Labour and Cy Ng of the Farmers' League kept their seats."
    assert ("Bo Lam", "member", "Labour") in roles(read(listed))


def test_one_word_and_of_stays_one_name(nlp):
    text = "Prince Ivo of Norland and Joan of Tarsk arrived."
    found = repaired(nlp, text, ("Prince Ivo of Norland", "PERSON"), ("Joan of Tarsk", "PERSON"))
    assert ("Joan of Tarsk", "PERSON") in found
    assert not any(t == "Norland" and label == "ORG" for t, label in found)


def test_a_club_s_name_is_no_person_and_a_score_is_no_part_of_it(nlp):
    with nlp.select_pipes(disable=["kg_entity_repairs"]):
        doc: Doc = nlp("Tarsk Rovers beat Harlow United 2-1 on Saturday.")
    assert [t.text for t in doc[3:8]] == ["Harlow", "United", "2", "-", "1"]  # the model's tokens
    doc.ents = [Span(doc, 0, 2, label="ORG"), Span(doc, 3, 8, label="PERSON")]
    found = {(e.text, e.label_) for e in repair_entities(doc).ents}
    assert ("Harlow United", "ORG") in found
    assert not any(label == "PERSON" for _, label in found)


def test_a_person_s_name_ending_in_a_number_keeps_it_unless_it_is_a_score(nlp):
    text = "Ana Ruiz met Tom Vale 2 on Saturday."
    found = repaired(nlp, text, ("Ana Ruiz", "PERSON"), ("Tom Vale 2", "PERSON"))
    assert ("Tom Vale 2", "PERSON") in found


def test_a_name_a_noun_for_a_kind_of_body_modifies_is_that_body(nlp):
    text = "Ivo Pell, the former guitarist of rock band Velmar Dogs, died."
    found = repaired(nlp, text, ("Ivo Pell", "PERSON"), ("Velmar Dogs", "PERSON"))
    assert ("Velmar Dogs", "ORG") in found


def test_a_name_after_a_body_noun_it_does_not_name_stays_a_person(nlp):
    text = "The firm Ann Lee founded went bust."
    assert ("Ann Lee", "PERSON") in repaired(nlp, text, ("Ann Lee", "PERSON"))


def test_a_title_and_a_body_taken_for_a_work_s_title_is_the_body(nlp):
    text = "Ann Lee was also the Chair of the Velmar Advisory Council on Harbor Safety from 1994 until 1996."
    found = repaired(nlp, text, ("Ann Lee", "PERSON"),
                     ("the Chair of the Velmar Advisory Council on Harbor Safety", "WORK_OF_ART"))
    assert ("Velmar Advisory Council on Harbor Safety", "ORG") in found
    assert not any(label == "WORK_OF_ART" for _, label in found)


def test_a_work_s_title_that_names_no_body_stays(nlp):
    text = "Ann Lee wrote the book Chair of the Harbor Seasons in 1994."
    found = repaired(nlp, text, ("Ann Lee", "PERSON"), ("Chair of the Harbor Seasons", "WORK_OF_ART"))
    assert ("Chair of the Harbor Seasons", "WORK_OF_ART") in found


def test_a_name_after_a_title_of_two_words_is_a_person(nlp):
    text = "Harka Institute Director General Ana Ruiz spoke."
    found = repaired(nlp, text, ("Harka Institute", "ORG"))
    assert ("Ana Ruiz", "PERSON") in found


def test_a_name_in_brackets_after_a_person_s_is_a_body(nlp):
    text = "Ana Ruiz (Velmar Party) and Tom Vale (Harka Front) gained votes."
    found = repaired(nlp, text, ("Ana Ruiz", "PERSON"), ("Velmar Party", "ORG"), ("Tom Vale", "PERSON"),
                     ("Harka Front", "PERSON"))
    assert ("Harka Front", "ORG") in found and ("Tom Vale", "PERSON") in found


def test_a_plural_name_right_before_a_person_s_is_a_team(nlp):
    text = "In addition, Harlow Hawks Tom Vale and Jo Kerr were each suspended one game."
    found = repaired(nlp, text, ("Harlow Hawks", "PERSON"), ("Tom Vale", "PERSON"), ("Jo Kerr", "PERSON"))
    assert ("Harlow Hawks", "ORG") in found and ("Tom Vale", "PERSON") in found


def test_a_person_s_name_in_brackets_after_another_stays_a_person(nlp):
    text = "The killer Tom Vale (Ivo Pell) breaks into song."
    found = repaired(nlp, text, ("Tom Vale", "PERSON"), ("Ivo Pell", "PERSON"))
    assert ("Ivo Pell", "PERSON") in found


def test_a_first_name_a_nickname_in_brackets_and_a_surname_are_one_name(nlp, read):
    text = "Jo Free will succeed Ivo (Ike) Tugo as Harka's center director when Tugo retires in January."
    found = repaired(nlp, text, ("Jo Free", "PERSON"), ("Ivo", "PERSON"), ("Ike", "PERSON"))
    assert ("Ivo (Ike) Tugo", "PERSON") in found
    assert ("Ike", "PERSON") not in found
    assert ("Tom Vale", "PERSON") in repaired(nlp, "Tom Vale (Harka Front) won.", ("Tom Vale", "PERSON"))
