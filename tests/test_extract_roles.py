"""Role constructions, each on hand-written sentences (never article text)."""
from __future__ import annotations

import pytest

from conftest import roles, roles_in_time, triples
from handparse import hand_read


def test_title_before_name_with_organization():
    f = hand_read("Toyota press secretary Linda Park said the plant would close.")
    assert ("Linda Park", "press secretary", "Toyota") in roles(f)


def test_demonym_before_title_names_the_country():
    f = hand_read("French Foreign Minister Claire Dubois visited the camp.")
    assert ("Claire Dubois", "Foreign Minister", "France") in roles(f)


def test_place_and_police_make_one_organization():
    f = hand_read("Lagos police spokesman Ahmed Bello said two men were held.")
    assert ("Ahmed Bello", "spokesman", "Lagos police") in roles(f)


def test_apposition_after_the_name():
    f = hand_read("Mark Hill, the UNICEF spokesman, said aid was arriving.")
    assert ("Mark Hill", "spokesman", "UNICEF") in roles(f)


def test_possessive_organization_with_apposition():
    f = hand_read("Canada's Prime Minister, Robert Lane, arrived on Sunday.")
    assert any(p == "Robert Lane" and "Prime Minister" in r and o == "Canada" for p, r, o in roles(f))


def test_spokesman_for_organization():
    f = hand_read("Omar Haddad, a spokesman for the Red Crescent, confirmed the deaths.")
    assert any(p == "Omar Haddad" and r == "spokesman" and "Red Crescent" in o for p, r, o in roles(f))


def test_role_needs_an_organization():
    f = hand_read("President Ana Silva spoke on Monday.")
    assert not roles(f)


def test_plural_role_noun_is_singular_and_pronoun_org_resolves():
    f = hand_read("The Zetas cartel named one of its members, Juan Ortiz, as the driver.")
    assert any(p == "Juan Ortiz" and r == "member" for p, r, _ in roles(f))


def test_former_is_recorded():
    f = hand_read("Former Shell chief executive Peter Voss criticized the deal.")
    formers = [r for r in f.roles if r.former]
    assert formers and f.entities[formers[0].person].label == "Peter Voss"


def test_title_without_organization_takes_the_dominant_country():
    text = ("Norway raised taxes. Norway's parliament agreed. Critics in Norway protested.\n\n"
            "Prime Minister Lars Berg defended the plan.")
    assert ("Lars Berg", "Prime Minister", "Norway") in roles(hand_read(text))


def test_no_dominant_country_no_guess():
    text = "Norway and Sweden signed a deal. Prime Minister Lars Berg defended the plan."
    assert not roles(hand_read(text))


def test_an_untagged_organization_name_before_a_title():
    f = hand_read("Save the Children Fund for Northern Villages campaigner Maria Lind said food was short.")
    assert any(p == "Maria Lind" and r == "campaigner" and "Northern Villages" in o for p, r, o in roles(f))


def test_explicit_organization_beats_the_guess():
    text = ("Kenya and Uganda and Uganda and Uganda met. Uganda agreed. Ugandan President Amos Oketch spoke. "
            "Later President Amos Oketch left.")
    found = {(p, o) for p, r, o in roles(hand_read(text)) if p == "Amos Oketch"}
    assert found == {("Amos Oketch", "Uganda")}


def test_apposition_with_any_person_noun_and_org_modifier():
    f = hand_read("Laura Chen, a Stanford University economist, said growth would slow.")
    assert any(p == "Laura Chen" and r == "economist" and "Stanford University" in o for p, r, o in roles(f))


def test_apposition_role_of_organization():
    f = hand_read("Mark Olsen, executive director of the National Fisheries Council, resigned.")
    assert any(p == "Mark Olsen" and "director" in r and "National Fisheries Council" in o for p, r, o in roles(f))


def test_apposition_role_at_organization_after_a_topic():
    f = hand_read("Anna Berg, a professor of chemistry at Oxford University, led the study.")
    assert any(p == "Anna Berg" and r == "professor" and "Oxford University" in o for p, r, o in roles(f))


def test_rank_between_title_and_name():
    f = hand_read("Army spokesman Maj. Tom Reed said the base was closed.")
    assert any(p == "Tom Reed" and r == "spokesman" and o == "Army" for p, r, o in roles(f))


def test_hyphenated_title():
    f = hand_read("NATO Secretary-General Anders Holm arrived in Riga.")
    assert any(p == "Anders Holm" and r == "Secretary-General" and o == "NATO" for p, r, o in roles(f))


def test_who_directs_the_organization():
    f = hand_read("Peter Lang, who heads the Red Cross, visited the camp.")
    assert any(p == "Peter Lang" and r == "head" and "Red Cross" in o for p, r, o in roles(f))


def test_rank_alone_with_an_organization():
    f = hand_read("Air Force Maj. Lisa Ford said the base was safe.")
    assert any(p == "Lisa Ford" and o == "Air Force" for p, r, o in roles(f))


def test_copular_role():
    f = hand_read("Dan Price was the chief correspondent for Reuters in Lagos.")
    assert any(p == "Dan Price" and "correspondent" in r and o == "Reuters" for p, r, o in roles(f))


def test_person_of_organization_has_an_implied_role():
    f = hand_read("Greg Olson of the Parks Department said the trail was closed.")
    found = [r for r in f.roles if f.entities[r.person].label == "Greg Olson"]
    assert found and "Parks Department" in f.entities[found[0].org].label and found[0].rule == "of-organization"


def test_who_works_for():
    f = hand_read("Ben Cohen, who works for Amnesty International, wrote the report.")
    assert any(p == "Ben Cohen" and "Amnesty International" in o for p, r, o in roles(f))


def test_organization_name_extends_over_capitalized_modifiers():
    f = hand_read("Tom Hill, a Boston Free Democrat deputy, said the vote was close.")
    assert any(p == "Tom Hill" and r == "deputy" and o == "Free Democrat" for p, r, o in roles(f))


def test_resigning_as_a_role_gives_a_former_role():
    f = hand_read("In March, Maria Lopez resigned as chairwoman of the Red Cross.")
    assert any(f.entities[r.person].label == "Maria Lopez" and r.role == "chairwoman" and r.former for r in f.roles)


def test_role_through_a_control_verb():
    f = hand_read("Paul Grant was asked to serve as treasurer of the Labour Party.")
    assert ("Paul Grant", "treasurer", "Labour Party") in roles(f)


def test_installed_as_a_role():
    f = hand_read("Tom Reyes was installed as chairman of the Rural Growers Union.")
    assert ("Tom Reyes", "chairman", "Rural Growers Union") in roles(f)


def test_a_region_before_the_role_is_the_beat_not_the_employer():
    f = hand_read("Maria Lopez was the senior Asia correspondent for the Harbour Daily News.")
    assert any(p == "Maria Lopez" and "correspondent" in r and "Harbour Daily News" in o for p, r, o in roles(f))
    assert not any(o == "Asia" for _, _, o in roles(f))


def test_a_country_in_the_headline_is_the_articles_country():
    text = "Chilean ministers meet over floods\nEnvironment Minister Anna Berg opened the meeting on Monday.\n"
    assert ("Anna Berg", "Environment Minister", "Chile") in roles(hand_read(text))


def test_a_headline_without_a_country_guesses_nothing():
    text = "Ministers meet over floods\nEnvironment Minister Anna Berg opened the meeting on Monday.\n"
    assert not roles(hand_read(text))


def test_an_organizations_possessive_name_is_a_member():
    assert ("Linda Park", "member", "Toyota") in roles(hand_read("Toyota's Linda Park said the plant would close."))


def test_a_possessive_role_is_not_doubled_as_membership():
    found = roles(hand_read("Toyota's spokeswoman Linda Park said the plant would close."))
    assert ("Linda Park", "spokeswoman", "Toyota") in found
    assert not any(r == "member" for _, r, _ in found)


def test_coordinated_names_each_of_their_organization():
    found = roles(hand_read("The survey was led by Clara Weiss of Yale University and "
                       "Pierre Dumont of the University of Lyon in France."))
    assert ("Pierre Dumont", "member", "University of Lyon") in found
    assert ("Clara Weiss", "member", "Yale University") in found


