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
