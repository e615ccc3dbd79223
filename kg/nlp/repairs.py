"""General repairs of the small model's named entities, applied right after its NER.

Each rule is about English, not about an article: scriptures and religions are not places
or organizations; a department word before "Minister" is part of the title; a place name
followed by "police" or "ministry" is an organization; a name followed by "town", or after
"the town of", is a place.
"""
from __future__ import annotations

import re

from spacy.strings import get_string_id
from spacy.tokens import Doc, Span, Token
from spacy.util import filter_spans

from .name_types import NAME_LABELS, type_names
from .words import known_word
from ..extract.grammar.labels import NOUN_SUBJECTS
from .lexicon import (
    ACRONYM_SMALL_WORDS,
    TITLE_ONLY_NOUNS,
    COMMUNICATION_VERBS,
    COMPANY_NAME_ENDINGS,
    DEMONYMS,
    DEPARTMENT_WORDS,
    ETHNIC_ADJECTIVES,
    PARTY_ADJECTIVES,
    PERSON_NOUNS,
    RELIGIOUS_ADJECTIVES,
    ORG_HEADS,
    ORGANIZATION_NOUNS,
    PLACE_ALIASES,
    RANKS,
    RELIGIONS,
    ROLE_MODIFIERS,
    ROLE_NOUNS,
    SCRIPTURES,
)

_PLACE_NOUNS = frozenset("town city village province district region county state capital island port".split())
_KEEP = frozenset("PERSON ORG GPE LOC NORP FAC".split())
#: Names of countries and regions the lexicon knows ("Norway", "United Kingdom").
_COUNTRY_NAMES = frozenset((*DEMONYMS.values(), *PLACE_ALIASES.values()))