def test_a_name_at_an_event_is_no_membership():
    f = hand_read("Delegates doubted the pledge made by Tom Reyes at the Workers' Party Congress.")
    assert any(a == "Tom Reyes" for a, _, _ in triples(f))  # the name was read, as the one who acts
    assert not any(p == "Tom Reyes" for p, _, _ in roles(f))


def test_heading_verbs_give_the_role_active_and_passive():
    assert ("Anna Kowalczyk", "founder", "Unity") in roles(hand_read("Anna Kowalczyk founded the Unity trade union in 1979."))
    assert ("Anna Berg", "chair", "Budget Committee") in roles(hand_read("The Budget Committee, chaired by Anna Berg, met."))
    f = hand_read("Researchers from the Institute for Coastal Studies headed by Professor Ivan Petrenko have written a report.")
    assert ("Ivan Petrenko", "head", "Institute for Coastal Studies") in roles(f)
    led = [r for r in hand_read("Mary Dunn led the Labour Party until 2010.").roles if r.role == "leader"]
    assert led and led[0].former  # a past "led" is a role once held


def test_a_role_still_to_come_is_not_held():
    f = hand_read("Tom Reyes will lead the Reform Party.")
    assert any(e.action == "lead" and e.modality == "planned" for e in f.events)  # read, as a plan
    assert not any(r == "leader" for _, r, _ in roles(f))


def test_one_of_a_body_of_role_holders():
    assert ("Dale Orton", "member", "Arctic Rowing Club") in roles(
        hand_read("Dale Orton and other members of the Arctic Rowing Club suffered frostbite."))
    both = roles(hand_read("Three Reform Party members, including Mary Dunn and Tom Reyes, resigned."))
    assert {("Mary Dunn", "member", "Reform Party"), ("Tom Reyes", "member", "Reform Party")} <= both
    assert ("Mary Dunn", "official", "World Bank") in roles(hand_read("Several officials of the World Bank, such as Mary Dunn, resigned."))
    f = hand_read("Many people, including Mary Dunn, came to the World Bank.")
    assert any(t == "World Bank" for _, _, t in triples(f))
    assert not roles(f)


def test_a_title_of_an_organization_right_before_the_name():
    assert ("Anna Berg", "Head", "Budget Office") in roles(
        hand_read("Head of the Budget Office Anna Berg told reporters that talks failed."))
    assert ("Tom Reyes", "deputy chairman", "Acme Corp") in roles(hand_read("The deputy chairman of Acme Corp, Tom Reyes, resigned."))
    assert not roles(hand_read("Critics of the Reform Party, Tom Reyes among them, left."))


def test_apposition_without_its_closing_comma_after_an_opening_clause():
    # The parser reads "TITLE, NAME said" as two clauses here; the words still say apposition.
    f = hand_read("Speaking in Lisbon, Portugal's foreign minister, Rui Teixeira said the talks had failed.")
    assert ("Rui Teixeira", "foreign minister", "Portugal") in roles(f)


def test_a_list_after_a_role_noun_is_not_an_apposition():
    f = hand_read("Reporters met the Acme spokesman, Tom Reed and Lisa Wong on Friday.")
    assert not [r for r in roles(f) if r[0] == "Lisa Wong"]


# ----- titles split across words ----------------------------------------------------------------

def test_secretary_of_state_is_one_title_of_a_country():
    text = "The United States sent aid. Secretary of State Ann Poe met the envoys on Monday."
    found = roles(hand_read(text))
    assert ("Ann Poe", "Secretary of State", "United States") in found
    assert not any(o == "State" for _, _, o in found)


def test_a_country_before_the_department_title():
    f = hand_read("Talks began in Oslo. Canadian Minister of Defence Lena Gray joined them.")
    assert any(p == "Lena Gray" and r.startswith("Minister of Defence") or (p, o) == ("Lena Gray", "Canada")
               for p, r, o in roles(f))


def test_words_between_a_modifier_and_the_role_noun_stay_in_the_title():
    found = roles(hand_read("Acme Corp. Chief Financial Officer Dana Price said sales fell."))
    assert ("Dana Price", "Chief Financial Officer", "Acme Corp.") in found


def test_a_title_the_model_took_into_the_name():
    # "Chief of Staff" read as one title, with the body before it as its organization.
    found = roles(hand_read("Coast Guard Chief of Staff Adm. Harold Finch said the search would go on."))
    assert any(p == "Harold Finch" and r == "Chief of Staff" and o == "Coast Guard" for p, r, o in found)


def test_a_plural_title_belongs_to_each_coordinated_name():
    f = hand_read("The case was argued by Assistant U.S. Attorneys Nora Beck and Felix Hart in court.")
    found = {(p, o) for p, r, o in roles(f) if r == "Assistant U.S. Attorney"}
    # (the model takes "Attorneys" into the first name; the role still reads the title whole)
    assert {p.split()[-1] for p, o in found if o == "United States"} == {"Beck", "Hart"}


def test_an_organization_after_the_role_beats_a_country_before_it():
    f = hand_read("Mark Pell, a United States federal judge for the Tenth Circuit Court, wrote the opinion.")
    assert any(p == "Mark Pell" and "judge" in r and "Court" in o for p, r, o in roles(f))
    assert not any(o == "United States" for _, _, o in roles(f))


def test_the_nations_title_is_the_countrys():
    text = "Peru's courts are busy.\n\nThe nation's former vice-minister for trade, Luis Ortega, was jailed."
    f = hand_read(text)
    found = [r for r in f.roles if f.entities[r.person].label == "Luis Ortega"]
    assert found and f.entities[found[0].org].label == "Peru" and found[0].former


def test_a_common_noun_for_an_organization_named_before():
    f = hand_read("Voters backed the Green Alliance party. The party's candidate, Omar Sayed, won easily.")
    assert any(p == "Omar Sayed" and r == "candidate" and "Green Alliance" in o for p, r, o in roles(f))
    g = hand_read("The party's candidate, Omar Sayed, won easily. Voters backed the Green Alliance party.")
    assert not roles(g)  # the party is not yet named: no guess


def test_team_members():
    f = hand_read("Hawks guard Dion Carter scored 30 points for the Harbor Hawks.")
    assert any(p == "Dion Carter" and r == "guard" and "Hawks" in o for p, r, o in roles(f))
    g = hand_read("The Detroit Hawks met the Boston Rams. "
             "Tom Ward, Paul Reed and Mark Hayes of the Detroit Hawks and Jim Cole of the Rams were suspended.")
    found = roles(g)
    assert {p for p, r, o in found if o == "Detroit Hawks"} == {"Tom Ward", "Paul Reed", "Mark Hayes"}
    assert ("Jim Cole", "member", "Boston Rams") in found


def test_an_aide_to_a_person_takes_the_persons_office():
    text = ("Former Lund adviser, Karl Bauer, was sentenced on Friday. "
            "Bauer once worked for Swedish Prime Minister Erik Lund.")
    f = hand_read(text)
    assert ("Karl Bauer", "adviser", "Sweden") in roles(f)
    # a person is never an organization
    assert all(f.entities[r.org].type in ("Organization", "Place") for r in f.roles)


def test_an_aide_to_a_person_without_an_office_has_no_role():
    assert not roles(hand_read("Karl Bauer, an aide to Erik Lund, declined to comment."))


def test_kinship_is_never_a_membership():
    assert not roles(hand_read("His mother Rita Alvarez said he was innocent."))
    found = roles(hand_read("Rita Alvarez, the mother of Acme founder Tom Weller, spoke."))
    assert ("Tom Weller", "founder", "Acme") in found
    assert not any(p == "Rita Alvarez" for p, _, _ in found)
    f = hand_read("Tom Weller's mother Rita Alvarez spoke.")
    assert ("Rita Alvarez", "speak", None) in triples(f)
    assert not any(p == "Rita Alvarez" for p, _, _ in roles(f))


def test_an_unnamed_body_is_never_the_organization():
    f = hand_read("Ann Ruiz, the chief executive of the new firm, spoke.")
    assert ("Ann Ruiz", "speak", None) in triples(f)
    assert all(f.entities[r.org].type in ("Organization", "Place") for r in f.roles)


