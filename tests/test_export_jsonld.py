"""JSON-LD export: the union as one graph by default (what ``rdflib.Graph().parse`` reads: it read 0
triples of the per-article form), one named graph per article with ``--per-article``."""
from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import rdflib
from test_counts import _store
from typer.testing import CliRunner

from kg.cli import app


def test_jsonld_is_the_union_by_default_and_a_dataset_per_article(tmp_path: Path) -> None:
    store = _store(tmp_path / "store")
    runner = CliRunner()

    def export(*args: str) -> bytes:
        res = runner.invoke(app, ["export", "--store", store, *args])
        assert res.exit_code == 0, res.output
        return res.stdout_bytes

    union = set(ox.parse(export("--format", "nt"), format=ox.RdfFormat.N_TRIPLES))
    quads = list(ox.parse(export("--format", "nquads"), format=ox.RdfFormat.N_QUADS))
    graph = rdflib.Graph().parse(data=export("--format", "jsonld"), format="json-ld")
    assert len(graph) == len(union) > 40
    assert len(rdflib.Graph().parse(data=export("--format", "turtle"), format="turtle")) == len(graph)
    ds = rdflib.Dataset().parse(data=export("--format", "jsonld", "--per-article"), format="json-ld")
    named = {str(g.identifier) for g in ds.graphs() if len(g)}
    assert named == {str(q.graph_name.value) for q in quads}  # the articles' graphs and the shared one
    assert sum(len(g) for g in ds.graphs()) == len(quads)


def test_per_article_with_a_format_of_one_graph_is_a_usage_error(tmp_path: Path) -> None:
    store = _store(tmp_path / "store")
    res = CliRunner().invoke(app, ["export", "--format", "turtle", "--per-article", "--store", store])
    assert res.exit_code == 2 and "turtle holds one graph" in res.stderr
