"""kg at the size of a year of a news desk (issue 35), side by side in one run:

1. the build of ``--articles`` generated articles (default 10,000, about 7.8M triples) and of a tenth of
   them, each in a fresh process: generated facts (``volume.FactsGenerator``: the seeds' facts with
   names varied, no parse) stored as a build stores them (``pipeline.resolving_writer``: the store
   writer, resolving every ``RESOLVE_EVERY`` articles, then the rest); articles/s, triples/s and
   peak RSS (the process, sampled every 0.5 s);
2. adding one article: whole ``kg build ONE.jsonl`` processes (default flags, model loading
   counted) into a fresh copy of the big store and into an empty store, alternated, median of
   ``--runs``; then, in this process, the incremental resolution of one more article alone: its
   time and how many article graphs it read, texts it counted and entities it reached;
3. every canned query on the big store (Oxigraph, median of ``--query-runs``, each in a child
   process killed at ``--cap`` seconds), against the targets of issue 35;
4. export of the big store: Turtle and N-Quads, seconds and quads/s.

    .venv/bin/python benchmarks/scale.py                      # make bench-scale (about 40 minutes)
    .venv/bin/python benchmarks/scale.py --articles 2000      # smaller
"""
from __future__ import annotations

import argparse
import json
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
for _p in (str(ROOT), str(HERE.parent), str(ROOT / "tests")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import run  # noqa: E402  (benchmarks/run.py: report, RSS sampling, query workers)
from increment_bench import _kg_build  # noqa: E402

#: Issue 35's targets: summary queries, the other whole-store ones (first page), the selective ones.
SUMMARY = ("top-actors.rq", "events-per-article.rq", "conflict-cooperation.rq")
TARGET_MS = {"summary": 200.0, "whole": 1000.0, "selective": 100.0}


def job_facts_build(a: dict[str, Any]) -> dict[str, Any]:
    """Store ``a["n"]`` generated articles' facts into a fresh store as a build does; rate and peak RSS."""
    import volume
    from kg.build.jobs import to_graph
    from kg.build.pipeline import resolving_writer
    from kg.config import Settings
    from kg.model.iris import Minter
    from kg.resolve.graph import update_resolution
    from kg.store import OxigraphStore

    facts = pickle.loads(Path(a["facts"]).read_bytes())
    gen = volume.FactsGenerator(facts)
    minter = Minter(Settings().base)
    sampler = run.PeakSampler()
    sampler.start()
    t0 = time.perf_counter()
    store = OxigraphStore(a["store"])
    writer = resolving_writer(store, minter, lambda m: None)
    triples = 0
    for i in range(a["n"]):
        graph = to_graph(gen.article(i), minter)
        triples += graph.ntriples.count("\n") + 1
        writer.put(graph)
    writer.close()
    t1 = time.perf_counter()
    update_resolution(store, minter, lambda m: None, touched=writer.pending())
    quads = len(store)
    store.close()
    t2 = time.perf_counter()
    sampler.stop()
    return {"seconds": t2 - t0, "last_resolution": t2 - t1, "triples": triples, "quads": quads, "peak": sampler.peak}


def seed_facts(work: Path) -> Path:
    """The seeds' facts (one parse), kept in ``work`` for the build processes."""
    path = work / "seed-facts.pkl"
    if not path.is_file():
        run.note("extracting the seeds' facts")
        path.write_bytes(pickle.dumps(run.seed_facts()))
    return path


def run_job(name: str, args: dict[str, Any]) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, str(HERE), "--job", name, json.dumps(args)], capture_output=True,
                          text=True, cwd=str(ROOT))
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"job {name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return dict(json.loads(lines[-1]))


