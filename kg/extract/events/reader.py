"""Who did what to whom: actor-action-target events read off the dependency parse.

One event per clause in which an actor acts: active and passive voice, coordinated verbs,
subjects and objects (one event each), control and purpose clauses, phrasal verbs and
verb+preposition targets, light verbs, reporting verbs. Which verbs head an event is decided in
``verbs``; negation and modality are read in ``modality`` and recorded (``Event.negated``,
``Event.modality``), never silently dropped. This module finds the arguments: subjects (own,
inherited by control, coordination and participles, repaired where the parse contradicts
itself), objects and targets, and the article-level checks (headline, retold facts).
"""
from __future__ import annotations

from collections.abc import Callable

from spacy.tokens import Span, Token

from ...model.facts import Event, Evidence
from ...nlp.lexicon import (
    COLLECTIVE_NOUNS,
    GOAL_PREPOSITIONS,
    HARM_VERBS,
    OBJECT_CONTROL_VERBS,
    PERSON_PATIENT_VERBS,
    QUANTITY_NOUNS,
    REPORTING_VERBS,
    ROLE_NOUNS,
    STATEMENT_NOUNS,
)
from ..context.cameo import LEXICON
from ..context.modality import modality, negated
from ..entities.groups import VEHICLE_NOUNS, is_human_noun
from ..entities.index import EntityIndex
from ..grammar.arguments import (
    REFLEXIVES,
    attacker,
    conjuncts,
    counted,
    gapped_subjects,
    misplaced_relative,
    natural_force,
    object_gap,
    particle_place,
    shared_object,
    stranded_object,
    stray_subject,
    subject_of_next,
)
from ..grammar.columns import kids
from ..grammar.evidence import evidence_of
from ..grammar.labels import ACTIVE_SUBJECTS, NOUN_SUBJECTS
from ..grammar.passives import elided_passive
from .accusation import accusation
from .nominal import nominal_events
from .verbs import MOTION_VERBS, NAMING_VERBS, NOT_CONTENT_DEPS, attributive_participle, is_event_verb, motion_without_goal
from .verbs import is_verb as _is_verb

#: Entity types of objects that say how much, not what was done ("fined X 500 dollars").
_AMOUNTS = frozenset(("MONEY", "QUANTITY", "PERCENT", "CARDINAL", "DATE", "TIME"))
#: Prepositions by which a verb's thing object takes a participant ("an attack on", "a deal with").
_THING_TARGET_PREPS = frozenset(("on", "against", "with", "to", "at", "into"))
#: Verbs whose coordinated subjects act on each other ("A and B exchanged fire", "police and fans clashed").
_RECIPROCAL_VERBS = frozenset("exchange trade swap clash".split())
#: Verbs of moving somewhere: a goal is a place, whoever owns it.
_MOVING_VERBS = MOTION_VERBS | frozenset("return travel move fly drive walk run sail head flee rush".split())
#: Verbs of leaving a body or a pact: its "from" names the one left ("withdrew from the coalition").
_LEAVING_VERBS = frozenset("withdraw resign defect secede break split expel exclude suspend".split())
#: Verbs of getting or perceiving: a thing object's owner is where it came from, not whom the deed is done to.
_RECEIVING_VERBS = frozenset("receive get obtain gain win earn accept inherit read see hear watch".split())
#: Prepositions of another event in time or circumstance: a "by" phrase of their noun is that event's.
_EARLIER_EVENT_PREPS = frozenset("after before following during since until amid despite upon".split())
#: Verbs of judging someone: their object's possessor is the one judged ("praised her courage").
_JUDGING_VERBS = frozenset("""
praise commend hail laud applaud welcome criticize criticise condemn denounce blame fault slam
congratulate salute thank
""".split())
#: Verbs of answering: the possessor of what is answered is the one answered.
_ANSWERING_VERBS = frozenset(("respond", "reply", "react", "answer", "retort"))
_NOT_THEMES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "PERCENT", "MONEY", "QUANTITY"}


def _named(key: str | None) -> bool:
    """Whether an entity key is a named one (a person, a body, a place), not an unnamed group or none."""
    return key is not None and key.split(":")[0] in ("Person", "Organization", "Place")


def _is_party(key: str | None) -> bool:
    """Whether an entity key names someone who can be acted on: a person, a group, a body or a country."""
    return key is not None and key.split(":")[0] in ("Person", "Group", "Organization", "Place")


