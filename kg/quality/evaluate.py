"""`kg eval`: score the store's facts against a user's gold files (the shared YAML schema).

A gold file names an article, its entities (id, type, keys), roles (person, role, org) and
events (actor, action, target; null means "any"). The store is queried with the same
canned queries users run (queries/events.rq, queries/roles.rq), so the score measures what
users see. Matching is lenient on surface form and strict on meaning:

- a label refers to a gold entity when one of its keys occurs in it as whole words (case,
  punctuation and "U.S."/"US" ignored), unless that occurrence lies inside a longer key of
  another entity found in the same label;
- an action matches when one of the gold lemmas, or a regular or listed irregular
  inflection of it, occurs in the action label;
- precision counts a row right when it matches any gold fact of its article; recall counts
  each gold fact once (greedy one-to-one).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from ..errors import UsageError
from ..rdf.query import QUERY_DIR, query_text
from ..store import Row, Store

_IRREGULAR: dict[str, tuple[str, ...]] = {
    "throw": ("threw", "thrown"), "find": ("found",), "tell": ("told",), "say": ("said",), "hold": ("held",),
    "lead": ("led",), "meet": ("met",), "take": ("took", "taken"), "give": ("gave", "given"), "make": ("made",),
    "send": ("sent",), "seek": ("sought",), "fight": ("fought",), "win": ("won",), "buy": ("bought",),
    "sell": ("sold",), "shoot": ("shot",), "strike": ("struck",), "leave": ("left",), "bring": ("brought",),
    "hit": ("hit",), "keep": ("kept",), "speak": ("spoke", "spoken"), "write": ("wrote", "written"),
    "begin": ("began", "begun"), "choose": ("chose", "chosen"), "flee": ("fled",), "spend": ("spent",),
}


def _norm(text: str | None) -> str:
    if not text:
        return " "
    t = str(text).lower().replace("\u2019", "'").replace("\u2013", "-")
    t = re.sub(r"\bu\.s\.?(?=\W|$)", "us", t)
    t = re.sub(r"\bu\.n\.?(?=\W|$)", "un", t)
    t = re.sub(r"'s\b", "", t)
    t = re.sub(r"[^a-z0-9\-]+", " ", t)
    return " " + " ".join(t.split()) + " "


def _forms(lemma: str) -> set[str]:
    forms = {lemma, lemma + "s", lemma + "es", lemma + "ed", lemma + "d", lemma + "ing"}
    if lemma.endswith("e"):
        forms.add(lemma[:-1] + "ing")
    if lemma.endswith("y"):
        forms |= {lemma[:-1] + "ied", lemma[:-1] + "ies"}
    return forms | set(_IRREGULAR.get(lemma, ()))


@dataclass
class GoldArticle:
    """The gold facts of one article."""

    name: str
    keys: dict[str, list[str]]
    roles: list[dict[str, Any]]
    events: list[dict[str, Any]]

    @property
    def stem(self) -> str:
        return Path(self.name).stem

    def entities_in(self, label: str | None) -> set[str]:
        lab = _norm(label)
        spans: list[tuple[int, int, str]] = []
        for eid, keys in self.keys.items():
            for key in keys:
                nk = _norm(key)
                start = lab.find(nk)
                while start != -1:
                    spans.append((start, start + len(nk), eid))
                    start = lab.find(nk, start + 1)
        return {e for s, t, e in spans
                if not any(s2 <= s and t <= t2 and t2 - s2 > t - s and e2 != e for s2, t2, e2 in spans)}

    def refers(self, label: str | None, ids: Any) -> bool:
        if ids is None:
            return True
        if not label:
            return False
        wanted = set(ids) if isinstance(ids, list) else {ids}
        return bool(self.entities_in(label) & wanted)

    def event_ok(self, row: Row, gold: dict[str, Any]) -> bool:
        action = _norm(row.get("action"))
        return (self.refers(row.get("actor"), gold.get("actor"))
                and any(f" {f} " in action for lemma in gold.get("action", []) for f in _forms(lemma))
                and (gold.get("target") is None or self.refers(row.get("target"), gold.get("target"))))

    def role_ok(self, row: Row, gold: dict[str, Any]) -> bool:
        role = _norm(row.get("role"))
        return (self.refers(row.get("person"), gold.get("person"))
                and any(_norm(r) in role for r in gold.get("role", []))
                and self.refers(row.get("org"), gold.get("org")))


@dataclass
class Score:
    """Precision, recall and F1 with the counts behind them; misses are the gold facts not found."""

    right: int = 0
    predicted: int = 0
    found: int = 0
    gold: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: "Score") -> None:
        self.right += other.right
        self.predicted += other.predicted
        self.found += other.found
        self.gold += other.gold
        self.misses.extend(other.misses)


def load_gold(folder: Path) -> list[GoldArticle]:
    """Every ``*.yaml`` gold file of a folder; a malformed file is a usage error naming it."""
    files = sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))
    if not folder.is_dir() or not files:
        raise UsageError(f"{folder} holds no gold files (*.yaml); see docs/quality.md, 'kg eval'")
    out = []
    for path in files:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            out.append(GoldArticle(
                name=str(data["article"]),
                keys={e["id"]: [str(k) for k in e["keys"]] for e in data.get("entities", [])},
                roles=list(data.get("roles") or []),
                events=list(data.get("events") or []),
            ))
        except (yaml.YAMLError, KeyError, TypeError, AttributeError) as err:
            raise UsageError(f"{path} is not a gold file in the documented schema: {err}") from err
    return out


def undeclared(golds: list[GoldArticle]) -> list[str]:
    """One line per id a gold role or event names that is no entity of its file (such a fact can
    never be found, so the file is wrong, not the extraction)."""
    out = []
    for g in golds:
        for kind, facts, fields in (("role", g.roles, ("person", "org")), ("event", g.events, ("actor", "target"))):
            for fact in facts:
                for name in fields:
                    value = fact.get(name)
                    for ref in value if isinstance(value, list) else [value]:
                        if ref is not None and str(ref) not in g.keys:
                            out.append(f"{g.name}: a {kind}'s {name} names {ref!r}, which is not among its entities")
    return list(dict.fromkeys(out))


def _score(rows: list[Row], golds: list[dict[str, Any]], ok: Callable[[Row, dict[str, Any]], bool]) -> Score:
    s = Score(predicted=len(rows), gold=len(golds))
    s.right = sum(1 for r in rows if any(ok(r, g) for g in golds))
    used: set[int] = set()
    for g in golds:
        hit = next((i for i, r in enumerate(rows) if i not in used and ok(r, g)), None)
        if hit is None:
            s.misses.append(g)
        else:
            used.add(hit)
            s.found += 1
    return s


def _rows(store: Store, queries: Path) -> tuple[list[Row], list[Row]]:
    return (store.select(query_text(str(queries / "events.rq"))),
            store.select(query_text(str(queries / "roles.rq"))))


def evaluate(store: Store, gold: Path | list[GoldArticle], queries: Path = QUERY_DIR) -> dict[str, dict[str, Score]]:
    """Scores per article ("events", "roles") and in total (key "total"); ``gold`` is a folder or
    what ``load_gold`` read from one (the command line reads it before it opens the store)."""
    golds = load_gold(gold) if isinstance(gold, Path) else gold
    events, roles = _rows(store, queries)
    result: dict[str, dict[str, Score]] = {"total": {"events": Score(), "roles": Score()}}
    for art in golds:
        ev = _score([r for r in events if art.stem in (r.get("article") or "")], art.events, art.event_ok)
        ro = _score([r for r in roles if art.stem in (r.get("article") or "")], art.roles, art.role_ok)
        result[art.name] = {"events": ev, "roles": ro}
        result["total"]["events"].add(ev)
        result["total"]["roles"].add(ro)
    return result


#: Upper edges of the reliability table's bins (the first bin starts at 0; the last holds 1.0).
BIN_EDGES = (0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True)
class Bin:
    """Facts whose confidence lies in [low, high) (the last bin: [low, 1]), and how many are right."""

    low: float
    high: float
    count: int
    right: int
    mean_confidence: float

    @property
    def precision(self) -> float:
        return self.right / self.count if self.count else 0.0


@dataclass
class Reliability:
    """Confidences with whether each fact is right: binned, and counted above a threshold."""

    pairs: list[tuple[float, bool]]

    def bins(self, edges: tuple[float, ...] = BIN_EDGES) -> list[Bin]:
        out = []
        low = 0.0
        for k, high in enumerate(edges):
            last = k == len(edges) - 1
            mine = [(p, r) for p, r in self.pairs if low <= p < high or (last and p >= high)]
            mean = sum(p for p, _ in mine) / len(mine) if mine else 0.0
            out.append(Bin(low, high, len(mine), sum(1 for _, r in mine if r), mean))
            low = high
        return out

    def at_least(self, threshold: float) -> tuple[int, int]:
        """(facts with confidence >= threshold, how many of them are right)."""
        mine = [r for p, r in self.pairs if p >= threshold]
        return len(mine), sum(mine)

    def below(self, threshold: float) -> tuple[int, int]:
        """(facts with confidence < threshold, how many of them are right)."""
        mine = [r for p, r in self.pairs if p < threshold]
        return len(mine), sum(mine)

    @property
    def count(self) -> int:
        return len(self.pairs)


def reliability(pairs: Iterable[tuple[float, bool]]) -> Reliability:
    """A reliability table of (confidence, right) pairs."""
    return Reliability([(float(p), bool(r)) for p, r in pairs])


def calibration(store: Store, gold_dir: Path, queries: Path = QUERY_DIR) -> dict[str, Reliability]:
    """The store's rows (``?confidence`` of events.rq and roles.rq) against the gold: "events",
    "roles" and "all". A row is right when it matches some gold fact of its article."""
    golds = load_gold(gold_dir)
    events, roles = _rows(store, queries)
    out = {"events": reliability([]), "roles": reliability([])}
    for kind, rows in (("events", events), ("roles", roles)):
        if rows and "confidence" not in rows[0]:
            raise UsageError(f"{queries / (kind + '.rq')} returns no ?confidence column; --calibration needs it")
        for art in golds:
            golds_of = art.events if kind == "events" else art.roles
            ok = art.event_ok if kind == "events" else art.role_ok
            for r in rows:
                if art.stem not in (r.get("article") or ""):
                    continue
                conf = r.get("confidence")
                if conf is None:
                    raise UsageError(f"a row of {kind}.rq has no confidence (a store built by an older kg?): "
                                     "rebuild it with kg build --force")
                out[kind].pairs.append((float(conf), any(ok(r, g) for g in golds_of)))
    out["all"] = reliability(out["events"].pairs + out["roles"].pairs)
    return out
