"""Facts with context: event class, time, place, responsibility claims, coreference, dated roles.

Runs once per article, after events and roles are read (``add_context``), and only adds to them:
no event or role is dropped, and actor, action, target, modality and negation stay as
``events/reader.py`` read them. For each event, from its trigger (``Event.trigger``: the verb's offsets
in the Doc) and the parse:

* **class**: the CAMEO root class from the verb lexicon (``cameo.classify``), with the lookup
  key recorded (``Event.lemma``); no class but a reason when the lexicon does not know the verb
  or the verb is ambiguous;
* **time**: a DATE/TIME entity of the verb's own clause: its head chain reaches the verb
  through prepositions and nouns without crossing another verb, and it does not modify a noun
  ("Saturday's attack" is the attack's time, not the claim's); normalised by ``timex``
  against ``Article.date``. An infinitive complement ("called to apologize") and a *when/while*
  clause share the time of the clause they hang on;
* **place**: a GPE/LOC/FAC entity (or a facility noun: "at the embassy") under a locative
  preposition of the clause ("in Varno", "in the province of Varno"), else the article's
  dateline ("TALMORA -"), flagged ``place_from_dateline``;
* **coreference distance**: when the verb's subject or object is a pronoun standing for a named
  entity, the sentences back to that entity's last mention by name (a feature of the confidence
  model, ``confidence/model.py``);
* **responsibility claims**: "X claimed responsibility for the attack" links X as
  ``claimed_by`` to the attack the article reports before (or in) that sentence: the first
  violent event (CAMEO 18-20) whose time agrees with the claimed deed's; when there is none,
  the claim gives an event of its own (X, attack, target) reported by X, rule
  "claim-responsibility".

For roles: "new" ("the new interior minister") and "since 2010" ("minister since 2010",
"who has held the post since 2010") set ``Role.new`` and ``Role.since``; "former" and "then-"
are read by ``roles/reader.py`` (``Role.former``).

Everything here is a handful of dictionary look-ups and short walks up the parse per fact; what
needs the whole Doc (locative phrases, pronoun arguments, sentence starts, token offsets) is read
once from its attribute array. Measured on the seeds: about 1% of the parse.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from datetime import date

import numpy as np
from spacy.attrs import DEP, HEAD, IDX, LOWER, POS, SENT_START
from spacy.strings import StringStore
from spacy.symbols import PRON
from spacy.tokens import Doc, Span, Token

from ...model.facts import Article, ArticleFacts, Event, Evidence, Role, Time
from ...nlp.clean import clean
from ...nlp.lexicon import COMMUNICATION_VERBS, PLACE_ALIASES, RELATIVE_PRONOUNS, ROLE_MODIFIERS, ROLE_NOUNS
from ..entities.groups import FACILITY_NOUNS
from ..entities.index import EntityIndex
from ..grammar.columns import kids
from ..grammar.labels import NOUN_SUBJECTS
from .cameo import MULTIWORD_HEADS, classify
from .tenure import Tenure
from .timex import TIME_ADVERBS, is_clock, is_time_point, needs_ref, normalise, parse_iso

__all__ = ["add_context", "ContextReader", "CLAIM_KEYS", "DEED_NOUNS"]

_DATE_LABELS = ("DATE", "TIME")
_PLACE_LABELS = ("GPE", "LOC", "FAC")
#: Prepositions that say where the clause happens (not where an action goes: "into", "at" a
#: target are read as targets by events/reader.py).
_PLACE_CHAIN = frozenset("in at inside outside near across throughout within around beside off aboard".split())
#: "on", "over" and "along" say where only with a place named ("over eastern Varno", "on the island"):
#: "on Twitter", "continued over the burning" are no places.
_NAMED_ONLY = frozenset("on over along".split())
#: "into" and "onto" say where only after a verb of falling ("fell into the river, killing two").
_INTO = frozenset(("into", "onto"))
_FALL_VERBS = frozenset("fall crash plunge tumble collapse slam topple".split())
#: "From Varno, our correspondent reports": where the report was made.
_FROM = frozenset(("from",))
_LOCATIVE = _PLACE_CHAIN | _NAMED_ONLY | _INTO | _FROM
#: Nouns of spots that a place phrase may hang on ("to the runway at the airport").
_SPOT_NOUNS = frozenset("runway field square street floor scene site coast shore area stands spot".split())
#: Prepositions under which a site named as an organization is a place ("at the Talmora Palace").
_AT_SITE = frozenset("at in into inside outside near".split())
#: Last words of the names of organizations that are also sites ("the Varno Stadium", "the Lind Mosque").
_SITE_WORDS = frozenset("""house center centre building mosque church cathedral temple hospital airport base
headquarters stadium palace court courthouse university college school prison station hall hotel
embassy""".split())
#: Nouns that refer back to a place named before ("the city", "on the island").
_REFERENCE_NOUNS = frozenset("city town village island capital province district region county country nation".split())
#: Verbs whose place object is where the event happened ("visited Varno", "left the capital").
_AT_TARGET_VERBS = frozenset("visit tour leave depart enter exit reach".split())
#: Prepositions whose date object is not the time of the event ("since 2010", "until Friday").
_NOT_POINT_PREPS = frozenset("since until till for through throughout over from".split())
#: Prepositions whose gerund shares the time of the verb it hangs on ("suspended for leaving the
#: bench", "responded by closing the road"); not "after", "before", "since".
_SHARING_PREPS = frozenset("for by in while".split())
#: A date that modifies a noun or is an argument is not the clause's time.
_NOT_TIME_DEPS = frozenset("poss compound amod nmod nummod nsubj nsubjpass dobj attr appos".split())
#: How many nouns a date or a place phrase may hang on between it and the verb: the parser often
#: attaches a clause's "on Saturday" or "inside the building" to the last noun before it.
_DATE_NOUNS, _PLACE_NOUNS = 6, 2
#: Coreference distances are counted up to this many sentences (further is as far).
_FAR = 10
_CLAUSE_DEPS = frozenset("relcl acl ccomp advcl xcomp csubj parataxis".split())
_SHARED_TIME_MARKS = frozenset(("when", "while", "whilst", "as"))
#: Deps of a time that dates the noun it hangs on ("the earthquake last month", "Saturday's attack").
_NOUN_TIME_DEPS = frozenset("npadvmod poss compound nmod amod nummod".split())
#: Words after a clock that belong to it ("four minutes later", "45 seconds left").
_CLOCK_AFTER = frozenset("later earlier left remaining".split())
#: A day, which as the object of a verb is its time ("announced Wednesday it will ...").
_DAY_WORDS = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday|today|tonight)\b")
#: Words of a time ahead, which on a noun date the noun ("elections next year"), not the clause.
_AHEAD = re.compile(r"\b(?:next|coming|upcoming|tomorrow|later this)\b")
#: Nouns of a period that "during" makes a time ("during his tenure", "during the season").
_PERIOD_NOUNS = frozenset("tenure term reign season studies childhood youth presidency".split())
#: Heads whose named modifier is the place itself ("Varno province", "Dal Seret town").
_REGION_NOUNS = frozenset("""province district city town village region state county area capital suburb
neighbourhood neighborhood valley island coast border outskirts""".split())
_PRONOUN_SKIP = RELATIVE_PRONOUNS | frozenset("what i me my we us our you your".split())

#: Keys (``Event.lemma``) that make an event a claim of responsibility.
CLAIM_KEYS = frozenset(("claim responsibility", "claim credit", "accept responsibility", "admit responsibility"))
#: Nouns for deeds one claims responsibility for -> CAMEO root code (1823, 183, 181, 186, 193, ...).
DEED_NOUNS: dict[str, str] = {
    "attack": "18", "attacks": "18", "bombing": "18", "bombings": "18", "blast": "18", "blasts": "18",
    "explosion": "18", "explosions": "18", "killing": "18", "killings": "18", "murder": "18", "murders": "18",
    "shooting": "18", "shootings": "18", "assassination": "18", "kidnapping": "18", "kidnappings": "18",
    "abduction": "18", "abductions": "18", "hijacking": "18", "assault": "18", "assaults": "18",
    "stabbing": "18", "beheading": "18", "execution": "18", "executions": "18", "ambush": "19",
    "airstrike": "19", "airstrikes": "19", "shelling": "19", "offensive": "19", "massacre": "20",
    "massacres": "20",
}
_VIOLENT = frozenset(("18", "19", "20"))


class ContextReader:
    """Context for the events and roles of one parsed article (see the module docstring)."""

    def __init__(self, doc: Doc, article: Article, index: EntityIndex) -> None:
        self.doc = doc
        self.article = article
        self.index = index
        self.anchor: date | None = parse_iso(article.date)
        self._ents = index.ents
        self._dates = _time_spans(doc, [e for e in self._ents if e.label_ in _DATE_LABELS])
        #: the article's DATE/TIME spans ("Wednesday morning" one span), in text order
        self.dates = self._dates
        #: the Doc's token attributes as one array (columns: _ARRAY_ATTRS), read once
        self._arr = doc.to_array(_ARRAY_ATTRS).view(np.int64) if len(doc) else np.zeros((0, len(_ARRAY_ATTRS)), np.int64)
        #: objects of locative prepositions, in text order (candidates for places)
        self._locative = _locative_objects(doc, self._arr)
        self._locative_at = [t.idx for t in self._locative]
        #: the time expressions that can be an event's time (dates, clocks, "recently", "during his
        #: tenure"), in text order: (root, text, offset), read once
        self._times = sorted((c for c in (*map(self._clause_date, self._dates), *_time_words(doc, self._arr))
                              if c is not None), key=lambda c: c[2])
        self._date_at = [c[2] for c in self._times]
        self._normalised: dict[tuple[str, str | None, int], Time] = {}
        self._shared: dict[int, list[Token]] = {}
        self._by_trigger: dict[tuple[int, str, bool], tuple[str | None, str, str | None, Time | None]] = {}
        self._dateline: str | None | bool = False  # False: not looked up yet
        self._named: dict[str, list[int]] | None = None  # key -> token indices of its named mentions
        self._pronouns: dict[int, list[int]] | None = None  # verb index -> its pronoun arguments

    # ----- tokens -----------------------------------------------------------------
    def token_at(self, ev: Evidence | None) -> Token | None:
        """The token a trigger's offsets point at (its first token)."""
        if ev is None:
            return None
        i = bisect_right(self.index.cols.idx, ev.start) - 1
        if i < 0 or i >= len(self.doc):
            return None
        tok = self.doc[i]
        return tok if tok.idx + len(tok) > ev.start else None

    # ----- class -----------------------------------------------------------------
    def lookup_keys(self, tok: Token, action: str) -> list[str]:
        """Lexicon keys for a verb, most specific first (see ``cameo``)."""
        below = list(kids(tok))
        lemma = tok.lemma_.lower()
        prt = next((c.lower_ for c in below if c.dep_ == "prt"), "")
        obj = next((c.lemma_.lower() for c in below
                    if c.dep_ in ("dobj", "nsubjpass") and c.pos_ in ("NOUN", "PROPN")), "")
        preps: list[tuple[str, str]] = []
        for c in below:
            if c.dep_ != "prep":
                continue
            pobj = next((p for p in kids(c) if p.dep_ == "pobj"), None)
            if pobj is not None and pobj.ent_type_ in _DATE_LABELS:
                continue  # "called on Sunday" is no "call on"
            preps.append((c.lower_, pobj.lemma_.lower() if pobj is not None and pobj.pos_ in ("NOUN", "PROPN") else ""))
        keys: list[str] = []
        if prt and obj:
            keys.append(f"{lemma} {prt} {obj}")
        keys.extend(f"{lemma} {p} {o}" for p, o in preps if o)
        if obj:
            keys.append(f"{lemma} {obj}")
        if prt:
            keys.extend(f"{lemma} {prt} {p}" for p, _ in preps)
        if action != lemma:
            keys.append(action)
        if prt:
            keys.append(f"{lemma} {prt}")
        keys.extend(f"{lemma} {p}" for p, _ in preps)
        keys.append(lemma)
        return list(dict.fromkeys(k for k in keys if k))

    # ----- time ------------------------------------------------------------------
    @staticmethod
    def _hops(tok: Token, verb: Token, nouns: int = 1) -> int | None:
        """How many nouns ``tok`` hangs on ``verb`` through (with prepositions), at most ``nouns``
        ("called for a recount on Sunday": 1), within the verb's clause: no other verb on the way
        but the participle of "in a statement issued Tuesday, the ministry said" (the statement's
        time is the saying's). None if it does not hang on the verb so."""
        t = tok
        used = 0
        for _ in range(8):
            if t.dep_ in _CLAUSE_DEPS:
                return None
            h = t.head
            if h.i == verb.i:
                return used
            if h.pos_ in ("VERB", "AUX") and h.dep_ == "acl" and h.tag_ == "VBN" and _in_phrase_of(h.head, verb):
                return used + 1
            if h.i == t.i or h.pos_ in ("VERB", "AUX"):
                return None
            if h.pos_ != "ADP":
                used += 1
                if used > nouns:
                    return None
            t = h
        return None

    @classmethod
    def _reaches(cls, tok: Token, verb: Token, nouns: int = 1) -> bool:
        """Whether ``tok`` hangs on ``verb`` through prepositions and at most ``nouns`` nouns (``_hops``)."""
        return cls._hops(tok, verb, nouns) is not None

    def time_of(self, verb: Token, bounds: tuple[int, int]) -> Time | None:
        """The time expression of the verb's clause, normalised; None if the clause has none.

        ``bounds`` are the character offsets of the verb's sentence (the event's evidence). A clause
        with no time of its own takes the time of a clause it shares one with (``_sharing``); a
        conjoined clause with a subject of its own only a time put before the first clause's subject
        ("On Friday, police arrested two men and a court charged them")."""
        found = self._clause_time(verb, bounds, 0)
        return found[0] if found is not None else None

    def _clause_time(self, verb: Token, bounds: tuple[int, int], depth: int) -> tuple[Time, Token] | None:
        lo, hi = bounds
        cands = self._times[bisect_left(self._date_at, lo):bisect_left(self._date_at, hi)]
        dates = [e for e in self._dates if lo <= e.start_char < hi]
        if not cands and not dates:  # no time in the sentence: nothing to share either
            return None
        best: tuple[int, Token, str, int] | None = None
        past = _tense(verb) == "past" or (_tense(verb) is None and _tense(verb.head) == "past")
        # a time on the deed's noun: "the 2008 conflict was carried out by", "the earthquake last
        # month, which killed thousands"
        on_noun = [(e.root, e.text, e.start_char) for e in dates if e.root.dep_ in _NOUN_TIME_DEPS and (
            (e.root.head.dep_ == "nsubjpass" and e.root.head.head.i == verb.i)
            or (verb.dep_ == "relcl" and e.root.head.i == verb.head.i)) and is_time_point(e.text)]
        for root, text, at in sorted((*cands, *on_noun), key=lambda c: c[2]):
            hops = 0 if root.i == verb.i else 1 if (root, text, at) in on_noun else \
                self._hops(root, verb, nouns=_DATE_NOUNS)
            if hops is not None and (best is None or hops < best[0]) and not (past and _AHEAD.search(text.lower())):
                best = (hops, root, text, at)  # ("met to discuss elections next year": the elections')
        if best is not None:
            return self._normalise(best[2], best[3], _tense(verb)), best[1]
        if depth < 3:
            for other in self._sharing(verb):
                found = self._clause_time(other, bounds, depth + 1)
                if found is not None and (verb.dep_ != "conj" or other.i != verb.head.i or not _has_subject(verb)
                                          or found[1].i < _subject_start(other)):
                    return found
        return None

    def _clause_date(self, ent: Span) -> tuple[Token, str, int] | None:
        """(root, text, offset) of a DATE/TIME entity that can be a clause's time: a time point or
        a match clock, not the modifier of a noun or an argument, not under "since"/"until"/"for"."""
        root = ent.root
        text = ent.text
        doc = ent.doc
        after = doc[ent.end].lower_ if ent.end < len(doc) else ""
        if after in _CLOCK_AFTER:  # "four minutes later", "45 seconds left"
            text = f"{text} {doc[ent.end].text}"
        before = doc[ent.start - 1].lower_ if ent.start else ""
        if not (is_time_point(text) or is_clock(text, before)):
            return None
        if root.dep_ in _NOT_TIME_DEPS and not (root.dep_ == "dobj" and _DAY_WORDS.search(text.lower())):
            return None  # ("announced Wednesday it will": a day is no object)
        if _under(root, _NOT_POINT_PREPS) or ent[0].lower_ in _NOT_POINT_PREPS:
            return None  # ("since 2010" may be one entity)
        if root.dep_ == "npadvmod" and root.head.dep_ in ("dobj", "pobj") and root.head.pos_ in ("NOUN", "PROPN") \
                and _AHEAD.search(text.lower()):
            return None  # "met to discuss elections next year": the time of the elections
        return root, text, ent.start_char

    def _normalise(self, text: str, at: int, tense: str | None) -> Time:
        key = (text, tense, at if needs_ref(text) else -1)
        found = self._normalised.get(key)
        if found is None:
            ref = self._ref_before(at) if key[2] >= 0 else None
            found = self._normalised[key] = normalise(text, self.anchor, tense=tense, ref=ref)
        return found

    def _ref_before(self, at: int) -> Time | None:
        """The last time with a calendar value that the text gives before offset ``at`` (what "two
        weeks later" and "the following year" count from)."""
        for e in reversed(self._dates):
            if e.start_char < at and not needs_ref(e.text):
                t = normalise(e.text, self.anchor)
                if t.value is not None:
                    return t
        return None

    def _sharing(self, verb: Token) -> list[Token]:
        """Clauses that share the verb's time and place: the clause a participle, an infinitive, a
        gerund after a preposition, a conjoined verb or a when/while clause hangs on, and the
        when/while clauses hanging on it (memoised)."""
        out = self._shared.get(verb.i)
        if out is None:
            out = []
            if verb.dep_ in ("xcomp", "conj") or (verb.dep_ == "ccomp" and _infinitive(verb)) or (
                    verb.dep_ == "pcomp" and verb.head.lower_ in _SHARING_PREPS) or (
                    verb.dep_ == "advcl" and (self._shared_mark(verb) or _participle(verb))):
                head = verb.head
                while head.pos_ == "ADP" and head.head.i != head.i:  # "suspended for leaving": the verb
                    head = head.head
                if head.pos_ in ("VERB", "AUX"):
                    out.append(head)
            out.extend(c for c in kids(verb) if c.dep_ == "advcl" and self._shared_mark(c))
            self._shared[verb.i] = out
        return out

    @staticmethod
    def _shared_mark(clause: Token) -> bool:
        return any(c.dep_ in ("mark", "advmod") and c.lower_ in _SHARED_TIME_MARKS for c in kids(clause))

    # ----- place -----------------------------------------------------------------
    def place_of(self, verb: Token, exclude: set[str], bounds: tuple[int, int], depth: int = 0) -> str | None:
        """The place key of the location phrase of the verb's clause (sentence ``bounds``), or of
        the clause it shares its time and place with (``_sharing``), or None.

        The phrase hangs on the verb, on a place it names ("at the base in Talmora", "to the runway at
        the airport") or on the verb's object ("bombed a house in Varno"); never on the subject ("the
        force in Varno said": the actor's seat) or another noun ("named director of the agency in
        Varno"). A place
        put before the subject of a reporting verb is where what is reported happened ("In Varno,
        officials said that ten people were killed")."""
        found = self._clause_place(verb, exclude, bounds, depth)
        return found[0] if found is not None else None

    def _clause_place(self, verb: Token, exclude: set[str], bounds: tuple[int, int],
                      depth: int) -> tuple[str, Token] | None:
        lo, hi = bounds
        cands = self._locative[bisect_left(self._locative_at, lo):bisect_left(self._locative_at, hi)]
        if not cands:  # no locative phrase in the sentence
            return None
        found = self._own_place(verb, exclude, cands)
        if found is None and verb.dep_ == "relcl" and any(c.lower_ == "where" for c in kids(verb)):
            found = self._where_clause(verb.head, exclude)  # "a college in Varno, where she studied law"
        if found is None and verb.lemma_.lower() in _AT_TARGET_VERBS and depth:
            obj = next((c for c in kids(verb) if c.dep_ == "dobj"), None)  # "as they left the tunnel"
            key = self.index.resolve(obj, allow_things=True) if obj is not None else None
            if obj is not None and key is not None and key.startswith("Place:") and key not in exclude:
                return key, obj
        if found is None and verb.dep_ == "ccomp" and verb.head.lemma_.lower() in COMMUNICATION_VERBS:
            head = verb.head  # "In Varno, officials said that ten people were killed"
            for tok in cands:
                if tok.i < _subject_start(head) and self._place_reaches(tok, head):
                    key, _ = self._place_key(tok)
                    if key is not None and key not in exclude:
                        return key, tok
        if found is None and depth < 3:
            for other in self._sharing(verb):
                shared = self._clause_place(other, exclude, bounds, depth + 1)
                if shared is not None and (verb.dep_ != "conj" or other.i != verb.head.i or not _has_subject(verb)
                                           or shared[1].i < _subject_start(other)):
                    return shared
        return found

    def _where_clause(self, noun: Token, exclude: set[str]) -> tuple[str, Token] | None:
        """The place a "where" clause hangs on: the noun itself (a place, or a site named as an
        organization), else the place of its own location phrase ("a college in Varno")."""
        for cand in (noun, *(p for c in kids(noun) if c.dep_ == "prep" and c.lower_ in _PLACE_CHAIN
                             for p in kids(c) if p.dep_ == "pobj")):
            key = self.index.named_key(cand) if cand.ent_type_ else None
            ent = self.index.entities.get(key) if key is not None else None
            if key is None or ent is None or key in exclude:
                continue
            if key.startswith("Place:") or (key.startswith("Organization:")
                                            and (ent.label.lower().split() or [""])[-1] in _SITE_WORDS):
                return key, cand
        return None

    def _own_place(self, verb: Token, exclude: set[str], cands: list[Token]) -> tuple[str, Token] | None:
        """The place of the verb's own location phrases: the first named place, else the first facility."""
        lemma = verb.lemma_.lower()
        reporting = lemma in COMMUNICATION_VERBS and any(c.dep_ == "ccomp" for c in kids(verb))
        facility: tuple[str, Token] | None = None
        for tok in cands:
            prep = tok.head.lower_
            if (prep in _INTO and lemma not in _FALL_VERBS) or (
                    prep in _FROM and not (lemma in COMMUNICATION_VERBS and tok.head.i == verb.left_edge.i)):
                continue
            if reporting and prep not in _FROM and tok.i < _subject_start(verb) or not self._place_reaches(tok, verb):
                continue
            key, is_named = self._place_key(tok)
            if key is None or key in exclude or (not is_named and prep in _NAMED_ONLY):
                continue
            if is_named:
                return key, tok
            facility = facility or (key, tok)
        return facility

    def _place_reaches(self, tok: Token, verb: Token) -> bool:
        """Whether a locative phrase's object hangs on the verb: directly, through a place it
        names, through the verb's object or a place noun, or through the participle of "in a
        statement released in Varno" (``place_of``)."""
        t = tok
        for _ in range(_PLACE_NOUNS + 4):
            h = t.head
            if h.i == verb.i:
                return True
            if h.pos_ in ("VERB", "AUX") and h.dep_ == "pcomp" and h.head.lower_ == "with" and h.head.head.i == verb.i:
                return True  # "met with visiting President Lee at the palace"
            if h.pos_ in ("VERB", "AUX"):
                return h.dep_ == "acl" and h.tag_ == "VBN" and _in_phrase_of(h.head, verb)
            if h.i == t.i:
                return False
            if h.pos_ != "ADP" and h.dep_ != "appos":  # an apposition stands where its head does
                if h.dep_ == "pobj" and (h.head.lower_ in _PLACE_CHAIN or h.head.lower_ == "with"):
                    pass  # "at the base in Talmora", "met with the envoy in Varno"
                elif h.dep_ not in ("dobj", "nsubjpass") and not (h.dep_ == "pobj" and self._is_place_noun(h)):
                    return False  # the subject's seat, "named director of the agency in Varno"
            t = h
        return False

    def _is_place_noun(self, tok: Token) -> bool:
        return tok.ent_type_ in _PLACE_LABELS or tok.lemma_.lower() in FACILITY_NOUNS | _SPOT_NOUNS

    def _place_key(self, tok: Token) -> tuple[str | None, bool]:
        """A place named by a prepositional object: the entity, a named modifier ("Varno
        province"), "the province of Varno", a place named before ("the city"), a site that is an
        organization ("at the Talmora Palace"), a facility ("at the embassy")."""
        low = tok.lemma_.lower()
        regional = low in _REGION_NOUNS
        for cand in (tok, *(c for c in kids(tok) if regional and c.dep_ in ("compound", "nmod", "poss")),
                     *(p for c in kids(tok) if regional and c.dep_ == "prep" and c.lower_ == "of"
                       for p in kids(c) if p.dep_ == "pobj")):
            if cand.ent_type_ in _PLACE_LABELS:
                key = self.index.named_key(cand)
                if key is not None and key.startswith("Place:"):
                    return key, True
        if tok.ent_type_ in ("ORG", "FAC") and tok.head.lower_ in _AT_SITE:
            key = self.index.named_key(tok)
            ent = self.index.entities.get(key) if key is not None else None
            if key is not None and ent is not None and key.startswith("Organization:") and (
                    ent.label.lower().split() or [""])[-1] in _SITE_WORDS:
                return key, True  # "met at the Talmora Palace"
        if low in _REFERENCE_NOUNS and not any(c.dep_ in ("compound", "nmod", "poss", "prep") for c in kids(tok)) \
                and any(c.lower_ in ("the", "this", "that", "same") for c in kids(tok)):
            key = self.index.resolve(tok) if low in ("country", "nation") else self._place_before(tok)
            if key is not None and key.startswith("Place:"):
                return key, True  # "on the island": the island named before
        if low in FACILITY_NOUNS:
            key = self.index.resolve(tok, allow_things=True)
            if key is not None and key.startswith("Place:"):
                return key, False
        return None, False

    def _place_before(self, tok: Token) -> str | None:
        """The last place named before ``tok`` that is no country ("the city", "the island")."""
        countries = self.index.countries()
        for m in reversed(self.index.mentions):
            if m.end <= tok.i and m.type == "Place" and not m.plural and m.key not in countries \
                    and self.doc[m.start].ent_type_ in _PLACE_LABELS:
                return self.index.canonical(m.key)
        return None

    def dateline_place(self) -> str | None:
        """The Place key of the article's dateline ("TALMORA -" -> Talmora), if it has one."""
        if self._dateline is False:
            name = clean(_opening(self.article.text)).dateline
            if name:
                name = PLACE_ALIASES.get(name.lower(), name)
                self._dateline = self.index.place(name)
            else:
                self._dateline = None
        return self._dateline  # type: ignore[return-value]

    # ----- coreference -----------------------------------------------------------
    def coref_distance(self, verb: Token, ev: Event) -> int | None:
        """Sentences from a pronoun argument of the verb back to its antecedent's last name."""
        far: int | None = None
        if self._pronouns is None:
            self._pronouns = _pronoun_arguments(self.doc, self._arr)
        for i in self._pronouns.get(verb.i, ()):
            c = self.doc[i]
            if c.lower_ in _PRONOUN_SKIP:
                continue
            if c.dep_ in NOUN_SUBJECTS:
                key = ev.target if c.dep_ == "nsubjpass" else ev.actor
            elif c.dep_ in ("dobj", "dative"):
                key = ev.target
            else:
                continue
            if key is None:
                continue
            d = self._sentences_back(c, key)
            if d is not None:
                far = d if far is None else max(far, d)
        return far

    def _sentences_back(self, tok: Token, key: str) -> int | None:
        if self._named is None:
            self._named = {}
            for ent in self._ents:
                k = self.index.named_key(self.doc[ent.end - 1])
                if k is not None:
                    self._named.setdefault(k, []).append(ent.end - 1)
        mentions = self._named.get(key)
        if not mentions:
            return None
        j = bisect_left(mentions, tok.i)
        if j == 0:
            return None
        starts = self._arr[mentions[j - 1] + 1:tok.i + 1, _C_SENT_START]
        return min(_FAR, int(np.count_nonzero(starts == 1)))

    # ----- events ----------------------------------------------------------------
    def event(self, ev: Event) -> Event:
        """The event with its class, lemma, time, place and coreference distance."""
        tok = self.token_at(ev.trigger)
        if tok is None:
            lemma = ev.action.split()[0] if ev.action else ""
            code, key, reason = classify(list(dict.fromkeys((ev.action, lemma))), lemma, self._agent_target(ev))
            place = self.dateline_place()
            return _with(ev, cameo=code, lemma=key, class_reason=reason, place=place,
                         place_from_dateline=place is not None)
        bounds = (ev.evidence.start, ev.evidence.end)
        memo = (tok.i, ev.action, self._agent_target(ev))
        known = self._by_trigger.get(memo)
        if known is None:  # several events of one verb (conjoined actors or targets) share these
            lemma = tok.lemma_.lower()
            keys = self.lookup_keys(tok, ev.action) if lemma in MULTIWORD_HEADS else [ev.action, lemma]
            code, key, reason = classify(list(dict.fromkeys(keys)), lemma, self._agent_target(ev))
            known = self._by_trigger[memo] = (code, key, reason, self.time_of(tok, bounds))
        code, key, reason, when = known
        exclude = {k for k in (ev.actor, ev.target) if k is not None}
        place = self.place_of(tok, exclude, bounds)
        if place is None and ev.target is not None and tok.lemma_.lower() in _AT_TARGET_VERBS \
                and ev.target.startswith("Place:"):
            place = ev.target  # "visited Varno": the visit was there
        from_dateline = False
        if place is None:
            place = self.dateline_place()
            from_dateline = place is not None
        distance = ev.coref_distance if ev.coref_distance is not None else self.coref_distance(tok, ev)
        return _with(ev, cameo=code, lemma=key, class_reason=reason, place=place,
                     place_from_dateline=from_dateline, coref_distance=distance, time=when)

    def _agent_target(self, ev: Event) -> bool:
        """Whether the event is done to a person, an organization or a group (not a place or a
        thing): what the target senses of the lexicon need ("recalled the envoys")."""
        if ev.target is None:
            return False
        ent = self.index.entities.get(ev.target)
        return ent is not None and ent.type != "Place"

    def claims(self, events: list[Event]) -> list[Event]:
        """Link responsibility claims to the deed they claim (or add the claimed deed)."""
        out = list(events)
        for ev in events:
            if ev.lemma not in CLAIM_KEYS or ev.actor is None or ev.negated \
                    or ev.modality not in ("asserted", "reported"):
                continue
            tok = self.token_at(ev.trigger)
            deed = self._deed(tok) if tok is not None else None
            if deed is None:
                continue
            code = DEED_NOUNS[deed.lower_]
            when = self._deed_time(deed)
            j = self._claimed_event(out, ev, when)
            if j is not None:
                out[j] = replace(out[j], claimed_by=ev.actor)
                continue
            target = self._deed_target(deed, ev.actor)
            bounds = (ev.evidence.start, ev.evidence.end)
            place = self.place_of(deed, {ev.actor} | ({target} if target else set()), bounds, depth=2)
            out.append(Event(
                actor=ev.actor, action=deed.lemma_.lower(), target=target, evidence=ev.evidence,
                trigger=Evidence(text=deed.text, start=deed.idx, end=deed.idx + len(deed.text)),
                negated=False, modality="reported", reported_by=ev.actor, confidence=0.5,
                rule="claim-responsibility", cameo=code, lemma=deed.lemma_.lower(), time=when,
                place=place or ev.place, place_from_dateline=ev.place_from_dateline if place is None else False,
                claimed_by=ev.actor,
            ))
        return out

    @staticmethod
    def _deed(verb: Token) -> Token | None:
        """The noun of "claimed responsibility for the attack" (for under the verb or the noun)."""
        heads = [verb] + [c for c in kids(verb) if c.dep_ == "dobj"]
        for h in heads:
            for c in kids(h):
                if c.dep_ == "prep" and c.lower_ in ("for", "of"):
                    for p in kids(c):
                        if p.dep_ == "pobj" and p.lower_ in DEED_NOUNS:
                            return p
        return None

    def _deed_time(self, deed: Token) -> Time | None:
        for ent in self._dates:
            root = ent.root
            if root.head.i == deed.i and root.dep_ in ("poss", "compound", "nmod", "npadvmod", "amod") \
                    and is_time_point(ent.text):
                return normalise(ent.text, self.anchor)
            if root.dep_ == "pobj" and root.head.head.i == deed.i and root.head.lower_ in ("on", "in", "at") \
                    and is_time_point(ent.text):
                return normalise(ent.text, self.anchor)
        return None

    @staticmethod
    def _same_time(a: Time | None, b: Time | None) -> bool:
        if a is None or b is None:
            return True
        if a.value and b.value:
            return a.value == b.value
        if a.begin and b.begin:
            return (a.begin, a.end) == (b.begin, b.end)
        return _bare(a.text) == _bare(b.text)

    def _claimed_event(self, events: list[Event], claim: Event, when: Time | None) -> int | None:
        for j, e in enumerate(events):
            if e is claim or e.cameo not in _VIOLENT or e.negated or e.modality not in ("asserted", "reported"):
                continue
            if e.evidence.start > claim.evidence.end or e.rule == "claim-responsibility":
                continue
            if self._same_time(when, e.time):
                return j
        return None

    def _deed_target(self, deed: Token, claimant: str) -> str | None:
        """Who the claimed deed was aimed at: "the Transport Ministry attack", "an attack on the base"."""
        for c in kids(deed):
            if c.dep_ in ("compound", "nmod") and c.ent_type_:
                key = self.index.named_key(c)
                if key is not None and key != claimant:
                    return key
            if c.dep_ == "prep" and c.lower_ in ("on", "against"):
                for p in kids(c):
                    if p.dep_ == "pobj":
                        key = self.index.resolve(p, allow_things=True)
                        if key is not None and key != claimant:
                            return key
        return None

    # ----- roles -----------------------------------------------------------------
    def role(self, ro: Role) -> Role:
        """The role with ``new`` and ``since`` read from its sentence."""
        low = ro.evidence.text.lower()
        if "new" not in low and "since" not in low:
            return ro
        span = self.doc.char_span(ro.evidence.start, ro.evidence.end, alignment_mode="expand")
        if span is None:
            return ro
        mention = [t for t in span if self.index.named_key(t) == ro.person]
        if not mention:
            return ro
        mention_ids = {t.i for t in mention}
        title = self._title_tokens(span, mention)
        appos = [t for m in mention for t in kids(m) if t.dep_ == "appos" and self._role_noun(t)]
        appos += [m.head for m in mention if m.dep_ == "appos" and self._role_noun(m.head)]
        new = any(t.lower_ == "new" for t in title) or any(
            c.lower_ == "new" and c.dep_ == "amod" for a in appos for c in kids(a))
        since = self._since(span, mention_ids, {t.i for t in title} | {a.i for a in appos})
        if not new and since is None:
            return ro
        return replace(ro, new=new or ro.new, since=since or ro.since)

    @staticmethod
    def _role_noun(t: Token) -> bool:
        return t.lower_ in ROLE_NOUNS or t.lemma_.lower() in ROLE_NOUNS

    @staticmethod
    def _title_tokens(span: Span, mention: list[Token]) -> list[Token]:
        """The words right before the name that make up its title ("the new Transport Minister")."""
        doc = span.doc
        first = min(t.i for t in mention)
        out: list[Token] = []
        i = first - 1
        while i >= span.start and len(out) < 8:
            t = doc[i]
            low = t.lower_
            if low in ROLE_NOUNS or low in ROLE_MODIFIERS or t.lemma_.lower() in ROLE_NOUNS or low in ("new", "-") \
                    or t.ent_type_ in ("ORG", "GPE", "NORP") or (t.pos_ == "PROPN" and t.dep_ == "compound"):
                out.append(t)
                i -= 1
                continue
            break
        return out

    def _since(self, span: Span, mention: set[int], role_toks: set[int]) -> Time | None:
        for t in span:
            if t.lower_ != "since" or t.dep_ != "prep":
                continue
            pobj = next((p for p in kids(t) if p.dep_ == "pobj"), None)
            if pobj is None or not (pobj.ent_type_ in _DATE_LABELS or pobj.like_num):
                continue
            if not self._since_belongs(t.head, mention, role_toks):
                continue
            ent = next((e for e in self._dates if e.start <= pobj.i < e.end), None)
            text = ent.text if ent is not None else pobj.text
            if is_time_point(text):
                return normalise(text, self.anchor)
        return None

    @staticmethod
    def _since_belongs(head: Token, mention: set[int], role_toks: set[int]) -> bool:
        """ "minister since 2010", "who has held the post since 2010", "has been minister since"."""
        h = head
        for _ in range(4):
            if h.i in mention or h.i in role_toks:
                return True
            if h.pos_ in ("VERB", "AUX"):
                if h.dep_ == "relcl" and h.head.i in mention:
                    return True
                return any(c.dep_ == "nsubj" and c.i in mention for c in kids(h)) and (
                    h.lemma_ in ("be", "serve", "hold", "head", "lead", "chair", "run"))
            if h.head.i == h.i:
                return False
            h = h.head
        return False