def section_build(args: argparse.Namespace, report: run.Report, work: Path, facts: Path) -> Path:
    from kg.build.pipeline import RESOLVE_EVERY

    report.section(f"1. build of generated articles: {args.articles // 10:,} and {args.articles:,}")
    report.line("generated facts (the seeds' facts, names varied, no parse) stored as a build stores them: "
                f"the store writer, resolving every {RESOLVE_EVERY:,} articles; a fresh process each; "
                "peak RSS of the process sampled every 0.5 s")
    out: dict[int, dict[str, Any]] = {}
    for n in (args.articles // 10, args.articles):
        store = work / f"store-{n}"
        shutil.rmtree(store, ignore_errors=True)
        run.note(f"build of {n:,} articles")
        res = out[n] = run_job("facts_build", {"n": n, "store": str(store), "facts": str(facts)})
        report.line(f"{n:>7,} articles: {res['seconds']:.0f} s, {n / res['seconds']:.1f} articles/s, "
                    f"{res['triples'] / res['seconds']:,.0f} triples/s; {res['quads']:,} quads; "
                    f"peak RSS {run.gb(res['peak'])}; the last resolution {res['last_resolution']:.1f} s")
        report.figure(f"build {n:,} articles", f"{n / res['seconds']:.1f} art/s")
        report.figure(f"build {n:,} articles, peak RSS", run.gb(res["peak"]))
        if n != args.articles:
            shutil.rmtree(store, ignore_errors=True)
    small, big = out[args.articles // 10], out[args.articles]
    growth = big["peak"] / small["peak"] - 1
    report.figure(f"peak RSS {args.articles:,} vs {args.articles // 10:,}", f"{growth:+.1%}", "within 10%",
                  abs(growth) <= 0.10)
    return work / f"store-{args.articles}"


def section_add_one(args: argparse.Namespace, report: run.Report, work: Path, base: Path, facts: Path) -> None:
    report.section(f"2. adding one article to the {args.articles:,}-article store vs into an empty store")
    one = work / "one.jsonl"
    run.write_articles(one, 1, args.words)
    sides: dict[str, list[float]] = {"empty": [], "store": []}
    for _ in range(args.runs):
        for side in sides:
            target = work / "add-run"
            shutil.rmtree(target, ignore_errors=True)
            if side == "store":
                shutil.copytree(base, target)
            sides[side].append(_kg_build(one, target))
    shutil.rmtree(work / "add-run", ignore_errors=True)
    med = {side: statistics.median(v) for side, v in sides.items()}
    for side, v in sides.items():
        report.line(f"kg build ONE into {side:<6} median {med[side]:.2f} s of {args.runs} "
                    f"({', '.join(f'{x:.2f}' for x in v)})")
    ratio = med["store"] / med["empty"]
    report.figure(f"add 1 article to {args.articles:,} / into empty", f"{ratio:.2f}x", "<= 1.3x", ratio <= 1.3)

    import volume
    from kg.build.jobs import to_graph
    from kg.build.writer import write_article
    from kg.config import Settings
    from kg.model.iris import Minter
    from kg.resolve.graph import update_resolution
    from kg.store import OxigraphStore

    target = work / "add-res"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(base, target)
    minter = Minter(Settings().base)
    gen = volume.FactsGenerator(pickle.loads(facts.read_bytes()))
    store = OxigraphStore(target)
    try:
        times, changes = [], []
        for k in range(args.runs):
            graph = to_graph(gen.article(args.articles + 1 + k), minter)
            write_article(store, graph)
            t0 = time.perf_counter()
            res = update_resolution(store, minter, lambda m: None, touched=[graph.graph])
            times.append(time.perf_counter() - t0)
            changes.append(res.change if res is not None else None)
    finally:
        store.close()
        shutil.rmtree(target, ignore_errors=True)
    for t, c in zip(times, changes):
        if c is not None:
            report.line(f"incremental resolution of one more article: {t:.2f} s; read {len(c.read)} article graph(s), "
                        f"counted mentions in {len(c.counted)}, reached {c.reached} entities in {c.clusters} clusters"
                        f"{' (full)' if c.full else ''}")
    last = changes[-1]
    report.figure("incremental resolution of 1 article (median)", f"{statistics.median(times):.2f} s")
    if last is not None:
        report.figure("article graphs it read", f"{len(last.read)}", "the new one", len(last.read) == 1)


def section_queries(args: argparse.Namespace, report: run.Report, store: Path) -> None:
    import collections

    report.section(f"3. canned queries on the {args.articles:,}-article store (Oxigraph)")
    labels: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for kind, label, n in _frequent_labels(store):
        labels[kind][label] = n
    loaded = run.Loaded(store, args.articles, 0, labels)
    worker = run.QueryWorker("oxigraph", str(store))
    try:
        for name, sparql, selective, msg in run.canned_queries(loaded):
            run.note(f"  {name}")
            res = worker.run(sparql, args.query_runs, args.cap)
            kind = "selective" if selective else "summary" if name in SUMMARY else "whole"
            med = run._med(res)
            report.line(f"{name:<26} {kind:<9} {run._show(res, args.cap):>10}  {res['rows'] if res['rows'] is not None else '-':>7} rows"
                        + (f"  ({msg})" if msg else ""))
            report.figure(f"{name} (median)", run._show(res, args.cap), f"<= {TARGET_MS[kind]:.0f} ms",
                          med is not None and med * 1000 <= TARGET_MS[kind])
    finally:
        worker.close()


def _frequent_labels(store: Path) -> list[tuple[str, str, int]]:
    """(kg type, label, articles) of the most mentioned entity of each type (the selective queries' VALUES)."""
    import pyoxigraph as ox

    db = ox.Store.read_only(str(store))
    out = []
    for t in ("Person", "Organization", "Place"):
        q = ("PREFIX kg: <https://w3id.org/kg-news/ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
             f"SELECT ?l (COUNT(?a) AS ?n) WHERE {{ GRAPH ?g {{ ?a a kg:Article ; kg:mentions ?e }} ?e a kg:{t} ; rdfs:label ?l }} "
             "GROUP BY ?l ORDER BY DESC(?n) LIMIT 1")
        for sol in db.query(q, use_default_graph_as_union=True):
            out.append((t, sol["l"].value, int(sol["n"].value)))
    return out


def section_export(args: argparse.Namespace, report: run.Report, work: Path, store_dir: Path) -> None:
    from kg.outputs.export import export_file
    from kg.store import OxigraphStore

    report.section(f"4. export of the {args.articles:,}-article store")
    store = OxigraphStore(store_dir, read_only=True)
    try:
        quads = len(store)
        for fmt, suffix in (("turtle", "ttl"), ("nquads", "nq")):
            path = work / f"export.{suffix}"
            run.note(f"export {fmt}")
            t0 = time.perf_counter()
            export_file(store, path, fmt)
            dt = time.perf_counter() - t0
            report.line(f"{fmt:<7}: {dt:.1f} s, {path.stat().st_size / 1e6:,.0f} MB, {quads / dt:,.0f} quads/s")
            report.figure(f"export {fmt}", f"{quads / dt:,.0f} quads/s ({dt:.0f} s)")
            path.unlink()
    finally:
        store.close()


def main(argv: list[str] | None = None) -> run.Report:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=10_000, help="articles of the big store (default 10000)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each side of adding one article (default 3)")
    ap.add_argument("--words", type=int, default=100, help="words of the one article added (default 100)")
    ap.add_argument("--query-runs", type=int, default=5, help="runs per query, median shown (default 5)")
    ap.add_argument("--cap", type=float, default=60.0, help="seconds a query may take, all runs together (default 60)")
    ap.add_argument("--only", default="build,add,queries,export", help="sections (build,add,queries,export)")
    ap.add_argument("--keep", metavar="DIR", help="work in DIR and keep its files (a later run reuses the store)")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    report = run.Report()
    started = time.perf_counter()
    run.machine(report)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="kg-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        facts = seed_facts(work)
        base = work / f"store-{args.articles}"
        if "build" in only or not (base / "CURRENT").is_file():
            base = section_build(args, report, work, facts)
        if "add" in only:
            section_add_one(args, report, work, base, facts)
        if "queries" in only:
            section_queries(args, report, base)
        if "export" in only:
            section_export(args, report, work, base)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    report.summary()
    report.line(f"\ntotal {time.perf_counter() - started:.0f} s; load average {run._load()} at the end")
    return report


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--job":
        print(json.dumps({"facts_build": job_facts_build}[sys.argv[2]](json.loads(sys.argv[3]))))
    else:
        main()
