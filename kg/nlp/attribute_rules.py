"""The model's attribute ruler, matched through an index instead of spaCy's ``Matcher``.

en_core_web_sm maps every fine-grained tag to a part of speech and morphology with an
``AttributeRuler`` of 179 patterns. Its ``Matcher`` tries every pattern at every token, which
took 15% of the whole pipeline (1.15 s of 7.8 s on 100 generated articles, measured), nearly as
much as the parser (18%). The rules are simple: one or two
tokens, each an AND of tests on TAG, LOWER, DEP, ORTH, IS_SPACE (equal, IN, NOT_IN, REGEX), so
``IndexedRules`` evaluates them once per *kind* of token (its attributes, with LOWER and ORTH
reduced to what the patterns ask of them) and caches the outcome.

The annotations are exactly the ruler's: the same matches, applied in the same order (by rule
index: a later rule wins, as ``AttributeRuler.match`` sorts them), from the attributes as they
were before any rule applied. ``compile_rules`` returns None for a ruler it cannot read (operators,
other attributes, extension attributes): kg then keeps spaCy's own, so any model still works.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacy.attrs import DEP, IS_SPACE, LEMMA, LOWER, MORPH, ORTH, POS, TAG
from spacy.language import Language
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc

#: Token attributes a rule may test, in the order of the rows ``IndexedRules.__call__`` reads.
_TESTED = (TAG, LOWER, DEP, ORTH, IS_SPACE)
_TESTED_NAMES = {"TAG": 0, "LOWER": 1, "DEP": 2, "ORTH": 3, "IS_SPACE": 4}
#: Token attributes a rule may set: those ``Token.set_struct_attr`` writes on the token alone
#: (``set_token_attrs`` also writes lexeme attributes, which these are not).
_SETTABLE = (POS, TAG, DEP, LEMMA, MORPH)
_COLUMN = {attr: k for k, attr in enumerate(_SETTABLE)}
#: A LOWER or ORTH that no rule names (no string id is negative): equal to none, in no IN list.
_OTHER = -1
#: Kinds of tokens, and words tested by a regex, remembered at most; each cache starts again past
#: its size (bounds memory on long builds: the kinds are a few thousand, the words grow with the text).
CACHE_SIZE = 100_000
REGEX_CACHE_SIZE = 50_000


class Unsupported(Exception):
    """A rule that ``IndexedRules`` cannot evaluate; the model's own ruler is kept."""


@dataclass(frozen=True)
class _Test:
    """One token's test: an attribute (index into the feature row) and a predicate on its value."""

    column: int
    kind: str  # "eq", "in", "not_in", "regex"
    values: frozenset[int] = frozenset()
    regex: re.Pattern[str] | None = None


