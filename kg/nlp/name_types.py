"""One type per name, from all of its mentions: what the words around a name say it is.

The small model labels each mention on its own, and often two ways in one article ("Orvane" a
person in one sentence and a place in the next; "Tomas Berg" an organization beside "Berg" a
person). ``type_names`` groups the mentions of one name (a surname with the full name it ends,
an organization's first word with its full name) and gives the group one label: the one the
text's cues vote for (a title such as "Mr.", an age, "CEO of X", "X CEO Ann Lee", "the company
X", "X, a minority"), or where the text says nothing, the label most of its mentions have.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from spacy.tokens import Doc, Span, Token

from .lexicon import KINSHIP_NOUNS, ORGANIZATION_NOUNS, ROLE_MODIFIERS

#: Labels of names a mention may be given wrongly; the others (dates, numbers) are left alone.
NAME_LABELS = frozenset(("PERSON", "ORG", "GPE", "LOC", "FAC", "NORP"))
#: Titles before a person's name that only a person takes.
HONORIFICS = frozenset("mr mr. mrs mrs. ms ms. miss dr dr. sir dame madam mme mme. mlle".split())
#: Posts held in a company or a body only: "Acme's chief executive", "CEO of Acme".
COMPANY_POSTS = frozenset("""
ceo cfo coo cto chairman chairwoman chairperson executive executives employee employees shareholder
shareholders headquarters subsidiary founder co-founder cofounder
""".split())
#: Posts held in an organization or a country, never for a person.
ORG_POSTS = COMPANY_POSTS | frozenset("""
chair president director staff board owner manager administrator member members editor correspondent
""".split())
#: Things only an organization has: "the Orvane website", "Orvane shares".
ORG_THINGS = frozenset("""
website site app platform shares stock stocks subsidiary subsidiaries headquarters employees shareholders
products customers subscribers users
""".split())
#: Verbs and nouns of posting: what they are "on" or "to" is a service ("posted on X").
POSTING_WORDS = frozenset("post tweet share upload publish hashtag message account page video".split())
#: Bodies of fighters or staff named after their organization ("Harka militants").
MEMBER_NOUNS = frozenset("""
militants fighters insurgents rebels gunmen members employees workers executives
""".split())
#: Last words of a name that make it an organization's, never a person's or a place's.
ORG_ENDINGS = frozenset("""
university college institute academy foundation association society corporation company inc inc. corp
corp. ltd ltd. llc plc center centre agency council committee commission ministry department party
league federation union bureau authority group holdings
""".split())
#: Regions that end a company's name ("Lycra Europe"), never a person's.
REGION_WORDS = frozenset("europe asia africa americas pacific international global worldwide".split())
#: Nouns for a people: "X, a minority", "the X people".
PEOPLE_NOUNS = frozenset("minority minorities people peoples tribe tribes ethnicity community".split())

#: Words that join the parts of a body's name ("Church of X"), never of a person's.
_LINKS = frozenset("of for and & the on".split())
#: What a mention's own label counts, against one cue of the text.
_OWN_LABEL = 0.25
#: Labels of places.
PLACES = frozenset(("GPE", "LOC"))
#: Votes: for a person, against one (an organization or a place), or for a kind.
PERSON, NOT_PERSON, ORG, NORP = "PERSON", "NOT_PERSON", "ORG", "NORP"


def type_names(doc: Doc, ents: Iterable[Span]) -> list[Span]:
    """``ents`` with each name's mentions given one label (others unchanged)."""
    ents = list(ents)
    names = [e for e in ents if e.label_ in NAME_LABELS]
    groups = _groups(names)
    label_of: dict[tuple[int, int], str] = {}
    for members in groups:
        cues: Counter[str] = Counter()
        for e in members:
            cues.update(mention_cues(doc, e))
        cues.update(_link_cues(members))
        label = decide(Counter(e.label_ for e in members), cues)
        if label is not None:
            label_of.update(((e.start, e.end), label) for e in members)
    return [Span(doc, e.start, e.end, label=label_of[(e.start, e.end)])
            if label_of.get((e.start, e.end), e.label_) != e.label_ else e for e in ents]


