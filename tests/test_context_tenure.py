"""Roles in time (kg/extract/context/tenure.py): when a post began and ended and whether it is over,
on invented sentences; the article is dated Friday 7 March 2014."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from dataclasses import replace

import pyshacl
import pytest
from factsamples import ONTOLOGY, SHAPES, minter, sample_facts
from rdflib import Graph, Literal
from rdflib.namespace import XSD

from kg.model.facts import ArticleFacts, Role, Time
from kg.model.vocab import KG, SEM, TIME
from kg.rdf.mapping import article_graph

Read = Callable[..., ArticleFacts]


@pytest.fixture(scope="module")
def read(read: Read) -> Read:
    """conftest's ``read``, the article dated Friday 7 March 2014."""
    return partial(read, date="2014-03-07")


def role(facts: ArticleFacts, person: str, title: str) -> Role:
    found = [r for r in facts.roles if facts.entities[r.person].label == person and r.role == title]
    assert found, [(r.person, r.role, r.org) for r in facts.roles]
    return found[0]


def value(t: object) -> str | None:
    return getattr(t, "value", None)


def test_served_in_two_years_begins_and_ends(read: Read) -> None:
    ro = role(read("John Park served as deputy director of the Talmora Water Authority in 2001 and 2002."),
              "John Park", "deputy director")
    assert (value(ro.since), value(ro.until)) == ("2001", "2002") and ro.former


def test_a_successor_begins_when_the_predecessor_retires(read: Read) -> None:
    ro = role(read("Ann Lee will succeed Tom Reyes as director of the Talmora Water Authority when Reyes "
                   "retires in April."), "Ann Lee", "director")
    assert value(ro.since) == "2014-04" and not ro.former


def test_a_term_expiring_ends_the_post(read: Read) -> None:
    ro = role(read("The governor intends to appoint Ann Lee to be a member of the Talmora Water Board for a "
                   "term expiring June 30, 2016."), "Ann Lee", "member")
    assert value(ro.until) == "2016-06-30" and not ro.former  # an end after the article date: still held


def test_an_effective_date_begins_the_announced_post(read: Read) -> None:
    ro = role(read("The board has selected Ann Lee as director of the Talmora Water Authority. The appointment "
                   "will be effective April 7."), "Ann Lee", "director")
    assert value(ro.since) == "2014-04-07"


def test_assuming_command_begins_the_command(read: Read) -> None:
    ro = role(read("General Ann Lee assumed command of the Korvala Naval Command on May 2, 2013. Lee is the "
                   "third commander of the Korvala Naval Command."), "Ann Lee", "commander")
    assert value(ro.since) == "2013-05-02"


def test_an_appointment_earlier_this_month(read: Read) -> None:
    ro = role(read("Mr. Park's appointment as prime minister of Korvala came earlier this month."), "Park",
              "prime minister")
    assert ro.since is not None and (ro.since.begin, ro.since.end) == ("2014-03-01", "2014-03-06")


def test_a_first_post_is_over_when_the_person_has_another(read: Read) -> None:
    facts = read("Ann Lee joined the Talmora Water Authority in 1995 as an engineer. She is now the director of "
                 "the Korvala Rail Company.")
    first = role(facts, "Ann Lee", "engineer")
    assert first.former and value(first.since) == "1995"
    assert not role(facts, "Ann Lee", "director").former


def test_the_posts_of_someone_whose_death_is_reported_are_over(read: Read) -> None:
    assert role(read("Ann Lee, the director of the Talmora Water Authority, died on Monday."), "Ann Lee",
                "director").former
    assert not role(read("Ann Lee is the director of the Talmora Water Authority. Her mother died in 1990."),
                    "Ann Lee", "director").former  # someone else's death


def test_a_founding_stays_when_the_founder_dies(read: Read) -> None:
    f = read("Ann Lee, the co-founder of the Talmora Water Trust, died on Monday.")
    assert not role(f, "Ann Lee", "co-founder").former  # her director's post would be over (the test above)


def test_a_first_post_alone_stays_current(read: Read) -> None:
    ro = role(read("Ann Lee joined the Talmora Water Authority in 1995 as an engineer."), "Ann Lee", "engineer")
    assert not ro.former


# ----- in RDF (no model) ----------------------------------------------------------------------

def _spanned_facts() -> ArticleFacts:
    """The sample article with a decade on an event and "earlier this month" as a role's beginning."""
    facts = sample_facts()
    facts.events = [replace(e, time=Time("in the 1990s", datatype="interval", begin="1990", end="1999"))
                    if e.action == "call" else e for e in facts.events]
    facts.roles = [replace(r, since=Time("earlier this month", datatype="interval", begin="2012-02-01",
                                         end="2012-02-24")) if r.role == "press secretary" else r
                   for r in facts.roles]
    return facts


def test_a_decade_and_a_span_in_rdf_conform() -> None:
    g = article_graph(_spanned_facts(), minter())
    (e,) = g.subjects(KG.action, Literal("call"))
    assert g.value(e, SEM.hasEarliestBeginTimeStamp) == Literal("1990", datatype=XSD.gYear)
    assert g.value(e, SEM.hasLatestEndTimeStamp) == Literal("1999", datatype=XSD.gYear)
    begins = [v for i in g.objects(None, TIME.hasBeginning) for v in g.objects(i, TIME.inXSDgYearMonth)]
    assert begins and Literal("2012-02", datatype=XSD.gYearMonth) in begins  # the month both bounds are in
    shapes, ontology = Graph().parse(SHAPES, format="turtle"), Graph().parse(ONTOLOGY, format="turtle")
    conforms, _, text = pyshacl.validate(g, shacl_graph=shapes, ont_graph=ontology, inference="rdfs")
    assert conforms, text
