"""End to end through the command line: build, rebuild, query, export, view, stats, errors."""
from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.compare import graph_diff, isomorphic, to_isomorphic
from typer.testing import CliRunner

from kg.cli import app
from kg.rdf.query import QUERY_DIR

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"

STORY = (
    "NAIROBI - Kenyan police arrested two suspects on Friday, Nairobi police spokesman John Mwangi said.\n\n"
    "Interior Minister Fred Otieno condemned the attack and urged residents to stay calm.\n"
)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def _build(runner: CliRunner, src: Path, work: Path, *extra: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["build", str(src), "--store", str(work / "store"), "--out", str(work), "--workers", "1", *extra])


@pytest.mark.model
def test_build_query_export_view_stats(runner, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "story.txt").write_text(STORY, encoding="utf-8")
    res = _build(runner, src, tmp_path)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "graph.ttl").is_file() and (tmp_path / "graph.html").is_file()
    store = str(tmp_path / "store")
    q = runner.invoke(app, ["query", str(QUERY_DIR / "roles.rq"), "--store", store, "--format", "json"])
    assert q.exit_code == 0, q.output
    rows = json.loads(q.stdout)
    assert {"person": "John Mwangi", "role": "spokesman"}.items() <= {
        k: v for r in rows for k, v in r.items() if r["person"] == "John Mwangi"}.items()
    for fmt, parse_as in (("turtle", ox.RdfFormat.TURTLE), ("nquads", ox.RdfFormat.N_QUADS), ("trig", ox.RdfFormat.TRIG)):
        out = tmp_path / f"x.{fmt}"
        e = runner.invoke(app, ["export", "--format", fmt, "-o", str(out), "--store", store])
        assert e.exit_code == 0, e.output
        assert list(ox.parse(out.read_bytes(), format=parse_as))
    j = runner.invoke(app, ["export", "--format", "jsonld", "--store", store])
    assert j.exit_code == 0 and json.loads(j.stdout)
    v = runner.invoke(app, ["view", "-o", str(tmp_path / "v.html"), "--store", store])
    assert v.exit_code == 0 and (tmp_path / "v.html").stat().st_size > 1000
    s = runner.invoke(app, ["stats", "--store", store])
    assert s.exit_code == 0 and "articles" in s.stdout


@pytest.mark.model
def test_no_out_stores_without_writing_the_files(runner, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "story.txt").write_text(STORY, encoding="utf-8")
    res = _build(runner, src, tmp_path, "--no-out")
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "graph.ttl").exists() and not (tmp_path / "graph.html").exists()
    assert "wrote" not in res.output and "1 article(s) stored" in res.output
    s = runner.invoke(app, ["query", "SELECT (COUNT(*) AS ?n) WHERE { ?e a <https://w3id.org/kg-news/ns#Event> }",
                            "--store", str(tmp_path / "store"), "--format", "json"])
    assert s.exit_code == 0 and int(json.loads(s.stdout)[0]["n"]) > 0


@pytest.mark.model
def test_by_default_a_build_writes_the_store_only(runner, tmp_path, monkeypatch):
    src = tmp_path / "in"
    src.mkdir()
    (src / "story.txt").write_text(STORY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["build", str(src), "--store", str(tmp_path / "store"), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "store"] and "wrote" not in res.output


@pytest.mark.model
def test_rebuild_replaces_and_is_idempotent(runner, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "story.txt").write_text(STORY, encoding="utf-8")
    assert _build(runner, src, tmp_path).exit_code == 0
    first = (tmp_path / "graph.ttl").read_bytes()
    assert _build(runner, src, tmp_path, "--force").exit_code == 0
    assert (tmp_path / "graph.ttl").read_bytes() == first
    (src / "story.txt").write_text(STORY.replace("two suspects", "three suspects"), encoding="utf-8")
    assert _build(runner, src, tmp_path).exit_code == 0
    g = rdflib.Graph().parse(tmp_path / "graph.ttl")
    labels = {str(o) for o in g.objects(None, rdflib.RDFS.label)}
    assert "three suspects" in labels and "two suspects" not in labels


@pytest.mark.model
def test_two_builds_of_the_seeds_are_isomorphic_and_parse_everywhere(runner, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert _build(runner, SEEDS, a).exit_code == 0
    assert _build(runner, SEEDS, b).exit_code == 0
    ga = rdflib.Graph().parse(a / "graph.ttl")
    gb = rdflib.Graph().parse(b / "graph.ttl")
    if not isomorphic(ga, gb):
        _, only_a, only_b = graph_diff(to_isomorphic(ga), to_isomorphic(gb))
        pytest.fail(f"builds differ:\n{only_a.serialize(format='nt')[:2000]}\n---\n{only_b.serialize(format='nt')[:2000]}")
    assert len(list(ox.parse((a / "graph.ttl").read_bytes(), format=ox.RdfFormat.TURTLE))) == len(ga)


@pytest.mark.model
def test_every_canned_query_runs(runner, tmp_path):
    assert _build(runner, SEEDS, tmp_path).exit_code == 0
    for rq in sorted(QUERY_DIR.glob("*.rq")):
        assert rq.read_text(encoding="utf-8").startswith("#"), f"{rq.name} needs a comment header"
        res = runner.invoke(app, ["query", str(rq), "--store", str(tmp_path / "store"), "--format", "csv"])
        assert res.exit_code == 0, f"{rq.name}: {res.output}"
        assert len(res.stdout.splitlines()) >= 2, f"{rq.name} returned no rows on the seeds"


@pytest.mark.model
def test_bad_inputs_are_one_line_errors_with_exit_codes(runner, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.txt").write_text(STORY, encoding="utf-8")
    (src / "empty.txt").write_text("", encoding="utf-8")
    res = _build(runner, src, tmp_path)
    assert res.exit_code == 1
    assert "empty.txt" in res.output and "Traceback" not in res.output
    missing = runner.invoke(app, ["build", str(tmp_path / "nope"), "--store", str(tmp_path / "s2")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    bad = runner.invoke(app, ["query", "SELEKT", "--store", str(tmp_path / "store")])
    assert bad.exit_code == 1 and "does not parse" in bad.output and "Traceback" not in bad.output
    fmt = runner.invoke(app, ["export", "--format", "xml", "--store", str(tmp_path / "store")])
    assert fmt.exit_code == 2
    model = runner.invoke(app, ["build", str(src), "--store", str(tmp_path / "s3"), "--model", "no_such_model", "--force"])
    assert model.exit_code == 1 and "not installed" in model.output
