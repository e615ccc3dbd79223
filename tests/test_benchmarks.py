"""Smoke test of benchmarks/run.py at the tiniest sizes: the sections run and print their figures.

Behavioural only (no timing thresholds): the builds are left out (each runs in fresh processes
that load the model, which is slow), the store, query, export and view sections run on a few
thousand generated triples, and the text generator on two seed articles.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kg.rdf.query import QUERY_DIR

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def _load(name: str, path: Path):  # type: ignore[no-untyped-def]
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


run = _load("kg_bench_run", BENCH / "run.py")
volume = _load("volume", BENCH / "volume.py")


@pytest.mark.model
def test_store_queries_export_view_sections_print_their_figures() -> None:
    lines: list[str] = []
    report = run.main(["--only", "store,view", "--triples", "3000", "--runs", "1", "--cap", "5",
                       "--view-nodes", "60", "--no-browser", "--no-store-view"], out=lines.append)
    text = "\n".join(lines)
    for heading in ("== machine", "== 4.", "== 5.", "== 6.", "== 7.", "== summary"):
        assert heading in text
    assert re.search(r"cores: \d+ logical", text) and "pyoxigraph" in text and "spacy" in text
    assert "generated articles' facts" in text and "no parse" in text
    names = [f.name for f in report.figures]
    for query in sorted(p.name for p in QUERY_DIR.glob("*.rq")):
        assert f"{query} on Oxigraph (median)" in names
        assert query in text
    for selective in run.SELECTIVE:
        assert f"{selective} rdflib/Oxigraph" in names
        row = next(ln for ln in lines if ln.startswith(selective))
        counts = re.findall(r"\s(\d+)\s", row)
        assert counts and int(counts[0]) > 0, row  # the VALUES entity exists in the generated data
    for before in sorted(p.name for p in run.BEFORE.glob("*.rq")):  # the reshaped ones, side by side
        assert f"{before} before/now on Oxigraph" in names
    assert "as shaped before" in text and "(differ)" not in text
    assert any(n.startswith("store ") and "triples" in n for n in names)
    assert {"export turtle", "export nquads"} <= set(names)
    assert "view HTML, 60 entities" in names
    assert all(f.met in ("yes", "no", "n/a") for f in report.figures)
    summary = text[text.index("== summary"):]
    assert "figure" in summary and "target" in summary and "met" in summary


def test_quick_defaults_and_flags() -> None:
    quick = run.parse_args(["--quick"])
    full = run.parse_args([])
    assert full.long_articles == 5000 and full.triples == 1_000_000 and full.procs == [1, 2]
    assert quick.long_articles < full.long_articles and quick.triples < full.triples
    assert run.parse_args(["--quick", "--triples", "7"]).triples == 7


def test_rss_of_the_process_tree() -> None:
    rss, procs = run.rss_tree()
    assert rss > 0 and procs >= 1
    sampler = run.PeakSampler(interval=0.01)
    sampler.start()
    sampler.stop()
    assert sampler.peak >= 1


def test_jobs_report_the_cpu_seconds_of_their_process_tree() -> None:
    # a job's CPU includes the processes it starts and waits for: a child that spins 0.3 s counts
    before = run._children_cpu()
    spin = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    subprocess.run([sys.executable, "-c", "import subprocess, sys; subprocess.run([sys.executable, '-c', "
                    + repr(spin) + "])"], check=True)
    assert run._children_cpu() - before >= 0.25


def test_text_generator_varies_names_in_real_seed_text(nlp) -> None:  # type: ignore[no-untyped-def]
    seeds = volume.seed_paths()[:2]
    templates = volume.templates(nlp, seeds)
    assert templates and all(t.names.get("Person") or t.names.get("Organization") for t in templates)
    gen = volume.TextGenerator(templates, volume.Names(keep=0.0))
    ids_texts = [gen.article(i) for i in range(4)]
    assert len({aid for aid, _ in ids_texts}) == 4
    for i, (_, text) in enumerate(ids_texts):
        tpl = templates[i % len(templates)]
        assert text != tpl.text  # names replaced ...
        assert text.count("\n") == tpl.text.count("\n")  # ... inside the same article
    short = volume.TextGenerator(volume.templates(nlp, seeds[:1], min_words=50))
    assert 50 <= len(short.article(0)[1].split()) < len(seeds[0].read_text(encoding="utf-8").split())


def test_facts_generator_varies_ids_and_names() -> None:
    from factsamples import sample_facts  # hand-built facts, no model

    gen = volume.FactsGenerator([sample_facts()], volume.Names(keep=0.0))
    a, b = gen.article(0), gen.article(1)
    assert a.article.id != b.article.id
    labels = lambda f: {e.label for e in f.entities.values() if e.type != "Group"}  # noqa: E731
    assert labels(a) != labels(b)
    assert len(a.events) == len(sample_facts().events)


def test_generated_entities_name_themselves_consistently() -> None:
    from factsamples import sample_facts

    from kg.model.names import words

    gen = volume.FactsGenerator([sample_facts()], volume.Names(keep=0.0))
    ents = [e for i in range(20) for e in gen.article(i).entities.values() if e.type != "Group"]
    assert ents
    for e in ents:  # every other name is a short form of the label or its initials: no other entity's name
        for alias in e.aliases - {e.label}:
            assert set(words(alias)) < set(words(e.label)) or alias == "".join(
                w[0] for w in e.label.split() if w[:1].isupper()), (e.label, alias)


def test_the_scale_build_job_stores_and_resolves_generated_articles(tmp_path: Path) -> None:
    import pickle

    from factsamples import sample_facts

    from kg.store import OxigraphStore

    scale = _load("scale", BENCH / "scale.py")
    facts = tmp_path / "facts.pkl"
    facts.write_bytes(pickle.dumps([sample_facts()]))
    res = scale.job_facts_build({"n": 4, "store": str(tmp_path / "s"), "facts": str(facts)})
    assert res["quads"] > res["triples"] > 0 and res["peak"] > 0
    store = OxigraphStore(tmp_path / "s")
    try:
        assert len([g for g in store.graphs() if "/graph/" in g]) == 4
        assert any(g.endswith("/resolution") for g in store.graphs())
    finally:
        store.close()


@pytest.mark.model
def test_build_section_compares_the_build_with_both_bare_pipelines(tmp_path: Path) -> None:
    lines: list[str] = []
    report = run.main(["--only", "build", "--articles", "6", "--repeat", "1", "--keep", str(tmp_path)],
                      out=lines.append)
    text = "\n".join(lines)
    figures = {f.name: f for f in report.figures}
    for workers in ("1 process", "2 processes"):
        assert f"build/bare ratio, {workers}" in figures and f"build/kg pipe ratio, {workers}" in figures
        assert figures[f"build/bare ratio, {workers}"].met in ("yes", "no")
    assert "build scaling 1 -> 2 workers" in figures and "bare nlp.pipe scaling 1 -> 2" in figures
    assert "build scaling 1 -> 2 cores" in figures  # Linux: sched_setaffinity holds the build to one core
    assert "6 generated articles" in text and "the model as shipped" in text
    assert "warning: the build stored" not in text  # every build stored every article
    rows = [ln for ln in lines if re.match(r"\s+[12]\s+(model|kg pipe|build)\s", ln)]
    assert len(rows) == 6, rows