def test_an_unnamed_body_named_in_its_own_phrase():
    text = ("The new company, which is to be called Vestra Holdings, will be based in Leeds. "
            "Carl Munro will become the chairman of the new company.")
    assert ("Carl Munro", "chairman", "Vestra Holdings") in roles(hand_read(text))


# ----- careers and appointments ---------------------------------------------------------------------

def test_served_as_with_years_is_a_dated_past_role():
    f = hand_read("Maria Quintero served as deputy director of the Halvorsen Institute from 1994 to 1997.")
    (r,) = [r for r in f.roles if f.entities[r.person].label == "Maria Quintero"]
    assert (r.role, f.entities[r.org].label, r.former) == ("deputy director", "Halvorsen Institute", True)
    assert r.since is not None and r.since.value == "1994" and r.until is not None and r.until.value == "1997"


def test_previously_worked_at():
    f = hand_read("Before that, Tomas Reyna previously worked at Delmarco Bank.")
    assert any(f.entities[r.person].label == "Tomas Reyna" and f.entities[r.org].label == "Delmarco Bank"
               and r.former for r in f.roles)


def test_named_and_appointed_to_a_post():
    assert ("Priya Natarajan", "director", "Orlin Research Center") in roles(
        hand_read("Priya Natarajan was named director of the Orlin Research Center in March."))
    f = hand_read("Paul Rusk was appointed chairman of the Tellis Group in 2012.")
    (r,) = f.roles
    assert r.role == "chairman" and not r.former and r.since is not None and r.since.value == "2012"


def test_succeeding_someone_gives_both_the_post():
    f = hand_read("Dana Whitcombe will succeed Harold Lee as director of the Orlin Research Center.")
    found = roles(f)
    assert ("Dana Whitcombe", "director", "Orlin Research Center") in found
    assert ("Harold Lee", "director", "Orlin Research Center") in found
    g = hand_read("In 2015 Dana Whitcombe succeeded Harold Lee as director of the Orlin Research Center.")
    assert [r.former for r in g.roles if g.entities[r.person].label == "Harold Lee"] == [True]


def test_nominated_to_be_a_member_of_a_body_of_an_organization():
    found = roles(hand_read("Samuel Okafor has been nominated to be a member of the Board of Governors of the "
                       "Vestry Reserve Bank."))
    assert ("Samuel Okafor", "member", "Board of Governors of Vestry Reserve Bank") in found


def test_joined_as_and_joined():
    f = hand_read("Elena Marsh joined Corvane Systems in 2004 as chief engineer.")
    (r,) = f.roles
    assert (r.role, f.entities[r.org].label) == ("chief engineer", "Corvane Systems")
    assert r.since is not None and r.since.value == "2004"
    assert ("Laura Pike", "treasurer", "Hanley Trust") in roles(hand_read("Laura Pike joined the Hanley Trust as treasurer."))


def test_an_organization_appoints():
    assert ("Ruth Lindqvist", "chief executive", "Acme Corp.") in roles(
        hand_read("Acme Corp. named Ruth Lindqvist as chief executive."))
    assert ("Ruth Lindqvist", "chief executive", "Delmarco Bank") in roles(
        hand_read("Delmarco Bank named Ruth Lindqvist chief executive on Tuesday."))


def test_a_pronoun_holds_a_career_role():
    f = hand_read("Tom Weller runs a bakery. From 2001 to 2005 he was president of the Kessler Foundation.")
    assert ("Tom Weller", "president", "Kessler Foundation") in roles(f)
    assert not roles(hand_read("Lai Wen came back. He was the nation's top car importer."))  # an occupation, no post


def test_who_heads_and_led_by():
    assert ("Greta Holm", "head", "Norvik Council") in roles(hand_read("Greta Holm, who heads the Norvik Council, said the vote was fair."))


def test_a_title_with_a_complement():
    found = roles(hand_read("Prior to that, Paul Rusk served as Vice President of Operations at Delmarco Bank from 2001 to 2009."))
    assert ("Paul Rusk", "Vice President of Operations", "Delmarco Bank") in found


def test_an_apposition_belongs_to_the_name_right_before_it(nlp):
    # A hand-built parse with the apposition hung on the first name of the list, as the model sometimes has it.
    from spacy.tokens import Doc

    from kg.extract.entities.index import EntityIndex
    from kg.extract.roles.reader import RoleReader

    words = "With us are Ken Ortiz of Leeds and Paul Marsh , a prosecutor in the Justice Department .".split()
    heads = [2, 0, 2, 4, 2, 4, 5, 4, 9, 4, 4, 12, 4, 12, 16, 16, 13, 2]
    deps = ["prep", "pobj", "ROOT", "compound", "nsubj", "prep", "pobj", "cc", "compound", "conj", "punct", "det",
            "appos", "prep", "det", "compound", "pobj", "punct"]
    pos = ["ADP", "PRON", "AUX", "PROPN", "PROPN", "ADP", "PROPN", "CCONJ", "PROPN", "PROPN", "PUNCT", "DET", "NOUN",
           "ADP", "DET", "PROPN", "PROPN", "PUNCT"]
    lemmas = [w.lower() if p not in ("PROPN",) else w for w, p in zip(words, pos)]
    ents = ["O", "O", "O", "B-PERSON", "I-PERSON", "O", "B-GPE", "O", "B-PERSON", "I-PERSON", "O", "O", "O", "O",
            "B-ORG", "I-ORG", "I-ORG", "O"]
    doc = Doc(nlp.vocab, words=words, heads=heads, deps=deps, pos=pos, lemmas=lemmas, ents=ents,
              sent_starts=[True] + [False] * (len(words) - 1))
    index = EntityIndex(doc)
    found = {(index.entities[r.person].label, r.role, index.entities[r.org].label)
             for r in RoleReader(index, doc.text).read(doc[:])}
    assert ("Paul Marsh", "prosecutor", "Justice Department") in found
    assert not any(p == "Ken Ortiz" for p, _, _ in found)


def test_a_national_title_takes_the_only_country_named_before_it():
    f = hand_read("Voters in the Latvian elections chose a new parliament, and Prime Minister Anna Ozola conceded.")
    assert ("Anna Ozola", "Prime Minister", "Latvia") in roles(f)
    # a country named only after the title, or two countries, give no guess
    assert not roles(hand_read("President Anna Ozola spoke about the Latvian elections."))
    assert not roles(hand_read("Latvian and Estonian voters chose new parliaments, and Prime Minister Anna Ozola conceded."))


def test_an_appointment_replacing_someone():
    found = roles_in_time(hand_read("Vestry Bank on Monday named Ruth Lindqvist as its new chief executive, replacing Paul Hargreave."))
    assert ("Ruth Lindqvist", "chief executive", "Vestry Bank", False) in found
    assert ("Paul Hargreave", "chief executive", "Vestry Bank", True) in found


def test_a_short_name_and_a_coordinated_career_step():
    text = ("Vestry Bank named a new chief.\n\n"
            "Lindqvist, 52, joined Vestry in 2004 as chief financial officer and became chief operating officer in 2011.")
    f = hand_read(text)
    steps = {(r.role, f.entities[r.org].label, r.since.value if r.since else None) for r in f.roles}
    assert {("chief financial officer", "Vestry Bank", "2004"), ("chief operating officer", "Vestry Bank", "2011")} <= steps


def test_rose_to_a_post_where_one_worked():
    f = hand_read("Ruth Lindqvist spent a decade at Delmarco Capital, where she rose to managing director.")
    found = roles(f)
    assert ("Ruth Lindqvist", "managing director", "Delmarco Capital") in found
    assert ("Ruth Lindqvist", "member", "Delmarco Capital") not in found  # the post says she worked there
    assert not roles(hand_read("Ruth Lindqvist spent the money at Delmarco Capital."))


def test_counsel_to_a_committee():
    f = hand_read("Margaret Ellison left. From 2001 to 2008, she served as Senior Counsel to the Senate Committee on Energy.")
    assert any(p == "Margaret Ellison" and r == "Senior Counsel" and "Senate Committee" in o for p, r, o in roles(f))


