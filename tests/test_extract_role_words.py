"""Role words and announcements on invented sentences: academic posts, a team's player named before
the team's position word, a reported "would", and a title the model took for a name."""
from __future__ import annotations

from conftest import roles, triples
from handparse import hand_read


def test_fellow_and_provost_are_posts():
    f = hand_read("Nadia Ferrante was a senior fellow at the Orlov Institute.")
    assert any(p == "Nadia Ferrante" and "fellow" in r and "Orlov Institute" in o for p, r, o in roles(f))
    f = hand_read("Tomasz Wilk was provost of Harlan University from 1999 to 2004.")
    assert ("Tomasz Wilk", "provost", "Harlan University") in roles(f)


def test_fellow_as_a_modifier_is_no_post():
    f = hand_read("Fellow Democrat Ruth Engel criticized the plan.")
    assert any(a == "Ruth Engel" for a, _, _ in triples(f))
    assert not any(r.lower().startswith("fellow") for _, r, _ in roles(f))


def test_team_before_a_lowercase_position_word():
    assert ("Marcus Bell", "guard", "Velmora Hawks") in roles(hand_read("Velmora Hawks guard Marcus Bell scored 30 points."))


def test_would_reported_in_the_past_announces_a_post():
    f = hand_read("Velmont Bank said Jane Smith would become its chief financial officer.")
    assert ("Jane Smith", "chief financial officer", "Velmont Bank") in roles(f)


def test_would_under_a_condition_is_no_post():
    f = hand_read("Velmont Bank said Jane Smith would become its chief financial officer if the board agreed.")
    assert not roles(f)


def test_a_title_before_of_is_no_person():
    f = hand_read("Henry Park has been appointed Dean of the School of Engineering at Harlan University.")
    people = {p for p, _, _ in roles(f)}
    assert people == {"Henry Park"}


def test_its_is_the_clause_s_own_subject():
    text = "Tom Ruiz studied at Harlan University. The Velmont Bank board elected Tom Ruiz as its chairman."
    assert ("Tom Ruiz", "chairman", "Velmont Bank") in roles(hand_read(text))


def test_its_of_an_unnamed_body_is_no_earlier_organization():
    f = hand_read("Tom Ruiz studied at Harlan University. The board also elected Tom Ruiz as its vice chair.")
    assert ("board", "elect", "Tom Ruiz") in triples(f)
    assert not any(o == "Harlan University" and "chair" in r for _, r, o in roles(f))


def test_a_rank_before_a_country_in_a_plural_title():
    f = hand_read("The case was prosecuted by Assistant United States Attorneys Dana Whitfield and Omar Lutz.")
    assert {(p, o) for p, _, o in roles(f)} == {("Dana Whitfield", "United States"), ("Omar Lutz", "United States")}


def test_a_title_after_a_body_s_name_is_no_part_of_it():
    f = hand_read("Canadian Harbour Patrol Chief Patrol Agent Ray Hollis said the tunnel was found.")
    assert any(p == "Ray Hollis" and o == "Canadian Harbour Patrol" for p, _, o in roles(f))


def test_an_occupation_is_no_post_of_a_country():
    assert not roles(hand_read("Kenyan runner Tom Ruiz won the race."))
    assert ("Claire Dubois", "Foreign Minister", "France") in roles(hand_read("French Foreign Minister Claire Dubois left."))


def test_a_post_taken_or_won():
    assert ("Jane Smith", "treasurer", "Velmont Bank") in roles(hand_read("Jane Smith holds the post of treasurer at Velmont Bank."))
    assert ("Jane Smith", "mayor", "Tarnow") in roles(hand_read("Jane Smith won election as mayor of Tarnow in 2011."))
    assert not roles(hand_read("Jane Smith won praise as a leader of Velmont Bank."))


def test_the_board_of_directors_of_a_company():
    f = hand_read("Jane Smith sits on the board of directors of Velmont Bank.")
    assert any(p == "Jane Smith" and o == "Velmont Bank" for p, _, o in roles(f))


def test_re_elected_one_word():
    f = hand_read("Jane Smith was re-elected as president of the Velmont Bank union.")
    assert any(p == "Jane Smith" and r == "president" for p, r, _ in roles(f))


def test_the_board_of_directors_of_an_organization_hung_on_the_role_noun():
    f = hand_read("The President intends to nominate Victor Hale to serve as a Member of the Board of Directors of the "
             "Halden Investment Corporation.")
    assert any(p == "Victor Hale" and o.endswith("of Halden Investment Corporation") for p, _, o in roles(f))


def test_joined_the_firm_named_beside_it():
    f = hand_read("Sam Okoro, the former head of the Tarnow Port Authority, has joined the consulting firm Dunmore "
             "Partners as a senior adviser.")
    assert ("Sam Okoro", "senior adviser", "Dunmore Partners") in roles(f)


