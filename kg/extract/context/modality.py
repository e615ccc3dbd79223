"""Whether a clause's deed is stated as done: negation and modality, read off the parse.

``negated`` says whether the clause (or a clause that governs it by control) is negated;
``modality`` says whether it is asserted, reported (with the reporting verb), planned,
hypothetical or generic. A clause that is intended, requested, conditional, asked, hedged or
habitual is recorded with its modality, never silently dropped: ``queries/events.rq`` keeps only
asserted and reported events.
"""
from __future__ import annotations

from spacy.tokens import Token

from ...nlp.lexicon import (
    COMMUNICATION_VERBS,
    COMPLEMENT_VERBS,
    CONDITIONAL_MARKS,
    HABITUAL_ADVERBS,
    HEDGING_ADVERBS,
    MEANS_NOUNS,
    MODALS,
    NEGATIONS,
    OBJECT_CONTROL_VERBS,
    PLAN_NOUNS,
    PLAN_VERBS,
    RAISING_PASSIVES,
    REPORTING_VERBS,
    REQUEST_VERBS,
)
from ...nlp.words import known_word
from ..grammar.columns import has_text, kids
from ..grammar.labels import NOUN_SUBJECTS, SUBJECTS
from ..grammar.passives import is_passive

__all__ = ["negated", "modality", "finite_own_clause"]

_NEGATIVE_VERBS = frozenset(("refuse", "decline", "fail", "deny"))
#: Verbs whose "that" clause states what the speaker says is untrue.
_DENYING_VERBS = frozenset(("deny",))
_PREVENTING_VERBS = frozenset("ban bar prevent stop prohibit block keep refrain forbid restrain".split())
#: Subjects that deny the clause: "no group has claimed", "nobody was hurt".
_NEGATIVE_SUBJECTS = frozenset(("nobody", "none", "nothing", "noone", "no-one"))
#: Determiners of a subject that deny the clause ("no party", "neither side").
_NEGATIVE_DETERMINERS = frozenset(("no", "neither"))
#: Conjunctions that contrast a second clause with the first: it keeps its own polarity
#: ("has not commented, but Major Kerr says").
_CONTRASTIVE = frozenset(("but", "yet", "while", "whereas"))
#: Verbs after which a purpose infinitive is what was done in the call, meeting or visit
#: ("called Lee to apologize", "met Ortiz to discuss the plan").
_DONE_PURPOSE_HEADS = frozenset("call phone telephone ring meet visit convene gather".split())
#: Nouns whose "that" clause the writer does not vouch for: "the pretext that ...", "rumours that ...",
#: "allegations that he took bribes".
_PRETEXT_NOUNS = frozenset("pretext pretence pretense excuse rumour rumor allegation accusation suspicion speculation".split())
#: Verbs that hedge what their infinitive says ("appear to accept", "seem to have left").
_HEDGING_VERBS = frozenset(("appear", "seem"))
_WH_WORDS = frozenset("which what where how why who whom whose when whether".split())
_FIRST_PERSON = frozenset(("i", "we"))
_CLOSING_QUOTES = frozenset(('"', "'", "\u201d", "\u2019", "''"))


def finite_own_clause(verb: Token) -> bool:
    """A conjunct with its own subject or auxiliary, or a contrasted one, is a clause of its own:
    negation and modals of the first conjunct do not reach it."""
    if verb.dep_ != "conj":
        return False
    if any(c.dep_ in SUBJECTS or c.dep_ in ("aux", "auxpass") for c in kids(verb)):
        return True
    head = verb.head
    return any(c.dep_ == "cc" and c.lower_ in _CONTRASTIVE and head.i < c.i < verb.i for c in kids(head))


def _negative_subject(verb: Token) -> bool:
    for s in kids(verb):
        if s.dep_ not in NOUN_SUBJECTS:
            continue
        if s.lower_ in _NEGATIVE_SUBJECTS or any(
                d.dep_ == "det" and d.lower_ in _NEGATIVE_DETERMINERS for d in kids(s)):
            return True
    return False


