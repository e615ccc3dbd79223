"""Helpers shared by the ``kg serve`` tests (this module holds no tests of its own).

The store is built from the hand-made facts of ``viewsamples`` (hostile text in every text
field) through the real mapping into an on-disk Oxigraph store, since the server's workers
open a directory read-only. No spaCy.
"""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import viewsamples as vs

with warnings.catch_warnings():  # starlette asks for httpx2 at import; the lock pins httpx, which works
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

from kg.build.jobs import to_graph
from kg.build.writer import write_article
from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence
from kg.serve.app import create_app
from kg.serve.config import ServeConfig
from kg.store import OxigraphStore

ROOT = Path(__file__).resolve().parents[1]
KG = str(Path(sys.executable).with_name("kg"))
ORIGIN = "http://127.0.0.1:7878"


#: An article whose id needs percent-encoding (a slash and a space) and a non-Latin name,
#: so entity IRIs have %XX in them: entity/wire%2Fa%20b.txt/group/a-crowd, entity/person/%E6...
ODD_ARTICLE = "wire/a b.txt"
ODD_NAME = "李明"
CROWD = vs.iri("Group", "a crowd", ODD_ARTICLE)
ODD_PERSON = vs.iri("Person", ODD_NAME)


def odd_facts() -> ArticleFacts:
    sentence = f"A crowd surrounded {ODD_NAME}."
    art = Article(id=ODD_ARTICLE, text=sentence, title="An odd id", content_hash="h3")
    ents = [Entity("crowd", "a crowd", "Group"), Entity("li", ODD_NAME, "Person")]
    events = [Event("crowd", "surround", Evidence(text=sentence, start=0, end=len(sentence)), target="li")]
    return ArticleFacts(art, {e.key: e for e in ents}, events, [])


def build_store(path: Path, odd: bool = False) -> Path:
    """An on-disk store holding the two sample articles of ``viewsamples`` (and ``odd_facts``)."""
    store = OxigraphStore(path)
    try:
        for f in vs.sample_facts() + ([odd_facts()] if odd else []):
            write_article(store, to_graph(f, vs.MINTER))
    finally:
        store.close()
    return path


@contextmanager
def client(store: Path, **options: object) -> Iterator[TestClient]:
    """A TestClient over ``create_app`` (its lifespan starts and stops the worker pool)."""
    config = ServeConfig(store=str(store), **{"timeout": 10.0, **options})  # type: ignore[arg-type]
    with TestClient(create_app(config), base_url=ORIGIN, raise_server_exceptions=True) as c:
        yield c


class Listener:
    """A TCP listener on 127.0.0.1:0 that counts every connection it is offered."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._stop = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        self.sock.settimeout(0.2)
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.hits += 1
            conn.close()

    def close(self) -> None:
        self._stop = True
        self.thread.join(timeout=2)
        self.sock.close()


class Served:
    """A real ``kg serve`` process on a free port; ``url`` is what it printed."""

    def __init__(self, store: Path, *args: str) -> None:
        self.stderr = tempfile.TemporaryFile()  # not a pipe: a full pipe would block the server
        self.proc = subprocess.Popen(
            [KG, "serve", "--store", str(store), "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True, cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not m:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.stderr.seek(0)
            raise AssertionError(f"kg serve printed {line!r}; stderr: {self.stderr.read()[-2000:]!r}")
        self.line = line
        self.url = m.group(0)

    def stop(self) -> str:
        """Stop the server as a user does (SIGTERM) and return what it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.stderr.closed:
            return ""
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        self.stop()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.stderr.close()


def purifier_report(problem: dict[str, Any]) -> bool:
    """Chromium's CSP report for an inline handler in text that YASR's DOMPurify parses (in an inert
    document) to sanitize a table cell: reported and blocked, never run (the tests check nothing ran)."""
    entry = problem.get("entry", {})
    frames = entry.get("stackTrace", {}).get("callFrames", [])
    return (entry.get("text", "").startswith("Executing inline event handler violates")
            and any(f["url"].endswith("/static/yasgui.min.js") and f["functionName"].endswith("sanitize")
                    for f in frames))
