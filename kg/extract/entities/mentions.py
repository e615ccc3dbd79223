"""A mention of an entity, and what reading the mentions of an article needs of its entity index.

``MentionIndex`` is the part of ``EntityIndex`` that coreference and geography read: declared here,
below all three, so that neither ``coref`` nor ``places`` imports the index that is built from them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from spacy.tokens import Doc, Token

from ...model.facts import Entity
from ..grammar.columns import Columns

__all__ = ["Mention", "MentionIndex"]


@dataclass
class Mention:
    """One mention of an entity: its key, token span, type, number, and whether it is a subject
    (or the "by" agent of a passive: its doer, a weaker antecedent than a subject)."""

    key: str
    start: int
    end: int
    type: str
    plural: bool
    subject: bool
    agent: bool = False


class MentionIndex(Protocol):
    """An article's entities and their mentions in text order, and the resolver from tokens to entity keys."""

    doc: Doc
    cols: Columns
    entities: dict[str, Entity]
    mentions: list[Mention]
    #: person key -> the organization the person speaks for
    affiliation: dict[str, str]

    def resolve(self, tok: Token, allow_things: bool = False) -> str | None: ...

    def canonical(self, key: str | None) -> str | None: ...

    def org_of_modifier(self, tok: Token) -> str | None: ...

    def countries(self) -> set[str]: ...
