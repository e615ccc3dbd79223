"""Where article jobs run: the process pool and a Dask cluster give the graph of a build in this
process; jobs free their vocabulary strings (memory_zone); failures reach the driver as KgErrors."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from kg.build.jobs import JOB_ARTICLES, JobSpec, Zone, batches, jobs, model, read_job, run_job
from kg.build.pipeline import build
from kg.build.workers import MIN_POOL_ARTICLES, run_articles
from kg.cli import app
from kg.config import Settings
from kg.errors import KgError, ModelError, WorkerError
from kg.model.facts import Article
from kg.store import open_store
from kg.text.sources import read_articles

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
BASE = Settings().base


def _seed_articles() -> list[Article]:
    return [a for a in read_articles([str(SEEDS)]) if isinstance(a, Article)]


def _quads(store_dir: Path) -> set[str]:
    store = open_store(str(store_dir), BASE)
    try:
        return set(store.dump("nquads", union=False).decode("utf-8").splitlines())
    finally:
        store.close()


def _build(tmp_path: Path, name: str, workers: int, dask: str | None = None) -> set[str]:
    store = tmp_path / name
    report = build([SEEDS], Settings(store=str(store), workers=workers), dask=dask)
    assert report.articles == len(_seed_articles())
    return _quads(store)


@pytest.fixture(scope="module")
def local_quads(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    return _build(tmp_path_factory.mktemp("local"), "store", workers=1)


def test_seeds_are_enough_articles_for_the_pool() -> None:
    assert len(_seed_articles()) >= MIN_POOL_ARTICLES


def test_pool_of_two_gives_the_graph_of_the_in_process_build(tmp_path: Path, local_quads: set[str]) -> None:
    assert len(local_quads) > 1000
    assert _build(tmp_path, "pool", workers=2) == local_quads


def test_pool_yields_articles_in_input_order() -> None:
    arts = _seed_articles()
    spec = JobSpec(model=Settings().model, base=BASE, max_chars=50_000)
    done = list(run_articles(reversed(arts), spec, workers=2))
    assert [d.article_id for d in done] == [a.id for a in reversed(arts)]
    (one,) = run_job([arts[0]], spec)
    assert done[-1] == one  # parsed alone or in a job with others: the same graph


@pytest.mark.model
def test_a_job_error_in_a_worker_reaches_the_driver_as_its_kg_error() -> None:
    spec = JobSpec(model="no_such_spacy_model", base=BASE, max_chars=50_000)
    with pytest.raises(ModelError, match="no_such_spacy_model"):
        list(run_articles(_seed_articles()[:MIN_POOL_ARTICLES], spec, workers=2))


def test_an_article_leaves_no_strings_in_the_vocabulary() -> None:
    nlp = model(Settings().model)
    art = Article(id="zone", text="Zorblax Quintavius met Vuldramor Pensk in Xantheria on Tuesday. "
                                  "The Frobnitz Council elected Wexley Orrimand as its chairwoman.")
    before = len(nlp.vocab.strings)
    (facts,) = read_job(nlp, [art], 50_000)
    assert len(nlp.vocab.strings) == before
    assert any("Zorblax" in e.label or "Wexley" in e.label for e in facts.entities.values())
    (again,) = read_job(nlp, [art], 50_000)  # facts outlive the zone: plain strings, equal each time
    assert again == facts


def test_a_shared_zone_keeps_strings_until_its_budget_is_parsed_or_it_is_closed() -> None:
    nlp = model(Settings().model)
    art = Article(id="zone2", text="Quorvane Telliximar visited Blenthorpe Vasq in Ostrovia on Monday.")
    before = len(nlp.vocab.strings)
    roomy = Zone(nlp, budget=10_000)
    (facts,) = read_job(nlp, [art], 50_000, roomy)
    assert len(nlp.vocab.strings) > before  # still open: the next job would find these words
    assert read_job(nlp, [art], 50_000, roomy) == [facts]
    roomy.close()
    assert len(nlp.vocab.strings) == before
    tight = Zone(nlp, budget=len(art.text))
    assert read_job(nlp, [art], 50_000, tight) == [facts]
    assert len(nlp.vocab.strings) == before  # the job used the budget: the zone closed after it


def test_a_failing_job_closes_the_shared_zone() -> None:
    nlp = model(Settings().model)
    before = len(nlp.vocab.strings)
    shared = Zone(nlp, budget=10_000)
    with pytest.raises(RuntimeError):
        with shared.job(10):
            nlp("Wirrendal Proxmoor spoke.")
            raise RuntimeError("boom")
    assert len(nlp.vocab.strings) == before


def test_a_build_in_this_process_leaves_no_strings_in_the_vocabulary() -> None:
    spec = JobSpec(model=Settings().model, base=BASE, max_chars=50_000)
    nlp = model(spec.model)
    before = len(nlp.vocab.strings)
    done = list(run_articles(_seed_articles(), spec, workers=1))
    assert done and len(nlp.vocab.strings) == before


def test_dask_cluster_of_two_workers_gives_the_graph_of_the_local_build(tmp_path: Path,
                                                                        local_quads: set[str]) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster:
        assert _build(tmp_path, "dask", workers=1, dask=cluster.scheduler_address) == local_quads


def test_unreachable_dask_scheduler_is_one_line_and_exit_code(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["build", str(SEEDS), "--store", str(tmp_path / "s"), "--out", str(tmp_path / "o"),
                                   "--dask", "tcp://127.0.0.1:9"])
    assert res.exit_code != 0
    assert "Dask scheduler at tcp://127.0.0.1:9" in res.output
    assert "Traceback" not in res.output
    assert issubclass(WorkerError, KgError)


@given(st.lists(st.integers(min_value=0, max_value=30)), st.integers(min_value=1, max_value=5),
       st.integers(min_value=1, max_value=40))
def test_batches_keep_order_and_limits_and_are_only_cut_when_full(sizes: list[int], max_items: int,
                                                                   max_size: int) -> None:
    out = list(batches(sizes, lambda n: n, max_items, max_size))
    assert [n for b in out for n in b] == sizes
    for b in out:
        assert 1 <= len(b) <= max_items
        assert len(b) == 1 or sum(b) <= max_size
    for a, b in zip(out, out[1:]):  # greedy: the next item did not fit
        assert len(a) == max_items or sum(a) + b[0] > max_size


def test_a_job_of_several_articles_gives_each_article_the_facts_it_has_alone() -> None:
    nlp = model(Settings().model)
    arts = _seed_articles()
    (job, *_) = list(jobs(arts))
    assert len(job) > 1 and len(job) <= JOB_ARTICLES
    assert read_job(nlp, job, 50_000) == [read_job(nlp, [a], 50_000)[0] for a in job]
