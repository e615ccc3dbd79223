"""Who did what to whom: actor-action-target events read off the dependency parse.

One event per clause in which an actor acts: active and passive voice, coordinated verbs,
subjects and objects (one event each), control and purpose clauses, phrasal verbs and
verb+preposition targets, light verbs, reporting verbs. Negation and modality are
recorded (``Event.negated``, ``Event.modality``), never silently dropped.
"""
from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Span, Token

from ..facts import Evidence, Event
from ..nlp.lexicon import (
    GOAL_PREPOSITIONS,
    HABITUAL_ADVERBS,
    MODALS,
    NON_EVENT_VERBS,
    OBJECT_CONTROL_VERBS,
    PLAN_NOUNS,
    PLAN_VERBS,
    QUANTITY_NOUNS,
    REPORTING_VERBS,
    REQUEST_VERBS,
    UNACCUSATIVE_VERBS,
)
from .accusation import accusation
from .entities import EntityIndex
from .nominal import nominal_events

_SUBJ = ("nsubj", "csubj")
_CLAUSE_LINKS = ("xcomp", "ccomp", "conj", "advcl", "relcl", "acl", "pcomp")
_CONDITIONAL_MARKS = {"if", "unless", "whether"}
_NEG_WORDS = {"not", "n't", "never", "no"}
_NEGATIVE_VERBS = {"refuse", "decline", "fail", "deny"}
_PREVENTING_VERBS = {"ban", "bar", "prevent", "stop", "prohibit", "block", "keep", "refrain", "forbid", "restrain"}
#: "a user labelled Anonymous", "a group known as X": naming, not an event done to someone.
_NAMING_VERBS = frozenset("label call name dub title know entitle nickname term style brand".split())
_POSTMODIFIERS = ("prep", "relcl", "acl", "punct", "appos", "conj", "cc")
_NOT_THEMES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "PERCENT", "MONEY", "QUANTITY"}


@dataclass
class _Clause:
    verb: Token
    actors: list[str | None]
    targets: list[str | None]
    action: str
    rule: str


def evidence_of(sent: Span, text: str) -> Evidence:
    """The sentence as evidence, trimmed of surrounding whitespace, with exact offsets."""
    start, end = sent.start_char, sent.end_char
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Evidence(text=text[start:end], start=start, end=end)


#: Nouns whose "that" clause the writer does not vouch for: "the pretext that ...", "rumours that ...".
_PRETEXT_NOUNS = frozenset("pretext pretence pretense excuse rumour rumor".split())


def _conjuncts(tok: Token) -> list[Token]:
    out = [tok]
    for c in tok.children:
        if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN", "PRON"):
            out.extend(_conjuncts(c))
    return out


def _lost_infinitive(verb: Token) -> bool:
    """A bare verb coordinated with a finite one ("Labour has a plan to fast-track cases, get ...
    and take action"): English joins verbs of one form, so the bare one belongs to an infinitive
    whose "to" the parser attached elsewhere; it states no deed."""
    if verb.dep_ != "conj" or verb.tag_ != "VB" or any(c.dep_ in _SUBJ or c.dep_ == "aux" for c in verb.children):
        return False
    head = verb.head
    while head.dep_ == "conj" and head.head != head:
        head = head.head
    return head.tag_ in ("VBZ", "VBD") and not any(c.dep_ == "aux" for c in head.children)


def _is_verb(tok: Token) -> bool:
    return tok.pos_ == "VERB" and tok.dep_ not in ("amod", "aux", "auxpass", "compound")