def negated(verb: Token) -> bool:
    """Whether the clause, or a clause that governs it by control or coordination, is negated."""
    t = verb
    for _ in range(4):
        if any(c.dep_ == "neg" or c.lower_ in NEGATIONS and c.dep_ in ("advmod", "neg", "det") for c in kids(t)):
            return True
        if _negative_subject(t):
            return True
        if t.dep_ == "xcomp" and t.head.lemma_ in _NEGATIVE_VERBS:
            return True
        if t.dep_ == "ccomp" and t.head.lemma_ in _DENYING_VERBS and t.i > t.head.i:
            return True  # "she denied that he had taken bribes": what a denial says did not happen
        if t.dep_ == "pcomp" and t.head.lower_ == "from" and t.head.head.lemma_ in _PREVENTING_VERBS:
            return True  # "banned from leaving", "stopped from entering"
        if t.dep_ == "pcomp":
            gov = t.head.head
            while gov.pos_ in ("NOUN", "PROPN", "ADJ") and gov.head != gov:
                gov = gov.head
            if gov != t and any(c.dep_ == "neg" for c in kids(gov)):
                return True  # "did not offer proposals for reducing tensions"
        if t.dep_ == "xcomp" or (t.dep_ == "conj" and not finite_own_clause(t)):
            if t.head == t:
                break
            t = t.head
            continue
        break
    return False


def _lost_infinitive(verb: Token) -> bool:
    """A bare verb coordinated with a finite one ("Acme has a plan to cut costs, get ... and
    take action"): English joins verbs of one form, so the bare one belongs to an infinitive
    whose "to" the parser attached elsewhere; it states no deed."""
    if verb.dep_ != "conj" or verb.tag_ != "VB" or any(c.dep_ in SUBJECTS for c in kids(verb)):
        return False
    if _infinitive(verb):
        # "was banned for two years and to repay the prize": an infinitive joined to a finite
        # verb belongs to what was imposed or asked, not to what was done.
        return verb.head.tag_ != "VB" and not _infinitive(verb.head)
    if any(c.dep_ == "aux" for c in kids(verb)):
        return False
    head = verb.head
    while head.dep_ == "conj" and head.head != head:
        head = head.head
    return head.tag_ in ("VBZ", "VBD") and not any(c.dep_ == "aux" for c in kids(head))


def _infinitive(clause: Token) -> bool:
    return any(c.dep_ == "aux" and c.lower_ == "to" for c in kids(clause))


def _purpose_of_ongoing(clause: Token) -> bool:
    """A purpose infinitive of an action still in progress ("was assembling leaders to take steps"):
    the purpose is intended, not done."""
    if clause.dep_ not in ("advcl", "xcomp") or not _infinitive(clause):
        return False
    head = clause.head
    if clause.dep_ == "xcomp" and not any(c.dep_ == "dobj" for c in kids(head)):
        return False
    return head.tag_ == "VBG" and any(c.dep_ == "aux" and c.lemma_ == "be" for c in kids(head))


def _purpose(clause: Token) -> bool:
    """A purpose infinitive ("fired into the air to disperse the crowd", "had been in Lyon to
    attend the fair", "lifted off to repair the station"): intended, not done; after a call, a meeting
    or a visit it is what was done there. An infinitive that completes its verb ("tried to
    flee", "agreed to help") is read by the verb's class, not here."""
    if clause.dep_ not in ("advcl", "xcomp") or not _infinitive(clause):
        return False
    if any(c.dep_ == "mark" and c.lower_ not in ("in", "order", "so", "as") for c in kids(clause)):
        return False
    if any(c.dep_ in ("attr", "dobj", "nsubj") and any(a.lower_ in ("first", "last", "only") or a.ent_type_ == "ORDINAL"
                                                     for a in kids(c)) for c in kids(clause.head)):
        return False  # "became the first mayor to visit X": the infinitive tells what made them first
    head = clause.head.lemma_.lower()
    if head == "use" and any(c.dep_ == "dobj" for c in kids(clause.head)):
        return True  # "used tear gas to disperse the crowd" ("used to live there" is a habit)
    if clause.dep_ == "xcomp" and (clause.head.pos_ not in ("VERB", "AUX") or head in COMPLEMENT_VERBS
                                   or head in PLAN_VERBS or head in REQUEST_VERBS or head in OBJECT_CONTROL_VERBS
                                   or head in RAISING_PASSIVES or head in REPORTING_VERBS):
        return False
    return head not in _DONE_PURPOSE_HEADS


def _requested(clause: Token) -> bool:
    """What someone is asked, urged, ordered or called on to do ("urged them to leave", "were
    ordered to leave", "called on voters to stay home"): asked for, not done."""
    if clause.dep_ not in ("xcomp", "ccomp"):
        return False
    head = clause.head
    lemma = head.lemma_.lower()
    if clause.dep_ == "xcomp":
        if lemma in REQUEST_VERBS:
            return True
        return lemma == "call" and any(c.dep_ == "prep" and c.lower_ in ("on", "upon") for c in kids(head))
    return clause.dep_ == "ccomp" and lemma in REQUEST_VERBS and _infinitive(clause)


