"""kg/extract/context/timex.py: date expressions -> calendar values against the article date (no model)."""
from __future__ import annotations

from datetime import date

import pytest

from kg.extract.context.timex import is_clock, is_time_point, needs_ref, normalise, parse_iso
from kg.model.facts import Time

FRIDAY = date(2020, 8, 21)  # a Friday


@pytest.mark.parametrize(
    ("text", "value", "datatype"),
    [
        ("Friday, August 21, 2020", "2020-08-21", "date"),
        ("August 21, 2020", "2020-08-21", "date"),
        ("21 August 2020", "2020-08-21", "date"),
        ("Aug. 3", "2020-08-03", "date"),
        ("March 3", "2020-03-03", "date"),
        ("December 24", "2020-12-24", "date"),  # ahead, but less than half a year
        ("Saturday", "2020-08-15", "date"),  # the most recent Saturday on or before the article date
        ("on Sunday", "2020-08-16", "date"),
        ("Friday", "2020-08-21", "date"),  # a Friday article's "Friday" is that day
        ("last Friday", "2020-08-14", "date"),
        ("next Monday", "2020-08-24", "date"),
        ("Thursday afternoon", "2020-08-20", "date"),
        ("Saturday's", "2020-08-15", "date"),
        ("yesterday", "2020-08-20", "date"),
        ("Yesterday", "2020-08-20", "date"),
        ("today", "2020-08-21", "date"),
        ("early this afternoon", "2020-08-21", "date"),
        ("tomorrow", "2020-08-22", "date"),
        ("the day before yesterday", "2020-08-19", "date"),
        ("three days ago", "2020-08-18", "date"),
        ("in August", "2020-08", "gYearMonth"),
        ("August 2014", "2014-08", "gYearMonth"),
        ("last month", "2020-07", "gYearMonth"),
        ("in 2020", "2020", "gYear"),
        ("2009", "2009", "gYear"),
        ("mid-2014", "2014", "gYear"),
        ("last year", "2019", "gYear"),
        ("two years ago", "2018", "gYear"),
        ("2020-08-19", "2020-08-19", "date"),
    ],
)
def test_resolved_against_the_article_date(text: str, value: str, datatype: str) -> None:
    t = normalise(text, FRIDAY)
    assert (t.value, t.datatype) == (value, datatype)
    assert t.text == " ".join(text.split())  # the text is always kept


def test_a_month_and_day_over_half_a_year_ahead_are_last_years() -> None:
    february = date(2013, 2, 23)
    assert normalise("December 24", february).value == "2012-12-24"
    assert normalise("in December", february).value == "2012-12"
    assert normalise("March 3", february).value == "2013-03-03"


@pytest.mark.parametrize(
    ("text", "begin", "end"),
    [
        ("last week", "2020-08-10", "2020-08-16"),  # the calendar week before the article's
        ("this week", "2020-08-17", "2020-08-23"),
        ("next week", "2020-08-24", "2020-08-30"),
        ("two weeks ago", "2020-08-03", "2020-08-09"),
        ("last weekend", "2020-08-15", "2020-08-16"),
        ("earlier this month", "2020-08-01", "2020-08-20"),  # from the month's first day to the day before
        ("earlier this week", "2020-08-17", "2020-08-20"),
        ("several days ago", "2020-08-10", "2020-08-16"),
        ("the 1990s", "1990", "1999"),  # a decade: its first and last year
        ("the 1800s", "1800", "1899"),  # a round hundred: the century
        ("in the 2002-03 season", "2002", "2003"),
        ("2002-2003", "2002", "2003"),
        ("between July 30 and August 4, 2020", "2020-07-30", "2020-08-04"),
    ],
)
def test_weeks_and_decades_are_intervals(text: str, begin: str, end: str) -> None:
    t = normalise(text, FRIDAY)
    assert (t.datatype, t.begin, t.end, t.value) == ("interval", begin, end, None)


@pytest.mark.parametrize("text", ["Saturday", "yesterday", "last week", "March 3", "in August", "last year"])
def test_relative_dates_without_an_article_date_keep_only_their_text(text: str) -> None:
    t = normalise(text, None)
    assert t.text == text and t.value is None and t.datatype is None


