"""Inputs: encodings, HTML, JSON lines, standard input, folders, ids, and bad files reported."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.errors import UsageError
from kg.model.facts import Article
from kg.text.sources import Note, Skipped, inputs, read_articles, read_file, read_stdin

STORY = "Rebel fighters seized the town of Kidal on Friday, army spokesman Souleymane Dembele said.\n"
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="{charset}">
<title>Rebels seize town | Example News</title>
<meta property="og:title" content="Rebels seize northern town">
<link rel="canonical" href="https://news.example.com/2021/05/rebels-seize-town">
<meta property="article:published_time" content="2021-05-14T08:00:00Z">
</head><body>
<nav><a href="/">Home</a> <a href="/world">World</a></nav>
<article><h1>Rebels seize northern town</h1>
<p>Rebel fighters seized the northern town of Kidal on Friday, a military spokesman said.</p>
<p>Army spokesman Colonel Souleymane Demb\u00e9l\u00e9 said government troops had withdrawn to avoid casualties.</p>
<p>The United Nations condemned the attack and called for talks.</p>
</article>
<footer>Copyright 2021 Example News. Subscribe to our newsletter.</footer>
</body></html>
"""


def _items(paths) -> list:  # type: ignore[no-untyped-def]
    return list(read_articles(paths))


@pytest.mark.parametrize("data", [
    STORY.encode("utf-8"), b"\xef\xbb\xbf" + STORY.encode("utf-8"), STORY.encode("utf-16"),
    STORY.encode("utf-16-be").join([b"\xfe\xff", b""]), STORY.encode("utf-32"), STORY.encode("cp1252"),
], ids=["utf8", "utf8-bom", "utf16-le-bom", "utf16-be-bom", "utf32-bom", "cp1252-ascii"])
def test_text_encodings_decode_to_the_same_article(tmp_path: Path, data: bytes):
    (tmp_path / "story.txt").write_bytes(data)
    art = read_file(tmp_path / "story.txt")
    assert isinstance(art, Article) and art.text == STORY and art.id == "story"


def test_windows_1252_smart_quotes_and_accents(tmp_path: Path):
    text = "\u201cWe will stay,\u201d said Ren\u00e9 Dupr\u00e9 \u2013 the caf\u00e9\u2019s owner \u2026 for \u20ac5.\r\n"
    (tmp_path / "w.txt").write_bytes(text.encode("cp1252"))
    art = read_file(tmp_path / "w.txt")
    assert isinstance(art, Article) and art.text == text.replace("\r\n", "\n")


@pytest.mark.parametrize("data", [
    b"Caf\x81 owners", b"A \x8d B", b"x\x8f\x90y", b"bad \x9d byte",  # bytes Windows-1252 leaves undefined
    b"\x01\x02\x03\x04\x05\x06abc\x07\x08\x0e\x0f",  # decodes, but mostly control characters
    "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002\u65b0\u805e\u8a18\u4e8b".encode("shift_jis"),
    "\u0398\u03b5\u03c3\u03c3\u03b1\u03bb\u03bf\u03bd\u03af\u03ba\u03b7 \u03b5\u03af\u03bd\u03b1\u03b9".encode("cp1253"),
    b"\x00\x01\x02\xff", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
], ids=["0x81", "0x8d", "0x8f-0x90", "0x9d", "controls", "shift-jis", "greek-cp1253", "nul", "png"])
def test_undecodable_or_binary_files_are_reported_not_guessed(tmp_path: Path, data: bytes):
    (tmp_path / "bad.txt").write_bytes(data)
    res = read_file(tmp_path / "bad.txt")
    assert isinstance(res, Skipped), res
    assert "binary or not in a known text encoding" in res.reason and res.path.endswith("bad.txt")


@pytest.mark.parametrize("data, word", [(b"", "is empty"), (b"  \n\t\r\n", "whitespace"),
                                        ("\u200b\ufeff \u202e\n".encode("utf-8"), "invisible")])
def test_empty_whitespace_and_invisible_only_files_are_skipped(tmp_path: Path, data: bytes, word: str):
    (tmp_path / "e.txt").write_bytes(data)
    res = read_file(tmp_path / "e.txt")
    assert isinstance(res, Skipped) and word in res.reason and "empty" in res.reason


def test_html_page_gives_text_title_date_and_url(tmp_path: Path):
    (tmp_path / "page.html").write_text(PAGE.format(charset="utf-8"), encoding="utf-8")
    art = read_file(tmp_path / "page.html")
    assert isinstance(art, Article), art
    assert art.id == "page"
    assert art.title == "Rebels seize northern town"
    assert art.date == "2021-05-14"
    assert art.url == "https://news.example.com/2021/05/rebels-seize-town"
    assert "Souleymane Demb\u00e9l\u00e9 said" in art.text
    assert "Subscribe" not in art.text and "Home" not in art.text


