"""One Doc's text, sentences and token attributes, read once per article.

``Doc.text`` and ``Doc.sents`` build their result anew on every call, and every ``doc[i]``
(also each child ``Token.children`` yields) makes a new ``Token``: loops that only need to skip
most words (to find the verbs of a sentence, the nouns of a lexicon) read these columns instead
and make a Token only for the words they keep, and the rules read a token's children through
``kids``, which keeps those of the last tokens read while the article is read (``reading``): the
rules of one clause ask for the same token's children again and again.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from spacy.tokens import Doc, Span, Token

__all__ = ["Columns", "columns_of", "has_text", "kids", "reading"]


class Columns:
    """Token attributes of one Doc as lists indexed by token position (``pos_[i]`` is ``doc[i].pos_``)."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        strings = doc.vocab.strings
        pos, dep, lemma, idx = doc.to_array(["POS", "DEP", "LEMMA", "IDX"]).T.tolist() if len(doc) else ([], [], [], [])
        self.pos_: list[str] = [strings[x] for x in pos]
        self.dep_: list[str] = [strings[x] for x in dep]
        self.lemma_: list[str] = [strings[x] for x in lemma]
        self.idx: list[int] = idx
        #: children of the tokens read last (``kids``), by position: a few at a time, so that the
        #: Tokens kept die young (kept for the whole article, they make the garbage collector's
        #: full passes run, which cost more than the Tokens saved)
        self.children: dict[int, tuple[Token, ...]] = {}
        self._text: str | None = None
        self._sents: list[Span] | None = None

    @property
    def text(self) -> str:
        """``Doc.text``, made once."""
        if self._text is None:
            self._text = self.doc.text
        return self._text

    @property
    def sents(self) -> list[Span]:
        """``Doc.sents``, made once (on first use: a Doc with no sentence bounds has none to give)."""
        if self._sents is None:
            self._sents = list(self.doc.sents)
        return self._sents


#: How many tokens' children ``kids`` keeps at a time.
_MEMO_SIZE = 32

#: The Docs being read (``reading``), by ``id``: what ``kids`` looks a token's Doc up in.
_READING: dict[int, Columns] = {}


@contextmanager
def reading(doc: Doc) -> Iterator[Columns]:
    """While an article's Doc is read: its columns, and the children of the tokens read last kept
    (``kids``). The parse must not change meanwhile (extraction only reads it)."""
    if id(doc) in _READING:
        yield _READING[id(doc)]
        return
    cols = _READING[id(doc)] = Columns(doc)
    try:
        yield cols
    finally:
        del _READING[id(doc)]


def columns_of(doc: Doc) -> Columns:
    """The columns of a Doc being read, or new ones."""
    return _READING.get(id(doc)) or Columns(doc)


def has_text(doc: Doc, text: str) -> bool:
    """Whether a Doc's text holds ``text`` anywhere (True when the Doc is not being read: unknown)."""
    cols = _READING.get(id(doc))
    return cols is None or text in cols.text


def kids(tok: Token) -> tuple[Token, ...]:
    """``tok.children``; kept for the last tokens asked while their Doc is read (``reading``)."""
    cols = _READING.get(id(tok.doc))
    if cols is None:
        return tuple(tok.children)
    memo = cols.children
    got = memo.get(tok.i)
    if got is None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        got = memo[tok.i] = tuple(tok.children)
    return got
