"""Text hygiene before NLP: invisible and control characters out, NFC, offsets back into the original."""
from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.build.pipeline import extract_article, prepare
from kg.config import Settings
from kg.extract import extract_facts
from kg.model.facts import Article
from kg.nlp.hygiene import REMOVED_CHARS, is_blank, sanitize, split
from kg.nlp.pipeline import load
from kg.text.sources import content_hash

REMOVED = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u200f", "\u061c",
           "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
           "\x00", "\x01", "\x1b", "\x7f", "\x80", "\x9f", "\ud800", "\udfff"]
ODD = REMOVED + ["\r", "\r\n", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "e\u0301", "\u0301", "A\u030a",
                 "\u212b", "\u1100\u1161\u11a8", "\u0b47\u0b3e", "\u2000", "\t", "\n", " ", "\n\n"]


def _art(text: str, article_id: str = "t") -> Article:
    return Article(id=article_id, text=text, content_hash=content_hash(text))


@pytest.mark.parametrize("ch", REMOVED, ids=lambda c: f"U+{ord(c):04X}")
def test_each_invisible_or_control_character_is_removed_and_offsets_skip_it(ch):
    text = f"Dalton{ch} met{ch}{ch} Horak."
    s = sanitize(text)
    assert s.text == "Dalton met Horak."
    assert s.span(0, 6) == (0, 6)  # "Dalton": the removed character after it is not included
    start, end = s.span(7, 10)  # "met"
    assert text[start:end] == "met" and start == 6 + 1 + len(ch)
    assert s.span(0, len(s.text)) == (0, len(text))


def test_line_breaks_become_newlines_and_crlf_loses_its_cr():
    text = "a\r\nb\rc\x0bd\x0ce\x85f\u2028g\u2029h\ti"
    s = sanitize(text)
    assert s.text == "a\nb\nc\nd\ne\nf\ng\nh\ti"
    assert text[slice(*s.span(1, 2))] == "\n"  # the "\n" of "\r\n", not the "\r"
    assert text[slice(*s.span(3, 4))] == "\r"


def test_nfc_changes_lengths_and_spans_cover_whole_combining_sequences():
    text = "Cafe\u0301 owners in A\u030angstro\u0308m met \u1100\u1161\u11a8."
    s = sanitize(text)
    assert s.text == unicodedata.normalize("NFC", text) == "Caf\u00e9 owners in \u00c5ngstr\u00f6m met \uac01."
    i = s.text.index("\u00e9")
    assert text[slice(*s.span(i, i + 1))] == "e\u0301"
    j = s.text.index("\u00c5ngstr\u00f6m")
    assert text[slice(*s.span(j, j + 8))] == "A\u030angstro\u0308m"
    k = s.text.index("\uac01")
    assert text[slice(*s.span(k, k + 1))] == "\u1100\u1161\u11a8"


def test_clean_text_costs_no_map():
    s = sanitize("Plain text, caf\u00e9.\n")
    assert not s.changed and s.span(3, 8) == (3, 8)


def test_blank_means_nothing_visible():
    assert is_blank(" \n\t\u200b\ufeff\x00\u202e ")
    assert not is_blank("\u200bx")


