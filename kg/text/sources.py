"""Input files, folders and standard input -> ``Article`` objects, with a stable id and a content hash.

Formats (chosen by suffix; a file named on the command line with another suffix is read as text):

- ``.txt``: one article. UTF-8 (with or without BOM), UTF-16 or UTF-32 with BOM, else Windows-1252
  when the bytes are valid Windows-1252 *and* read like Western text. Anything else (NUL bytes,
  bytes Windows-1252 leaves undefined such as 0x81, mostly control characters, mostly non-ASCII
  letters after a Windows-1252 decode) is reported as binary or undecodable, never guessed.
- ``.html`` / ``.htm``: one article; text, title, date and URL from trafilatura (no network).
  ``Article.text`` is the text trafilatura extracts.
- ``.jsonl``: one article a line, an object with ``text`` and optionally ``id``, ``title``, ``date``
  and ``url`` (strings; ``id`` may be a number). A bad line is reported as ``FILE:LINE``; the other
  lines are read. Blank lines are ignored.
- ``-``: standard input, one article (HTML if it starts like an HTML page, else text).

An article may be at most ``max_bytes`` bytes (``kg.config.DEFAULT_MAX_ARTICLE_BYTES``, 4 MiB; the
setting ``max_article_bytes``): a ``.txt`` or ``.html`` file, standard input, or one line of a ``.jsonl``
file (its JSON, escapes and other fields included). A longer one is skipped with one line, and at
most ``max_bytes + 1`` of its bytes are read. Only regular files are read: a FIFO, a device or a
socket (in a folder, named, or reached through a link) is skipped without being opened.

Ids (the article IRI is minted from them, so they must be stable and unique):

- a file's id is its path relative to the folder named on the command line, without the suffix,
  with ``/`` between folders (``2024/03/story``); a file directly in that folder, or named on the
  command line, has its stem as id (``story``: the seeds keep their file stems);
- a JSONL record's id is its ``id`` field, else the file's id, a hyphen and the line number
  (``crawl-17``);
- standard input is ``stdin-`` and the first 12 hex digits of the content hash;
- an id already used earlier in the same run (say ``story.txt`` and ``story.html`` side by side,
  or two folders named on the command line that both hold ``story.txt``) gets ``~2``, ``~3``, ...
  in input order, and a note says so. The same inputs in the same order always give the same ids.

Folders are read recursively in sorted order; hidden files and folders (name starting with ".")
are left out. A file named twice is read once. A symbolic link inside a folder is read only if it
leads to a file inside that folder, unless ``follow_symlinks``; links that loop or lead nowhere are
reported. Bad inputs (empty, whitespace only, binary, undecodable, mixing encodings, unreadable
files and folders, a record that cannot be read) are reported as ``Skipped``, never raised, so one
bad input does not stop a build. ``Article.text`` never holds lone surrogates (they become U+FFFD) and has ``\\n`` line ends.
"""
from __future__ import annotations

import codecs
import errno
import hashlib
import json
import os
import re
import stat
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from ..config import DEFAULT_MAX_ARTICLE_BYTES
from ..errors import UsageError
from ..model.facts import Article
from ..nlp.hygiene import is_blank

TEXT_SUFFIXES = (".txt",)
HTML_SUFFIXES = (".html", ".htm")
JSONL_SUFFIXES = (".jsonl",)
SUFFIXES = TEXT_SUFFIXES + HTML_SUFFIXES + JSONL_SUFFIXES
STDIN = "-"

#: Share of control characters above which decoded text is taken for binary data.
MAX_CONTROL_SHARE = 0.10
#: Share of non-ASCII letters above which a Windows-1252 decode is taken for another encoding.
MAX_CP1252_NON_ASCII_SHARE = 0.30

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_HTML_START = re.compile(r"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head)\b", re.I | re.S)


@dataclass(frozen=True)
class Skipped:
    """An input that was not ingested, and why (one line, names the file)."""

    path: str
    reason: str

    @property
    def line(self) -> str:
        """``PATH: REASON`` on one line, whatever the file name holds."""
        return one_line(f"{self.path}: {self.reason}")


