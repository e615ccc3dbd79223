"""kg serve: its options, the update token (from a file, the environment or, with a warning, the flag)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from ..config import load_settings
from ..errors import KgError, UsageError
from ..sparql.pool import DEFAULT_MEMORY
from .app import StoreOpt, _fail, app, err


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (0.0.0.0: every interface)"),
    port: int = typer.Option(7878, "--port", "-p", help="port (0 picks a free one; the URL is printed)"),
    store: Optional[str] = StoreOpt,
    timeout: float = typer.Option(30.0, "--timeout", help="seconds a query may run before it is stopped"),
    allow_update: bool = typer.Option(False, "--allow-update", help="accept SPARQL Update and Graph Store writes"),
    token: Optional[str] = typer.Option(None, "--token", help="bearer token that updates must carry; every user "
                                        "of the machine sees it in ps: prefer --token-file or KG_TOKEN"),
    token_file: Optional[Path] = typer.Option(None, "--token-file", help="file that holds the bearer token "
                                              "(its first line); or set KG_TOKEN"),
    cors: Optional[str] = typer.Option(None, "--cors", help="one origin allowed to read across origins"),
    base: Optional[str] = typer.Option(None, "--base", help="base of the entity IRIs (default from settings); "
                                       "given here, also the base IRI of queries (else the endpoint's URL)"),
    max_rows: int = typer.Option(10_000, "--max-rows", help="most rows a SELECT's answer holds (a longer one is "
                                 "cut, and says so); 0: no cap. Graphs are never cut"),
    max_body: int = typer.Option(1_000_000, "--max-body", help="largest request body in bytes (413 above)"),
    workers: int = typer.Option(2, "--workers", help="query worker processes (and one more kept for light queries)"),
    max_memory: int = typer.Option(DEFAULT_MEMORY, "--max-memory", help="MB of memory a query may take in its "
                                   "worker (0: no limit)"),
    read_timeout: float = typer.Option(15.0, "--read-timeout", help="seconds a connection has to send its whole "
                                       "request (head and body) before it is closed"),
    max_connections: int = typer.Option(512, "--max-connections", help="open connections at most; past it the "
                                        "oldest idle one, or one still sending its request, is closed"),
) -> None:
    """Serve SPARQL (1.1 Protocol), a query page, entity pages and the network view over HTTP."""
    from ..serve.config import ServeConfig
    from ..serve.server import serve as run_server
    from ..serve.server import shown_store

    try:
        settings = load_settings(store=store, base=base)
        token = _serve_token(token, token_file, allow_update)
        config = ServeConfig(store=settings.store, host=host, port=port, timeout=timeout, allow_update=allow_update,
                             token=token, cors=cors, base=settings.base, max_rows=max_rows, max_body=max_body,
                             workers=workers, query_base=base, max_memory=max_memory, read_timeout=read_timeout,
                             max_connections=max_connections)

        def announce(url: str, pool: object) -> None:
            mode = "updates with the token" if allow_update else "read-only"
            if getattr(pool, "remote", False):
                sandbox = "; queries run on the server"
            else:
                sandbox = "" if getattr(pool, "sandboxed", False) else "; workers not network-isolated"
            limited = getattr(pool, "memory_limited", True) or not max_memory
            unlimited = "" if limited else "; no memory limit on this platform"
            sys.stdout.write(f"kg serve: {url} (store {shown_store(settings.store)}, {mode}, timeout {timeout:g} s"
                             f"{sandbox}{unlimited})\n")
            sys.stdout.flush()

        run_server(config, announce=announce)
    except KgError as e:
        _fail(e)


def _serve_token(flag: Optional[str], file: Optional[Path], updates: bool) -> Optional[str]:
    """The bearer token of ``kg serve``: ``--token-file``, else ``--token`` (with a warning: a command
    line is public on the machine), else ``KG_TOKEN`` when updates are on."""
    import os

    if flag is not None and file is not None:
        raise UsageError("give the token once: --token-file FILE (or KG_TOKEN), not also --token")
    if file is not None:
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"cannot read --token-file {file}: {getattr(e, 'strerror', None) or e}") from e
        if not lines or not lines[0].strip():
            raise UsageError(f"--token-file {file} is empty; put the token on its first line")
        if os.name == "posix" and file.stat().st_mode & 0o077:
            err.print(f"kg serve: warning: {file} can be read by other users; chmod 600 it", markup=False,
                      highlight=False)
        return lines[0].strip()
    if flag is not None:
        err.print("kg serve: warning: --token is visible to every user of this machine (ps); use --token-file "
                  "FILE or KG_TOKEN", highlight=False)
        return flag
    return (os.environ.get("KG_TOKEN") or None) if updates else None