def _opening(text: str, lines: int = 4) -> str:
    """The first few non-blank lines of a text: all that ``clean`` looks at to find the headline,
    the date line and the dateline (it then need not scan a long article)."""
    pos = 0
    for _ in range(lines):
        while pos < len(text) and text[pos] == "\n":
            pos += 1
        nxt = text.find("\n", pos)
        if nxt < 0:
            return text
        pos = nxt + 1
    return text[:pos]


_ARRAY_ATTRS = [LOWER, DEP, HEAD, POS, IDX, SENT_START]
_C_LOWER, _C_DEP, _C_HEAD, _C_POS, _C_IDX, _C_SENT_START = range(len(_ARRAY_ATTRS))
_STRINGS = StringStore()  # ids are the same in every vocabulary: a symbol's id, else the string's hash


def _ids(*words: str) -> np.ndarray:
    return np.array([_STRINGS.add(w) for w in words], dtype=np.uint64).view(np.int64)


_LOCATIVE_IDS = _ids(*sorted(_LOCATIVE))
_ARGUMENT_DEP_IDS = _ids("nsubj", "nsubjpass", "dobj", "dative")
_PREP_ID, _POBJ_ID = (int(i) for i in _ids("prep", "pobj"))
_DEICTIC_WORDS = frozenset(("today", "yesterday", "tonight", "tomorrow"))
_TIME_WORD_IDS = _ids(*sorted(TIME_ADVERBS | _PERIOD_NOUNS | _DEICTIC_WORDS))