def test_html_in_windows_1252_and_html_without_text(tmp_path: Path):
    (tmp_path / "w.htm").write_bytes(PAGE.format(charset="windows-1252").encode("cp1252"))
    art = read_file(tmp_path / "w.htm")
    assert isinstance(art, Article) and "Demb\u00e9l\u00e9" in art.text
    (tmp_path / "nav.html").write_text("<html><body><script>var x = 1;</script></body></html>", encoding="utf-8")
    res = read_file(tmp_path / "nav.html")
    assert isinstance(res, Skipped) and "no article text" in res.reason


def test_jsonl_reads_good_lines_and_reports_bad_ones_by_line(tmp_path: Path):
    lines = [
        json.dumps({"id": "a1", "title": "T", "date": "2021-05-14", "url": "https://x.example/a1", "text": STORY}),
        "{not json",
        "",
        json.dumps({"text": STORY}),  # no id: file stem and line number
        json.dumps(["a", "list"]),
        json.dumps({"id": "a2"}),
        json.dumps({"id": 7, "text": "Police arrested two men."}),
        json.dumps({"id": "a3", "text": "   "}),
        json.dumps({"id": "a4", "text": "Lone \ud800 surrogate.", "title": 5}),
        json.dumps({"id": "a5", "text": "Lone \ud800 surrogate."}),
    ]
    path = tmp_path / "crawl.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode("utf-8") + b"\n\xff\xfe\n")
    items = _items([path])
    good = [i for i in items if isinstance(i, Article)]
    bad = {i.path.rsplit(":", 1)[1]: i.reason for i in items if isinstance(i, Skipped)}
    assert [a.id for a in good] == ["a1", "crawl-4", "7", "a5"]
    assert good[0].title == "T" and good[0].date == "2021-05-14" and good[0].url == "https://x.example/a1"
    assert good[3].text == "Lone \ufffd surrogate."  # never a lone surrogate in Article.text
    assert set(bad) == {"2", "5", "6", "8", "9", "11"}
    assert "not valid JSON" in bad["2"] and "object" in bad["5"] and '"text"' in bad["6"]
    assert "empty" in bad["8"] and '"title"' in bad["9"] and "UTF-8" in bad["11"]
    assert all(i.path.startswith(str(path)) for i in items if isinstance(i, Skipped))


def test_binary_and_empty_jsonl_files_are_one_skip_each(tmp_path: Path):
    (tmp_path / "b.jsonl").write_bytes(b"\x00\x01" * 100)
    (tmp_path / "e.jsonl").write_bytes(b"\n\n")
    items = _items([tmp_path])
    assert [type(i) for i in items] == [Skipped, Skipped]
    assert "binary" in items[0].reason and "empty" in items[1].reason


def test_stdin_is_one_article_with_a_content_hash_id():
    art = read_stdin(STORY.encode("utf-16"))
    assert isinstance(art, Article) and art.text == STORY
    assert art.id == f"stdin-{art.content_hash[:12]}" and len(art.id) == 18
    page = read_stdin(PAGE.format(charset="utf-8").encode("utf-8"))
    assert isinstance(page, Article) and page.title == "Rebels seize northern town"
    assert isinstance(read_stdin(b" \n"), Skipped)


def test_ids_are_relative_paths_unique_and_stable(tmp_path: Path):
    root = tmp_path / "news"
    for rel in ("story.txt", "a/story.txt", "b/story.txt", "b/c/deep.txt", "b/story.html", ".hidden.txt",
                ".git/x.txt", "notes.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(STORY if rel.endswith(".txt") else PAGE.format(charset="utf-8"), encoding="utf-8")
    items = _items([root, root / "a" / "story.txt"])  # a file named twice is read once
    ids = [i.id for i in items if isinstance(i, Article)]
    assert ids == ["a/story", "b/c/deep", "b/story", "b/story~2", "story"]
    notes = [i for i in items if isinstance(i, Note)]
    assert len(notes) == 1 and "b/story" in notes[0].message and "story.txt" in notes[0].line
    assert ids == [i.id for i in _items([root]) if isinstance(i, Article)]  # stable
    # the same file named directly keeps its stem; the seeds keep theirs
    assert [i.id for i in _items([root / "b" / "c" / "deep.txt"])] == ["deep"]
    seeds = Path(__file__).resolve().parent.parent / "seeds"
    assert [i.id for i in _items([seeds])] == sorted(p.stem for p in seeds.glob("*.txt"))
    # two folders that both hold story.txt at the top
    other = tmp_path / "other"
    other.mkdir()
    (other / "story.txt").write_text(STORY, encoding="utf-8")
    both = [i.id for i in _items([root / "a", other]) if isinstance(i, Article)]
    assert both == ["story", "story~2"]


def test_missing_paths_and_stdin_twice_are_usage_errors(tmp_path: Path):
    with pytest.raises(UsageError, match="does not exist"):
        inputs([tmp_path / "missing.txt"])
    with pytest.raises(UsageError, match="only once"):
        inputs(["-", "-"])


def test_skip_messages_stay_on_one_line(tmp_path: Path):
    weird = tmp_path / "bad\nname.txt"
    weird.write_bytes(b"")
    (res,) = _items([weird])
    assert isinstance(res, Skipped) and "\n" not in res.line and "bad\\nname.txt" in res.line
