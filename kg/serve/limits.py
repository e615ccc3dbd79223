"""What keeps ``kg serve`` answering when clients are slow, idle, many or hostile.

- ``guarded_protocol``: uvicorn's h11 protocol with limits that hold no slot for an idle socket.
  uvicorn's own ``limit_concurrency`` counts open connections, so 200 sockets that send nothing
  made every other client get 503 for as long as they stayed open. Here a connection must send its
  whole request (head and body) within ``read_timeout`` seconds of opening (or of its previous
  answer), whatever its address, and a client (an IP address) holds at most ``per_client``
  connections, the server ``total``: past either cap the oldest connection that is *waiting* (idle,
  or still sending its request's head or body, nothing answered yet) is closed to make room, so
  neither idle sockets nor bodies sent a byte at a time from many addresses can keep a new request
  out (only requests that are being answered hold their place). A request line or head longer than
  ``max_head`` bytes gets 414 (the URL) or 431 (the headers).
- ``OriginGuard``: a POST, PUT, DELETE or PATCH that a browser sends from another origin (a form
  on any web page can POST to a local server) is refused with 403, unless it comes from the
  ``--cors`` origin.
- ``SingleFlight``: one computation at a time (the ``/view`` page of a large store takes many
  seconds and much memory); requests that come meanwhile share its result, and the last result is
  kept for as long as the store does not change.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, TypeVar
from urllib.parse import urlsplit

import h11
from starlette.concurrency import run_in_threadpool
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["Limits", "guarded_protocol", "OriginGuard", "SingleFlight"]

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """The connection limits of ``guarded_protocol``."""

    read_timeout: float = 15.0
    per_client: int = 64
    total: int = 512
    max_head: int = 64 * 1024


class _Connections:
    """The open connections in order of arrival, overall and per client."""

    def __init__(self) -> None:
        self.all: OrderedDict[Any, None] = OrderedDict()
        self.by_client: dict[str, OrderedDict[Any, None]] = {}

    def add(self, proto: Any, client: str) -> None:
        self.all[proto] = None
        self.by_client.setdefault(client, OrderedDict())[proto] = None

    def remove(self, proto: Any, client: str) -> None:
        self.all.pop(proto, None)
        mine = self.by_client.get(client)
        if mine is not None:
            mine.pop(proto, None)
            if not mine:
                del self.by_client[client]

    def evict_one(self, conns: OrderedDict[Any, None], spare: Any) -> bool:
        """Close the oldest waiting connection of ``conns`` other than ``spare``; False if none waits."""
        for proto in conns:
            if proto is not spare and proto.waiting():
                self.remove(proto, proto.client_key)  # now: the transport tells only later
                proto.transport.close()
                return True
        return False


def guarded_protocol(limits: Limits) -> type[H11Protocol]:  # noqa: C901 (22): the protocol class is defined inside the function (one per server)
    """An ``H11Protocol`` class (pass it as uvicorn's ``http``) that enforces ``limits``; each
    call makes a class with connection bookkeeping of its own (one per server)."""
    conns = _Connections()

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        client_key = ""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._head = bytearray()  # the request head received so far
            self.client_key = self.client[0] if self.client else ""
            conns.add(self, self.client_key)
            self._arm()
            mine = conns.by_client[self.client_key]
            if len(mine) > limits.per_client and not conns.evict_one(mine, self):
                transport.close()
            elif len(conns.all) > limits.total and not conns.evict_one(conns.all, self):
                transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            conns.remove(self, self.client_key)
            self._disarm()
            super().connection_lost(exc)

        def waiting(self) -> bool:
            """Waiting for a request: none under way (nothing, or part of a head, received), or one
            whose body is still coming and that nothing has been answered to yet."""
            state = self.conn.their_state
            if state is h11.IDLE:
                return self.cycle is None or self.cycle.response_complete
            return state is h11.SEND_BODY and (self.cycle is None or not self.cycle.response_started)

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:  # a request head is coming: bound it before h11 reads it
                self._head += data
                status = self._head_status()
                if status:
                    self._refuse(status)
                    return
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._head.clear()
                if self.conn.their_state is not h11.SEND_BODY:
                    self._disarm()  # the whole request is in

        def _head_status(self) -> int:
            """414 for a request line over ``max_head`` bytes, 431 for a head over it, else 0."""
            line = self._head.find(b"\n")
            if line > limits.max_head or (line < 0 and len(self._head) > limits.max_head):
                return 414
            end = self._head.find(b"\n\r\n") if b"\n\r\n" in self._head else self._head.find(b"\n\n")
            if end > limits.max_head or (end < 0 and len(self._head) > limits.max_head):
                return 431
            return 0

        def on_response_complete(self) -> None:
            self._head.clear()
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def _refuse(self, status: int) -> None:
            message = (f"the URL is over {limits.max_head} bytes; POST the query instead" if status == 414
                       else f"the request head is over {limits.max_head} bytes")
            body = f"kg: {message}\n".encode()
            reason = b"URI Too Long" if status == 414 else b"Request Header Fields Too Large"
            self.transport.write(b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
                                 b"content-length: %d\r\n\r\n%s" % (status, reason, len(body), body))
            self.transport.close()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(limits.read_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol


# --- cross-origin writes ------------------------------------------------------------------------

_UNSAFE = {"POST", "PUT", "DELETE", "PATCH"}
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _same_host(origin: str, host: str) -> bool:
    """Whether an Origin (scheme://host[:port]) names the host:port of the Host header."""
    try:
        parts = urlsplit(origin)
        h = urlsplit(f"//{host}")
        port = parts.port or _DEFAULT_PORTS.get(parts.scheme)
        host_port = h.port or _DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return False
    return bool(parts.hostname) and parts.hostname == h.hostname and port == host_port


class OriginGuard:
    """Refuse (403) a state-changing request sent by a browser from another origin than this
    server's own or the ``--cors`` one: an ``Origin`` header that names another, or ``null``
    (sandboxed frames, files), or no ``Origin`` but ``Sec-Fetch-Site: cross-site``."""

    def __init__(self, app: ASGIApp, cors: str | None = None) -> None:
        self.app = app
        self.cors = cors.lower().rstrip("/") if cors else None

    def allowed(self, headers: dict[bytes, bytes]) -> bool:
        origin = headers.get(b"origin")
        if origin is None:
            return headers.get(b"sec-fetch-site", b"").lower() not in (b"cross-site", b"same-site")
        text = origin.decode("latin-1").strip().lower().rstrip("/")
        if self.cors is not None and text == self.cors:
            return True
        host = headers.get(b"host", b"").decode("latin-1").strip().lower()
        return text != "null" and bool(host) and _same_host(text, host)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _UNSAFE:
            headers: dict[bytes, bytes] = {}
            for k, v in scope["headers"]:
                headers.setdefault(k, v)
            if not self.allowed(headers):
                origin = headers.get(b"origin", b"(none)").decode("latin-1")
                response = PlainTextResponse(f"kg: a {scope['method']} from another origin ({origin}) is refused; "
                                             "start kg serve with --cors ORIGIN to allow one\n", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


# --- one computation at a time -------------------------------------------------------------------


class SingleFlight(Generic[T]):
    """``await get(version, compute)``: ``compute`` runs on a thread, one at a time; a caller that
    comes while it runs shares its result (one computation old at most); the last result is kept
    and given again while ``version`` stays the one it was computed for."""

    def __init__(self) -> None:
        self._kept: tuple[Hashable, T] | None = None
        self._running: asyncio.Future[T] | None = None

    async def get(self, version: Hashable, compute: Callable[[], T]) -> T:
        if self._running is None and self._kept is not None and self._kept[0] == version:
            return self._kept[1]
        if self._running is None:
            running: asyncio.Future[T] = asyncio.ensure_future(self._run(version, compute))
            self._running = running
        return await asyncio.shield(self._running)  # a caller that goes away does not stop it for the others

    async def _run(self, version: Hashable, compute: Callable[[], T]) -> T:
        try:
            self._kept = None  # the old result is freed before the new one is made
            value = await run_in_threadpool(compute)
            self._kept = (version, value)
            return value
        finally:
            self._running = None

