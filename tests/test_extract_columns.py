"""The per-Doc columns extraction reads instead of Tokens (kg/extract/grammar/columns.py): they must say
exactly what the Tokens say, and be gone once the article is read."""
from __future__ import annotations

import pytest

from kg.extract.grammar import columns
from kg.extract.grammar.columns import Columns, has_text, kids, reading

TEXT = ("Mayor Lena Varga opened the new bridge over the Orvel river on Monday.\n\n"
        "Engineers from Tessaro Works, who built it in two years, watched as she cut the ribbon.")


def test_columns_are_the_tokens_attributes(nlp) -> None:  # type: ignore[no-untyped-def]
    doc = nlp(TEXT)
    cols = Columns(doc)
    assert cols.pos_ == [t.pos_ for t in doc]
    assert cols.dep_ == [t.dep_ for t in doc]
    assert cols.lemma_ == [t.lemma_ for t in doc]
    assert cols.idx == [t.idx for t in doc]
    assert cols.text == doc.text
    assert [(s.start, s.end) for s in cols.sents] == [(s.start, s.end) for s in doc.sents]


def test_kids_are_the_children_in_and_out_of_reading(nlp, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    doc = nlp(TEXT)
    expected = [[c.i for c in t.children] for t in doc]
    assert [[c.i for c in kids(t)] for t in doc] == expected  # not being read: the Doc's own
    monkeypatch.setattr(columns, "_MEMO_SIZE", 3)  # few kept: the memo is emptied as it fills
    with reading(doc) as cols:
        for _ in range(2):
            assert [[c.i for c in kids(t)] for t in doc] == expected
            assert len(cols.children) <= 3
        assert kids(doc[1]) is kids(doc[1])  # asked again at once: the same children, kept


def test_reading_ends_with_the_article_even_on_error(nlp) -> None:  # type: ignore[no-untyped-def]
    doc = nlp(TEXT)
    with pytest.raises(RuntimeError):
        with reading(doc):
            assert id(doc) in columns._READING
            with reading(doc):  # nested: the same columns, still registered after the inner one
                pass
            assert id(doc) in columns._READING
            raise RuntimeError("stop")
    assert id(doc) not in columns._READING


def test_has_text(nlp) -> None:  # type: ignore[no-untyped-def]
    doc = nlp(TEXT)
    assert has_text(doc, "?")  # not being read: it cannot say, so it may
    with reading(doc):
        assert not has_text(doc, "?")
        assert has_text(doc, "ribbon")
    asked = nlp("Who built the bridge? Nobody knows.")
    with reading(asked):
        assert has_text(asked, "?")
