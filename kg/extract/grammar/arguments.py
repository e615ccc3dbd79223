"""How the parse hangs a clause's arguments, and where it hangs them wrong: subjects the parser
attached elsewhere (a stray subject, a relative pronoun after a noun, gapped subjects, a
stranded object), objects shared by coordinated verbs or left as the gap of a relative clause,
the noun a quantity counts, a particle's place. ``events`` reads a clause's arguments with these.
"""
from __future__ import annotations

from spacy.tokens import Token

from ...nlp.lexicon import ATTACK_NOUNS, NATURAL_FORCES, QUANTITY_NOUNS
from .columns import kids
from .labels import SUBJECTS

__all__ = [
    "REFLEXIVES",
    "conjuncts",
    "misplaced_relative",
    "subject_of_next",
    "stray_subject",
    "gapped_subjects",
    "shared_object",
    "object_gap",
    "attacker",
    "natural_force",
    "stranded_object",
    "counted",
    "particle_place",
]

_POSTMODIFIERS = ("prep", "relcl", "acl", "punct", "appos", "conj", "cc")
REFLEXIVES = frozenset("myself yourself himself herself itself ourselves yourselves themselves".split())


def conjuncts(tok: Token) -> list[Token]:
    """A noun and the nouns, names and pronouns coordinated with it."""
    out = [tok]
    for c in kids(tok):
        if (c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN", "PRON")) or _listed_name(tok, c):
            out.extend(conjuncts(c))
    return out


def _listed_name(tok: Token, appos: Token) -> bool:
    """ "Ann Lee, Bo Chan, Cy Ng and Di Fox were sentenced": a person's name the parser hung as an
    apposition on another person's name, going on with "and" a name, is the next of a list."""
    return (appos.dep_ == "appos" and appos.i > tok.i and tok.ent_type_ == "PERSON" and appos.ent_type_ == "PERSON"
            and any(c.dep_ == "conj" and c.ent_type_ == "PERSON" for c in kids(appos)))


def misplaced_relative(subject: Token) -> bool:
    """A relative pronoun ("who", "which") right after a noun, as the subject of a clause the
    parser did not attach as a relative clause: the noun is the subject."""
    return (subject.lower_ in ("who", "which") and subject.tag_ in ("WP", "WDT") and subject.i > 0
            and subject.doc[subject.i - 1].pos_ in ("NOUN", "PROPN"))


def subject_of_next(noun: Token) -> bool:
    """Whether a noun is the stray subject of the verb right after it (``stray_subject``)."""
    nxt = noun.i + 1
    return nxt < len(noun.doc) and noun.doc[nxt].dep_ == "conj" and stray_subject(noun.doc[nxt]) == noun


def stray_subject(verb: Token) -> Token | None:
    """ "crews drove to the coast and the Red Crescent says ...": a finite conjunct with no
    subject, right after a noun the parser joined to an earlier object: that noun is its subject."""
    if verb.i == 0 or any(c.dep_ in SUBJECTS for c in kids(verb)):
        return None
    noun = verb.doc[verb.i - 1]
    if noun.pos_ not in ("NOUN", "PROPN") or noun.dep_ != "conj" or noun.head.dep_ not in ("pobj", "dobj", "conj"):
        return None
    return noun if any(c.dep_ == "cc" and c.i < noun.left_edge.i for c in kids(noun.head)) else None


def gapped_subjects(verb: Token) -> list[Token]:
    """ "X was jailed for five years, Y for three and Z for two": names that follow the
    clause, each with a phrase of its own, are subjects of the same verb, left out (gapped)."""
    doc = verb.doc

    def gapped(t: Token) -> bool:
        return (t.dep_ in ("npadvmod", "appos", "conj") and t.i > verb.i and t.pos_ == "PROPN"
                and t.ent_type_ == "PERSON" and t.left_edge.i > 0
                and doc[t.left_edge.i - 1].lower_ in (",", "and", "or")
                and (any(p.dep_ == "prep" for p in kids(t)) or t.i + 1 < len(doc) and doc[t.i + 1].dep_ == "prep"))

    out: list[Token] = []
    for c in kids(verb):
        if gapped(c):
            out.extend(t for t in c.subtree if t == c or gapped(t))
    return out


def shared_object(verb: Token) -> list[Token]:
    """ "shot and killed him", "arrested and jailed two men": a verb done to people with no object
    of its own, joined by "and" right before a verb that has one, shares that object (when it
    names people: "shot and then fled the scene" shares nothing)."""
    nxt = next((c for c in kids(verb) if c.dep_ == "conj" and c.pos_ == "VERB"), None)
    if nxt is None or any(c.dep_ in ("dobj", "dative", "prep", "prt", "ccomp", "xcomp", "auxpass", "nsubjpass")
                          or c.dep_ == "nsubj" and c.i > verb.i for c in kids(verb) if c.i < nxt.i):
        return []
    between = verb.doc[verb.i + 1:nxt.i]
    if not any(t.lower_ == "and" for t in between) or not all(t.dep_ in ("cc", "advmod") for t in between):
        return []
    if any(c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass") for c in kids(nxt)):
        return []  # a clause of its own ("shot, and the police arrested him")
    return [t for c in kids(nxt) if c.dep_ == "dobj" for t in conjuncts(c) if t.lower_ not in REFLEXIVES]


def object_gap(verb: Token) -> bool:
    """A relative clause with a subject of its own, no object and no relative pronoun ("the
    villages that the rebels burned", "the deal he signed"): its object is the noun it modifies. One
    ending in a preposition ("the town they fled from") is that preposition's; one opened by
    "when", "where" or "why" ("the night when the guards fled") has no gap."""
    if verb.doc[verb.left_edge.i].tag_ == "WRB":
        return False
    if not any(c.dep_ == "nsubj" and c.tag_ not in ("WDT", "WP") for c in kids(verb)):
        return False
    if any(c.dep_ in ("dobj", "dative", "ccomp", "xcomp", "attr", "oprd", "nsubjpass", "auxpass")
           or c.tag_ in ("WDT", "WP") and c.dep_ != "mark" for c in kids(verb)):
        return False
    return not any(c.dep_ == "prep" and not any(p.dep_ in ("pobj", "pcomp") for p in kids(c)) for c in kids(verb))


def attacker(noun: Token) -> Token | None:
    """The one whose attack a noun names: its "by" phrase or possessor ("the shelling by the army",
    "the army's shelling")."""
    if noun.lemma_.lower() not in ATTACK_NOUNS and noun.lower_ not in ATTACK_NOUNS:
        return None
    for c in kids(noun):
        if c.dep_ == "poss":
            return c
        if c.dep_ == "prep" and c.lower_ == "by":
            return next((p for p in kids(c) if p.dep_ == "pobj"), None)
    return None


def natural_force(tok: Token) -> bool:
    """A storm, a flood, a landslide: it causes, it does not act."""
    return tok.lemma_.lower() in NATURAL_FORCES or tok.lower_ in NATURAL_FORCES


def stranded_object(tok: Token) -> bool:
    """ "a scheme backed ... for 2,000 families was rejected": a second subject right after a
    preposition that has no object is that preposition's object, misattached by the parser."""
    before = tok.left_edge.i - 1
    if before < tok.sent.start:
        return False
    prep = tok.doc[before]
    return prep.dep_ == "prep" and prep.pos_ == "ADP" and not any(c.dep_ in ("pobj", "pcomp") for c in kids(prep))


def counted(noun: Token) -> Token:
    """The noun a quantity noun counts ("fired dozens of rounds" -> "rounds"), else the noun."""
    if noun.lemma_.lower() not in QUANTITY_NOUNS and noun.lower_ not in QUANTITY_NOUNS:
        return noun
    for prep in kids(noun):
        if prep.dep_ == "prep" and prep.lower_ == "of":
            inner = next((p for p in kids(prep) if p.dep_ == "pobj" and p.pos_ == "NOUN"), None)
            if inner is not None:
                return counted(inner)
    return noun


def particle_place(verb: Token, prt: Token) -> bool:
    """A particle stands right after its verb or right after the verb's object ("turned the boats
    away"); an "out" further on is an adverb of another phrase ("contacted X over housing out at sea")."""
    def core_end(obj: Token) -> int:  # the object noun phrase without its prepositions and clauses
        return max([obj.i] + [c.right_edge.i for c in kids(obj) if c.i > obj.i and c.dep_ not in _POSTMODIFIERS])

    ends = [verb.i] + [core_end(c) for c in kids(verb) if c.dep_ in ("dobj", "dative") and c.i < prt.i]
    return prt.i - max(ends) <= 1
