"""The framing of the pipe between ``kg serve`` and its query workers: a frame is two big-endian
lengths, a JSON header and a body of raw bytes."""
from __future__ import annotations

import json
import os
import struct
import time
from typing import Any

#: The lengths of a frame's header and body.
_FRAME = struct.Struct(">II")
#: The largest header or body a reader accepts.
MAX_FRAME = 1 << 30


class ProtocolError(Exception):
    """A worker sent something that is not a frame (it crashed or wrote to stdout)."""


def write_frame(fd: int, header: dict[str, Any], body: bytes = b"") -> None:
    """Write one frame to ``fd``, all of it."""
    head = json.dumps(header, ensure_ascii=False).encode("utf-8")
    data = memoryview(_FRAME.pack(len(head), len(body)) + head + body)
    while data:
        n = os.write(fd, data)
        data = data[n:]


def read_exact(fd: int, n: int, deadline: float | None) -> bytes:
    """``n`` bytes from ``fd``; ``TimeoutError`` past ``deadline`` (``time.monotonic``), ``EOFError`` if it closes."""
    import select

    chunks: list[bytes] = []
    while n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError("the pipe was closed")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, deadline: float | None = None) -> tuple[dict[str, Any], bytes]:
    """One frame from ``fd``: its header and body (``ProtocolError`` if it is none)."""
    head_len, body_len = _FRAME.unpack(read_exact(fd, _FRAME.size, deadline))
    if head_len > MAX_FRAME or body_len > MAX_FRAME:
        raise ProtocolError("frame too large")
    try:
        header = json.loads(read_exact(fd, head_len, deadline))
    except ValueError as err:
        raise ProtocolError(str(err)) from err
    return header, read_exact(fd, body_len, deadline)