def repair_entities(doc: Doc) -> Doc:  # noqa: C901 (23): a chain of NER repairs, one branch each
    """Return ``doc`` with its entity spans repaired in place."""
    ents: list[Span] = []
    #: name -> the labels the text itself gives it somewhere ("the town of X": a place)
    evidence: dict[tuple[str, ...], set[str]] = {}
    for ent in map(_without_edge_punct, doc.ents):
        if ent is None or any(t.dep_ == "ROOT" and t.pos_ in ("VERB", "AUX") for t in ent):
            continue  # "Roe co-founded the Harbor Trust" taken for one law's name: a clause, no name
        low = ent.text.lower().strip()
        if ent.label_ == "WORK_OF_ART" and _speaks(ent):
            ents.append(Span(doc, ent.start, ent.end, label="PERSON"))  # '"...," Ann Lee told reporters'
            continue
        if ent.label_ not in _KEEP:
            ents.append(_body_after_title(doc, ent) or ent)
            continue
        if low in SCRIPTURES or low in RELIGIONS:
            continue
        nxt = doc[ent.end] if ent.end < len(doc) else None
        if (ent.label_ == "ORG" and all(t.lower_ in DEPARTMENT_WORDS or t.lower_ in ROLE_MODIFIERS for t in ent)
                and nxt is not None and nxt.lower_ in ROLE_NOUNS):
            continue  # "Defense" in "Defense Minister", "Shadow Transport" in "Shadow Transport Secretary"
        prev = doc[ent.start - 1] if ent.start > 0 else None
        if (ent.label_ == "GPE" and prev is not None and prev.ent_type_ == "" and prev.text.istitle()
                and prev.lower_ in DEPARTMENT_WORDS and nxt is not None and nxt.lower_ in ROLE_NOUNS):
            ents.append(Span(doc, prev.i, ent.end, label="ORG"))  # "Health Belavia spokesperson"
            continue
        if ent.label_ in ("ORG", "PERSON", "GPE") and (
                (nxt is not None and nxt.lower_ in _PLACE_NOUNS)
                or (ent.start >= 2 and doc[ent.start - 1].lower_ == "of" and doc[ent.start - 2].lower_ in _PLACE_NOUNS)):
            evidence.setdefault(_words(ent), set()).add("GPE")  # "Tarnow town", "the town of Tarnow"
            if ent.label_ != "GPE":
                ents.append(Span(doc, ent.start, ent.end, label="GPE"))
                continue
        if ent.label_ == "PERSON" and ((len(ent) > 1 and ent[-1].lower_ in _BUSINESS_WORDS and ent[-1].is_title)
                                       or _named_by_a_body_noun(doc, ent) or _bracketed_after_a_person(doc, ent)
                                       or _team_before_a_person(doc, ent)):
            evidence.setdefault(_words(ent), set()).add("ORG")
            ents.append(Span(doc, ent.start, ent.end, label="ORG"))  # "Orvane Mining said", "Harlow United": a body
            continue
        if ent.label_ == "PERSON" and len(ent) == 1 and _role_word(ent[0]) and nxt is not None \
                and nxt.lower_ in ("of", "for", "at"):
            continue  # "was appointed Dean of the Law School", "X, Nominee for ...": a title, no name
        if (ent.label_ == "ORG" and len(ent) > 1 and ent[-1].lower_ in ROLE_NOUNS and ent[-2].lower_ != "of"
                and not (ent[-1].lower_ in ORG_HEADS | _NAME_ENDINGS and ent[-1].is_title)):
            # "the Treasury Department Spokesperson": the body is an organization, the last word a role
            # ("the Harbour Guard", "the Centre for Open Justice" are bodies whole).
            start = ent.start + (1 if ent[0].lower_ == "the" else 0)
            if ent.end - 1 > start:
                ents.append(Span(doc, start, ent.end - 1, label="ORG"))
            continue
        if ent.label_ in ("ORG", "GPE") and (_described_as_person(doc, ent) or _says_he(ent)):
            evidence.setdefault(_words(ent), set()).add("PERSON")
            ents.append(Span(doc, ent.start, ent.end, label="PERSON"))
            continue
        if ent.label_ == "PERSON" and nxt is not None and nxt.lower_ in _PARTY_HEADS and nxt.pos_ in ("NOUN", "PROPN"):
            evidence.setdefault(_words(ent), set()).add("ORG")  # "the ruling Velmora party": no person
            ents.append(Span(doc, ent.start, ent.end + 1, label="ORG"))
            continue
        if ent.label_ in ("GPE", "LOC") and len(ent) > 1 and ent[-1].lower_ in _INSTITUTION_WORDS and ent[-1].is_title:
            ents.append(Span(doc, ent.start, ent.end, label="ORG"))  # "St. Anne's Hospital": no place
            continue
        if ent.label_ in ("GPE", "NORP", "LOC", "ORG"):
            end = ent.end
            while (end < len(doc) and doc[end].lower_ in ORG_HEADS and doc[end].pos_ in ("NOUN", "PROPN")
                   and not (doc[end].is_lower and _role_word(doc[end]))):
                end += 1  # "Velmora Harbour Guard" is a body; in "the Comets guard Ann Lee" the word is her post
            if end == ent.end:
                end = _named_body_end(doc, ent.end)  # "Belavia Appeals Tribunal": a body of the place
            if end > ent.end:
                ents.append(Span(doc, ent.start, end, label="ORG"))
                continue
        if ent.label_ == "ORG":
            if len(ent) > 1 and ent[-1].lower_ in _PARTY_HEADS:
                evidence.setdefault(_words(ent[:-1]), set()).add("ORG")  # "the X party" names the body X
            ents.extend(e for part in _split_coordinated(doc, _before_a_place_phrase(doc, ent))
                        for lead in _split_member_of(doc, part) for e in _split_trailing_person(doc, lead))
            continue
        ents.append(ent)
    ents = [e for ent in ents for e in ([s for p in _without_title(doc, ent) for s in _split_person_of(doc, p)]
                                        if ent.label_ == "PERSON" else [ent])]
    ents = filter_spans([_with_first_names(doc, e) if e.label_ == "PERSON"
                         else _as_party(doc, _with_name_words(doc, e)) if e.label_ == "NORP"
                         else _with_acronym(doc, _with_of_phrase(doc, _with_joined_words(doc, _with_name_words(doc, e))))
                         if e.label_ == "ORG" else e
                         for e in ents])
    ents = _with_nicknames(doc, _consistent(doc, ents, evidence))
    surnames = {s for e in ents if e.label_ == "PERSON" for s in _surnames(e)}
    ents = [Span(doc, e.start, e.end, label="PERSON") if _words(e) in surnames else e for e in ents]
    ents = filter_spans(ents + _propagated_names(doc, ents, surnames))
    shorts = _short_org_names(doc, ents)
    taken = {i for e in shorts for i in range(e.start, e.end)}
    ents = filter_spans([e for e in ents if not taken.intersection(range(e.start, e.end))] + shorts)
    doc.ents = type_names(doc, filter_spans(ents + _missed_names(doc, ents)))
    return doc


def _with_nicknames(doc: Doc, ents: list[Span]) -> list[Span]:
    """ "Ivo (Ike) Tugo": a first name, a nickname in brackets and a surname are one person's name (the
    model tags the first two apart and misses the surname)."""
    out = list(ents)
    for e in ents:
        i = e.end
        if e.label_ != "PERSON" or len(e) > 2 or i + 3 >= len(doc) or doc[i].text != "(" or doc[i + 2].text != ")":
            continue
        nick, last = doc[i + 1], doc[i + 3]
        if not (nick.is_title and last.is_title and last.pos_ == "PROPN" and last.ent_type_ in ("", "PERSON")):
            continue
        end = i + 4
        while end < len(doc) and doc[end].is_title and doc[end].pos_ == "PROPN" and doc[end].ent_type_ in ("", "PERSON") \
                and end - i < 5:
            end += 1
        out = [x for x in out if not (x.start < end and x.end > e.start)] + [Span(doc, e.start, end, label="PERSON")]
    return out