def decide(model: Counter[str], cues: Counter[str]) -> str | None:
    """The label of a name: the text's cues where they say anything (a person, or not one), each
    mention's own label counting a quarter of a cue (one stray cue does not turn a name the model
    took for a person ten times), else the label most of its mentions have; None to leave each
    mention as the model labelled it."""
    person, other = float(cues[PERSON]), float(cues[NOT_PERSON] + cues[ORG] + cues[NORP])
    if PERSON not in model and not person:
        # no one takes it for a person: only a people the model took for an organization changes
        if set(model) <= {ORG, NORP} and cues[NORP] > cues[ORG]:
            return NORP
        # "Harlan Mills CEO Ann Lee ... Harlan Mills would close" with a place's label: a company
        return ORG if ORG in model and cues[ORG] > cues[NORP] else None
    if person or other:
        person += _OWN_LABEL * model[PERSON]
        other += _OWN_LABEL * (sum(model.values()) - model[PERSON])
    if person > other:
        return PERSON
    if other > person:
        if cues[NORP] > cues[ORG]:
            return NORP
        if cues[ORG]:
            return ORG
        kept = Counter({k: n for k, n in model.items() if k != PERSON})
        return _majority(kept) or ORG
    return _majority(model)


def _majority(labels: Counter[str]) -> str | None:
    ranked = labels.most_common(2)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def _key(ent: Span) -> tuple[str, ...]:
    words = [t.lower_ for t in ent if t.tag_ != "POS"]
    if words and words[0] == "the":
        words = words[1:]
    return tuple(words)


def _groups(names: list[Span]) -> list[list[Span]]:
    """Mentions of one name: the same words, or a short name that is the end of exactly one
    person-like longer name (a surname) or the start of exactly one organization's name."""
    by_key: dict[tuple[str, ...], list[Span]] = {}
    for e in names:
        if _key(e):
            by_key.setdefault(_key(e), []).append(e)
    parent = {k: k for k in by_key}
    labels = {k: {e.label_ for e in ents} for k, ents in by_key.items()}
    for short, ents in by_key.items():
        if 2 * sum(e.label_ in PLACES or e.label_ == NORP for e in ents) >= len(ents):
            continue  # "Tarnow" beside "Tarnow State University", "Velmoran" beside "Velmoran Union"
        longer = [k for k in by_key if len(k) > len(short) and (
            (k[-len(short):] == short and _person_like(k) and PERSON in labels[short] | labels[k])
            or (k[:len(short)] == short and (k[-1] in ORG_ENDINGS or k[-1] in REGION_WORDS)))]
        if len(longer) == 1:
            parent[short] = longer[0]
    out: dict[tuple[str, ...], list[Span]] = {}
    for k, ents in by_key.items():
        root = k
        while parent[root] != root:
            root = parent[root]
        out.setdefault(root, []).extend(ents)
    return list(out.values())


def _person_like(words: tuple[str, ...]) -> bool:
    """Whether a name of two words or more could be a person's: no word of a body or a region."""
    return len(words) >= 2 and not any(w in ORG_ENDINGS or w in REGION_WORDS or w in _LINKS for w in words)


def _link_cues(members: list[Span]) -> Counter[str]:
    """A surname used alone and labelled a person beside a longer name: a person's way of naming."""
    keys = {_key(e) for e in members}
    long_names = [k for k in keys if _person_like(k)]
    short_people = [e for e in members if e.label_ == PERSON and len(_key(e)) == 1 and e[-1].tag_ == "NNP"
                    and any(k[-1:] == _key(e) for k in long_names)]
    return Counter({PERSON: 1}) if short_people else Counter()


def mention_cues(doc: Doc, ent: Span) -> Counter[str]:
    """What the words in and around one mention say it is."""
    cues: Counter[str] = Counter()
    words = _key(ent)
    if not words:
        return cues
    before = doc[ent.start - 1] if ent.start > 0 else None
    end = ent.end - 1 if ent[-1].tag_ == "POS" else ent.end
    if before is not None and before.lower_ in HONORIFICS:
        cues[PERSON] += 1  # "Ms. Berg"
    if _aged(doc, end):
        cues[PERSON] += 1  # "Berg, 41,"
    if len(words) > 1 and words[-1] in ORG_ENDINGS and ent[-1].is_title:
        cues[ORG] += 1  # "Orvane Holdings", "Tarnow University"
    if len(words) > 1 and words[-1] in REGION_WORDS:
        cues[NOT_PERSON] += 1  # "Orvane Europe"
    cues.update(_owner_cues(doc, end))
    post = _titles_a_person(doc, end) or (_post_of(before) if before is not None else None)
    if post is not None:
        cues[ORG if post in COMPANY_POSTS else NOT_PERSON] += 1  # "Orvane CEO Ann Lee", "director at Orvane"
    cues.update(_syntax_cues(ent))
    return cues