def test_a_member_of_the_board_of_an_organization():
    assert ("Daniel Okoro", "member", "Society of Petroleum Engineers") in roles(
        hand_read("Daniel Okoro is a member of the board of the Society of Petroleum Engineers."))


def test_a_local_title_takes_the_only_city_named_before_it():
    text = ("Voters in Leeds on Tuesday elected Grace Adeyemi as mayor.\n\n"
            "Adeyemi defeated incumbent Mayor Ronald Pike, who had held the office since 2014.")
    found = roles(hand_read(text))
    assert ("Grace Adeyemi", "mayor", "Leeds") in found
    assert ("Ronald Pike", "Mayor", "Leeds") in found
    assert not roles(hand_read("Mayor Ronald Pike spoke in Leeds and in York."))


def test_serving_on_boards_and_being_elected_to_a_body():
    found = roles(hand_read("Tom Ward has served on the boards of Acme Corp. and Delmarco Bank."))
    assert {("Tom Ward", "board member", "Acme Corp."), ("Tom Ward", "board member", "Delmarco Bank")} <= found
    assert ("Paul Grady", "member", "Senate") in roles(hand_read("Paul Grady was elected to the Senate in 2012."))
    assert ("Ann Lee", "member", "Finance Committee") in roles(hand_read("Ann Lee sits on the Finance Committee of the Leeds City Council."))


def test_dismissals_and_hirings_with_the_title_before_the_name():
    f = hand_read("Coach Anna Berg was fired by the Boston Rams on Sunday.")
    assert [(r.role, f.entities[r.org].label, r.former) for r in f.roles] == [("Coach", "Boston Rams", True)]
    assert ("Tom Ward", "head coach", "Boston Rams") in roles(hand_read("Tom Ward was fired as head coach of the Boston Rams."))
    assert ("Ann Lee", "engineer", "Acme Corp.") in roles(hand_read("Acme Corp. hired engineer Ann Lee last year."))


def test_a_role_before_joining_is_a_past_one():
    f = hand_read("Amy Chen joined the administration. Before joining it, Ms. Chen was executive vice president at Brightline Health.")
    assert [r.former for r in f.roles if r.role == "executive vice president"] == [True]


def test_an_adjective_tagged_as_an_organization_is_part_of_the_title():
    f = hand_read("Electoral Chairman Kofi Mensah made the announcement at 10 p.m.")
    assert any(a == "Kofi Mensah" for a, _, _ in triples(f))
    assert not any(o == "Electoral" for _, _, o in roles(f))


def test_elected_to_the_presidency():
    text = ("Chilean voters go to the polls\n"
            "Chile's voters chose a new leader. Chile's parliament agreed. Maria Gonzalez was elected to the presidency.")
    assert ("Maria Gonzalez", "president", "Chile") in roles(hand_read(text))


def test_an_obituary_career():
    text = ("Robert Smith died on Sunday. Born in Ohio, Smith began his career at Procter & Gamble in 1975. "
            "He later moved to General Mills, where he became vice president of marketing in 1988. "
            "In 1995 he was named president of the company.")
    f = hand_read(text)
    found = {(r.role, f.entities[r.org].label, r.since.value if r.since else None) for r in f.roles}
    assert ("member", "Procter & Gamble", "1975") in found
    assert ("vice president of marketing", "General Mills", "1988") in found
    assert ("president", "General Mills", "1995") in found  # "the company": the one named just before
    g = hand_read("Robert Smith worked at General Mills. In 1995 he was named president of the new company.")
    assert any(p == "Robert Smith" and o == "General Mills" for p, _, o in roles(g))
    assert not any(r.role == "president" for r in g.roles)  # "the new company" is not the one named before


def test_appointment_notice_style():
    f = hand_read("Robert Hale has been nominated for assignment as commander, U.S. Army Pacific, Fort Shafter, Hawaii.")
    assert ("Robert Hale", "commander", "U.S. Army Pacific") in roles(f)
    g = hand_read("Margaret Ellison is currently the Deputy Director of the Office of Budget Analysis, a position she "
             "has held since 2008.")
    (r,) = g.roles
    assert r.role == "Deputy Director" and r.since is not None and r.since.value == "2008"


def test_taking_over_stepping_in_and_down():
    assert ("Ann Lee", "chief executive", "Acme Corp.") in roles(hand_read("Ann Lee takes over as chief executive of Acme Corp. on Jan. 1."))
    f = hand_read("Ann Lee stepped down as acting director of the Orlin Museum.")
    assert [(r.role, r.former) for r in f.roles] == [("acting director", True)]
    g = hand_read("Ann Lee stepped in as acting director of the Orlin Museum.")
    assert [(r.role, r.former) for r in g.roles] == [("acting director", False)]


def test_appointment_nouns():
    assert ("Ann Lee", "chief executive", "Acme Corp.") in roles(
        hand_read("Acme Corp. announced the appointment of Ann Lee as chief executive."))
    assert ("Ann Lee", "chief executive", "Acme Corp.") in roles(
        hand_read("Ann Lee's appointment as chief executive of Acme Corp. was welcomed."))


def test_appointed_to_the_post_of():
    assert ("Ann Lee", "chief digital officer", "Acme Corp.") in roles(
        hand_read("The board of Acme Corp. appointed Ann Lee to the newly created post of chief digital officer."))


def test_leaving_to_join():
    f = hand_read("Ann Lee left Acme Corp. in 2010 to join Zenith Corp. as chief technology officer.")
    found = {(r.role, f.entities[r.org].label, r.former) for r in f.roles}
    assert {("member", "Acme Corp.", True), ("chief technology officer", "Zenith Corp.", False)} <= found


def test_the_company_is_no_guess_between_two():
    assert not roles(hand_read("Acme Corp. sued Zenith Corp. on Monday. The company's spokesman, Tom Lee, said the case was weak."))


def test_a_possessive_title_with_new():
    f = hand_read("Delmarco's new chief executive Carla Ruiz said the bank would grow.")
    assert ("Carla Ruiz", "chief executive", "Delmarco") in roles(f)


def test_a_common_noun_opening_the_sentence_is_no_organization():
    assert not roles(hand_read("Opposition leader Kari Holm criticized the choice."))


def test_an_untagged_name_before_a_noun_for_a_body():
    assert ("Kari Holm", "head", "Green Left") in roles(hand_read("Kari Holm, who heads the Green Left party, spoke."))


def test_the_bank_is_no_guess_between_two_banks():
    text = ("Norway named Elsa Brandt governor of the Norway Central Bank. She was chief economist at Fjord Bank. "
            "The bank's deputy governor, Per Lunde, will serve as acting governor.")
    found = roles(hand_read(text))
    assert ("Elsa Brandt", "governor", "Norway Central Bank") in found
    assert not any(p == "Per Lunde" for p, _, _ in found)


def test_a_tenure_or_stint_as_a_role():
    assert ("Ann Lee", "chief executive", "Acme Corp.") in roles(
        hand_read("Ann Lee left in May. During her tenure as chief executive of Acme Corp., sales doubled."))
    assert ("Tom Roe", "head", "Leeds Art Museum") in roles(
        hand_read("Tom Roe, whose stint as head of the Leeds Art Museum lasted ten years, spoke."))


def test_a_trade_moves_a_player():
    text = "The Denver Falcons traded veteran guard Marcus Dell to the Boston Rams on Tuesday for two draft picks."
    found = roles_in_time(hand_read(text))
    assert ("Marcus Dell", "guard", "Boston Rams", False) in found
    assert ("Marcus Dell", "guard", "Denver Falcons", True) in found


def test_a_plural_team_name_the_model_took_for_a_person():
    text = ("The Denver Falcons traded Marcus Dell to the Boston Rams on Tuesday. "
            "Rams coach Darvin Hale said Dell would start on Friday.")
    assert ("Darvin Hale", "coach", "Boston Rams") in roles(hand_read(text))


