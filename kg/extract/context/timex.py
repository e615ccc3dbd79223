"""Time expressions -> calendar values, against the article's date (no spaCy).

``normalise(text, anchor)`` reads what spaCy tags DATE or TIME ("Saturday", "on Sunday", "last week",
"in 2015", "yesterday", "March 3", "Tuesday, March 4, 2014") and returns a ``facts.Time``:

* the text as written, always (``kg:timeText``);
* a value when the expression fixes one: a day (``xsd:date``), a month (``xsd:gYearMonth``),
  a year (``xsd:gYear``), or for a span the first and last day or year it can be (``interval``:
  ``sem:hasEarliestBeginTimeStamp`` / ``sem:hasLatestEndTimeStamp``).

This module says what an English expression means (which day, unit and direction); the calendar
itself is the libraries': ``dateparser`` reads the absolute dates ("17 November", "March 31, 2005",
"August 2014", with the granularity the text gives) and ``dateutil.relativedelta`` does the
arithmetic (the Saturday before a day, the month before a month).

Relative expressions need the anchor (``Article.date``, ISO ``yyyy-mm-dd``); without one only
absolute ones get a value. The conventions (news style, as the gold files of the dev set date facts):

* a weekday name is the most recent such day on or before the article date ("Saturday" in a
  Saturday article is that day), or in a future clause (``tense="future"``) the next one;
  "next Friday" is the first one after it;
* "yesterday", "today" (also "tonight", "this morning", "earlier in the day"), "tomorrow": the
  day before, of, after;
* "last week" / "this week" / "next week": the calendar week (Monday to Sunday) before, of or
  after the article's, as an interval; "earlier this week" / "earlier this month" / "earlier
  this year" from the week's (month's, year's) first day to the day before the article's;
* "last month", "this month", "last year", "this year": a gYearMonth or gYear;
* "N days ago" a day, "N weeks ago" the week N weeks back, "N months/years ago" a month/year;
* a month and day without a year ("March 3") or a month alone ("in August") take the year that
  puts them nearest the article date, or before it in a past clause (``tense="past"``) and after
  it in a future one;
* a decade ("the 1990s") or a century ("the 1800s") and a range of years ("2002-2003",
  "between July 30 and August 25, 2018") are intervals, also without an anchor;
* "two weeks later", "the following year", "the next day", "a day earlier" count from ``ref``,
  the last time the text gave before the expression.

Anything else keeps its text and no value: vague times ("recently", "last season") and match
clocks ("in the 56th minute", "four minutes later"). Durations ("five days", "decades") are not
times: ``is_time_point`` tells the two apart so that they are not attached to events at all.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from dateparser.date import DateDataParser
from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

from ...model.facts import Time

__all__ = ["normalise", "is_time_point", "is_clock", "needs_ref", "parse_iso", "TIME_ADVERBS"]

#: Adverbs that date a clause without a calendar value ("has recently begun", "said previously").
#: "then", "again" and "now" are not among them: they order or repeat, they do not date.
TIME_ADVERBS = frozenset("recently previously earlier initially originally formerly lately".split())

_MONTHS = ("january february march april may june july august september october november december "
           "jan feb mar apr jun jul aug sep sept oct nov dec").split()
_WEEKDAYS = {"monday": MO, "tuesday": TU, "wednesday": WE, "thursday": TH, "friday": FR, "saturday": SA, "sunday": SU}
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY_RE = "|".join(_WEEKDAYS)
_NUM_RE = r"\d{1,2}|a few|several|few|" + "|".join(sorted(_NUMBERS, key=len, reverse=True))
_PART_OF_DAY = r"(?:\s+(?:morning|afternoon|evening|night))?"

# All patterns are compiled once, at import, and matched against a lowercased, trimmed text.
_LEAD = re.compile(r"^(?:(?:on|in|at|during|by|of|since|from|until|till|around|about|early|late|mid|the|"
                   r"over|throughout)\s+|mid-)+")
_EARLIER_LEAD = re.compile(r"^(?:earlier|later)\s+")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MONTH_WORD = re.compile(rf"\b(?:{_MONTH_RE})\b\.?")
_YEAR = re.compile(r"(1[0-9]{3}|2[0-9]{3})")
_YEAR_IN = re.compile(r"\b(1[0-9]{3}|2[0-9]{3})\b")
_SEASON_OF = re.compile(r"(?:spring|summer|autumn|fall|winter|beginning|end|start|middle|first half|second half)"
                        r"\s+of\s+(1[0-9]{3}|2[0-9]{3})")
_YEARS = re.compile(r"(1[0-9]{3}|2[0-9]{3})\s*(?:-|–|to|and|through)\s*((?:1[0-9]|2[0-9])?[0-9]{2})(?:\s+season)?")
_DECADE = re.compile(r"(1[0-9]{2}|2[0-9]{2})0s")
_BETWEEN = re.compile(r"between\s+(.+?)\s+and\s+(.+)")
_WEEKDAY = re.compile(rf"(last|next|this|past|coming)?\s*({_DAY_RE}){_PART_OF_DAY}")
_DEICTIC = re.compile(r"(yesterday|today|tonight|tomorrow|this (?:morning|afternoon|evening)|last night|"
                      r"(?:yesterday|tomorrow) (?:morning|afternoon|evening|night)|"
                      r"day before yesterday|day after tomorrow|(?:earlier|later) (?:in the day|today))")
_UNIT = re.compile(r"(last|this|next|past|previous|coming)\s+(week|month|year|weekend)")
_EARLIER = re.compile(r"(earlier|later)\s+this\s+(week|month|year)")
_AGO = re.compile(rf"({_NUM_RE})\s+(day|week|month|year)s?\s+ago")
_AFTER_REF = re.compile(rf"(?:(?:about|some|nearly|almost|more than|less than)\s+)?({_NUM_RE})\s+(day|week|month|year)s?"
                        r"\s+(later|earlier|after|before)")
_NEXT_REF = re.compile(r"(?:the\s+)?(following|next|previous|preceding|same)\s+(day|week|month|year)|"
                       r"(?:that|the same)\s+(day|week|month|year)")
_EMBEDDED = re.compile(rf"\b(?:(?:earlier|later)\s+)?(?:{_DEICTIC.pattern}|{_UNIT.pattern}|{_AGO.pattern})")
_CLOCK_UNIT = r"(?:minute|second|hour|min)s?"
_CLOCK = re.compile(rf"(?:(?:the\s+)?\d{{1,3}}(?:st|nd|rd|th)(?:-|\s)?{_CLOCK_UNIT}|"
                    rf"(?:{_NUM_RE}|\d+(?:\.\d+)?)\s+{_CLOCK_UNIT}\s+(?:later|earlier|left|remaining|in|into|from time)|"
                    r"(?:first|second)[- ]half|half-?time|stoppage time|injury time|extra time|full-?time)")
_POINT_WORDS = re.compile(
    rf"\b(?:{_MONTH_RE}|{_DAY_RE}|yesterday|today|tonight|tomorrow|ago|last|this|next|previous|past|coming|"
    r"earlier|later|weekend|following|preceding)\b|\b(?:1[0-9]|2[0-9])[0-9]{2}s?\b"
)


def parse_iso(text: str | None) -> date | None:
    """An ISO ``yyyy-mm-dd`` date, or None if ``text`` is not one."""
    if not text:
        return None
    m = _ISO.fullmatch(text.strip()[:10])
    if not m:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def is_time_point(text: str) -> bool:
    """Whether a DATE expression names a time rather than a duration ("five days", "decades")."""
    return bool(_POINT_WORDS.search(text.lower())) or is_clock(text)


def is_clock(text: str, before: str = "") -> bool:
    """Whether an expression is a match clock ("in the 56th minute", "four minutes later", "on 12
    minutes", with ``before`` the word before it): a time of the event with no calendar value."""
    low = " ".join(text.lower().split())
    if _CLOCK.fullmatch(_LEAD.sub("", low)) or _CLOCK.fullmatch(low):
        return True
    return before.lower() == "on" and bool(re.fullmatch(rf"\d{{1,3}}\s+{_CLOCK_UNIT}", low))


def needs_ref(text: str) -> bool:
    """Whether an expression counts from a time the text gave before ("two weeks later", "the
    following year"): ``normalise`` then needs that time as ``ref``."""
    low = _clean(text)
    return bool(_AFTER_REF.fullmatch(low) or _NEXT_REF.fullmatch(low))


def _clean(text: str) -> str:
    low = " ".join(text.lower().replace("\u2019", "'").replace("\u2013", "-").split())
    low = re.sub(r"'s$", "", low).strip(" ,.")
    return _LEAD.sub("", low).strip()


def _out(shown: str, value: str | None = None, kind: str | None = None, begin: str | None = None,
         end: str | None = None) -> Time:
    return Time(text=shown, value=value, datatype=kind, begin=begin, end=end)


def _day(d: date) -> tuple[str, str]:
    return d.isoformat(), "date"


def _span(first: date, last: date) -> dict[str, str]:
    return {"begin": first.isoformat(), "end": last.isoformat(), "kind": "interval"}


def _week(d: date) -> tuple[date, date]:
    monday = d + relativedelta(weekday=MO(-1))
    return monday, monday + timedelta(days=6)


@lru_cache(maxsize=64)
def _parser(anchor: date | None, prefer: str) -> DateDataParser:
    base = datetime(anchor.year, anchor.month, anchor.day) if anchor else datetime(2000, 1, 1)
    return DateDataParser(languages=["en"], settings={
        "RELATIVE_BASE": base, "PREFER_DATES_FROM": prefer, "PREFER_DAY_OF_MONTH": "first",
        "RETURN_TIME_AS_PERIOD": False, "STRICT_PARSING": False,
    })


_PERIODS = {"day": ("%Y-%m-%d", "date"), "month": ("%Y-%m", "gYearMonth"), "year": ("%Y", "gYear")}


@lru_cache(maxsize=4096)
def _absolute(low: str, anchor: date | None, tense: str | None) -> tuple[str, str] | None:
    """An absolute date ("17 November", "Tuesday, March 4, 2014", "August 2014", "2014") read by
    dateparser: (value, datatype) at the granularity the text gives, or None. Without a year the
    anchor's nearest such date, or the one before (after) it in a past (future) clause."""
    has_year = bool(_YEAR_IN.search(low))
    if not has_year and (anchor is None or not _MONTH_WORD.search(low)):
        return None
    prefers = ("past", "future") if tense is None and not has_year else (
        "future" if tense == "future" else "past",)
    found: list[tuple[datetime, str]] = []
    for prefer in prefers:
        data = _parser(anchor, prefer).get_date_data(low)
        if data.date_obj is not None and data.period in _PERIODS:
            found.append((data.date_obj, data.period))
    if not found:
        return None
    if anchor is not None:
        at = datetime(anchor.year, anchor.month, anchor.day)
        found.sort(key=lambda f: abs((f[0] - at).days))
    when, period = found[0]
    fmt, kind = _PERIODS[period]
    return when.strftime(fmt), kind


def normalise(text: str, anchor: date | None = None, tense: str | None = None, ref: Time | None = None) -> Time:
    """The calendar value of a time expression (see the module docstring); the text kept always.

    ``tense``: "past" or "future" when the clause says which way a yearless date lies; ``ref``: the
    last time the text gave before this one, for "two weeks later", "the following year"."""
    shown = " ".join(text.split())
    low = _clean(text)
    if not low or is_clock(low):
        return _out(shown)
    if m := _ISO.fullmatch(low):
        d = parse_iso(low)
        return _out(shown, *_day(d)) if d else _out(shown)
    if m := _DECADE.fullmatch(low):
        start = int(m[1]) * 10
        last = start + (99 if start % 100 == 0 and start <= 1900 else 9)
        return _out(shown, begin=f"{start:04d}", end=f"{last:04d}", kind="interval")
    if m := _YEARS.fullmatch(low):
        first, second = int(m[1]), m[2]
        last = int(second) if len(second) == 4 else first // 100 * 100 + int(second)
        if first < last:
            return _out(shown, begin=f"{first:04d}", end=f"{last:04d}", kind="interval")
    if m := _SEASON_OF.fullmatch(low):
        return _out(shown, m[1], "gYear")
    if m := _BETWEEN.fullmatch(low):
        return _between(shown, m[1], m[2], anchor, tense)
    if _YEAR.fullmatch(low):
        return _out(shown, low, "gYear")
    relative = _relative(low, anchor, tense, ref)
    if relative is None and (m := _EMBEDDED.search(low)) and m.start() > 0:
        relative = _relative(low[m.start():], anchor, tense, ref)  # "landslides earlier this week"
    if relative is not None:
        return _out(shown, **relative)
    if _EMBEDDED.search(low):
        return _out(shown)  # a relative time in a longer phrase is not guessed at
    found = _absolute(_EARLIER_LEAD.sub("", low), anchor, tense)
    return _out(shown, *found) if found else _out(shown)


def _between(shown: str, first: str, last: str, anchor: date | None, tense: str | None) -> Time:
    """"between July 30, 2018 and August 25, 2018" (the first date may leave out the year)."""
    year = _YEAR_IN.search(last)
    a = _absolute(_clean(first), anchor, tense) if _YEAR_IN.search(first) or not year else \
        _absolute(f"{_clean(first)} {year[1]}", anchor, tense)
    b = _absolute(_clean(last), anchor, tense)
    if a and b and a[1] == b[1] and a[0] < b[0]:
        return _out(shown, begin=a[0], end=b[0], kind="interval")
    return _out(shown)


def _relative(low: str, anchor: date | None, tense: str | None, ref: Time | None) -> dict[str, str] | None:
    """Keyword arguments of ``_out`` for an expression relative to the article date or to ``ref``."""
    if ref is not None and (m := _AFTER_REF.fullmatch(low) or _NEXT_REF.fullmatch(low)):
        return _from_ref(m, ref)
    if anchor is None:
        return None
    if m := _EARLIER.fullmatch(low):
        first, last = _unit_span(anchor, m[2])
        if m[1] == "earlier":
            return _span(first, anchor - timedelta(days=1)) if first < anchor else None
        return _span(anchor + timedelta(days=1), last) if anchor < last else None
    low = _EARLIER_LEAD.sub("", low) if not _DEICTIC.fullmatch(low) else low  # "earlier Wednesday"
    if m := _WEEKDAY.fullmatch(low):
        wd = _WEEKDAYS[m[2]]
        if m[1] in ("next", "coming") or (tense == "future" and m[1] in (None, "this")):
            d = anchor + timedelta(days=1) + relativedelta(weekday=wd(+1))
        elif m[1] in ("last", "past"):
            d = anchor - timedelta(days=1) + relativedelta(weekday=wd(-1))
        else:
            d = anchor + relativedelta(weekday=wd(-1))
        return dict(zip(("value", "kind"), _day(d)))
    if m := _DEICTIC.fullmatch(low):
        word = m[1]
        shift = -1 if word.startswith(("yesterday", "last night")) else 1 if word.startswith("tomorrow") else 0
        shift = {"day before yesterday": -2, "day after tomorrow": 2}.get(word, shift)
        return dict(zip(("value", "kind"), _day(anchor + timedelta(days=shift))))
    if m := _UNIT.fullmatch(low):
        delta = {"last": -1, "past": -1, "previous": -1, "this": 0, "next": 1, "coming": 1}[m[1]]
        unit = m[2]
        if unit in ("week", "weekend"):
            first, last = _week(anchor + relativedelta(weeks=delta))
            return _span(last - timedelta(days=1) if unit == "weekend" else first, last)
        shifted = anchor + relativedelta(months=delta) if unit == "month" else anchor + relativedelta(years=delta)
        return {"value": shifted.strftime("%Y-%m"), "kind": "gYearMonth"} if unit == "month" else \
            {"value": f"{shifted.year:04d}", "kind": "gYear"}
    if m := _AGO.fullmatch(low):
        n = int(m[1]) if m[1].isdigit() else _NUMBERS.get(m[1])
        if n is None:
            return _span(*_week(anchor - timedelta(weeks=1))) if m[2] == "day" else None
        return _shifted(anchor, "day", m[2], -n)
    return None


def _unit_span(d: date, unit: str) -> tuple[date, date]:
    """The first and last day of the week, month or year of ``d``."""
    if unit == "week":
        return _week(d)
    if unit == "month":
        first = d.replace(day=1)
        return first, first + relativedelta(months=1, days=-1)
    return d.replace(month=1, day=1), d.replace(month=12, day=31)


def _shifted(d: date, granularity: str, unit: str, n: int) -> dict[str, str]:
    """``d`` moved by ``n`` units, at the coarser of its granularity and the unit's."""
    moved = d + relativedelta(**{f"{unit}s": n})
    if unit == "week" and granularity == "day" and abs(n) >= 1 and moved < d:
        return _span(*_week(moved))  # "two weeks ago": some day of that week
    if granularity == "year" or unit == "year":
        return {"value": f"{moved.year:04d}", "kind": "gYear"}
    if granularity == "month" or unit == "month":
        return {"value": moved.strftime("%Y-%m"), "kind": "gYearMonth"}
    return {"value": moved.isoformat(), "kind": "date"}


_GRANULARITY = {"date": "day", "gYearMonth": "month", "gYear": "year"}


def _from_ref(m: re.Match[str], ref: Time) -> dict[str, str] | None:
    """"two weeks later", "the following year", "the same day": counted from a time the text gave."""
    if ref.value is None or ref.datatype not in _GRANULARITY:
        return None
    granularity = _GRANULARITY[ref.datatype]
    parts = [int(p) for p in ref.value.split("-")] + [1, 1]
    base = date(parts[0], parts[1], parts[2])
    if m.re.pattern == _AFTER_REF.pattern:
        n = int(m[1]) if m[1].isdigit() else _NUMBERS.get(m[1])
        if n is None:
            return None
        n = -n if m[3] in ("earlier", "before") else n
        if granularity != "day" and m[2] in ("day", "week"):
            return None
        return {"value": (base + relativedelta(**{f"{m[2]}s": n})).isoformat(), "kind": "date"} \
            if granularity == "day" and m[2] != "year" else _shifted(base, granularity, m[2], n)
    which, unit = (m[1], m[2]) if m[1] else ("same", m[3])
    n = {"following": 1, "next": 1, "previous": -1, "preceding": -1, "same": 0}[which]
    order = ("day", "month", "year")
    if unit == "week" or order.index(unit) < order.index(granularity):
        return None  # "the following day" after "in 1999" is no day
    return _shifted(base, unit if unit != "day" else granularity, unit, n)