def _surnames(ent: Span) -> list[tuple[str, ...]]:
    """The last word of a person's name of two words or more, as its tokens: ("Okafor",) of
    "Daniel Okafor", ("Dunmore", "-", "Price") of "Mark Dunmore-Price"; none for one word. A
    surname with a lowercase particle is also its name without it: "Awad" of "Samir al-Awad"."""
    start = ent.end - 1
    while start > ent.start and not ent.doc[start - 1].whitespace_:
        start -= 1
    if start == ent.start:
        return []
    words = tuple(t.text for t in ent.doc[start:ent.end])
    if len(words) > 2 and words[0].islower() and words[1] == "-" and words[2][:1].isupper():
        return [words, words[2:]]
    return [words]


def _words(span: Span) -> tuple[str, ...]:
    return tuple(t.text for t in span)


#: Labels a name may be given wrongly, where the text elsewhere shows which it is.
_NAME_LABELS = frozenset(("PERSON", "ORG", "GPE"))


def _consistent(doc: Doc, ents: list[Span], evidence: dict[tuple[str, ...], set[str]]) -> list[Span]:
    """One name, one label: where the text shows what a name is ("the town of X", "the X party",
    "X, 41,"), its other mentions that the model labelled otherwise take that label."""
    sure = {words: next(iter(labels)) for words, labels in evidence.items() if len(labels) == 1}
    if not sure:
        return ents
    return [Span(doc, e.start, e.end, label=sure[w]) if e.label_ in _NAME_LABELS and (w := _words(e)) in sure
            and e.label_ != sure[w] else e for e in ents]


#: Nouns after a name that make it a political or armed body, never a person ("the X party").
_PARTY_HEADS = frozenset("party movement front militia".split())


def _as_party(doc: Doc, ent: Span) -> Span:
    """ "the Harlow Democrats", "the Velmark Greens": a party named by the plural of its members, with "the"
    and a word before the plural, is an organization (a bare "Democrats" is its members)."""
    last = ent[-1]
    party = (len(ent) > 1 and last.tag_ == "NNPS" and last.lower_.rstrip("s") in PARTY_ADJECTIVES | {"democrat"}
             and ent.start > 0 and doc[ent.start - 1].lower_ == "the")
    return Span(doc, ent.start, ent.end, label="ORG") if party else ent


def _without_title(doc: Doc, ent: Span) -> list[Span]:
    """ "Senior Harbour Agent Vera Hill", "Assistant State Attorneys Lee Park": a title the model
    took into a person's name is no part of it; the name is what follows its last role word
    (two words at least). A country named in the title stays a place."""
    last = None
    for i in range(ent.start, ent.end - 2):
        t = doc[i]
        if _role_word(t) or t.lower_ in RANKS:
            last = i
    if last is None or not all(t.text[:1].isupper() for t in doc[ent.start:last + 1]):
        return [ent]
    out = [Span(doc, last + 1, ent.end, label="PERSON")]
    words = [t for t in doc[ent.start:last + 1] if not (_role_word(t) or t.lower_ in RANKS or t.lower_ in ROLE_MODIFIERS)]
    if words and words[-1].i - words[0].i + 1 == len(words):
        name = " ".join(t.text for t in words).lower()
        if name in PLACE_ALIASES or name in DEMONYMS:
            out.append(Span(doc, words[0].i, words[-1].i + 1, label="GPE" if name in PLACE_ALIASES else "NORP"))
    return out


def _split_person_of(doc: Doc, ent: Span) -> list[Span]:
    """ "Bo Lam of Labour" tagged as one person: a name of two words or more, "of" and a capitalized name
    is a person and the body (or place) the person is of; an English name has no "of" of its own
    ("Joan of Arc" and "Prince Ivo of Norland" have one word before it, or a title)."""
    cut = next((t.i for t in ent if t.lower_ == "of"), None)
    if cut is None or cut - ent.start < 2 or cut + 1 >= ent.end:
        return [ent]
    name, body = doc[ent.start:cut], doc[cut + 1:ent.end]
    if not all(t.is_title and t.pos_ == "PROPN" for t in name) or not all(t.is_title for t in body) \
            or any(_role_word(t) or t.lower_ in RANKS for t in name):
        return [ent]
    place = body.text.lower() in PLACE_ALIASES or body.text in _COUNTRY_NAMES
    return [Span(doc, name.start, name.end, label="PERSON"), Span(doc, body.start, body.end, label="GPE" if place else "ORG")]


def _role_word(tok: Token) -> bool:
    """A role noun, singular or plural ("Attorney", "Attorneys")."""
    low = tok.lower_
    return low in ROLE_NOUNS or tok.lemma_.lower() in ROLE_NOUNS or (low.endswith("s") and low[:-1] in ROLE_NOUNS)