def _pronoun_arguments(doc: Doc, arr: np.ndarray) -> dict[int, list[int]]:
    """Head index -> indices of the pronouns that are its subject or object (from the Doc's array)."""
    hits = np.flatnonzero((arr[:, _C_POS] == PRON) & np.isin(arr[:, _C_DEP], _ARGUMENT_DEP_IDS))
    out: dict[int, list[int]] = {}
    for i in hits.tolist():
        out.setdefault(i + int(arr[i, _C_HEAD]), []).append(i)
    return out


def _with(ev: Event, **changes: object) -> Event:
    """A copy of a (frozen) event with some fields changed: ``dataclasses.replace`` without its
    per-field ``__init__`` call, which showed in the cost of the context step (once per event)."""
    out = object.__new__(Event)
    out.__dict__.update(ev.__dict__)
    out.__dict__.update(changes)
    return out


def _locative_objects(doc: Doc, arr: np.ndarray) -> list[Token]:
    """Objects of locative prepositions in the Doc, found on its array (no Python loop over tokens)."""
    if len(doc) == 0:
        return []
    heads = np.arange(len(doc)) + arr[:, _C_HEAD]
    locative_prep = np.isin(arr[:, _C_LOWER], _LOCATIVE_IDS) & (arr[:, _C_DEP] == _PREP_ID)
    hits = np.flatnonzero((arr[:, _C_DEP] == _POBJ_ID) & locative_prep[heads])
    return [doc[i] for i in hits.tolist()]


