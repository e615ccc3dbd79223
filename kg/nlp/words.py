"""The words the model's lemmatizer knows, shared through the vocabulary: which verbs and nouns are
English lemmas, and the irregular verb forms. The pipeline fills the tables once at load time; rules
and components ask through ``known_word`` (no import of the pipeline needed)."""
from __future__ import annotations

from spacy.language import Language
from spacy.vocab import Vocab

#: ``vocab.lookups`` tables of the verbs and nouns the model's lemmatizer knows (see ``known_word``).
WORD_TABLES = {"verb": "kg_verbs", "noun": "kg_nouns"}
#: ``vocab.lookups`` table of the irregular verb forms the lemmatizer knows ("retook" -> "retake").
IRREGULAR_VERBS = "kg_verb_forms"


def share_word_lists(nlp: Language) -> None:
    """Put the lemmatizer's word lists where every token can reach them (``tok.vocab.lookups``)."""
    if "lemmatizer" not in nlp.pipe_names:
        return
    tables = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
    if tables is None or not tables.has_table("lemma_index"):
        return
    index = tables.get_table("lemma_index")
    for pos, name in WORD_TABLES.items():
        if pos in index and not nlp.vocab.lookups.has_table(name):
            nlp.vocab.lookups.add_table(name, {w: True for w in index[pos]})
    if tables.has_table("lemma_exc") and not nlp.vocab.lookups.has_table(IRREGULAR_VERBS):
        exc = tables.get_table("lemma_exc")
        if "verb" in exc:
            nlp.vocab.lookups.add_table(IRREGULAR_VERBS, {
                form: lemmas[0] for form, lemmas in exc["verb"].items() if lemmas and lemmas[0] != form})


def known_word(vocab: Vocab, word: str, pos: str) -> bool | None:
    """Whether the model knows ``word`` as a lemma of ``pos`` ("verb", "noun"); None if it can't say."""
    name = WORD_TABLES[pos]
    if not vocab.lookups.has_table(name):
        return None
    return word in vocab.lookups.get_table(name)