def _split_coordinated(doc: Doc, ent: Span) -> list[Span]:
    """ "Orvane Mining and Tarsa Metals signed": two organizations the model took for one, when the
    words before "and" end a body's name and those after it start another ("Orvik Bank and Trust
    Company" is one: "Trust" ends no name there, it goes on one)."""
    ands = [t.i for t in ent if t.lower_ in ("and", "&")]
    if len(ands) != 1:
        return [ent]
    left, right = doc[ent.start:ands[0]], doc[ands[0] + 1:ent.end]
    if len(left) and left[0].lower_ == "the":
        left = left[1:]
    heads = _ORG_NAME_WORDS | _BUSINESS_WORDS
    if (len(left) < 2 or len(right) < 2 or not all(t.is_title for t in (*left, *right))
            or left[-1].lower_ not in heads or right[0].lower_ in heads):
        return [ent]
    return [Span(doc, left.start, left.end, label="ORG"), Span(doc, right.start, right.end, label="ORG")]


def _split_trailing_person(doc: Doc, ent: Span) -> list[Span]:
    """ "a major at Tarnow University Ana Ruiz": a person's name glued after an organization's
    (a word such as "University" ends the organization) is a person of its own."""
    cut = max((i for i in range(ent.start, ent.end) if doc[i].lower_ in _ORG_NAME_WORDS), default=None)
    if cut is None or ent.end - cut - 1 not in (2, 3):
        return [ent]
    tail = doc[cut + 1:ent.end]
    if not all(t.pos_ == "PROPN" and t.is_title for t in tail) or _common_word(tail[-1]):
        return [ent]
    return [Span(doc, ent.start, cut + 1, label="ORG"), Span(doc, cut + 1, ent.end, label="PERSON")]


def _before_a_place_phrase(doc: Doc, ent: Span) -> Span:
    """ "Harlow United in League Cup", "Acme at Davos": a body's name does not go on over "in", "at" or "on"."""
    cut = next((t.i for t in ent[1:] if t.lower_ in ("in", "at", "on") and t.is_lower), None)
    if cut is None or any(t.lower_ in ("for", "of") for t in doc[ent.start:cut]):
        return ent  # "the Society for Research in Child Development" is one name
    return Span(doc, ent.start, cut, label=ent.label_)


def _split_member_of(doc: Doc, ent: Span) -> list[Span]:
    """ "Okafor of Harlow United": one word that is no English word and no body's word, "of" and a name, is a
    person of the body, as "X of Y" says (not "Bank of Norland", whose first word names a body)."""
    if len(ent) < 3 or ent[1].lower_ != "of" or ent[0].lower_ in _ORG_NAME_WORDS or _common_word(ent[0]) \
            or not (ent[0].is_title and ent[0].pos_ == "PROPN") or not all(t.is_title for t in ent[2:]):
        return [ent]
    return [Span(doc, ent.start, ent.start + 1, label="PERSON"), Span(doc, ent.start + 2, ent.end, label="ORG")]


def _common_word(tok: Token) -> bool:
    """Whether a capitalized word is also an ordinary English noun or verb ("Press", "Home")."""

    low = tok.lower_
    return bool(known_word(tok.vocab, low, "noun") or known_word(tok.vocab, low, "verb"))


#: Last words of a company's name that are never a person's ("Orvane Mining", "Halden Foods").
#: Last words of the names of sports clubs ("Harlow United", "Tarsk Rovers"): no person's.
_CLUB_WORDS = frozenset("united rovers wanderers athletic albion hotspur fc f.c. rangers".split())
_BUSINESS_WORDS = COMPANY_NAME_ENDINGS | _CLUB_WORDS | frozenset(("communications", "railways"))
#: Role nouns that also end the names of bodies as ordinary nouns ("Centre for Open Justice").
_NAME_ENDINGS = frozenset({"justice"})
#: Last words of a name that make it an institution's, never a place's ("Harlan University").
_INSTITUTION_WORDS = frozenset("""
university college institute hospital clinic school academy museum foundation association society
corporation company inc inc. corp corp. ltd ltd. llc plc
""".split())
#: Nouns for a kind of body that name one when set before its name ("rock band X", "the charity X").
_BODY_KIND_NOUNS = ORGANIZATION_NOUNS | frozenset("""
band magazine broadcaster publisher retailer carrier lender insurer startup label orchestra choir
""".split())
#: Words that make a name an organization's, whatever follows it.
_ORG_NAME_WORDS = ORG_HEADS | frozenset("""
inc inc. corp corp. co co. ltd ltd. llc plc group company corporation university college institute
foundation association society church bank press news times post network agency fund trust club
patrol service corps command center centre league federation
""".split()) | _PARTY_HEADS


def _body_after_title(doc: Doc, ent: Span) -> Span | None:
    """ "was the Chair of the Velmar Advisory Council on Tides" taken for a work's title: a span the
    model gave no name label that opens with a title and "of" and names a body after it is that body."""
    i = ent.start + (1 if doc[ent.start].lower_ == "the" else 0)
    j = i
    while j < ent.end and (doc[j].lower_ in ROLE_MODIFIERS or _role_word(doc[j])):
        j += 1
    if j == i or j + 1 >= ent.end or not _role_word(doc[j - 1]) or doc[j].lower_ != "of":
        return None
    start = j + 1 + (1 if doc[j + 1].lower_ == "the" else 0)
    body = doc[start:ent.end]
    if not len(body) or not body[0].is_title or not any(t.lower_ in _ORG_NAME_WORDS for t in body):
        return None
    return Span(doc, start, ent.end, label="ORG")