class EventReader:
    """Reads events from the sentences of one parsed article."""

    def __init__(self, index: EntityIndex, text: str) -> None:
        self.index = index
        self.text = text

    # ----- arguments --------------------------------------------------------
    def subjects(self, verb: Token, depth: int = 0) -> tuple[list[Token], bool]:
        """Subject tokens of a verb (own, or inherited through control and coordination) and passivity."""
        own = [c for c in verb.children if c.dep_ in _SUBJ]
        if len(own) > 1:
            # "boats which the UN has criticised": the relative pronoun is the object, not a subject
            own = [c for c in own if c.tag_ not in ("WDT", "WP")] or own
        passive = [c for c in verb.children if c.dep_ == "nsubjpass"]
        if len(own) + len(passive) > 1:
            own, passive = ([c for c in group if not _stranded_object(c)] or group for group in (own, passive))
        if own:
            return [t for s in own for t in _conjuncts(s)], False
        if passive:
            return [t for s in passive for t in _conjuncts(s)], True
        if depth > 4:
            return [], False
        head = verb.head
        if verb.dep_ == "xcomp" or (verb.dep_ == "advcl" and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)):
            objs = [c for c in head.children if c.dep_ in ("dobj", "dative")]
            if verb.dep_ == "xcomp" and objs and head.lemma_ in OBJECT_CONTROL_VERBS:
                return [t for o in objs for t in _conjuncts(o)], False
            subj, head_passive = self.subjects(head, depth + 1)
            if head_passive and head.lemma_ in OBJECT_CONTROL_VERBS | {"authorize", "ask", "tell", "order"}:
                return subj, False
            return (subj, False) if not head_passive else ([], False)
        if verb.dep_ == "advcl" and verb.tag_ == "VBG" and (_is_verb(head) or head.pos_ == "AUX"):
            # "X, serving life for killing Y, was denied parole", "after meeting Y, X said": a
            # participial adjunct's subject is its clause's surface subject. One after a passive
            # verb tells a result of the event ("the site was attacked, causing it to shut down").
            subj, head_passive = self.subjects(head, depth + 1)
            return ([], False) if head_passive and verb.i > head.i else (subj, False)
        if verb.dep_ == "conj" and _is_verb(head):
            subj, head_passive = self.subjects(head, depth + 1)
            # "was interrogated ... and made to sign": a bare -ed conjunct shares the passive auxiliary.
            own_passive = any(c.dep_ == "auxpass" for c in verb.children) or (
                verb.tag_ in ("VBN", "VBD") and head_passive
                and not any(c.dep_ in ("dobj", "aux") for c in verb.children))
            if head_passive and not own_passive:
                up = head
                while up.dep_ in ("ccomp", "conj") and up.head != up:
                    up = up.head
                    if _is_verb(up) or up.pos_ == "AUX":
                        s2, p2 = self.subjects(up, depth + 1)
                        if s2 and not p2:
                            return s2, False
                return [], False
            return subj, head_passive and own_passive
        if verb.dep_ == "relcl":
            return [head], False
        if verb.dep_ == "pcomp" and verb.tag_ == "VBG":
            doer = next((c for c in head.children if c.dep_ == "pobj" and c.right_edge.i == verb.i - 1
                         and self.index.named_key(c) is not None), None)
            if doer is not None:
                return [doer], False  # "footage of Jack Ruby shooting Oswald": the name is the doer
            # "He was jailed for killing X", "before killing X": the gerund's subject is the clause's.
            gov = head.head
            while gov.pos_ in ("NOUN", "PROPN", "ADJ") and gov.head != gov and gov.dep_ in ("dobj", "pobj", "prep", "acomp", "attr", "npadvmod"):
                gov = gov.head
            if _is_verb(gov) or gov.pos_ == "AUX":
                subj, _ = self.subjects(gov, depth + 1)
                return subj, False
            return [], False
        if verb.dep_ == "acl" and verb.tag_ in ("VBN", "VBD") and head.pos_ == "PROPN" and head.ent_type_ \
                and verb.i > head.i and not any(t.text == "," for t in verb.doc[head.i + 1:verb.i]) \
                and not any(c.dep_ == "agent" for c in verb.children):
            # A name takes no restrictive participle ("Karzai, condemned by many" needs the comma):
            # 'Karzai "condemned ..." the treatment' is Karzai's own finite verb, misparsed. With a
            # "by" phrase it is a participle ("the Center for Studies headed by Professor X").
            return [head], False
        if verb.dep_ == "acl" and verb.tag_ == "VBN" and head.pos_ in ("NOUN", "PROPN") \
                and verb.lemma_.lower() not in _NAMING_VERBS \
                and not any(c.dep_ == "dobj" for c in verb.children):  # a passive takes no object
            return [head], True  # "a plan backed by the Red Cross", "troops wounded in the attack"
        if verb.dep_ == "acl" and verb.tag_ == "VBG" and head.ent_type_ == "PERSON":
            return [head], False  # "James Ray, serving a sentence"
        return [], False

    def agents(self, verb: Token) -> list[Token]:
        """The "by" phrase of a passive verb."""
        out = []
        for c in verb.children:
            if c.dep_ == "agent":
                out.extend(t for p in c.children if p.dep_ == "pobj" for t in _conjuncts(p))
        return out

    def objects(self, verb: Token) -> tuple[list[Token], list[Token], str]:
        """Direct objects (entities), thing objects, and the particle/preposition that joins the action."""
        direct = [t for c in verb.children if c.dep_ in ("dobj", "dative") for t in _conjuncts(c)]
        if not direct:
            # "X shot and mortally wounded Y", parsed with "wounded" as Y's adjective and Y as a
            # conjunct of "shot": the name is the object of both verbs.
            direct = [c for c in verb.children if c.dep_ == "conj" and c.pos_ == "PROPN" and c.i > verb.i
                      and any(a.dep_ == "amod" and a.tag_ in ("VBN", "VBD") for a in c.lefts)]
        if verb.dep_ == "relcl" and verb.head.pos_ in ("NOUN", "PROPN"):
            # "a war that Scientology has been waging": the relative pronoun object is the head noun.
            direct = [verb.head if t.tag_ in ("WDT", "WP") and t.lower_ in ("that", "which", "whom", "who")
                      else t for t in direct]
        particle = " ".join(c.lower_ for c in verb.children if c.dep_ == "prt" and _particle_place(verb, c))
        entity_objs = [t for t in direct if self.index.resolve(t, allow_things=True) is not None]
        things = [t for t in direct if t not in entity_objs and t.pos_ in ("NOUN", "PROPN")]
        prep_word = ""
        if not entity_objs and verb.lemma_ in OBJECT_CONTROL_VERBS:
            for c in verb.children:
                if c.dep_ in ("ccomp", "xcomp"):
                    subj = [t for t in c.children if t.dep_ == "nsubj" and self.index.resolve(t) is not None]
                    if subj:
                        return subj, things, particle
        if not entity_objs:
            for c in verb.children:
                if c.dep_ != "prep":
                    continue
                pobjs = [t for p in c.children if p.dep_ == "pobj" for t in _conjuncts(p)]
                pobjs = [p for p in pobjs if p.ent_type_ not in _NOT_THEMES]
                if not pobjs:
                    continue
                resolved = [p for p in pobjs if self.index.resolve(p, allow_things=True) is not None]
                if resolved and (c.lower_ in GOAL_PREPOSITIONS or c.lower_ in ("for", "over", "about") and not things):
                    entity_objs = resolved
                    if not things:
                        prep_word = c.lower_
                    break
                if not things and not direct and c.lower_ in ("for", "on", "with", "over", "against", "about") \
                        and not prep_word and c.i == verb.i + 1 + len([x for x in verb.children if x.dep_ == "prt"]):
                    prep_word = c.lower_
        return entity_objs, things, " ".join(w for w in (particle, prep_word) if w)

    # ----- context ------------------------------------------------------------
    def negated(self, verb: Token) -> bool:
        """Whether the clause, or a clause that governs it by control, is negated."""
        t = verb
        for _ in range(4):
            if any(c.dep_ == "neg" or c.lower_ in _NEG_WORDS and c.dep_ in ("advmod", "neg", "det") for c in t.children):
                return True
            if t.dep_ == "xcomp" and t.head.lemma_ in _NEGATIVE_VERBS:
                return True
            if t.dep_ == "pcomp" and t.head.lower_ == "from" and t.head.head.lemma_ in _PREVENTING_VERBS:
                return True  # "banned from leaving", "stopped from entering"
            if t.dep_ == "pcomp":
                gov = t.head.head
                while gov.pos_ in ("NOUN", "PROPN", "ADJ") and gov.head != gov:
                    gov = gov.head
                if gov is not t and any(c.dep_ == "neg" for c in gov.children):
                    return True  # "did not offer proposals for reducing tensions"
            if t.dep_ in ("xcomp", "conj") and t.head != t:
                t = t.head
                if t.dep_ == "conj" or verb.dep_ == "conj":
                    continue
                continue
            break
        return False

    def modality(self, verb: Token) -> tuple[str, Token | None]:
        """asserted, reported (with the reporting verb), planned, hypothetical or generic."""
        if _lost_infinitive(verb):
            return "hypothetical", None
        t = verb
        reporter: Token | None = None
        own_tense = False
        for _ in range(8):
            for c in t.children:
                if own_tense and c.dep_ in ("aux", "advmod"):
                    continue
                if c.dep_ == "aux" and c.lower_ in MODALS:
                    return MODALS[c.lower_], None
                if c.dep_ == "mark" and c.lower_ in _CONDITIONAL_MARKS:
                    return "hypothetical", None
                if c.dep_ == "aux" and c.lower_ == "going":
                    return "planned", None
                if c.dep_ == "advmod" and c.lower_ in HABITUAL_ADVERBS:
                    return "generic", None
            if t.dep_ == "xcomp" and t.head.lemma_ in PLAN_VERBS:
                return "planned", None
            if _purpose_of_ongoing(t):
                return "planned", None  # "is gathering volunteers to clean the river": not yet done
            if t.dep_ == "xcomp" and t.head.lemma_ in REQUEST_VERBS and any(
                    c.dep_ in ("dobj", "dative") for c in t.head.children):
                return "hypothetical", None  # "urged them to leave": asked for, not done
            if t.dep_ == "ccomp" and t.head.lemma_ in REQUEST_VERBS and any(
                    c.dep_ == "aux" and c.lower_ == "to" for c in t.children):
                return "hypothetical", None  # "want the company to raise wages", parsed as a clause
            if t.dep_ == "xcomp" and t.head.lemma_ == "be" and any(c.lower_ == "to" for c in t.children):
                return "planned", None  # "the office is to begin issuing forms"
            if (t.dep_ in ("acl", "ccomp") and t.head.lemma_.lower() in _PRETEXT_NOUNS) or any(
                    c.dep_ == "mark" and c.lower_ == "that" and c.i > 0 and c.doc[c.i - 1].lemma_.lower() in _PRETEXT_NOUNS
                    for c in t.children):
                return "hypothetical", None  # "under the pretext that X fired": put forward, not stated
            if t.dep_ in ("acl", "relcl") and t.head.lemma_.lower() in PLAN_NOUNS and t.tag_ != "VBN":
                return "planned", None  # "a plan to build"
            if t.dep_ in ("ccomp",) and t.head.lemma_ in REPORTING_VERBS and reporter is None:
                reporter = t.head
            if t.dep_ == "relcl" or t.head == t:
                break
            # A finite conjunct ("... should be punished, but told ...") has its own tense and modality.
            own_tense = t.dep_ == "conj" and t.tag_ in ("VBD", "VBZ", "VBP")
            done_to_noun = t.dep_ == "acl" and t.tag_ == "VBN"  # "a plan backed by X": done, not planned
            t = t.head
            while t.pos_ not in ("VERB", "AUX") and t.head != t:
                if t.dep_ == "relcl":
                    break
                if t.lemma_.lower() in PLAN_NOUNS and not done_to_noun:
                    return "planned", None  # "proposals for reducing tensions"
                t = t.head

        if reporter is not None:
            return "reported", reporter
        return "asserted", None

    # ----- reading --------------------------------------------------------------
    def read(self, sent: Span) -> list[Event]:
        """Every event stated in a sentence (one per actor, action and target)."""
        events: list[Event] = []
        evidence = evidence_of(sent, self.text)
        seen: set[tuple[str | None, str, str | None]] = set()
        for verb in sent:
            if not _is_verb(verb):
                continue
            lemma = verb.lemma_.lower()
            if lemma in UNACCUSATIVE_VERBS or not lemma.replace("-", "").isalpha():
                continue
            if lemma in NON_EVENT_VERBS and not self._light(verb):
                continue
            if _noun_gerund(verb) or _elaborating_speech(verb):
                continue
            for ev in self._events_of(verb, evidence):
                key = (ev.actor, ev.action, ev.target)
                if key not in seen:
                    seen.add(key)
                    events.append(ev)
        for ev in nominal_events(sent, self.index, evidence, self.subjects):
            key = (ev.actor, ev.action, ev.target)
            if key not in seen:
                seen.add(key)
                events.append(ev)
        return events

    def _light(self, verb: Token) -> bool:
        return False

    def _events_of(self, verb: Token, evidence: Evidence) -> list[Event]:
        judged = accusation(verb, self.subjects) if verb.dep_ == "pcomp" and verb.tag_ == "VBG" else None
        subjects, passive = (judged.accused, False) if judged else self.subjects(verb)
        entity_objs, things, joiner = self.objects(verb)
        lemma = verb.lemma_.lower()
        rule = "svo"
        if passive:
            agents = [a for a in self.agents(verb) if self.index.resolve(a) is not None]
            actors = [self.index.resolve(a) for a in agents] or [None]
            targets = [self.index.resolve(s, allow_things=True) for s in subjects]
            rule = "passive" if agents else "passive-agentless"
            if not agents and not any(targets):
                return []
        else:
            actors = [self.index.resolve(s) for s in subjects]
            targets = [self.index.resolve(o, allow_things=True) for o in entity_objs] or [None]
            if verb.dep_ in ("xcomp", "advcl", "conj") and not [c for c in verb.children if c.dep_ in _SUBJ]:
                rule = "inherited-subject"
        action = lemma
        patients = [x for x in subjects if x.pos_ in ("NOUN", "PROPN")] if passive and not any(targets) else []
        if joiner and not passive:
            action = f"{lemma} {joiner}"
        elif things and not any(targets) and lemma not in REPORTING_VERBS:
            action = f"{lemma} {_counted(things[0]).lemma_.lower()}"
        elif patients and lemma not in REPORTING_VERBS:
            action = f"{lemma} {_counted(patients[0]).lemma_.lower()}"  # "the commitment made by X": make commitment
        negated = self.negated(verb)
        modality, reporter_verb = self.modality(verb)
        reported_by = None
        if reporter_verb is not None:
            speakers, _ = self.subjects(reporter_verb)
            resolved = [self.index.resolve(s) for s in speakers]
            reported_by = next((r for r in resolved if r is not None), None)
        if judged is not None:
            negated = negated or judged.negated
            if judged.modality == "reported" and modality == "asserted":
                modality = "reported"
                reported_by = self.index.resolve(judged.accuser) if judged.accuser is not None else None
        actors = [k for a in actors for k in self.index.parts(a)]
        targets = [k for t in targets for k in self.index.parts(t)]
        out: list[Event] = []
        if _anonymity_formula(verb):
            return out
        if lemma in REPORTING_VERBS and not passive and not any(targets) and not things \
                and self._attribution_only(verb, actors):
            return out
        for actor in actors:
            if actor is None and not passive:
                continue
            for target in targets:
                if target is not None and target == actor:
                    target = None
                if passive and target is None and actor is None:
                    continue
                out.append(Event(
                    actor=actor, action=action, target=target, evidence=evidence,
                    trigger=Evidence(text=verb.text, start=verb.idx, end=verb.idx + len(verb.text)),
                    negated=negated, modality=modality, reported_by=reported_by if reported_by != actor else None,
                    rule=rule,
                ))
        return out


    def _attribution_only(self, verb: Token, actors: list[str | None]) -> bool:
        """ "officials said ...", "police said": an unnamed source's saying is sourcing, not an event.

        The reported clause keeps the source as ``reported_by``; a named speaker's statement
        ("Little said") stays an event of its own.
        """
        return bool(actors) and all(a is not None and a.startswith("Group:") for a in actors)