def test_county_treasurer_and_agent_in_charge():
    f = hand_read("A former Arden County treasurer was sentenced today. Linda Marsh, 61, served as county treasurer from "
             "2006 until her resignation in 2016.")
    assert [(r.role, f.entities[r.org].label, r.former) for r in f.roles] == [("county treasurer", "Arden County", True)]
    g = hand_read("FBI Special Agent in Charge Mark Dunn said it.")
    assert any(r == "Special Agent in Charge" and o == "FBI" for _, r, o in roles(g))


def test_a_patient_transferred_to_a_hospital_holds_no_post():
    assert not roles(hand_read("Ann Lee was transferred to Leeds General Hospital on Monday."))


def test_served_in_a_body():
    f = hand_read("Tom Ward served in the Royal Navy from 1990 to 1996.")
    assert [(r.role, f.entities[r.org].label, r.former) for r in f.roles] == [("member", "Royal Navy", True)]
    assert not roles(hand_read("Tom Ward served in Iraq."))


def test_from_after_a_name_is_where_a_thing_was_taken_from_not_an_affiliation():
    f = hand_read("Acme Studios asked Tubely to remove a video of the actor Lena Moss from Tubely, a video site.")
    assert any(a == "Acme Studios" for a, _, _ in triples(f))
    assert not any(p == "Lena Moss" for p, _, _ in roles(f)), roles(f)
    g = hand_read("Korea expert Ann Lee from the Acme Institute told the radio that the plan had failed.")
    assert ("Ann Lee", "expert", "Acme Institute") in roles(g)
    h = hand_read("The radio interviewed Ann Lee from the Acme Institute on Monday.")
    assert ("Ann Lee", "member", "Acme Institute") in roles(h)


def test_a_post_of_a_part_at_a_body_is_at_the_body():
    f = hand_read("David Brown is a partner and Dean of the School of Law at the University of Norland.")
    deans = [r for r in f.roles if r.role.lower().startswith("dean")]
    assert deans and all(f.entities[r.org].label == "University of Norland" for r in deans)


def test_a_coordinated_role_shares_the_at_body():
    f = hand_read("David Brown is a partner and Director of Research and Planning at Vantor Capital in Boston.")
    directors = [r for r in f.roles if r.role.lower().startswith("director")]
    assert directors and all(f.entities[r.org].label == "Vantor Capital" for r in directors)


def test_a_list_of_posts_after_was_gives_each_post():
    f = hand_read("Lia Marsh was a Trustee of the Norland Museum; a Director of the Harbor Fund; President of Velcor, "
             "a shipping firm; and a Member of the Board of the Orvik School.")
    posts = {(r.role.lower(), f.entities[r.org].label) for r in f.roles}
    assert posts, "no role read"
    assert {("trustee", "Norland Museum"), ("director", "Harbor Fund"), ("president", "Velcor")} <= posts


def test_a_list_item_hung_loose_on_the_verb_is_a_post():
    f = hand_read("Maria Lopez is a lawyer. She was a Trustee of Norland Arts Radio; a Director of the Harbor Fund; "
             "a Trustee of Velcor Radio.")
    posts = {(r.role.lower(), f.entities[r.org].label) for r in f.roles}
    assert {("director", "Harbor Fund"), ("trustee", "Velcor Radio")} <= posts


def test_an_appointment_s_to_be_set_off_by_a_comma():
    f = hand_read("The governor intends to appoint Andre Voss of Ohio, to be a Member of the Orvik Center for the Arts.")
    posts = [(f.entities[r.person].label, r.role.lower(), f.entities[r.org].label) for r in f.roles]
    assert ("Andre Voss", "member", "Orvik Center for the Arts") in posts


def test_a_second_post_hung_on_the_verb_shares_the_organization():
    f = hand_read("Ana Ruiz served as the deputy head and then the acting head of the Harlow Water Office.")
    posts = {(r.role.lower(), f.entities[r.org].label) for r in f.roles}
    assert {("deputy head", "Harlow Water Office"), ("acting head", "Harlow Water Office")} <= posts


def test_an_office_title_belongs_to_the_organization_the_article_is_about():
    f = hand_read("Velcor Aerospace named a new team on Monday. Velcor Aerospace said the change was planned. "
             "Velcor Aerospace added that Deputy Administrator Lena Dorn will lead it.")
    posts = [(r.role.lower(), f.entities[r.org].label, r.rule) for r in f.roles]
    assert ("deputy administrator", "Velcor Aerospace", "implicit-organization") in posts


def test_a_possessor_keeps_an_office_title_from_the_article_s_organization():
    f = hand_read("Velcor Aerospace named a new team on Monday. Velcor Aerospace said the change was planned. "
             "Lena Dorn, Harlow's deputy director, will lead it, Velcor Aerospace added.")
    assert not [r for r in f.roles if r.rule == "implicit-organization"]


def test_a_hyphenated_title_is_one_title_not_its_second_half():
    f = hand_read("The Harbor League met in Orvik on Monday. The Harbor League voted on a budget. "
             "Secretary-General Ana Lind named Tom Reyes to the post of undersecretary-general for trade, "
             "the Harbor League said.")
    posts = {(f.entities[r.person].label, r.role.lower()) for r in f.roles if f.entities[r.org].label == "Harbor League"}
    assert ("Ana Lind", "secretary-general") in posts
    assert ("Tom Reyes", "undersecretary-general") in posts
    assert not any(r.role.lower() in ("general", "-general") for r in f.roles)


def test_serving_in_the_position_of_a_minister_of_a_field():
    f = hand_read("Peru names a new cabinet. Peru's president chose the ministers himself. "
             "A retired general, Ivo Marek, will serve in the post of minister of defense.")
    posts = [(f.entities[r.person].label, r.role.lower(), f.entities[r.org].label) for r in f.roles]
    assert ("Ivo Marek", "minister of defense", "Peru") in posts


def test_a_post_in_a_body_s_department_is_at_the_body():
    f = hand_read("Piet Velo, head of Orvik Bank's design department, said the budget was cut.")
    posts = [(f.entities[r.person].label, r.role.lower(), f.entities[r.org].label) for r in f.roles]
    assert ("Piet Velo", "head", "Orvik Bank") in posts


def test_an_envoy_s_to_names_where_the_post_is():
    f = hand_read("John Smith, a former finance minister, was appointed ambassador to France. "
             "Before that, Ann Berg had served as envoy to Chile.")
    posts = {(f.entities[r.person].label, r.role.lower(), f.entities[r.org].label) for r in f.roles}
    assert {("John Smith", "ambassador", "France"), ("Ann Berg", "envoy", "Chile")} <= posts


def test_a_to_after_another_role_is_no_organization():
    f = hand_read("Ann Berg was promoted to director in 2010.")
    assert not [r for r in f.roles if r.org and f.entities[r.org].label == "director"]


def test_a_post_in_its_business_is_at_the_body_not_the_region():
    f = hand_read("Tom Reyes was named chief financial officer of Bolt Systems on Monday. Reyes previously spent "
             "a decade at Velcor Partners, most recently as head of its Asia business.")
    heads = [r for r in f.roles if r.role.lower() == "head"]
    assert heads and all(f.entities[r.org].label == "Velcor Partners" for r in heads)


def test_a_civil_servant_keeps_its_modifier():
    f = hand_read("Ana Veld became a Velcor Agency civil servant in 2004.")
    assert [r for r in f.roles if r.role.lower() == "civil servant"]


def test_a_career_begun_with_a_body_whatever_the_with_hangs_on():
    f = hand_read("Ana Veld began her career with Korvin Technology in 1994.")
    posts = {(r.role, f.entities[r.org].label) for r in f.roles}
    assert ("member", "Korvin Technology") in posts


def test_a_title_after_and_before_another_name_is_that_name_s():
    f = hand_read("Defense Secretary John Miller and Vice-Chairman of the Joint Defense Board David Brown both spoke.")
    vice = [(f.entities[r.person].label, f.entities[r.org].label) for r in f.roles if "vice" in r.role.lower()]
    assert vice and all(person == "David Brown" for person, _ in vice)