def _team_before_a_person(doc: Doc, ent: Span) -> bool:
    """ "Harlow Hawks Tom Vale": a name ending in a plural, right before another person's name with nothing
    between, is the body that person plays or works for, not a second person."""
    nxt = doc[ent.end] if ent.end < len(doc) else None
    return (len(ent) > 1 and nxt is not None and nxt.ent_iob_ == "B" and nxt.ent_type_ == "PERSON"
            and ent[-1].lower_.endswith("s") and ent.root.dep_ == "compound" and ent.root.head.i >= ent.end)


def _bracketed_after_a_person(doc: Doc, ent: Span) -> bool:
    """ "Ann Fu (Green Party), Bo Lam (Harka Front)": a name with a body's word alone in brackets right after a
    person's name is the person's party or body, not a second person (an actor after a part stays one)."""
    return (ent.start >= 2 and ent.end < len(doc) and doc[ent.start - 1].text == "(" and doc[ent.end].text == ")"
            and doc[ent.start - 2].ent_type_ == "PERSON" and any(t.lower_ in _ORG_NAME_WORDS for t in ent))


def _named_by_a_body_noun(doc: Doc, ent: Span) -> bool:
    """ "rock band Velmar Dogs", "the charity Harbor Hope": a name that a noun for a kind of body
    modifies (the noun a compound of the name) is that body's name, not a person's."""
    before = doc[ent.start - 1] if ent.start > 0 else None
    return (before is not None and before.is_lower and before.pos_ == "NOUN" and before.dep_ == "compound"
            and ent.start <= before.head.i < ent.end and before.lemma_ in _BODY_KIND_NOUNS)


def _described_as_person(doc: Doc, ent: Span) -> bool:
    """ "Lena Ivarsson, a professor of planning, ...", "Brandt, 41, ...", "his teammate Idris Diallo": a
    name of up to three words tagged ORG that an apposition or the noun before it calls a person, or
    that is given an age, is a person."""
    if not 1 <= len(ent) <= 3 or not all(t.pos_ == "PROPN" and t.text.istitle() for t in ent):
        return False
    if any(t.lower_ in _ORG_NAME_WORDS for t in ent) or ent[-1].lower_ in _BUSINESS_WORDS:
        return False
    before = doc[ent.start - 1] if ent.start > 0 else None
    if before is not None and before.is_lower and before.pos_ == "NOUN" and before.lemma_ in PERSON_NOUNS:
        return True  # "his teammate Idris Diallo", "coach Anna Berg": a word for a person before the name
    if (before is not None and before.text == "," and ent.start >= 2 and ent.root.dep_ == "appos"
            and ent.root.head.i == ent.start - 2 and _role_word(doc[ent.start - 2]) and doc[ent.start - 2].is_lower):
        return True  # "Acme's founder, Ann Park": the name set beside a role noun
    if ent.end + 2 >= len(doc) or doc[ent.end].text != ",":
        return False
    after = doc[ent.end + 1]
    if after.like_num and doc[ent.end + 2].text == "," and after.text.isdigit() and 0 < int(after.text) < 120:
        return True
    for tok in doc[ent.end + 1: min(len(doc), ent.end + 6)]:
        if tok.dep_ == "appos" and tok.head.i in range(ent.start, ent.end):
            return tok.lemma_.lower() in ROLE_NOUNS
    return False


def _without_edge_punct(ent: Span) -> Span | None:
    """A name without the punctuation the model took in at its edges ("the Acme Institute." across
    a sentence's end) or a match's score after it; None when nothing is left."""
    start, end = ent.start, ent.end
    doc = ent.doc
    while start < end and (doc[start].is_punct or doc[start].is_space):
        start += 1
    while end > start and (doc[end - 1].is_punct or doc[end - 1].is_space):
        end -= 1
    if end - start > 3 and doc[end - 1].is_digit and doc[end - 2].text in ("-", "–") and doc[end - 3].is_digit:
        end -= 3  # "beat Harlow United 2-1": the score is no part of the name
    if (start, end) == (ent.start, ent.end):
        return ent
    return Span(doc, start, end, label=ent.label_) if end > start else None


def _speaks(ent: Span) -> bool:
    """Whether a capitalized name is the subject of a verb of communicating (a work of art tells no one)."""
    return (ent.root.dep_ == "nsubj" and ent.root.head.lemma_.lower() in COMMUNICATION_VERBS
            and all(t.text[:1].isupper() for t in ent) and len(ent) <= 4)


def _says_he(ent: Span) -> bool:
    """ "Varga said he suffered ...": a short name tagged ORG whose report calls its speaker "he"
    or "she" is a person (an organization is "it" or "they")."""
    if not 1 <= len(ent) <= 3 or not all(t.pos_ == "PROPN" and t.text.istitle() for t in ent):
        return False
    if any(t.lower_ in _ORG_NAME_WORDS for t in ent) or ent.root.dep_ != "nsubj":
        return False
    verb = ent.root.head
    return verb.lemma_ in ("say", "tell", "add", "claim", "insist", "admit", "deny", "explain") and any(
        c.dep_ == "ccomp" and any(s.dep_ in NOUN_SUBJECTS and s.lower_ in ("he", "she") for s in c.children)
        for c in verb.children)


