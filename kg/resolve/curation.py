"""Human decisions about entities, as data: ``curation.toml`` (read with tomllib, written by hand).

The file lives under version control beside the articles and is applied at every build by
``kg.resolve`` (the commands that edit it are ``kg.resolve.curate``), so a fix made once survives any
rebuild, even from an empty store::

    # comments above an entry stay with it when kg rewrites the file
    linking = "links.tsv"          # optional offline linking table (kg/resolve/linking.py), relative to this file

    [[merge]]                       # these name one real-world entity
    entities = ["organization/world-bank", "organization/wrold-bank"]
    note = "a typo in the article"

    [[never_merge]]                 # these are different entities, whatever the rules say
    entities = ["person/john-sorensen", "person/sorensen"]

    [[split]]                       # this IRI stands alone: no automatic rule joins it to anything
    entity = "person/moen"

    [[rename]]                      # the label of the entity this IRI belongs to
    entity = "organization/vna"
    label = "Valdorian News Agency"

    [[retype]]                      # the extractor got the type wrong
    entity = "organization/ostrova-lind"
    type = "Person"

Entities are named by their IRI below ``{base}entity/`` ("person/halvard-moen") or by a full
IRI. Every table may carry a ``note``. Unknown tables or keys are errors (a typo fails loudly).

The writer is small and deterministic: the header comment first, then ``linking``, then the
entries table by table (merge, never_merge, split, rename, retype), each sorted by the entities
it names, duplicates dropped. Comment lines directly above an entry (or inside it) are kept
with that entry; comments at the end of a line are not kept (use ``note``).
"""
from __future__ import annotations

import contextvars
import os
import re
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..errors import UsageError
from ..files import write_atomic

#: The tables of a curation file, in the order they are written.
TABLES = ("merge", "never_merge", "split", "rename", "retype")
#: Keys each table may hold, in the order they are written.
KEYS: dict[str, tuple[str, ...]] = {
    "merge": ("entities", "note"),
    "never_merge": ("entities", "note"),
    "split": ("entity", "note"),
    "rename": ("entity", "label", "note"),
    "retype": ("entity", "type", "note"),
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "merge": ("entities",),
    "never_merge": ("entities",),
    "split": ("entity",),
    "rename": ("entity", "label"),
    "retype": ("entity", "type"),
}
RETYPES = ("Person", "Organization", "Place")

DEFAULT_HEADER = [
    "# kg curation: human decisions about entities, applied at every build (see docs/resolution.md).",
    "# Entities are named by their IRI below {base}entity/ (\"person/halvard-moen\") or by a full IRI.",
    "# kg merge / split / rename / retype / never-merge edit this file; comment lines above an entry stay with it.",
]

_override: contextvars.ContextVar[Path | None] = contextvars.ContextVar("kg_curation", default=None)


@dataclass
class Entry:
    """One decision: its table, its values (strings or a list of strings), comment lines above it."""

    table: str
    values: dict[str, object]
    comments: list[str] = field(default_factory=list)

    @property
    def entities(self) -> list[str]:
        """The entity references this entry names (one for split, rename and retype)."""
        v = self.values.get("entities", self.values.get("entity"))
        return list(v) if isinstance(v, list) else [v] if isinstance(v, str) else []

    def sort_key(self) -> tuple[object, ...]:
        return (TABLES.index(self.table), sorted(self.entities), str(self.values.get("label", "")),
                str(self.values.get("type", "")), str(self.values.get("note", "")))


@dataclass
class Curation:
    """A curation file in memory: header comments, the optional linking table, the entries."""

    path: Path | None = None
    header: list[str] = field(default_factory=lambda: list(DEFAULT_HEADER))
    linking: str | None = None
    entries: list[Entry] = field(default_factory=list)
    #: comment lines after the last entry
    footer: list[str] = field(default_factory=list)

    def of(self, table: str) -> list[Entry]:
        return [e for e in self.entries if e.table == table]

    def add(self, table: str, comments: list[str] | None = None, **values: object) -> Entry:
        """Add a decision (an identical one already there is not repeated)."""
        values = {k: v for k, v in values.items() if v is not None}
        if "entities" in values:
            values["entities"] = sorted(dict.fromkeys(values["entities"]))  # type: ignore[call-overload]
        entry = Entry(table, values, list(comments or []))
        _check(entry, "")
        for e in self.entries:
            if e.table == table and e.values == values:
                return e
        self.entries.append(entry)
        return entry

    def remove(self, entries: list[Entry]) -> None:
        gone = {id(e) for e in entries}
        self.entries = [e for e in self.entries if id(e) not in gone]

    def linking_path(self) -> Path | None:
        """The linking table named in the file, relative to the file's folder."""
        if not self.linking:
            return None
        p = Path(self.linking)
        return p if p.is_absolute() or self.path is None else self.path.parent / p


