"""The one exception tree of kg; every error carries a code and says what to do.

    KgError
    ├── UsageError        bad arguments or settings (exit code 2)
    │   └── NoStore       a command that reads a store was given a path that holds none
    ├── InputError        an input file or line that cannot be read
    ├── ModelError        the spaCy pipeline cannot be loaded
    ├── StoreError        the graph store cannot be opened or written
    │   └── StoreLocked   another kg process holds the store
    ├── QueryError        a SPARQL query that cannot be parsed or run
    └── WorkerError       a worker process or the Dask cluster failed
"""
from __future__ import annotations


class KgError(Exception):
    """Base of every error kg raises on purpose; ``str(err)`` is a one-line message."""

    code = "E000"
    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class UsageError(KgError):
    """The command was called wrongly: a missing path, an unknown format, a bad setting."""

    code = "E001"
    exit_code = 2


class NoStore(UsageError):
    """A command that reads a store was pointed at a path holding none (only ``kg build`` creates one)."""

    code = "E002"

    def __init__(self, location: str) -> None:
        super().__init__(f"no store at {location}; build one with kg build")
        self.location = location


class InputError(KgError):
    """An input could not be read as an article (empty, binary, undecodable)."""

    code = "E010"


class ModelError(KgError):
    """The spaCy pipeline named in the settings is not installed or does not load."""

    code = "E020"


class StoreError(KgError):
    """The graph store could not be opened, read or written."""

    code = "E030"


class StoreLocked(StoreError):
    """Another process has the store open for writing."""

    code = "E031"


class QueryError(KgError):
    """A SPARQL query failed to parse or to run."""

    code = "E040"


class WorkerError(KgError):
    """A worker process or the Dask cluster failed (the machinery around an article, not the article)."""

    code = "E050"
