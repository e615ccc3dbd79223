"""Tests on the parse that the career reader makes of a verb's clause."""
from __future__ import annotations

from spacy.tokens import Token

from ...nlp.lexicon import REPORTING_VERBS
from ..grammar.columns import kids
from ...nlp.lexicon import CONDITIONAL_MARKS


def reported_in_past(verb: Token) -> bool:
    """Whether a clause is what a past reporting verb says, with no condition on it ("Acme said
    that ..."; not "... if the board agrees")."""
    head = verb.head
    return (verb.dep_ == "ccomp" and head.tag_ == "VBD" and head.lemma_.lower() in REPORTING_VERBS
            and not any(c.dep_ in ("advcl", "mark") and c.lower_ in CONDITIONAL_MARKS
                        or c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in CONDITIONAL_MARKS for m in kids(c))
                        for c in kids(verb)))


def shares_subject(verb: Token) -> bool:
    """A verb whose subject is its head's: coordinated, controlled ("asked to serve"), an infinitive of
    purpose ("left Acme to join Zenith") or a participle ("joined Acme in 1998, serving as its director")."""
    return verb.dep_ in ("xcomp", "conj") or (verb.dep_ == "advcl" and any(
        c.dep_ == "aux" and c.lower_ == "to" for c in kids(verb))) or (
        verb.dep_ == "advcl" and verb.tag_ == "VBG" and not any(c.dep_ in ("nsubj", "mark") for c in kids(verb)))

