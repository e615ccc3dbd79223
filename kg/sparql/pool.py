"""The query workers of ``kg serve``, from the server's side: a few read workers and an optional
writer; a request that runs past the timeout gets its worker killed (SIGKILL) and replaced while
the others keep answering."""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .lexer import Rejected
from .frames import ProtocolError, read_frame, write_frame
from .worker import STORE_ENV


class QueryTimeout(Exception):
    """The request ran past the timeout; its worker was killed."""


class PoolBusy(Exception):
    """Every worker stayed busy for the whole timeout."""


class WorkerCrashed(Exception):
    """The worker died while answering (the request is the likely cause)."""


@dataclass
class Reply:
    """A worker's answer: ``header['status']`` and, for 200, ``header['type']`` and the body."""

    header: dict[str, Any]
    body: bytes

    @property
    def status(self) -> int:
        return int(self.header.get("status", 500))


class _Proc:
    def __init__(self, store: str, mode: str, start_timeout: float, base: str | None = None) -> None:
        import kg

        env = dict(os.environ)
        root = str(Path(kg.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env[STORE_ENV] = store  # not on the command line: a server's URL may hold a password
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kg.sparql.worker", "--mode", mode, *(["--base", base] if base else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.wfd = self.proc.stdin.fileno()
        self.rfd = self.proc.stdout.fileno()
        try:
            hello, _ = read_frame(self.rfd, time.monotonic() + start_timeout)
        except (TimeoutError, EOFError, ProtocolError, OSError) as err:
            self.kill()
            raise OSError(f"the query worker did not start ({type(err).__name__})") from err
        if not hello.get("ready"):
            self.kill()
            raise OSError(hello.get("message") or "the query worker could not open the store")
        self.sandboxed = bool(hello.get("sandboxed"))
        self.remote = bool(hello.get("remote"))

    def ask(self, header: dict[str, Any], body: bytes, timeout: float) -> Reply:
        write_frame(self.wfd, header, body)
        h, b = read_frame(self.rfd, time.monotonic() + timeout)
        return Reply(h, b)

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


class WorkerPool:
    """``size`` read-only workers (and one writer if ``writer``) over the store at ``path``: a
    directory, or a SPARQL server's URL (``kg.sparql.remote``; ``base``: its kg graphs' base IRI).

    ``run(request)`` blocks (call it from a thread): it waits up to ``timeout`` for an idle
    worker (``PoolBusy``), then up to ``timeout`` for the answer; past that the worker is
    killed and a new one started in the background (``QueryTimeout``).
    """

    def __init__(self, path: str | Path, size: int = 2, writer: bool = False, start_timeout: float = 60.0,
                 respawn: bool = True, base: str | None = None) -> None:
        self.path = str(path)
        self.base = base  # of kg's graphs on a server (None: the settings')
        self.size = size
        self.respawn = respawn  # replace a killed worker (a server does; a one-query pool need not)
        self.writer = writer
        self.start_timeout = start_timeout
        self._idle: dict[str, queue.Queue[_Proc]] = {"read": queue.Queue(), "write": queue.Queue()}
        self._all: set[_Proc] = set()
        self._lock = threading.Lock()
        self._closed = False
        self.sandboxed = False
        self.remote = False  # the workers send queries to a SPARQL server
        self.restarts = 0

    def start(self) -> None:
        """Start every worker; ``OSError`` with the worker's message if the store cannot be opened."""
        if self.writer:  # first: it creates a missing store, and the readers need one
            self._add("write")
        procs: list[_Proc] = []
        errors: list[BaseException] = []

        def one() -> None:
            try:
                procs.append(self._spawn("read"))
            except OSError as err:
                errors.append(err)

        threads = [threading.Thread(target=one) for _ in range(self.size)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for p in procs:
            self._idle["read"].put(p)
        if errors:
            self.close()
            raise errors[0]
        self.sandboxed = all(p.sandboxed for p in self._all)
        self.remote = any(p.remote for p in self._all)

    def _spawn(self, mode: str) -> _Proc:
        proc = _Proc(self.path, mode, self.start_timeout, self.base)
        with self._lock:
            if self._closed:
                proc.kill()
                raise OSError("the pool is closed")
            self._all.add(proc)
        return proc

    def _add(self, mode: str) -> None:
        self._idle[mode].put(self._spawn(mode))

    def _replace(self, proc: _Proc, mode: str) -> None:
        with self._lock:
            self._all.discard(proc)
            self.restarts += 1
        proc.kill()
        if not self.respawn:
            return

        def respawn() -> None:
            delay = 0.2
            while not self._closed:
                try:
                    self._add(mode)
                    return
                except OSError as err:
                    if self._closed:
                        return
                    print(f"kg serve: could not restart a query worker: {err}", file=sys.stderr)
                    time.sleep(delay)
                    delay = min(delay * 2, 5.0)

        threading.Thread(target=respawn, name="kg-respawn", daemon=True).start()

    def run(self, header: dict[str, Any], body: bytes = b"", timeout: float = 30.0, write: bool = False) -> Reply:
        mode = "write" if write else "read"
        if write and not self.writer:
            raise Rejected("updates are disabled", 403)
        try:
            proc = self._idle[mode].get(timeout=timeout)
        except queue.Empty:
            raise PoolBusy(f"all query workers stayed busy for {timeout:g} s") from None
        try:
            reply = proc.ask(header, body, timeout)
        except TimeoutError:
            self._replace(proc, mode)
            raise QueryTimeout(f"stopped after {timeout:g} s") from None
        except (EOFError, ProtocolError, OSError) as err:
            self._replace(proc, mode)
            raise WorkerCrashed(str(err)) from None
        self._idle[mode].put(proc)
        return reply

    def close(self) -> None:
        """Kill every worker (busy ones too)."""
        with self._lock:
            self._closed = True
            procs = list(self._all)
            self._all.clear()
        for p in procs:
            p.kill()
