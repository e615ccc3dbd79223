"""When: the time of an event's clause, or of the clause it shares one with (invented sentences).

A clause takes the time expression of its own words; a participle, an infinitive, a conjoined verb
or a when/while/as clause with none takes the time of the clause it hangs on; a conjoined clause
with a subject of its own only a time put before the first subject. Times are resolved against the
article date (a Friday here) or, for "two weeks later", against the time the text gave before.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from kg.model.facts import ArticleFacts, Event

Read = Callable[..., ArticleFacts]
FRIDAY = "2014-03-07"


@pytest.fixture(scope="module")
def read(read: Read) -> Read:
    """conftest's ``read``, the article dated Friday unless a test says otherwise."""
    return partial(read, date=FRIDAY)


def events(facts: ArticleFacts, action: str) -> list[Event]:
    found = [e for e in facts.events if e.action == action]
    assert found, [(e.actor, e.action, e.target) for e in facts.events]
    return found


def when(facts: ArticleFacts, action: str) -> str | None:
    (ev,) = {e.time for e in events(facts, action)}
    return None if ev is None else ev.text


def value(facts: ArticleFacts, action: str) -> str | None:
    (ev,) = {e.time for e in events(facts, action)}
    return None if ev is None else ev.value


@pytest.mark.parametrize(
    ("text", "action", "expected"),
    [
        ("On Tuesday, police arrested two smugglers and charged them.", "charge", "Tuesday"),
        ("On Tuesday, police arrested two smugglers and a judge released them.", "release", "Tuesday"),
        ("Soldiers entered the village on Monday, firing shots into the air.", "fire shot", "Monday"),
        ("A flood on Monday forced the villagers to leave, killing three farmers.", "kill", "Monday"),
        ("In a statement issued Tuesday, the ministry condemned the raid.", "condemn raid", "Tuesday"),
        ("Brightmill announced Wednesday morning it will buy Corvane.", "announce", "Wednesday morning"),
        ("The 2009 raid was carried out by masked gunmen.", "carry out raid", "2009"),
        ("The council has recently approved the plan.", "approve plan", "recently"),
        ("Today, the governor signed the bill.", "sign bill", "Today"),
        ("During his tenure, the mayor built three bridges.", "build", "his tenure"),
        ("Anna Lindqvist scored in the 56th minute.", "score", "the 56th minute"),
        ("On 12 minutes, Anna Lindqvist scored a goal.", "score goal", "12 minutes"),
    ],
)
def test_time_of_the_clause_or_the_clause_it_shares_one_with(read: Read, text: str, action: str,
                                                             expected: str) -> None:
    assert when(read(text), action) == expected


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Police arrested two smugglers on Tuesday and a judge released them.", "release"),
        ("The ministers met to discuss elections next year.", "discuss election"),
        ("The rebels were suspended for the rest of the season.", "suspend"),
        ("Rebels held the town for two weeks.", "hold"),
        ("The team has analysed crop yields over 2000 - 2050.", "analyse yield"),
        ("On Sunday, the ministry said soldiers had killed the rebel leader.", "kill"),
    ],
)
def test_no_time_from_another_clause_or_a_duration(read: Read, text: str, action: str) -> None:
    assert when(read(text), action) is None


def test_a_time_counted_from_the_last_date_the_text_gave(read: Read) -> None:
    facts = read("Rebels seized the town on March 2, 1994.\n\nTwo weeks later, troops recaptured it.")
    assert value(facts, "recapture") == "1994-03-16"


def test_a_week_and_a_span(read: Read) -> None:
    facts = read("Floods killed four people earlier this week.")
    (ev,) = events(facts, "kill")
    assert (ev.time.begin, ev.time.end) == ("2014-03-03", "2014-03-06")
    facts = read("Gangs smuggled the weapons between July 3, 2013 and July 9, 2013.")
    (ev,) = events(facts, "smuggle weapon")
    assert (ev.time.begin, ev.time.end) == ("2013-07-03", "2013-07-09")


def test_a_future_clause_takes_the_next_weekday(read: Read) -> None:
    facts = read("The ministers will meet the envoy on Monday.")
    assert value(facts, "meet") == "2014-03-10"


# ----- where ----------------------------------------------------------------------------------

def place(facts: ArticleFacts, action: str) -> str | None:
    (key,) = {e.place for e in events(facts, action)}
    return None if key is None else facts.entities[key].label


@pytest.mark.parametrize(
    ("text", "action", "expected"),
    [
        ("On Tuesday, the envoy met with Premier Jan Holm in Talmora and offered an apology.", "offer apology",
         "Talmora"),
        ("British troops fought in Talmora on Saturday, firing artillery.", "fire artillery", "Talmora"),
        ("A bus fell into the Drava River, killing four passengers.", "kill", "Drava River"),
        ("In Talmora, officials said that rebels had killed ten villagers.", "kill", "Talmora"),
        ("From Talmora, reporter Ann Lee reports that the talks failed.", "report", "Talmora"),
        ("The minister visited Norway.", "visit", "Norway"),
        ("Heavy rain fell on the island of Mindoro on Monday.\n\nFour people were killed in floods on the island.",
         "kill", "Mindoro"),
        ("Police arrested two men as they left the tunnel on Monday.", "arrest", "tunnel"),
        ("Ann Lee attended a college in Talmora, where she studied law.", "study law", "Talmora"),
    ],
)
def test_place_of_the_clause_or_the_clause_it_shares_one_with(read: Read, text: str, action: str,
                                                              expected: str) -> None:
    assert place(read(text), action) == expected


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("The Korvalan force in Talmora confirmed the attack.", "confirm"),  # the actor's seat
        ("In Talmora, officials said that rebels had killed ten villagers.", "say"),  # where the killing was
        ("Rebels attacked the town and NATO troops arrived at the base in Talmora.", "attack"),
        ("The council praised the mayor on Twitter.", "praise"),
    ],
)
def test_no_place_from_the_subject_another_clause_or_a_non_place(read: Read, text: str, action: str) -> None:
    assert place(read(text), action) is None
