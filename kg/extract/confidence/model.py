"""Confidence as a probability: what the extractor knows about a fact, weighed by a fitted model.

``score_facts`` runs once per article, after the context step. For every event and role it
records a few cheap features (``Event.features``, ``Role.features``: the rule that read the
fact, how its actor and target were found, their types, modality, coreference distance, where
the trigger sits in the parse, ...) and sets ``confidence`` to the probability given by a
logistic model whose coefficients are data (``confidence.json`` beside this module). The model
is fitted offline against gold facts (``kg eval GOLD --articles DIR --fit-confidence OUT``,
``kg/quality/calibration.py``); a feature value the model has not seen (a new rule name) counts as the
model's "other" level, so new rules need no code here, only a refit.
"""
from __future__ import annotations

import json
import math
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from spacy.tokens import Doc, Token

from ...model.facts import ArticleFacts, Event, Evidence, Role
from ...nlp.lexicon import FIRST_PERSON, RELATIVE_PRONOUNS
from ..entities.index import EntityIndex
from ..grammar.columns import kids
from ..grammar.labels import ACTIVE_SUBJECTS

__all__ = ["MODEL_PATH", "Model", "Scorer", "load_models", "score_facts", "OTHER"]

#: The coefficients shipped with kg (written by ``kg eval --fit-confidence``).
MODEL_PATH = Path(__file__).with_name("confidence.json")
#: The level a categorical value the model has not seen (or saw too rarely to weigh) counts as.
OTHER = "other"

Features = dict[str, str | float]

_TARGET_DEPS = ("dobj", "dative", "nsubjpass", "attr", "oprd")
_DEEPEST = 8
_LONGEST = 80
#: Caps of the count features: beyond these, more says nothing new.
_FARTHEST_NAME = 15
_MOST_MENTIONS = 8
_MOST_TOLD = 3
#: The entity type each NER label gives (what the model said, before the rules re-type a name).
_NER_TYPE = {"PERSON": "Person", "ORG": "Organization", "GPE": "Place", "LOC": "Place", "FAC": "Place", "NORP": "Group"}
#: Adverbs that hedge the verb they modify ("reportedly fled").
_HEDGES = frozenset("allegedly reportedly apparently possibly probably likely purportedly supposedly "
                    "perhaps maybe seemingly".split())
#: Head words of organization names, by kind (the last matching word of the name decides).
_ORG_KINDS = {
    "government": "ministry department office agency administration council commission committee board bureau "
                  "senate parliament assembly court government cabinet service authority congress house "
                  "secretariat embassy police".split(),
    "party": "party parties movement front alliance coalition caucus".split(),
    "company": "inc corp corporation company co ltd llc plc group bank holdings partners capital airlines "
               "airways motors industries foods".split(),
    "military": "army navy command force forces corps guard brigade division regiment".split(),
    "education": "university college school institute academy center centre laboratory".split(),
    "team": "club fc united team".split(),
}
_ORG_KIND_OF = {w: kind for kind, words in _ORG_KINDS.items() for w in words}