def _string_id(value: Any, strings: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return 0 if value == "" else strings.add(value)
    raise Unsupported(f"value {value!r}")


def _tests(spec: dict[str, Any], strings: Any) -> tuple[_Test, ...]:
    out = []
    for name, cond in spec.items():
        if name not in _TESTED_NAMES:
            raise Unsupported(f"attribute {name}")
        col = _TESTED_NAMES[name]
        if isinstance(cond, dict):
            if len(cond) != 1:
                raise Unsupported(f"condition {cond!r}")
            (op, arg), = cond.items()
            if op in ("IN", "NOT_IN"):
                vals = frozenset(_string_id(v, strings) for v in arg)
                out.append(_Test(col, op.lower(), vals))
            elif op == "REGEX" and name in ("LOWER", "ORTH"):
                out.append(_Test(col, "regex", regex=re.compile(arg)))
            else:
                raise Unsupported(f"condition {cond!r}")
        else:
            out.append(_Test(col, "eq", frozenset([_string_id(cond, strings)])))
    return tuple(out)


@dataclass(frozen=True)
class _Rule:
    """One pattern of one rule: its token tests, the rule's index (its precedence) and the token
    (``target``, an index into the pattern, may be negative) whose attributes it sets."""

    rule: int
    tokens: tuple[tuple[_Test, ...], ...]
    target: int


class IndexedRules:
    """An ``AttributeRuler``'s rules, evaluated per kind of token and cached (see the module)."""

    def __init__(self, rules: list[_Rule], attrs: list[dict[int, int]], strings: Any) -> None:
        self._strings = strings
        self._attrs = attrs
        self._single = [r for r in rules if len(r.tokens) == 1]
        self._multi = [r for r in rules if len(r.tokens) > 1]
        specs = sorted({spec for r in self._multi for spec in r.tokens}, key=repr)
        #: every token test of a longer pattern, by position in a kind's bit mask
        self._specs = specs
        self._spec_bit = {spec: 1 << k for k, spec in enumerate(specs)}
        self._multi_bits = [(r, [self._spec_bit[spec] for spec in r.tokens]) for r in self._multi]
        #: the tests a longer pattern's first token passes: where a match can start
        self._first = 0
        for _, bits in self._multi_bits:
            self._first |= bits[0]
        every = [t for r in rules for spec in r.tokens for t in spec]
        #: values of LOWER and ORTH some rule compares with: any other value is one kind
        self._named = {col: frozenset(v for t in every if t.column == col and t.kind != "regex" for v in t.values)
                       for col in (1, 3)}
        self._regexes = sorted({(t.column, t.regex.pattern) for t in every if t.regex is not None})
        self._regex = [re.compile(p) for _, p in self._regexes]
        self._regex_bit = {key: k for k, key in enumerate(self._regexes)}
        self._regex_cols = {col: any(c == col for c, _ in self._regexes) for col in (1, 3)}
        self._cache: dict[tuple[int, ...], tuple[tuple[tuple[int, int], ...], int]] = {}
        self._regex_cache: dict[tuple[int, int], int] = {}

    # --- one kind of token ----------------------------------------------------------------
    def _kind(self, row: Sequence[int]) -> tuple[int, ...]:
        """What the rules can tell apart of a token: TAG, DEP, IS_SPACE, LOWER and ORTH where a
        rule names them (else ``_OTHER``), and which regexes the LOWER and ORTH strings match."""
        tag, lower, dep, orth, space = row
        bits = 0
        for col, value in ((1, lower), (3, orth)):
            if self._regex_cols[col]:
                bits |= self._regex_bits(col, value)
        return (tag, lower if lower in self._named[1] else _OTHER, dep, orth if orth in self._named[3] else _OTHER,
                space, bits)

    def _regex_bits(self, col: int, value: int) -> int:
        """Which regexes on column ``col`` (LOWER or ORTH) the string ``value`` matches, as bits."""
        key = (col, value)
        bits = self._regex_cache.get(key, -1)
        if bits < 0:
            text = self._strings[value]
            bits = 0
            for k, ((column, _), rx) in enumerate(zip(self._regexes, self._regex)):
                if column == col and rx.search(text):
                    bits |= 1 << k
            if len(self._regex_cache) >= REGEX_CACHE_SIZE:
                self._regex_cache.clear()
            self._regex_cache[key] = bits
        return bits

    def _passes(self, test: _Test, kind: tuple[int, ...]) -> bool:
        if test.kind == "regex":
            return bool(kind[5] >> self._regex_bit[(test.column, test.regex.pattern)] & 1)  # type: ignore[union-attr]
        value = kind[test.column]
        if test.kind == "not_in":
            return value not in test.values
        return value in test.values

    def _outcome(self, kind: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], int]:
        """The attributes the one-token rules set on such a token (later rules win), and the bit
        mask of the longer patterns' token tests it passes."""
        out = self._cache.get(kind)
        if out is None:
            final: dict[int, int] = {}
            for rule in self._single:
                if all(self._passes(t, kind) for t in rule.tokens[0]):
                    final.update(self._attrs[rule.rule])
            mask = 0
            for spec in self._specs:
                if all(self._passes(t, kind) for t in spec):
                    mask |= self._spec_bit[spec]
            out = (tuple(final.items()), mask)
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[kind] = out
        return out

    # --- a Doc ---------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        n = len(doc)
        if n == 0:
            return doc
        rows = doc.to_array(list(_TESTED)).tolist()
        kinds = [self._kind(row) for row in rows]
        outcomes = [self._outcome(kind) for kind in kinds]
        values: Any = doc.to_array(list(_SETTABLE))
        late: dict[int, list[tuple[int, int, dict[int, int]]]] = {}
        masks = [mask for _, mask in outcomes]
        for start in [i for i, mask in enumerate(masks) if mask & self._first]:
            for rule, bits in self._multi_bits:
                size = len(bits)
                if start + size <= n and all(masks[start + j] & bits[j] for j in range(size)):
                    at = start + (rule.target if rule.target >= 0 else size + rule.target)
                    late.setdefault(at, []).append((rule.rule, start, self._attrs[rule.rule]))
        for i, (final, _) in enumerate(outcomes):
            if i in late:
                self._apply_sorted(values[i], kinds[i], i, late[i])
                continue
            for attr, value in final:
                values[i, _COLUMN[attr]] = value
        doc.from_array(list(_SETTABLE), values)
        return doc

    def _apply_sorted(self, row: Any, kind: tuple[int, ...], at: int,
                      late: list[tuple[int, int, dict[int, int]]]) -> None:
        """A token a longer pattern also sets: every match on it applied in the ruler's order."""
        matches = [(rule.rule, at, self._attrs[rule.rule]) for rule in self._single
                   if all(self._passes(t, kind) for t in rule.tokens[0])]
        for _, _, attrs in sorted(matches + late, key=lambda m: (m[0], m[1])):
            for attr, value in attrs.items():
                row[_COLUMN[attr]] = value


