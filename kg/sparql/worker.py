"""A query worker of ``kg serve``, ``kg query`` and ``kg.api.query`` (``python -m kg.sparql.worker``): a
process that opens the store (``kg.sparql.executor`` a directory, read-only; ``kg.sparql.remote`` a
SPARQL server), drops its network (``kg.sparql.sandbox``; not over a server, which it must reach, nor
with ``--allow-service``), limits its memory (``--max-memory``), and answers the frames
(``kg.sparql.frames``) of its standard input on its standard output, one request at a time, in a
thread with a 512 MB stack. The store's location comes from ``--store`` or, so that a password in a
server's URL is not shown by ``ps``, from the environment variable ``KG_WORKER_STORE``.
"""
from __future__ import annotations

import os
import sys
import threading
import time

from ..errors import KgError
from .executor import Executor, store_fingerprint
from .frames import write_frame
from .guard import _one_line
from .sandbox import limit_memory, sandbox

__all__ = ["STORE_ENV", "WORKER_STACK", "store_fingerprint"]

#: Stack of the worker thread that parses and evaluates.
WORKER_STACK = 512 * 1024 * 1024
#: Where a worker started without ``--store`` finds its store's location.
STORE_ENV = "KG_WORKER_STORE"


def _worker_main(argv: list[str]) -> int:
    import argparse

    from ..store import is_remote

    parser = argparse.ArgumentParser(prog="python -m kg.sparql.worker", description="a kg serve query worker")
    parser.add_argument("--store", default=os.environ.get(STORE_ENV), help=f"the store (default: ${STORE_ENV})")
    parser.add_argument("--mode", choices=("read", "write"), default="read")
    parser.add_argument("--base", default=None, help="the base IRI of kg's graphs on a server (default: the settings')")
    parser.add_argument("--max-memory", type=int, default=0, help="MB a query may take beyond the idle worker (0: no limit)")
    parser.add_argument("--allow-service", action="store_true", help="run SERVICE (the worker keeps its network)")
    args = parser.parse_args(argv)
    if not args.store:
        parser.error(f"give --store or set {STORE_ENV}")
    remote = is_remote(args.store)
    # before any thread starts: the threads inherit the seccomp filter. A worker over a server
    # must reach it; the server, not the worker, evaluates there.
    isolation = "" if remote or args.allow_service else sandbox()
    out_fd = os.dup(1)  # the reply pipe; anything printed by mistake goes to stderr instead
    os.dup2(2, 1)
    in_fd = 0
    parent = os.getppid()

    def watchdog() -> None:  # die with the server, even in the middle of a long query
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watchdog, name="kg-watchdog", daemon=True).start()
    sys.setrecursionlimit(100_000)
    threading.stack_size(WORKER_STACK)
    if remote:
        from .remote import RemoteExecutor

        worker: Executor = RemoteExecutor(args.store, args.mode, out_fd, args.base)
    else:
        worker = Executor(args.store, args.mode, out_fd, allow_service=args.allow_service)
    worker.max_memory = args.max_memory or None

    def run() -> None:
        try:
            worker.open()
            from rdflib.plugins.sparql import parser  # noqa: F401  (load the grammar before the first query)
        except (OSError, KgError) as err:
            message = err.message if isinstance(err, KgError) else str(err)
            write_frame(out_fd, {"ready": False, "message": _one_line(message)})
            return
        # once the store is open and the grammar loaded: what the worker holds now is not the query's
        limited = limit_memory(args.max_memory) if args.max_memory else False
        write_frame(out_fd, {"ready": True, "sandboxed": bool(isolation), "isolation": isolation, "remote": remote,
                             "pid": os.getpid(), "memory_limited": limited})
        worker.loop(in_fd)

    thread = threading.Thread(target=run, name="kg-worker")
    thread.start()
    thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
