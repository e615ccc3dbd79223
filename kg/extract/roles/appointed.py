"""Appointments told as a list: "X named A to be deputy chief, B of Norland to be head of trade, and C as his
chief of staff", "the new cabinet includes A as finance minister and B as foreign minister". The parser seldom hangs such lists as they are meant, so they are read off the words: after a
verb of appointing, each name followed by "to be" or "as" and a title holds that post.
"""
from __future__ import annotations

from spacy.tokens import Span, Token

from ...model.facts import Evidence, Role
from .career_words import LINE_UP
from .role_orgs import OrgFinder
from .titles import NOT_ROLE_WORDS, OFFICE_HEADS, is_government_title, is_role_noun, lexicon_form, role_text, title_complement

#: Words that end a title in a list ("..., B of X to be head of trade, and C as ...").
_STOPS = frozenset({",", ";", ".", "and", "while", "but", "who", "which", "(", ")", '"'})
#: Words before a title that are no part of it.
_LEAD = frozenset({"a", "an", "the", "his", "her", "its", "their", "our", "next"}) | NOT_ROLE_WORDS


def appointed_list(orgs: OrgFinder, sent: Span, evidence: Evidence) -> list[Role]:
    """The posts of the names an appointing or listing verb lists with "to be" or "as" (rule ``appointed-list``)."""
    verbs = [t for t in sent if t.pos_ == "VERB" and t.lemma_.lower() in LINE_UP]
    if not verbs:
        return []
    out: list[Role] = []
    for ent in (e for e in sent.ents if e.label_ == "PERSON" and e.start > verbs[0].i):
        person = orgs.index.resolve(ent.root)
        title = _title_after(ent)
        if person is None or not person.startswith("Person:") or not title:
            continue
        head = next((t for t in reversed(title) if is_role_noun(t)), None)
        if head is None:
            continue
        org = orgs.explicit_org([head]) or orgs.org_from_preps([head])
        words = [t for t in title if t.i <= head.i]
        if org is None and is_government_title(words):
            org = orgs.home_country() or orgs.only_country_before(ent.start)
        elif org is None and (lexicon_form(head) in OFFICE_HEADS or head.lower_ in ("chief", "staff")):
            org = orgs.home_organization()
        if org is None or org == person or not org.startswith(("Organization:", "Place:")):
            continue
        rest = title[len(words):]
        tail = title_complement(head) or (" " + " ".join(t.text for t in rest) if rest and rest[0].lower_ == "for"
                                          and all(t.is_title or t.lower_ in ("for", "and", "of") for t in rest) else "")
        out.append(Role(person=person, role=role_text(words) + tail, org=org, evidence=evidence, rule="appointed-list",
                        confidence=0.6))
    return out


def _title_after(ent: Span) -> list[Token]:
    """The title after a name and its "of" place: "A of Norland to be head of trade" -> head of trade."""
    doc = ent.doc
    i = ent.end
    if i + 1 < len(doc) and doc[i].lower_ == "of" and doc[i + 1].ent_iob_ == "B":
        i += 2  # "B of Norland to be ...": where the person is from
        while i < len(doc) and doc[i].ent_iob_ == "I":
            i += 1
    if i + 1 < len(doc) and doc[i].lower_ == "to" and doc[i + 1].lower_ == "be":
        i += 2
    elif i < len(doc) and doc[i].lower_ == "as":
        i += 1
    else:
        return []
    while i < len(doc) and doc[i].lower_ in _LEAD:
        i += 1
    end = i
    while end < len(doc) and doc[end].text not in _STOPS and doc[end].lower_ not in _STOPS and doc[end].ent_type_ != "PERSON":
        end += 1
    return list(doc[i:end]) if end > i else []
