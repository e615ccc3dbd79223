"""Unnamed participants: which common nouns name people, and how an unnamed group is labelled.

A noun phrase such as "two Belavian army advisers" or "the village elders" has no name,
but it acts and is acted on. These functions decide whether a noun can head such a group and
what the group's label is; ``EntityIndex`` registers the groups and resolves later mentions.
"""
from __future__ import annotations

from spacy.tokens import Token

from ...nlp.lexicon import ATTACKER_NOUNS, COLLECTIVE_NOUNS, HUMAN_NOUNS, HUMAN_SUFFIXES, NOT_HUMAN, ROLE_NOUNS
from ...nlp.words import known_word
from ..grammar.columns import kids

#: Nouns that name a concrete place or facility an action can be aimed at.
FACILITY_NOUNS = frozenset("""
base bases embassy consulate building buildings office offices compound headquarters camp camps station
post posts village town city website site sites server servers home house school hospital church mosque
temple border checkpoint airport port harbour harbor tunnel bridge road highway prison jail factory mine
stadium waters
""".split())

#: Nouns for vehicles and craft: unnamed participants that move and are acted on ("the submarine").
VEHICLE_NOUNS = frozenset("""
submarine ship vessel boat warship frigate destroyer cruiser carrier tanker freighter ferry yacht trawler
aircraft airplane aeroplane plane airliner jet jetliner helicopter drone shuttle spacecraft
train truck lorry bus tank convoy vehicle car
""".split())

_PERSON_COMPOUNDS = ("man", "men", "woman", "women", "person", "persons", "people")
_NOT_PERSON_COMPOUNDS = frozenset("talisman ottoman abdomen specimen regimen acumen stamen".split())


#: Nouns of two or three people, when no "of" phrase makes them an amount: never "he" or "she".
PAIR_NOUNS = frozenset(("couple", "pair", "duo", "trio"))


def is_human_noun(tok: Token) -> bool:
    """Whether a common noun names people or a body of people (an actor can be unnamed)."""
    low, lemma = tok.lower_, tok.lemma_.lower()
    if tok.tag_ == "NNPS" and low.endswith("s"):
        lemma = low[:-1]  # "Border Patrol Agents": a capitalized plural keeps its -s as lemma
    if low in NOT_HUMAN or lemma in NOT_HUMAN or lemma in FACILITY_NOUNS or lemma in VEHICLE_NOUNS:
        return False
    if low in HUMAN_NOUNS or lemma in HUMAN_NOUNS or lemma in ROLE_NOUNS or lemma in ATTACKER_NOUNS:
        return True
    if tok.pos_ == "NOUN" and len(low) > 5 and low.endswith(_PERSON_COMPOUNDS) and low not in _NOT_PERSON_COMPOUNDS:
        return True  # "cameraman", "firemen", "chairwoman", "salesperson"
    if lemma in PAIR_NOUNS and any(c.dep_ == "det" for c in kids(tok)) and not any(
            c.dep_ == "prep" and c.lower_ == "of" for c in kids(tok)):
        return True  # "the couple were released"; "a couple of days" is an amount
    if low.endswith(("ment", "ments")):
        return False  # "-ment" makes nouns of acts and things ("apartment", "shipment"), never of people
    return tok.pos_ == "NOUN" and len(low) > 5 and low.endswith(HUMAN_SUFFIXES) and _agentive(tok)


def is_vehicle(tok: Token) -> bool:
    """Whether a common noun names a vehicle or craft ("the submarine", "two helicopters"); a bare
    plural names a kind ("it makes ferries"), no participant."""
    if tok.pos_ != "NOUN" or tok.lemma_.lower() not in VEHICLE_NOUNS:
        return False
    return tok.tag_ != "NNS" or any(c.dep_ in ("det", "nummod", "poss", "amod", "compound") for c in kids(tok))


def is_collective(tok: Token) -> bool:
    """Whether a human noun names a body of people ("team", "court", "board") rather than one
    person: a singular body is "it" or "they", never "he" or "she"."""
    return tok.lemma_.lower() in COLLECTIVE_NOUNS or tok.lower_ in COLLECTIVE_NOUNS


def _agentive(tok: Token) -> bool:
    """An -er/-or noun names a doer only when it is built on a word ("farm-er", "manag-er",
    "shopp-er", "villag-er", "lawbreak-er"); "hunger", "water" and "winter" are not. Other
    suffixes pass."""
    low = tok.lemma_.lower() if tok.lemma_ else tok.lower_
    for suffix in ("er", "or"):
        if low.endswith(suffix):
            stem = low[: -len(suffix)]
            stems = {stem, stem + "e"} | ({stem[:-1]} if len(stem) > 2 and stem[-1] == stem[-2] else set())
            if stem.endswith("i"):
                stems.add(stem[:-1] + "y")  # "suppli-er"
            known = [known_word(tok.vocab, s, pos) for s in stems for pos in ("verb", "noun")]
            # "law-break-er", "peace-keep-er": a compound's last part, a verb ("helicopt-er" has none)
            parts = {stem[i:] for i in range(1, len(stem) - 3)}
            known += [known_word(tok.vocab, p, "verb") for p in parts | {p + "e" for p in parts}]
            return True if None in known else any(known)
    return True


#: Determiners that tell which or how many members a group has: kept in its label.
_QUANTIFYING_DETERMINERS = frozenset("all both another several many some few each every most".split())
_LABEL_MODIFIERS = ("amod", "compound", "nummod", "nmod", "quantmod", "npadvmod", "advmod")


def group_label(tok: Token) -> str:
    """The noun phrase of an unnamed actor, without determiners, clauses or appositions."""
    keep: list[Token] = []

    def modifier(c: Token) -> None:
        keep.append(c)
        for g in kids(c):
            if g.dep_ in _LABEL_MODIFIERS + ("conj", "cc") or (g.dep_ == "punct" and g.text == "-"):
                modifier(g)

    for c in tok.lefts:
        if c.dep_ in ("det", "predet") and c.lower_ in _QUANTIFYING_DETERMINERS:
            keep.append(c)  # "all people", "another judge": which or how many is part of the group
            continue
        if c.dep_ in ("det", "poss", "punct", "case", "predet") or c.lower_ == "such":
            continue
        if c.dep_ in _LABEL_MODIFIERS:
            modifier(c)
    keep.append(tok)
    for c in tok.rights:
        if c.dep_ == "prep" and c.lower_ in ("of", "for"):
            pobj = [p for p in kids(c) if p.dep_ == "pobj"]
            if pobj:
                keep.append(c)
                for m in pobj[0].lefts:
                    if m.dep_ not in ("det", "poss", "punct", "case"):
                        modifier(m)
                keep.append(pobj[0])
            break
    keep = sorted(set(keep), key=lambda t: t.i)
    text = ""
    for t in keep:
        text += t.text if (t.text == "-" or text.endswith("-")) else (" " + t.text if text else t.text)
    return text.strip(" ,")
