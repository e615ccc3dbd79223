"""Find the parts of an article that are not story text: headline, dateline, trailing junk.

Cleaning never changes the length of the text: removed parts are overwritten with spaces
(newlines kept), so every character offset of the cleaned text is an offset of the original.
The headline is reported (``Cleaned.title``, ``Cleaned.headline``) but kept in the text: it is
parsed as a sentence of its own (a line never shares a sentence), and extraction reads only the
events it states and the body does not (``extract.events.reader.EventReader.headline_only``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_MONTH_NAME = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
               r"|Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept?\.?|Oct\.?|Nov\.?|Dec\.?)")
#: "TARNOW -", "TARNOW, Belavia (KNA) -", "LISBON, Mar. 3, 2019 -": a place, maybe a date, a dash.
_DATELINE = re.compile(
    r"^(?P<place>[A-Z][A-Z .'\-]{1,40}?(?:,\s*[A-Z][A-Za-z. ]{1,30})?)"
    r"(?:,\s*" + _MONTH_NAME + r"\s+\d{1,2}(?:,\s*\d{4})?)?"
    r"\s*(?:\([A-Za-z .]+\)\s*)?[-\u2013\u2014]{1,2}\s+"
)
_DATE_LINE = re.compile(
    r"^(?:(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),\s+)?"
    r"(?P<month>" + _MONTH_NAME + r")"
    r"\s+(?P<day>\d{1,2}),\s+(?P<year>\d{4})\s*$"
)
_MONTHS = {m: i for i, m in enumerate(
    "January February March April May June July August September October November December".split(), 1)}
_MONTHS.update({m[:3] + ".": i for m, i in list(_MONTHS.items())} | {"Sept.": 9})
_MONTHS.update({m.rstrip("."): i for m, i in list(_MONTHS.items())})  # "Feb 26, 2024"
_BYLINE = re.compile(
    r"^\s*By\s+(?:[A-Z][\w.'\-]+\s?){1,4}(?:(?:,|and)\s*(?:[A-Z][\w.'\-]+\s?){1,5})*\s*(?:[-\u2013\u2014|]\s*)?$"
    r"|^\s*By\s+(?:[A-Z][\w.'\-]+\s){1,3}(?=[A-Z]{2,})"
)
_BOILERPLATE = re.compile(
    r"^(?:copyright\b|\(c\)|\u00a9|all rights reserved|share this|follow us|click here|sign up|subscribe\b|"
    r"read more\b|related:|tags?:|advertisement$|this article was|reporting by|editing by|\(reporting by)",
    re.IGNORECASE,
)
_BACKTICK_APOSTROPHE = re.compile(r"(?<=[A-Za-z])`(?=[A-Za-z])")
_SENTENCE_END = re.compile(r"[.!?]['\"\u201d\u2019)\]]*\s*$")


@dataclass
class Cleaned:
    """The text to parse (same length as the original) and what was found around the story."""

    text: str
    title: str | None = None
    #: (start, end) of the headline line, kept in ``text``
    headline: tuple[int, int] | None = None
    date: str | None = None
    dateline: str | None = None
    removed: list[tuple[int, int, str]] = field(default_factory=list)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def _lines(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for line in text.split("\n"):
        spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def clean(text: str) -> Cleaned:
    """Blank out a date line, the dateline and trailing junk; report them and the headline."""
    # A grave accent between letters is an apostrophe ("can`t"): same length, so offsets hold.
    out = Cleaned(text=_BACKTICK_APOSTROPHE.sub("'", text))
    lines = [(s, e) for s, e in _lines(text) if text[s:e].strip()]
    if not lines:
        return out
    # A headline: a first line, not the only one, short and without final punctuation.
    s, e = lines[0]
    first = text[s:e].strip()
    if len(lines) > 1 and len(first) <= 200 and not _SENTENCE_END.search(first):
        out.title = first
        out.headline = (s, e)
        lines = lines[1:]
    # A date line ("Tuesday, March 4, 2014") right under the headline.
    if lines:
        s, e = lines[0]
        m = _DATE_LINE.match(text[s:e].strip())
        if m:
            out.date = f"{int(m['year']):04d}-{_MONTHS[m['month']]:02d}-{int(m['day']):02d}"
            out.text = _blank(out.text, s, e)
            out.removed.append((s, e, "date"))
            lines = lines[1:]
    # A byline ("By Jane Doe", "By JANE DOE, Harbor Wire Writer") above or opening the story.
    if lines:
        s, e = lines[0]
        m = _BYLINE.match(text[s:e])
        if m:
            end = s + m.end()
            whole = not text[end:e].strip()
            out.text = _blank(out.text, s, e if whole else end)
            out.removed.append((s, e if whole else end, "byline"))
            if whole:
                lines = lines[1:]
    # A dateline ("TARNOW - ") opening the story: the place is kept, the words are not parsed.
    if lines:
        s, e = lines[0]
        lead = len(text[s:e]) - len(text[s:e].lstrip())
        m = _DATELINE.match(text[s + lead:e])
        if m and m["place"].strip().isupper():
            out.dateline = m["place"].strip().title()
            out.text = _blank(out.text, s + lead, s + lead + m.end())
            out.removed.append((s + lead, s + lead + m.end(), "dateline"))
    # Trailing junk: boilerplate lines ("Copyright 2020 ...", "Share this article") and a last
    # line that is no sentence (a company name, a tag list).
    while len(lines) > 1:
        s, e = lines[-1]
        last = text[s:e].strip()
        words = last.split()
        boiler = _BOILERPLATE.match(last) is not None
        if not boiler and (_SENTENCE_END.search(last) or len(words) > 12 or last.endswith((":", ","))):
            break
        out.text = _blank(out.text, s, e)
        out.removed.append((s, e, "boilerplate" if boiler else "trailer"))
        lines = lines[:-1]
        if not boiler:
            break
    return out
