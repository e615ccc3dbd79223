"""Events stated by nouns: "the assassination of X by Y", "Y's murder of X", "X's killer, Y".

Only fully stated ones become events: both the one who acts and the one acted on must be
named in the noun phrase; "the burning of the books" (no agent) stays a noun.
"""
from __future__ import annotations

from spacy.tokens import Span, Token

from ...model.facts import Event, Evidence
from ..context.modality import modality as clause_modality
from ..entities.index import EntityIndex
from ..grammar.columns import kids
from .accusation import Subjects, accusation

#: Event nouns and the verb they nominalise.
EVENT_NOUNS = {
    "assassination": "assassinate", "killing": "kill", "murder": "murder", "slaying": "slay",
    "shooting": "shoot", "execution": "execute", "kidnapping": "kidnap", "abduction": "abduct",
    "arrest": "arrest", "capture": "capture", "bombing": "bomb", "invasion": "invade", "attack": "attack",
    "beheading": "behead", "stabbing": "stab", "strangling": "strangle", "rescue": "rescue",
}

#: Nouns of an outcome that are a deed only as what someone is charged with, tried, convicted or
#: sentenced for ("charged in the death of X"); "the death of X" alone names no doer.
JUDGED_NOUNS = {"death": "kill"}

#: Agent nouns: the person who is one did the act to whom the noun is "of".
AGENT_NOUNS = {
    "assassin": "assassinate", "killer": "kill", "murderer": "murder", "kidnapper": "kidnap",
    "abductor": "abduct", "attacker": "attack", "slayer": "slay", "executioner": "execute",
}

#: Every noun that can state an event here.
_TRIGGERS = frozenset(EVENT_NOUNS) | frozenset(JUDGED_NOUNS) | frozenset(AGENT_NOUNS)

#: Modifiers of an agent noun that only allege the deed ("the accused assassin of X").
_ALLEGED = frozenset("accused alleged suspected presumed would-be".split())


