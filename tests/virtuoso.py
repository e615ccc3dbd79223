"""A throwaway Virtuoso server for the remote-store tests, started once per test session.

Imported as a plain module (``import virtuoso``). ``server(request)`` starts Debian's
``virtuoso-t`` (package ``virtuoso-opensource``, ``make virtuoso``) in the foreground on two free
loopback ports, with its own database in a temporary folder, grants SPARQL updates to the
anonymous ``/sparql`` user, and stops it when the session ends. Without Virtuoso the test is
skipped, or fails when the environment variable CI is set (CI must not skip it silently).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from kg.store.sparql_http import SparqlHttpStore

#: Rows in one answer: Virtuoso's own default, so the tests meet the cap a real server has.
RESULT_ROWS = 10_000

_INI = """\
[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
LockFile = {d}/virtuoso.lck
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx

[Parameters]
ServerPort = 127.0.0.1:{sql}
DisableUnixSocket = 1
MaxClientConnections = 10
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = .
NumberOfBuffers = 5000
MaxDirtyBuffers = 3000
ThreadsPerQuery = 2

[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = {d}
MaxClientConnections = 5
ServerThreads = 5
Charset = UTF-8

[SPARQL]
ResultSetMaxRows = {rows}
MaxQueryExecutionTime = 60
"""


@dataclass
class Virtuoso:
    """A running server: its SPARQL endpoints as kg store URLs."""

    http_port: int
    sql_port: int
    folder: Path

    @property
    def anonymous(self) -> str:
        """``/sparql``, where the fixture granted SPARQL updates to everyone."""
        return f"sparql+http://127.0.0.1:{self.http_port}/sparql"

    @property
    def dba(self) -> str:
        """``/sparql-auth`` with the dba login (answered by HTTP Digest)."""
        return f"sparql+http://dba:dba@127.0.0.1:{self.http_port}/sparql-auth"


_running: Virtuoso | None = None
_broken: str | None = None  # why the server did not start: said once, then repeated


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _missing(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI must run the Virtuoso tests (make virtuoso installs it)")
    pytest.skip(f"{message} (make virtuoso installs it)")


def _start(folder: Path) -> tuple[Virtuoso, subprocess.Popen[bytes]]:
    binary = shutil.which("virtuoso-t")
    isql = shutil.which("isql-vt") or shutil.which("isql")
    if binary is None or isql is None:
        _missing("Virtuoso (virtuoso-t, isql-vt) is not installed")
    assert binary is not None and isql is not None
    srv = Virtuoso(http_port=_free_port(), sql_port=_free_port(), folder=folder)
    ini = folder / "virtuoso.ini"
    ini.write_text(_INI.format(d=folder, sql=srv.sql_port, http=srv.http_port, rows=RESULT_ROWS), encoding="utf-8")
    log = (folder / "stdout.log").open("wb")
    proc = subprocess.Popen([binary, "+foreground", "+configfile", str(ini)], cwd=folder,
                            stdout=log, stderr=subprocess.STDOUT)
    log.close()
    deadline = time.monotonic() + 90
    probe = f"http://127.0.0.1:{srv.http_port}/sparql?query=ASK%7B%7D"
    while True:
        if proc.poll() is not None or time.monotonic() > deadline:
            _stop(proc)
            tail = (folder / "stdout.log").read_text(errors="replace")[-2000:]
            pytest.fail(f"Virtuoso did not start (exit {proc.returncode}):\n{tail}")
        try:
            with urllib.request.urlopen(probe, timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            time.sleep(0.2)
    grant = subprocess.run([isql, f"127.0.0.1:{srv.sql_port}", "dba", "dba", 'EXEC=GRANT SPARQL_UPDATE TO "SPARQL";'],
                           capture_output=True, text=True, timeout=60)
    if grant.returncode != 0 or "Error" in grant.stdout + grant.stderr:
        _stop(proc)
        pytest.fail(f"could not grant SPARQL_UPDATE: {grant.stdout}{grant.stderr}")
    return srv, proc


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)


def server(request: pytest.FixtureRequest) -> Virtuoso:
    """The session's Virtuoso (started on first use, stopped at the end of the session)."""
    global _running, _broken
    if _broken is not None:
        pytest.fail(_broken)
    if _running is None:
        folder = request.getfixturevalue("tmp_path_factory").mktemp("virtuoso")
        try:
            srv, proc = _start(folder)
        except pytest.fail.Exception as err:
            _broken = str(err)
            raise
        request.config.add_cleanup(lambda: _stop(proc))
        _running = srv
    return _running


#: The base IRI of the stores ``empty_store`` opens (the contract tests' graphs are under it).
BASE = "https://kg.example.org/"


def empty_store(request: pytest.FixtureRequest, base: str = BASE, **options: object) -> "SparqlHttpStore":
    """A store on the session's Virtuoso with no kg graph under ``base`` (each test starts clean)."""
    from kg.store.sparql_http import SparqlHttpStore

    store = SparqlHttpStore(server(request).anonymous, base=base, **options)  # type: ignore[arg-type]
    for graph in store.graphs():
        store.remove_graph(graph)
    return store