def _propagated_names(doc: Doc, ents: list[Span], surnames: set[tuple[str, ...]]) -> list[Span]:
    """Bare mentions of a person's surname that the model left out are that person too ("Okafor"
    after "Daniel Okafor"; so is a surname it tagged as an organization, relabelled above)."""
    covered = {i for e in ents for i in range(e.start, e.end)}
    at: dict[str, list[Token]] = {}
    firsts = {get_string_id(words[0]) for words in surnames}
    for i, orth in enumerate(doc.to_array("ORTH").tolist() if firsts and len(doc) else ()):
        if orth in firsts:  # a surname's first word: found in the Doc's array, no Token for the others
            t = doc[i]
            if t.text[:1].isupper():
                at.setdefault(t.text, []).append(t)
    found = []
    for words in surnames:
        n = len(words)
        for t in at.get(words[0], ()):
            end = t.i + n
            # an adjective too where it is a subject, which no adjective is ("Free has served" after "Jo Free")
            if (end <= len(doc) and (t.pos_ in ("PROPN", "NOUN", "VERB") or (t.pos_ == "ADJ" and t.dep_ in NOUN_SUBJECTS))
                    and tuple(x.text for x in doc[t.i:end]) == words
                    and not any(x.whitespace_ for x in doc[t.i:end - 1])
                    and not covered.intersection(range(t.i, end))):
                found.append(Span(doc, t.i, end, label="PERSON"))
    return found


def _short_org_names(doc: Doc, ents: list[Span]) -> list[Span]:
    """Bare mentions of an organization's first word that the model left out are that organization
    ("Orvane was advised by ..." after "Orvane Corporation"), when the word is no ordinary English word
    and no other name goes on after it; also where the model took the word for a date or a number
    ("Orvane's deputy director" tagged DATE), whose span the caller drops."""
    covered = {i for e in ents for i in range(e.start, e.end)
               if e.label_ in NAME_LABELS or not (e.end - e.start <= 2 and e[0].is_title)}
    shorts = {e[0].text for e in ents if e.label_ == "ORG" and len(e) >= 2 and e[0].is_title
              and e[0].pos_ == "PROPN" and not _common_word(e[0]) and e[0].lower_ not in DEMONYMS
              and e[0].lower_ not in PLACE_ALIASES}
    ids = {get_string_id(w) for w in shorts}
    found = []
    for i, orth in enumerate(doc.to_array("ORTH").tolist() if ids else ()):
        if orth not in ids:
            continue  # found in the Doc's array: no Token is made for the other words
        t = doc[i]
        if (t.i not in covered and t.pos_ in ("PROPN", "NOUN")
                and not (t.i + 1 < len(doc) and doc[t.i + 1].text[:1].isupper() and doc[t.i + 1].pos_ == "PROPN")):
            found.append(Span(doc, t.i, t.i + 1, label="ORG"))
    return found


def _with_first_names(doc: Doc, ent: Span) -> Span:
    """Extend a person's name over capitalized words the model left out ("Anders" in "Anders Holm"),
    or took for a nationality ("Ilona" tagged NORP before "Brandt": no demonym is a proper noun)."""
    start = ent.start
    while start > 0:
        t = doc[start - 1]
        if _first_name_as_norp(t):
            start -= 1
            continue
        if not (t.pos_ == "PROPN" and t.is_title and t.ent_type_ == "" and not _role_word(t)
                and t.lower_ not in RANKS and t.lower_ not in DEPARTMENT_WORDS and t.lower_ not in ROLE_MODIFIERS
                and t.lower_ not in ORG_HEADS and (not t.is_sent_start or _first_word_of_name(t, ent))):
            break
        start -= 1
    end = ent.end
    while (end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].is_title and doc[end].ent_type_ in ("", "PERSON")
           and doc[end - 1].dep_ == "compound" and doc[end - 1].head.i == end and not _role_word(doc[end])):
        end += 1  # "Judge Ana Maria Ruiz" with "Ana Maria" tagged: the head "Ruiz" too
    return ent if (start, end) == (ent.start, ent.end) else Span(doc, start, end, label="PERSON")


def _first_word_of_name(tok: Token, ent: Span) -> bool:
    """ "Ana Moreno defeated ...": a sentence's first word that the parser made a proper noun
    compounded into the name after it."""
    return (tok.dep_ == "compound" and tok.tag_ == "NNP" and ent.start <= tok.head.i < ent.end
            and tok.lower_ not in TITLE_ONLY_NOUNS)  # "Coach Anna Berg was fired": a title