@dataclass(frozen=True)
class Note:
    """Something the user should know about an input that was still ingested (one line)."""

    path: str
    message: str

    @property
    def line(self) -> str:
        return one_line(f"{self.path}: {self.message}")


def one_line(text: str) -> str:
    """Control characters and line breaks escaped, so a message stays on one line."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", lambda m: repr(m.group())[1:-1], text)


def content_hash(text: str) -> str:
    """sha256 of the article text: the same text always gives the same hash."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ----- decoding ----------------------------------------------------------------------------------

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16: FF FE 00 00 starts like FF FE
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
UNDECODABLE = "is binary or not in a known text encoding (UTF-8, UTF-16/32 with BOM, Windows-1252)"


def _looks_binary(text: str) -> bool:
    controls = len(_CONTROL.findall(text))
    return controls > 0 and controls > MAX_CONTROL_SHARE * max(1, len(text) - text.count(" "))


def _plausible_cp1252(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return True
    non_ascii = sum(1 for c in letters if not c.isascii())
    return non_ascii <= MAX_CP1252_NON_ASCII_SHARE * len(letters)


#: A UTF-8 sequence of a character that Western text in UTF-8 holds (Latin-1 and Latin Extended
#: letters, general punctuation such as curly quotes and dashes, the euro sign); as Windows-1252
#: bytes each reads as mojibake (\u00c3\u00a9 for \u00e9, \u00e2\u20ac\u201c for \u2013).
_WESTERN_UTF8 = re.compile(rb"[\xc2-\xc9][\x80-\xbf]|\xe2\x80[\x90-\xba]|\xe2\x82\xac")
#: Single-byte Western code pages: a text that is not UTF-8 decodes in them whatever it holds.
_WESTERN_CODECS = {"cp1252", "iso8859_1", "iso8859_15", "ascii"}


def _mixed_lines(data: bytes) -> tuple[int, int] | None:
    """For bytes that are not UTF-8 as a whole: the first line that is (or holds) UTF-8 text of
    Western characters and the first line that is not UTF-8, if there are both; else None."""
    utf8_line = other_line = 0
    for n, line in enumerate(data.split(b"\n"), 1):
        try:
            line.decode("utf-8")
            is_utf8 = not line.isascii() and _WESTERN_UTF8.search(line) is not None
        except UnicodeDecodeError:
            other_line = other_line or n
            is_utf8 = _WESTERN_UTF8.search(line) is not None  # both in one line
        if is_utf8:
            utf8_line = utf8_line or n
        if utf8_line and other_line:
            return utf8_line, other_line
    return None


def _codec(name: str) -> str | None:
    try:
        return codecs.lookup(name).name.replace("-", "_")
    except LookupError:
        return None


def decode_or_reason(data: bytes, declared: str | None = None) -> tuple[str | None, str]:
    """Bytes -> (text, "") by BOM, UTF-8, a declared charset, then Windows-1252; (None, why) if
    none fits, or if the bytes mix UTF-8 with a single-byte code page (never stored as mojibake)."""
    text: str | None = None
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                return None, UNDECODABLE
            break
    else:
        if b"\x00" in data:
            return None, UNDECODABLE
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        charset = _codec(declared) if declared else None
        western = False
        if text is None and charset:
            try:
                text = data.decode(charset)
                western = charset in _WESTERN_CODECS
            except UnicodeDecodeError:
                text = None
        if text is None:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                return None, UNDECODABLE
            if not _plausible_cp1252(text):
                return None, UNDECODABLE
            western = True
        mixed = _mixed_lines(data) if western else None
        if mixed is not None:
            return None, (f"mixes UTF-8 (line {mixed[0]}) with another encoding (line {mixed[1]}); "
                          "convert it to UTF-8 (kg does not guess)")
    if _looks_binary(text):
        return None, UNDECODABLE
    return text, ""


def decode(data: bytes, declared: str | None = None) -> str | None:
    """Bytes -> text (see ``decode_or_reason``); None if they cannot be read as text."""
    return decode_or_reason(data, declared)[0]


def _normalize_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    return text


def _article(article_id: str, text: str, path: str, **meta: str | None) -> Article | Skipped:
    text = _normalize_text(text)
    if is_blank(text):
        return Skipped(path, "is empty (nothing but whitespace or invisible characters)")
    return Article(id=article_id, text=text, path=path, content_hash=content_hash(text), **meta)


# ----- one input ---------------------------------------------------------------------------------


def size_text(n: int) -> str:
    """A number of bytes for a message: ``512 bytes``, ``3.5 KiB``, ``4 MiB``."""
    if n < 1024:
        return f"{n} bytes"
    units = ("KiB", "MiB", "GiB")
    value, i = n / 1024, 0
    while value >= 1024 and i < len(units) - 1:
        value, i = value / 1024, i + 1
    return f"{value:.1f}".removesuffix(".0") + f" {units[i]}"


def too_long(max_bytes: int, size: int | None = None, line: bool = False) -> str:
    """Why an article over the cap is skipped (its ``size`` when known), and how to read it."""
    what = "is a line of more than" if line else "holds more than" if size is None else f"is {size_text(size)}, more than"
    return (f"{what} the {size_text(max_bytes)} an article may be (--max-article-bytes or KG_MAX_ARTICLE_BYTES "
            "raise the cap)")


def not_regular(mode: int) -> str | None:
    """Why a file of ``mode`` is not read (a FIFO, a device, a socket), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a character device" if stat.S_ISCHR(mode)
            else "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a folder" if stat.S_ISDIR(mode) else "not a regular file")
    return f"is {kind}, not a regular file (not opened)"


def open_regular(path: Path) -> tuple[int, os.stat_result] | str:
    """A read-only descriptor of ``path`` and its status, or why not: only a regular file is opened
    (checked before, so a FIFO never blocks and a device is never touched, and after, on the descriptor)."""
    try:
        why = not_regular(os.stat(path).st_mode)
        if why is not None:
            return why
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        return f"cannot be read: {err.strerror or err}"
    st = os.fstat(fd)
    why = not_regular(st.st_mode)  # replaced between the two looks
    if why is not None:
        os.close(fd)
        return why
    return fd, st


def read_capped(fh: BinaryIO, max_bytes: int) -> bytes | None:
    """At most ``max_bytes`` bytes from ``fh``; None if it holds more (``max_bytes + 1`` are read to know)."""
    data = fh.read(max_bytes + 1)
    return None if len(data) > max_bytes else data


def read_file(path: Path, article_id: str | None = None,
              max_bytes: int = DEFAULT_MAX_ARTICLE_BYTES) -> Article | Skipped:
    """Read one text or HTML file as an article, or say why it cannot be."""
    opened = open_regular(path)
    if isinstance(opened, str):
        return Skipped(str(path), opened)
    fd, st = opened
    if st.st_size > max_bytes:
        os.close(fd)
        return Skipped(str(path), too_long(max_bytes, st.st_size))
    try:
        with os.fdopen(fd, "rb") as fh:
            data = read_capped(fh, max_bytes)
    except OSError as err:
        return Skipped(str(path), f"cannot be read: {err.strerror or err}")
    if data is None:  # it grew since its size was read
        return Skipped(str(path), too_long(max_bytes))
    aid = article_id if article_id is not None else path.stem
    if path.suffix.lower() in HTML_SUFFIXES:
        return read_html(data, aid, str(path))
    return read_text(data, aid, str(path))


def read_text(data: bytes, article_id: str, where: str) -> Article | Skipped:
    """A text article from bytes."""
    if not data.strip():
        return Skipped(where, "is empty" if not data else "is empty (whitespace only)")
    text, why = decode_or_reason(data)
    if text is None:
        return Skipped(where, why)
    return _article(article_id, text, where)


def read_html(data: bytes, article_id: str, where: str) -> Article | Skipped:
    """An article from an HTML page: trafilatura's main text and metadata, no network."""
    if not data.strip():
        return Skipped(where, "is empty" if not data else "is empty (whitespace only)")
    m = _META_CHARSET.search(data[:4096])
    html, why = decode_or_reason(data, declared=m.group(1).decode("ascii") if m else None)
    if html is None:
        return Skipped(where, why)
    import trafilatura

    try:
        doc = trafilatura.bare_extraction(html, with_metadata=True, include_comments=False)
    except Exception as err:  # noqa: BLE001 - a third-party parser on arbitrary input
        return Skipped(where, f"is not an HTML page trafilatura can read ({type(err).__name__})")
    if doc is None or isinstance(doc, dict) or not (doc.text or "").strip():  # a dict only with as_dict=True
        return Skipped(where, "holds no article text (trafilatura found none)")

    def field(value: object) -> str | None:
        return value.strip() or None if isinstance(value, str) else None

    return _article(article_id, doc.text or "", where, title=field(doc.title), date=field(doc.date), url=field(doc.url))


def read_jsonl(path: Path, file_id: str | None = None,
               max_bytes: int = DEFAULT_MAX_ARTICLE_BYTES) -> Iterator[Article | Skipped]:
    """Articles from a JSON-lines file, one object a line; each bad line (and each line over
    ``max_bytes``, never read whole) is reported as ``FILE:LINE``."""
    fid = file_id if file_id is not None else path.stem
    opened = open_regular(path)
    if isinstance(opened, str):
        yield Skipped(str(path), opened)
        return
    with os.fdopen(opened[0], "rb") as fh:
        head = fh.read(8192)
        if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            yield Skipped(str(path), "is binary, not JSON lines")
            return
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            yield Skipped(str(path), "is UTF-16; JSON lines must be UTF-8")
            return
        fh.seek(0)
        seen_any = False
        for lineno, raw in enumerate(_lines(fh, max_bytes), 1):
            if raw is None:
                seen_any = True
                yield Skipped(f"{path}:{lineno}", too_long(max_bytes, line=True))
                continue
            if lineno == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[3:]
            if not raw.strip():
                continue
            seen_any = True
            yield _record(raw, f"{path}:{lineno}", f"{fid}-{lineno}")
        if not seen_any:
            yield Skipped(str(path), "is empty")


def _lines(fh: BinaryIO, max_bytes: int) -> Iterator[bytes | None]:
    """The lines of ``fh``; None for a line of more than ``max_bytes`` bytes (its newline not
    counted), of which only ``max_bytes + 1`` bytes at a time are held."""
    while line := fh.readline(max_bytes + 2):
        if len(line.rstrip(b"\r\n")) <= max_bytes:
            yield line
            continue
        while not line.endswith(b"\n") and (line := fh.readline(max_bytes + 2)):
            pass
        yield None


def _record(raw: bytes, where: str, fallback_id: str) -> Article | Skipped:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return Skipped(where, f"is not UTF-8 (byte {err.start + 1})")
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as err:
        return Skipped(where, f"is not valid JSON ({err.msg} at column {err.colno})")
    except RecursionError:
        return Skipped(where, "is not valid JSON (nested too deeply)")
    except ValueError as err:  # a number Python will not convert (over 4,300 digits)
        return Skipped(where, f"is not JSON kg can read ({one_line(str(err))[:120]})")
    if not isinstance(rec, dict):
        return Skipped(where, f"is a JSON {type(rec).__name__}, not an object with a \"text\"")
    text = rec.get("text")
    if not isinstance(text, str):
        return Skipped(where, 'has no "text" string')
    meta: dict[str, str | None] = {}
    for name in ("title", "date", "url"):
        value = rec.get(name)
        if value is not None and not isinstance(value, str):
            return Skipped(where, f'has a "{name}" that is not a string')
        meta[name] = _normalize_text(value).strip() or None if isinstance(value, str) else None
    rid = rec.get("id")
    if isinstance(rid, bool) or (rid is not None and not isinstance(rid, (str, int, float))):
        return Skipped(where, 'has an "id" that is not a string or a number')
    rid = _normalize_text(str(rid)).strip() if rid is not None else ""
    return _article(rid or fallback_id, text, where, **meta)


def read_stdin(data: bytes | None = None, max_bytes: int = DEFAULT_MAX_ARTICLE_BYTES) -> Article | Skipped:
    """Standard input as one article; id ``stdin-<12 hex of the content hash>``."""
    if data is None:
        if stdin_closed():
            return Skipped("<stdin>", CLOSED)
        data = read_capped(sys.stdin.buffer, max_bytes)
        if data is None:
            return Skipped("<stdin>", too_long(max_bytes))
    elif len(data) > max_bytes:
        return Skipped("<stdin>", too_long(max_bytes, len(data)))
    text = decode(data) if data.strip() else None
    if text is not None and _HTML_START.match(text[:2048]):
        res = read_html(data, "stdin", "<stdin>")
    else:
        res = read_text(data, "stdin", "<stdin>")
    if isinstance(res, Article):
        from dataclasses import replace

        res = replace(res, id=f"stdin-{res.content_hash[:12]}")
    return res


CLOSED = "standard input is closed; pipe an article into kg (kg build - < story.txt) or name files"


def stdin_closed() -> bool:
    """Whether there is no standard input to read (``kg build - <&-``: Python then has no ``sys.stdin``)."""
    stdin = sys.stdin
    return stdin is None or getattr(stdin, "closed", False) or getattr(stdin, "buffer", None) is None


# ----- many inputs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    """One input to read: a file (with the id its location gives), standard input, or something
    found in a folder that cannot be read (``problem`` says why; it is reported as skipped)."""

    path: Path
    id: str
    problem: str | None = None
    link: bool = False  # reached through a symbolic link in a folder

    @property
    def is_stdin(self) -> bool:
        return str(self.path) == STDIN and self.problem is None

    @property
    def kind(self) -> str:
        if self.problem is not None:
            return "skipped"
        if self.is_stdin:
            return "stdin"
        suffix = self.path.suffix.lower()
        return "jsonl" if suffix in JSONL_SUFFIXES else "html" if suffix in HTML_SUFFIXES else "text"


def _not_a_file(path: Path) -> str | None:
    """Why the path an article name leads to is not read (a FIFO, a device, a socket, unreadable), or None."""
    try:
        return not_regular(os.stat(path).st_mode)
    except OSError as err:
        return f"cannot be read: {err.strerror or err}"


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _walk(root: Path, follow_symlinks: bool = False) -> list[Input]:  # noqa: C901 (16): one branch per kind of unreadable path
    """Article files under ``root``, hidden ones left out, sorted by their path below ``root``, and
    what cannot be read there: a folder that cannot be listed, a symbolic link that loops or leads
    nowhere, a link that leads out of ``root`` (followed only with ``follow_symlinks``).

    A link to a file inside ``root`` is read; a link to a folder inside ``root`` is not walked (its
    files are found by their own path). With ``follow_symlinks`` every link is followed, and a link
    back to a folder being walked is reported as a loop.
    """
    top = os.path.realpath(root)
    found: list[tuple[tuple[str, ...], Input]] = []

    def report(rel: tuple[str, ...], path: Path, why: str) -> None:
        found.append((rel, Input(path, "/".join(rel), why)))

    def walk(folder: Path, rel: tuple[str, ...], ancestors: frozenset[str]) -> None:
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as err:
            report(rel, folder, f"is a folder that cannot be read: {err.strerror or err}")
            return
        for e in entries:
            if e.name.startswith("."):
                continue
            path, here = folder / e.name, (*rel, e.name)
            article = Path(e.name).suffix.lower() in SUFFIXES
            try:
                link = e.is_symlink()
                if link:
                    os.stat(path)  # ELOOP, ENOENT: a loop, or a link to nothing
                is_dir = e.is_dir()
            except OSError as err:
                if link and (article or not Path(e.name).suffix):
                    why = "a loop" if err.errno == errno.ELOOP else "a link to nothing"
                    report(here, path, f"is a symbolic link that leads nowhere ({why})")
                elif not link and (article or e.is_dir(follow_symlinks=False)):
                    report(here, path, f"cannot be read: {err.strerror or err}")
                continue
            if not is_dir and not article:
                continue
            odd = None if is_dir else _not_a_file(path)
            if odd is not None:
                report(here, path, odd)
                continue
            real = os.path.realpath(path) if link else ""
            if link and not follow_symlinks:
                if _inside(real, top):
                    if is_dir:
                        continue  # its files are found by their own path
                else:
                    what = "folder" if is_dir else "file"
                    report(here, path, f"is a symbolic link to a {what} outside {root} ({real}); not followed "
                                       "(--follow-symlinks reads it)")
                    continue
            if not is_dir:
                found.append((here, Input(path, _relative_id(here), link=link)))
                continue
            real = real or os.path.realpath(path)
            if real in ancestors:
                report(here, path, f"is a symbolic link loop (it leads back to {real})")
                continue
            walk(path, here, ancestors | {real})

    walk(root, (), frozenset({top}))
    return [item for _, item in sorted(found, key=lambda f: f[0])]


def _relative_id(rel: tuple[str, ...]) -> str:
    return "/".join([*rel[:-1], Path(rel[-1]).stem])


def inputs(paths: Iterable[str | Path], follow_symlinks: bool = False) -> list[Input]:
    """Files named, and the article files inside folders named (recursively, sorted), with ids;
    what cannot be read inside a folder is an ``Input`` with a ``problem``, reported when read."""
    out: list[Input] = []
    seen: set[str] = set()
    stdin = False
    for p in map(Path, paths):
        if str(p) == STDIN:
            if stdin:
                raise UsageError("standard input ('-') can be given only once")
            if stdin_closed():
                raise UsageError(CLOSED)
            stdin = True
            out.append(Input(p, "stdin"))
            continue
        if p.is_dir():
            found = _walk(p, follow_symlinks)
        elif p.is_file():
            found = [Input(p, p.stem)]
        elif os.path.exists(p):  # a FIFO, a device, a socket: said when read, never opened
            found = [Input(p, p.stem, not_regular(os.stat(p).st_mode) or "is not a regular file")]
        else:
            raise UsageError(f"{p} does not exist: give article files (.txt, .html, .jsonl), folders that hold them, or -")
        direct = {os.path.realpath(i.path) for i in found if not i.link and i.problem is None}
        for item in found:
            if item.problem is not None:
                out.append(item)
                continue
            key = os.path.realpath(item.path)
            if item.link and key in direct:
                continue  # a link to a file of the folder: read by its own name
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def expand(paths: Iterable[str | Path]) -> list[Path]:
    """The files ``inputs`` would read (``-`` for standard input), in order."""
    return [i.path for i in inputs(paths) if i.problem is None]


def read_input(item: Input, max_bytes: int = DEFAULT_MAX_ARTICLE_BYTES) -> Iterator[Article | Skipped]:
    """The articles of one input (one, or one a line for JSON lines); whatever goes wrong reading
    it is a ``Skipped``, so one bad input never stops the others."""
    if item.problem is not None:
        yield Skipped(str(item.path), item.problem)
        return
    try:
        if item.kind == "stdin":
            yield read_stdin(max_bytes=max_bytes)
        elif item.kind == "jsonl":
            yield from read_jsonl(item.path, item.id, max_bytes)
        else:
            yield read_file(item.path, item.id, max_bytes)
    except (OSError, ValueError, RecursionError, MemoryError) as err:
        yield Skipped(str(item.path), f"cannot be read ({type(err).__name__}: {err})")


def read_articles(paths: Iterable[str | Path], follow_symlinks: bool = False,
                  max_bytes: int = DEFAULT_MAX_ARTICLE_BYTES) -> Iterator[Article | Skipped | Note]:
    """Every article under the given paths, in a stable order, with the bad ones reported (and
    those over ``max_bytes``, see the module's docstring).

    The paths are checked at once (a missing one raises ``UsageError`` before anything is read);
    the files are read lazily, as the result is iterated.
    """
    if max_bytes < 1:
        raise UsageError(f"the largest article must be at least 1 byte, not {max_bytes}")
    return _read_all(inputs(paths, follow_symlinks), max_bytes)


def _read_all(items: list[Input], max_bytes: int) -> Iterator[Article | Skipped | Note]:
    taken: dict[str, str] = {}
    for item in items:
        for res in read_input(item, max_bytes):
            if isinstance(res, Article):
                key = unicodedata.normalize("NFC", res.id)  # the IRI segment is minted from the NFC form
                if key in taken:
                    n = 2
                    while f"{key}~{n}" in taken:
                        n += 1
                    new_id = f"{res.id}~{n}"
                    yield Note(res.path or str(item.path),
                               f"id {res.id!r} is already used by {taken[key]}; stored as {new_id!r}")
                    from dataclasses import replace

                    res = replace(res, id=new_id)
                    key = unicodedata.normalize("NFC", new_id)
                taken[key] = res.path or str(item.path)
            yield res
