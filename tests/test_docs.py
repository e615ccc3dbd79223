"""The README documents every command of the kg CLI and at least one name of each of its options."""
from __future__ import annotations

from pathlib import Path

from typer.main import get_command

from kg.cli import app

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_every_command_and_option_is_in_the_readme() -> None:
    group = get_command(app)
    missing = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        if f"kg {name}" not in README:
            missing.append(f"kg {name}")
        for param in command.params:
            names = [o for o in (*param.opts, *param.secondary_opts) if o.startswith("-")]
            if names and not any(f"`{o}" in README or f" {o} " in README or f"[{o}" in README or f"{o}=" in README
                                 for o in names):
                missing.append(f"kg {name} {'/'.join(names)}")
    assert not missing, f"not in README.md: {missing}"


def test_the_readme_pyshacl_command_conforms() -> None:
    """The README's pyshacl line, run as written from the repository root (``.venv/bin/`` is where the
    running interpreter's scripts are), says the committed graph conforms to the shapes alone."""
    import re
    import shlex
    import subprocess
    import sys

    lines = re.findall(r"^(\.venv/bin/pyshacl [^#\n]*)", README, re.M)
    assert len(lines) == 1, lines
    argv = shlex.split(lines[0])
    argv[0] = str(Path(sys.executable).with_name("pyshacl"))
    assert "-e" not in argv and "--ont-graph" not in argv  # the shapes alone
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0 and "Conforms: True" in proc.stdout, proc.stdout[-3000:] + proc.stderr[-2000:]
