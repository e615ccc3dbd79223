"""Huge and odd inputs (issue 34, rows 2, 7, 8, 9): an article over the size cap is skipped in one line
before its text reaches the store, and at most cap + 1 of its bytes are read; FIFOs, devices and sockets
are skipped without being opened; a closed standard input is one line; an article the store cannot hold
is skipped and the build goes on."""
from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.build.jobs import ArticleGraph
from kg.build.writer import StoreWriter
from kg.cli import app
from kg.config import load_settings
from kg.errors import UsageError
from kg.model.facts import Article
from kg.store import open_store
from kg.text.sources import Skipped, inputs, read_articles, read_stdin

ROOT = Path(__file__).resolve().parents[1]
STORY = "Marta Olsen, the mayor of the invented town of Brennvik, opened a new bridge on Monday.\n"
MIB = 1024 * 1024


def _skipped(items: list[object]) -> dict[str, str]:
    return {Path(s.path).name: s.reason for s in items if isinstance(s, Skipped)}


def test_a_file_over_the_default_cap_is_skipped_by_its_size(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(STORY, encoding="utf-8")
    with open(tmp_path / "huge.txt", "wb") as fh:  # sparse: 64 MiB that take no disk
        fh.truncate(64 * MIB)
    items = list(read_articles([tmp_path]))
    assert [i.id for i in items if isinstance(i, Article)] == ["a"]
    why = _skipped(items)["huge.txt"]
    assert why.startswith("is 64 MiB, more than the 4 MiB an article may be") and "--max-article-bytes" in why


def test_a_json_line_over_the_cap_is_skipped_and_the_lines_after_it_are_read(tmp_path: Path) -> None:
    lines = [{"id": "one", "text": STORY}, {"id": "big", "text": "word " * 300_000}, {"id": "two", "text": STORY}]
    (tmp_path / "recs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    items = list(read_articles([tmp_path / "recs.jsonl"], max_bytes=100_000))
    assert [i.id for i in items if isinstance(i, Article)] == ["one", "two"]
    assert _skipped(items) == {"recs.jsonl:2": "is a line of more than the 97.7 KiB an article may be "
                                               "(--max-article-bytes or KG_MAX_ARTICLE_BYTES raise the cap)"}


class _Endless(io.RawIOBase):
    """Standard input that never ends; it counts what it hands out and refuses to be read whole."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:  # type: ignore[no-untyped-def]
        if self.given > 64 * MIB:
            raise AssertionError("read far past the cap")
        n = len(buf)
        buf[:n] = b"a" * n
        self.given += n
        return n

    def readall(self) -> bytes:
        raise AssertionError("standard input read to its end")


def test_standard_input_is_read_up_to_the_cap_and_no_further(monkeypatch: pytest.MonkeyPatch) -> None:
    endless = _Endless()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(endless, buffer_size=8192)))
    res = read_stdin(max_bytes=100_000)
    assert isinstance(res, Skipped) and "more than the 97.7 KiB an article may be" in res.reason
    assert 100_001 <= endless.given <= 100_001 + 8192  # cap + 1, and what the buffer reads ahead


def test_the_cap_is_a_setting_with_units(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_settings().max_article_bytes == 4 * MIB
    monkeypatch.setenv("KG_MAX_ARTICLE_BYTES", "512K")
    assert load_settings().max_article_bytes == 512 * 1024
    assert load_settings(max_article_bytes="2M").max_article_bytes == 2 * MIB
    with pytest.raises(UsageError, match="number of bytes"):
        load_settings(max_article_bytes="lots")


def _read_within(items: list[object], paths: list[Path], follow: bool, fifo: Path | None = None) -> list[object]:
    """``read_articles`` in a thread, failing (not hanging) if it blocks: on a FIFO, a writer is opened to free it."""
    thread = threading.Thread(target=lambda: items.extend(read_articles(paths, follow_symlinks=follow)), daemon=True)
    thread.start()
    thread.join(30)
    if thread.is_alive() and fifo is not None:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # the reader waiting on it wakes up
        thread.join(30)
        pytest.fail("reading the folder blocked on its FIFO")
    return items


def test_fifos_devices_and_sockets_in_a_folder_are_skipped_without_opening_them(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(STORY, encoding="utf-8")
    os.mkfifo(src / "x.txt")
    (src / "null.txt").symlink_to("/dev/null")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(src / "s.txt"))
        items = _read_within([], [src], True, fifo=src / "x.txt")
    finally:
        sock.close()
    assert [i.id for i in items if isinstance(i, Article)] == ["a"]
    assert _skipped(items) == {"x.txt": "is a FIFO, not a regular file (not opened)",
                               "null.txt": "is a character device, not a regular file (not opened)",
                               "s.txt": "is a socket, not a regular file (not opened)"}


def test_a_fifo_named_on_the_command_line_is_skipped_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(STORY, encoding="utf-8")
    os.mkfifo(tmp_path / "feed.txt")
    found = inputs([tmp_path / "a.txt", tmp_path / "feed.txt"])
    assert [i.kind for i in found] == ["text", "skipped"]
    items = _read_within([], [tmp_path / "a.txt", tmp_path / "feed.txt"], False, fifo=tmp_path / "feed.txt")
    assert _skipped(items) == {"feed.txt": "is a FIFO, not a regular file (not opened)"}


def test_a_closed_standard_input_is_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run(["sh", "-c", f'"{sys.executable}" -c "from kg.cli import run; run()" build - '
                          f'--store "{tmp_path / "store"}" <&-'], capture_output=True, text=True, env=env,
                         timeout=120)
    assert res.returncode == 2, res.stderr
    assert res.stderr.splitlines() == ["kg: error: [E001] standard input is closed; pipe an article into kg "
                                       "(kg build - < story.txt) or name files"]
    assert not (tmp_path / "store").exists()


def _graph(i: int) -> ArticleGraph:
    return ArticleGraph(str(i), f"urn:g:{i}", f"<urn:s{i}> <urn:p> <urn:o> .\n", "urn:g:shared", "", 1, 0)


def test_an_article_the_store_cannot_hold_is_refused_and_the_next_ones_are_written() -> None:
    store = open_store(":memory:")
    real = store.replace_graph

    def replace(graph: str, ntriples: str) -> None:
        if graph == "urn:g:1":
            raise MemoryError("Reached the buffer maximal size of 16777216")
        real(graph, ntriples)

    store.replace_graph = replace  # type: ignore[method-assign]
    writer = StoreWriter(store)
    done = [a.article_id for i in range(3) for a in writer.put(_graph(i))]
    done += [a.article_id for a in writer.close()]
    assert done == ["0", "2"]
    assert [(a.article_id, why) for a, why in writer.refused()] == [
        ("1", "Reached the buffer maximal size of 16777216")]
    assert set(store.graphs()) >= {"urn:g:0", "urn:g:2"} and "urn:g:1" not in set(store.graphs())


@pytest.mark.model
def test_a_build_skips_the_articles_over_the_cap_in_one_line_each_and_stores_the_others(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(STORY, encoding="utf-8")
    (src / "big.txt").write_text("An invented sentence about nothing at all.\n" * 2_000, encoding="utf-8")
    records = [{"id": "long", "text": "Words and more words. " * 5_000}, {"id": "short", "text": STORY}]
    (src / "feed.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    res = CliRunner().invoke(app, ["build", str(src), "--store", str(tmp_path / "store"), "--workers", "1",
                                   "--max-article-bytes", "50K"])
    assert res.exit_code == 1, res.output
    skipped = [line for line in res.output.splitlines() if line.startswith("kg: skipped")]
    assert len(skipped) == 2 and "big.txt: is 84 KiB, more than the 50 KiB" in skipped[0], skipped
    assert "feed.jsonl:1: is a line of more than the 50 KiB" in skipped[1], skipped
    assert "2 article(s) stored, 0 unchanged, 2 skipped" in res.output