def test_a_party_named_by_its_members_holds_the_party_titles():
    f = hand_read("The Harlow Democrats met in London on Saturday. The Harlow Democrats chose a date. "
             "The current party president, David Brown, promised a consultative leadership.")
    posts = {(f.entities[r.person].label, r.role.lower(), f.entities[r.org].label) for r in f.roles}
    assert ("David Brown", "president", "Harlow Democrats") in posts


def test_a_previous_post_is_a_former_one():
    f = hand_read("Peru held elections on Sunday. Peru voted calmly. The previous finance minister, Ana Lind, lost her seat.")
    posts = [r for r in f.roles if "minister" in r.role.lower()]
    assert posts and all(r.former for r in posts)


def test_a_list_of_appointments_gives_each_name_its_own_post():
    f = hand_read("Velcor Aerospace named a new team on Monday. Velcor Aerospace said the change was planned. Earlier, "
             "Velcor Aerospace named Peter Turner to be deputy administrator, Maria Lopez of Chile to be Director for "
             "Trade, and David Brown as its chief of staff.")
    posts = {(f.entities[r.person].label, r.role.lower()) for r in f.roles}
    assert {("Maria Lopez", "director for trade"), ("David Brown", "chief of staff")} <= posts
    assert not [p for p, role in posts if p == "Peter Turner" and role != "deputy administrator"]


def test_work_at_a_list_of_bodies_is_a_post_at_each(read):
    f = read("Ana Ruiz has previously worked at the Federal Trade Board, the Harbor Office, and the Orvik Institute.")
    orgs = {f.entities[r.org].label for r in f.roles}
    assert {"Federal Trade Board", "Harbor Office", "Orvik Institute"} <= orgs


def test_a_field_between_a_body_and_its_title(read):
    f = read("Acme Corp software engineer John Miller said the code was old.")
    assert ("John Miller", "engineer", "Acme Corp") in {(f.entities[r.person].label, r.role, f.entities[r.org].label)
                                                        for r in f.roles}
    g = read("Dallas nightclub owner John Miller was arrested.")
    assert not [r for r in g.roles if g.entities[r.org].label == "Dallas"]


def test_one_of_the_holders_of_a_post_holds_it(read):
    f = read("Peru has a new government. Peru's parliament voted on Monday. Arthur Vell, who is one of two deputy "
             "prime ministers, said he was talking to both sides.")
    posts = {(f.entities[r.person].label, r.role, f.entities[r.org].label) for r in f.roles}
    assert ("Arthur Vell", "deputy prime minister", "Peru") in posts


def test_a_post_still_to_be_taken_is_its_title(read):
    f = read("Peru has a new government. Peru's parliament voted on Monday. The news came after agriculture "
             "deputy minister designate Roy Bennett was arrested.")
    posts = {(f.entities[r.person].label, r.role, f.entities[r.org].label) for r in f.roles}
    assert ("Roy Bennett", "agriculture deputy minister", "Peru") in posts


def test_an_earlier_role_keeps_its_own_body_before_a_later_at():
    f = hand_read("Mara Voss was deputy head of the Budget Office and later chief of staff at the Transport Ministry.")
    found = roles(f)
    assert found
    assert ("Mara Voss", "deputy head", "Budget Office") in found
    assert ("Mara Voss", "chief of staff", "Transport Ministry") in found
    assert ("Mara Voss", "deputy head", "Transport Ministry") not in found


@pytest.mark.parametrize("text, names, role", [
    ("Carl Norby and Ann Fu, both members of the Green Party, voted against the bill.", {"Carl Norby", "Ann Fu"}, "member"),
    ("Acme directors Carl Norby, Ann Fu and Bo Lam resigned.", {"Carl Norby", "Ann Fu", "Bo Lam"}, "director"),
    ("The Green Party's candidates, Carl Norby and Ann Fu, spoke.", {"Carl Norby", "Ann Fu"}, "candidate"),
])
def test_a_plural_title_or_apposition_belongs_to_each_name_of_a_list(text: str, names: set[str], role: str) -> None:
    holders = {p for p, r, _ in roles(hand_read(text)) if r == role}
    assert holders == names


def test_a_singular_apposition_stays_with_its_name():
    found = roles(hand_read("Carl Norby, a member of the Green Party, and Ann Fu voted against the bill."))
    assert found
    assert {p for p, _, _ in found} == {"Carl Norby"}


def test_posts_listed_by_include_are_the_possessor_s_past_posts():
    found = roles_in_time(hand_read("Ann Fu's earlier posts included deputy head of the Budget Office and ambassador to Norland."))
    assert found
    assert ("Ann Fu", "deputy head", "Budget Office", True) in found
    assert ("Ann Fu", "ambassador", "Norland", True) in found


def test_current_posts_listed_by_include_are_current():
    found = roles_in_time(hand_read("Carl Norby was named director of Acme. His current roles include chair of the Harbor Trust."))
    assert ("Carl Norby", "chair", "Harbor Trust", False) in found


def test_a_chief_of_staff_to_an_officeholder_serves_the_officeholder_s_body():
    found = roles(hand_read("Carl Norby was chief of staff to the governor of Norland."))
    assert found
    assert ("Carl Norby", "chief of staff", "Norland") in found


def test_the_organization_joined_holds_the_post_whatever_the_title_names():
    found = roles(hand_read("Carl Norby joined Acme in 1999 as the Orion Program liaison for the Fluids Facility."))
    assert found
    assert {org for _, _, org in found} == {"Acme"}
    assert any(role == "liaison" for _, role, _ in found)


def test_the_organization_worked_at_holds_the_post_whatever_the_title_names():
    found = roles(hand_read("Carl Norby also worked at Acme as the Orion Test and Verification manager."))
    assert found
    assert {org for _, _, org in found} == {"Acme"}


@pytest.mark.parametrize("text", [
    "The Harbor Trust named Carl Norby to its board.",
    "The trust added Carl Norby to the Harbor Trust board.",
])
def test_named_to_an_organization_s_board(text: str) -> None:
    found = roles(hand_read(text))
    assert found
    assert any(p == "Carl Norby" and o == "Harbor Trust" and r.endswith("member") for p, r, o in found)


@pytest.mark.parametrize("text", [
    "Ann Fu, a Green Party (GP) candidate, spoke.",
    "Green Party (GP) candidate Ann Fu spoke.",
])
def test_an_acronym_in_brackets_is_no_break_in_a_title(text: str) -> None:
    found = roles(hand_read(text))
    assert found
    assert ("Ann Fu", "candidate", "Green Party") in found


def test_a_national_title_takes_no_country_named_paragraphs_before_it():
    text = ("Troops left Peru in May.\nThe talks failed on Monday.\nFarmers protested in the hills.\n"
            "Prime Minister Anna Ozola resigned.")
    f = hand_read(text)
    assert f.entities  # the text was read
    assert not roles(f)


def test_a_national_title_takes_no_country_that_is_another_holder_s():
    f = hand_read("Peruvian President Anna Ozola read a statement by Prime Minister Tomas Berg.")
    found = roles(f)
    assert ("Anna Ozola", "President", "Peru") in found
    assert not any(p == "Tomas Berg" for p, _, _ in found)


@pytest.mark.parametrize("text, role, org", [
    ("Executive director of the Leeds chapter of the Harbor Rights Council Ann Fu said the ruling was wrong.",
     "Executive director", "Harbor Rights Council"),
    ("Director of the Middle East department of the Norland Foreign Ministry Carl Norby told reporters the number fell.",
     "Director", "Norland Foreign Ministry"),
])
def test_a_title_with_of_phrases_before_a_name(text: str, role: str, org: str) -> None:
    found = roles(hand_read(text))
    assert found
    assert any(r == role and o == org for _, r, o in found)


def test_secretary_of_state_before_a_name_is_no_post_at_state():
    found = roles(hand_read("Secretary of State Ann Fu felt the talks were a success."))
    assert not any(o == "State" for _, _, o in found)


@pytest.mark.parametrize("text, role, org", [
    ("Ann Fu is the first woman to lead the Harbor Trust.", "leader", "Harbor Trust"),
    ("Ann Fu has captained the Harlow Comets since 2019.", "captain", "Harlow Comets"),
])
def test_heading_verbs_of_a_first_and_of_a_captain(text: str, role: str, org: str) -> None:
    found = roles(hand_read(text))
    assert found
    assert ("Ann Fu", role, org) in found


