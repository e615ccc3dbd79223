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
from ...nlp.lexicon import PLACE_ALIASES, ROLE_MODIFIERS, ROLE_NOUNS
from ..entities.groups import FACILITY_NOUNS
from ..entities.index import EntityIndex
from ..grammar.columns import kids
from ..grammar.labels import NOUN_SUBJECTS
from .cameo import MULTIWORD_HEADS, classify
from .timex import is_time_point, normalise, parse_iso

__all__ = ["add_context", "ContextReader", "CLAIM_KEYS", "DEED_NOUNS"]

_DATE_LABELS = ("DATE", "TIME")
_PLACE_LABELS = ("GPE", "LOC", "FAC")
#: Prepositions that say where the clause happens (not where an action goes: "into", "at" a
#: target are read as targets by events/reader.py).
_LOCATIVE = frozenset("in at inside outside near across throughout within around beside off aboard".split())
#: Prepositions whose date object is not the time of the event ("since 2010", "until Friday").
_NOT_POINT_PREPS = frozenset("since until till for during through throughout".split())
#: A date that modifies a noun or is an argument is not the clause's time.
_NOT_TIME_DEPS = frozenset("poss compound amod nmod nsubj nsubjpass dobj attr".split())
#: How many nouns a date or a place phrase may hang on between it and the verb: the parser often
#: attaches a clause's "on Saturday" or "inside the building" to the last noun before it.
_DATE_NOUNS, _PLACE_NOUNS = 6, 2
#: Coreference distances are counted up to this many sentences (further is as far).
_FAR = 10
_CLAUSE_DEPS = frozenset("relcl acl ccomp advcl xcomp csubj parataxis".split())
_SHARED_TIME_MARKS = frozenset(("when", "while", "whilst"))
#: Heads whose named modifier is the place itself ("Varno province", "Dal Seret town").
_REGION_NOUNS = frozenset("""province district city town village region state county area capital suburb
neighbourhood neighborhood valley island coast border outskirts""".split())
_PRONOUN_SKIP = frozenset("who whom which that whose what i me my we us our you your".split())

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
        self._dates = [e for e in self._ents if e.label_ in _DATE_LABELS]
        #: the Doc's token attributes as one array (columns: _ARRAY_ATTRS), read once
        self._arr = doc.to_array(_ARRAY_ATTRS).view(np.int64) if len(doc) else np.zeros((0, len(_ARRAY_ATTRS)), np.int64)
        #: objects of locative prepositions, in text order (candidates for places)
        self._locative = _locative_objects(doc, self._arr)
        self._locative_at = [t.idx for t in self._locative]
        self._date_at = [e.start_char for e in self._dates]
        #: the dates that can be an event's time, with their roots: (root, text), None for the others
        self._clause_dates: list[tuple[Token, str] | None] = [self._clause_date(e) for e in self._dates]
        self._normalised: dict[str, Time] = {}
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
    def _reaches(tok: Token, verb: Token, nouns: int = 1) -> bool:
        """Whether ``tok`` hangs on ``verb`` through prepositions and at most ``nouns`` nouns
        ("called for a recount on Sunday"), within the verb's clause (no other verb on the way)."""
        t = tok
        for _ in range(8):
            if t.dep_ in _CLAUSE_DEPS:
                return False
            h = t.head
            if h.i == verb.i:
                return True
            if h.i == t.i or h.pos_ in ("VERB", "AUX"):
                return False
            if h.pos_ != "ADP":
                nouns -= 1
                if nouns < 0:
                    return False
            t = h
        return False

    def time_of(self, verb: Token, bounds: tuple[int, int], depth: int = 0) -> Time | None:
        """The time expression of the verb's clause, normalised; None if the clause has none.

        ``bounds`` are the character offsets of the verb's sentence (the event's evidence).
        """
        lo, hi = bounds
        cands = self._clause_dates[bisect_left(self._date_at, lo):bisect_left(self._date_at, hi)]
        if not any(cands):  # no date in the sentence: nothing to share either
            return None
        for cand in cands:
            if cand is not None and self._reaches(cand[0], verb, nouns=_DATE_NOUNS):
                return self._normalise(cand[1])
        if depth < 2:
            for other in self._sharing(verb):
                found = self.time_of(other, bounds, depth + 1)
                if found is not None:
                    return found
        return None

    @staticmethod
    def _clause_date(ent: Span) -> tuple[Token, str] | None:
        """(root, text) of a DATE/TIME entity that can be a clause's time: a time point, not the
        modifier of a noun or an argument, not under "since"/"until"/"for"."""
        root = ent.root
        if root.dep_ in _NOT_TIME_DEPS or not is_time_point(ent.text):
            return None
        if root.dep_ == "pobj" and root.head.lower_ in _NOT_POINT_PREPS:
            return None
        return root, ent.text

    def _normalise(self, text: str) -> Time:
        found = self._normalised.get(text)
        if found is None:
            found = self._normalised[text] = normalise(text, self.anchor)
        return found

    def _sharing(self, verb: Token) -> list[Token]:
        """Clauses that share the verb's time and place: the clause an infinitive or a
        when/while clause hangs on, and the when/while clauses hanging on it (memoised)."""
        out = self._shared.get(verb.i)
        if out is None:
            out = []
            if verb.dep_ == "xcomp" or (verb.dep_ == "advcl" and self._shared_mark(verb)):
                out.append(verb.head)
            out.extend(c for c in kids(verb) if c.dep_ == "advcl" and self._shared_mark(c))
            self._shared[verb.i] = out
        return out

    @staticmethod
    def _shared_mark(clause: Token) -> bool:
        return any(c.dep_ in ("mark", "advmod") and c.lower_ in _SHARED_TIME_MARKS for c in kids(clause))

    # ----- place -----------------------------------------------------------------
    def place_of(self, verb: Token, exclude: set[str], bounds: tuple[int, int], depth: int = 0) -> str | None:
        """The Place key of the location phrase of the verb's clause (sentence ``bounds``), or None."""
        named: str | None = None
        facility: str | None = None
        lo, hi = bounds
        cands = self._locative[bisect_left(self._locative_at, lo):bisect_left(self._locative_at, hi)]
        if not cands:  # no locative phrase in the sentence
            return None
        for tok in cands:
            if not self._reaches(tok, verb, _PLACE_NOUNS):
                continue
            key, is_named = self._place_key(tok)
            if key is None or key in exclude:
                continue
            if is_named:
                named = key
                break
            facility = facility or key
        found = named or facility
        if found is None and depth < 2:
            for other in self._sharing(verb):
                found = self.place_of(other, exclude, bounds, depth + 1)
                if found is not None:
                    break
        return found

    def _place_key(self, tok: Token) -> tuple[str | None, bool]:
        """A place named by a prepositional object: the entity, a named modifier, "X of Varno"."""
        regional = tok.lemma_.lower() in _REGION_NOUNS
        for cand in (tok, *(c for c in kids(tok) if regional and c.dep_ in ("compound", "nmod")),
                     *(p for c in kids(tok) if c.dep_ == "prep" and c.lower_ == "of"
                       for p in kids(c) if p.dep_ == "pobj")):
            if cand.ent_type_ in _PLACE_LABELS:
                key = self.index.named_key(cand)
                if key is not None and key.startswith("Place:"):
                    return key, True
        if tok.lemma_.lower() in FACILITY_NOUNS:
            key = self.index.resolve(tok, allow_things=True)
            if key is not None and key.startswith("Place:"):
                return key, False
        return None, False

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


def add_context(doc: Doc, article: Article, index: EntityIndex, facts: ArticleFacts) -> None:
    """Give the article's events and roles their context (in place on ``facts``)."""
    reader = ContextReader(doc, article, index)
    facts.events = reader.claims([reader.event(e) for e in facts.events])
    facts.roles = [reader.role(r) for r in facts.roles]
