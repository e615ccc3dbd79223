"""Roles in time: when a post began and ended, and whether it is over, from what the article says
around it (after ``roles`` and ``careers`` have read the posts themselves; only adds to them).

* **terms**: "elected to a five-year term starting in 2005" (begins), "a term expiring September
  30, 2010" (ends);
* **served**: "served as deputy director in 1986 and 1987", "from 1994 to 1997" (begins and ends);
* **succession**: "will succeed Lee as director when Lee retires in January" (begins then);
* **appointment nouns**: "Lee's appointment as prime minister earlier this month" (begins then);
* **effective dates**: "Both will assume their new posts on March 5", "The appointments are
  effective April 7", "Lee assumed command of the fleet on May 2": the posts the article announces
  (the complement of "named", "selected", "will serve as", ...) begin then;
* **entry posts**: "joined Acme in 1989 as a test engineer", "began her career in 1990 as an
  analyst": a post a career began with is over when the article gives the person another one;
* **deaths**: every post of a person whose death the article reports is over;
* **successors**: of a post one person holds at a time ("President", "Prime Minister" of one country)
  that the article gives two people, the one named in a sentence dated before the article's year
  held it then ("rejected in 2021 by Prime Minister A" beside a present "Prime Minister B").

Times are normalised by ``timex`` against the article date.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from spacy.tokens import Doc, Span, Token

from ...model.facts import Role, Time
from ..entities.index import EntityIndex
from ..grammar.columns import kids
from ..grammar.labels import NOUN_SUBJECTS
from .timex import is_time_point, normalise

__all__ = ["Tenure"]

#: Verbs that give a person a post named as their complement ("was named director").
APPOINT_VERBS = frozenset("name appoint select nominate succeed replace elect promote choose tap designate".split())
#: Posts one person holds at a time (of one country, company or body).
ONE_HOLDER_POSTS = frozenset(("president", "prime minister", "premier", "chancellor", "king", "queen", "governor",
                              "mayor", "chief executive", "chief executive officer", "ceo", "chairman", "chairwoman",
                              "chairperson", "secretary-general", "pope"))
#: Words of a role that are no part of its post ("former", "then").
_NOT_POST_WORDS = frozenset("former then new current incumbent".split())
#: Verbs that begin a career with a first post ("joined Acme as an engineer").
_ENTRY_VERBS = frozenset("join begin start".split())
#: Role words of having founded a body.
_FOUNDING = frozenset({"founder", "co-founder", "cofounder"})
#: Nouns for taking up a post ("his appointment as prime minister").
_APPOINTMENT_NOUNS = frozenset("appointment election nomination selection promotion swearing-in inauguration".split())
#: Objects of "assume", "take up", "take over" that are a post ("assume their new responsibilities").
_POST_NOUNS = frozenset("""responsibility responsibilities duty duties post posts position positions office command
helm role roles job jobs reins""".split())
_TERM_NOUNS = frozenset(("term", "tenure", "mandate"))
_BEGIN_VERBS = frozenset("start begin commence".split())
_END_VERBS = frozenset("expire end".split())
_SERVE_VERBS = frozenset("serve work be hold".split())
_DATE_LABELS = ("DATE", "TIME")
_YEAR_PAIR = re.compile(r"^(?:in |from |between )?((?:1[89]|20)\d\d)\s*(?:and|to|through|until|-|–)\s*((?:1[89]|20)\d\d)$")


class Tenure:
    """Begins, ends and former posts of one article's roles (see the module docstring)."""

    def __init__(self, doc: Doc, index: EntityIndex, anchor: date | None, dates: list[Span]) -> None:
        self.doc = doc
        self.index = index
        self.anchor = anchor
        self.dates = dates

    def roles(self, roles: list[Role]) -> list[Role]:
        """The roles with the begins and ends their sentences and the article give."""
        out = [self._in_sentence(r) for r in roles]
        out = self._appointments(self._effective(out))
        return self._superseded(self._deaths(self._entry_posts(out)))

    # ----- one sentence ----------------------------------------------------------------------
    def _in_sentence(self, ro: Role) -> Role:
        if ro.since is not None and ro.until is not None:
            return ro
        span = self.doc.char_span(ro.evidence.start, ro.evidence.end, alignment_mode="expand")
        if span is None:
            return ro
        dates = [e for e in self.dates if span.start <= e.start < span.end]
        if not dates:
            return ro
        mention = self._mentions(span, ro.person)
        if not mention:
            return ro
        noun = self._role_token(span, ro, mention)
        since, until = ro.since, ro.until
        for ent in dates:
            root = ent.root
            governor = _governor(root)
            if governor is None:
                continue
            low = governor.lemma_.lower()
            # "a five-year term starting in 2005", "a term expiring September 30, 2010"
            if governor.tag_ in ("VBG", "VBN") and low in _BEGIN_VERBS | _END_VERBS and (
                    governor.head.lemma_.lower() in _TERM_NOUNS
                    or any(t.lemma_.lower() in _TERM_NOUNS for t in self.doc[span.start:governor.i])):
                if low in _BEGIN_VERBS and since is None:
                    since = self._time(ent, governor)
                elif low in _END_VERBS and until is None:
                    until = self._time(ent, governor)
                continue
            # "served as deputy director in 1986 and 1987"
            if low in _SERVE_VERBS and governor.tag_ == "VBD" and _subject_in(governor, mention) \
                    and noun is not None and noun in governor.subtree and since is None and until is None:
                since, until = self._years_served(ent, dates)
                continue
            # "will succeed Lee as director when Lee retires in January"
            if governor.dep_ == "advcl" and any(c.lower_ == "when" for c in kids(governor)) and since is None:
                head = governor.head
                if head.lemma_.lower() in ("succeed", "replace") and _subject_in(head, mention):
                    since = self._time(ent, head)
                continue
        if (since, until) == (ro.since, ro.until):
            return ro
        former = ro.former or (until is not None and self._before_article(until))
        return replace(ro, since=since, until=until, former=former)

    def _mentions(self, span: Span, person: str) -> set[int]:
        """Token indices of the person's mentions in a sentence, by name or by a pronoun."""
        return {t.i for t in span if self.index.named_key(t) == person
                or (t.pos_ == "PRON" and self.index.resolve(t) == person)}

    def _years_served(self, ent: Span, dates: list[Span]) -> tuple[Time | None, Time | None]:
        """ "in 1986 and 1987", "from 1994 to 1997" (one date span or two): the first and last year."""
        text = " ".join(ent.text.lower().split())
        nxt = next((e for e in dates if e.start == ent.end + 1 and self.doc[ent.end].lower_ in ("and", "to")), None)
        if nxt is not None:
            text = f"{text} {self.doc[ent.end].lower_} {nxt.text.lower()}"  # "in 1986" "and" "1987"
        pair = _YEAR_PAIR.match(text)
        return (normalise(pair[1], self.anchor), normalise(pair[2], self.anchor)) if pair else (None, None)

    def _role_token(self, span: Span, ro: Role, mention: set[int] | None = None) -> Token | None:
        """The head noun of the role in its sentence (its last word): where the role is written as
        the role says (its case), else the one nearest a mention of the person."""
        words = ro.role.split()
        if not words:
            return None
        last = words[-1].lower()
        found = [t for t in span if t.lower_ == last or t.lemma_.lower() == last]
        if not found:
            return None
        exact = [t for t in found if t.i - len(words) + 1 >= span.start
                 and self.doc[t.i - len(words) + 1:t.i + 1].text == ro.role]
        mention = mention if mention is not None else self._mentions(span, ro.person)
        return min(exact or found, key=lambda t: min((abs(t.i - m) for m in mention), default=0))

    def _time(self, ent: Span, verb: Token) -> Time | None:
        if not is_time_point(ent.text):
            return None
        aux = [c.lower_ for c in kids(verb) if c.dep_ in ("aux", "auxpass")]
        tense = "future" if any(a in ("will", "shall") for a in aux) else "past" if verb.tag_ == "VBD" else None
        return normalise(ent.text, self.anchor, tense=tense)

    def _before_article(self, t: Time) -> bool:
        value = t.value or t.end or ""
        return bool(self.anchor and value[:4].isdigit() and int(value[:4]) < self.anchor.year)

    # ----- the article -----------------------------------------------------------------------
    def _effective(self, roles: list[Role]) -> list[Role]:
        """Posts announced in the article begin on the date a later sentence makes them effective."""
        out = list(roles)
        for ent in self.dates:
            taker = self._effective_subject(ent)
            if taker is None:
                continue
            who, verb = taker
            when = self._time(ent, verb)
            if when is None or when.value is None:
                continue
            for j, ro in enumerate(out):
                if ro.since is not None or ro.former or (who is None and ro.evidence.start > ent.start_char):
                    continue
                if who is not None and ro.person != who:
                    continue
                if who is None and not self._announced(ro):
                    continue
                if who is not None and not (self._announced(ro) or _org_named_near(self.index, verb, ro.org)):
                    continue
                out[j] = replace(ro, since=when)
        return out

    def _effective_subject(self, ent: Span) -> tuple[str | None, Token] | None:
        """For a date that makes posts effective, the one person it is said of (None: all the
        article announces, "both", "the appointments") and the verb; None if it makes none."""
        root = ent.root
        prev = self.doc[ent.start - 1] if ent.start else None
        verb = _governor(root)
        if prev is not None and prev.lower_ == "effective":
            verb = _governor(prev) or verb
        elif verb is None or verb.lemma_.lower() not in ("assume", "take", "begin", "start") or not any(
                c.dep_ in ("dobj", "prt") and c.lemma_.lower() in _POST_NOUNS | {"over", "up"} for c in kids(verb)):
            return None
        if verb is None:
            return None
        subject = next((c for c in kids(verb) if c.dep_ in NOUN_SUBJECTS), None)
        if subject is None:
            return None
        key = self.index.named_key(subject)
        if key is not None and key.startswith("Person:"):
            return key, verb
        return None, verb

    def _announced(self, ro: Role) -> bool:
        """Whether the role is the post an appointment verb gives ("was named director", "will
        serve as acting administrator"), not the title the person had before it."""
        found = self._verb_over(ro)
        if found is None:
            return False
        verb, below = found
        low = verb.lemma_.lower()
        future_serve = low == "serve" and any(c.lower_ in ("will", "shall") for c in kids(verb))
        return (low in APPOINT_VERBS or future_serve) and below.dep_ not in NOUN_SUBJECTS

    def _verb_over(self, ro: Role) -> tuple[Token, Token] | None:
        """The verb a role's noun hangs under (within six steps up the parse), and the word below it that
        leads there."""
        span = self.doc.char_span(ro.evidence.start, ro.evidence.end, alignment_mode="expand")
        noun = self._role_token(span, ro) if span is not None else None
        return _governor_and_below(noun) if noun is not None else None

    def _appointments(self, roles: list[Role]) -> list[Role]:
        """"Lee's appointment as prime minister earlier this month": Lee's post as prime minister
        began then (the sentence need not be the one the role was read from)."""
        out = list(roles)
        for ent in self.dates:
            governor = _governor(ent.root)
            noun = _appointment_noun(ent.root, governor) if governor is not None else None
            if noun is None or governor is None:
                continue
            owner = next((c for c in kids(noun) if c.dep_ == "poss"), None)
            person = self.index.resolve(owner) if owner is not None else None
            post = " ".join(p.lower_ for c in kids(noun) if c.dep_ == "prep" and c.lower_ == "as"
                            for p in kids(c) if p.dep_ == "pobj")
            if person is None or not post:
                continue
            when = self._time(ent, governor)
            for j, ro in enumerate(out):
                if ro.person == person and ro.since is None and ro.role.lower().split()[-1] == post.split()[-1]:
                    out[j] = replace(ro, since=when)
        return out

    def _deaths(self, roles: list[Role]) -> list[Role]:
        """Every post of a person whose death the article reports ("Lee died on Monday", "Lee's
        death") is over, but one the article announces for the future, and a founding: "the co-founder of
        Acme" stays its founder."""
        dead = self._dead()
        if not dead:
            return roles
        return [replace(r, former=True) if r.person in dead and not r.former and not self._announced(r)
                and not _founding(r.role) else r for r in roles]

    def _dead(self) -> set[str]:
        """The people the article says died: the subject of "died"/"dies", the owner of "death"."""
        out: set[str] = set()
        for t in self.doc:
            who: Token | None = None
            if t.lemma_.lower() == "die" and t.pos_ == "VERB" and t.tag_ in ("VBD", "VBZ") and not any(
                    c.dep_ in ("aux", "neg") for c in kids(t)):
                who = next((c for c in kids(t) if c.dep_ == "nsubj"), None)
            elif t.lower_ == "death":
                who = next((c for c in kids(t) if c.dep_ == "poss"), None)
            key = self.index.resolve(who) if who is not None else None
            if key is not None and key.startswith("Person:"):
                out.add(key)
        return out

    def _entry_posts(self, roles: list[Role]) -> list[Role]:
        """A first post ("joined Acme in 1989 as an engineer") is over when the person has another;
        a post begun in a year is over when a post the text gives only an end for ended after it
        ("appointed director in 2014 ... later served as head of the agency until 2017"); not when
        the other post has a span of its own, which may have been held alongside."""
        out = list(roles)
        for j, ro in enumerate(out):
            if ro.former or ro.since is None or ro.until is not None or not self._before_article(ro.since):
                continue
            begun = _year(ro.since)
            others = [o for o in out if o.person == ro.person and o.role.lower() != ro.role.lower()
                      and (o.since is None or _year(o.since) != begun)]
            if (any(not o.former for o in others) and self._entry(ro)) or any(
                    o.since is None and o.until is not None and begun is not None and (_year(o.until) or 0) > begun
                    for o in others):
                out[j] = replace(ro, former=True)
        return out

    def _superseded(self, roles: list[Role]) -> list[Role]:
        """Of a one-holder post two people hold in the article, the one named in a sentence dated before the
        article's year held it then, when another is named in no such sentence."""
        if self.anchor is None:
            return roles
        keyed = [(r, (r.org, post) if (post := _one_holder_post(r.role)) is not None else None) for r in roles]
        people: dict[tuple[str, str], set[str]] = {}
        dated: dict[tuple[str, str], set[str]] = {}
        for r, key in keyed:
            if key is not None:
                people.setdefault(key, set()).add(r.person)
                if self._dated_before(r):
                    dated.setdefault(key, set()).add(r.person)
        earlier = {(p, key) for key, held in people.items() if len(held) > 1 and held - dated.get(key, set())
                   for p in dated.get(key, ())}
        return [replace(r, former=True) if key is not None and (r.person, key) in earlier else r for r, key in keyed]

    def _dated_before(self, ro: Role) -> bool:
        """Whether a role's sentence names a year before the article's and none after."""
        years = [int(y) for y in re.findall(r"\b(1[89]\d\d|20\d\d)\b", ro.evidence.text)]
        return bool(years) and self.anchor is not None and max(years) < self.anchor.year

    def _entry(self, ro: Role) -> bool:
        """Whether the role is a post entered in the past ("joined Acme in 1989 as an engineer")."""
        found = self._verb_over(ro)
        return found is not None and found[0].lemma_.lower() in _ENTRY_VERBS and found[0].tag_ == "VBD"