def test_the_first_to_do_something_else_holds_no_post():
    assert not roles(hand_read("Ann Fu is the first person to climb Mount Tarrow."))


def test_of_two_holders_of_a_one_holder_post_the_one_dated_earlier_held_it_then():
    text = ("Peruvian Prime Minister Ann Fu said on Monday the plan would go ahead. "
            "In 2021, the plan was rejected by Peruvian Prime Minister Bo Lam.")
    f = hand_read(text, date="2023-05-01")
    former = {f.entities[r.person].label: r.former for r in f.roles if r.role == "Prime Minister"}
    assert former == {"Ann Fu": False, "Bo Lam": True}


def test_one_holder_named_in_a_dated_sentence_alone_is_not_made_former():
    f = hand_read("In 2021, the plan was rejected by Peruvian Prime Minister Bo Lam.", date="2023-05-01")
    assert f.roles
    assert not any(r.former for r in f.roles)


@pytest.mark.parametrize("text", [
    "Norland's president appointed Maria Costa as finance minister and Peter Hollis as foreign minister.",
    "The president named Maria Costa finance minister and Peter Hollis foreign minister of Norland.",
])
def test_each_post_of_a_list_of_appointments_is_the_name_s_before_it(text: str) -> None:
    found = {(p, r) for p, r, _ in roles(hand_read(text))}
    assert found == {("Maria Costa", "finance minister"), ("Peter Hollis", "foreign minister")}


def test_a_post_in_the_government_is_one_of_the_country_the_article_is_about():
    text = ("Peru names new cabinet. Peru's prime minister named a new cabinet on Monday. Peru has been in crisis "
            "for a year. The former finance minister, Peter Hollis, is the new government's minister for planning.")
    found = roles(hand_read(text))
    assert ("Peter Hollis", "minister", "Peru") in found


def test_a_post_in_a_named_government_is_no_post_of_the_country_by_this_rule():
    found = roles(hand_read("Peru names new cabinet. Peru's prime minister named a new cabinet on Monday. Peru has been "
                            "in crisis for a year. The Velmark Government protested. The government's spokesman, "
                            "Tom Reyes, said talks would go on."))
    assert not any(p == "Tom Reyes" and o == "Peru" for p, _, o in found)


def test_a_name_at_the_end_of_a_second_apposition_holds_the_first_title():
    text = ("Peru names new cabinet. Peru's prime minister named a new cabinet on Monday. Peru has been in crisis "
            "for a year. The previous communications minister, the leader of the Green Front rebels Maria Costa, "
            "will now serve as minister of reconstruction.")
    found = roles_in_time(hand_read(text))
    assert ("Maria Costa", "communications minister", "Peru", True) in found
    assert ("Maria Costa", "minister", "Peru", False) in found


def test_a_post_coordinated_with_an_apposition_that_is_none():
    found = roles(hand_read("Ian Roe, a poet and former lyricist for the rock band Grey Hounds, died on Monday."))
    assert found
    assert ("Ian Roe", "lyricist", "Grey Hounds") in found


def test_a_generic_noun_without_the_is_no_body_the_article_named():
    found = roles(hand_read("The Harbor Relations Service hired Ann Fu. Laura Ross is a retired attorney with a "
                            "career in public service."))
    assert not any(p == "Laura Ross" for p, _, _ in found)


def test_the_noun_with_the_is_the_body_the_article_named():
    found = roles(hand_read("Ann Fu joined the Harbor Relations Service in 2001. Laura Ross is a lawyer at the service."))
    assert ("Laura Ross", "lawyer", "Harbor Relations Service") in found


def test_command_assumed_from_a_predecessor():
    found = roles_in_time(hand_read("Gen. Carl Norby assumed command of the Harbor Fleet from Gen. Tom Reyes on Monday.", date="2011-03-09"))
    assert ("Carl Norby", "commander", "Harbor Fleet", False) in found
    assert ("Tom Reyes", "commander", "Harbor Fleet", True) in found


def test_the_leadership_taken_over():
    found = roles(hand_read("Carl Norby took over the leadership of the Harbor Trust from Tom Reyes in 2010."))
    assert ("Carl Norby", "leader", "Harbor Trust") in found
    assert ("Tom Reyes", "leader", "Harbor Trust") in found


def test_a_post_a_holder_s_former_positions_include():
    found = roles_in_time(hand_read("Carl Norby brings diverse experience to the agency from his former positions, including serving "
                  "as the director of operations for the Harbor Trust."))
    assert ("Carl Norby", "director of operations", "Harbor Trust", True) in found


def test_a_post_taken_over_from_a_predecessor():
    found = roles(hand_read("Carl Norby took over as chairman of the Harbor Trust from Tom Reyes."))
    assert ("Carl Norby", "chairman", "Harbor Trust") in found
    assert ("Tom Reyes", "chairman", "Harbor Trust") in found


def test_a_department_of_affairs_in_a_title_is_the_title_s_not_a_body(read) -> None:  # type: ignore[no-untyped-def]
    """On the model (the NER repair is what this tests, and a written-down parse has it done already)."""
    f = read("Peru votes. Peru's parliament met. Peru is cold. In May, Ann Fu was forced to resign as Foreign "
             "Affairs minister.")
    found = roles(f)
    assert ("Ann Fu", "Foreign Affairs minister", "Peru") in found
    assert not any(o == "Foreign Affairs" for _, _, o in found)


def test_a_capitalized_ordinal_opens_a_title_and_an_untagged_demonym_names_its_country():
    found = roles(hand_read("Welsh First Minister Rhod Tal agreed."))
    assert ("Rhod Tal", "First Minister", "Wales") in found
    assert not any(o.endswith("First") for _, _, o in found)


def test_an_ordinal_is_no_body_s_name():
    found = roles(hand_read("Velmish Health Minister Ana Ruiz met First Lady Jo Kerr."))
    assert not any(p == "Jo Kerr" for p, _, _ in found)


def test_a_list_of_names_with_their_posts_after_a_verb_of_including():
    found = roles(hand_read("Peru's president named a new cabinet on Monday. The new cabinet includes Ana Ruiz as "
                            "finance minister and Tom Vale as foreign minister. Peru has been in crisis."))
    assert ("Ana Ruiz", "finance minister", "Peru") in found
    assert ("Tom Vale", "foreign minister", "Peru") in found


def test_a_holder_kept_in_a_post():
    found = roles(hand_read("Peru's president named a new cabinet. He kept Ana Ruiz as finance minister. Peru is poor."))
    assert ("Ana Ruiz", "finance minister", "Peru") in found


def test_a_title_subject_told_an_age_describes_the_article_s_person():
    f = hand_read("Ivo Pell died on Monday in Tarsk, his family said. Pell was a writer. Pell lived in Tarsk. The "
                  "co-founder of the Harka Trust and former editor of the Velmar Times was 81.")
    found = roles(f)
    assert ("Ivo Pell", "co-founder", "Harka Trust") in found
    assert ("Ivo Pell", "editor", "Velmar Times") in found
    assert {r.rule for r in f.roles if f.entities[r.person].label == "Ivo Pell"} == {"described-topic"}


def test_an_aged_title_subject_describes_the_article_s_person():
    found = roles(hand_read("Ivo Pell died on Monday in Tarsk, his family said. Pell was a writer. Pell lived in "
                            "Tarsk. The 81-year-old former editor of the Velmar Times had been ill."))
    assert ("Ivo Pell", "editor", "Velmar Times") in found


def test_a_title_subject_that_makes_a_statement_may_be_someone_new():
    found = roles(hand_read("Ivo Pell died on Monday in Tarsk, his family said. Pell was a writer. Pell lived in "
                            "Tarsk. The director of the Harka Trust said he would be missed."))
    assert not any(p == "Ivo Pell" for p, _, _ in found)


