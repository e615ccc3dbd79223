"""Rule tests without the spaCy model: a sentence's parse written down as data (words, tags, parts of
speech, dependencies, heads, lemmas and entities, one row a token, in ``parses.json``), built into a
``Doc`` on a blank English vocabulary and read by the rules as a build reads the model's parse.

A test that calls ``hand_read`` instead of the ``read`` fixture is a ``unit`` test: it checks the rules on
a fixed parse, so a new model cannot change what it tests. The parses were written from the model's
output (``python tests/handparse.py "A sentence."`` prints the rows); where a parse in a test is not the
model's, the test says so.

The lemmatizer's word tables (``kg.nlp.words.known_word``) are not on a blank vocabulary: rules that ask
them get "cannot say", so tests that need them stay on the model.
"""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

import spacy
from spacy.tokens import Doc
from spacy.vocab import Vocab

from kg.build.pipeline import prepare
from kg.extract import extract_facts
from kg.model.facts import Article, ArticleFacts
from kg.text.sources import content_hash

#: The parses, by the cleaned text of the sentences read.
PARSES_FILE = Path(__file__).with_name("parses.json")
#: One token: word, fine tag, part of speech, dependency label, head (index in the text), lemma, entity (IOB).
Row = tuple[str, str, str, str, int, str, str]


@lru_cache(maxsize=1)
def _parses() -> dict[str, list[Row]]:
    return {text: [tuple(r) for r in rows] for text, rows in json.loads(PARSES_FILE.read_text(encoding="utf-8")).items()}


@lru_cache(maxsize=1)
def _vocab() -> Vocab:
    return spacy.blank("en").vocab


def hand_doc(text: str, rows: list[Row]) -> Doc:
    """The Doc of ``text`` with the parse ``rows`` (the words must spell the text, spaces between)."""
    words = [r[0] for r in rows]
    spaces, at = [], 0
    for word in words:
        at = text.index(word, at) + len(word)
        spaces.append(text[at:at + 1] == " ")
        if spaces[-1]:
            at += 1
    return Doc(_vocab(), words=words, spaces=spaces, tags=[r[1] for r in rows], pos=[r[2] for r in rows],
               deps=[r[3] for r in rows], heads=[r[4] for r in rows], lemmas=[r[5] for r in rows],
               ents=[r[6] for r in rows])


def hand_read(text: str, date: str | None = None) -> ArticleFacts:
    """Facts of a short text as a build reads them, the parse taken from ``parses.json``."""
    parses = _parses()
    art, cleaned = prepare(Article(id="t", text=text, content_hash=content_hash(text), date=date))
    if cleaned not in parses:
        raise KeyError(f"no parse written for {cleaned!r}: add one with python tests/handparse.py")
    return extract_facts(hand_doc(cleaned, parses[cleaned]), art)


def rows_of(doc: Doc) -> list[Row]:
    """A parsed Doc as rows (what ``parses.json`` holds)."""
    return [(t.text, t.tag_, t.pos_, t.dep_, t.head.i, t.lemma_, f"{t.ent_iob_}-{t.ent_type_}" if t.ent_type_ else "O")
            for t in doc]


def write_parses(parses: dict[str, list[Row]]) -> None:
    """Write ``parses.json``, sorted, a token a line (diffs show the token that changed)."""
    lines = []
    for text in sorted(parses):
        rows = ",\n".join("  " + json.dumps(list(r), ensure_ascii=False) for r in parses[text])
        lines.append(f"{json.dumps(text, ensure_ascii=False)}: [\n{rows}\n]")
    PARSES_FILE.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def stale(nlp) -> list[str]:  # type: ignore[no-untyped-def]
    """The written-down sentences whose parse the pipeline (the model and kg's repairs) now makes otherwise."""
    return [text for text, rows in _parses().items() if rows_of(nlp(text)) != list(rows)]


if __name__ == "__main__":  # add the model's parse of each sentence given (--refresh: write every one anew)
    from kg.nlp.pipeline import load

    nlp = load()
    parses = _parses() if PARSES_FILE.exists() else {}
    sentences = list(parses) if sys.argv[1:] == ["--refresh"] else sys.argv[1:]
    for sentence in sentences:
        _, cleaned = prepare(Article(id="t", text=sentence, content_hash=content_hash(sentence)))
        parses[cleaned] = rows_of(nlp(cleaned))
    write_parses(parses)