def _stranded_object(tok: Token) -> bool:
    """ "a system backed ... for 3,000 refugees was rejected": a second subject right after a
    preposition that has no object is that preposition's object, misattached by the parser."""
    before = tok.left_edge.i - 1
    if before < tok.sent.start:
        return False
    prep = tok.doc[before]
    return prep.dep_ == "prep" and prep.pos_ == "ADP" and not any(c.dep_ in ("pobj", "pcomp") for c in prep.children)


def _counted(noun: Token) -> Token:
    """The noun a quantity noun counts ("fired dozens of rounds" -> "rounds"), else the noun."""
    if noun.lemma_.lower() not in QUANTITY_NOUNS and noun.lower_ not in QUANTITY_NOUNS:
        return noun
    for prep in noun.children:
        if prep.dep_ == "prep" and prep.lower_ == "of":
            inner = next((p for p in prep.children if p.dep_ == "pobj" and p.pos_ == "NOUN"), None)
            if inner is not None:
                return _counted(inner)
    return noun


def _particle_place(verb: Token, prt: Token) -> bool:
    """A particle stands right after its verb or right after the verb's object ("turned the boats
    away"); an "out" further on is an adverb of another phrase ("contacted X over housing out at sea")."""
    def core_end(obj: Token) -> int:  # the object noun phrase without its prepositions and clauses
        return max([obj.i] + [c.right_edge.i for c in obj.children if c.i > obj.i and c.dep_ not in _POSTMODIFIERS])

    ends = [verb.i] + [core_end(c) for c in verb.children if c.dep_ in ("dobj", "dative") and c.i < prt.i]
    return prt.i - max(ends) <= 1


