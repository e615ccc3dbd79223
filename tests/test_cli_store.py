"""Only ``kg build`` creates a store: every command that reads one refuses a path that holds none,
with one line and exit code 2, and creates nothing there."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import NoStore
from kg.store import OxigraphStore, opened, store_exists

KG = str(Path(sys.executable).with_name("kg"))

#: every command that reads a store, with the arguments it needs besides --store
READERS = [
    ["stats"],
    ["query", "ASK {}"],
    ["export"],
    ["view", "-o", "{tmp}/v.html"],
    ["analyze", "--graphml", "{tmp}/g.graphml"],
    ["path", "A", "B"],
    ["eval", "{tmp}/gold"],
    ["entities"],
    ["show", "Someone"],
    ["merge", "A", "B", "--curation", "{tmp}/c.toml"],
    ["never-merge", "A", "B", "--curation", "{tmp}/c.toml"],
    ["split", "person/a", "--curation", "{tmp}/c.toml"],
    ["rename", "A", "B", "--curation", "{tmp}/c.toml"],
    ["retype", "A", "Person", "--curation", "{tmp}/c.toml"],
]


@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
@pytest.mark.parametrize("kind", ["missing", "empty folder"])
def test_a_reader_refuses_a_path_with_no_store(args: list[str], kind: str, tmp_path: Path) -> None:
    where = tmp_path / "typo-dir"
    (tmp_path / "gold").mkdir()
    (tmp_path / "gold" / "a.yaml").write_text("article: a.txt\n", encoding="utf-8")
    if kind == "empty folder":
        where.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    res = CliRunner().invoke(app, [a.replace("{tmp}", str(tmp_path)) for a in args] + ["--store", str(where)])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"kg: no store at {where}; build one with kg build\n"
    assert res.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing created: no folder, no file
    if kind == "empty folder":
        assert list(where.iterdir()) == []


def test_the_default_store_is_refused_too(tmp_path: Path) -> None:
    """A fresh folder with no output/store: ``kg stats`` says so, as a real process, in one line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    proc = subprocess.run([KG, "stats"], capture_output=True, text=True, cwd=tmp_path, timeout=60, env=env)
    assert proc.returncode == 2
    assert proc.stderr == "kg: no store at output/store; build one with kg build\n"
    assert not (tmp_path / "output").exists()


def test_serve_refuses_a_path_with_no_store_even_with_updates_on(tmp_path: Path) -> None:
    where = tmp_path / "nope"
    proc = subprocess.run([KG, "serve", "--port", "0", "--store", str(where), "--allow-update", "--token", "t"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == f"kg: no store at {where}; build one with kg build\n"
    assert not where.exists()


def test_opened_refuses_and_creates_nothing_unless_asked(tmp_path: Path) -> None:
    where = tmp_path / "s"
    with pytest.raises(NoStore):
        with opened(where):
            pass
    assert not where.exists() and not store_exists(where)
    with opened(where, create=True) as st:
        assert len(st) == 0
    assert store_exists(where)
    with opened(where) as st:  # a store now, though an empty one
        assert len(st) == 0
    assert store_exists(":memory:") and store_exists("sparql+http://127.0.0.1:1/sparql")


def test_a_built_store_is_read(tmp_path: Path) -> None:
    OxigraphStore(tmp_path / "s").close()
    res = CliRunner().invoke(app, ["stats", "--store", str(tmp_path / "s")])
    assert res.exit_code == 0 and "articles" in res.stdout