# --- where the file is ------------------------------------------------------------------


@contextmanager
def using(path: Path | str | None) -> Iterator[None]:
    """Within the block, ``curation_path()`` is ``path`` (the ``--curation`` flag of a command)."""
    token = _override.set(Path(path) if path is not None else None)
    try:
        yield
    finally:
        _override.reset(token)


def curation_path(flag: Path | str | None = None, cwd: Path | None = None) -> Path:
    """The curation file: ``--curation``, else ``KG_CURATION``, else ``[tool.kg] curation``, else ./curation.toml."""
    if flag is not None:
        return Path(flag)
    if _override.get() is not None:
        return _override.get()  # type: ignore[return-value]
    env = os.environ.get("KG_CURATION")
    if env:
        return Path(env)
    here = cwd or Path.cwd()
    project = here / "pyproject.toml"
    if project.is_file():
        try:
            table = tomllib.loads(project.read_text(encoding="utf-8")).get("tool", {}).get("kg", {})
        except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError, RecursionError):
            table = {}
        value = table.get("curation") if isinstance(table, dict) else None
        if isinstance(value, str) and value:
            return here / value
    return here / "curation.toml"


# --- reading ------------------------------------------------------------------------------

_HEADER_LINE = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]\s*(#.*)?$")


def load(path: Path | str | None = None) -> Curation:
    """Read a curation file; a missing file is an empty curation (nothing is created)."""
    p = curation_path(path)
    if not p.exists():
        return Curation(path=p)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(f"cannot read curation file {p}: {err}") from err
    return parse(text, p)


def parse(text: str, path: Path | None = None) -> Curation:
    """Parse the text of a curation file (validated strictly), keeping comment lines with entries."""
    where = str(path) if path is not None else "curation"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UsageError(f"{where} is not valid TOML: {err}") from err
    except RecursionError as err:
        raise UsageError(f"{where} is not TOML kg can read: it is nested too deeply") from err
    unknown = sorted(set(data) - set(TABLES) - {"linking"})
    if unknown:
        raise UsageError(f"{where}: unknown key or table {unknown[0]!r}; expected linking or "
                         + ", ".join(f"[[{t}]]" for t in TABLES))
    linking = data.get("linking")
    if linking is not None and not isinstance(linking, str):
        raise UsageError(f"{where}: linking must be a string (the path of a CSV/TSV table)")
    for t in TABLES:
        if t in data and not (isinstance(data[t], list) and all(isinstance(x, dict) for x in data[t])):
            raise UsageError(f"{where}: {t} must be an array of tables, written [[{t}]]")

    # Comments: the lines before the first [[table]], then one part per entry.
    parts: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines():
        m = _HEADER_LINE.match(line)
        if m:
            parts.append((m.group(1), []))
        else:
            parts[-1][1].append(line)

    def is_comment(line: str) -> bool:
        return line.lstrip().startswith("#")

    def last_key(lines: list[str]) -> int:
        return max((j for j, line in enumerate(lines) if line.strip() and not is_comment(line)), default=-1)

    # The header is the comment block at the top, ended by a blank line or a key (a block that runs
    # straight into the first [[table]] line is that entry's comment instead).
    first = parts[0][1]
    top = 0
    while top < len(first) and is_comment(first[top]):
        top += 1
    if top == len(first) and len(parts) > 1:
        header, rest, pending = [], [], [c.strip() for c in first]
    else:
        header, rest = [c.strip() for c in first[:top]], first[top:]
        k = last_key(rest)
        header += [c.strip() for c in rest[: k + 1] if is_comment(c)]
        pending = [c.strip() for c in rest[k + 1 :] if is_comment(c)]
    entries: list[Entry] = []
    counters = {t: 0 for t in TABLES}
    for table, body in parts[1:]:
        assert table is not None
        if table not in TABLES:  # tomllib accepted it, so it is an unknown array of tables
            raise UsageError(f"{where}: unknown table [[{table}]]")
        k = last_key(body)
        values = data[table][counters[table]]
        counters[table] += 1
        entry = Entry(table, dict(values), pending + [c.strip() for c in body[: k + 1] if is_comment(c)])
        _check(entry, f"{where}: [[{table}]] entry {counters[table]}")
        entries.append(entry)
        pending = [c.strip() for c in body[k + 1 :] if is_comment(c)]
    if not text.strip():
        header = list(DEFAULT_HEADER)
    return Curation(path=path, header=header, linking=linking, entries=entries, footer=pending)


def _check(entry: Entry, where: str) -> None:
    table, values = entry.table, entry.values
    at = where or f"[[{table}]]"
    extra = sorted(set(values) - set(KEYS[table]))
    if extra:
        raise UsageError(f"{at}: unknown key {extra[0]!r}; [[{table}]] takes {', '.join(KEYS[table])}")
    for key in REQUIRED[table]:
        if key not in values:
            raise UsageError(f"{at}: missing {key!r}")
    for key, value in values.items():
        if key == "entities":
            if not (isinstance(value, list) and len(value) >= 2 and all(isinstance(v, str) and v for v in value)):
                raise UsageError(f"{at}: entities must be a list of two or more entity IRIs")
        elif not isinstance(value, str) or (key != "note" and not value.strip()):
            raise UsageError(f"{at}: {key} must be a non-empty string")
    if table == "retype" and values["type"] not in RETYPES:
        raise UsageError(f"{at}: type must be one of {', '.join(RETYPES)}, not {values['type']!r}")


# --- writing ------------------------------------------------------------------------------


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch) & 0xFFFF:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(v: object) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_string(str(x)) for x in v) + "]"
    return _string(str(v))


