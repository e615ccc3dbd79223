"""kg build on messy folders: every good article in, each bad file named on one line, exit codes;
arbitrary text end to end (sources -> pipeline -> store -> export) parses in rdflib and pyoxigraph."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kg.build.pipeline import build
from kg.cli import app
from kg.config import Settings
from kg.errors import KgError
from kg.model.facts import Article
from kg.outputs.export import export_file, serialize
from kg.store import open_store
from kg.text.sources import read_articles

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
KG = "https://w3id.org/kg-news/ns#"
SCHEMA_TEXT = "https://schema.org/text"
PAGE = (ROOT / "tests" / "test_ingest_sources.py").read_text(encoding="utf-8").split('PAGE = """', 1)[1].split('"""', 1)[0]


def _run(runner: CliRunner, *args: str, **kw):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), **kw)


def _messy_folder(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    for seed in SEEDS.glob("*.txt"):
        shutil.copy(seed, src / seed.name)
    (src / "empty.txt").write_bytes(b"")
    (src / "blank.txt").write_bytes(b" \n\t \r\n  \n")
    (src / "binary.txt").write_bytes(bytes(range(256)) * 8)
    (src / "windows.txt").write_bytes(
        "Caf\u00e9 owners protest\n\nCaf\u00e9 owners in Lyon protested on Monday, union leader Ren\u00e9 Dupr\u00e9 said. "
        "\u201cWe will not close,\u201d Dupr\u00e9 told reporters \u2013 and the mayor promised talks.\r\n".encode("cp1252"))
    (src / "page.html").write_text(PAGE.replace("{charset}", "utf-8"), encoding="utf-8")
    return src


@pytest.mark.model
def test_done_when_seeds_plus_bad_files_ingest_every_good_article_and_exit_1(tmp_path: Path):
    src = _messy_folder(tmp_path)
    runner = CliRunner()
    res = _run(runner, "build", str(src), "--store", str(tmp_path / "store"), "--out", str(tmp_path / "out"),
               "--workers", "1")
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    lines = res.output.splitlines()
    for bad in ("empty.txt", "blank.txt", "binary.txt"):
        mine = [line for line in lines if bad in line]
        assert len(mine) == 1 and mine[0].startswith("kg: skipped "), (bad, lines)
    assert "9 article(s) stored, 0 unchanged, 3 skipped" in res.output
    store = open_store(tmp_path / "store")
    try:
        ids = {r["id"] for r in store.select(
            "SELECT ?id WHERE { ?a a <https://w3id.org/kg-news/ns#Article> ; <https://schema.org/identifier> ?id }")}
    finally:
        store.close()
    assert ids == {p.stem for p in SEEDS.glob("*.txt")} | {"windows", "page"}
    # a second run skips all nine, says so, and still reports the bad files
    again = _run(runner, "build", str(src), "--store", str(tmp_path / "store"), "--out", str(tmp_path / "out"))
    assert again.exit_code == 1 and "0 article(s) stored, 9 unchanged, 3 skipped" in again.output
    # only good files: exit 0
    for bad in ("empty.txt", "blank.txt", "binary.txt"):
        (src / bad).unlink()
    assert _run(runner, "build", str(src), "--store", str(tmp_path / "store"), "--out", str(tmp_path / "out")).exit_code == 0


@pytest.mark.model
def test_jsonl_and_stdin_through_the_command_line(tmp_path: Path):
    crawl = tmp_path / "crawl.jsonl"
    crawl.write_text("\n".join([
        json.dumps({"id": "r1", "title": "Arrests", "text": "Kenyan police arrested two suspects on Friday."}),
        "{oops",
        json.dumps({"text": "Interior Minister Fred Otieno condemned the attack."}),
    ]) + "\n", encoding="utf-8")
    runner = CliRunner()
    store = str(tmp_path / "store")
    res = _run(runner, "build", str(crawl), "-", "--store", store, "--out", str(tmp_path / "out"), "-v",
               input="Protesters threw stones at the embassy, police said.\n")
    assert res.exit_code == 1, res.output
    assert f"kg: skipped {crawl}:2: is not valid JSON" in res.output
    assert "3 article(s) stored" in res.output
    stored = [line.split()[-1] for line in res.output.splitlines() if line.startswith("kg: stored ")]
    assert stored[:2] == ["r1", "crawl-3"] and stored[2].startswith("stdin-") and len(stored[2]) == 18
    usage = _run(runner, "build", "-", "-", "--store", store)
    assert usage.exit_code == 2 and "only once" in usage.output
    low = _run(runner, "build", str(crawl), "--store", store, "--max-chars", "10")
    assert low.exit_code == 2


def test_export_is_written_to_a_temporary_file_and_renamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = open_store(":memory:")
    store.replace_graph("https://kg.example.org/graph/x",
                        "<https://kg.example.org/a> <https://kg.example.org/p> \"new\" .")
    target = tmp_path / "graph.ttl"
    target.write_bytes(b"old, whole")

    def crash(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KgError, match="disk full"):  # a one-line error, not a traceback
        export_file(store, target, "turtle")
    assert target.read_bytes() == b"old, whole"  # the old file is untouched ...
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.ttl"]  # ... and no temporary file is left
    monkeypatch.undo()
    export_file(store, target, "turtle")
    assert b'"new"' in target.read_bytes() and sorted(p.name for p in tmp_path.iterdir()) == ["graph.ttl"]
    store.close()


_pieces = st.one_of(
    st.text(max_size=12),
    st.sampled_from([
        " Marcus Dalton", " Ines Lindqvist", " attacked ", " met ", " the Harbor Board", " said.", ". ", "\n", "\n\n",
        '"', "'", "<", ">", "\\", "#", "%", "{", "}", "|", "^", "`", "\u200b", "\u202e", "\u2066", "\x00", "\x07",
        "\x85", "\r", "\ud800", "\udc00", "e\u0301", "\U0001f600", "\u0645\u0631\u062d\u0628\u0627",
        "\u05e9\u05dc\u05d5\u05dd", " \u041f\u0443\u0442\u0438\u043d", "\ufffe", "\uffff", "\U0010ffff",
    ]),
)
_texts = st.lists(_pieces, min_size=1, max_size=25).map("".join)


@pytest.mark.model
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_texts, title=st.one_of(st.none(), _texts), rid=st.one_of(st.none(), _texts))
def test_any_text_builds_to_rdf_that_parses_in_rdflib_and_pyoxigraph(text: str, title: str | None, rid: str | None):
    with tempfile.TemporaryDirectory() as tmp:
        tmpd = Path(tmp)
        record = {"text": text, "title": title, "url": title}
        if rid is not None:
            record["id"] = rid
        (tmpd / "in.jsonl").write_text(json.dumps(record) + "\n", encoding="ascii")  # \\ud800 escapes allowed
        (art,) = read_articles([tmpd / "in.jsonl"])
        report = build([tmpd / "in.jsonl"], Settings(store=str(tmpd / "store"), workers=1))
        if not isinstance(art, Article):
            assert report.skipped and report.articles == 0
            return
        assert report.articles == 1
        store = open_store(tmpd / "store")
        try:
            data = {fmt: serialize(store, fmt) for fmt in ("turtle", "nt", "nquads", "trig")}
        finally:
            store.close()
    oxfmt = {"turtle": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "nquads": ox.RdfFormat.N_QUADS,
             "trig": ox.RdfFormat.TRIG}
    for fmt, blob in data.items():
        quads = list(ox.parse(blob, format=oxfmt[fmt]))
        assert quads
        texts = {q.object.value for q in quads if q.predicate.value == SCHEMA_TEXT}
        assert texts == {art.text}  # the literal round-trips exactly
        if art.title:
            assert {q.object.value for q in quads if q.predicate.value == "http://purl.org/dc/terms/title"} == {art.title}
    g = rdflib.Graph().parse(data=data["turtle"].decode("utf-8"), format="turtle")
    assert {str(o) for o in g.objects(None, rdflib.URIRef(SCHEMA_TEXT))} == {art.text}
    ds = rdflib.Dataset()
    ds.parse(data=data["nquads"].decode("utf-8"), format="nquads")
    # every quad of every graph (the resolution graph repeats some triples of the article graphs)
    assert len(list(ds.quads((None, None, None, None)))) == len(list(ox.parse(data["nquads"], format=ox.RdfFormat.N_QUADS)))
    for node in g.subjects(rdflib.RDF.type, rdflib.URIRef(KG + "Evidence")):
        start = int(g.value(node, rdflib.URIRef(KG + "beginIndex")))
        end = int(g.value(node, rdflib.URIRef(KG + "endIndex")))
        assert art.text[start:end] == str(g.value(node, rdflib.URIRef(KG + "sentence")))