def _first_name_as_norp(tok: Token) -> bool:
    """A one-word NORP that is a proper noun compounded into the name after it, and no known
    adjective of nationality, religion or people."""
    low = tok.lower_
    return (tok.ent_type_ == "NORP" and tok.ent_iob_ == "B" and tok.tag_ == "NNP" and tok.dep_ == "compound"
            and (tok.i + 1 >= len(tok.doc) or tok.doc[tok.i + 1].ent_iob_ != "I")
            and low not in DEMONYMS and low not in RELIGIOUS_ADJECTIVES and low not in ETHNIC_ADJECTIVES
            and low not in PARTY_ADJECTIVES and not _common_word(tok))  # "Republican Gerd Lund": a party


def _with_joined_words(doc: Doc, ent: Span) -> Span:
    """ "the Department of Fish and Game", "the state Department of Parks and Wildlife": a body's name
    "X of A and B" goes on over "and" and capitalized ordinary words (a proper name after "and" is a
    body of its own); lowercase words before the name are no part of it."""
    start = ent.start
    lead = start + (1 if ent[0].lower_ == "the" else 0)
    first = lead
    while lead < ent.end - 1 and doc[lead].is_lower and doc[lead].pos_ in ("NOUN", "ADJ"):
        lead += 1
    if lead > first and doc[lead].is_title:
        start = lead  # "the state Department of ...", not "defense ministry"
    end = ent.end - (1 if ent[-1].lower_ in ("and", "&") else 0)
    if any(t.lower_ == "of" for t in doc[start:end]) and end < len(doc) and doc[end].lower_ in ("and", "&"):
        stop = end + 1
        while stop < len(doc) and stop - end <= 3 and doc[stop].is_title and doc[stop].pos_ == "PROPN" \
                and _common_word(doc[stop]):
            stop += 1
        if stop > end + 1 and not (stop < len(doc) and doc[stop].is_title):
            end = stop
    if start == ent.start and end == ent.end:
        return ent
    return Span(doc, start, end, label=ent.label_) if end > start else ent


def _with_of_phrase(doc: Doc, ent: Span) -> Span:
    """ "the Royal Institute for the Study of Tides", "the Movement for Democratic Change": a body's name
    goes on over "for" or "of" and the capitalized words after it, which the model often leaves out."""
    end = ent.end
    if not (ent[-1].is_title and ent[-1].lower_ in _ORG_NAME_WORDS) or end + 1 >= len(doc) \
            or doc[end].lower_ not in ("for", "of", "on"):
        return ent
    first = end + 1 + (1 if doc[end + 1].lower_ == "the" else 0)
    stop = first
    while stop < len(doc) and (doc[stop].is_title and doc[stop].pos_ == "PROPN" and doc[stop].ent_type_ != "PERSON"
                               or stop > first and doc[stop].lower_ in ("of", "and", "the", "for")):
        stop += 1
    while stop > first and doc[stop - 1].lower_ in ("of", "and", "the", "for"):
        stop -= 1
    if stop == first or any(t.ent_type_ for t in doc[first:stop]):
        return ent  # "the Finance Committee of the Leeds City Council": a body of another, named on its own
    return Span(doc, ent.start, stop, label=ent.label_)


def _with_acronym(doc: Doc, ent: Span) -> Span:
    """ "the Harka Front in the Velmar Highlands (HFVH)": a name that the model cut at a small word goes on to the
    bracketed acronym after it when the acronym spells the initials of the longer name."""
    i = ent.end
    while i < len(doc) and i - ent.end < 8 and doc[i].text != "(" and (
            doc[i].is_title or _small_word(doc[i])):
        i += 1
    if i == ent.end or i + 2 >= len(doc) or doc[i].text != "(" or doc[i + 2].text != ")":
        return ent
    acronym = doc[i + 1].text
    words = [w for t in doc[ent.start:i] if not _small_word(t) for w in re.split(r"[-\s]", t.text) if w]
    if not acronym.isupper() or "".join(w[0].upper() for w in words) != acronym.replace(".", ""):
        return ent
    return Span(doc, ent.start, i, label=ent.label_)


def _small_word(tok: Token) -> bool:
    """A small word of a name, written in lowercase, that its acronym leaves out ("in the")."""
    return tok.lower_ in ACRONYM_SMALL_WORDS and not tok.text[:1].isupper()


def _with_name_words(doc: Doc, ent: Span) -> Span:
    """Extend an organization or group name over capitalized words that modify it ("Free" in "Free Farmers Union")."""
    start = ent.start
    while start > 0:
        t = doc[start - 1]
        if not (t.pos_ == "PROPN" and t.is_title and t.ent_type_ == "" and ent.start <= t.head.i < ent.end
                and t.dep_ in ("compound", "amod") and t.lower_ not in ROLE_NOUNS and t.lower_ not in RANKS
                and t.lower_ not in ("former", "then", "ex", "acting", "interim") and not t.is_sent_start):
            break
        start -= 1
    return ent if start == ent.start else Span(doc, start, ent.end, label=ent.label_)


