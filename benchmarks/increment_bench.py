"""Section "increment" of ``benchmarks/run.py`` (issue 23): the cost of adding one article to a
store of N articles against building it into an empty store, side by side in one run.

Each run is a whole ``kg build ONE.jsonl`` process with default flags (model loading counted), on
a fresh copy of the N-article store or on an empty one, alternated, the median kept; a third side
is the same build with ``--full-resolve`` (what every build did before the memo). Then, in this
process, the resolution alone on the N-article store: incremental after adding the one article
against a full recompute (``kg.resolve.graph.update_resolution``).

    .venv/bin/python benchmarks/run.py --only increment --inc-articles 600
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]


def _kg_build(inputs: Path, store: Path, *flags: str) -> float:
    """Seconds of one whole ``kg build`` process (default flags but ``flags``)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", "from kg.cli import run; run()", "build", str(inputs),
                           "--store", str(store), *flags], capture_output=True, text=True, cwd=str(ROOT), env=env)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"kg build failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return seconds


def _resolution_seconds(store_dir: Path, graph: str, full: bool) -> tuple[float, Any]:
    """Seconds of ``update_resolution`` on the store, after ``graph`` was written."""
    from kg.config import Settings
    from kg.resolve.curation import Curation
    from kg.resolve.graph import update_resolution
    from kg.store import open_store

    st = open_store(store_dir)
    try:
        t0 = time.perf_counter()
        res = update_resolution(st, Settings().base, curation=Curation(), full=full, touched=[graph])
        return time.perf_counter() - t0, res
    finally:
        st.close()


def section_increment(args: argparse.Namespace, report: Any, work: Path,
                      write_articles: Callable[[Path, int, int | None], tuple[int, int]]) -> None:
    n, runs = args.inc_articles, args.inc_runs
    report.section(f"8. adding one article to a store of {n:,} articles vs into an empty store (issue 23)")
    many, one = work / "inc-store.jsonl", work / "inc-one.jsonl"
    _, words = write_articles(many, n + 1, args.long_words)
    lines = many.read_text(encoding="utf-8").splitlines()
    many.write_text("\n".join(lines[:n]) + "\n", encoding="utf-8")
    one.write_text(lines[n] + "\n", encoding="utf-8")
    base = work / "inc-base"
    t0 = time.perf_counter()
    _kg_build(many, base)
    report.line(f"{n:,} generated short articles (at least {args.long_words} words, names varied; {words:,} words "
                f"with the one added), built in {time.perf_counter() - t0:.1f} s (default flags)")
    sides: dict[str, list[float]] = {"empty": [], "store": [], "store --full-resolve": []}
    for _ in range(runs):
        for side in sides:
            target = work / "inc-run"
            shutil.rmtree(target, ignore_errors=True)
            if side != "empty":
                shutil.copytree(base, target)
            sides[side].append(_kg_build(one, target, *(["--full-resolve"] if "full" in side else [])))
    shutil.rmtree(work / "inc-run", ignore_errors=True)
    med = {side: statistics.median(v) for side, v in sides.items()}
    for side, v in sides.items():
        report.line(f"kg build ONE into {side:<22} median {med[side]:6.2f} s of {runs} "
                    f"({', '.join(f'{x:.2f}' for x in v)}); / empty {med[side] / med['empty']:.2f}x")
    report.figure(f"add 1 article to {n:,} / into empty", f"{med['store'] / med['empty']:.2f}x", "<= 1.3x",
                  med["store"] / med["empty"] <= 1.3)
    report.figure("same, --full-resolve / into empty", f"{med['store --full-resolve'] / med['empty']:.2f}x")

    from kg.config import Settings
    from kg.model.iris import Minter

    graph = Minter(Settings().base).graph(_article_id(one))
    target = work / "inc-res"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(base, target)
    _kg_build(one, target)
    _resolution_seconds(target, graph, False)  # warm-up: imports, first reads
    timed: dict[bool, list[float]] = {False: [], True: []}
    change = None
    for _ in range(runs):
        for full in (False, True):
            seconds, res = _resolution_seconds(target, graph, full)
            timed[full].append(seconds)
            if not full:
                change = res.change
    shutil.rmtree(target, ignore_errors=True)
    inc, whole = statistics.median(timed[False]), statistics.median(timed[True])
    report.line(f"resolution alone, the one article touched, on the {n + 1:,}-article store: incremental "
                f"{inc:.2f} s, full recompute {whole:.2f} s (median of {runs}; {whole / inc:.1f}x); the incremental "
                f"one read {len(change.read) if change else '?'} article graph(s) and counted mentions in "
                f"{len(change.counted) if change else '?'} article(s)")
    report.figure(f"resolution at {n + 1:,} articles, full / incremental", f"{whole / inc:.1f}x")


def _article_id(path: Path) -> str:
    import json

    return str(json.loads(path.read_text(encoding="utf-8").splitlines()[0])["id"])