def _ends_in_question_mark(clause: Token) -> bool:
    """Whether a clause's last word, quotes aside, or the word right after it is a question mark."""
    doc = clause.doc
    if not has_text(doc, "?"):
        return False  # most articles ask nothing
    i = clause.right_edge.i
    while i > clause.i and doc[i].text in _CLOSING_QUOTES:
        i -= 1
    if doc[i].text == "?":
        return True
    j = clause.right_edge.i + 1
    while j < len(doc) and doc[j].text in _CLOSING_QUOTES:
        j += 1
    return j < len(doc) and doc[j].text == "?"


def _relative_clause(clause: Token) -> bool:
    """A clause whose subject is "who"/"which" right after a noun ("prosecute Lee who fled"): a
    relative clause of that noun, whatever the parser attached it to."""
    return any(c.dep_ == "nsubj" and c.lower_ in ("who", "which") and c.i > 0
               and c.doc[c.i - 1].pos_ in ("NOUN", "PROPN") for c in kids(clause))


def _question(clause: Token) -> bool:
    """A question, direct ("Did the army fire?") or embedded ("shows which villages were shelled",
    "asked whether X fled"): asked, not stated."""
    if clause.dep_ in ("ROOT", "ccomp", "conj") and _ends_in_question_mark(clause):
        return True
    if clause.dep_ not in ("ccomp", "pcomp", "csubj") or _relative_clause(clause):
        return False
    first = clause.doc[clause.left_edge.i]  # "asked whether ...", "questions remain as to why ..."
    return first.lower_ in _WH_WORDS and first.tag_ in ("WDT", "WP", "WP$", "WRB", "IN")


def _imperative(clause: Token) -> bool:
    """An instruction ("Lock the door and check the windows", "Be sure the gate is shut"): the main
    verb of the sentence in its bare form, first in it, with no subject and no auxiliary."""
    if clause.dep_ != "ROOT" or clause.tag_ != "VB":
        return False
    if any(c.dep_ in SUBJECTS or c.dep_ in ("aux", "auxpass", "expl") for c in kids(clause)):
        return False
    return all(t.dep_ in ("advmod", "punct", "intj", "cc", "mark") or t.is_space
               for t in clause.doc[clause.sent.start:clause.i])


def _conditional_main(clause: Token) -> bool:
    """The main clause of a condition ("If the report is true, we condemn ..."): only as
    sure as the condition."""
    return any(c.dep_ == "advcl" and c.i < clause.i and any(
        m.dep_ == "mark" and m.lower_ in ("if", "unless") for m in kids(c)) for c in kids(clause))


def _generic_present(verb: Token) -> bool:
    """A simple present that tells a habit or a state, not a dated deed ("the firm sells tractors
    in Chile", "a driver suffers a crash every ten minutes", "cases are chosen at random").
    Verbs of saying ("the envoy tells reporters") and first-person performatives ("we reject
    the offer") are events in the present too."""
    if verb.lemma_ in COMMUNICATION_VERBS or verb.dep_ not in ("ROOT", "conj", "ccomp", "relcl", "advcl"):
        return False
    auxes = [c for c in kids(verb) if c.dep_ in ("aux", "auxpass")]
    if verb.tag_ in ("VBZ", "VBP"):
        if auxes or verb.tag_ == "VBP" and known_word(verb.vocab, verb.lower_, "verb") is False:
            return False  # "retook" tagged as a present: the form is no verb lemma, so a past
    elif not (verb.tag_ == "VBN" and len(auxes) == 1 and auxes[0].dep_ == "auxpass"
              and auxes[0].tag_ in ("VBZ", "VBP")):
        return False
    return not any(c.dep_ in NOUN_SUBJECTS and c.lower_ in _FIRST_PERSON for c in kids(verb))