def _named_body_end(doc: Doc, start: int) -> int:
    """The end of capitalized words after a name that end in a word for a body ("Appeals Tribunal",
    "Coastal Defence Forces"), or ``start`` when they do not."""
    end, last = start, start
    while end < len(doc) and end - start < 6 and doc[end].ent_type_ == "" and (
            (doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper()) or (doc[end].text == "-" and not doc[end - 1].whitespace_)):
        if last > start and doc[end].lower_ in ROLE_NOUNS:
            break  # "Harbour Patrol Chief Patrol Agent X": a title begins after the body's name
        end += 1
        if doc[end - 1].lower_ in _ORG_NAME_WORDS:
            last = end
    return last


#: Where a missed name can stand: the relations of an argument.
_ARGUMENT_DEPS = frozenset("nsubj nsubjpass dobj pobj appos conj dative poss".split())
_NOUNS = ("NOUN", "PROPN")


def _missed_names(doc: Doc, ents: list[Span]) -> list[Span]:
    """Names the model left out, in an argument position (a run of capitalized proper nouns):
    an acronym in brackets after an organization ("the Korvala Elections Board (KEB)"), a run with a
    word for a body or after an article ("a Tarnow Depot", "the Falcons"), and a two- or three-word
    run that ends in no English word ("met Jan Boer"). Anything else stays unnamed."""
    covered = {i for e in ents for i in range(e.start, e.end)}
    org_end = {e.end: e for e in ents if e.label_ in ("ORG", "GPE", "NORP")}
    found: list[Span] = []
    nouns, deps = ({doc.vocab.strings[w] for w in words} for words in (_NOUNS, _ARGUMENT_DEPS))
    for i, (pos, dep) in enumerate(doc.to_array(["POS", "DEP"]).tolist() if len(doc) else ()):
        if pos not in nouns or dep not in deps or i in covered:
            continue  # ``_name_word`` takes nouns only: found in the Doc's array, no Token for the others
        tok = doc[i]
        if not _name_word(tok):
            continue
        start = tok.i
        while start > 0 and doc[start - 1].i not in covered and _name_word(doc[start - 1]) \
                and doc[start - 1].head.i == tok.i and doc[start - 1].dep_ == "compound":
            start -= 1
        titled = [t.i for t in doc[start:tok.i + 1] if _role_word(t) or t.lower_ in RANKS]
        if titled and tok.i - titled[-1] in (2, 3) and all(doc[i].is_title for i in titled):
            start = titled[-1] + 1  # "Director General Ana Ruiz": the name after the title's last word
        run = doc[start:tok.i + 1]
        if any(_role_word(t) or t.lower_ in RANKS for t in run) or len(run) > 4:
            continue
        before = doc[start - 1] if start > 0 else None
        if before is not None and before.dep_ == "case" or tok.dep_ == "poss":
            continue  # "the Dockers' Union Congress": a possessive name, too tangled to cut
        if (len(run) == 1 and tok.is_upper and before is not None and before.text == "(" and start - 1 in org_end):
            found.append(Span(doc, start, tok.i + 1, label="ORG"))  # "(KEB)" after the board's name
        elif any(t.lower_ in _ORG_NAME_WORDS for t in run) or (
                before is not None and before.lower_ in ("a", "an", "the") and before.head.i == tok.i
                and (len(run) > 1 or tok.tag_ in ("NNPS", "NNS"))):
            found.append(Span(doc, start, tok.i + 1, label="ORG"))
        elif 2 <= len(run) <= 3 and all(t.is_title for t in run) and not (before is not None and before.pos_ == "DET") \
                and (not _common_word(run[-1]) or _said_of_a_person(tok) or _after_title(doc, start)):
            found.append(Span(doc, start, tok.i + 1, label="PERSON"))
    return found


def _after_title(doc: Doc, start: int) -> bool:
    """ "Senator Ann Costa", "Secretary of State Ann Costa": a run of names right after a title."""
    if start == 0:
        return False
    before = doc[start - 1]
    if before.is_title and _role_word(before):
        return True
    return (start >= 3 and before.lower_ in DEPARTMENT_WORDS and doc[start - 2].lower_ == "of"
            and _role_word(doc[start - 3]))


def _said_of_a_person(tok: Token) -> bool:
    """ "the founder of Acme, Jan Boer", "coach Jan Boer": a name in apposition to, or right after,
    a word for a person."""
    before = tok.doc[tok.left_edge.i - 1] if tok.left_edge.i > 0 else None
    return ((tok.dep_ == "appos" and tok.head.lemma_.lower() in PERSON_NOUNS)
            or (before is not None and before.is_lower and before.lemma_.lower() in PERSON_NOUNS))


def _capitalized(tok: Token) -> bool:
    return tok.is_title or (tok.is_upper and len(tok) > 1 and tok.is_alpha)


def _name_word(tok: Token) -> bool:
    """A word of a name: a capitalized proper noun, or a capitalized common noun inside a sentence
    ("the Harbour Comets", tagged NOUN)."""
    if tok.pos_ == "PROPN":
        return _capitalized(tok)
    return tok.pos_ == "NOUN" and _capitalized(tok) and not tok.is_sent_start and tok.i > tok.sent.start