def _one_holder_post(role: str) -> str | None:
    """The post a role names when one person holds it at a time, in a fixed spelling."""
    words = [w for w in role.lower().split() if w not in _NOT_POST_WORDS]
    post = " ".join(words)
    return post if post in ONE_HOLDER_POSTS else None


def _year(t: Time) -> int | None:
    value = t.value or t.begin or ""
    return int(value[:4]) if value[:4].isdigit() else None


def _governor(tok: Token) -> Token | None:
    """The verb a date phrase hangs on, through prepositions and nouns (None within 6 steps)."""
    found = _governor_and_below(tok)
    return found[0] if found is not None else None


def _governor_and_below(tok: Token) -> tuple[Token, Token] | None:
    """The verb a word hangs under (within six steps up the parse), and the word below it that leads there."""
    t = tok
    for _ in range(6):
        h = t.head
        if h.i == t.i:
            return None
        if h.pos_ in ("VERB", "AUX"):
            return h, t
        t = h
    return None


def _subject_in(verb: Token, mention: set[int]) -> bool:
    return any(c.dep_ in NOUN_SUBJECTS and c.i in mention for c in kids(verb)) or (
        verb.dep_ in ("relcl", "acl") and verb.head.i in mention)


def _appointment_noun(root: Token, governor: Token) -> Token | None:
    """ "Lee's appointment as premier earlier this month came ...": the appointment noun the date
    dates (the date on the noun, or on the verb whose subject the noun is)."""
    t = root
    for _ in range(4):
        if t.lemma_.lower() in _APPOINTMENT_NOUNS:
            return t
        if t.head.i == t.i:
            break
        t = t.head
    return next((c for c in kids(governor) if c.dep_ == "nsubj" and c.lemma_.lower() in _APPOINTMENT_NOUNS), None)


def _org_named_near(index: EntityIndex, verb: Token, org: str) -> bool:
    """ "assumed command of the fleet": the organization named in the verb's object."""
    return any(index.named_key(t) == org for t in verb.subtree)


def _founding(role: str) -> bool:
    """ "founder", "co-founder": having founded a body is no post that ends."""
    return role.lower().split()[-1] in _FOUNDING