def _purpose_of_ongoing(clause: Token) -> bool:
    """A purpose infinitive of an action still in progress ("was assembling leaders to take steps"):
    the purpose is intended, not done. After a completed action ("called him to apologize") or a
    verb of trying ("is trying to strengthen") the complement stays an event."""
    if clause.dep_ not in ("advcl", "xcomp") or not any(c.dep_ == "aux" and c.lower_ == "to" for c in clause.children):
        return False
    head = clause.head
    if clause.dep_ == "xcomp" and not any(c.dep_ == "dobj" for c in head.children):
        return False
    return head.tag_ == "VBG" and any(c.dep_ == "aux" and c.lemma_ == "be" for c in head.children)


def _noun_gerund(verb: Token) -> bool:
    """ "before the party congress meeting": an -ing noun the parser took for a verb."""
    if verb.tag_ != "VBG" or any(c.dep_ in ("aux", "dobj", "prt") for c in verb.children):
        return False
    if verb.dep_ == "advcl":
        if not any(c.dep_ == "mark" and c.lower_ in ("before", "after", "during", "since", "until") for c in verb.children):
            return False
    elif verb.dep_ not in ("pcomp", "pobj"):
        return False
    subj = [c for c in verb.children if c.dep_ == "nsubj"]
    return len(subj) == 1 and subj[0].i == verb.i - 1 and subj[0].left_edge.dep_ == "det"


def _elaborating_speech(verb: Token) -> bool:
    """ "claimed responsibility, saying it was revenge", "said ..., adding that ...": the participle
    tells what the same speech act said; it is not a second statement."""
    return (verb.dep_ == "advcl" and verb.tag_ == "VBG" and verb.lemma_ in REPORTING_VERBS
            and verb.head.lemma_ in REPORTING_VERBS)


def _anonymity_formula(verb: Token) -> bool:
    """ "spoke on condition of anonymity": how a source is described, not something it did."""
    if verb.lemma_ not in ("speak", "talk"):
        return False
    return any(p.dep_ == "prep" and any(o.lemma_ in ("condition", "anonymity") for o in p.children)
               for p in verb.children)

