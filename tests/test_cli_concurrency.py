"""kg commands side by side (issue 26, cases 7, 8 and 9): two curation commands on one file both
land, worker processes die with a killed build, and the read commands answer while a build writes."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_server_support import build_store

from kg.curation import load

ROOT = Path(__file__).resolve().parents[1]

#: The command line, with a pause while a curation command holds the file it read: it waits (up to
#: 3 s) until the other command has read it too, which an unlocked read-modify-write lets happen.
SLOW_CURATION = """
import sys, time
from pathlib import Path
import kg.resolve as resolve

real = resolve.compute
mine, other = Path(sys.argv.pop(1)), Path(sys.argv.pop(1))

def compute(*args, **kwargs):
    result = real(*args, **kwargs)
    mine.touch()
    deadline = time.monotonic() + 3
    while not other.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return result

resolve.compute = compute
from kg.cli import run
run()
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_two_merges_on_one_curation_file_both_land(tmp_path: Path) -> None:
    one = build_store(tmp_path / "one")
    two = tmp_path / "two"
    shutil.copytree(one, two, ignore=shutil.ignore_patterns("LOCK"))
    curation = tmp_path / "curation.toml"
    marks = [tmp_path / "a.read", tmp_path / "b.read"]
    runs = []
    for store, (a, b), (mine, other) in ((one, ("Hamid Karzai", "Abdul Rahim Wardak"), marks),
                                         (two, ("Taliban", "Defense Ministry"), marks[::-1])):
        runs.append(subprocess.Popen(
            [sys.executable, "-c", SLOW_CURATION, str(mine), str(other), "merge", a, b, "--store", str(store),
             "--curation", str(curation)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env()))
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0 and "wrote" in err, err
    merged = {tuple(sorted(e.values["entities"])) for e in load(curation).of("merge")}
    assert len(merged) == 2, merged  # neither decision is lost


#: A build whose jobs never end (and that loads no model): its worker processes stay busy until
#: the driver is killed.
STUCK_BUILD = """
import time
import kg.workers as workers

def stuck(job, spec):
    time.sleep(120)

workers.run_job = stuck
workers.model = lambda name: None
from kg.cli import run
run()
"""


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_worker_processes_die_when_the_build_is_killed(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for i in range(8):
        (src / f"a{i}.txt").write_text(f"Article {i} of an invented town.\n", encoding="utf-8")
    build = subprocess.Popen([sys.executable, "-c", STUCK_BUILD, "build", str(src), "--store", str(tmp_path / "st"),
                              "--workers", "2", "--no-out"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=_env())
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(build.pid)) < 2 and time.monotonic() < deadline and build.poll() is None:
            time.sleep(0.05)
        assert len(workers) >= 2, "the build started no worker processes"
        time.sleep(0.3)  # the workers have started their jobs
        build.kill()  # SIGKILL: the driver can stop no one
        build.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers)
    finally:
        build.kill()
        for w in workers | _children(build.pid):
            if _alive(w):
                os.kill(w, 9)
