"""Idle, slow and cross-origin clients (issue 26, cases 1, 2 (Origin), 5 and 9 (414)), over real
sockets: idle connections cannot keep a query out, a client that never finishes its request is
closed, a browser's POST from another origin is refused, and ``/view`` is drawn once however many
ask for it at once."""
from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest
import uvicorn
from test_server_support import Served, build_store

from kg.serve.app import create_app
from kg.serve.config import ServeConfig
from kg.serve.limits import Limits, SingleFlight
from kg.serve.server import _bind, connection_limits, url_of

ASK = "ASK { ?s ?p ?o }"


def _get(url: str, headers: dict[str, str] | None = None, timeout: float = 10,
         data: bytes | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _ask(url: str, timeout: float = 10) -> tuple[int, bytes]:
    return _get(url + "sparql?" + urllib.parse.urlencode({"query": ASK}),
                {"Accept": "application/sparql-results+json"}, timeout)


@contextmanager
def running(app: Any, limits: Limits = Limits()) -> Iterator[str]:
    """``app`` served by uvicorn with kg's connection limits, in a thread, on a free port."""
    sock = _bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False,
                                           **connection_limits(limits)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


async def _hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A bare ASGI app that reads the request body and says hello."""
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"hello"})


def _closed(sock: socket.socket, wait: float = 10) -> bool:
    """Whether the server closed ``sock`` (an empty read, or a reset) within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    try:
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            if sock.recv(65536) == b"":  # what came before the end (an answer) is read past
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        pass
    return False


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("limits") / "store")


def test_done_when_a_query_is_answered_with_300_idle_connections_open(store: Path) -> None:
    served = Served(store)
    idle: list[socket.socket] = []
    try:
        for _ in range(300):
            idle.append(socket.create_connection(("127.0.0.1", int(served.url.rsplit(":", 1)[1].strip("/")))))
        idle[-1].sendall(b"GET /sparql HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # a slow one too
        status, body = _ask(served.url, timeout=5)
        assert status == 200 and json.loads(body)["boolean"] is True
    finally:
        for s in idle:
            s.close()
        served.close()


def test_the_oldest_idle_connections_of_a_client_are_closed_past_its_cap() -> None:
    with running(_hello, Limits(per_client=4, total=100)) as url:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(10)]
        try:
            assert _get(url, timeout=5) == (200, b"hello")
            assert all(_closed(s) for s in socks[:6])  # 10 idle + the request: the 7 oldest made room
            assert not any(_closed(s, wait=0.2) for s in socks[7:])
            socks[-1].sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # a kept one still answers
            socks[-1].settimeout(5)
            assert socks[-1].recv(1024).startswith(b"HTTP/1.1 200")
        finally:
            for s in socks:
                s.close()


def test_a_client_that_does_not_finish_its_request_is_closed_at_the_read_deadline() -> None:
    with running(_hello, Limits(read_timeout=0.5)) as url:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port)) as head:
            head.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # the head never ends
            assert _closed(head)
        with socket.create_connection(("127.0.0.1", port)) as body:
            body.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
            assert _closed(body)
        with socket.create_connection(("127.0.0.1", port)) as kept:  # after an answer, the deadline again
            kept.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            kept.settimeout(5)
            assert kept.recv(1024).startswith(b"HTTP/1.1 200")
            kept.sendall(b"GET / HT")
            assert _closed(kept)


def test_a_url_over_the_head_limit_is_414_and_a_huge_head_431() -> None:
    with running(_hello, Limits(max_head=4096)) as url:
        status, body = _get(url + "?query=" + "x" * 10_000, timeout=5)
        assert status == 414 and b"POST" in body
        status, _ = _get(url, headers={f"X-H{i}": "y" * 100 for i in range(60)}, timeout=5)
        assert status == 431


def test_single_flight_computes_once_for_callers_that_come_meanwhile() -> None:
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        time.sleep(0.2)
        return f"drawn {len(calls)}"

    async def main() -> None:
        flight: SingleFlight[str] = SingleFlight()
        first = await asyncio.gather(*[flight.get("v1", compute) for _ in range(8)])
        assert first == ["drawn 1"] * 8 and len(calls) == 1
        assert await flight.get("v1", compute) == "drawn 1" and len(calls) == 1  # kept
        assert await flight.get("v2", compute) == "drawn 2"  # the store changed

    asyncio.run(main())


def test_view_is_drawn_once_for_eight_requests_and_an_ask_answers_meanwhile(
        store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.outputs.network

    real = kg.outputs.network.load_network
    drawn: list[float] = []

    def slow_load(st: Any) -> Any:
        drawn.append(time.monotonic())
        time.sleep(1.0)
        return real(st)

    monkeypatch.setattr(kg.outputs.network, "load_network", slow_load)
    app = create_app(ServeConfig(store=str(store), timeout=30.0))
    with running(app) as url:
        results: list[tuple[int, bytes]] = []
        threads = [threading.Thread(target=lambda: results.append(_get(url + "view", timeout=60))) for _ in range(8)]
        for t in threads:
            t.start()
        while not drawn:
            time.sleep(0.01)
        status, _ = _ask(url, timeout=10)  # while the view is drawn
        for t in threads:
            t.join(timeout=60)
        assert status == 200
        assert [s for s, _ in results] == [200] * 8 and len({b for _, b in results}) == 1
        assert len(drawn) == 1


@pytest.mark.parametrize("origin, status", [
    ("https://evil.example", 403), ("null", 403), ("http://127.0.0.1:9", 403), ("http://localhost:3000", 200),
    (None, 200),
])
def test_a_post_from_another_origin_is_refused_unless_cors_allows_it(store: Path, origin: str | None,
                                                                     status: int) -> None:
    app = create_app(ServeConfig(store=str(store), cors="http://localhost:3000"))
    with running(app) as url:
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/sparql-results+json"}
        if origin is not None:
            headers["Origin"] = origin
        got, body = _get(url + "sparql", headers, data=urllib.parse.urlencode({"query": ASK}).encode())
        assert got == status, body
        same = url.rstrip("/")  # the server's own origin: the query page's POSTs
        got, _ = _get(url + "sparql", {**headers, "Origin": same}, data=urllib.parse.urlencode({"query": ASK}).encode())
        assert got == 200
        got, _ = _get(url + "sparql", {k: v for k, v in headers.items() if k != "Origin"} | {"Sec-Fetch-Site": "cross-site"},
                      data=urllib.parse.urlencode({"query": ASK}).encode())
        assert got == 403
