"""Cleaning keeps offsets; sources read files and report bad ones without raising."""
from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import UsageError
from kg.nlp.clean import clean
from kg.text.sources import Skipped, expand, read_file


def test_dateline_is_blanked_and_kept_as_place():
    text = "BAGHDAD - A bomb exploded near the market.\n\nPolice said two people died."
    c = clean(text)
    assert len(c.text) == len(text)
    assert c.dateline == "Baghdad"
    assert "BAGHDAD" not in c.text and c.text.lstrip().startswith("A bomb")


def test_headline_and_date_line_are_metadata_the_headline_stays_to_be_read():
    text = "Storm hits coast\nMonday, March 2, 2020\nA storm hit the coast on Monday.\nResidents fled."
    c = clean(text)
    assert c.title == "Storm hits coast"
    assert c.headline == (0, len("Storm hits coast"))
    assert c.date == "2020-03-02"
    assert c.text.startswith("Storm hits coast") and "Monday, March" not in c.text
    assert c.text.index("A storm") == text.index("A storm")


@pytest.mark.parametrize(("line", "iso"), [("Feb 26, 2024", "2024-02-26"), ("Feb. 26, 2024", "2024-02-26"),
                                          ("Sept 3, 2019", "2019-09-03"), ("Mar 9, 2011", "2011-03-09")])
def test_a_date_line_with_an_abbreviated_month(line: str, iso: str) -> None:
    c = clean(f"Storm hits coast\n{line}\nA storm hit the coast on Monday.\n")
    assert c.date == iso


def test_trailing_company_line_is_removed():
    text = "The council approved the plan.\n\nThe mayor welcomed it.\n\nShenzhen Bright Star Trading Limited"
    c = clean(text)
    assert "Shenzhen" not in c.text
    assert "The mayor welcomed it." in c.text


def test_a_story_sentence_at_the_end_is_kept():
    text = "The council approved the plan.\n\nThe mayor welcomed it."
    assert clean(text).text == text


def test_read_utf8_bom_utf16_and_cp1252(tmp_path: Path):
    (tmp_path / "a.txt").write_bytes("\ufeffCaf\u00e9 owners met.".encode("utf-8"))
    (tmp_path / "b.txt").write_bytes("Caf\u00e9 owners met.".encode("utf-16"))
    (tmp_path / "c.txt").write_bytes("Caf\u00e9 owners \u2019met\u2019.".encode("cp1252"))
    for name in "abc":
        art = read_file(tmp_path / f"{name}.txt")
        assert not isinstance(art, Skipped), art
        assert art.text.startswith("Caf\u00e9 owners")
        assert art.id == name and len(art.content_hash) == 64


def test_empty_and_binary_files_are_skipped_with_a_reason(tmp_path: Path):
    (tmp_path / "empty.txt").write_text("   \n\n", encoding="utf-8")
    (tmp_path / "bin.txt").write_bytes(b"\x00\x01\x02\xff")
    for name, word in (("empty.txt", "empty"), ("bin.txt", "binary")):
        res = read_file(tmp_path / name)
        assert isinstance(res, Skipped) and word in res.reason and name in res.path


def test_folders_expand_recursively_and_missing_paths_are_usage_errors(tmp_path: Path):
    (tmp_path / "x" / "y").mkdir(parents=True)
    (tmp_path / "x" / "y" / "one.txt").write_text("A text.", encoding="utf-8")
    (tmp_path / "x" / "notes.md").write_text("not an article", encoding="utf-8")
    assert [p.name for p in expand([tmp_path])] == ["one.txt"]
    with pytest.raises(UsageError):
        expand([tmp_path / "missing"])


def test_byline_line_is_removed():
    text = "Storm hits coast\nBy Jane Doe and Raj Patel\nA storm hit the coast on Monday.\nResidents fled."
    c = clean(text)
    assert "Jane Doe" not in c.text and "A storm hit" in c.text
    assert len(c.text) == len(text)


def test_boilerplate_lines_at_the_end_are_removed():
    text = ("The council approved the plan.\n\nThe mayor welcomed it.\n\n"
            "Reporting by Ann Lee; Editing by Tom Roe\nCopyright 2021 Example News. All rights reserved.")
    c = clean(text)
    assert "Copyright" not in c.text and "Reporting by" not in c.text
    assert "The mayor welcomed it." in c.text


def test_a_sentence_starting_with_by_is_not_a_byline():
    text = "Storm hits coast\nBy Monday, the storm had reached the coast and residents fled."
    assert "By Monday, the storm" in clean(text).text


def test_backtick_apostrophe_is_read_as_an_apostrophe():
    text = "We can`t open the gates, the guards told us."
    c = clean(text)
    assert c.text == "We can't open the gates, the guards told us." and len(c.text) == len(text)
