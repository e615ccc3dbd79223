"""ASGI middleware of ``kg serve``: the Host check (DNS rebinding), security headers (nosniff, no
referrer, no framing, a locked-down CSP), and HEAD answered as GET without a body."""
from __future__ import annotations

import ipaddress
import socket
from typing import Any, MutableMapping
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import ServeConfig
from .protocol import _error

PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"


class HostGuard:
    """Refuse (421) a request whose Host is not a name this server is known by (DNS rebinding)."""

    def __init__(self, app: ASGIApp, names: set[str], any_ip: bool) -> None:
        self.app = app
        self.names = names
        self.any_ip = any_ip

    def allowed(self, host: str | None) -> bool:
        if not host:
            return False
        host = host.strip().lower()
        if host.startswith("["):
            name = host[1:].split("]", 1)[0]
        else:
            name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
        name = name.rstrip(".")
        if name in self.names:
            return True
        if self.any_ip:
            try:
                ipaddress.ip_address(name)
                return True
            except ValueError:
                return False
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        if not self.allowed(host):
            status = 400 if not host else 421
            msg = "missing Host header" if not host else f"this server does not answer for host {host!r}"
            response = _error(status, msg)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """nosniff, no referrer, no framing, and a locked-down CSP unless the route set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def wrapped(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY"), (b"cross-origin-resource-policy", b"same-origin")]
                if b"content-security-policy" not in names:
                    extra.append((b"content-security-policy", DATA_CSP.encode()))
                headers += [(k, v) for k, v in extra if k not in names]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, wrapped)


class HeadAsGet:
    """HEAD wherever GET works (HTTP requires it; FastAPI's GET routes answer HEAD with 405): the
    request runs as a GET and the answer goes out with its headers and no body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def _host_names(c: ServeConfig) -> tuple[set[str], bool]:
    names = {"localhost", "127.0.0.1", "::1"}
    host = c.host.strip("[]").lower()
    wildcard = host in ("0.0.0.0", "::", "")
    if not wildcard:
        names.add(host)
    else:
        names.update({socket.gethostname().lower(), socket.getfqdn().lower()})
    base_host = urlsplit(c.base).hostname
    if base_host:
        names.add(base_host.lower())
    return names, wildcard