def compile_rules(ruler: AttributeRuler) -> IndexedRules | None:
    """The ruler's rules as ``IndexedRules``, or None if one of them is beyond what it reads."""
    strings = ruler.vocab.strings
    rules: list[_Rule] = []
    try:
        for index, (attrs, target) in enumerate(zip(ruler.attrs, ruler.indices)):
            if not set(attrs) <= set(_SETTABLE):
                raise Unsupported(f"sets {attrs}")
            for pattern in ruler.matcher.get(str(index))[1]:
                if not pattern or any("OP" in spec for spec in pattern):
                    raise Unsupported("operator")
                tokens = tuple(_tests(spec, strings) for spec in pattern)
                if not -len(tokens) <= target < len(tokens):
                    raise Unsupported("index out of the pattern")
                rules.append(_Rule(index, tokens, target))
    except Unsupported:
        return None
    return IndexedRules(rules, [dict(a) for a in ruler.attrs], strings)


def use_indexed_rules(nlp: Language, name: str = "attribute_ruler") -> bool:
    """Replace the pipeline's attribute ruler ``name`` by ``IndexedRules`` of the same rules;
    False (nothing changed) if there is none or its rules are beyond them."""
    if name not in nlp.pipe_names or not isinstance(nlp.get_pipe(name), AttributeRuler):
        return False
    try:  # the factory compiles the rules, once
        nlp.add_pipe("kg_attribute_rules", after=name, config={"source": name})
    except Unsupported:
        return False
    nlp.remove_pipe(name)
    return True


@Language.factory("kg_attribute_rules", default_config={"source": "attribute_ruler"},
                  assigns=["token.pos", "token.tag", "token.dep", "token.lemma", "token.morph"])
def _make(nlp: Language, name: str, source: str) -> IndexedRules:
    """The rules of the pipeline's attribute ruler ``source`` (still in the pipeline when this is added)."""
    ruler = nlp.get_pipe(source)
    rules = compile_rules(ruler) if isinstance(ruler, AttributeRuler) else None
    if rules is None:
        raise Unsupported(f"the rules of {source!r} are beyond kg_attribute_rules")
    return rules
