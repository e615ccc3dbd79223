"""Role words and announcements on invented sentences: academic posts, a team's player named before
the team's position word, a reported "would", and a title the model took for a name."""
from __future__ import annotations

from conftest import roles


def test_fellow_and_provost_are_posts(read):
    f = read("Nadia Ferrante was a senior fellow at the Orlov Institute.")
    assert any(p == "Nadia Ferrante" and "fellow" in r and "Orlov Institute" in o for p, r, o in roles(f))
    f = read("Tomasz Wilk was provost of Harlan University from 1999 to 2004.")
    assert ("Tomasz Wilk", "provost", "Harlan University") in roles(f)


def test_fellow_as_a_modifier_is_no_post(read):
    f = read("Fellow Democrat Ruth Engel criticized the plan.")
    assert not any(r.lower().startswith("fellow") for _, r, _ in roles(f))


def test_team_before_a_lowercase_position_word(read, nlp):
    text = "Detroit Pistons guard Marcus Bell scored 30 points."
    assert ("Detroit Pistons", "ORG") in {(e.text, e.label_) for e in nlp(text).ents}
    assert ("Marcus Bell", "guard", "Detroit Pistons") in roles(read(text))


def test_a_capitalized_guard_stays_part_of_the_body(nlp):
    ents = {(e.text, e.label_) for e in nlp("The Velmora Coast Guard rescued ten fishermen.").ents}
    assert any("Coast Guard" in text for text, _ in ents)


def test_would_reported_in_the_past_announces_a_post(read):
    f = read("Boeing said Jane Smith would become its chief financial officer.")
    assert ("Jane Smith", "chief financial officer", "Boeing") in roles(f)


def test_would_under_a_condition_is_no_post(read):
    f = read("Boeing said Jane Smith would become its chief financial officer if the board agreed.")
    assert not roles(f)


def test_a_title_before_of_is_no_person(read):
    f = read("Henry Park has been appointed Dean of the School of Engineering at Cornell University.")
    people = {p for p, _, _ in roles(f)}
    assert people == {"Henry Park"}
