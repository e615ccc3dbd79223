"""General repairs of the small model's named entities, applied right after its NER.

Each rule is about English, not about an article: scriptures and religions are not places
or organizations; a department word before "Minister" is part of the title; a place name
followed by "police" or "ministry" is an organization; a name followed by "town", or after
"the town of", is a place.
"""
from __future__ import annotations

from spacy.tokens import Doc, Span, Token
from spacy.util import filter_spans

from .lexicon import DEPARTMENT_WORDS, ORG_HEADS, RANKS, RELIGIONS, ROLE_MODIFIERS, ROLE_NOUNS, SCRIPTURES

_PLACE_NOUNS = frozenset("town city village province district region county state capital island port".split())
_KEEP = frozenset("PERSON ORG GPE LOC NORP FAC".split())


def repair_entities(doc: Doc) -> Doc:
    """Return ``doc`` with its entity spans repaired in place."""
    ents: list[Span] = []
    for ent in doc.ents:
        low = ent.text.lower().strip()
        if ent.label_ not in _KEEP:
            ents.append(ent)
            continue
        if low in SCRIPTURES or low in RELIGIONS:
            continue
        nxt = doc[ent.end] if ent.end < len(doc) else None
        if (ent.label_ == "ORG" and all(t.lower_ in DEPARTMENT_WORDS or t.lower_ in ROLE_MODIFIERS for t in ent)
                and nxt is not None and nxt.lower_ in ROLE_NOUNS):
            continue  # "Defense" in "Defense Minister", "Shadow Home" in "Shadow Home Secretary"
        prev = doc[ent.start - 1] if ent.start > 0 else None
        if (ent.label_ == "GPE" and prev is not None and prev.ent_type_ == "" and prev.text.istitle()
                and prev.lower_ in DEPARTMENT_WORDS and nxt is not None and nxt.lower_ in ROLE_NOUNS):
            ents.append(Span(doc, prev.i, ent.end, label="ORG"))  # "Fisheries Peru spokesperson"
            continue
        if ent.label_ in ("ORG", "PERSON") and nxt is not None and nxt.lower_ in _PLACE_NOUNS:
            ents.append(Span(doc, ent.start, ent.end, label="GPE"))
            continue
        if (ent.label_ in ("ORG", "PERSON") and ent.start >= 2 and doc[ent.start - 1].lower_ == "of"
                and doc[ent.start - 2].lower_ in _PLACE_NOUNS):
            ents.append(Span(doc, ent.start, ent.end, label="GPE"))  # "the town of Varno"
            continue
        if ent.label_ == "ORG" and len(ent) > 1 and ent[-1].lower_ in ROLE_NOUNS:
            # "the Harbor Department Spokesperson": the body is an organization, the last word a role.
            start = ent.start + (1 if ent[0].lower_ == "the" else 0)
            if ent.end - 1 > start:
                ents.append(Span(doc, start, ent.end - 1, label="ORG"))
            continue
        if ent.label_ == "ORG" and (_described_as_person(doc, ent) or _says_he(ent)):
            ents.append(Span(doc, ent.start, ent.end, label="PERSON"))
            continue
        if ent.label_ in ("GPE", "NORP", "LOC", "ORG"):
            end = ent.end
            while end < len(doc) and doc[end].lower_ in ORG_HEADS and doc[end].pos_ in ("NOUN", "PROPN"):
                end += 1
            if end > ent.end:
                ents.append(Span(doc, ent.start, end, label="ORG"))
                continue
        ents.append(ent)
    ents = filter_spans([_with_first_names(doc, e) if e.label_ == "PERSON"
                         else _with_name_words(doc, e) if e.label_ in ("ORG", "NORP") else e for e in ents])
    surnames = {s for e in ents if e.label_ == "PERSON" and (s := _surname(e))}
    ents = [Span(doc, e.start, e.end, label="PERSON") if tuple(t.text for t in e) in surnames else e for e in ents]
    doc.ents = filter_spans(ents + _propagated_names(doc, ents, surnames))
    return doc


def _surname(ent: Span) -> tuple[str, ...]:
    """The last word of a person's name of two words or more, as its tokens: ("Okafor",) of
    "Daniel Okafor", ("Lund", "-", "Moen") of "Halvard Lund-Moen"; () for one word."""
    start = ent.end - 1
    while start > ent.start and not ent.doc[start - 1].whitespace_:
        start -= 1
    return tuple(t.text for t in ent.doc[start:ent.end]) if start > ent.start else ()