def _bare(text: str) -> str:
    low = text.lower().replace("\u2019", "'")
    if low.endswith("'s"):
        low = low[:-2]
    return " ".join(w for w in low.split() if w not in ("on", "in", "at", "the"))


def _time_spans(doc: Doc, ents: list[Span]) -> list[Span]:
    """DATE/TIME entities, with a day and its part joined ("Wednesday" "morning" -> "Wednesday
    morning") and "between" two dates made one span ("between July 3 and July 9")."""
    out: list[Span] = []
    for e in ents:
        prev = out[-1] if out else None
        if prev is not None and e.start == prev.end:
            out[-1] = Span(doc, prev.start, e.end, label=prev.label_)
            continue
        if prev is not None and e.start == prev.end + 1 and doc[prev.end].lower_ == "and":
            if prev[0].lower_ == "between" or (prev.start and doc[prev.start - 1].lower_ == "between"):
                out[-1] = Span(doc, prev.start if prev[0].lower_ == "between" else prev.start - 1, e.end,
                               label=prev.label_)
                continue
        out.append(e)
    return out


def _time_words(doc: Doc, arr: np.ndarray) -> list[tuple[Token, str, int]]:
    """Times that are not DATE entities: adverbs ("has recently begun", "said previously") and
    periods after "during" ("during his tenure"), as (root, text, offset)."""
    hits = np.flatnonzero(np.isin(arr[:, _C_LOWER], _TIME_WORD_IDS))
    out: list[tuple[Token, str, int]] = []
    for i in hits.tolist():
        t = doc[i]
        if t.lower_ in TIME_ADVERBS:
            if t.dep_ == "advmod" and t.head.pos_ in ("VERB", "AUX"):
                out.append((t, t.text, t.idx))
        elif t.lower_ in _DEICTIC_WORDS:
            if not t.ent_type_ and t.dep_ in ("npadvmod", "advmod") and t.head.pos_ in ("VERB", "AUX"):
                out.append((t, t.text, t.idx))  # "Today, the president announced" (no DATE entity)
        elif t.dep_ == "pobj" and t.head.lower_ == "during" and not t.ent_type_:
            words = [w for w in t.subtree if w.i <= t.i]
            if any(w.like_num or w.ent_type_ for w in words):
                continue  # "during a 30-year career" is a duration
            out.append((t, doc[words[0].i:t.i + 1].text, t.head.idx))
    return out


