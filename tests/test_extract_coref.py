"""Pronoun resolution (``kg.extract.entities.coref``), on written-down parses of invented sentences."""
from __future__ import annotations

from conftest import triples
from handparse import hand_read


def test_a_name_inside_the_pronoun_s_own_subjectless_adjunct_is_not_its_antecedent():
    """ "After meeting Bo Lam, he signed": he is the one who met Bo Lam, so he is not Bo Lam."""
    found = triples(hand_read("Carl Norby is a lawyer at Acme. After meeting Bo Lam, he signed the deal."))
    assert found
    assert any(actor == "Carl Norby" and action.startswith("sign") for actor, action, _ in found)
    assert not any(actor == "Bo Lam" for actor, _, _ in found)


def test_a_title_in_an_as_phrase_of_the_adjunct_is_not_the_antecedent():
    found = triples(hand_read("Carl Norby is a lawyer at Acme. After serving on Senator Ann Fu's campaign as the "
                              "Deputy Director for Outreach, he joined the Harbor Trust staff."))
    assert found
    assert any(actor == "Carl Norby" and action == "join" for actor, action, _ in found)


def test_a_name_in_a_finite_clause_before_the_pronoun_stays_its_antecedent():
    found = triples(hand_read("Carl Norby is a lawyer at Acme. After Bo Lam arrived, he signed the deal."))
    assert found
    assert any(actor == "Bo Lam" and action.startswith("sign") for actor, action, _ in found)
