"""The kg command line: each command checks its arguments and calls one plain function.

Errors become one line on stderr and an exit code (0 ok, 1 some inputs failed or a
runtime error, 2 usage error); never a traceback for a known failure.
"""
from __future__ import annotations

import sys

from .app import app, err

# isort: off
# the commands register themselves on ``app``: this order is the order ``kg --help`` lists them in
from . import graph, serve, evaluate, entities  # noqa: F401
# isort: on

__all__ = ["app", "run"]


def run() -> None:
    """Entry point that also turns unexpected interrupts, and an operating-system error that no
    command turned into a ``KgError`` (a path, a permission, a full disk), into one line."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("kg: interrupted")
        sys.exit(130)
    except OSError as e:
        where = f": {e.filename}" if e.filename else ""
        err.print(f"kg: error: {e.strerror or e}{where}", markup=False, highlight=False)
        sys.exit(1)
