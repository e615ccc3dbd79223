"""kg/extract/context/timex.py: date expressions -> calendar values against the article date (no model)."""
from __future__ import annotations

from datetime import date

import pytest

from kg.extract.context.timex import is_time_point, normalise, parse_iso

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
        ("earlier this month", "2020-08", "gYearMonth"),
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
        ("the 1990s", "1990-01-01", "1999-12-31"),
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