def test_whose_party_is_the_person_s_party():
    f = hand_read("Opposition leader Ruth Okonjo, whose Democratic Alliance party brought the motion, said the minister lied.")
    assert any(p == "Ruth Okonjo" and r == "leader" and "Democratic Alliance" in o for p, r, o in roles(f))
    assert not roles(hand_read("Ruth Okonjo, whose husband owns Velmont Bank, spoke."))


def test_a_corporate_title_without_organization_in_an_article_about_one_company():
    text = ("Lakeside Motors said it would cut jobs. Lakeside Motors will close two plants. Chief executive "
            "Dana Whitfield told analysts the company had lost ground. Lakeside Motors shares fell.")
    assert ("Dana Whitfield", "Chief executive", "Lakeside Motors") in roles(hand_read(text))
    text = "Lakeside Motors and Orvane Corporation met. Chief executive Dana Whitfield spoke for the company."
    assert not roles(hand_read(text))


def test_a_team_s_titles_in_an_article_about_the_team():
    text = ("The Harlan Hawks fired their coach on Monday after the Harlan Hawks lost eight games. General manager "
            "Lisa Grant said the team would recover. The Harlan Hawks play on Wednesday.")
    assert ("Lisa Grant", "General manager", "Harlan Hawks") in roles(hand_read(text))


def test_a_span_of_time_as_a_post():
    f = hand_read("Edith Lorne, who served three terms as mayor of Tarnow, died on Sunday.")
    assert ("Edith Lorne", "mayor", "Tarnow") in roles(f)
    f = hand_read("Maria Lopez spent ten years as director of the Lakeside Foundation.")
    assert any(f.entities[r.person].label == "Maria Lopez" and r.role == "director" and r.former for r in f.roles)


def test_chaired_the_board_of_an_organization():
    f = hand_read("Maria Lopez chaired the board of the Lakeside Foundation from 2001 to 2005.")
    assert ("Maria Lopez", "chair", "Lakeside Foundation") in roles(f)


def test_a_judge_s_title_names_the_court():
    f = hand_read("U.S. District Judge Ellen Marsh sentenced Omar Vance to 10 years in prison.")
    assert ("Ellen Marsh", "District Judge", "U.S. District Court") in roles(f)
    f = hand_read("Judge Ellen Marsh of the Harlan County Circuit Court ruled.")
    assert ("Ellen Marsh", "Judge", "Harlan County Circuit Court") in roles(f)


def test_a_justice_and_a_place_after_the_name():
    f = hand_read("Kenya's chief justice, David Maraga, ruled on the case.")
    assert ("David Maraga", "chief justice", "Kenya") in roles(f)
    assert ("Anna Berg", "Justice Minister", "Norway") in roles(hand_read("Justice Minister Anna Berg of Norway resigned."))
    assert ("Tom Lind", "Senator", "Velmora") in roles(hand_read("Senator Tom Lind from Velmora voted against the bill."))


def test_a_body_named_of_justice_keeps_its_last_word():
    f = hand_read("Judge Ellen Marsh ruled for the United States Department of Justice.")
    assert any(e.label == "United States Department of Justice" for e in f.entities.values())


def test_heads_a_part_of_an_organization():
    f = hand_read('"Rates will rise," said Ann Lee, who heads research at Velmont Bank.')
    assert ("Ann Lee", "head", "Velmont Bank") in roles(f)
    assert not roles(hand_read("Ann Lee leads the team in Geneva."))


def test_moved_to_an_organization_is_there_since():
    f = hand_read("Tom Lind moved to Orvane Corporation in 2004 after ten years at Velmont Bank.")
    moved = [r for r in f.roles if f.entities[r.org].label == "Orvane Corporation"]
    assert moved and not any(r.former for r in moved)


def test_an_untagged_employer_after_a_role_noun():
    f = hand_read("Thomas Brandt was Chief Operating Officer of Velmont Rail from 1998 to 2005.")
    assert ("Thomas Brandt", "Chief Operating Officer", "Velmont Rail") in roles(f)
    assert not roles(hand_read("Ann Lee is the Secretary of Homeland Security."))


def test_a_post_for_a_field_at_an_organization():
    f = hand_read("Ms. Delgado served as Deputy Assistant Secretary for Financial Markets at the Department of the "
             "Treasury from 2009 to 2013.")
    assert any(o == "Department of the Treasury" for _, _, o in roles(f))


def test_a_nominee_for_a_post_and_a_candidate_is_not_the_post():
    f = hand_read("Thomas Brandt, the nominee for president of the Halden Investment Corporation, testified.")
    assert any(p == "Thomas Brandt" and r == "president" for p, r, _ in roles(f))
    f = hand_read("Tom Lind, the Unity Party candidate for mayor of Tarnow, conceded.")
    assert ("Tom Lind", "candidate", "Unity Party") in roles(f)
    assert not any(r == "mayor" for _, r, _ in roles(f))