@pytest.mark.parametrize(("text", "value"), [("Friday, August 21, 2020", "2020-08-21"), ("in 2020", "2020"),
                                             ("August 2020", "2020-08")])
def test_absolute_dates_need_no_article_date(text: str, value: str) -> None:
    assert normalise(text, None).value == value


@pytest.mark.parametrize("text", ["the decade-long", "recent years", "the past", "February 30, 2015"])
def test_what_is_no_calendar_value_keeps_its_text(text: str) -> None:
    t = normalise(text, FRIDAY)
    assert t.value is None and t.begin is None and t.text == text


@pytest.mark.parametrize(("text", "point"), [
    ("Saturday", True), ("last week", True), ("in 2015", True), ("five days", False), ("decades", False),
    ("48 hours", False), ("two years ago", True), ("the 1990s", True), ("eight hours", False),
])
def test_time_points_and_durations(text: str, point: bool) -> None:
    assert is_time_point(text) is point


def test_parse_iso() -> None:
    assert parse_iso("2013-02-23") == date(2013, 2, 23)
    assert parse_iso("2013-02-30") is None and parse_iso("Feb 25") is None and parse_iso(None) is None


def test_a_yearless_date_lies_the_way_the_clause_says() -> None:
    january = date(2013, 1, 10)
    assert normalise("in May", january).value == "2013-05"  # nearest the article date
    assert normalise("in May", january, tense="past").value == "2012-05"  # "was elected in May"
    assert normalise("in December", date(2012, 11, 16), tense="future").value == "2012-12"
    assert normalise("in January", date(2012, 11, 16)).value == "2013-01"  # "when she retires in January"
    assert normalise("Friday", FRIDAY, tense="future").value == "2020-08-28"  # "will meet on Friday"
    assert normalise("Friday", FRIDAY, tense="past").value == "2020-08-21"


@pytest.mark.parametrize(
    ("text", "ref", "value"),
    [
        ("two weeks later", Time("March 2, 1994", "1994-03-02", "date"), "1994-03-16"),
        ("a day earlier", Time("March 2, 1994", "1994-03-02", "date"), "1994-03-01"),
        ("the next day", Time("March 2, 1994", "1994-03-02", "date"), "1994-03-03"),
        ("the following year", Time("in 1999", "1999", "gYear"), "2000"),
        ("a year later", Time("in May 2001", "2001-05", "gYearMonth"), "2002"),
        ("the same day", Time("March 2, 1994", "1994-03-02", "date"), "1994-03-02"),
    ],
)
def test_times_counted_from_the_last_time_the_text_gave(text: str, ref: Time, value: str) -> None:
    assert needs_ref(text)
    assert normalise(text, FRIDAY, ref=ref).value == value
    assert normalise(text, FRIDAY).value is None  # with nothing to count from: only the text


def test_the_following_day_of_a_year_is_no_day() -> None:
    assert normalise("the following day", FRIDAY, ref=Time("in 1999", "1999", "gYear")).value is None


@pytest.mark.parametrize(("text", "before"), [("the 56th minute", "in"), ("12 minutes", "on"),
                                              ("four minutes later", ""), ("30 seconds left", "with")])
def test_match_clocks_are_times_without_a_date(text: str, before: str) -> None:
    assert is_clock(text, before)
    t = normalise(text, FRIDAY)
    assert t.text == text and t.value is None and t.begin is None


@pytest.mark.parametrize(("text", "before"), [("12 minutes", "for"), ("five days", "on"), ("two hours", "")])
def test_a_duration_is_no_clock(text: str, before: str) -> None:
    assert not is_clock(text, before) and not is_time_point(text)


def test_dates_in_a_longer_phrase() -> None:
    t = normalise("floods earlier this week", FRIDAY)
    assert (t.begin, t.end) == ("2020-08-17", "2020-08-20")
    assert normalise("the summer of 1964", FRIDAY).value == "1964"
    assert normalise("earlier in the day", FRIDAY).value == "2020-08-21"
    assert normalise("earlier Wednesday", FRIDAY).value == "2020-08-19"