def _owner_cues(doc: Doc, end: int) -> Counter[str]:
    """What a name's possessive owns: "Berg's wife", "Orvane's shares", "Tarnow's deputy director"."""
    if end + 1 >= len(doc) or doc[end].tag_ != "POS":
        return Counter()
    owned = _head_noun(doc[end + 1])
    if owned.lemma_.lower() in KINSHIP_NOUNS:
        return Counter({PERSON: 1})
    if owned.lower_ in COMPANY_POSTS or owned.lemma_.lower() in ORG_THINGS:
        return Counter({ORG: 1})
    return Counter({NOT_PERSON: 1}) if owned.lower_ in ORG_POSTS else Counter()


def _syntax_cues(ent: Span) -> Counter[str]:
    """What the words a name modifies, or is joined to, say it is."""
    cues: Counter[str] = Counter()
    root = ent.root
    if root.dep_ == "compound" and root.head.i >= ent.end:
        noun = root.head.lemma_.lower()
        if noun in ORG_THINGS:
            cues[ORG] += 1  # "the Orvane website"
        elif root.head.lower_ in MEMBER_NOUNS:
            cues[NOT_PERSON] += 1  # "Harka militants"
        elif noun in PEOPLE_NOUNS:
            cues[NORP] += 1  # "the Karen people"
    prep = root.head if root.dep_ == "pobj" else None
    if prep is not None and prep.head.lemma_.lower() in POSTING_WORDS and (
            prep.lower_ == "on" or (prep.lower_ == "to" and prep.head.lemma_.lower() in ("post", "upload"))):
        cues[ORG] += 1  # "posted a statement on Orbly", "the hashtag on Orbly": a service people post on
    if any(c.dep_ == "conj" and c.ent_type_ == NORP for c in (*root.children, root.head)):
        cues[NORP] += 1  # "Tamils and Karen": one of several peoples
    if _described_as(ent, ORGANIZATION_NOUNS):
        cues[ORG] += 1  # "the newspaper, The Tarnow Herald"; "Orvane, a company"
    elif _described_as(ent, PEOPLE_NOUNS):
        cues[NORP] += 1  # "the Karen, a minority of ..."
    return cues


def _head_noun(tok: Token) -> Token:
    """The noun a possessive owns: "Orvane's chief executive" -> "executive"."""
    while tok.dep_ in ("amod", "compound") and tok.head.i > tok.i and tok.head.i - tok.i <= 3:
        tok = tok.head
    return tok


def _aged(doc: Doc, end: int) -> bool:
    """ "Berg, 41, said": an age in commas right after the name."""
    if end + 2 >= len(doc) or doc[end].text != "," or doc[end + 2].text != ",":
        return False
    age = doc[end + 1].text
    return age.isdigit() and 0 < int(age) < 120


def _titles_a_person(doc: Doc, end: int) -> str | None:
    """ "Orvane CEO Ann Lee", "Orvane chief executive Ann Lee": a post of an organization, then a
    person's name; the post's word, else None."""
    i = end
    while i < len(doc) and i - end < 2 and doc[i].lower_ not in ORG_POSTS and doc[i].lower_ in ROLE_MODIFIERS:
        i += 1  # "Orvane chief executive", "Orvane deputy director": a word of the title before it
    if i + 1 >= len(doc) or doc[i].lower_ not in ORG_POSTS:
        return None
    nxt = doc[i + 1]
    return doc[i].lower_ if nxt.ent_type_ == PERSON and nxt.ent_iob_ == "B" else None


def _post_of(before: Token) -> str | None:
    """ "CEO of", "director at": a post in an organization, then the name; the post's word."""
    if before.lower_ not in ("of", "at") or before.i == 0:
        return None
    post = before.doc[before.i - 1].lower_
    return post if post in ORG_POSTS and post not in ("member", "members", "owner", "editor") else None


def _described_as(ent: Span, nouns: frozenset[str]) -> bool:
    """Whether an apposition calls the name one of ``nouns`` ("the newspaper, The Herald";
    "Orvane, a company")."""
    root, doc = ent.root, ent.doc
    if (root.dep_ == "appos" and root.head.lemma_.lower() in nouns and root.head.pos_ == "NOUN"
            and root.head.i < ent.start and any(t.text == "," for t in doc[root.head.i:ent.start])):
        return True  # set off by a comma: "the Tarnow board Ann Lee" names a member, no body
    return any(c.dep_ == "appos" and c.pos_ == "NOUN" and c.lemma_.lower() in nouns and c.i >= ent.end
               and any(t.text == "," for t in doc[ent.end:c.left_edge.i + 1]) for c in root.children)