def _comment(line: str) -> str:
    line = line.strip().replace("\r", " ")
    return line if line.startswith("#") else f"# {line}"


def dumps(cur: Curation) -> str:
    """The file's text: deterministic, sorted, duplicates dropped; ``parse(dumps(c))`` gives ``c`` back."""
    lines = [_comment(c) for c in cur.header]
    if cur.linking:
        lines += ["", f"linking = {_string(cur.linking)}"]
    seen: set[tuple[str, str]] = set()
    for entry in sorted(cur.entries, key=Entry.sort_key):
        values = dict(entry.values)
        if "entities" in values:
            values["entities"] = sorted(dict.fromkeys(values["entities"]))  # type: ignore[call-overload]
        ident = (entry.table, repr(sorted(values.items())))
        if ident in seen:
            continue
        seen.add(ident)
        lines.append("")
        lines += [_comment(c) for c in entry.comments]
        lines.append(f"[[{entry.table}]]")
        for key in KEYS[entry.table]:
            if key in values:
                lines.append(f"{key} = {_value(values[key])}")
    if cur.footer:
        lines += [""] + [_comment(c) for c in cur.footer]
    return "\n".join(lines).lstrip("\n") + "\n"


def save(cur: Curation, path: Path | str | None = None) -> Path:
    """Write the file atomically (a temporary file beside it, then a rename)."""
    p = Path(path) if path is not None else cur.path or curation_path()
    write_atomic(p, dumps(cur).encode("utf-8"))
    cur.path = p
    return p


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock for a read-modify-write of the curation file ``path`` (another kg
    command waits for it), so that two commands that edit one file at once both land. The lock is
    taken on the folder that holds it (the file itself is replaced by a rename on every write), so
    no lock file is left in a work tree."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as err:
        raise UsageError(f"cannot lock curation file {path}: {err.strerror or err}") from err
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


# --- entity references --------------------------------------------------------------------


def to_iri(ref: str, base: str) -> str:
    """A reference from the file ("person/x" or a full IRI) as a full IRI."""
    ref = ref.strip()
    if re.match(r"^[a-z][a-z0-9+.-]*://", ref):
        return ref
    return f"{base}entity/{ref.lstrip('/')}"


def to_ref(iri: str, base: str) -> str:
    """How the file names an entity IRI: relative to ``{base}entity/`` when it is below it."""
    prefix = f"{base}entity/"
    return iri[len(prefix):] if iri.startswith(prefix) else iri
