"""kg_attribute_rules gives exactly the annotations of spaCy's AttributeRuler, faster.

Random rules over hand-built Docs are applied by both (hypothesis), and the model's own rules
over English sentences that exercise its longer patterns ("ain't", "gonna", "y'all").
"""
from __future__ import annotations

import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.attrs import DEP, LEMMA, MORPH, POS, TAG
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc

from kg.nlp.attribute_rules import compile_rules, use_indexed_rules
from kg.nlp.pipeline import DEFAULT_MODEL, load

BLANK = spacy.blank("en")
COLUMNS = [POS, TAG, DEP, LEMMA, MORPH]
WORDS = ["the", "The", "it", "is", "ai", "n't", "nt", "gon", "na", "y'", "all", "run", "runs", " ", "\n", "Ana"]
TAGS = ["DT", "PRP", "VBZ", "VBP", "RB", "VBG", "TO", "NN", "NNP", "_SP", "IN"]
DEPS = ["det", "nsubj", "ROOT", "aux", "neg", "dobj", "pobj", "expl", "dep"]


def conditions(attr: str) -> st.SearchStrategy[object]:
    pool = {"TAG": TAGS + [""], "DEP": DEPS + [""], "LOWER": sorted({w.lower() for w in WORDS}), "ORTH": WORDS}[attr]
    one = st.sampled_from(pool)
    options = [one, st.builds(lambda v: {"IN": v}, st.lists(one, min_size=1, max_size=3)),
               st.builds(lambda v: {"NOT_IN": v}, st.lists(one, min_size=1, max_size=3))]
    if attr in ("LOWER", "ORTH"):
        options.append(st.sampled_from([{"REGEX": "^n'?t$"}, {"REGEX": "^[a-z]+s$"}, {"REGEX": "y"}]))
    return st.one_of(*options)


token_spec = st.one_of(
    st.fixed_dictionaries({}, optional={a: conditions(a) for a in ("TAG", "DEP", "LOWER", "ORTH")}),
    st.just({"IS_SPACE": True}),
)
setting = st.fixed_dictionaries({}, optional={
    "POS": st.sampled_from(["AUX", "VERB", "PART", "PRON", "DET", "SPACE"]),
    "LEMMA": st.sampled_from(["be", "not", "go", "to", "you"]),
    "MORPH": st.sampled_from(["_", "Polarity=Neg", "Number=Sing|Person=3", "VerbForm=Inf"]),
    "TAG": st.sampled_from(["VB", "MD"]),
    "DEP": st.sampled_from(["dep", "aux"]),
}).filter(bool)


@st.composite
def rule(draw: st.DrawFn) -> dict[str, object]:
    pattern = draw(st.lists(token_spec, min_size=1, max_size=2))
    index = draw(st.integers(-len(pattern), len(pattern) - 1))
    return {"patterns": [pattern], "attrs": draw(setting), "index": index}


@st.composite
def doc_words(draw: st.DrawFn) -> tuple[list[str], list[str], list[str]]:
    n = draw(st.integers(1, 12))
    words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
    tags = draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n))
    deps = draw(st.lists(st.sampled_from(DEPS), min_size=n, max_size=n))
    return words, tags, deps


@settings(max_examples=300, deadline=None)
@given(rules=st.lists(rule(), min_size=1, max_size=8), docs=st.lists(doc_words(), min_size=1, max_size=4))
def test_random_rules_annotate_as_the_attribute_ruler(rules: list[dict[str, object]],
                                                       docs: list[tuple[list[str], list[str], list[str]]]) -> None:
    ruler = AttributeRuler(BLANK.vocab)
    ruler.add_patterns(rules)  # type: ignore[arg-type]
    indexed = compile_rules(ruler)
    assert indexed is not None
    for words, tags, deps in docs:
        heads = [0] * len(words)  # every token hangs on the first: a valid tree
        made = [Doc(BLANK.vocab, words=words, tags=tags, deps=deps, heads=heads) for _ in range(2)]
        expected = ruler(made[0]).to_array(COLUMNS)
        got = indexed(made[1]).to_array(COLUMNS)
        assert (expected == got).all(), (words, tags, deps, rules)


def test_a_later_rule_wins_and_a_longer_pattern_sets_its_index() -> None:
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add_patterns([  # type: ignore[attr-defined]
        {"patterns": [[{"TAG": "VBZ"}]], "attrs": {"POS": "VERB", "LEMMA": "verb"}},
        {"patterns": [[{"LOWER": "ai"}, {"LOWER": {"REGEX": "^n'?t$"}}]], "attrs": {"LEMMA": "be"}, "index": 0},
        {"patterns": [[{"TAG": "VBZ", "LOWER": {"IN": ["ai", "is"]}}]], "attrs": {"POS": "AUX"}},
    ])
    doc = Doc(nlp.vocab, words=["It", "ai", "n't", "so", "runs"], tags=["PRP", "VBZ", "RB", "RB", "VBZ"])
    rules = compile_rules(ruler)  # type: ignore[arg-type]
    assert rules is not None
    rules(doc)
    assert [(t.pos_, t.lemma_) for t in doc][1:] == [("AUX", "be"), ("", ""), ("", ""), ("VERB", "verb")]


def test_rules_it_cannot_read_keep_the_model_ruler() -> None:
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add_patterns([{"patterns": [[{"LOWER": "very", "OP": "+"}]], "attrs": {"POS": "ADV"}}])  # type: ignore[attr-defined]
    assert compile_rules(ruler) is None  # type: ignore[arg-type]
    assert use_indexed_rules(nlp) is False
    assert nlp.pipe_names == ["attribute_ruler"]


SENTENCES = [
    "Y'all ain't gonna believe it, but there is nothin' here.",
    "Let's go: I gotta say it's great, and you ain't seen nothing yet.",
    "There are two men who were going to sue me and you; he gave it to me and I gave you it.",
    "The spokesman said that the army, which is not in the city, had done what it did to them.",
    "Norwegian Transport Minister Tomas Ibarra phoned the Peruvian envoy Dale Whitcombe at noon.",
]


@pytest.mark.model
def test_the_model_pipeline_annotates_as_with_its_own_ruler() -> None:
    nlp = load(DEFAULT_MODEL)
    assert "kg_attribute_rules" in nlp.pipe_names and "attribute_ruler" not in nlp.pipe_names
    stock = spacy.load(DEFAULT_MODEL)
    for text in SENTENCES:
        ours, theirs = nlp(text), stock(text)
        assert [t.text for t in ours] == [t.text for t in theirs]
        for a, b in zip(ours, theirs):  # kg's lemma repairs may only change verb lemmas
            assert (a.pos_, a.tag_, a.dep_, str(a.morph)) == (b.pos_, b.tag_, b.dep_, str(b.morph)), text
            assert a.lemma_ == b.lemma_ or a.pos_ in ("VERB", "AUX"), text
