"""Which verbs head an event: the clause in which an actor acts, not a state, a thought or a frame.

Not events: copulas, aspect and control verbs ("began to", "tried to": their complement is the
event), states and non-agentive changes ("controlled the north", "shares gained 8 percent"),
thinking, perceiving and feeling ("believed", "saw", "resent"), states told by a passive ("was
born", "is located"), hedging passives ("is expected to sign"), names given by a participle
("dubbed the Iron Fist"), a participle that elaborates a statement (", saying ...") and a few
fixed frames ("spoke on condition of anonymity"). Some of these verbs act in one construction
("went to Norway", "stopped the truck", "got a job", "was kept in custody"): ``light_event``.
"""
from __future__ import annotations

from spacy.tokens import Token

from ...nlp.lexicon import (
    COGNITION_VERBS,
    INTRANSITIVE_STATES,
    NON_EVENT_VERBS,
    PASSIVE_STATES,
    PSYCH_VERBS,
    RAISING_PASSIVES,
    REPORTING_VERBS,
    ROLE_NOUNS,
    STATIVE_VERBS,
    UNACCUSATIVE_VERBS,
)
from ..grammar.columns import kids
from ..grammar.labels import NOUN_SUBJECTS
from ..grammar.passives import is_passive

__all__ = ["is_verb", "is_event_verb", "light_event", "motion_without_goal", "attributive_participle", "NAMING_VERBS",
           "NOT_CONTENT_DEPS"]

#: Relations of a verb that is no content verb: an adjective, an auxiliary, part of a compound.
NOT_CONTENT_DEPS = frozenset(("amod", "aux", "auxpass", "compound"))

#: "a user labelled X", "a group known as X", "dubbed the Iron Fist": naming, not an event.
NAMING_VERBS = frozenset("label call name dub title know entitle nickname term style brand".split())
_NOT_EVENTS = STATIVE_VERBS | COGNITION_VERBS | PSYCH_VERBS
_OBJECTS = ("dobj", "dative", "ccomp", "xcomp", "attr", "oprd")
#: Participles that tell how a statement was made, not a second statement (", saying ...",
#: ", noting ...", ", calling X a Y", ", referring to X as ...").
_SPEECH_PARTICIPLES = REPORTING_VERBS | frozenset("describe call refer express post issue publish".split())
#: Verbs of motion that need somewhere to go to be events ("went to Norway", "came in third").
MOTION_VERBS = frozenset(("go", "come"))
_NOT_GOALS = frozenset(("from", "with", "as", "like", "for", "of", "without"))
_MOTION_ADVERBS = frozenset("here there home back abroad ashore away inside outside forward".split())
#: Phase verbs that act on a direct object ("began an offensive", "stopped the truck").
#: Participles that stand before a title as adjectives ("visiting President X", "outgoing Mayor Y").
_ATTRIBUTIVE = frozenset("""
visiting outgoing incoming ruling acting presiding reigning defending sitting governing retiring
departing serving
""".split())
#: Phrasal verbs of amount or make-up: states ("made up 3 percent", "accounts for half").
_PHRASAL_STATES = {"make": ("up",), "account": ("for",), "amount": ("to",), "add": ("up",)}
#: Verbs of finding out: with a "that" clause they tell what someone learned ("found that ...").
_FINDING = frozenset(("find", "discover"))
_PHASE = frozenset(("begin", "start", "stop", "continue", "resume"))


def is_verb(tok: Token) -> bool:
    """A content verb (not an auxiliary, an adjective or part of a compound)."""
    return tok.pos_ == "VERB" and tok.dep_ not in NOT_CONTENT_DEPS


