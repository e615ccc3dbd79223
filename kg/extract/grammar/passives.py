"""Passive clauses: a verb's own passive marks, and a participle that shares the passive of the verb before it."""
from __future__ import annotations

from spacy.tokens import Token

from .columns import kids

__all__ = ["is_passive", "elided_passive"]


def is_passive(verb: Token) -> bool:
    """Whether a verb is passive: an auxiliary "be/get" of the passive, or a passive subject."""
    return any(c.dep_ in ("auxpass", "nsubjpass") for c in kids(verb))


def elided_passive(verb: Token) -> bool:
    """ "30 people were killed and 100 injured": a participle joined to a passive that leaves its
    "were" out is a passive of its own (its subject the one acted on)."""
    return (verb.tag_ == "VBN" and verb.dep_ == "conj" and is_passive(verb.head)
            and not any(c.dep_ in ("aux", "dobj") for c in kids(verb)))
