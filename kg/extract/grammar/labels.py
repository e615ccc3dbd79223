"""Dependency labels (spaCy's English, ClearNLP style) that several readers test for, defined once.

Three sets of subject labels, each for what it is: a clause's doer, a noun phrase standing as subject,
and any subject at all (which is what tells that a clause has its own).
"""
from __future__ import annotations

__all__ = ["ACTIVE_SUBJECTS", "NOUN_SUBJECTS", "SUBJECTS"]

#: The subject of an active verb, a noun or a clause: the one who does the deed ("Lee" of "Lee left").
ACTIVE_SUBJECTS = frozenset(("nsubj", "csubj"))
#: A noun phrase as subject, of an active or a passive verb ("Lee" of "Lee left" and "Lee was seen").
NOUN_SUBJECTS = frozenset(("nsubj", "nsubjpass"))
#: Any subject: a clause with one is a clause of its own.
SUBJECTS = ACTIVE_SUBJECTS | NOUN_SUBJECTS
