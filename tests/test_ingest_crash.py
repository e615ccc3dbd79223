"""A build killed with SIGKILL loses nothing it committed; the store stays locked to other writers
while it runs; a re-run skips what is stored and completes. Real ``kg build`` subprocesses."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections import defaultdict
from pathlib import Path

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from kg.build.pipeline import build, extract_articles
from kg.cli import app
from kg.config import Settings
from kg.errors import StoreLocked
from kg.model.facts import Article
from kg.model.iris import Minter
from kg.rdf.mapping import article_triples, to_ntriples
from kg.store import open_store
from kg.text.sources import read_articles

KG = Path(sys.executable).with_name("kg")
BASE = Settings().base
HASH = "https://w3id.org/kg-news/ns#contentHash"
PEOPLE = ["John Mwangi", "Fred Otieno", "Mary Wanjiru", "Peter Kamau", "Grace Achieng", "David Kiprop"]
TOWNS = ["Nairobi", "Mombasa", "Kisumu", "Nakuru", "Eldoret", "Garissa"]


def _article(n: int) -> str:
    who, other, town = PEOPLE[n % 6], PEOPLE[(n + 1) % 6], TOWNS[n % 6]
    return (
        f"Police arrest {n} suspects in {town}\n\n"
        f"{town.upper()} - Kenyan police arrested {n + 2} suspects on Friday after an attack on a market in {town}, "
        f"police spokesman {who} said.\n\n"
        f"Interior Minister {other} condemned the attack and urged residents to stay calm. "
        f"Gunmen had opened fire on traders and wounded {n + 3} people, witnesses told reporters.\n\n"
        f"{who} said officers recovered two rifles. The Harbor Relief Fund sent ambulances to {town} hospital.\n"
    )


def _graphs(store) -> dict[str, set[ox.Triple]]:  # type: ignore[no-untyped-def]
    """The article graphs (the shared one, written along with them, is left out)."""
    out: dict[str, set[ox.Triple]] = defaultdict(set)
    for q in ox.parse(store.dump("nquads", union=False), format=ox.RdfFormat.N_QUADS):
        if "/graph/" in q.graph_name.value:
            out[q.graph_name.value].add(ox.Triple(q.subject, q.predicate, q.object))
    return out


def _kill_after_three(proc: subprocess.Popen, src: Path, store_dir: Path) -> list[str]:
    """Read the build's lines; check the lock once it has stored one; SIGKILL it after three."""
    assert proc.stderr is not None
    printed: list[str] = []
    locked_checked = False
    while len(printed) < 3:
        line = proc.stderr.readline()
        assert line, f"kg build ended early (rc {proc.poll()})"
        if line.startswith("kg: stored "):
            printed.append(line.split()[-1])
        if printed and not locked_checked:
            # a second writer while the first one runs: a one-line error, nothing touched
            with pytest.raises(StoreLocked, match="locked by another kg process"):
                build([src], Settings(store=str(store_dir), workers=1))
            res = CliRunner().invoke(app, ["build", str(src), "--store", str(store_dir), "--workers", "1"])
            assert res.exit_code == 1 and "store is locked by another kg process" in res.output, res.output
            assert len(res.output.strip().splitlines()) == 1
            locked_checked = True
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    return printed + [line.split()[-1] for line in proc.stderr.read().splitlines() if line.startswith("kg: stored ")]


@pytest.mark.model
def test_sigkill_mid_build_keeps_committed_articles_whole_and_a_rerun_completes(tmp_path: Path):
    src = tmp_path / "in"
    src.mkdir()
    for n in range(30):
        (src / f"a{n:02d}.txt").write_text(_article(n), encoding="utf-8")
    store_dir = tmp_path / "store"
    with subprocess.Popen(
        [str(KG), "build", str(src), "--store", str(store_dir), "--out", str(tmp_path / "out"), "--workers", "1", "-v"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True,
    ) as proc:
        watchdog = threading.Timer(120, lambda: os.killpg(proc.pid, signal.SIGKILL))
        watchdog.start()
        try:
            printed = _kill_after_three(proc, src, store_dir)
        finally:
            watchdog.cancel()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    assert proc.returncode == -signal.SIGKILL

    minter = Minter(BASE)
    store = open_store(store_dir)  # opens after the crash
    try:
        stored = _graphs(store)
    finally:
        store.close()
    assert {minter.graph(i) for i in printed} <= set(stored), "every article reported stored is in the store"
    assert 3 <= len(stored) < 30, "the build was killed part-way"
    # each stored graph is whole: its hash triple, and exactly the triples of a fresh build of that article
    articles = [a for a in read_articles([src]) if isinstance(a, Article)]
    wanted = {minter.graph(a.id): a for a in articles if minter.graph(a.id) in stored}
    assert len(wanted) == len(stored)
    for facts in extract_articles(wanted.values(), Settings(workers=1)):
        g = minter.graph(facts.article.id)
        nt = to_ntriples(article_triples(facts, minter)).encode("utf-8")
        fresh = {ox.Triple(q.subject, q.predicate, q.object) for q in ox.parse(nt, format=ox.RdfFormat.N_TRIPLES)}
        assert any(t.predicate.value == HASH and t.object.value == facts.article.content_hash for t in stored[g])
        assert stored[g] == fresh, facts.article.id

    # the re-run skips what was committed and does the rest
    done = len(stored)
    res = CliRunner().invoke(app, ["build", str(src), "--store", str(store_dir), "--out", str(tmp_path / "out"),
                                   "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert f"{30 - done} article(s) stored, {done} unchanged, 0 skipped" in res.output
    store = open_store(store_dir)
    try:
        after = {g: ts for g, ts in _graphs(store).items() if g != f"{BASE}resolution"}
    finally:
        store.close()
    assert len(after) == 30 and all(any(t.predicate.value == HASH for t in ts) for ts in after.values())
    assert all(after[g] == stored[g] for g in stored)
    # --force rebuilds everything
    forced = CliRunner().invoke(app, ["build", str(src), "--store", str(store_dir), "--workers", "1", "--force",
                                      "--out", str(tmp_path / "out")])
    assert forced.exit_code == 0 and "30 article(s) stored, 0 unchanged" in forced.output


def test_a_store_held_by_another_process_is_reported_locked(tmp_path: Path):
    store_dir = tmp_path / "store"
    with subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from kg.store import open_store; s = open_store(sys.argv[1]); "
         "print('ready', flush=True); time.sleep(60)", str(store_dir)],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
            (tmp_path / "a.txt").write_text(_article(1), encoding="utf-8")
            res = CliRunner().invoke(app, ["build", str(tmp_path / "a.txt"), "--store", str(store_dir)])
            assert res.exit_code == 1
            assert "store is locked by another kg process" in res.output and "Traceback" not in res.output
        finally:
            os.killpg(holder.pid, signal.SIGKILL)
            holder.wait()
    # once the holder is gone (even killed), the store opens again
    open_store(store_dir).close()
