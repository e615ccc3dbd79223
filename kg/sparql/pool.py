"""The query workers, from the caller's side (``kg serve``, ``kg query``, ``kg.api.query``): a few read
workers, an optional writer, and reserved workers for light requests; a request that runs past the
timeout gets its worker killed (SIGKILL) and replaced while the others keep answering, and so does a
worker that hits its memory limit."""
from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .cost import LIGHT_TIMEOUT
from .lexer import Rejected
from .frames import ProtocolError, read_frame, write_frame
from .worker import STORE_ENV

#: MB a query may take in a worker (beyond what the idle worker holds) unless told otherwise.
DEFAULT_MEMORY = 2048

#: What a worker prints to stderr as it dies of its memory limit: Rust's allocation failure (pyoxigraph
#: aborts the process), or a Python MemoryError that got past the executor.
_OUT_OF_MEMORY = re.compile(r"memory allocation of \d+ bytes failed|\bMemoryError\b|Cannot allocate memory")
#: Lines of a dying worker that the pool's own message says better (not passed on to stderr).
_DEATH_NOISE = re.compile(r"memory allocation of \d+ bytes failed|fatal runtime error|has overflowed its stack")


class QueryTimeout(Exception):
    """The request ran past the timeout; its worker was killed."""


class PoolBusy(Exception):
    """Every worker stayed busy for the whole timeout."""


class ReservedTimeout(QueryTimeout):
    """A light request ran past the time a reserved worker gives (``kg.sparql.cost.LIGHT_TIMEOUT``)
    while every other worker was busy; the worker was killed and replaced."""


class WorkerCrashed(Exception):
    """The worker died while answering (the request is the likely cause)."""


class WorkerOutOfMemory(WorkerCrashed):
    """The request took more memory than a worker may (``--max-memory``); the worker was replaced."""


@dataclass
class Reply:
    """A worker's answer: ``header['status']`` and, for 200, ``header['type']`` and the body."""

    header: dict[str, Any]
    body: bytes

    @property
    def status(self) -> int:
        return int(self.header.get("status", 500))


@dataclass(frozen=True)
class WorkerOptions:
    """How a worker is started: its memory limit (MB a query may take beyond what the idle worker
    holds; None: no limit) and whether SERVICE may run (then the worker keeps its network)."""

    max_memory: int | None = None
    allow_service: bool = False

    def args(self) -> list[str]:
        """The worker's command-line options for these settings."""
        return ([f"--max-memory={self.max_memory}"] if self.max_memory else []) + (
            ["--allow-service"] if self.allow_service else [])