@dataclass(frozen=True)
class Model:
    """A logistic model over named features: an intercept, a weight per level of each categorical
    feature (``OTHER`` for the rest) and a weight per standardised numeric feature."""

    intercept: float
    categorical: Mapping[str, Mapping[str, float]]
    #: name -> (mean, scale, weight): the feature contributes weight * (x - mean) / scale
    numeric: Mapping[str, tuple[float, float, float]]

    def logit(self, features: Mapping[str, str | float]) -> float:
        """The log-odds that a fact with these features is right."""
        z = self.intercept
        for name, levels in self.categorical.items():
            value = features.get(name)
            z += levels.get(str(value), levels.get(OTHER, 0.0)) if value is not None else levels.get(OTHER, 0.0)
        for name, (mean, scale, weight) in self.numeric.items():
            x = features.get(name)
            if isinstance(x, (int, float)) and not isinstance(x, bool):
                z += weight * (float(x) - mean) / scale
        return z

    def probability(self, features: Mapping[str, str | float]) -> float:
        """The probability (in [0, 1], rounded to 3 places as the graph stores it)."""
        z = self.logit(features)
        p = 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
        return round(p, 3)

    def to_json(self) -> dict[str, Any]:
        return {"intercept": self.intercept,
                "categorical": {k: dict(v) for k, v in self.categorical.items()},
                "numeric": {k: {"mean": m, "scale": s, "weight": w} for k, (m, s, w) in self.numeric.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Model":
        return cls(intercept=float(data["intercept"]),
                   categorical={k: {lv: float(w) for lv, w in v.items()} for k, v in data.get("categorical", {}).items()},
                   numeric={k: (float(v["mean"]), float(v["scale"]) or 1.0, float(v["weight"]))
                            for k, v in data.get("numeric", {}).items()})


def load_models(path: Path = MODEL_PATH) -> dict[str, Model]:
    """The models of a coefficients file: "events" and "roles"."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {kind: Model.from_json(data[kind]) for kind in ("events", "roles")}


@lru_cache(maxsize=1)
def _shipped() -> dict[str, Model]:
    return load_models(MODEL_PATH)


class Scorer:
    """Reads the features of one article's facts off its Doc (what needs the whole Doc is read once)."""

    def __init__(self, doc: Doc, index: EntityIndex, headline_end: int = 0) -> None:
        self.doc = doc
        self.index = index
        self._starts = index.cols.idx
        self._countries = index.countries()
        self._headline_end = headline_end
        canonical = index.canonical
        #: entity key -> the types the NER model gave its names
        self._ner_types: dict[str, set[str]] = {}
        for e in index.ents:
            key = canonical(index.named_key(doc[e.end - 1]))
            if key is not None:
                self._ner_types.setdefault(key, set()).add(_NER_TYPE.get(e.label_, OTHER))
        self._ner = set(self._ner_types)
        #: token offsets of the named spans, in order: how far a trigger is from the nearest name
        self._name_starts = [e.start for e in index.ents]
        self._name_ends = [e.end for e in index.ents]

    # ----- tokens -----------------------------------------------------------------
    def _token(self, start: int) -> Token | None:
        i = bisect_right(self._starts, start) - 1
        if i < 0 or i >= len(self.doc):
            return None
        tok = self.doc[i]
        return tok if tok.idx + len(tok) > start else None

    def _tokens_between(self, start: int, end: int) -> int:
        return bisect_left(self._starts, end) - bisect_left(self._starts, start)

    # ----- entities ---------------------------------------------------------------
    def _type(self, key: str | None) -> str:
        if key is None:
            return "none"
        ent = self.index.entities.get(key)
        if ent is None:
            return OTHER
        if ent.type == "Place" and key in self._countries:
            return "Country"
        return ent.type if key.count(":") < 2 else f"unnamed {ent.type}"

    def _source(self, key: str | None, toks: list[Token]) -> str:
        """How an argument was found: by name (from the model's entities, or recovered by the rules),
        as an unnamed group, through a pronoun (first person, relative), a description, or not
        among the trigger's own dependents (inherited through control, coordination, a clause)."""
        if key is None:
            return "none"
        canonical = self.index.canonical
        for t in toks:
            if canonical(self.index.named_key(t)) == key:
                return "name" if key in self._ner else "recovered name"
        pronoun = next((t for t in toks if t.pos_ == "PRON" or t.tag_ in ("PRP", "PRP$", "WP", "WDT")), None)
        if key.count(":") >= 2:
            if any(t.pos_ in ("NOUN", "PROPN", "NUM") for t in toks):
                return "group"
            # "he" read as an unnamed group ("the duo") is a doubtful antecedent
            return "pronoun group" if pronoun is not None else "inherited group"
        if pronoun is not None:
            low = pronoun.lower_
            return "first person" if low in FIRST_PERSON else "relative" if low in RELATIVE_PRONOUNS else "pronoun"
        if any(t.pos_ in ("NOUN", "PROPN") for t in toks):
            return "description"
        return "inherited"

    def _type_source(self, key: str | None) -> str:
        """Where an argument's type came from: the NER model's label of its name ("model"), the rules
        (a name the model typed otherwise or missed: "rules"), or a description ("unnamed")."""
        if key is None:
            return "none"
        if key.count(":") >= 2:
            return "unnamed"
        ent = self.index.entities.get(key)
        return "model" if ent is not None and ent.type in self._ner_types.get(key, ()) else "rules"

    def _mentions(self, key: str | None) -> float:
        ent = self.index.entities.get(key) if key is not None else None
        return float(min(ent.mentions, _MOST_MENTIONS)) if ent is not None else 0.0

    def _name_distance(self, tok: Token, evidence: Evidence) -> float:
        """Tokens from a trigger to the nearest named span of its sentence (the evidence; capped)."""
        first, last = bisect_left(self._starts, evidence.start), bisect_left(self._starts, evidence.end)
        best = _FARTHEST_NAME
        k = bisect_right(self._name_starts, tok.i)
        for j in (k - 1, k):
            if 0 <= j < len(self._name_starts):
                start, end = self._name_starts[j], self._name_ends[j]
                if start >= first and end <= last:
                    best = min(best, 0 if start <= tok.i < end else start - tok.i if start > tok.i else tok.i - end + 1)
        return float(best)

    def _headline(self, start: int) -> str:
        return "headline" if start < self._headline_end else "body"

    # ----- events -----------------------------------------------------------------
    def event_features(self, ev: Event, fanout: int, told: int = 1) -> Features:
        """The features of an event (``fanout``: other events read from the same trigger; ``told``:
        events of the article with the same actor, action and target)."""
        tok = self._token(ev.trigger.start) if ev.trigger is not None else None
        actors: list[Token] = []
        targets: list[Token] = []
        dep, tag, depth, cue, thing, near = "none", "none", 0, "none", False, float(_FARTHEST_NAME)
        if tok is not None:
            for c in kids(tok):
                if c.dep_ in ACTIVE_SUBJECTS:
                    actors.append(c)
                elif c.dep_ in _TARGET_DEPS:
                    targets.append(c)
                elif c.dep_ in ("agent", "prep"):
                    pobjs = [p for p in kids(c) if p.dep_ == "pobj"]
                    (actors if c.dep_ == "agent" else targets).extend(pobjs)
            actors += [c for a in actors for c in kids(a) if c.dep_ == "conj"]
            targets += [c for a in targets for c in kids(a) if c.dep_ == "conj"]
            dep, tag = tok.dep_, tok.tag_
            for c in kids(tok):
                if c.tag_ == "MD":
                    cue = "modal"
                elif c.lower_ in _HEDGES and cue == "none":
                    cue = "hedge"
            thing = any(c.dep_ == "dobj" for c in kids(tok))
            near = self._name_distance(tok, ev.evidence)
            t = tok
            while t.head.i != t.i and depth < _DEEPEST:
                t = t.head
                depth += 1
        words = self._tokens_between(ev.evidence.start, ev.evidence.end)
        return {
            "rule": ev.rule,
            "actor": self._source(ev.actor, actors),
            "actor type": self._type(ev.actor),
            "target": self._source(ev.target, targets),
            "target type": self._type(ev.target),
            "modality": ev.modality,
            "reporter": "named" if ev.reported_by is not None else "none",
            "class": ev.cameo or ("ambiguous" if (ev.class_reason or "").startswith("ambiguous") else "none"),
            "trigger dep": dep,
            "trigger tag": tag,
            "quoted": "yes" if _in_quote(ev) else "no",
            "coordinated": "yes" if fanout else "no",
            "coreference distance": float(ev.coref_distance or 0),
            "action words": float(len(ev.action.split())),
            "clause depth": float(depth),
            "sentence length": float(min(words, _LONGEST)),
            "actor type from": self._type_source(ev.actor),
            "target type from": self._type_source(ev.target),
            "object": "entity" if ev.target is not None else "thing" if thing else "none",
            "cue": cue,
            "place": self._headline(ev.evidence.start),
            "name distance": near,
            "actor mentions": self._mentions(ev.actor),
            "told": float(min(told, _MOST_TOLD)),
        }

    # ----- roles ------------------------------------------------------------------
    def _named_in(self, key: str, text: str) -> str:
        """Whether one of the entity's names occurs in the sentence ("no": read through a pronoun,
        a title shared with another name, the article's country, ...)."""
        ent = self.index.entities.get(key)
        names = ({ent.label} | ent.aliases) if ent is not None else set()
        return "yes" if any(n and n in text for n in names) else "no"

    def _org_kind(self, key: str) -> str:
        """What kind of body an organization is, by the head words of its name (a country, a place)."""
        kind = self._type(key)
        if kind != "Organization":
            return kind
        ent = self.index.entities.get(key)
        words = ent.label.lower().replace(".", "").split() if ent is not None else []
        return next((_ORG_KIND_OF[w] for w in reversed(words) if w in _ORG_KIND_OF), "other")

    def role_features(self, ro: Role, told: int = 1) -> Features:
        """The features of a role fact (``told``: role facts of the article with the same person
        and organization)."""
        return {
            "org kind": self._org_kind(ro.org),
            "org type from": self._type_source(ro.org),
            "person type from": self._type_source(ro.person),
            "place": self._headline(ro.evidence.start),
            "person mentions": self._mentions(ro.person),
            "told": float(min(told, _MOST_TOLD)),
            "sentence length": float(min(self._tokens_between(ro.evidence.start, ro.evidence.end), _LONGEST)),
            "rule": ro.rule,
            "person in sentence": self._named_in(ro.person, ro.evidence.text),
            "org in sentence": self._named_in(ro.org, ro.evidence.text),
            "org type": self._type(ro.org),
            "org": "name" if ro.org in self._ner else "recovered name",
            "person": "name" if ro.person in self._ner else "recovered name",
            "role word": "member" if ro.role.lower() == "member" else "title",
            "former": "yes" if ro.former else "no",
            "role words": float(len(ro.role.split())),
        }


def _in_quote(ev: Event) -> bool:
    """Whether the trigger stands inside quotation marks of its sentence."""
    if ev.trigger is None:
        return False
    before = ev.evidence.text[:max(0, ev.trigger.start - ev.evidence.start)]
    return before.count('"') % 2 == 1 or before.count("\u201c") > before.count("\u201d")


def score_facts(doc: Doc, index: EntityIndex, facts: ArticleFacts, models: Mapping[str, Model] | None = None) -> None:
    """Record each fact's features and set its confidence (in place on ``facts``)."""
    models = models or _shipped()
    scorer = Scorer(doc, index, _headline_end(facts))
    per_trigger = Counter(e.trigger.start for e in facts.events if e.trigger is not None)
    told = Counter((e.actor, e.action, e.target) for e in facts.events)
    events: list[Event] = []
    for ev in facts.events:
        fanout = per_trigger[ev.trigger.start] - 1 if ev.trigger is not None else 0
        feats = scorer.event_features(ev, fanout, told[(ev.actor, ev.action, ev.target)])
        out = object.__new__(Event)  # a frozen dataclass: copied without its per-field __init__
        out.__dict__.update(ev.__dict__)
        out.__dict__.update(features=feats, confidence=models["events"].probability(feats))
        events.append(out)
    facts.events = events
    roles: list[Role] = []
    held = Counter((r.person, r.org) for r in facts.roles)
    for ro in facts.roles:
        feats = scorer.role_features(ro, held[(ro.person, ro.org)])
        out_role = object.__new__(Role)
        out_role.__dict__.update(ro.__dict__)
        out_role.__dict__.update(features=feats, confidence=models["roles"].probability(feats))
        roles.append(out_role)
    facts.roles = roles


def _headline_end(facts: ArticleFacts) -> int:
    """Where the headline ends in the article's text (0 when the text does not open with it)."""
    title = (facts.article.title or "").strip()
    text = facts.article.text
    start = len(text) - len(text.lstrip())
    return start + len(title) if title and text.startswith(title, start) else 0