def modality(verb: Token, headline: bool = False) -> tuple[str, Token | None]:  # noqa: C901 (33): a chain of construction rules; issue 33 step 2 makes them named rules
    """asserted, reported (with the reporting verb), planned, hypothetical or generic.

    ``headline``: the verb is in a headline, whose simple present tells a past deed.
    """
    if _lost_infinitive(verb):
        return "hypothetical", None
    if not headline and _generic_present(verb):
        return "generic", None
    if headline and verb.dep_ == "ROOT" and _infinitive(verb):
        return "planned", None  # "Acme to buy Lyon Steel"
    t = verb
    reporter: Token | None = None
    own_tense = False
    for _ in range(8):
        for c in kids(t):
            if own_tense and c.dep_ in ("aux", "advmod"):
                continue
            if c.dep_ == "aux" and c.lower_ in MODALS:
                return MODALS[c.lower_], None
            if c.dep_ == "mark" and c.lower_ in CONDITIONAL_MARKS:
                return "hypothetical", None
            if c.dep_ == "aux" and c.lower_ == "going":
                return "planned", None
            if c.dep_ == "advmod" and c.lower_ in HABITUAL_ADVERBS:
                return "generic", None
            if c.dep_ == "advmod" and c.lower_ in HEDGING_ADVERBS:
                return "hypothetical", None  # "was probably killed": possible, not stated
        if not own_tense and _conditional_main(t):
            return "hypothetical", None
        if _question(t) or _imperative(t):
            return "hypothetical", None
        if t.dep_ == "csubj":
            return "generic", None  # "Blaming others solves nothing": no one blamed anyone
        if t.dep_ == "xcomp" and t.head.lemma_ in PLAN_VERBS:
            return "planned", None
        if t.dep_ == "xcomp" and (t.head.lemma_ in _HEDGING_VERBS or t.head.pos_ == "ADJ"):
            return "hypothetical", None  # "appear to accept", "ready to fight", "willing to talk"
        if t.dep_ == "xcomp" and t.head.lemma_ in RAISING_PASSIVES and is_passive(t.head):
            return "hypothetical", None  # "is expected to sign", "is alleged to have taken"
        if _purpose_of_ongoing(t) or _purpose(t):
            return "planned", None  # "fired into the air to disperse the crowd": intended
        if _requested(t):
            return "hypothetical", None  # "urged them to leave": asked for, not done
        if t.dep_ == "xcomp" and t.head.lemma_ == "be" and any(c.lower_ == "to" for c in kids(t)):
            return "planned", None  # "the office is to begin issuing forms"
        if t.dep_ == "xcomp" and t.head.lemma_ in ("have", "ought") and _infinitive(t):
            return "hypothetical", None  # "has to leave": an obligation, not a deed
        if (t.dep_ in ("acl", "ccomp") and t.head.lemma_.lower() in _PRETEXT_NOUNS) or any(
                c.dep_ == "mark" and c.lower_ == "that" and c.i > 0 and c.doc[c.i - 1].lemma_.lower() in _PRETEXT_NOUNS
                for c in kids(t)):
            return "hypothetical", None  # "under the pretext that X fired": put forward, not stated
        if t.dep_ in ("acl", "relcl") and t.head.lemma_.lower() in PLAN_NOUNS | MEANS_NOUNS and t.tag_ != "VBN":
            return "planned", None  # "a plan to build", "efforts to end the strike"
        if t.dep_ == "ccomp" and t.head.lemma_ in REPORTING_VERBS and reporter is None:
            reporter = t.head
        if reporter is None and t.i == verb.i:
            # "As Lee claimed, the troops withdrew": the clause is what "as" says someone reported
            reporter = next((c for c in kids(t) if c.dep_ == "advcl" and c.lemma_ in REPORTING_VERBS
                             and any(m.dep_ == "mark" and m.lower_ == "as" for m in kids(c))), None)
        if t.dep_ == "relcl" or t.head == t or _relative_clause(t):
            break  # a relative clause (also one the parser attached otherwise) keeps its own modality
        # A conjunct of its own ("... should be punished, but told ...") has its own tense and modality.
        own_tense = finite_own_clause(t) or (t.dep_ == "conj" and t.tag_ in ("VBD", "VBZ", "VBP"))
        done_to_noun = t.dep_ == "acl" and t.tag_ == "VBN"  # "a plan backed by X": done, not planned
        gerund = t.dep_ == "pcomp" and t.tag_ == "VBG"
        predicate = False
        # "used gas to disperse them and detained dozens": a finite verb joined to a bare infinitive is
        # the main clause's conjunct, misattached (English joins verbs of one form)
        finite_after_infinitive = (t.dep_ == "conj" and t.tag_ in ("VBD", "VBZ") and t.head.tag_ == "VB"
                                   and _infinitive(t.head) and t.head.head != t.head)
        t = t.head.head if finite_after_infinitive else t.head
        while t.pos_ not in ("VERB", "AUX") and t.head != t:
            if t.dep_ == "relcl":
                break
            predicate = predicate or t.dep_ == "attr"
            noun = t.lemma_.lower()
            if noun in PLAN_NOUNS and not done_to_noun:
                return "planned", None  # "proposals for reducing tensions"
            if gerund and noun in MEANS_NOUNS:
                return "hypothetical", None  # "a method for cleaning the river"
            t = t.head
        if gerund and predicate and t.lemma_ == "be":
            return "generic", None  # "is a leader in building bridges": what X is, not a deed

    if reporter is not None:
        return "reported", reporter
    return "asserted", None