class _Proc:
    def __init__(self, store: str, mode: str, start_timeout: float, base: str | None = None,
                 options: WorkerOptions = WorkerOptions()) -> None:
        import kg

        env = dict(os.environ)
        root = str(Path(kg.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env[STORE_ENV] = store  # not on the command line: a server's URL may hold a password
        env["RUST_BACKTRACE"] = "0"  # a dying worker's last words are one line, not pyoxigraph's stack
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kg.sparql.worker", "--mode", mode, *(["--base", base] if base else []),
             *options.args()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, close_fds=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self.wfd = self.proc.stdin.fileno()
        self.rfd = self.proc.stdout.fileno()
        self.last_words: collections.deque[str] = collections.deque(maxlen=20)
        self.out_of_memory = False  # it said, dying, that an allocation failed
        self._drain = threading.Thread(target=self._pass_stderr, args=(self.proc.stderr,), name="kg-worker-stderr",
                                       daemon=True)
        self._drain.start()
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
        self.memory_limited = bool(hello.get("memory_limited"))

    def _pass_stderr(self, stream: IO[bytes]) -> None:
        """Pass the worker's stderr on, line by line, keeping its last lines: they say why it died
        (what a crash prints, from its first line on, is kept but not passed on: the pool's message
        says it in one line)."""
        dying = False
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace")
            self.last_words.append(line)
            self.out_of_memory = self.out_of_memory or bool(_OUT_OF_MEMORY.search(line))
            dying = dying or bool(_DEATH_NOISE.search(line))
            if not dying:
                try:
                    sys.stderr.write(line)
                    sys.stderr.flush()
                except (OSError, ValueError):
                    pass
        stream.close()

    def ask(self, header: dict[str, Any], body: bytes, timeout: float) -> Reply:
        write_frame(self.wfd, header, body)
        h, b = read_frame(self.rfd, time.monotonic() + timeout)
        return Reply(h, b)

    def died_of_memory(self) -> bool:
        """After the worker stopped answering: whether it died of its memory limit (its last words)."""
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return False
        self._drain.join(timeout=5)
        return self.out_of_memory

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


#: The worker lanes: "read" workers take every read, "light" ones (reserved) only light reads, "write" updates.
LANES = ("read", "light", "write")


class WorkerPool:
    """``size`` read-only workers, ``reserved`` more for light requests only, and one writer if
    ``writer``, over the store at ``path``: a directory, or a SPARQL server's URL
    (``kg.sparql.remote``; ``base``: its kg graphs' base IRI). ``options``: each worker's memory
    limit and whether SERVICE may run.

    ``run(request)`` blocks (call it from a thread): it waits up to ``timeout`` for an idle worker
    (``PoolBusy``), then up to ``timeout`` for the answer; past that the worker is killed and a new
    one started in the background (``QueryTimeout``). A ``light`` request (a cheap one: see
    ``kg.sparql.cost``) may also take a reserved worker, so heavy requests that hold every other
    worker do not keep it waiting.
    """

    def __init__(self, path: str | Path, size: int = 2, writer: bool = False, start_timeout: float = 60.0,
                 respawn: bool = True, base: str | None = None, options: WorkerOptions = WorkerOptions(),
                 reserved: int = 0) -> None:
        self.path = str(path)
        self.base = base  # of kg's graphs on a server (None: the settings')
        self.size = size
        self.reserved = reserved
        self.respawn = respawn  # replace a killed worker (a server does; a one-query pool need not)
        self.writer = writer
        self.options = options
        self.start_timeout = start_timeout
        self._idle: dict[str, list[_Proc]] = {lane: [] for lane in LANES}
        self._all: set[_Proc] = set()
        self._lock = threading.Lock()
        self._freed = threading.Condition(self._lock)
        self._closed = False
        self.sandboxed = False
        self.remote = False  # the workers send queries to a SPARQL server
        self.memory_limited = False  # the workers' memory limit holds (Linux)
        self.restarts = 0

    def start(self) -> None:
        """Start every worker; ``OSError`` with the worker's message if the store cannot be opened."""
        if self.writer:  # first: it creates a missing store, and the readers need one
            self._add("write")
        procs: list[tuple[str, _Proc]] = []
        errors: list[BaseException] = []

        def one(lane: str) -> None:
            try:
                procs.append((lane, self._spawn(lane)))
            except OSError as err:
                errors.append(err)

        threads = [threading.Thread(target=one, args=(lane,))
                   for lane in ["read"] * self.size + ["light"] * self.reserved]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for lane, p in procs:
            self._put(lane, p)
        if errors:
            self.close()
            raise errors[0]
        self.sandboxed = all(p.sandboxed for p in self._all)
        self.remote = any(p.remote for p in self._all)
        self.memory_limited = all(p.memory_limited for p in self._all)

    def _spawn(self, lane: str) -> _Proc:
        proc = _Proc(self.path, "write" if lane == "write" else "read", self.start_timeout, self.base, self.options)
        with self._lock:
            if self._closed:
                proc.kill()
                raise OSError("the pool is closed")
            self._all.add(proc)
        return proc

    def _put(self, lane: str, proc: _Proc) -> None:
        with self._freed:
            self._idle[lane].append(proc)
            self._freed.notify_all()

    def _add(self, lane: str) -> None:
        self._put(lane, self._spawn(lane))

    def _replace(self, proc: _Proc, lane: str) -> None:
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
                    self._add(lane)
                    return
                except OSError as err:
                    if self._closed:
                        return
                    print(f"kg serve: could not restart a query worker: {err}", file=sys.stderr)
                    time.sleep(delay)
                    delay = min(delay * 2, 5.0)

        threading.Thread(target=respawn, name="kg-respawn", daemon=True).start()

    def _take(self, lanes: tuple[str, ...], timeout: float) -> tuple[str, _Proc]:
        """An idle worker of the first of ``lanes`` that has one, waiting up to ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._freed:
            while True:
                for lane in lanes:
                    if self._idle[lane]:
                        return lane, self._idle[lane].pop(0)
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    raise PoolBusy(f"all query workers stayed busy for {timeout:g} s")
                self._freed.wait(left)

    def run(self, header: dict[str, Any], body: bytes = b"", timeout: float = 30.0, write: bool = False,
            light: bool = False) -> Reply:
        if write and not self.writer:
            raise Rejected("updates are disabled", 403)
        lanes = ("write",) if write else ("read", "light") if light else ("read",)
        lane, proc = self._take(lanes, timeout)
        limit = min(timeout, LIGHT_TIMEOUT) if lane == "light" else timeout
        try:
            reply = proc.ask(header, body, limit)
        except TimeoutError:
            self._replace(proc, lane)
            if lane == "light" and limit < timeout:
                raise ReservedTimeout(f"stopped after {limit:g} s on a reserved worker") from None
            raise QueryTimeout(f"stopped after {timeout:g} s") from None
        except (EOFError, ProtocolError, OSError) as err:
            memory = proc.died_of_memory()
            self._replace(proc, lane)
            if memory:
                raise WorkerOutOfMemory(str(err)) from None
            raise WorkerCrashed(str(err)) from None
        if reply.header.get("restart"):  # it hit its memory limit: a fresh one, not a fragmented heap
            self._replace(proc, lane)
        else:
            self._put(lane, proc)
        return reply

    def close(self) -> None:
        """Kill every worker (busy ones too)."""
        with self._freed:
            self._closed = True
            procs = list(self._all)
            self._all.clear()
            self._freed.notify_all()
        for p in procs:
            p.kill()
