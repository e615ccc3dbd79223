"""Date expressions -> calendar values, against the article's date (pure Python, no spaCy).

``normalise(text, anchor)`` reads what spaCy tags DATE ("Saturday", "on Sunday", "last week",
"in 2015", "yesterday", "March 3", "Tuesday, March 4, 2014") and returns a ``facts.Time``:

* the text as written, always (``kg:timeText``);
* a value when the expression fixes one: a day (``xsd:date``), a month (``xsd:gYearMonth``),
  a year (``xsd:gYear``), or for a week or a decade the first and last day it can be
  (``interval``: ``sem:hasEarliestBeginTimeStamp`` / ``sem:hasLatestEndTimeStamp``).

Relative expressions need the anchor (``Article.date``, ISO ``yyyy-mm-dd``); without one only
absolute ones ("March 4, 2014", "2014") get a value. The conventions (news style):

* a weekday name is the most recent such day on or before the article date ("Saturday" in a
  Saturday article is that day); "next Friday" is the first one after it;
* "yesterday", "today" (also "tonight", "this morning"), "tomorrow": the day before, of, after;
* "last week" / "this week" / "next week": the calendar week (Monday to Sunday) before, of or
  after the article's, as an interval (an event "last week" happened some day in it);
* "last month", "this month", "earlier this month", "last year", "this year": a gYearMonth or gYear;
* "N days ago" a day, "N weeks ago" the week N weeks back, "N months/years ago" a month/year;
* a month and day without a year ("March 3") take the article's year, or the year before if that
  would put them more than 183 days after the article date; a month alone ("in August") likewise;
* "the 1990s" an interval over the decade (also without an anchor).

Anything else keeps its text and no value. Durations ("five days", "decades") are not times:
``is_time_point`` tells the two apart so that they are not attached to events at all.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from ...model.facts import Time

__all__ = ["normalise", "is_time_point", "parse_iso"]

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "several": None, "few": None, "a few": None,
}
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY_RE = "|".join(_WEEKDAYS)
_NUM_RE = r"\d{1,2}|" + "|".join(sorted((k for k in _NUMBERS if " " not in k), key=len, reverse=True))

# All patterns are compiled once, at import, and matched against a lowercased, trimmed text.
_LEAD = re.compile(r"^(?:(?:on|in|at|during|by|of|since|from|until|till|around|about|early|late|mid|the|"
                   r"earlier|later)\s+|mid-)+")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MDY = re.compile(rf"(?:(?:{_DAY_RE}),?\s+)?({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?")
_DMY = re.compile(rf"(?:(?:{_DAY_RE}),?\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\.?(?:,?\s+(\d{{4}}))?")
_MY = re.compile(rf"({_MONTH_RE})\.?(?:,?\s+(?:of\s+)?(\d{{4}}))?")
_YEAR = re.compile(r"(1[0-9]{3}|2[0-9]{3})")
_DECADE = re.compile(r"(1[0-9]{2}|2[0-9]{2})0s")
_WEEKDAY = re.compile(rf"(last|next|this|past|coming)?\s*({_DAY_RE})(?:\s+(?:morning|afternoon|evening|night))?")
_DEICTIC = re.compile(r"(yesterday|today|tonight|tomorrow|this (?:morning|afternoon|evening)|last night|"
                      r"day before yesterday|day after tomorrow)")
_UNIT = re.compile(r"(last|this|next|past|previous|coming)\s+(week|month|year|weekend)")
_EARLIER = re.compile(r"(?:earlier|later)\s+this\s+(week|month|year)")
_AGO = re.compile(rf"({_NUM_RE})\s+(day|week|month|year)s?\s+ago")
_POINT_WORDS = re.compile(
    rf"\b(?:{_MONTH_RE}|{_DAY_RE}|yesterday|today|tonight|tomorrow|ago|last|this|next|previous|past|coming|"
    r"earlier|later|weekend)\b|\b(?:1[0-9]|2[0-9])[0-9]{2}s?\b"
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
    return bool(_POINT_WORDS.search(text.lower()))


def _clean(text: str) -> str:
    low = " ".join(text.lower().replace("\u2019", "'").split())
    low = re.sub(r"'s$", "", low).strip(" ,.")
    return _LEAD.sub("", low).strip()


def _day(d: date) -> tuple[str, str]:
    return d.isoformat(), "date"


def _week(d: date) -> tuple[str, str, str]:
    monday = d - timedelta(days=d.weekday())
    return monday.isoformat(), (monday + timedelta(days=6)).isoformat(), "interval"


def _month_shift(year: int, month: int, delta: int) -> tuple[int, int]:
    n = year * 12 + (month - 1) + delta
    return n // 12, n % 12 + 1


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _year_for(month: int, day: int, anchor: date) -> int:
    """The article's year, or the one before if that puts the date over half a year ahead."""
    d = _safe_date(anchor.year, month, min(day, 28 if month == 2 else day))
    if d is not None and (d - anchor).days > 183:
        return anchor.year - 1
    return anchor.year