def _participle(verb: Token) -> bool:
    """Whether a clause is a participle with no subject of its own ("..., firing artillery")."""
    return verb.tag_ in ("VBG", "VBN") and not any(c.dep_ in ("nsubj", "nsubjpass", "mark") for c in kids(verb))


def _has_subject(verb: Token) -> bool:
    return any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in kids(verb))


def _subject_start(verb: Token) -> int:
    """The index of the first word of the verb's subject (the verb's own if it has none)."""
    return min((c.left_edge.i for c in kids(verb) if c.dep_ in ("nsubj", "nsubjpass", "expl")), default=verb.i)


def _infinitive(verb: Token) -> bool:
    """ "caused a crane to fall": a to-infinitive, which happens when the clause above it does."""
    return any(c.dep_ == "aux" and c.lower_ == "to" for c in kids(verb))


def _in_phrase_of(noun: Token, verb: Token) -> bool:
    """Whether a noun is in an "in"/"at" phrase of the verb ("In a ruling issued Tuesday, a judge
    dismissed", "In parting remarks made on Wednesday, she warned")."""
    t, seen = noun, False
    for _ in range(4):
        h = t.head
        if h.pos_ == "ADP":
            seen = seen or h.lower_ in ("in", "at")
        elif h.pos_ in ("VERB", "AUX") and h.i != verb.i:
            return False
        if h.i == verb.i:
            return seen
        if h.i == t.i:
            return False
        t = h
    return False