def _conjuncts(tok: Token) -> list[Token]:
    """A noun and the nouns coordinated with it ("of Ana Ruiz and Tom Lee")."""
    return [tok] + [t for c in kids(tok) if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN") for t in _conjuncts(c)]


def _pobj(tok: Token, prep: str) -> Token | None:
    for c in kids(tok):
        if c.dep_ in ("prep", "agent") and c.lower_ == prep:
            for p in kids(c):
                if p.dep_ == "pobj":
                    return p
    return None


def nominal_events(sent: Span, index: EntityIndex, evidence: Evidence, subjects: Subjects) -> list[Event]:  # noqa: C901 (20): a chain of construction rules; issue 33 step 2 makes them named rules
    """Events whose trigger is an event noun or an agent noun with both participants named.

    An event noun with no agent of its own takes the accused of the charge, trial or verdict it
    is the object of ("X was charged in the slaying of Y"; see ``accusation``).
    """
    out: list[Event] = []
    doc, cols = sent.doc, index.cols
    for i in range(sent.start, sent.end):
        if cols.pos_[i] not in ("NOUN", "PROPN") or cols.lemma_[i].lower() not in _TRIGGERS:
            continue  # read off the columns: no Token for the other words
        tok = doc[i]
        lemma = tok.lemma_.lower()
        actors: list[str | None] = []
        targets: list[str | None] = []
        negated, modality, reported_by = False, "asserted", None
        if lemma in EVENT_NOUNS or lemma in JUDGED_NOUNS:
            action = EVENT_NOUNS.get(lemma) or JUDGED_NOUNS[lemma]
            of, by = _pobj(tok, "of"), _pobj(tok, "by")
            poss = next((c for c in kids(tok) if c.dep_ == "poss"), None)
            if lemma in JUDGED_NOUNS:
                # "charged in the death of X": a death is a deed only as what someone is judged for
                by, patient = None, of if of is not None else poss
                agent = None
            else:
                if by is None and tok.dep_ == "dobj" and not any(c.dep_ == "auxpass" for c in kids(tok.head)):
                    # An active verb takes no "by" agent: "investigated the murder of X by Y" is the noun's.
                    by = _pobj(tok.head, "by")
                    if by is not None and not (index.named_key(by) or "").startswith("Person:"):
                        by = None
                patient = of if of is not None else None
                agent = by if by is not None else (poss if of is not None else None)
                if patient is None and by is not None:
                    # "the Hale assassination by Dorn", "Hale's assassination by Dorn": the patient is a
                    # name modifying the noun
                    patient = next((c for c in kids(tok) if c.dep_ in ("compound", "nmod", "poss") and index.named_key(c)), None)
            doers = _conjuncts(agent) if agent is not None else []
            judged = accusation(tok, subjects) if agent is None and patient is not None else None
            if judged is not None:
                doers = judged.accused
                negated, modality = judged.negated, judged.modality
                frame = _governing_verb(tok)
                if frame is not None and clause_modality(frame)[0] == "hypothetical":
                    modality = "hypothetical"  # "could face charges in the killing of X", "if convicted"
                if modality == "reported" and judged.accuser is not None:
                    reported_by = index.resolve(judged.accuser)
            if not doers or patient is None:
                continue
            actors = [index.resolve(a) for a in doers]
            targets = [index.resolve(p) for p in _conjuncts(patient)]
        elif lemma in AGENT_NOUNS:
            action = AGENT_NOUNS[lemma]
            person = _person_of(tok, index)
            victim = _pobj(tok, "of") or next((c for c in kids(tok) if c.dep_ == "poss"), None)
            if victim is None:  # "Hale assassin Paul Dorn": a name before the noun
                before = [c for c in kids(tok) if c.dep_ in ("compound", "nmod") and c.i < tok.i]
                if tok.i > sent.start and tok.dep_ == "compound":  # flat: "Hale assassin Paul Dorn"
                    before.append(tok.doc[tok.i - 1])
                victim = next((c for c in before if (index.named_key(c) or "").startswith("Person:")), None)
            if person is None or victim is None:
                continue
            actors, targets = [person], [index.resolve(v) for v in _conjuncts(victim)]
            alleged = {c.lower_ for c in kids(tok) if c.dep_ in ("amod", "compound")} & _ALLEGED
            if alleged:  # "the accused assassin", "the would-be killer"
                modality = "reported" if alleged - {"would-be"} else "hypothetical"
        else:
            continue
        for actor in actors:
            for target in targets:
                if actor is None or target is None or actor == target:
                    continue
                out.append(Event(actor=actor, action=action, target=target, evidence=evidence, rule="nominal",
                                 confidence=0.6, negated=negated, modality=modality, reported_by=reported_by,
                                 trigger=Evidence(tok.text, tok.idx, tok.idx + len(tok.text))))
    return out


def _governing_verb(tok: Token) -> Token | None:
    """The verb of the clause a noun phrase belongs to."""
    node = tok
    for _ in range(8):
        if node.head == node:
            return None
        node = node.head
        if node.pos_ in ("VERB", "AUX"):
            return node
    return None


def _person_of(noun: Token, index: EntityIndex) -> str | None:
    """The named person an agent noun describes: "assassin Paul Dorn", "Dorn, the assassin"."""
    head = noun.head
    if noun.dep_ in ("compound", "appos", "nmod") and index.named_key(head):
        key = index.named_key(head)
        return key if key and key.startswith("Person:") else None
    for c in kids(noun):
        if c.dep_ == "appos" and index.named_key(c):
            key = index.named_key(c)
            return key if key and key.startswith("Person:") else None
    if noun.dep_ in ("attr",) and head.lemma_ == "be":
        subj = next((c for c in kids(head) if c.dep_ == "nsubj"), None)
        if subj is not None:
            key = index.resolve(subj)
            return key if key and key.startswith("Person:") else None
    return None
