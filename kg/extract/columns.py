"""One Doc's text, sentences and token attributes, read once per article.

``Doc.text`` and ``Doc.sents`` build their result anew on every call, and every ``doc[i]``
makes a new ``Token``: loops that only need to skip most words (to find the verbs of a
sentence, the nouns of a lexicon) read these columns instead and make a Token only for the
words they keep.
"""
from __future__ import annotations

from spacy.attrs import DEP, IDX, LEMMA, POS
from spacy.tokens import Doc, Span

__all__ = ["Columns"]


class Columns:
    """Token attributes of one Doc as lists indexed by token position (``pos_[i]`` is ``doc[i].pos_``)."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        strings = doc.vocab.strings
        pos, dep, lemma, idx = doc.to_array([POS, DEP, LEMMA, IDX]).T.tolist() if len(doc) else ([], [], [], [])
        self.pos_: list[str] = [strings[x] for x in pos]
        self.dep_: list[str] = [strings[x] for x in dep]
        self.lemma_: list[str] = [strings[x] for x in lemma]
        self.idx: list[int] = idx
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
