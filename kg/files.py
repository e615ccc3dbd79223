"""Writing output files: a temporary file beside the target, then a rename, onto what may be replaced.

A reader never sees half a file, and a crash leaves the previous version in place. What ``path``
names decides how it is written (``target``):

- nothing, or a regular file: a temporary file in the same folder, renamed over it. An existing
  file keeps its permission bits; a new one gets ``0o666`` less the umask, as ``open`` would give;
- a symbolic link: the file it leads to is written (as above, in that file's folder); the link stays;
- a FIFO (named pipe): written in place, since a reader waits on it and a rename would replace it;
- a folder, a device or a socket: refused with one line, nothing written.

The temporary file is ``.NAME.kgPID-XXXXXXXX.tmp``. A run killed before its rename leaves one
behind; the next write into the same folder removes those of processes that no longer run (only
names of this pattern, only files of this user, never a live process's).
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import IO

from .errors import KgError, UsageError

#: kg's own temporary files: ``.NAME.kgPID-XXXXXXXX.tmp`` (8 random lowercase letters and digits).
_TEMP = re.compile(r"\..+\.kg(?P<pid>[0-9]+)-[0-9a-z]{8}\.tmp")


def _kind(mode: int) -> str | None:
    """What a file of ``mode`` is, when it is not something kg writes onto (None: a regular file or a FIFO)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return None
    return "not a regular file"


def target(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """Where a write to ``path`` goes and what is there now (None: nothing): ``path`` itself, or the
    file a symbolic link leads to. ``UsageError`` for a folder, a device or a socket."""
    p = Path(path)
    try:
        st = os.stat(p)  # follows links: what a write would reach
    except FileNotFoundError:
        st = None
    except OSError as err:
        what = "a symbolic link that loops" if err.errno == errno.ELOOP else err.strerror or str(err)
        raise UsageError(f"cannot write {p}: {what}") from err
    if st is not None and (kind := _kind(st.st_mode)) is not None:
        hint = "name a file" if kind == "a directory" else "name a regular file (or leave -o out for standard output)"
        raise UsageError(f"cannot write {p}: it is {kind}, not a file; {hint}")
    if p.is_symlink():
        p = Path(os.path.realpath(p))
    return p, st


def check_writable(path: str | os.PathLike[str]) -> Path:
    """``path`` if kg can write it (``target`` accepts it and its folder exists), else ``UsageError``;
    nothing is written. Commands call it before they read or build anything."""
    where, _ = target(path)
    if not where.parent.is_dir():
        raise UsageError(f"cannot write {path}: directory {where.parent} does not exist; create it first")
    return Path(path)


def remove_stale_temps(folder: Path) -> list[Path]:
    """Remove the temporary files a killed kg left in ``folder`` (kg's name pattern, this user's,
    of a process that no longer runs); the paths removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for e in entries:
        m = _TEMP.fullmatch(e.name)
        if m is None or _alive(int(m.group("pid"))):
            continue
        try:
            st = e.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid():
                os.unlink(e.path)
                removed.append(Path(e.path))
        except OSError:
            continue  # gone already, or not ours to remove
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or a number no process has: keep, to be safe)
    return True


def _temp_beside(where: Path) -> str:
    """A new, empty temporary file beside ``where``, created as ``open`` creates a file (0o666 less the umask)."""
    while True:
        tmp = where.parent / f".{where.name}.kg{os.getpid()}-{secrets.token_hex(4)}.tmp"
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666))
            return str(tmp)
        except FileExistsError:
            continue


def atomic_write(path: str | os.PathLike[str], write: Callable[[str], None], make_parents: bool = False) -> None:
    """Call ``write(file)`` to write ``path``: on a temporary file beside it, then renamed over it
    (a FIFO: on ``path`` itself); see the module's docstring for what ``path`` may be."""
    where, st = target(path)
    try:
        if make_parents:
            where.parent.mkdir(parents=True, exist_ok=True)
        if not where.parent.is_dir():
            raise UsageError(f"cannot write {path}: directory {where.parent} does not exist; create it first")
        if st is not None and stat.S_ISFIFO(st.st_mode):
            write(str(path))
            return
        remove_stale_temps(where.parent)
        tmp = _temp_beside(where)
    except OSError as err:
        raise KgError(f"cannot write {path}: {err.strerror or err}") from err
    try:
        write(tmp)
        if st is not None:
            _keep_owner_and_mode(tmp, st)
        os.replace(tmp, where)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise KgError(f"cannot write {path}: {err.strerror or err}") from err
        raise


def _keep_owner_and_mode(tmp: str, st: os.stat_result) -> None:
    """The replaced file's permission bits (and, where this user may set them, its owner and group)."""
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:
            pass  # not permitted: the new file is this user's, as any file this user writes
    os.chmod(tmp, stat.S_IMODE(st.st_mode))


def sync(fh: IO[bytes]) -> None:
    """Flush ``fh`` and, for a regular file, fsync it (a pipe has nothing to sync)."""
    fh.flush()
    if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
        os.fsync(fh.fileno())


def write_atomic(path: str | os.PathLike[str], data: bytes, make_parents: bool = True) -> None:
    """Write bytes to ``path`` as ``atomic_write`` does (fsynced before the rename)."""

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            fh.write(data)
            sync(fh)

    atomic_write(path, write, make_parents=make_parents)


def make_folder(path: str | os.PathLike[str]) -> None:
    """Create an output folder (and its parents); a one-line ``KgError`` if it cannot be."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise KgError(f"cannot create folder {path}: {err.strerror or err}") from err