def test_a_body_s_name_hung_beside_the_noun_for_its_kind():
    """The parser hangs "Grateful Tide" in apposition to "lyricist", and "band" is the object of "of"."""
    found = roles_in_time(hand_read("Ivo Pell died on Monday. He was the former lyricist of rock band Grateful Tide."))
    assert ("Ivo Pell", "lyricist", "Grateful Tide", True) in found


def test_a_body_named_before_its_members_is_the_organization():
    found = roles(hand_read("Tomas Vale, the leader of the Harka Front rebels, spoke."))
    assert ("Tomas Vale", "leader", "Harka Front") in found


def test_been_with_an_organization_is_a_career_there():
    found = roles_in_time(hand_read("Ana Ruiz has been with the Harka Institute since 2004."))
    assert ("Ana Ruiz", "member", "Harka Institute", False) in found


def test_being_with_people_is_no_career():
    assert not hand_read("Ana Ruiz was with her family in Norland.").roles


def test_a_retired_title_is_a_past_post():
    f = hand_read("Tom Vale, a retired Army general, heads the Velmar Veterans League.")
    found = {(f.entities[r.person].label, r.role, r.former) for r in f.roles}
    assert ("Tom Vale", "general", True) in found


def test_a_post_taken_over_from_a_predecessor_named_after_its_organization():
    found = roles(hand_read("Ana Ruiz takes over as head of the Harka Institute from Tom Vale, who retires in May."))
    assert ("Ana Ruiz", "head", "Harka Institute") in found
    assert ("Tom Vale", "head", "Harka Institute") in found


def test_posts_held_at_an_organization_listed_by_including():
    found = roles_in_time(hand_read("Ana Ruiz previously held senior positions at the Harka Institute, including chief operating officer."))
    assert ("Ana Ruiz", "chief operating officer", "Harka Institute", True) in found


def test_the_years_with_a_body_are_those_of_the_post_held_there():
    found = roles(hand_read("Deputy Director Ana Ruiz of the Harka Institute was promoted on Monday. Ruiz, who has been with the Harka Institute since 2004, succeeds Tom Vale."))
    assert ("Ana Ruiz", "Deputy Director", "Harka Institute") in found
    assert ("Ana Ruiz", "member", "Harka Institute") not in found


def test_a_post_a_holder_served_in_listed_by_including_as():
    found = roles_in_time(hand_read("Ana Ruiz also has served in a number of key positions at the Harka Institute, including as the manager of the Tide Office from 2014 to 2021.", date="2023-01-10"))
    assert ("Ana Ruiz", "manager", "Tide Office", True) in found


def test_a_participle_serving_as_a_post_has_the_clause_s_subject():
    found = roles(hand_read("Tom Vale joined Velmar Bank in 1990, serving as its chief economist."))
    assert ("Tom Vale", "chief economist", "Velmar Bank") in found


def test_command_relinquished_to_a_successor():
    found = roles_in_time(hand_read("Gen. Ana Ruiz relinquished command of the Velmar Fleet to Gen. Tom Vale on Friday."))
    assert ("Ana Ruiz", "commander", "Velmar Fleet", True) in found
    assert ("Tom Vale", "commander", "Velmar Fleet", False) in found


def test_the_leadership_handed_over_to_a_successor():
    found = roles(hand_read("Ana Ruiz handed over the leadership of the Velmar Party to Tom Vale in May."))
    assert ("Ana Ruiz", "leader", "Velmar Party") in found
    assert ("Tom Vale", "leader", "Velmar Party") in found


def test_a_thing_passed_to_someone_is_no_post():
    assert not hand_read("Ana Ruiz passed the ball to Tom Vale.").roles


def test_general_after_a_title_it_completes_is_part_of_the_title():
    found = roles(hand_read("Harka Institute Director General Ana Ruiz spoke."))
    assert ("Ana Ruiz", "Director General", "Harka Institute") in found
    assert ("Tom Vale", "Defense Minister", "Peru") in roles(hand_read("Peru's Defense Minister General Tom Vale spoke."))  # a rank after other titles


def test_a_spaced_undersecretary_general_is_an_office_of_the_article_s_body():
    found = roles(hand_read("The United Nations named new staff. The United Nations said the plan was set. The United Nations met. Ana Ruiz of Peru will stay on as undersecretary general for legal affairs."))
    assert ("Ana Ruiz", "undersecretary general", "United Nations") in found


def test_a_notice_line_of_a_nominee_for_a_post_of_a_board():
    found = roles(hand_read("President Ana Ruiz announced her nominees today.\nJo Kerr, Nominee for Member, Board of "
                            "the Harbor Authority\nJo Kerr is a lawyer."))
    assert any(p == "Jo Kerr" and r == "Member" and "Harbor Authority" in o for p, r, o in found)


def test_a_past_adverb_scopes_over_a_coordinated_verb_of_a_post():
    f = hand_read("Lena Ode previously ran sales at Brightline Foods and sat on the board of the Harbor Rail Authority.")
    found = {(f.entities[r.person].label, f.entities[r.org].label, r.former) for r in f.roles}
    assert ("Lena Ode", "Harbor Rail Authority", True) in found


def test_an_organization_in_brackets_after_a_name_is_the_person_s():
    found = roles(hand_read("Candidates Ana Ruiz (Velmar Party), Tom Vale (Harka Front) and Jo Kerr (Norland Greens) all gained votes."))
    assert ("Ana Ruiz", "member", "Velmar Party") in found
    assert ("Jo Kerr", "member", "Norland Greens") in found
    assert not roles(hand_read("Ana Ruiz (45) and Tom Vale (Peru) spoke."))  # an age, a place


def test_a_team_s_name_before_a_list_of_names_is_their_team():
    found = roles(hand_read("In addition, Reggie Tam from Tarsk, and Harlow Hawks Tom Vale, Ivo Pell and Jo Kerr were each suspended one game."))
    assert {("Tom Vale", "member", "Harlow Hawks"), ("Ivo Pell", "member", "Harlow Hawks"),
            ("Jo Kerr", "member", "Harlow Hawks")} <= found


def test_an_agency_in_brackets_after_a_dateline_is_no_one_s_body():
    assert not any(r.org.endswith("ap") for r in hand_read("TUNIS, Tunisia (AP) Ana Ruiz met Tom Vale.").roles)


def test_the_boards_of_a_list_of_three_bodies():
    found = roles(hand_read("Ana Ruiz has served on the boards of the Harka Trust, Velmar Bank and the Tarsk Museum."))
    assert {("Ana Ruiz", "board member", o) for o in ("Harka Trust", "Velmar Bank", "Tarsk Museum")} <= found


def test_went_on_to_lead_a_body_is_a_past_post_and_will_go_on_none():
    found = roles_in_time(hand_read("Ana Ruiz went on to lead the Harka Institute for a decade."))
    assert ("Ana Ruiz", "leader", "Harka Institute", True) in found
    assert not hand_read("Ana Ruiz will go on to lead the Harka Institute.").roles


def test_a_government_post_held_under_a_head_of_government_is_in_that_country():
    assert ("Ana Ruiz", "finance minister", "Peru", True) in roles_in_time(hand_read("Ana Ruiz served as finance minister under President Tom Vale of Peru."))
    assert ("Ana Ruiz", "defence minister", "Peru") in roles(hand_read("Ana Ruiz served as defence minister under Peruvian President Tom Vale."))
    assert not any(p == "Ana Ruiz" for p, _, _ in roles(hand_read("Ana Ruiz served as an engineer under Tom Vale of Peru.")))  # no government post


def test_bodies_and_posts_a_holder_s_experience_includes():
    found = roles_in_time(hand_read("Ana Ruiz is a lawyer. Ruiz's past professional experience includes the Harka Trust, Velmar Legal Services, and eight years as chief of staff to the Governor of Tarsk."))
    assert ("Ana Ruiz", "member", "Harka Trust", True) in found
    assert ("Ana Ruiz", "member", "Velmar Legal Services", True) in found
    assert any(p == "Ana Ruiz" and r == "chief of staff" for p, r, _, _ in found)


def test_government_service_begun_at_a_body():
    assert ("Ana Ruiz", "member", "Civil Rights Office") in roles(hand_read("Ana Ruiz began government service at the Civil Rights Office of the Velmar Department of Justice."))