_odd_text = st.lists(st.one_of(st.sampled_from(ODD), st.text(max_size=4), st.sampled_from(["Dalton", "said", "."])),
                     max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(_odd_text)
def test_hygiene_is_nfc_of_the_text_without_removed_characters_and_maps_monotonically(text):
    s = sanitize(text)
    expect = re.sub(f"[{REMOVED_CHARS}]|\\r(?=\\n)", "", text)
    expect = re.sub("[\r\x0b\x0c\x85\u2028\u2029]", "\n", expect)
    assert s.text == unicodedata.normalize("NFC", expect)  # per-segment NFC equals whole-text NFC
    assert not re.search(f"[{REMOVED_CHARS}]", s.text)
    last = 0
    for i in range(len(s.text)):
        a, b = s.span(i, i + 1)
        assert last <= a < b <= len(text)
        last = a
    # every run of non-space characters maps back to an original slice that cleans to it
    for m in re.finditer(r"[^ \n\t]+", s.text):
        a, b = s.span(m.start(), m.end())
        assert sanitize(text[a:b]).text == m.group()


def test_split_prefers_blank_lines_then_newlines_then_sentence_ends():
    para = "Word " * 30 + "end.\n"  # 155 characters
    text = para * 3 + "\n" + para * 3
    pieces = split(text, 700)
    assert pieces == [(0, 3 * len(para) + 1), (3 * len(para) + 1, len(text))]
    sentences = ("This is one sentence. " * 20).strip()
    cut = split(sentences, 100)
    assert len(cut) > 1 and all(sentences[s:e].endswith(". ") for s, e in cut[:-1])
    lines = ("a line of words\n" * 40)
    cut = split(lines, 100)
    assert len(cut) > 1 and all(lines[s:e].endswith("\n") for s, e in cut)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab .\n\u0301"), max_size=400), st.integers(min_value=1, max_value=60))
def test_split_covers_the_text_in_pieces_no_longer_than_the_limit(text, limit):
    pieces = split(text, limit)
    assert pieces[0][0] == 0 and pieces[-1][1] == len(text)
    assert all(e1 == s2 for (_, e1), (s2, _) in zip(pieces, pieces[1:]))
    assert all(0 < e - s <= limit for s, e in pieces) or text == ""


def test_zero_width_dalton_and_dalton_are_one_entity(nlp):
    plain = "Marcus Dalton criticized Ines Lindqvist on Monday.\n\nDalton later praised Pavel Horak in Tromso."
    odd = plain.replace("Dalton", "Dalton\u200b").replace("Lindqvist", "\u202eLindqvist\u202c")
    odd = odd.replace("Tromso", "Troms\u00ado").replace("Troms\u00ado", "Tromso\ufeff")
    art, text = prepare(_art(odd))
    facts = extract_facts(nlp(text), art)
    daltons = [e for e in facts.entities.values() if "Dalton" in e.label]
    assert len(daltons) == 1, facts.entities
    assert all(not re.search(f"[{REMOVED_CHARS}]", a) for e in facts.entities.values() for a in e.aliases | {e.label})
    # the full path gives the same facts as the plain text, with offsets into the original text
    full = extract_article(_art(odd), Settings())
    ref = extract_article(_art(plain), Settings())
    assert {(e.key, e.label) for e in full.entities.values()} == {(e.key, e.label) for e in ref.entities.values()}
    assert [(e.actor, e.action, e.target) for e in full.events] == [(e.actor, e.action, e.target) for e in ref.events]
    assert full.events
    for ev in [e.evidence for e in full.events] + [r.evidence for r in full.roles]:
        assert odd[ev.start:ev.end] == ev.text
        assert sanitize(ev.text).text in sanitize(odd).text
    assert any("\u200b" in e.evidence.text for e in full.events)  # the original slice, not the cleaned one


@pytest.mark.model
def test_long_article_is_split_parsed_in_pieces_and_merged():
    paragraphs = [
        f"Police in Nairobi arrested {n + 2} suspects on day {n}, police spokesman John Mwangi said.\n\n"
        f"Interior Minister Fred Otieno condemned the attack on day {n}.\n\n"
        for n in range(40)
    ]
    text = "".join(paragraphs).replace("Mwangi", "Mwan\u200bgi", 1)
    nlp = load(Settings().model)  # the pipeline object a build uses
    old_max = nlp.max_length
    nlp.max_length = 2_000  # spaCy's own limit is respected too (E088 would be raised past it)
    try:
        facts = extract_article(_art(text, "long"), Settings(), max_chars=10**9)
    finally:
        nlp.max_length = old_max
    assert len(text) > 5_000
    otieno = [e for e in facts.entities.values() if e.label == "Fred Otieno"]
    assert len(otieno) == 1 and otieno[0].mentions >= 2  # merged by key across pieces
    assert len({ev.evidence.start for ev in facts.events}) >= 40  # sentences of every piece
    for ev in [e.evidence for e in facts.events] + [r.evidence for r in facts.roles]:
        assert text[ev.start:ev.end] == ev.text and ev.text.strip() == ev.text
    late = [e for e in facts.events if e.evidence.start > 4_000]
    assert late, "facts of the later pieces keep offsets into the whole text"
    whole = extract_article(_art(text, "long"), Settings(), max_chars=10**9)
    same = {(e.action, e.evidence.start) for e in whole.events} & {(e.action, e.evidence.start) for e in late}
    assert len(same) >= 0.9 * len(late)