def _under(tok: Token, preps: frozenset[str]) -> bool:
    """Whether a phrase hangs, through nouns and prepositions, on one of ``preps`` before it
    reaches a verb ("for the rest of the season", "since its independence 45 years ago")."""
    t = tok
    for _ in range(8):
        h = t.head
        if h.i == t.i or h.pos_ in ("VERB", "AUX"):
            return False
        if h.pos_ == "ADP" and h.lower_ in preps:
            return True
        t = h
    return False


def _tense(verb: Token) -> str | None:
    """"past" or "future" when the verb's form says which way its time lies, else None."""
    aux = [c for c in kids(verb) if c.dep_ in ("aux", "auxpass")]
    if any(a.lower_ in ("will", "shall", "'ll") for a in aux) or (
            verb.dep_ == "xcomp" and any(c.lower_ in ("will", "shall") for c in kids(verb.head))):
        return "future"
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" or a.lemma_ == "have" for a in aux):
        return "past"
    return None


def add_context(doc: Doc, article: Article, index: EntityIndex, facts: ArticleFacts) -> None:
    """Give the article's events and roles their context (in place on ``facts``)."""
    reader = ContextReader(doc, article, index)
    facts.events = reader.claims([reader.event(e) for e in facts.events])
    roles = [reader.role(r) for r in facts.roles]
    facts.roles = Tenure(doc, index, reader.anchor, reader.dates).roles(roles) if roles else roles
