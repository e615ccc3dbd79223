"""kg eval scores the store against a user's gold files in the documented schema."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import UsageError
from kg.quality.evaluate import evaluate, load_gold
from kg.store import opened

STORY = "Senator Paula Grant criticized the budget on Monday. Rebels attacked a convoy near the border.\n"
GOLD = """
article: story.txt
entities:
  - {id: grant, type: Person, keys: [paula grant, grant]}
  - {id: rebels, type: Group, keys: [rebels]}
  - {id: convoy, type: Group, keys: [convoy]}
  - {id: mayor, type: Person, keys: [mayor]}
events:
  - {actor: grant, action: [criticize, criticise], target: null}
  - {actor: rebels, action: [attack], target: convoy}
  - {actor: mayor, action: [resign], target: null}
roles: []
"""


@pytest.mark.model
def test_eval_counts_hits_misses_and_precision(tmp_path: Path):
    src, gold = tmp_path / "in", tmp_path / "gold"
    src.mkdir()
    gold.mkdir()
    (src / "story.txt").write_text(STORY, encoding="utf-8")
    (gold / "story.yaml").write_text(GOLD, encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["build", str(src), "--store", str(tmp_path / "store"), "--out", str(tmp_path), "--workers", "1"])
    assert res.exit_code == 0, res.output
    with opened(str(tmp_path / "store")) as st:
        scores = evaluate(st, gold)["total"]["events"]
    assert scores.gold == 3 and scores.found == 2
    assert scores.misses == [{"actor": "mayor", "action": ["resign"], "target": None}]
    assert scores.predicted >= 2 and scores.right == 2
    assert abs(scores.recall - 2 / 3) < 1e-9
    out = runner.invoke(app, ["eval", str(gold), "--store", str(tmp_path / "store"), "--misses"])
    assert out.exit_code == 0 and "resign" in out.stdout


def test_bad_gold_folder_is_a_usage_error(tmp_path: Path):
    runner = CliRunner()
    res = runner.invoke(app, ["eval", str(tmp_path), "--store", str(tmp_path / "s")])
    assert res.exit_code == 2 and "no gold files" in res.output
    (tmp_path / "x.yaml").write_text("just: [a list", encoding="utf-8")
    with pytest.raises(UsageError, match="x.yaml"):
        load_gold(tmp_path)


def test_an_undeclared_gold_id_is_noted(tmp_path: Path):
    from kg.store import OxigraphStore

    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "a.yaml").write_text("article: a.txt\nentities:\n  - {id: grant, type: Person, keys: [grant]}\n"
                                 "roles:\n  - {person: grant, role: [senator], org: [senate]}\n", encoding="utf-8")
    OxigraphStore(tmp_path / "s").close()
    res = CliRunner().invoke(app, ["eval", str(gold), "--store", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert "kg: note: a.txt: a role's org names 'senate', which is not among its entities" in res.stderr
