"""One definition of an entity count (an entity after resolution, what ``kg entities`` lists):
``kg stats`` counts those, and the view and GraphML say how many of them they draw."""
from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
from test_resolve_rules import MINTER, _moen, article, store_of
from typer.testing import CliRunner

from kg.cli import app
from kg.resolve.curation import Curation
from kg.resolve.graph import update_resolution
from kg.store import open_store


def _store(path: Path) -> str:
    """Two articles: "Moen" joins "Halvard Moen" (5 entity IRIs, 4 entities); a crowd that only
    planned to march is in no drawn fact."""
    st = open_store(path)
    try:
        store_of(_moen("a"), article("b", "President Moen of Norway spoke. A crowd planned to march.",
                                       [("k", "Moen", "Person"), ("af", "Norway", "Place"),
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
    assert rows["entities"] == len(listed) == 4  # Halvard Moen (and Moen), Norway, Iron Wolves, a crowd
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


# --- options are checked before any work starts ---------------------------------------------------


def test_analyze_checks_its_outputs_before_it_prints_or_writes_anything(tmp_path: Path) -> None:
    store = _store(tmp_path / "store")
    res = CliRunner().invoke(app, ["analyze", "--graphml", str(tmp_path / "g.graphml"),
                                   "--charts", str(tmp_path / "no-such-dir"), "--store", store])
    assert res.exit_code == 2 and "no-such-dir" in res.stderr
    assert res.stdout == "" and not (tmp_path / "g.graphml").exists()
    res = CliRunner().invoke(app, ["analyze", "--gexf", str(tmp_path / "missing" / "g.gexf"), "--store", store])
    assert res.exit_code == 2 and res.stdout == "" and "does not exist" in res.stderr


def test_view_checks_dates_and_output_before_reading(tmp_path: Path) -> None:
    runner = CliRunner()
    nowhere = str(tmp_path / "no-store")  # the dates are refused first, so the missing store is never reached
    for bad in ("2015-13-01", "2015-02-30", "15", "2015-1-1", "2015/01/01", "2015-00"):
        res = runner.invoke(app, ["view", "--since", bad, "-o", str(tmp_path / "v.html"), "--store", nowhere])
        assert res.exit_code == 2 and "YYYY, YYYY-MM or YYYY-MM-DD" in res.stderr, (bad, res.stderr)
    res = runner.invoke(app, ["view", "--since", "2016", "--until", "2015-12", "--store", nowhere])
    assert res.exit_code == 2 and "is after" in res.stderr
    res = runner.invoke(app, ["view", "-o", str(tmp_path / "nope" / "v.html"), "--store", nowhere])
    assert res.exit_code == 2 and "does not exist" in res.stderr
    store = _store(tmp_path / "store")
    res = runner.invoke(app, ["view", "--since", "2016", "--until", "2016-02", "-o", str(tmp_path / "v.html"),
                              "--store", store])
    assert res.exit_code == 0, res.output


def test_date_bounds() -> None:
    import pytest

    from kg.errors import UsageError
    from kg.outputs.select import date_bound, date_range

    assert date_bound("2016", "--since") == "2016-01-01" and date_bound("2016", "--until", last=True) == "2016-12-31"
    assert date_bound("2016-02", "--until", last=True) == "2016-02-29"  # a leap year
    assert date_bound("2015-02", "--until", last=True) == "2015-02-28"
    assert date_bound("2015-02-28", "--since") == "2015-02-28"
    assert date_range("2015-03", "2015-03") == ("2015-03-01", "2015-03-31")
    for bad in ("2015-02-29", "2015-04-31", "2015-13", "0000-01-01", "2015-02-3", " "):
        with pytest.raises(UsageError):
            date_bound(bad, "--since")


def test_query_tables_write_iris_as_prefixed_names(tmp_path: Path) -> None:
    from kg.rdf.query import display_prefixes, shorten

    short = display_prefixes("https://kg.example.org/")
    assert shorten("https://w3id.org/kg-news/ns#Event", short) == "kg:Event"
    assert shorten("https://kg.example.org/entity/person/halvard-moen", short) == "entity:person/halvard-moen"
    assert shorten("https://kg.example.org/resolution", short) == "base:resolution"
    assert shorten("Halvard Moen", short) == "Halvard Moen" and shorten(None, short) == ""
    store = _store(tmp_path / "store")
    q = ("SELECT ?e ?t WHERE { ?e a ?t ; <http://www.w3.org/2004/02/skos/core#prefLabel> \"Halvard Moen\" "
         "FILTER(?t = <https://w3id.org/kg-news/ns#Person>) }")
    res = CliRunner().invoke(app, ["query", q, "--store", store, "-f", "table"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "entity:person/halvard-moen" in res.stdout and "kg:Person" in res.stdout
    assert "https://" not in res.stdout
