"""Writing output files atomically: a temporary file beside the target, then a rename.

A reader never sees half a file, and a crash leaves the previous version in place.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import KgError, UsageError


def atomic_write(path: str | os.PathLike[str], write: Callable[[str], None], make_parents: bool = False) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then rename it over ``path``."""
    target = Path(path)
    try:
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        if not target.parent.is_dir():
            raise UsageError(f"cannot write {target}: directory {target.parent} does not exist; create it first")
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
    except OSError as err:
        raise KgError(f"cannot write {target}: {err.strerror or err}") from err
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise KgError(f"cannot write {target}: {err.strerror or err}") from err
        raise


def write_atomic(path: str | os.PathLike[str], data: bytes, make_parents: bool = True) -> None:
    """Write bytes to ``path`` atomically (fsynced before the rename)."""

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    atomic_write(path, write, make_parents=make_parents)


def make_folder(path: str | os.PathLike[str]) -> None:
    """Create an output folder (and its parents); a one-line ``KgError`` if it cannot be."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise KgError(f"cannot create folder {path}: {err.strerror or err}") from err