def light_event(verb: Token) -> bool:
    """A verb of ``NON_EVENT_VERBS`` that acts in this construction: motion to somewhere ("went
    into the arena", "refugees have come here"), a phase verb with an object ("began an
    offensive", "stopped the truck"), "get" a thing ("got a job"), "keep" someone ("was kept in
    custody"), a phase verb before a quotation ('she continued: "..."')."""
    lemma = verb.lemma_.lower()
    below = list(kids(verb))
    if lemma in _PHASE and verb.i + 1 < len(verb.doc) and verb.doc[verb.i + 1].text == ":":
        return True  # 'She continued: "..."': a statement
    if any(c.dep_ in ("xcomp", "ccomp", "acomp") for c in below):
        return False
    if lemma in MOTION_VERBS:
        return motion_without_goal(verb) or any(
            c.dep_ == "prep" and c.lower_ not in _NOT_GOALS
            and any(p.dep_ == "pobj" for p in kids(c)) for c in below)
    objects = [c for c in below if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN", "PRON")]
    if lemma in _PHASE or lemma in ("try", "attempt"):  # "began an offensive", "attempted a rescue"
        return bool(objects) or (lemma == "stop" and is_passive(verb))
    if lemma == "get":
        return bool(objects) and not is_passive(verb)
    if lemma == "keep":
        return is_passive(verb) or any(o.ent_type_ in ("PERSON", "ORG", "NORP") for o in objects)
    return False


def motion_without_goal(verb: Token) -> bool:
    """Motion that is an event without a target: to a place adverb ("refugees have come here"), a
    particle ("came back"), a placing ("came in third") or a change of state told by a bare noun
    ("went on strike", "went into hiding", "came to power")."""
    for c in kids(verb):
        if c.dep_ == "prt" or c.dep_ == "advmod" and c.lower_ in _MOTION_ADVERBS or c.ent_type_ == "ORDINAL":
            return True
        if c.dep_ == "prep" and c.lower_ not in _NOT_GOALS:
            for p in kids(c):
                if p.ent_type_ == "ORDINAL" or p.dep_ == "pobj" and p.tag_ in ("NN", "VBG") and not any(
                        d.dep_ in ("det", "poss", "amod", "compound", "nummod") for d in kids(p)):
                    return True
    return False


def _naming_participle(verb: Token) -> bool:
    """ "Rico Vance, dubbed the Iron Fist, ...": a name given by a participle, also when the parser
    reads it as a finite verb set off by commas."""
    if verb.lemma_.lower() not in NAMING_VERBS or verb.tag_ not in ("VBN", "VBD"):
        return False
    if verb.dep_ in ("acl", "advcl", "relcl"):
        return verb.tag_ == "VBN"
    return (verb.dep_ in ("parataxis", "appos") and verb.i > 0 and verb.doc[verb.i - 1].text == ","
            and not any(c.dep_ in ("aux", "auxpass") for c in kids(verb)))


def elaborating_speech(verb: Token) -> bool:
    """ "claimed the bombing, saying it was revenge", "praised the firefighters, noting ...":
    a participle that tells what the same act said is not a second statement. With a subject of
    its own ("with Lee stating that ...") it is one."""
    lemma = verb.lemma_.lower()
    if verb.tag_ == "VBG" and lemma in ("speak", "talk") and verb.dep_ == "advcl" \
            and verb.head.lemma_.lower() in REPORTING_VERBS and not any(c.dep_ == "nsubj" for c in kids(verb)):
        return True  # "Speaking to reporters, the minister said ...": the saying is the one statement
    if verb.tag_ != "VBG" or lemma not in _SPEECH_PARTICIPLES:
        return False
    quoting = verb.head.head
    if verb.dep_ == "pcomp" and verb.head.lower_ == "as" and quoting.lemma_.lower() in ("quote", "cite") \
            and any(c.dep_ == "dobj" for c in kids(quoting)):
        return True  # "the paper quoted Lee as saying ...": the quoting is the one fact ("Lee was quoted as saying": the saying)
    if any(c.dep_ in NOUN_SUBJECTS for c in kids(verb)):
        return False
    if verb.dep_ == "conj":
        return elaborating_speech(verb.head)
    return verb.dep_ == "advcl" and verb.head.pos_ in ("VERB", "AUX")


def _anonymity_formula(verb: Token) -> bool:
    """ "spoke on condition of anonymity": how a source is described, not something it did."""
    if verb.lemma_ not in ("speak", "talk"):
        return False
    return any(p.dep_ == "prep" and any(o.lemma_ in ("condition", "anonymity") for o in kids(p))
               for p in kids(verb))


def _noun_gerund(verb: Token) -> bool:
    """ "before the party congress meeting": an -ing noun the parser took for a verb."""
    if verb.tag_ != "VBG" or any(c.dep_ in ("aux", "dobj", "prt") for c in kids(verb)):
        return False
    if verb.dep_ == "advcl":
        if not any(c.dep_ == "mark" and c.lower_ in ("before", "after", "during", "since", "until") for c in kids(verb)):
            return False
    elif verb.dep_ not in ("pcomp", "pobj"):
        return False
    subj = [c for c in kids(verb) if c.dep_ == "nsubj"]
    return len(subj) == 1 and subj[0].i == verb.i - 1 and subj[0].left_edge.dep_ == "det"


def _state_passive(verb: Token, lemma: str) -> bool:
    """ "is located in Lyon", "was born in 1950", "is expected to sign", "it is estimated that":
    a passive that tells a state or the writer's hedge."""
    if lemma not in PASSIVE_STATES and lemma not in RAISING_PASSIVES:
        return False  # asked first: most verbs are neither
    if not (is_passive(verb) or verb.dep_ == "acl" and verb.tag_ == "VBN"):
        return False
    if any(c.dep_ == "agent" for c in kids(verb)):
        return False
    if lemma in PASSIVE_STATES:
        return True
    if lemma in RAISING_PASSIVES:
        return any(c.dep_ in ("xcomp", "ccomp") for c in kids(verb)) or any(
            c.dep_ == "nsubjpass" and c.lower_ == "it" for c in kids(verb))
    return False


def attributive_participle(verb: Token) -> bool:
    """ "talked to visiting President Ana Reyes": a participle used as an adjective before a title
    and name, which the parser took for a verb whose object is the name."""
    if verb.tag_ != "VBG" or verb.lower_ not in _ATTRIBUTIVE or verb.dep_ not in ("pcomp", "ROOT", "conj"):
        return False
    return any(c.dep_ == "dobj" and c.pos_ == "PROPN" and c.left_edge.i == verb.i + 1 for c in kids(verb))


def _phrasal_state(verb: Token, lemma: str) -> bool:
    """ "the others made up 3 percent", "falls accounted for 70 percent": a phrasal verb of
    amount or make-up, a state."""
    words = _PHRASAL_STATES.get(lemma)
    return words is not None and any(c.dep_ in ("prt", "prep") and c.lower_ in words for c in kids(verb))


def _thought_not_deed(verb: Token, lemma: str) -> bool:
    """A verb of finding or reminding used for a thought: "the panel found that most claims ...",
    "we are reminded of our duty" (finding the body, reminding them to vote are deeds)."""
    if lemma in _FINDING:
        return any(c.dep_ == "ccomp" for c in kids(verb))
    if lemma == "remind":
        return is_passive(verb) and any(c.dep_ == "prep" and c.lower_ == "of" for c in kids(verb))
    return False


def _hashtag(tok: Token) -> bool:
    """ "#StopTheDam": a tag, whatever the tagger made of it."""
    return tok.i > 0 and tok.doc[tok.i - 1].text == "#" and not tok.doc[tok.i - 1].whitespace_


def is_event_verb(verb: Token) -> bool:
    """Whether a token is a verb that heads an event clause (see the module docstring)."""
    if not is_verb(verb) or _hashtag(verb):
        return False
    lemma = verb.lemma_.lower()
    if lemma in UNACCUSATIVE_VERBS or not lemma.replace("-", "").isalpha():
        return False
    if lemma in NON_EVENT_VERBS and not light_event(verb):
        return False
    if lemma in _NOT_EVENTS and not _remarked(verb, lemma):
        return False
    if lemma in INTRANSITIVE_STATES and not any(c.dep_ in _OBJECTS for c in kids(verb)):
        return False
    if _state_passive(verb, lemma) or _naming_participle(verb) or _thought_not_deed(verb, lemma) \
            or _phrasal_state(verb, lemma) or _holding_a_post(verb, lemma):
        return False
    return not (_noun_gerund(verb) or elaborating_speech(verb) or _anonymity_formula(verb)
                or attributive_participle(verb) or _kind_of_deed(verb) or _keeping_a_stance(verb, lemma))


def _remarked(verb: Token, lemma: str) -> bool:
    """ "The Gazette observed that the tag had spread": "observe" with a clause of what was said is a remark
    (a statement), not a sight ("observed the rally")."""
    return lemma == "observe" and verb.pos_ == "VERB" and any(
        c.dep_ == "ccomp" and any(m.dep_ == "mark" and m.lower_ == "that" for m in kids(c)) for c in kids(verb))


#: Nouns of a way of acting: their "of" gerund names a kind of deed, not one done ("a policy of turning boats away").
_WAY_NOUNS = frozenset("policy policies practice practices habit strategy tactic tactics method campaign".split())
#: Objects of "maintain" and "keep" that make the clause a state ("maintained a policy", "kept silent").
_STANCES = frozenset("policy policies position stance line silence neutrality presence posture".split())


def _kind_of_deed(verb: Token) -> bool:
    """ "a policy of turning boats away", "the practice of detaining migrants", "was responsible for
    managing the fleet", "experience including commanding troops": a kind of deed, a duty or a record, not
    one deed done."""
    if verb.tag_ != "VBG":
        return False
    while verb.dep_ == "conj" and verb.head.tag_ == "VBG":
        verb = verb.head  # "responsible for sustaining, sparing and developing systems"
    prep = verb.head
    if verb.dep_ not in ("pcomp", "pobj") or prep.dep_ != "prep":
        return False
    if prep.lower_ == "from" and not any(c.dep_ in ("dobj", "prt", "ccomp", "nsubj") for c in kids(verb)):
        return True  # "retired from songwriting", "refrained from voting": an activity, not a deed
    return (prep.lower_ == "of" and prep.head.lemma_.lower() in _WAY_NOUNS
            or prep.lower_ == "for" and prep.head.lemma_.lower() in ("responsible", "accountable")
            or prep.lower_ == "including" and prep.head.pos_ in ("NOUN", "PROPN"))


def _keeping_a_stance(verb: Token, lemma: str) -> bool:
    """ "have maintained a policy of ...", "kept its position": holding a stance is a state, not a deed."""
    return lemma in ("maintain", "keep") and any(
        c.dep_ == "dobj" and c.lemma_.lower() in _STANCES for c in kids(verb))


def _holding_a_post(verb: Token, lemma: str) -> bool:
    """ "served as director", "has served in several posts at Acme", "served on the board", "spent three
    years as a lawyer", "worked as a lawyer for Acme": a career step, which is a role (``roles.careers``), not a deed. Serving something
    or someone ("served a sentence", "served the town") is a deed."""
    below = kids(verb)
    if lemma == "serve":
        return not any(c.dep_ in ("dobj", "dative") for c in below)
    if lemma == "spend":  # "spent a decade at Acme", "two tours in Orvik", "three years as a lawyer"
        return any(o.dep_ == "dobj" and (o.ent_type_ == "DATE" or o.lemma_.lower() in _SPANS) for o in below) \
            or any(c.dep_ == "prep" and c.lower_ == "as"
                   for head in [verb, *(o for o in below if o.dep_ == "dobj")] for c in kids(head))
    if lemma == "work":  # "worked as a lawyer", "has worked at Acme"; "was working in a shop when ..." is a deed
        progressive = verb.tag_ == "VBG" and any(c.dep_ == "aux" and c.lemma_ == "be" for c in below)
        return any(c.dep_ == "prep" and (c.lower_ == "as" and any(
            p.dep_ == "pobj" and p.lemma_.lower() in ROLE_NOUNS for p in kids(c))
            or c.lower_ in ("at", "for") and not progressive and any(
            p.dep_ == "pobj" and p.ent_type_ == "ORG" for p in kids(c))) for c in below)
    return False


#: Objects of "spend" that are a span of a career ("spent two tours in Orvik", "a decade at Acme").
_SPANS = frozenset("year years decade decades month months term terms tour tours stint stints career".split())
