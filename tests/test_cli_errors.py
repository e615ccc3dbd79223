"""Errors at the edges are one line and an exit code, never a traceback (issue 26, case 6): output
paths that cannot be written, a full disk, a curation file nested too deeply. Each case runs the
command line in a process of its own, as a user would."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from test_server_support import build_store

ROOT = Path(__file__).resolve().parents[1]
STORY = "Police arrested two men in the invented city of Hollin on Monday, a spokesman said.\n"
#: A folder no one can create files in, root included.
UNWRITABLE = Path("/proc/kg-no-such-folder")

#: Runs the command line with a store whose every write and flush fails as on a full disk.
FULL_DISK = """
import errno
import kg.store as store

class FullDisk:
    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        if name in ("load", "update", "flush", "extend", "bulk_load", "add"):
            def fail(*args, **kwargs):
                raise OSError(errno.ENOSPC, "No space left on device")
            return fail
        return getattr(self._real, name)

opened = store.OxigraphStore.__init__

def init(self, *args, **kwargs):
    opened(self, *args, **kwargs)
    self._store = FullDisk(self._store)

store.OxigraphStore.__init__ = init
from kg.cli import run
run()
"""


def kg(*args: str, script: str = "from kg.cli import run; run()", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


def one_line_error(res: subprocess.CompletedProcess[str], code: int = 1) -> str:
    """The error line of a run that failed cleanly: no traceback, one ``kg: error`` line."""
    out = res.stdout + res.stderr
    assert "Traceback" not in out and "╭" not in out, out[-3000:]
    errors = [line for line in res.stderr.splitlines() if line.startswith("kg: error: ")]
    assert len(errors) == 1 and res.returncode == code, (res.returncode, res.stderr[-2000:])
    return errors[0]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield build_store(tmp_path_factory.mktemp("errors") / "store")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, where no file can be created")
@pytest.mark.parametrize("args", [
    ("export", "-o", str(UNWRITABLE / "graph.ttl")),
    ("export", "--output", "/proc/graph.ttl"),
    ("view", "-o", "/proc/graph.html"),
    ("analyze", "--graphml", "/proc/graph.graphml"),
    ("analyze", "--gexf", "/proc/graph.gexf"),
], ids=["export-missing-folder", "export", "view", "analyze-graphml", "analyze-gexf"])
def test_an_output_path_that_cannot_be_written_is_one_line(store: Path, args: tuple[str, ...]) -> None:
    line = one_line_error(kg(*args, "--store", str(store)))
    assert "cannot write" in line or "does not exist" in line


@pytest.mark.model
@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, where no folder can be created")
def test_build_with_an_out_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(STORY, encoding="utf-8")
    res = kg("build", str(tmp_path / "a.txt"), "--store", str(tmp_path / "store"), "--out", str(UNWRITABLE),
             "--workers", "1")
    assert "cannot create folder" in one_line_error(res)


@pytest.mark.model
def test_a_full_disk_is_the_store_error_not_the_flush_that_follows(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(STORY, encoding="utf-8")
    res = kg("build", str(tmp_path / "a.txt"), "--store", str(tmp_path / "store"), "--no-out", "--workers", "1",
             script=FULL_DISK)
    line = one_line_error(res)
    assert "No space left on device" in line and "[E030]" in line  # the StoreError of the write


def test_a_curation_file_nested_5000_deep_is_a_usage_error(store: Path, tmp_path: Path) -> None:
    deep = tmp_path / "curation.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    line = one_line_error(kg("merge", "x", "y", "--store", str(store), "--curation", str(deep)), code=2)
    assert "nested too deeply" in line
    (tmp_path / "pyproject.toml").write_text("[tool.kg]\nx = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n",
                                             encoding="utf-8")
    assert "nested too deeply" in one_line_error(kg("stats", "--store", str(store), cwd=tmp_path), code=2)
