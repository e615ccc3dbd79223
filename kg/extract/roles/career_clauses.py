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
    """A verb whose subject is its head's: coordinated, controlled ("asked to serve"), or an infinitive
    of purpose ("left Acme to join Zenith")."""
    return verb.dep_ in ("xcomp", "conj") or after_prefix(verb) or (verb.dep_ == "advcl" and any(
        c.dep_ == "aux" and c.lower_ == "to" for c in kids(verb)))


def after_prefix(verb: Token) -> bool:
    """ "was re-elected": the tokenizer cut the verb after "re-" and the parser made "re" the head that
    holds the clause's subject and auxiliaries."""
    doc = verb.doc
    return (verb.i >= 2 and doc[verb.i - 1].text == "-" and not doc[verb.i - 2].whitespace_
            and doc[verb.i - 2].lower_ == "re" and verb.head.i == verb.i - 2)
