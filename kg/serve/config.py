"""What ``kg serve`` is told (``ServeConfig``) and the checks it makes of it before it starts."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UsageError
from ..sparql.pool import DEFAULT_MEMORY, WorkerOptions, WorkerPool
from ..store import is_remote


@dataclass(frozen=True)
class ServeConfig:
    """Everything ``kg serve`` is told; ``check_config`` says what is wrong with it."""

    store: str
    host: str = "127.0.0.1"
    port: int = 7878
    timeout: float = 30.0
    allow_update: bool = False
    token: str | None = None
    cors: str | None = None
    base: str = "https://kg.example.org/"
    #: most rows of a SELECT's answer (0: no cap); graphs are never cut
    max_rows: int = 10_000
    max_body: int = 1_000_000
    workers: int = 2
    #: workers kept for light requests (``kg.sparql.cost``), beside ``workers``
    reserved: int = 1
    #: MB a query may take in a worker (0: no limit)
    max_memory: int = DEFAULT_MEMORY
    #: seconds a connection has to send its whole request (head and body)
    read_timeout: float = 15.0
    #: open connections at most (past it the oldest still sending its request, or idle, is closed)
    max_connections: int = 512
    #: base IRI of queries and updates (relative IRIs); None: the endpoint's own URL
    query_base: str | None = None


def check_config(c: ServeConfig) -> None:
    """Raise ``UsageError`` for settings that make no sense or would be unsafe."""
    if c.allow_update and not c.token:
        raise UsageError("--allow-update needs a token (--token-file FILE, or KG_TOKEN): updates are only taken "
                         "with 'Authorization: Bearer T'")
    if c.allow_update and is_remote(c.store):
        raise UsageError("--allow-update is not offered over a SPARQL server (--store sparql+http://...): it takes "
                         "writes itself (kg build --store URL); serve it read-only")
    if c.token is not None and not c.allow_update:
        raise UsageError("--token is only used with --allow-update")
    if c.token is not None and (not c.token.strip() or any(ch.isspace() or ord(ch) < 33 for ch in c.token)):
        raise UsageError("--token must be non-empty and contain no spaces or control characters")
    if c.cors is not None and not re.fullmatch(r"https?://[^/\s*?#@]+", c.cors):
        raise UsageError(f"--cors takes one origin such as http://localhost:3000 (scheme://host[:port], no path), "
                         f"not {c.cors!r}; allowing every origin is not offered")
    if not 0 < c.timeout <= 86_400:
        raise UsageError("--timeout must be a number of seconds above 0")
    if not 0 <= c.port <= 65_535:
        raise UsageError("--port must be between 0 and 65535 (0 picks a free port)")
    if c.max_body < 1 or c.workers < 1:
        raise UsageError("--max-body and --workers must be at least 1")
    if c.max_rows < 0 or c.max_memory < 0:
        raise UsageError("--max-rows and --max-memory must be 0 (no cap) or more")
    if not 0 < c.read_timeout <= 3_600:
        raise UsageError("--read-timeout must be a number of seconds above 0")
    if c.max_connections < 8:
        raise UsageError("--max-connections must be at least 8")
    if not re.fullmatch(r"https?://[^\s<>\"]+/", c.base):
        raise UsageError(f"base IRI {c.base!r} must be an absolute http(s) IRI ending in '/'")
    if c.query_base is not None and not re.fullmatch(r"https?://[^\s<>\"]+/", c.query_base):
        raise UsageError(f"base IRI {c.query_base!r} must be an absolute http(s) IRI ending in '/'")


def worker_pool(c: ServeConfig) -> WorkerPool:
    """The pool of query workers ``c`` asks for (not started)."""
    return WorkerPool(c.store, size=c.workers, writer=c.allow_update, base=c.base, reserved=c.reserved,
                      options=WorkerOptions(max_memory=c.max_memory or None))
