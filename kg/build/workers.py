"""Where a build's article jobs run: in this process, in a pool of processes, or on a Dask cluster.

Every runner takes articles lazily, cuts them into jobs of a few consecutive articles
(``jobs.jobs``) and yields each article's graph (``jobs.ArticleGraph``) in input
order, with a bounded number of jobs in flight, so the driver can store each article in its own
transaction as soon as it is ready and memory does not grow with the input. The driver alone
writes the store; workers only parse, extract and map. The jobs of a worker share a spaCy memory
zone until they have parsed ``jobs.ZONE_CHARS`` characters (``jobs.Zone``).
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from itertools import chain, islice
from typing import Any

from ..errors import KgError, UsageError, WorkerError
from ..model.facts import Article
from .jobs import JOB_ARTICLES, ZONE_CHARS, ArticleGraph, JobSpec, close_zone, jobs, model, run_job

#: Fewer articles than this (one job) are not worth starting worker processes (each loads the model).
MIN_POOL_ARTICLES = JOB_ARTICLES + 1
#: Jobs in flight per worker: enough to keep every worker busy while the driver stores.
IN_FLIGHT_PER_WORKER = 2


def run_articles(articles: Iterable[Article], spec: JobSpec, workers: int = 1, dask: str | None = None,
                 say: Callable[[str], None] | None = None) -> Iterator[ArticleGraph]:
    """Each article's graph, in input order: on the Dask scheduler ``dask`` if given, else in
    ``workers`` processes (in this process when ``workers`` is 1 or there are only a few articles)."""
    if workers < 1:
        raise UsageError("workers must be at least 1")
    spec = replace(spec, zone_chars=spec.zone_chars or ZONE_CHARS)  # each worker's jobs share a memory zone
    todo = iter(articles)
    if dask:
        yield from _on_dask(todo, spec, dask, say or (lambda m: None))
        return
    head = list(islice(todo, MIN_POOL_ARTICLES))
    if workers == 1 or len(head) < MIN_POOL_ARTICLES:
        yield from in_process(chain(head, todo), spec)
        return
    yield from _in_pool(chain(head, todo), spec, workers)


def in_process(articles: Iterable[Article], spec: JobSpec) -> Iterator[ArticleGraph]:
    """Run the jobs here, one after the other (the model is loaded once, at the first job); the
    memory zone they share is closed at the end, so nothing of the build stays in the vocabulary."""
    try:
        for job in jobs(articles):
            yield from run_job(job, spec)
    finally:
        close_zone(spec.model)


def _ordered(articles: Iterator[Article], submit: Callable[[list[Article]], Any], window: int,
             result: Callable[[Any], list[ArticleGraph]]) -> Iterator[ArticleGraph]:
    """Keep ``window`` jobs submitted; yield their articles' graphs in submission order."""
    todo = jobs(articles)
    pending: deque[Any] = deque(submit(job) for job in islice(todo, window))
    while pending:
        first = pending.popleft()
        nxt = next(todo, None)
        if nxt is not None:
            pending.append(submit(nxt))
        yield from result(first)


def _start_worker(parent: int, name: str | None) -> None:
    """When a worker process starts: die with the driver, and load the model (spawned workers),
    so the first article does not wait for it."""
    die_with(parent)
    if name is not None:
        try:
            model(name)
        except KgError:
            pass  # the first job raises it again, with its message, to the driver


def die_with(parent: int, every: float = 0.5) -> None:
    """End this process when process ``parent`` ends, even if it is killed (SIGKILL leaves no time
    to stop anyone): on Linux the kernel sends SIGKILL (``PR_SET_PDEATHSIG``); everywhere a thread
    checks every ``every`` seconds that the parent is still the parent."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # it ended before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="kg-parent-watch", daemon=True).start()


def _start_method() -> str:
    """fork where it is the platform's own default (Linux): workers start at once and share the
    driver's loaded model page for page; spawn elsewhere (macOS, Windows), where each worker loads it."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


def _in_pool(articles: Iterator[Article], spec: JobSpec, workers: int) -> Iterator[ArticleGraph]:
    method = _start_method()
    if method == "fork":
        model(spec.model)  # loaded once, here; a missing model is reported before any worker starts
    ctx = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_start_worker,
                             initargs=(os.getpid(), spec.model if method != "fork" else None)) as pool:
        def result(f: Future[list[ArticleGraph]]) -> list[ArticleGraph]:
            try:
                return f.result()
            except BrokenProcessPool as err:
                raise WorkerError("a worker process died (out of memory?); the articles stored so far are "
                                  "kept: run the build again with fewer --workers to do the rest") from err

        try:
            yield from _ordered(articles, lambda a: pool.submit(run_job, a, spec),
                                workers * IN_FLIGHT_PER_WORKER, result)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _on_dask(articles: Iterator[Article], spec: JobSpec, address: str,
             say: Callable[[str], None]) -> Iterator[ArticleGraph]:
    try:
        from distributed import Client
        from distributed.scheduler import KilledWorker
    except ImportError as err:  # pragma: no cover - distributed is a dependency of kg
        raise UsageError("--dask needs the 'distributed' package: pip install distributed") from err
    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise WorkerError(f"cannot reach the Dask scheduler at {address} ({type(err).__name__}: {err}); "
                          "start it (dask scheduler; dask worker ADDRESS) or check the address") from err
    try:
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values())
        if threads == 0:
            raise WorkerError(f"the Dask scheduler at {address} has no workers; start some with: "
                              f"dask worker {address}")
        say(f"note dask: {threads} worker thread(s) at {address}")

        def result(f: Any) -> list[ArticleGraph]:
            try:
                return f.result()
            except KgError:
                raise
            except (OSError, TimeoutError, KilledWorker) as err:
                raise WorkerError(f"the Dask cluster at {address} failed ({type(err).__name__}: {err}); the "
                                  "articles stored so far are kept: run the build again for the rest") from err

        yield from _ordered(articles, lambda a: client.submit(run_job, a, spec, pure=False),
                            threads * IN_FLIGHT_PER_WORKER, result)
    finally:
        client.close()
