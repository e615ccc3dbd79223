"""Each input is read in isolation (issue 26, cases 3, 4 and 9): a record, a link or a folder that
cannot be read is one ``kg: skipped`` line and every good article beside it is stored; symbolic
links do not lead out of the folder given unless --follow-symlinks; text that mixes encodings is
reported, never stored as mojibake."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.model.facts import Article
from kg.store import open_store
from kg.text.sources import Skipped, inputs, read_articles, read_file

ROOT = Path(__file__).resolve().parents[1]
GOOD = "Rebels in the invented town of Varrow attacked a police station on Monday, officials said.\n"
SECRET = "Zorbel Quint attacked the vault of the invented Calder Bank, a guard said.\n"


def kg(*args: str, cwd: Path | None = None, **kw: object) -> subprocess.CompletedProcess[str]:
    """The kg command line of this checkout, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "from kg.cli import run; run()", *args], capture_output=True,
                          text=True, env=env, cwd=cwd or ROOT, timeout=300, **kw)  # type: ignore[call-overload]


def _hostile_folder(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.txt").write_text(GOOD, encoding="utf-8")
    (src / "crawl.jsonl").write_text("\n".join([
        '{"id": ' + "7" * 5000 + ', "text": "Police arrested two men in the invented city of Hollin."}',
        json.dumps({"id": "kept", "text": "Soldiers shelled the invented village of Marrowby on Tuesday."}),
    ]) + "\n", encoding="utf-8")
    os.symlink("loop.txt", src / "loop.txt")  # a link to itself
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    os.symlink(tmp_path / "secret.txt", src / "leak.txt")  # a link out of the folder
    return src


@pytest.mark.model
def test_done_when_bad_inputs_are_one_line_each_and_the_good_articles_are_stored(tmp_path: Path) -> None:
    src = _hostile_folder(tmp_path)
    store = tmp_path / "store"
    res = kg("build", str(src), "--store", str(store), "--no-out", "--workers", "1")
    assert res.returncode == 1, res.stderr
    assert "Traceback" not in res.stderr + res.stdout
    skipped = [line for line in res.stderr.splitlines() if line.startswith("kg: skipped ")]
    assert len(skipped) == 3, res.stderr
    assert any("crawl.jsonl:1:" in line and "4300" in line for line in skipped)
    assert any("loop.txt" in line and "loop" in line.split("loop.txt", 1)[1] for line in skipped)
    assert any("leak.txt" in line and "--follow-symlinks" in line for line in skipped)
    assert "2 article(s) stored, 0 unchanged, 3 skipped" in res.stderr
    st = open_store(store)
    try:
        ids = {r["id"] for r in st.select("SELECT ?id WHERE { ?a <https://schema.org/identifier> ?id }")}
        texts = [r["t"] or "" for r in st.select("SELECT ?t WHERE { ?a <https://schema.org/text> ?t }")]
    finally:
        st.close()
    assert ids == {"good", "kept"}
    assert len(texts) == 2 and not any("Zorbel" in t for t in texts)  # nothing from outside the folder was read


def test_links_out_of_the_folder_are_read_only_with_follow_symlinks(tmp_path: Path) -> None:
    src = _hostile_folder(tmp_path)
    plain = [i for i in read_articles([src]) if isinstance(i, Article)]
    assert "leak" not in {a.id for a in plain}
    followed = {i.id: i for i in read_articles([src], follow_symlinks=True) if isinstance(i, Article)}
    assert followed["leak"].text == SECRET
    # a link to a file inside the folder is read by the file's own name (once)
    (src / "alias.txt").symlink_to(src / "good.txt")
    (src / "sub").mkdir()
    (src / "sub" / "inner.txt").write_text(GOOD.replace("Varrow", "Ostry"), encoding="utf-8")
    os.symlink(src / "sub", src / "also-sub")  # a folder inside: its files are found by their own path
    ids = [i.id for i in read_articles([src]) if isinstance(i, Article)]
    assert "sub/inner" in ids and not any(i.startswith("also-sub") for i in ids)
    assert "good" in ids and "alias" not in ids
    (src / "notes.md").write_text(GOOD.replace("Varrow", "Pell"), encoding="utf-8")
    (src / "notes.txt").symlink_to("notes.md")  # a link inside to a file kg would not read by its name
    assert "notes" in [i.id for i in read_articles([src]) if isinstance(i, Article)]


def test_folder_links_that_loop_are_reported_when_followed(tmp_path: Path) -> None:
    src = tmp_path / "in"
    (src / "a").mkdir(parents=True)
    (src / "a" / "story.txt").write_text(GOOD, encoding="utf-8")
    os.symlink(src, src / "a" / "back")  # back up to the top: a loop when links are followed
    os.symlink("nowhere", src / "gone.txt")
    items = list(read_articles([src], follow_symlinks=True))
    bad = {Path(i.path).name: i.reason for i in items if isinstance(i, Skipped)}
    assert "loop" in bad["back"] and "nowhere" in bad["gone.txt"]
    assert [i.id for i in items if isinstance(i, Article)] == ["a/story"]


def test_an_unreadable_subfolder_is_a_skipped_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "in"
    (src / "locked").mkdir(parents=True)
    (src / "locked" / "x.txt").write_text(GOOD, encoding="utf-8")
    (src / "open.txt").write_text(GOOD, encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        if Path(path).name == "locked":  # what chmod 000 does for a user other than root
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    items = list(read_articles([src]))
    assert [i.id for i in items if isinstance(i, Article)] == ["open"]
    (skip,) = [i for i in items if isinstance(i, Skipped)]
    assert skip.path.endswith("locked") and "Permission denied" in skip.reason


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_subfolder_on_disk(tmp_path: Path) -> None:
    src = tmp_path / "in"
    (src / "locked").mkdir(parents=True)
    (src / "open.txt").write_text(GOOD, encoding="utf-8")
    (src / "locked").chmod(0)
    try:
        kinds = [i.kind for i in inputs([src])]
    finally:
        (src / "locked").chmod(0o755)
    assert kinds == ["skipped", "text"]


def test_text_that_mixes_utf8_and_windows_1252_is_reported_not_stored_as_mojibake(tmp_path: Path) -> None:
    utf8 = "G\u00e9rald Fontanel, the invented mayor of Brissac, resigned on Monday.\n".encode("utf-8")
    cp1252 = "Caf\u00e9 owners \u2013 \u201cwe stay\u201d \u2013 protested.\n".encode("cp1252")
    (tmp_path / "mixed.txt").write_bytes(utf8 + cp1252)
    res = read_file(tmp_path / "mixed.txt")
    assert isinstance(res, Skipped) and "mixes UTF-8 (line 1)" in res.reason and "(line 2)" in res.reason
    # UTF-8 and Windows-1252 within one line
    (tmp_path / "one-line.txt").write_bytes(b"Ren\xc3\xa9 met Jos\xe9 in the invented town of Alvar.\n")
    assert isinstance(read_file(tmp_path / "one-line.txt"), Skipped)
    # a page that says windows-1252 but holds UTF-8 too
    page = (b'<html><head><meta charset="windows-1252"><title>T</title></head><body><article><p>'
            + utf8 + b"</p><p>" + cp1252 + b"</p></article></body></html>")
    (tmp_path / "mixed.html").write_bytes(page)
    res = read_file(tmp_path / "mixed.html")
    assert isinstance(res, Skipped) and "mixes UTF-8" in res.reason
    # plain Windows-1252 (German quotes beside a sharp s, capitals with accents) is still read
    western = "\u201eGru\u00df\u201c, sagte \u00c9MILE \u2013 \u00c4rger \u00fcber 5 \u20ac.\n"
    (tmp_path / "w.txt").write_bytes(western.encode("cp1252"))
    art = read_file(tmp_path / "w.txt")
    assert isinstance(art, Article) and art.text == western
