"""Verb lemmas the rule lemmatizer gets wrong by English spelling rules it does not apply.

The lemmatizer strips an inflection and keeps the first stem its word list knows, so "rates"
becomes "rat" and "waging" "wag". Two spelling rules of English settle these:

- "-es" is the suffix only after s, x, z, ch, sh and o ("passes", "fixes", "goes"); elsewhere
  the suffix is "-s" and the stem ends in e ("rates" -> "rate", "hopes" -> "hope").
- A one-syllable stem ending in a single vowel and a single consonant doubles it before
  "-ing"/"-ed" ("wag" -> "wagging", "rob" -> "robbed"); a form that does not double it comes
  from the stem with e ("waging" -> "wage", "hoped" -> "hope").

A repair is made only when the stem with e is a verb the model knows. An irregular past tagged as a
base form ("the troops retook the town" tagged VBP, lemma "retook") takes the lemma of the
lemmatizer's own table of irregular forms, when the form is no verb lemma itself. A verb kept whole
with its "co-" or "re-" prefix takes the prefix and its verb's lemma ("co-founded" -> "co-found"); an
occupation noun the tagger took for a verb before a name ("guitarist Bo Lam") is made a noun again, and a
plural noun heading a clause with a subject ("the Department notes, ...") a verb.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from spacy.tokens import Doc, Token
from spacy.vocab import Vocab

_ES_STEM_END = ("s", "x", "z", "ch", "sh", "o")
_SHORT_CVC = re.compile(r"^[^aeiou]*[aeiou][^aeiouwxy]$")
_VERBS = ("VERB", "AUX")
#: Endings of occupation nouns that no English verb has ("guitarist", "historian", "engineer").
_OCCUPATION_ENDINGS = ("ist", "ian", "eer")


def repaired_lemma(tok: Token, is_verb: VerbTest) -> str | None:
    """The lemma the spelling rules give for an inflected verb, or None to keep the model's."""
    word, lemma = tok.lower_, tok.lemma_.lower()
    if tok.pos_ not in ("VERB", "AUX") or not lemma.isalpha() or lemma.endswith("e"):
        return None
    with_e = lemma + "e"
    if tok.tag_ == "VBZ" and word == lemma + "es" and not lemma.endswith(_ES_STEM_END):
        return with_e if is_verb(with_e) else None
    if tok.tag_ in ("VBG", "VBD", "VBN") and _SHORT_CVC.match(lemma):
        if word in (lemma + "ing", lemma + "ed") and is_verb(with_e):
            return with_e
    return None


def prefixed_lemma(word: str, is_verb: VerbTest, forms: Mapping[str, str] | None) -> str | None:
    """ "co-founded" -> "co-found": the lemma of a verb the tokenizer keeps whole with its "co-" or "re-" prefix is
    the prefix and the lemma of the verb after it (an irregular form from ``forms``: "co-wrote")."""
    prefix, _, rest = word.partition("-")
    if forms is not None and rest in forms:
        return f"{prefix}-{forms[rest]}"
    for suffix, end in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", ""), ("", "")):
        if rest.endswith(suffix):
            stem = rest[:len(rest) - len(suffix)] + end
            if is_verb(stem):
                return f"{prefix}-{stem}"
            if suffix and len(stem) > 2 and stem[-1] == stem[-2] and is_verb(stem[:-1]):
                return f"{prefix}-{stem[:-1]}"  # "co-starred" -> "co-star"
    return None


def _noun_taken_for_verb(tok: Token, is_verb: VerbTest) -> bool:
    """ "future Grey Hounds guitarist Bo Lam": an occupation noun the tagger took for a base-form verb,
    before a name (no verb of the model's word list ends so)."""
    nxt = tok.nbor() if tok.i + 1 < len(tok.doc) else None
    return (tok.pos_ == "VERB" and tok.tag_ in ("VB", "VBP") and tok.is_lower and tok.lower_.endswith(_OCCUPATION_ENDINGS)
            and not is_verb(tok.lower_) and nxt is not None and nxt.pos_ == "PROPN")


def _verb_taken_for_noun(tok: Token, is_verb: VerbTest) -> None:
    """ "The Department of Agriculture notes, ...": a plural noun the tagger gave a clause whose subject the
    parser found is the verb of that clause ("notes" a present tense of "note"), when its stem is a verb."""
    if tok.tag_ == "NNS" and tok.is_lower and tok.lower_ == tok.lemma_.lower() + "s" and is_verb(tok.lemma_.lower()) \
            and any(c.dep_ == "nsubj" for c in tok.children):
        tok.pos_, tok.tag_ = "VERB", "VBZ"


class VerbTest:
    """Whether a word is a verb lemma of the model (its lemmatizer's word list)."""

    def __init__(self, vocab: Vocab, table: str) -> None:
        self._words = vocab.lookups.get_table(table) if vocab.lookups.has_table(table) else None

    @property
    def available(self) -> bool:
        """Whether the model has a word list to test against (not every lemmatizer has one)."""
        return self._words is not None

    def __call__(self, word: str) -> bool:
        return self._words is not None and word in self._words


def repair_lemmas(doc: Doc, table: str, irregular: str | None = None) -> Doc:
    """Apply ``repaired_lemma`` to every token of a parsed Doc, and give an irregular past
    mistagged as a base form the lemma of the ``irregular`` table (form -> lemma)."""
    test = VerbTest(doc.vocab, table)
    if not test.available:
        return doc
    forms = doc.vocab.lookups.get_table(irregular) if irregular and doc.vocab.lookups.has_table(irregular) else None
    verbs = {doc.vocab.strings[p] for p in _VERBS}
    noun, root = doc.vocab.strings["NOUN"], doc.vocab.strings["ROOT"]
    for i, (pos, dep) in enumerate(doc.to_array(["POS", "DEP"]).tolist() if len(doc) else ()):
        if pos == noun and dep == root:
            _verb_taken_for_noun(doc[i], test)
            continue
        if pos not in verbs:
            continue  # the other repairs are of verbs: found in the Doc's array, no Token for the other words
        tok = doc[i]
        if _noun_taken_for_verb(tok, test):
            tok.pos_, tok.tag_, tok.lemma_ = "NOUN", "NN", tok.lower_
            continue
        if tok.lower_.startswith(("co-", "re-")):
            fixed = prefixed_lemma(tok.lower_, test, forms)
            if fixed is not None:
                tok.lemma_ = fixed
            continue
        fixed = repaired_lemma(tok, test)
        if fixed is None and forms is not None and tok.pos_ == "VERB" and tok.tag_ in ("VB", "VBP") \
                and tok.lemma_.lower() == tok.lower_ and not test(tok.lower_):
            fixed = forms.get(tok.lower_)
        if fixed is not None:
            tok.lemma_ = fixed
    return doc
