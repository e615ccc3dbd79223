"""One article cut into pieces spaCy can parse, and the facts of its pieces merged back.

Offsets: spaCy parses the *hygienic* text (``nlp.hygiene.sanitize``: NFC, invisible and control
characters removed), blanked by ``nlp.clean`` where it is not story text (same length), and cut into
pieces of at most ``max_chars`` characters (``nlp.hygiene.split``). Extraction gives offsets into a
piece; ``finish`` returns ``ArticleFacts`` with offsets into the *original* ``Article.text``, and
every ``Evidence.text`` is exactly ``article.text[start:end]``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..model.facts import Article, ArticleFacts, Entity, Evidence
from ..nlp.clean import clean
from ..nlp.hygiene import Sanitized, sanitize, split

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Work:
    """One article on its way through the parser: its pieces, and the facts merged so far."""

    article: Article  # original text, title and date filled
    hyg: Sanitized
    pieces: list[tuple[int, int]]
    facts: ArticleFacts
    done: int = 0
    #: entity key -> the pieces it was found in (short names are folded only across pieces)
    seen_in: dict[str, set[int]] = field(default_factory=dict)


def plan(article: Article, max_chars: int) -> tuple[Work, str]:
    """The article's pieces (with title and date filled from the text) and the cleaned text they cut."""
    if _SURROGATE.search(article.text):  # not encodable in RDF; one for one keeps the offsets
        article = replace(article, text=_SURROGATE.sub("\ufffd", article.text))
    hyg = sanitize(article.text)
    cleaned = clean(hyg.text)
    art = replace(article, title=article.title or cleaned.title, date=article.date or cleaned.date)
    work = Work(art, hyg, split(cleaned.text, max_chars), ArticleFacts(article=art))
    return work, cleaned.text


def add_piece(work: Work, piece: ArticleFacts, offset: int, k: int) -> None:
    """Merge the facts of one piece into its article's, with offsets into the original text."""
    text, hyg = work.article.text, work.hyg

    def back(ev: Evidence) -> Evidence:
        start, end = hyg.span(ev.start + offset, ev.end + offset)
        return Evidence(text=text[start:end], start=start, end=end)

    out = work.facts
    out.events.extend(replace(e, evidence=back(e.evidence), trigger=back(e.trigger) if e.trigger else None)
                      for e in piece.events)
    out.roles.extend(replace(r, evidence=back(r.evidence)) for r in piece.roles)
    for key, ent in piece.entities.items():
        work.seen_in.setdefault(key, set()).add(k)
        have = out.entities.get(key)
        if have is None:
            out.entities[key] = Entity(key=ent.key, label=ent.label, type=ent.type,
                                       aliases=set(ent.aliases), mentions=ent.mentions)
        else:
            _merge_entity(have, ent)


def _merge_entity(into: Entity, other: Entity) -> None:
    into.aliases |= other.aliases
    into.mentions += other.mentions
    if len(other.label) > len(into.label) and into.type != "Place":
        into.label = other.label


def _fold_short_names(facts: ArticleFacts, seen_in: dict[str, set[int]]) -> None:
    """After merging pieces: a person named by part of exactly one longer name is that person.

    Within one piece extraction already does this ("Moen" -> "Halvard Moen"); across pieces a
    short name can only be joined here, and only with a longer name never seen in the same piece
    (where extraction has already decided).
    """
    from ..model.names import compact

    persons = [e for e in facts.entities.values() if e.type == "Person"]
    words = {e.key: {compact(w) for w in re.split(r"[\s\-]+", e.label)} - {""} for e in persons}
    target: dict[str, str] = {}
    for e in persons:
        mine = words[e.key]
        longer = [o.key for o in persons if o.key != e.key and len(words[o.key]) > len(mine) and mine <= words[o.key]]
        if mine and len(longer) == 1 and not seen_in.get(e.key, set()) & seen_in.get(longer[0], set()):
            target[e.key] = longer[0]
    if not target:
        return

    def final(k: str | None) -> str | None:
        seen = set()
        while k in target and k not in seen:
            seen.add(k)
            k = target[k]
        return k

    for old in target:
        new = final(old)
        if new != old and new in facts.entities and old in facts.entities:
            _merge_entity(facts.entities[new], facts.entities.pop(old))
    facts.events = [replace(e, actor=final(e.actor), target=final(e.target), reported_by=final(e.reported_by))
                    for e in facts.events]
    facts.roles = [replace(r, person=final(r.person) or r.person, org=final(r.org) or r.org) for r in facts.roles]


def finish(work: Work) -> ArticleFacts:
    """The article's facts once every piece is merged: short names folded, entities in key order."""
    facts = work.facts
    if len(work.pieces) > 1:
        _fold_short_names(facts, work.seen_in)
    facts.entities = dict(sorted(facts.entities.items()))
    return facts