def normalise(text: str, anchor: date | None = None) -> Time:  # noqa: C901 (26): one branch per form of date expression
    """The calendar value of a date expression (see the module docstring); text kept always."""
    shown = " ".join(text.split())
    low = _clean(text)

    def out(value: str | None = None, kind: str | None = None, begin: str | None = None, end: str | None = None) -> Time:
        return Time(text=shown, value=value, datatype=kind, begin=begin, end=end)

    if m := _ISO.fullmatch(low):
        d = _safe_date(int(m[1]), int(m[2]), int(m[3]))
        return out(*_day(d)) if d else out()
    for rx, month_group, day_group in ((_MDY, 1, 2), (_DMY, 2, 1)):
        m = rx.fullmatch(low)
        if m:
            month, day = _MONTHS[m[month_group]], int(m[day_group])
            if m[3]:
                year = int(m[3])
            elif anchor is not None:
                year = _year_for(month, day, anchor)
            else:
                return out()
            d = _safe_date(year, month, day)
            return out(*_day(d)) if d else out()
    if m := _MY.fullmatch(low):
        month = _MONTHS[m[1]]
        if m[2]:
            return out(f"{int(m[2]):04d}-{month:02d}", "gYearMonth")
        if anchor is None:
            return out()
        return out(f"{_year_for(month, 1, anchor):04d}-{month:02d}", "gYearMonth")
    if m := _YEAR.fullmatch(low):
        return out(m[1], "gYear")
    if m := _DECADE.fullmatch(low):
        start = int(m[1]) * 10
        return out(begin=f"{start:04d}-01-01", end=f"{start + 9:04d}-12-31", kind="interval")
    if anchor is None:
        return out()
    if m := _WEEKDAY.fullmatch(low):
        want = _WEEKDAYS[m[2]]
        if m[1] in ("next", "coming"):
            ahead = (want - anchor.weekday()) % 7 or 7
            return out(*_day(anchor + timedelta(days=ahead)))
        back = (anchor.weekday() - want) % 7
        if m[1] in ("last", "past") and back == 0:
            back = 7
        return out(*_day(anchor - timedelta(days=back)))
    if m := _DEICTIC.fullmatch(low):
        word = m[1]
        shift = {"yesterday": -1, "last night": -1, "day before yesterday": -2, "tomorrow": 1,
                 "day after tomorrow": 2}.get(word, 0)
        return out(*_day(anchor + timedelta(days=shift)))
    if m := _UNIT.fullmatch(low) or _EARLIER.fullmatch(low):
        which, unit = (m[1], m[2]) if m.re is _UNIT else ("this", m[1])
        delta = {"last": -1, "past": -1, "previous": -1, "this": 0, "next": 1, "coming": 1}[which]
        if unit in ("week", "weekend"):
            b, e, kind = _week(anchor + timedelta(weeks=delta))
            if unit == "weekend":
                b = (date.fromisoformat(e) - timedelta(days=1)).isoformat()
            return out(begin=b, end=e, kind=kind)
        if unit == "month":
            y, mo = _month_shift(anchor.year, anchor.month, delta)
            return out(f"{y:04d}-{mo:02d}", "gYearMonth")
        return out(f"{anchor.year + delta:04d}", "gYear")
    if m := _AGO.fullmatch(low):
        n = int(m[1]) if m[1].isdigit() else _NUMBERS.get(m[1])
        if n is None:
            return out()
        unit = m[2]
        if unit == "day":
            return out(*_day(anchor - timedelta(days=n)))
        if unit == "week":
            b, e, kind = _week(anchor - timedelta(weeks=n))
            return out(begin=b, end=e, kind=kind)
        if unit == "month":
            y, mo = _month_shift(anchor.year, anchor.month, -n)
            return out(f"{y:04d}-{mo:02d}", "gYearMonth")
        return out(f"{anchor.year - n:04d}", "gYear")
    return out()