def test_until_a_year_ends_the_post():
    f = hand_read("Tom Lind served as chief executive of Orvane Corporation until 2010.")
    ended = [r for r in f.roles if r.until is not None]
    assert ended and ended[0].until.value == "2010" and ended[0].former


def test_resigned_from_a_board_in_a_year():
    f = hand_read("Tom Lind resigned from the board of Velmont Bank in 2019.")
    left = [r for r in f.roles if f.entities[r.org].label == "Velmont Bank"]
    assert left and all(r.former for r in left) and left[0].until is not None and left[0].until.value == "2019"


def test_a_confirming_body_is_not_the_employer():
    f = hand_read("The Senate confirmed Maria Delgado as ambassador to Norway on Tuesday.")
    assert ("Maria Delgado", "ambassador", "Norway") in roles(f)
    assert not any(o == "Senate" for _, _, o in roles(f))


def test_picked_to_lead_is_an_announced_appointment():
    f = hand_read("Maria Delgado was tapped to head the Federal Aviation Administration.")
    assert ("Maria Delgado", "head", "Federal Aviation Administration") in roles(f)


def test_promoted_to_a_post_parsed_as_an_infinitive():
    f = hand_read("Maria Delgado has been promoted to partner at Velmont Bank.")
    assert ("Maria Delgado", "partner", "Velmont Bank") in roles(f)


def test_a_short_name_of_a_university_and_no_membership_beside_a_post(read):
    f = read("Harlan University has appointed Samuel Okafor as its next provost. Okafor joins Harlan from Wexford College.")
    assert roles(f) == {("Samuel Okafor", "provost", "Harlan University")}


def test_was_a_post_is_a_past_post():
    f = hand_read("Lena Marsh was the chief executive of Velmont Bank.")
    assert f.roles and all(r.former for r in f.roles)
    f = hand_read("Lena Marsh was named chief executive of Velmont Bank.")
    assert f.roles and not any(r.former for r in f.roles)


def test_each_of_two_people_named_to_a_post():
    f = hand_read("Orvane Corporation hired Tom Lind and Ana Moreno as engineers.")
    assert {p for p, r, o in roles(f) if r == "engineer" and o == "Orvane Corporation"} == {"Tom Lind", "Ana Moreno"}


def test_a_name_the_model_took_for_a_product_after_a_role_noun_is_the_employer():
    f = hand_read("Sanna Holt, deputy editor of the Evening Courier, was among the guests.")
    assert ("Sanna Holt", "deputy editor", "Evening Courier") in roles(f)


def test_a_local_title_belongs_to_the_town_an_earlier_local_title_was_of():
    # the model takes "Kelston" for an organization: the town is still the one "the mayor of" names
    f = hand_read("The mayor of Kelston resigned. Deputy mayor Colin Farr praised her work.")
    assert roles(f) == {("Colin Farr", "Deputy mayor", "Kelston")}


def test_an_as_post_the_parser_hung_on_the_appointed_object():
    f = hand_read("Voters in Brenmark elected the centrist Lukas Aberg as president, official results showed.")
    assert ("Lukas Aberg", "president", "Brenmark") in roles(f)


def test_a_past_word_opening_the_sentence_before_an_untagged_name_makes_the_post_past():
    f = hand_read("Former Brenmark prime minister Ulla Sand died on Sunday.")
    assert [(r.role, r.former) for r in f.roles] == [("prime minister", True)]


def test_joining_a_board_of_an_organization_makes_a_board_member():
    f = hand_read("Ana Ruiz joined the board of directors of Orvik Holdings in 2015.")
    assert roles(f) == {("Ana Ruiz", "board member", "Orvik Holdings")}
    assert [r.since.value for r in f.roles if r.since is not None] == ["2015"]


def test_a_name_the_parser_hung_on_the_role_nouns_organization_is_the_role_holder():
    f = hand_read("The spokesman for the Harbor Authority, Lena Moss, denied the report.")
    assert roles(f) == {("Lena Moss", "spokesman", "Harbor Authority")}
    assert {a for a, act, _ in triples(f) if act == "deny"} == {"Lena Moss"}


def test_a_hyphenated_title_keeps_both_halves():
    f = hand_read("Hugo Mend, secretary-general of the Northern Trade Union Congress, called a strike.")
    assert roles(f) == {("Hugo Mend", "secretary-general", "Northern Trade Union Congress")}
    f = hand_read("The attorney-general of Korvala, Rina Holt, filed charges.")
    assert {r for _, r, _ in roles(f)} == {"attorney-general"}  # not also a "general" of Korvala
