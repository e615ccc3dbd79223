"""A sentence as the evidence of a fact: its text and exact character offsets in the article."""
from __future__ import annotations

from spacy.tokens import Span

from ...model.facts import Evidence

__all__ = ["evidence_of"]


def evidence_of(sent: Span, text: str) -> Evidence:
    """The sentence as evidence, trimmed of surrounding whitespace, with exact offsets."""
    start, end = sent.start_char, sent.end_char
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Evidence(text=text[start:end], start=start, end=end)
