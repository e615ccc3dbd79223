"""The docs (README.md and docs/*.md) name every command of the kg CLI and at least one name of each of
its options, and their examples run as written."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from kg.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: Each page of docs/ by its file name.
DOCS = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))}
ALL = "\n".join([README, *DOCS.values()])


def test_the_docs_are_there_and_the_readme_links_each() -> None:
    expected = {"cli.md", "inputs.md", "serve.md", "view-and-analysis.md", "resolution.md", "ontology.md", "quality.md",
                "benchmarks.md"}
    assert expected <= set(DOCS)
    assert all(f"(docs/{name})" in README for name in DOCS)
    assert len(README.splitlines()) <= 200


def test_every_command_and_option_is_in_the_docs() -> None:
    group = get_command(app)
    missing = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        if f"kg {name}" not in ALL:
            missing.append(f"kg {name}")
        for param in command.params:
            names = [o for o in (*param.opts, *param.secondary_opts) if o.startswith("-")]
            if names and not any(f"`{o}" in ALL or f" {o} " in ALL or f"[{o}" in ALL or f"{o}=" in ALL for o in names):
                missing.append(f"kg {name} {'/'.join(names)}")
    assert not missing, f"not in README.md nor docs/: {missing}"


def test_the_docs_links_lead_to_files() -> None:
    broken = []
    for name, text in [("README.md", README), *((f"docs/{n}", t) for n, t in DOCS.items())]:
        here = ROOT if name == "README.md" else ROOT / "docs"
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            if not (here / target).exists():
                broken.append(f"{name}: {target}")
    assert not broken, broken


def test_the_pyshacl_command_conforms() -> None:
    """The pyshacl line of docs/ontology.md, run as written from the repository root (``.venv/bin/`` is
    where the running interpreter's scripts are), says the committed graph conforms to the shapes alone."""
    lines = re.findall(r"^(\.venv/bin/pyshacl [^#\n]*)", DOCS["ontology.md"], re.M)
    assert len(lines) == 1, lines
    argv = shlex.split(lines[0])
    argv[0] = str(Path(sys.executable).with_name("pyshacl"))
    assert "-e" not in argv and "--ont-graph" not in argv  # the shapes alone
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0 and "Conforms: True" in proc.stdout, proc.stdout[-3000:] + proc.stderr[-2000:]


# --- the docs' examples, run as written on a build of the seeds ------------------------------------


@pytest.fixture(scope="module")
def seeds_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds built as ``make run`` builds them (into a folder of the test's own)."""
    work = tmp_path_factory.mktemp("readme")
    res = CliRunner().invoke(app, ["build", str(ROOT / "seeds"), "--store", str(work / "store"), "--out", str(work),
                                   "--workers", "1"])
    assert res.exit_code == 0, res.output
    return work / "store"


def _kg_lines(text: str, block_start: str) -> list[str]:
    """The ``kg ...`` command lines of the sh block of ``text`` that holds ``block_start``, comments cut."""
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        if block_start in block:
            return [re.split(r"\s#", line, maxsplit=1)[0].strip() for line in block.splitlines() if line.startswith("kg ")]
    raise AssertionError(f"no sh block with {block_start!r}")


def test_the_view_examples_run(seeds_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    lines = _kg_lines(DOCS["view-and-analysis.md"], "kg view --entity")
    assert len(lines) >= 4
    for line in lines:
        argv = shlex.split(line)[1:]
        res = CliRunner().invoke(app, [*argv, "--store", str(seeds_store)])
        assert res.exit_code == 0, (line, res.output)
        out = argv[argv.index("-o") + 1]
        assert (tmp_path / out).stat().st_size > 1000, line


def test_the_path_example_prints_what_the_readme_shows(seeds_store: Path) -> None:
    m = re.search(r"```\n\$ (kg path [^\n]+)\n(.*?)```", DOCS["view-and-analysis.md"], re.S)
    assert m is not None
    argv = shlex.split(m.group(1))[1:]
    res = CliRunner().invoke(app, [*argv, "--store", str(seeds_store)])
    assert res.exit_code == 0, res.output
    assert res.stdout == m.group(2)


def test_the_gold_example_declares_every_entity_it_names(tmp_path: Path) -> None:
    from kg.quality.evaluate import load_gold, undeclared

    m = re.search(r"```yaml\n(article: story\.txt.*?)```", DOCS["quality.md"], re.S)
    assert m is not None
    (tmp_path / "story.yaml").write_text(m.group(1), encoding="utf-8")
    golds = load_gold(tmp_path)
    assert golds[0].roles and golds[0].events and undeclared(golds) == []


def test_make_score_says_what_it_needs() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nscore:", 1)[1].split("\n\n", 1)[0]
    assert "test -d ../shared/eval" in recipe.splitlines()[1]  # checked before anything is built
    assert "--quiet" not in makefile.split("PIP_FLAGS ?=", 1)[1].splitlines()[0]  # pip names each package


@pytest.mark.model
def test_the_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Python example, run as written in a folder that holds (a copy of two of) the seeds."""
    blocks = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if "from kg import api" in b]
    assert len(blocks) == 1
    assert len(blocks[0].strip().splitlines()) <= 7  # five lines of code, an import and a blank line
    (tmp_path / "seeds").mkdir()
    for seed in sorted((ROOT / "seeds").glob("0[12]_*.txt")):
        (tmp_path / "seeds" / seed.name).write_bytes(seed.read_bytes())
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KG_STORE", raising=False)
    exec(compile(blocks[0], "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("['article', 'actor', 'action', 'target'") and int(printed.split()[-1]) > 5, printed
    assert (tmp_path / "graph.html").stat().st_size > 1000
