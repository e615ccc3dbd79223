"""One definition of an entity count (an entity after resolution, what ``kg entities`` lists):
``kg stats`` counts those, and the view and GraphML say how many of them they draw."""
from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
from test_resolve_rules import MINTER, _karzai, article, store_of
from typer.testing import CliRunner

from kg.cli import app
from kg.curation import Curation
from kg.resolve import update_resolution
from kg.store import open_store


def _store(path: Path) -> str:
    """Two articles: "Karzai" joins "Hamid Karzai" (5 entity IRIs, 4 entities); a crowd that only
    planned to march is in no drawn fact."""
    st = open_store(path)
    try:
        store_of(_karzai("a"), article("b", "President Karzai of Afghanistan spoke. A crowd planned to march.",
                                       [("k", "Karzai", "Person"), ("af", "Afghanistan", "Place"),
                                        ("c", "a crowd", "Group")],
                                       roles=[("k", "President", "af")]), store=st)
        update_resolution(st, MINTER, curation=Curation())
    finally:
        st.close()
    return str(path)


def test_stats_entities_view_and_graphml_count_the_same_entities(tmp_path: Path) -> None:
    store = _store(tmp_path / "store")
    runner = CliRunner()
    listed = json.loads(runner.invoke(app, ["entities", "--format", "json", "--store", store]).stdout)
    stats = runner.invoke(app, ["stats", "--store", store]).stdout
    rows = {m.group(1).strip(): int(m.group(2)) for m in re.finditer(r"│\s*([a-zA-Z ]+?)\s*│\s*(\d+)\s*│", stats)}
    assert rows["entities"] == len(listed) == 4  # Hamid Karzai (and Karzai), Afghanistan, Taliban, a crowd
    assert rows["people"] == sum(1 for e in listed if e["type"] == "Person") == 1
    assert rows["entity IRIs"] == 5 and "before resolution" in stats and "after resolution" in stats
    view = runner.invoke(app, ["view", "-o", str(tmp_path / "v.html"), "--store", store])
    assert view.exit_code == 0, view.output
    assert "kg: wrote" in view.stderr and "3 of the store's 4 entities (the others are in no asserted" in view.stderr
    page = (tmp_path / "v.html").read_text(encoding="utf-8")
    assert "3 entities of the store's 4 (the others are in no asserted or reported event and no role)" in page
    res = runner.invoke(app, ["analyze", "--graphml", str(tmp_path / "g.graphml"), "--store", store])
    assert res.exit_code == 0, res.output
    assert "the network: 3 of the store's 4 entities" in res.stderr
    assert nx.read_graphml(tmp_path / "g.graphml").number_of_nodes() == 3
