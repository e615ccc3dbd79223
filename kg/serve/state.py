"""What every route of ``kg serve`` shares (``ServeState``): the settings, the worker pool that runs
each request, the bearer-token check of writes, and how the pool's failures become answers. The
app keeps one on ``app.state.kg``; routes take it with ``Depends(serve_state)``."""
from __future__ import annotations

import hmac
import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..sparql.lexer import Rejected
from ..sparql.executor import MEMORY_STATUS, memory_message
from ..sparql.pool import PoolBusy, QueryTimeout, Reply, ReservedTimeout, WorkerCrashed, WorkerOutOfMemory, WorkerPool
from .config import ServeConfig, worker_pool
from .limits import SingleFlight
from .protocol import _error

Rows = list[dict[str, str | None]]


class ServeState:
    """The settings and the worker pool of one app. Without ``pool``, ``lifespan`` starts (and
    stops) one over ``config.store``; with one, the caller owns it."""

    def __init__(self, config: ServeConfig, pool: WorkerPool | None = None) -> None:
        self.config = config
        self.pool = pool
        #: the network view, drawn once per version of the store, one drawing at a time
        self.view_flight: SingleFlight[str] = SingleFlight()

    @asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        own = self.pool is None
        if own:
            p = worker_pool(self.config)
            await run_in_threadpool(p.start)
            self.pool = p
        try:
            yield
        finally:
            if own and self.pool is not None:
                self.pool.close()
                self.pool = None

    def run(self, header: dict[str, Any], body: bytes = b"", write: bool = False, light: bool = False) -> Reply:
        """A request answered by a worker, blocking (call it from a thread); ``light``: a cheap one,
        which may also take a reserved worker (``kg.sparql.cost``)."""
        pool = self.pool
        if pool is None:
            raise Rejected("the server is starting or stopping", 503)
        return pool.run(header, body, timeout=self.config.timeout, write=write, light=light)

    async def call(self, header: dict[str, Any], body: bytes = b"", write: bool = False,
                   light: bool = False) -> Reply | Response:
        """``run`` off the event loop; the pool's failures come back as error answers."""
        try:
            return await run_in_threadpool(self.run, header, body, write, light)
        except Rejected as err:
            return _error(err.status, err.message)
        except ReservedTimeout as err:
            return _error(503, f"every query worker was busy and this query, {err}, did not finish; try again "
                               "shortly", {"Retry-After": "2"})
        except QueryTimeout:
            return _error(504, f"the query ran longer than the {self.config.timeout:g} s timeout (--timeout) and "
                               "was stopped; make it more selective or add a LIMIT")
        except PoolBusy as err:
            return _error(503, f"{err}; try again shortly", {"Retry-After": "2"})
        except WorkerOutOfMemory:
            return _error(MEMORY_STATUS, memory_message(self.config.max_memory or None))
        except WorkerCrashed:
            return _error(400, "the query crashed its worker (too large or too deeply nested?); it was restarted")

    async def ask(self, header: dict[str, Any], body: bytes = b"", write: bool = False,
                  failed: str = "the query failed") -> Reply | Response:
        """``call``, with a worker's refusal (status 300 and over) also an error answer: its message,
        or ``failed``."""
        reply = await self.call(header, body, write)
        if isinstance(reply, Response) or reply.status < 300:
            return reply
        return _error(reply.status, reply.header.get("message", failed))

    def select_sync(self, queries: list[str]) -> list[Rows]:
        """Rows of trusted, server-built SELECTs about one thing (light), from a thread (``Rejected`` if they failed)."""
        reply = self.run({"op": "select", "queries": queries}, light=True)
        if reply.status != 200:
            raise Rejected(reply.header.get("message", "the query failed"), reply.status)
        return json.loads(reply.body)

    async def select(self, queries: list[str]) -> list[Rows] | Response:
        """``select_sync`` off the event loop; a failure is an error answer."""
        reply = await self.call({"op": "select", "queries": queries}, light=True)
        if isinstance(reply, Response):
            return reply
        if reply.status != 200:
            return _error(reply.status, reply.header.get("message", "the query failed"))
        return json.loads(reply.body)

    def page_failure(self, err: Exception, doing: str, thing: str) -> Response:
        """The answer of a page whose reading failed on a thread (``doing``: "reading the entity")."""
        if isinstance(err, Rejected):
            return _error(err.status, err.message)
        if isinstance(err, ReservedTimeout):
            return _error(503, f"{doing} did not finish while every query worker was busy; try again shortly",
                          {"Retry-After": "2"})
        if isinstance(err, QueryTimeout):
            return _error(504, f"{doing} took longer than the {self.config.timeout:g} s timeout")
        if isinstance(err, WorkerOutOfMemory):
            return _error(MEMORY_STATUS, memory_message(self.config.max_memory or None))
        return _error(503, f"{thing} could not be read: {err}", {"Retry-After": "2"})

    def authorize(self, request: Request) -> Response | None:
        """None when ``request`` may write; else the 403 (read-only) or 401 (no or wrong token)."""
        config = self.config
        if not config.allow_update:
            return _error(403, "this endpoint is read-only; start kg serve with --allow-update --token T to "
                               "accept updates")
        auth = request.headers.get("authorization", "")
        scheme, _, given = auth.partition(" ")
        ok = scheme.lower() == "bearer" and config.token is not None and hmac.compare_digest(
            given.strip().encode("utf-8", "surrogateescape"), config.token.encode("utf-8"))
        if not ok:
            return _error(401, "updates need 'Authorization: Bearer <token>' with the token kg serve was started "
                               "with", {"WWW-Authenticate": 'Bearer realm="kg"'})
        return None


#: The page errors ``ServeState.page_failure`` turns into answers.
PAGE_ERRORS = (Rejected, QueryTimeout, PoolBusy, WorkerCrashed)


def serve_state(request: Request) -> ServeState:
    """The app's ``ServeState`` (a FastAPI dependency)."""
    state: ServeState = request.app.state.kg
    return state