#: Words that make a name an organization's, whatever follows it.
_ORG_NAME_WORDS = ORG_HEADS | frozenset("""
inc inc. corp corp. co co. ltd ltd. llc plc group company corporation university college institute
foundation association society church bank press news times post network agency fund trust club
""".split())


def _described_as_person(doc: Doc, ent: Span) -> bool:
    """ "Folke Nyberg, a professor of planning, ...", "Anderson, 41, ...": a two- or three-word name
    tagged ORG that an apposition calls a person (a role noun) or gives an age is a person."""
    if not 1 <= len(ent) <= 3 or not all(t.pos_ == "PROPN" and t.text.istitle() for t in ent):
        return False
    if any(t.lower_ in _ORG_NAME_WORDS for t in ent) or ent.end + 2 >= len(doc) or doc[ent.end].text != ",":
        return False
    after = doc[ent.end + 1]
    if after.like_num and doc[ent.end + 2].text == "," and after.text.isdigit() and 0 < int(after.text) < 120:
        return True
    for tok in doc[ent.end + 1: min(len(doc), ent.end + 6)]:
        if tok.dep_ == "appos" and tok.head.i in range(ent.start, ent.end):
            return tok.lemma_.lower() in ROLE_NOUNS
    return False


def _says_he(ent: Span) -> bool:
    """ "Chapman said he suffered ...": a short name tagged ORG whose report calls its speaker "he"
    or "she" is a person (an organization is "it" or "they")."""
    if not 1 <= len(ent) <= 3 or not all(t.pos_ == "PROPN" and t.text.istitle() for t in ent):
        return False
    if any(t.lower_ in _ORG_NAME_WORDS for t in ent) or ent.root.dep_ != "nsubj":
        return False
    verb = ent.root.head
    return verb.lemma_ in ("say", "tell", "add", "claim", "insist", "admit", "deny", "explain") and any(
        c.dep_ == "ccomp" and any(s.dep_ in ("nsubj", "nsubjpass") and s.lower_ in ("he", "she") for s in c.children)
        for c in verb.children)


def _propagated_names(doc: Doc, ents: list[Span], surnames: set[tuple[str, ...]]) -> list[Span]:
    """Bare mentions of a person's surname that the model left out are that person too ("Okafor"
    after "Daniel Okafor"; so is a surname it tagged as an organization, relabelled above)."""
    covered = {i for e in ents for i in range(e.start, e.end)}
    at: dict[str, list[Token]] = {}
    for t in doc:
        if t.text[:1].isupper():
            at.setdefault(t.text, []).append(t)
    found = []
    for words in surnames:
        n = len(words)
        for t in at.get(words[0], ()):
            end = t.i + n
            if (end <= len(doc) and t.pos_ in ("PROPN", "NOUN", "VERB")
                    and tuple(x.text for x in doc[t.i:end]) == words
                    and not any(x.whitespace_ for x in doc[t.i:end - 1])
                    and not covered.intersection(range(t.i, end))):
                found.append(Span(doc, t.i, end, label="PERSON"))
    return found


def _with_first_names(doc: Doc, ent: Span) -> Span:
    """Extend a person's name over capitalized words the model left out ("Anders" in "Anders Holm")."""
    start = ent.start
    while start > 0:
        t = doc[start - 1]
        if not (t.pos_ == "PROPN" and t.is_title and t.ent_type_ == "" and t.lower_ not in ROLE_NOUNS
                and t.lower_ not in RANKS and t.lower_ not in DEPARTMENT_WORDS and t.lower_ not in ROLE_MODIFIERS
                and t.lower_ not in ORG_HEADS and not t.is_sent_start):
            break
        start -= 1
    return ent if start == ent.start else Span(doc, start, ent.end, label="PERSON")


def _with_name_words(doc: Doc, ent: Span) -> Span:
    """Extend an organization or group name over capitalized words that modify it ("New" in "New Democrat")."""
    start = ent.start
    while start > 0:
        t = doc[start - 1]
        if not (t.pos_ == "PROPN" and t.is_title and t.ent_type_ == "" and ent.start <= t.head.i < ent.end
                and t.dep_ in ("compound", "amod") and t.lower_ not in ROLE_NOUNS and t.lower_ not in RANKS
                and t.lower_ not in ("former", "then", "ex", "acting", "interim") and not t.is_sent_start):
            break
        start -= 1
    return ent if start == ent.start else Span(doc, start, ent.end, label=ent.label_)
