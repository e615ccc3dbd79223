"""Who an accusation, a trial or a verdict says did a deed: the frame around "of killing X".

"X was charged in the slaying of Y", "prosecutors accused X of killing Y", "X went on trial for
the assassination of Y", "the jury found X not guilty of murdering Y": the deed (a gerund or an
event noun) has no subject of its own; its doer is the one the charge, trial or verdict is about,
which is often the *object* of the judging verb, not its subject. The frame also says how sure
the text is: a charge, an arrest or a condemnation only alleges (modality "reported", by the
accuser when named),
a conviction or a sentence establishes, an acquittal or "not guilty" denies (negated).
A punishment still ahead ("faces life in prison for the murder of Y") only alleges; a negation
reaches the deed only through the judgement ("was not charged in", "not guilty of"), not through
a word about the punishment ("will not be eligible for parole for the killing of Y").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from spacy.tokens import Token

from ...nlp.lexicon import NEGATIONS
from ..grammar.columns import kids

#: Words of an allegation or of someone's judgement ("condemned X for killing Y"): the deed is
#: claimed by them, not established by the text.
ALLEGING = frozenset("""
accuse charge suspect indict arrest allege blame detain question prosecute try investigate sue
arraign extradite hunt seek implicate accusation allegation trial suspicion indictment warrant responsible
condemn criticize criticise denounce praise thank congratulate applaud commend fault slam reward honor credit
""".split())
#: Words of an established deed: a conviction, a sentence, a plea, a punishment.
ESTABLISHING = frozenset("""
convict sentence plead jail imprison punish hang execute serve fine confess admit guilty conviction
prison parole
""".split())
#: Verbs of a judgement or punishment still to come ("faces life in prison for", "awaits trial"):
#: the deed is alleged, whatever the punishment says.
PENDING = frozenset("face risk await".split())
#: Words that clear the accused: the deed is denied.
CLEARING = frozenset("acquit clear exonerate absolve pardon innocent acquittal".split())
#: Judging verbs whose *object* is the accused ("accused X of", "found X guilty of").
OBJECT_JUDGES = frozenset("""
accuse charge convict blame suspect find acquit clear sentence indict arrest jail hold try sue
prosecute punish fine implicate exonerate absolve pardon execute hang detain condemn criticize criticise
denounce praise thank congratulate applaud commend fault slam reward honor credit
""".split())
#: Prepositions that tie a deed to its judgement ("charged in", "accused of", "jailed for").
_PREPS = frozenset("of for in with to over".split())

Subjects = Callable[[Token], tuple[list[Token], bool]]


@dataclass(frozen=True)
class Accusation:
    """The doer of a judged deed, and how the judgement qualifies it."""

    accused: list[Token]
    modality: str  # "reported" (alleged) or "asserted"
    negated: bool
    accuser: Token | None


def _kind(word: Token) -> str | None:
    lemma = word.lemma_.lower()
    for name, words in (("clearing", CLEARING), ("establishing", ESTABLISHING), ("alleging", ALLEGING)):
        if lemma in words or word.lower_ in words:
            return name
    return None


def accusation(deed: Token, subjects: Subjects) -> Accusation | None:
    """The frame around a deed that is a gerund (pcomp) or an event noun (pobj) of a preposition.

    ``subjects`` gives a verb's subject tokens and whether it is passive (the event reader's rule).
    None when the deed is not tied to a charge, trial or verdict.
    """
    prep = deed.head
    if deed.dep_ not in ("pcomp", "pobj") or prep.dep_ != "prep" or prep.lower_ not in _PREPS:
        return None
    chain: list[Token] = []
    node = prep.head
    for _ in range(6):
        chain.append(node)
        if node.pos_ in ("VERB", "AUX") or node.head == node:
            break
        node = node.head
        if node.dep_ == "prep" and node.head != node:
            node = node.head
    remote: list[Token] = []
    if chain[-1].pos_ in ("VERB", "AUX"):
        # "went on trial for", "faces charges in", "is in jail for": the judgement is a sibling noun.
        top = chain[-1]
        chain += [c for c in kids(top) if c.dep_ == "dobj" and c.pos_ == "NOUN"]
        chain += [p for c in kids(top) if c.dep_ == "prep" and c.i != prep.i
                  for p in kids(c) if p.dep_ == "pobj" and p.pos_ == "NOUN"]
        # "is eligible for parole for the killing": a punishment named under the predicate adjective.
        remote = [p for a in kids(top) if a.dep_ == "acomp" and a.pos_ == "ADJ" and _kind(a) is None
                  for c in kids(a) if c.dep_ == "prep" for p in kids(c) if p.dep_ == "pobj" and p.pos_ == "NOUN"]
        chain += remote
        chain.append(chain.pop(chain.index(top)))
    kinds = [(k, w) for k, w in ((_kind(w), w) for w in chain) if k]
    if not kinds:
        return None
    kind, judge = next(((k, w) for k, w in kinds if k == "clearing"), kinds[0])
    if kind == "establishing" and chain[-1].lemma_.lower() in PENDING:
        kind = "alleging"  # "faces life in prison for the murder of Y": not yet judged
    scope = [judge] if judge in remote else chain  # "not eligible for parole": the negation is the adjective's
    negated = kind == "clearing" or any(c.dep_ == "neg" or (c.lower_ in NEGATIONS and c.dep_ in ("advmod", "det"))
                                        for w in scope for c in kids(w))
    modality = "reported" if kind == "alleging" else "asserted"
    small = next((c for w in chain if w.pos_ == "ADJ" for c in kids(w) if c.dep_ == "nsubj"), None)
    verb = chain[-1] if chain[-1].pos_ in ("VERB", "AUX") else None
    if small is not None:
        return Accusation([small], modality, negated, _subject(verb, subjects) if verb is not None else None)
    if verb is None:
        return None
    objs = [c for c in kids(verb) if c.dep_ == "dobj" and c.pos_ in ("PROPN", "NOUN", "PRON")]
    if objs and verb.lemma_.lower() in OBJECT_JUDGES:
        return Accusation(objs, modality, negated, _subject(verb, subjects))
    agent = next((p for c in kids(verb) if c.dep_ == "agent" for p in kids(c) if p.dep_ == "pobj"), None)
    if _predicated(verb):
        # "stands accused of", "was held accused of", "Convicted of X, Lee was ...": the participle
        # says it of its host clause's subject (or object: "they held him accused of").
        host = verb.head
        objs = [c for c in kids(host) if c.dep_ == "dobj"] if verb.dep_ == "oprd" else []
        accused = objs or subjects(host)[0]
        return Accusation(accused, modality, negated, agent) if accused else None
    accused, passive = subjects(verb)
    if not accused:
        return None
    return Accusation(accused, modality, negated, agent if passive else None)


def _subject(verb: Token, subjects: Subjects) -> Token | None:
    found, passive = subjects(verb)
    return found[0] if found and not passive else None


def _predicated(verb: Token) -> bool:
    """A judging participle predicated of another clause's argument, with no subject of its own:
    "stands accused", "was held accused", "Convicted of X, Lee ..."."""
    return (verb.tag_ == "VBN" and verb.dep_ in ("acomp", "oprd", "advcl", "xcomp")
            and not any(c.dep_ in ("nsubj", "nsubjpass", "auxpass") for c in kids(verb))
            and verb.head.pos_ in ("VERB", "AUX"))