class EventReader:
    """Reads events from the sentences of one parsed article."""

    def __init__(self, index: EntityIndex, text: str, bodies: Callable[[Token], str | None] | None = None) -> None:
        self.index = index
        self.text = text
        #: the one body of its kind a noun stands for ("the company": the one the article names)
        self.bodies = bodies
        #: reading a headline: a bare participle is passive ("Four players suspended"), a bare
        #: infinitive is planned ("Acme to buy Lyon Steel"), a simple present is a past deed
        self._headline = False

    # ----- arguments --------------------------------------------------------
    def subjects(self, verb: Token, depth: int = 0) -> tuple[list[Token], bool]:  # noqa: C901 (40): a chain of construction rules; issue 33 step 2 makes them named rules
        """Subject tokens of a verb (own, or inherited through control and coordination) and passivity."""
        below = kids(verb)
        own = [c for c in below if c.dep_ in ACTIVE_SUBJECTS]
        if self._headline and own and verb.tag_ in ("VBN", "VBD") and not any(
                c.dep_ in ("aux", "auxpass", "dobj") for c in below):
            # "Four players suspended for brawl": a headline tells deeds in the present; a bare
            # past form is the participle of a passive whose "be" it leaves out.
            return [t for s in own for t in conjuncts(s)], True
        if len(own) > 1:
            # "boats which the UN has criticised": the relative pronoun is the object, not a subject
            own = [c for c in own if c.tag_ not in ("WDT", "WP")] or own
        passive = [c for c in below if c.dep_ == "nsubjpass"]
        if own and elided_passive(verb):
            passive, own = passive + [c for c in own if c.dep_ == "nsubj"], [c for c in own if c.dep_ != "nsubj"]
        if own and any(c.dep_ == "auxpass" for c in below):
            # "Ana Costa of Lyon, and Tom Ruiz were fined": a verb with a passive auxiliary has
            # no active subject; the parser split one passive subject in two.
            passive += [c for c in own if c.dep_ == "nsubj"]
            own = [c for c in own if c.dep_ != "nsubj"]
        elif passive and not own and verb.dep_ in ("ROOT", "ccomp", "advcl") \
                and not any(c.dep_ == "auxpass" for c in below):
            # "Volunteers dug through the mud" with "volunteers" a passive subject but no passive
            # auxiliary: the parse contradicts itself, and the subject is the doer.
            own, passive = passive, []
        if len(own) + len(passive) > 1:
            own, passive = ([c for c in group if not stranded_object(c)] or group for group in (own, passive))
        if len(own) > 1:
            # '"It is a sad day for the town," Lind said': a verb has one subject; the nearest is its
            # own, the others misattached
            own = [min(own, key=lambda c: abs(c.i - verb.i))]
        if own and verb.dep_ != "relcl" and all(misplaced_relative(s) for s in own):
            # "prosecute Lee who disregarded ...", parsed as a clausal object: a relative clause of Lee.
            return [verb.doc[s.i - 1] for s in own], False
        if own and verb.dep_ == "relcl" and all(s.tag_ in ("WP", "WDT") for s in own):
            named = self._named_by_copula(verb.head)
            if named:
                return named, False
        if own:
            return [t for s in own for t in conjuncts(s)], False
        if passive:
            return [t for s in passive for t in conjuncts(s)] + gapped_subjects(verb), True
        if depth > 4:
            return [], False
        head = verb.head
        if verb.dep_ in ("pcomp", "advcl") and any(c.dep_ == "auxpass" for c in below):
            # "died after being shot by Lee", "Arrested in May, she ...": a passive adjunct is done to
            # its clause's subject
            gov = head.head if verb.dep_ == "pcomp" else head
            if _is_verb(gov) or gov.pos_ == "AUX":
                return self.subjects(gov, depth + 1)[0], True
        if verb.dep_ in ("xcomp", "acomp") and verb.tag_ == "VBN" and _is_verb(head) \
                and not any(c.dep_ in ("aux", "dobj", "dative") for c in below):
            # "stands accused", "remained trapped": a past participle predicated of the subject is
            # done to it
            return self.subjects(head, depth + 1)[0], True
        if verb.dep_ == "xcomp" or (verb.dep_ == "advcl" and any(c.dep_ == "aux" and c.lower_ == "to" for c in below)):
            objs = [c for c in kids(head) if c.dep_ in ("dobj", "dative")]
            if verb.dep_ == "xcomp" and objs and head.lemma_ in OBJECT_CONTROL_VERBS:
                return [t for o in objs for t in conjuncts(o)], False
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
        if verb.dep_ == "conj" and verb.tag_ in ("VBZ", "VBD", "VBP"):
            stray = stray_subject(verb)
            if stray is not None:
                return [stray], any(c.dep_ == "auxpass" for c in below)
        if verb.dep_ == "conj" and _is_verb(head):
            subj, head_passive = self.subjects(head, depth + 1)
            # "was interrogated ... and made to sign": a bare -ed conjunct shares the passive auxiliary.
            # A past tense ("were given coffee and sang", "were freed and returned home") is
            # active; "made to sign" has no active reading without an object.
            own_passive = any(c.dep_ == "auxpass" for c in below) or (
                head_passive and not any(c.dep_ in ("dobj", "aux") for c in below)
                and (verb.tag_ == "VBN" or verb.tag_ == "VBD" and any(
                    c.dep_ == "xcomp" and any(a.lower_ == "to" for a in kids(c)) for c in below)))
            if head_passive and not own_passive:
                up = head
                while up.dep_ in ("ccomp", "conj") and up.head != up:
                    up = up.head
                    if _is_verb(up) or up.pos_ == "AUX":
                        s2, p2 = self.subjects(up, depth + 1)
                        if s2 and not p2:
                            return s2, False
                # "The guests were given coffee and sang": the passive's subject acts in the active conjunct.
                return subj, False
            if any(c.dep_ == "auxpass" for c in below):
                return subj, True  # "could not enter, but were given seats": a passive of its own
            return subj, head_passive and own_passive
        if verb.dep_ == "relcl":
            return self._named_by_copula(head) or [head], False
        if verb.dep_ == "pcomp" and verb.tag_ == "VBG":
            doer = next((c for c in kids(head) if c.dep_ == "pobj" and c.right_edge.i == verb.i - 1
                         and self.index.named_key(c) is not None), None)
            if doer is not None:
                return [doer], False  # "footage of Tom Dunn shooting Ivan Petrov": the name is the doer
            # "He was jailed for killing X", "before killing X": the gerund's subject is the clause's.
            gov = head.head
            while gov.pos_ in ("NOUN", "PROPN", "ADJ") and gov.head != gov and gov.dep_ in ("dobj", "pobj", "prep", "acomp", "attr", "npadvmod"):
                gov = gov.head
            if _is_verb(gov) or gov.pos_ == "AUX":
                subj, _ = self.subjects(gov, depth + 1)
                return subj, False
            return [], False
        if verb.dep_ == "acl" and verb.tag_ in ("VBN", "VBD") and head.pos_ == "PROPN" and head.ent_type_ \
                and not self._headline and verb.i > head.i and not any(t.text == "," for t in verb.doc[head.i + 1:verb.i]) \
                and not any(c.dep_ == "agent" for c in below):
            # A name takes no restrictive participle ("Lind, condemned by many" needs the comma):
            # 'Lind "condemned ..." the attack' is Lind's own finite verb, misparsed. With a "by"
            # phrase it is a participle ("the Institute for Soil Research headed by Professor X").
            return [head], False
        if verb.dep_ == "acl" and verb.tag_ in ("VBN", "VBD") and head.dep_ == "appos" \
                and verb.lemma_.lower() in REPORTING_VERBS and verb.i > head.i \
                and (head.ent_type_ in ("ORG", "PERSON") or is_human_noun(head)) \
                and not any(c.dep_ in ("agent", "dobj", "nsubjpass", "xcomp") for c in below):
            # "Acme won the vote, the election commission announced": a statement set off by a comma,
            # which the parser read as a participle of the noun ("the plan announced" is one)
            return [head], False
        if verb.dep_ == "acl" and verb.tag_ == "VBN" and head.dep_ == "pobj" and head.head.lower_ == "among" \
                and head.head.head.lemma_ == "be" and not any(c.dep_ == "dobj" for c in below):
            # "Lee was among those killed", "... among the people arrested": the subject is one of them
            among = [c for c in kids(head.head.head) if c.dep_ in NOUN_SUBJECTS]
            if among:
                return among, True
        if verb.dep_ == "acl" and verb.tag_ == "VBN" and head.pos_ in ("NOUN", "PROPN") \
                and verb.lemma_.lower() not in NAMING_VERBS \
                and not any(c.dep_ == "dobj" for c in below):  # a passive takes no object
            return [head], True  # "a plan backed by the United Nations", "troops wounded in the attack"
        if verb.dep_ == "acl" and verb.tag_ == "VBG" and head.ent_type_ == "PERSON":
            return [head], False  # "Paul Dorn, serving a sentence"
        return [], False

    def _named_by_copula(self, noun: Token) -> list[Token]:
        """ "Lee is the man who shot Ruiz", "the gunman who shot Ruiz was Lee": a common noun that a
        copula equates with a name stands for the name (its relative clause is the name's deed)."""
        verb = noun.head
        if noun.pos_ != "NOUN" or verb.lemma_ != "be" or noun.dep_ not in ("attr", "nsubj") \
                or self.index.named_key(noun) is not None:
            return []
        other = "nsubj" if noun.dep_ == "attr" else "attr"
        return [c for c in kids(verb) if c.dep_ == other and (self.index.named_key(c) or "").startswith("Person:")]

    def _result_of_passive(self, verb: Token) -> bool:
        """A participle that follows a passive clause and tells what it caused ("the bus was bombed,
        killing six"): it has no subject of its own (``subjects``)."""
        while verb.dep_ == "conj" and verb.tag_ == "VBG" and verb.head.tag_ == "VBG":
            verb = verb.head  # "killing six and wounding 30"
        head = verb.head
        return (verb.dep_ == "advcl" and verb.tag_ == "VBG" and verb.i > head.i and _is_verb(head)
                and not any(c.dep_ in ACTIVE_SUBJECTS for c in kids(verb)) and self.subjects(head)[1])

    def agents(self, verb: Token) -> list[Token]:
        """The "by" phrase of a passive verb ("by the newspaper, the Daily Clarion": the name in apposition)."""
        out: list[Token] = []
        for c in kids(verb):
            if c.dep_ == "agent":
                for p in kids(c):
                    if p.dep_ != "pobj":
                        continue
                    for t in conjuncts(p):
                        if self.index.resolve(t) is None:
                            t = next((a for a in kids(t) if a.dep_ == "appos" and self.index.resolve(a)), t)
                        out.append(self._stray_apposition(t))
        if not out:
            # "was joined in the announcement by Agent X": the parser hung the "by" phrase on the
            # noun before it; a person or a body there is the passive's agent.
            for c in kids(verb):
                if c.dep_ != "prep" or c.lower_ == "by" or c.lower_ in _EARLIER_EVENT_PREPS:
                    continue  # "arrested after an investigation by the agency": the investigation's agent
                for noun in kids(c):
                    for by in kids(noun):
                        if by.dep_ == "prep" and by.lower_ == "by":
                            out.extend(p for p in kids(by) if p.dep_ == "pobj"
                                       and not (self.index.resolve(p) or "Place:").startswith("Place:"))
        return out

    def objects(self, verb: Token) -> tuple[list[Token], list[Token], str, str]:  # noqa: C901 (18): a chain of construction rules; issue 33 step 2 makes them named rules
        """Direct objects (entities), thing objects, the particle/preposition that joins the action,
        and the particle alone (a passive keeps it, not the preposition)."""
        below = kids(verb)
        direct = [t for c in below if c.dep_ in ("dobj", "dative") for t in conjuncts(c)
                  if t.lower_ not in REFLEXIVES]  # "killed themselves": no one else is the target
        lemma = verb.lemma_.lower()
        if not direct and lemma in PERSON_PATIENT_VERBS:
            direct = [t for t in shared_object(verb) if (self.index.resolve(t) or "Place:").split(":")[0]
                      in ("Person", "Group", "Organization")]
        if verb.dep_ == "relcl" and verb.head.pos_ in ("NOUN", "PROPN"):
            # "a campaign that the group has been waging": the relative pronoun object is the head noun.
            direct = [verb.head if t.tag_ in ("WDT", "WP") and t.lower_ in ("that", "which", "whom", "who")
                      else t for t in direct]
            if not direct and object_gap(verb):
                direct = [verb.head]  # "the villages that the rebels burned": the head fills the gap
        if lemma in _JUDGING_VERBS and direct and not any(self.index.resolve(t, allow_things=True) for t in direct):
            # "criticized Lee's budget", "praised her courage": one praises or blames a person.
            owners = [c for t in direct for c in kids(t) if c.dep_ == "poss" and self.index.resolve(c)]
            direct = owners or direct
        if lemma in _ANSWERING_VERBS and not direct:
            # "replied to the mayor's charges": one answers the one who charged.
            said = [p for c in below if c.dep_ == "prep" and c.lower_ == "to"
                    for p in kids(c) if p.dep_ == "pobj" and self.index.resolve(p, allow_things=True) is None]
            direct = [c for p in said for c in kids(p) if c.dep_ == "poss" and self.index.resolve(c)]
        direct = [self._named_in_title(self._stray_apposition(t)) for t in direct]
        owned = [t for t in direct if lemma not in _RECEIVING_VERBS and self._owner(t) is not None]
        direct = [self._owner(t) or t if t in owned else t for t in direct]
        particle = " ".join(c.lower_ for c in below if c.dep_ == "prt" and particle_place(verb, c))
        entity_objs = [t for t in direct if self.index.resolve(t, allow_things=True) is not None]
        things = owned + [t for t in direct if t not in entity_objs and t.pos_ in ("NOUN", "PROPN")]
        prep_word = ""
        if not entity_objs and verb.lemma_ in OBJECT_CONTROL_VERBS:
            for c in below:
                if c.dep_ in ("ccomp", "xcomp"):
                    subj = [t for t in kids(c) if t.dep_ == "nsubj" and self.index.resolve(t) is not None]
                    if subj:
                        return subj, things, particle, particle
        if not entity_objs:
            for c in below:
                if c.dep_ != "prep":
                    continue
                word = c.lower_
                inner = next((p for p in kids(c) if p.dep_ == "prep" and p.lower_ in ("of", "from")), None)
                if word in ("out", "away") and inner is not None:
                    c, word = inner, f"{word} {inner.lower_}"  # "pulled out of the coalition": one preposition
                pobjs = [t for p in kids(c) if p.dep_ == "pobj" for t in conjuncts(p)] or [
                    t for p in kids(c) if p.dep_ == "pcomp" and attributive_participle(p)
                    for o in kids(p) if o.dep_ == "dobj" for t in conjuncts(o)]
                pobjs = [p for p in pobjs if p.ent_type_ not in _NOT_THEMES and not subject_of_next(p)]
                if not pobjs:
                    continue
                resolved = [p for p in pobjs if self.index.resolve(p, allow_things=True) is not None] or [
                    o for p in pobjs if word in GOAL_PREPOSITIONS and lemma not in _MOVING_VERBS
                    and (o := self._owner(p)) is not None]  # "returned to his family's ranch": a place, no one
                leaving = word in ("out of", "away from") or word == "from" and lemma in _LEAVING_VERBS
                if resolved and (word in GOAL_PREPOSITIONS or leaving or word in ("for", "over", "about") and not things):
                    entity_objs = resolved
                    if not things:
                        prep_word = word
                    break
                if not things and not direct and c.lower_ in ("for", "on", "with", "over", "against", "about") \
                        and not prep_word and c.i == verb.i + 1 + len([x for x in below if x.dep_ == "prt"]):
                    prep_word = c.lower_
        if not entity_objs and things:
            entity_objs = self._thing_target(things[0])
        return entity_objs, things, " ".join(w for w in (particle, prep_word) if w), particle

    def _owner(self, thing: Token) -> Token | None:
        """ "attacked the party's website", "the church's site was attacked": a thing's owner, when it is
        someone, is the one the deed is done to (the thing is no participant: not a name, a person or a body)."""
        if thing.pos_ != "NOUN" or thing.ent_type_ or is_human_noun(thing) or thing.lemma_.lower() in COLLECTIVE_NOUNS \
                or any(c.dep_ == "appos" for c in kids(thing)):
            return None
        owner = next((c for c in kids(thing) if c.dep_ == "poss" and c.ent_type_ not in _NOT_THEMES
                      and c.lower_ not in ("its", "their", "his", "her") and _is_party(self.index.resolve(c))), None)
        if owner is None and thing.lemma_.lower() not in QUANTITY_NOUNS and thing.tag_ == "NN":
            # "praised the success of Tom Lee": a named person's or body's, by "of"
            owner = next((p for c in kids(thing) if c.dep_ == "prep" and c.lower_ == "of" for p in kids(c)
                          if p.dep_ == "pobj" and (self.index.named_key(p) or "").startswith(("Person:", "Organization:"))),
                         None)
        return owner

    def _thing_target(self, thing: Token) -> list[Token]:
        """The one a thing object is aimed at or belongs to: "launched an attack on the rebels", "signed a
        deal with Acme", "placed sanctions on Norland" (its own preposition); "attacked the party's website",
        "rejected the minister's claim" (its possessor: one acts on the owner through the thing)."""
        pobjs = [p for c in kids(thing) if c.dep_ == "prep" and c.lower_ in _THING_TARGET_PREPS
                 for p in kids(c) if p.dep_ == "pobj" and p.ent_type_ not in _NOT_THEMES]
        # "fired rounds at the army's post": aimed at the owner of a thing, as at a party
        aimed = [p for p in pobjs if _is_party(self.index.resolve(p))] or [o for p in pobjs if (o := self._owner(p))]
        if aimed:
            return aimed
        if thing.head.lemma_.lower() in _RECEIVING_VERBS:
            return []  # "received the minister's letter": the owner is the source, not the one acted on
        return [c for c in kids(thing) if c.dep_ == "poss" and c.ent_type_ not in _NOT_THEMES
                and _is_party(self.index.resolve(c))]

    def _named_in_title(self, obj: Token) -> Token:
        """ "declared John Mensah president-elect", parsed with the title as the object's head and
        the name as its modifier: the person named is the object."""
        if self.index.resolve(obj, allow_things=True) is not None:
            return obj
        compounds = [c for c in kids(obj) if c.dep_ == "compound"]
        if not any(t.lemma_.lower() in ROLE_NOUNS or t.lower_ in ROLE_NOUNS for t in compounds + [obj]):
            return obj
        return next((c for c in compounds if (self.index.named_key(c) or "").startswith("Person:")), obj)

    def _stray_apposition(self, obj: Token) -> Token:
        """ "killed the banker, Ana Ruiz", "by another inmate, Ana Ruiz": a person's name right after
        a person noun, which the parser hung as an apposition or adverb on an earlier word, names
        that noun."""
        if obj.pos_ != "NOUN" or obj.tag_ != "NN":
            return obj
        doc, edge = obj.doc, obj.right_edge
        nxt = edge.i + (0 if edge.text == "," else 1)
        if nxt + 1 >= len(doc) or doc[nxt].text != "," \
                or not is_human_noun(obj) or (self.index.named_key(obj) or "").startswith("Person:"):
            return obj
        first = doc[nxt + 1]
        if first.ent_type_ != "PERSON" or first.ent_iob_ != "B":
            return obj
        end = first.i + 1
        while end < len(doc) and doc[end].ent_iob_ == "I":
            end += 1
        root = next((t for t in doc[first.i:end] if not first.i <= t.head.i < end), None)
        if root is None or root.dep_ not in ("appos", "npadvmod") or root.head.i >= obj.i or root.head.ent_type_ == "PERSON" \
                or not (self.index.named_key(root) or "").startswith("Person:"):
            return obj
        return root

    def _source(self, subject: Token) -> str | None:
        """The entity a subject names; for a statement ("A UN statement said", "Acme's report
        says") the body that issued it; "sources said": the people who told it, unnamed."""
        key = self._entity(subject)
        if (key is None or key.startswith("Group:")) and subject.lemma_.lower() in ROLE_NOUNS:
            named = self._name_closing_a_title(subject)
            if named is not None:
                return named
        if key is None and subject.lemma_.lower() == "source" and subject.pos_ == "NOUN" \
                and subject.head.lemma_.lower() in REPORTING_VERBS:
            return self.index.group_key(subject)
        if key is None and subject.lemma_.lower() in STATEMENT_NOUNS:
            for c in kids(subject):
                if c.dep_ in ("compound", "poss", "nmod") or c.dep_ == "prep" and c.lower_ in ("by", "from"):
                    issuer = c if c.dep_ != "prep" else next((p for p in kids(c) if p.dep_ == "pobj"), None)
                    found = self.index.resolve(issuer) if issuer is not None else None
                    if found is not None:
                        return found
        return key

    def _name_closing_a_title(self, title: Token) -> str | None:
        """ "Director of the Harbor Office Ann Lee said": a long title before a name, which the parser made the
        subject with the name inside it: the person the title's phrase ends with speaks."""
        edge = title.right_edge
        if edge.ent_type_ != "PERSON" or edge.i <= title.i or any(c.dep_ in ("det", "poss") for c in kids(title)):
            return None  # "the lawyer for victim Ann Lee said": a described person's, not a title before a name
        key = self.index.resolve(edge)
        return key if key is not None and key.startswith("Person:") else None

    def _entity(self, tok: Token, allow_things: bool = False) -> str | None:
        """``index.resolve``, but "the company said" is the company the article names, not a group."""
        key = self.index.resolve(tok, allow_things)
        if self.bodies is not None and (key is None or key.startswith("Group:")):
            return self.index.canonical(self.bodies(tok)) or key
        return key

    # ----- reading --------------------------------------------------------------
    def read(self, sent: Span, headline: tuple[int, int] | None = None) -> list[Event]:
        """Every event stated in a sentence (one per actor, action and target); ``headline``: the
        sentence is the article's headline, at these offsets."""
        events: list[Event] = []
        evidence = evidence_of(sent, self.text)
        if headline is not None:
            start, end = max(evidence.start, headline[0]), min(evidence.end, headline[1])
            evidence = Evidence(text=self.text[start:end].strip(), start=start, end=start + len(self.text[start:end].strip()))
        self._headline = headline is not None
        seen: set[tuple[str | None, str, str | None]] = set()
        doc, cols = sent.doc, self.index.cols
        for i in range(sent.start, sent.end):
            if cols.pos_[i] != "VERB" or cols.dep_[i] in NOT_CONTENT_DEPS:  # ``is_verb``, read off the columns
                continue
            verb = doc[i]
            if not is_event_verb(verb):
                continue
            mine: set[tuple[str | None, str, str | None]] = set()
            for ev in self._events_of(verb, evidence):
                key = (ev.actor, ev.action, ev.target)
                # one event per clause: "said A, and said B" are two statements; one verb reads one of each
                if key not in mine:
                    mine.add(key)
                    events.append(ev)
            seen |= mine
        for ev in nominal_events(sent, self.index, evidence, self.subjects):
            key = (ev.actor, ev.action, ev.target)
            if key not in seen:
                seen.add(key)
                events.append(ev)
        self._headline = False
        return events

    @staticmethod
    def headline_only(headline: list[Event], body: list[Event]) -> list[Event]:
        """The headline's events that the body does not tell: a headline sums up the lead, so an
        action the body also states is the same fact, better told there."""
        told: dict[str, list[Event]] = {}
        for e in body:
            told.setdefault(e.action.split()[0], []).append(e)
        # the same deed: its verb, and one of its parties or no actor to tell them apart ("the Comets beat
        # the Rams" is not the body's "Lund beat two defenders")
        return [e for e in headline if not any(
            not _named(e.actor) or not _named(b.actor) or e.actor == b.actor or (e.target is not None and e.target == b.target)
            for b in told.get(e.action.split()[0], []))]

    @staticmethod
    def retold(events: list[Event]) -> list[Event]:
        """The article's events without agentless retellings: "Lind was sentenced" where the
        article also says who sentenced Lind is the same fact told again, not a second one
        with no actor."""
        done = {(e.action.split()[0], e.target) for e in events if e.actor is not None and e.target is not None}
        return [e for e in events if not (e.actor is None and e.rule == "passive-agentless"
                                          and (e.action.split()[0], e.target) in done)]

    def _events_of(self, verb: Token, evidence: Evidence) -> list[Event]:  # noqa: C901 (26): a chain of construction rules; issue 33 step 2 makes them named rules
        judged = accusation(verb, self.subjects) if verb.dep_ == "pcomp" and verb.tag_ == "VBG" else None
        subjects, passive = (judged.accused, False) if judged else self.subjects(verb)
        entity_objs, things, joiner, particle = self.objects(verb)
        lemma = verb.lemma_.lower()
        rule = "svo"
        if passive and lemma in ("quote", "cite", "report") and any(
                c.dep_ == "prep" and c.lower_ == "as" and any(p.lemma_ == "say" for p in kids(c)) for c in kids(verb)):
            return []  # "was quoted as saying": the saying is the event, told by the one quoted
        if passive:
            named = self.agents(verb)
            agents = [a for a in named if self.index.resolve(a) is not None]
            if not agents and any(a.pos_ == "PROPN" for a in named):
                return []  # "was sentenced by Judge X" with X not read: the doer is named, just not found
            actors = [self.index.resolve(a) for a in agents] or [None]
            coercive = LEXICON.get(lemma, "") >= "15" or lemma in HARM_VERBS  # "X's website was hacked"
            targets = [self.index.resolve((self._owner(s) if coercive else None) or s, allow_things=True)
                       for s in subjects]
            rule = "passive" if agents else "passive-agentless"
            if not agents:
                targets = [t for t in targets if _patient(t)]  # "a warship was deployed": done to no one
                if not targets:
                    return []
        else:
            actors = [self._source(s) for s in subjects]
            targets = [self._entity(o, allow_things=True) for o in entity_objs] or [None]
            if verb.dep_ in ("xcomp", "advcl", "conj") and not [c for c in kids(verb) if c.dep_ in ACTIVE_SUBJECTS]:
                rule = "inherited-subject"
            if subjects and all(natural_force(s) for s in subjects) and any(targets):
                actors, passive = [None], True  # "the flood killed 10": what it caused, with no actor
            elif subjects and lemma in HARM_VERBS and not any(actors) and any(
                    (t or "").startswith(("Person:", "Group:")) for t in targets):
                # "the blast killed 12", "a bombing which killed 12": the deaths are told, by no one
                # named; "the army's shelling killed 12": by the one whose attack it was
                causes = [verb.head if s.tag_ == "WDT" and verb.dep_ == "relcl" else s for s in subjects]
                if not all(c.pos_ == "NOUN" for c in causes):
                    return []
                attackers = [self.index.resolve(a) for a in map(attacker, causes) if a is not None]
                actors, passive = [a for a in attackers if a is not None] or [None], not any(attackers)
                rule = "svo" if any(attackers) else "passive-agentless"
            elif not subjects and any(targets) and lemma in PERSON_PATIENT_VERBS and self._result_of_passive(verb):
                # "a bus was bombed, killing six": the deaths are told, their doer is the passive's, unnamed
                actors, passive, rule = [None], True, "passive-agentless"
            if lemma in ("go", "come") and not any(targets) and not motion_without_goal(verb):
                return []  # "went into a shop": no one and no place went to
            if rule == "inherited-subject":
                bound = {self.index.resolve(o) for o in entity_objs if o.tag_ == "PRP"}
                # "married the heiress, making him rich": a pronoun object is never its own clause's
                # subject, so the participle's doer is not the main subject but the paying itself.
                if bound & set(actors):
                    return []
        # a passive keeps its verb's particle, not a preposition ("the bridge was blown up by rebels")
        verb_words = f"{lemma} {particle}" if passive and particle else lemma
        action = verb_words
        things = [t for t in things if counted(t).ent_type_ not in _AMOUNTS]  # "fined X 500 dollars": no thing
        patients = [x for x in subjects if x.pos_ in ("NOUN", "PROPN")] if passive and not any(targets) else []
        if joiner and not passive:
            action = f"{lemma} {joiner}"
        elif things and not any(targets) and lemma not in REPORTING_VERBS:
            action = f"{verb_words} {counted(things[0]).lemma_.lower()}"
        elif things and lemma not in REPORTING_VERBS and not joiner:
            action = f"{verb_words} {things[0].lemma_.lower()}"  # "filed a lawsuit against Acme": file lawsuit
        elif patients and lemma not in REPORTING_VERBS:
            action = f"{verb_words} {counted(patients[0]).lemma_.lower()}"  # "the commitment made by X": make commitment
        negative = negated(verb)
        mode, reporter_verb = modality(verb, headline=self._headline)
        reported_by = None
        if reporter_verb is not None:
            speakers, _ = self.subjects(reporter_verb)
            resolved = [self.index.resolve(s) for s in speakers]
            reported_by = next((r for r in resolved if r is not None), None)
        if judged is not None:
            negative = negative or judged.negated
            if mode == "planned":
                # "will be sentenced for killing X": the judgement is ahead, the deed it is for is not
                mode, reported_by = "asserted", None
            if judged.modality == "reported" and mode == "asserted":
                mode = "reported"
                reported_by = self.index.resolve(judged.accuser) if judged.accuser is not None else None
        actors = [k for a in actors for k in self.index.parts(a)]
        targets = [k for t in targets for k in self.index.parts(t)]
        reciprocal = not passive and lemma in _RECIPROCAL_VERBS and not any(targets) and len(set(actors)) > 1
        if reciprocal:
            rule = "reciprocal"
        out: list[Event] = []
        for actor in actors:
            if actor is None and not passive:
                continue
            # "Norland and Velmark exchanged fire": each did it to the other
            for target in [o for o in actors if o != actor] if reciprocal else targets:
                if target is not None and target == actor:
                    target = None
                if passive and target is None and actor is None:
                    continue
                out.append(Event(
                    actor=actor, action=action, target=target, evidence=evidence,
                    trigger=Evidence(text=verb.text, start=verb.idx, end=verb.idx + len(verb.text)),
                    negated=negative, modality=mode, reported_by=reported_by if reported_by != actor else None,
                    rule=rule,
                ))
        return out


def _patient(key: str | None) -> bool:
    """Whether an entity is one an agentless passive tells of: a person, a group of people or an organization
    ("three men were arrested"), not a thing or a vehicle ("a warship was deployed")."""
    if key is None or not key.startswith(("Person:", "Group:", "Organization:")):
        return False
    return not (key.startswith("Group:") and key.rsplit(":", 1)[-1] in VEHICLE_NOUNS)
