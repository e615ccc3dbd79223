"""Output paths (``kg.files``): what ``-o`` may name and what a write does to it. A regular file or a new
path is replaced by a rename (its mode kept, or the umask's); a symbolic link's target is written, the
link kept; a FIFO is written in place; a folder, a device or a socket is refused in one line; the
temporary files a killed run left are removed by the next write into their folder."""
from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg import api
from kg.cli import app
from kg.errors import UsageError
from kg.files import write_atomic
from kg.store import open_store

TRIPLES = "".join(f'<https://kg.example.org/s{i}> <https://kg.example.org/p> "invented value {i}" .\n'
                  for i in range(50))


@pytest.fixture
def store(tmp_path: Path) -> str:
    location = tmp_path / "store"
    st = open_store(location)
    try:
        st.add_triples("https://kg.example.org/article/one", TRIPLES)
    finally:
        st.close()
    return str(location)


def _export(store: str, target: Path | str, *more: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["export", "--store", store, "--format", "nt", "-o", str(target), *more])


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def test_a_socket_is_refused_in_one_line_and_kept(store: str, tmp_path: Path) -> None:
    path = tmp_path / "s.nt"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        res = _export(store, path)
    finally:
        sock.close()
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1 and "it is a socket" in res.output and "Traceback" not in res.output
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_device_and_a_folder_are_refused_before_anything_is_written() -> None:
    null = "/dev/null"
    assert stat.S_ISCHR(os.stat(null).st_mode)
    with pytest.raises(UsageError, match="character device"):
        api.writable(null)
    with pytest.raises(UsageError, match="it is a directory"):
        api.writable("/")


def test_a_fifo_is_written_in_place_and_its_reader_gets_everything(store: str, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.nt"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        res = _export(store, fifo)
        got, _ = reader.communicate(timeout=60)
    finally:
        reader.kill()
    assert res.exit_code == 0, res.output
    assert got.count(b"\n") == 50 and b"invented value 49" in got
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_symbolic_link_is_kept_and_its_target_written(store: str, tmp_path: Path) -> None:
    real = tmp_path / "real.nt"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "latest.nt"
    link.symlink_to(real.name)
    res = _export(store, link)
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_text(encoding="utf-8").count("invented value") == 50


def test_an_existing_file_keeps_its_mode(store: str, tmp_path: Path) -> None:
    out = tmp_path / "private.nt"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o600)
    res = _export(store, out)
    assert res.exit_code == 0, res.output
    assert "invented value" in out.read_text(encoding="utf-8")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_a_new_file_takes_the_umask(tmp_path: Path, umask: None) -> None:
    out = tmp_path / "new.txt"
    write_atomic(out, b"invented\n")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


def test_temporary_files_a_killed_run_left_are_removed_by_the_next_write(store: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    dead = _dead_pid()
    stale = [out / f".graph.ttl.kg{dead}-0a1b2c3d.tmp", out / f".other.nt.kg{dead}-ffff0000.tmp"]
    live = out / f".graph.ttl.kg{os.getppid()}-12345678.tmp"  # a running process's: still being written
    others = [out / ".graph.ttl.x8k2_q1z.tmp", out / ".notes.tmp", out / f"graph.ttl.kg{dead}-0a1b2c3d.tmp"]
    for p in (*stale, live, *others):
        p.write_bytes(b"partial")
    res = _export(store, out / "g.nt")
    assert res.exit_code == 0, res.output
    left = sorted(p.name for p in out.iterdir())
    assert left == sorted(["g.nt", live.name, *(p.name for p in others)])
    from kg.files import remove_stale_temps

    assert remove_stale_temps(out) == []
