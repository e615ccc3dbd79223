"""Running ``kg serve``: the listening socket, uvicorn with connection limits, the worker pool's life,
and a clean stop on SIGTERM."""
from __future__ import annotations

import re
import socket
import sys
import threading
from typing import Any, Callable

from ..errors import StoreError, StoreLocked, UsageError
from ..sparql.pool import WorkerPool
from ..store import is_remote, require_store
from .app import create_app
from .config import ServeConfig, check_config, worker_pool
from .limits import Limits, guarded_protocol


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror or err}; choose another --port "
                         "(0 picks a free one)") from err
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The http URL of a bound socket (IPv6 in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def connection_limits(limits: Limits = Limits()) -> dict[str, Any]:
    """uvicorn settings under which idle or slow clients hold no slot others need (``kg.serve.limits``):
    no cap on open connections as such (uvicorn's ``limit_concurrency`` answered 503 to everyone
    once 200 sockets were open), but a read deadline and caps that close the oldest idle ones."""
    return {"http": guarded_protocol(limits), "limit_concurrency": None, "h11_max_incomplete_event_size": limits.max_head}


def _exit_on_sigterm() -> None:
    """SIGTERM ends ``kg serve`` like a normal return: uvicorn finishes its requests, then raises the
    signal again with the handler it found, this one, so ``serve``'s cleanup (the workers, the
    socket) runs and the exit code is 0 instead of death by the signal."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(_sig: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)


def shown_store(location: str) -> str:
    """A store's location as it may be printed: a server's URL without its password."""
    return re.sub(r"(://[^/@:]*):[^/@]*@", r"\1:***@", location)


def serve(config: ServeConfig, announce: Callable[[str, WorkerPool], None] | None = None) -> None:
    """Bind, start the workers, announce the URL, and answer until interrupted."""
    import uvicorn

    check_config(config)
    require_store(config.store)  # only kg build creates a store, --allow-update included
    _exit_on_sigterm()
    sock = _bind(config.host, config.port)
    pool = worker_pool(config)
    try:
        pool.start()
    except OSError as err:
        sock.close()
        if is_remote(config.store):
            raise StoreError(f"cannot serve the SPARQL server: {err}") from err
        if "lock" in str(err).lower():
            raise StoreLocked(f"store {config.store} is locked by another kg process (kg build?); --allow-update "
                              "needs it to itself; wait for it to finish or serve read-only") from err
        raise StoreError(f"cannot open store {config.store}: {err}") from err
    try:
        app = create_app(config, pool)
        limits = Limits(read_timeout=config.read_timeout, total=config.max_connections,
                        per_client=min(Limits.per_client, config.max_connections))
        server = uvicorn.Server(uvicorn.Config(
            app, log_level="warning", access_log=False, proxy_headers=False, server_header=False,
            lifespan="on", timeout_graceful_shutdown=3, timeout_keep_alive=5, **connection_limits(limits)))
        if announce is not None:
            announce(url_of(sock), pool)
        else:
            print(f"kg serve: {url_of(sock)}", flush=True)
        server.run(sockets=[sock])
    finally:
        pool.close()
        sock.close()
        sys.stdout.flush()
