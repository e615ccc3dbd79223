"""Confidence as a fitted probability: the fitter, the shipped model applied at extraction time,
``kg eval --calibration`` and ``kg eval --fit-confidence`` (invented sentences and gold only)."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import UsageError
from kg.extract.confidence.model import MODEL_PATH, OTHER, Model, load_models
from kg.model.facts import ArticleFacts
from kg.quality.calibration import (NEVER_RAISE, UNGROUPED, Sample, assign_groups, balanced, choose_l2, cross_check,
                                    fit, fit_signed, group_of, load_groups, platt)
from kg.quality.evaluate import calibration, evaluate, reliability
from kg.rdf.query import QUERY_DIR
from kg.store import opened

Read = Callable[..., ArticleFacts]

# ----- the fitter -----------------------------------------------------------------------------------

_TRUE_LEVELS = {"a": 1.0, "b": 0.0, "c": -1.0}
_TRUE_SLOPE, _TRUE_INTERCEPT = -0.8, 0.5


def _synthetic(n: int = 6000, seed: int = 7) -> tuple[list[Sample], list[float]]:
    rng = np.random.default_rng(seed)
    data, truth = [], []
    for i in range(n):
        level = "abc"[int(rng.integers(3))]
        x = float(rng.normal(5.0, 2.0))
        p = 1 / (1 + math.exp(-(_TRUE_INTERCEPT + _TRUE_LEVELS[level] + _TRUE_SLOPE * (x - 5.0))))
        data.append(Sample("events", f"article{i % 8}", {"rule": level, "width": x}, bool(rng.random() < p)))
        truth.append(p)
    return data, truth


def test_the_fitter_recovers_known_coefficients() -> None:
    data, truth = _synthetic()
    model = fit(data, l2=0.01).models["events"]
    levels = model.categorical["rule"]
    assert abs((levels["a"] - levels["c"]) - 2.0) < 0.25
    assert abs((levels["b"] - levels["c"]) - 1.0) < 0.25
    _, scale, weight = model.numeric["width"]
    assert abs(weight / scale - _TRUE_SLOPE) < 0.1
    fitted = [model.probability(s.features) for s in data]
    assert float(np.mean(np.abs(np.array(fitted) - np.array(truth)))) < 0.03


def test_the_penalty_is_chosen_on_held_out_articles_and_the_check_is_out_of_sample() -> None:
    data, _ = _synthetic(n=1600)
    x = np.column_stack([[1.0 if s.features["rule"] == lv else 0.0 for s in data] for lv in "abc"] + [np.ones(len(data))])
    y = np.array([1.0 if s.right else 0.0 for s in data])
    assert choose_l2(x, y, [s.article for s in data], grid=(0.1, 1e6)) == 0.1  # a huge penalty flattens a real effect
    assert choose_l2(x, y, ["one"] * len(data)) == 2.0  # a single article: nothing to hold out
    check = cross_check(data, l2=0.1)
    assert len(check.predictions) == len(data)
    assert all(0.0 <= p <= 1.0 for _, p in check.predictions)


def test_a_group_held_out_is_scored_by_a_model_that_never_saw_it() -> None:
    # The level "only-a" occurs in group a alone, where every fact is right: fitted on everything,
    # the model learns it; with group a held out, the level is unseen and weighs as "other".
    rng = np.random.default_rng(5)
    data = [Sample("events", f"{g}{i}", {"tag": f"only-{g}" if g == "a" else "shared"},
                   True if g == "a" else bool(rng.random() < 0.5), group=g)
            for g in "abcd" for i in range(120)]
    in_sample = fit(data, l2=0.1, recalibrate=False).models["events"].probability({"tag": "only-a"})
    check = cross_check(data, l2=0.1, recalibrate=False)
    assert check.groups == ["a", "b", "c", "d"] and len(check.predictions) == len(data)
    held_a = [p for s, p in check.predictions if s.fold == "a"]
    assert held_a and in_sample > 0.95 and max(held_a) < 0.7
    assert check.table("events", "a").count == 120 and check.table(None, "b").count == 120
    assert check.table().count == len(data)


def test_groups_come_from_file_name_prefixes_first_match_wins(tmp_path: Path) -> None:
    path = tmp_path / "groups.yaml"
    path.write_text("early: ['1', '000_']\nlate: ['2', '1']\n", encoding="utf-8")
    groups = load_groups(path)
    assert groups == {"early": ["1", "000_"], "late": ["2", "1"]}
    assert group_of("12_story.txt", groups) == "early" and group_of("000_seed.txt", groups) == "early"
    assert group_of("21_story.txt", groups) == "late" and group_of("31_story.txt", groups) == UNGROUPED
    data = assign_groups([Sample("roles", "25_x.txt", {}, True), Sample("roles", "9_y.txt", {}, False)], groups)
    assert [s.fold for s in data] == ["late", UNGROUPED]
    assert Sample("roles", "9_y.txt", {}, False).fold == "9_y.txt"  # no groups: each article is a fold


@pytest.mark.parametrize("text, message", [
    ("- just\n- a list\n", "not a groups file"),
    ("a: []\n", "not a groups file"),
    ("a: [unclosed\n", "not YAML"),
])
def test_a_bad_groups_file_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "groups.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        load_groups(path)
    with pytest.raises(UsageError, match="cannot read"):
        load_groups(tmp_path / "missing.yaml")


def test_balanced_weights_give_every_group_the_same_total() -> None:
    groups = ["big"] * 30 + ["small"] * 10 + ["tiny"] * 2
    w = balanced(groups)
    assert abs(float(w.sum()) - len(groups)) < 1e-9
    totals = {g: float(w[[k for k, h in enumerate(groups) if h == g]].sum()) for g in set(groups)}
    assert max(totals.values()) - min(totals.values()) < 1e-9


def test_balancing_keeps_a_large_easy_group_from_setting_the_base_rate() -> None:
    rng = np.random.default_rng(11)
    data = [Sample("events", f"{g}{i}", {}, bool(rng.random() < (0.95 if g == "big" else 0.6)), group=g)
            for g, n in (("big", 600), ("b", 100), ("c", 100)) for i in range(n)]
    rates = [np.mean([s.right for s in data if s.group == g]) for g in ("big", "b", "c")]
    plain = fit(data, l2=1.0, balance=False, recalibrate=False).models["events"].probability({})
    even = fit(data, l2=1.0, balance=True, recalibrate=False).models["events"].probability({})
    assert abs(plain - np.mean([s.right for s in data])) < 0.01 and plain > 0.85
    assert abs(even - float(np.mean(rates))) < 0.01 and even < plain - 0.05


def test_platt_tempers_an_overconfident_model_and_never_sharpens_one() -> None:
    rng = np.random.default_rng(2)
    truth = rng.normal(0.5, 1.5, 4000)
    y = (rng.random(4000) < 1 / (1 + np.exp(-truth))).astype(float)
    slope, shift = platt(3.0 * truth, y)  # logits three times too sure
    assert abs(slope - 1 / 3) < 0.05 and abs(shift) < 0.15
    slope, _ = platt(0.5 * truth, y)  # too timid: left as it is
    assert slope == 1.0


def test_the_recalibration_slope_is_recorded_and_folded_into_the_coefficients() -> None:
    data = [replace(s, group=f"g{k % 4}") for k, s in enumerate(_synthetic(n=800)[0])]
    raw = fit(data, l2=0.01, recalibrate=False)
    tempered = fit(data, l2=0.01, recalibrate=True)
    assert raw.slope["events"] == 1.0 and 0.0 < tempered.slope["events"] <= 1.0
    a, b = raw.models["events"], tempered.models["events"]
    f1, f2 = {"rule": "a", "width": 5.0}, {"rule": "c", "width": 9.0}
    assert abs((b.logit(f1) - b.logit(f2)) - tempered.slope["events"] * (a.logit(f1) - a.logit(f2))) < 1e-2


def test_a_rare_or_unseen_level_counts_as_other() -> None:
    data, _ = _synthetic(n=600)
    data += [Sample("events", "article0", {"rule": "rare", "width": 5.0}, False) for _ in range(2)]
    model = fit(data, l2=1.0, min_level=5).models["events"]
    assert "rare" not in model.categorical["rule"] and OTHER in model.categorical["rule"]
    assert model.logit({"rule": "a-rule-added-later", "width": 5.0}) == model.logit({"rule": "rare", "width": 5.0})
    assert model.logit({"width": 5.0}) == model.logit({"rule": "rare", "width": 5.0})


def test_a_feature_that_may_not_raise_confidence_gets_no_positive_weight() -> None:
    rng = np.random.default_rng(3)
    distance = "coreference distance"
    assert distance in NEVER_RAISE
    data = []
    for i in range(800):
        d = float(rng.integers(0, 4))
        data.append(Sample("events", f"a{i % 4}", {distance: d}, bool(rng.random() < 0.3 + 0.2 * d)))
    model = fit(data, l2=1.0).models["events"]
    assert distance not in model.numeric or model.numeric[distance][2] <= 0.0
    x = np.column_stack([np.array([s.features[distance] for s in data]), np.ones(len(data))])
    y = np.array([1.0 if s.right else 0.0 for s in data])
    assert fit_signed(x, y, 1.0, np.array([0.0, 0.0]))[0] > 0  # unconstrained, the data say "raise"
    assert fit_signed(x, y, 1.0, np.array([-1.0, 0.0]))[0] == 0.0


def test_probabilities_stay_in_0_1_for_any_logit() -> None:
    assert Model(1e4, {}, {}).probability({}) == 1.0
    assert Model(-1e4, {}, {}).probability({}) == 0.0
    assert Model(0.0, {}, {}).probability({}) == 0.5


# ----- the shipped model, applied at extraction time -------------------------------------------------

_TEXT = ("Prime Minister Ann Varga of Lorland met the rebel commander Ivo Strand in Bellport on Monday. "
         "She thanked him. Three guards were wounded by gunmen. The council did not approve the plan. "
         "Acme spokesman Tom Reyes said the company would build a factory. "
         "Lea Moss, the chief executive of Acme, resigned.")


def test_every_fact_gets_a_probability_from_its_features(read: Read) -> None:
    facts = read(_TEXT)
    models = load_models()
    assert facts.events and facts.roles
    assert any(e.negated or e.modality not in ("asserted", "reported") for e in facts.events)  # left out by events.rq, scored all the same
    for ev in facts.events:
        assert ev.features and 0.0 <= ev.confidence <= 1.0
        assert ev.confidence == models["events"].probability(ev.features)
    for ro in facts.roles:
        assert ro.features and 0.0 <= ro.confidence <= 1.0
        assert ro.confidence == models["roles"].probability(ro.features)


def test_features_say_how_the_arguments_were_found(read: Read) -> None:
    facts = read(_TEXT)
    by_action = {e.action: e for e in facts.events}
    assert by_action["meet"].features["actor"] == "name" and by_action["meet"].features["rule"] == "svo"
    assert by_action["thank"].features["actor"] == "pronoun" and by_action["thank"].features["coreference distance"] == 1.0
    wound = by_action["wound"].features
    assert wound["rule"] == "passive" and wound["actor"] == "group" and wound["actor type"] == "unnamed Group"


def test_a_pronoun_further_back_never_raises_confidence(read: Read) -> None:
    model = load_models()["events"]
    for name in NEVER_RAISE & set(model.numeric):
        assert model.numeric[name][2] <= 0.0
    thank = next(e for e in read(_TEXT).events if e.action == "thank")
    probabilities = [model.probability({**thank.features, "coreference distance": float(d)}) for d in range(6)]
    assert probabilities == sorted(probabilities, reverse=True)


def test_an_unknown_rule_is_scored_not_refused(read: Read) -> None:
    model = load_models()["events"]
    ev = read(_TEXT).events[0]
    p = model.probability({**ev.features, "rule": "a-rule-added-later"})
    assert 0.0 <= p <= 1.0
    if OTHER in model.categorical.get("rule", {}):
        assert p == model.probability({**ev.features, "rule": OTHER})


def test_the_shipped_coefficients_are_data_in_the_package() -> None:
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert set(data) >= {"events", "roles"} and "fit-confidence" in data["note"]
    assert all(isinstance(data[k]["intercept"], float) for k in ("events", "roles"))


# ----- reliability tables -----------------------------------------------------------------------------

def test_reliability_bins_hold_their_edges() -> None:
    rel = reliability([(0.05, False), (0.8, True), (0.85, False), (1.0, True), (0.79, True)])
    bins = {(b.low, b.high): b for b in rel.bins()}
    assert bins[(0.0, 0.2)].count == 1 and bins[(0.7, 0.8)].count == 1
    assert bins[(0.8, 0.9)].count == 2 and bins[(0.8, 0.9)].right == 1
    assert bins[(0.9, 1.0)].count == 1 and bins[(0.9, 1.0)].precision == 1.0
    assert rel.at_least(0.8) == (3, 2) and rel.count == 5


_STORY = ("Senator Paula Grant criticized the budget on Monday. Rebels attacked a convoy near the border. "
          "Acme spokesman Tom Reyes said the company had closed a plant.\n")
_GOLD = """
article: story.txt
entities:
  - {id: grant, type: Person, keys: [paula grant, grant]}
  - {id: rebels, type: Group, keys: [rebels]}
  - {id: convoy, type: Group, keys: [convoy]}
  - {id: reyes, type: Person, keys: [tom reyes, reyes]}
  - {id: acme, type: Organization, keys: [acme]}
events:
  - {actor: grant, action: [criticize, criticise], target: null}
  - {actor: rebels, action: [attack], target: convoy}
roles:
  - {person: reyes, role: [spokesman], org: acme}
"""


_OTHER_STORY = "Police arrested two men in Dorvale. The mayor of Dorvale, Rita Olsen, praised the officers.\n"
_OTHER_GOLD = """
article: other.txt
entities:
  - {id: police, type: Group, keys: [police]}
  - {id: men, type: Group, keys: [men]}
  - {id: olsen, type: Person, keys: [rita olsen, olsen]}
  - {id: dorvale, type: Place, keys: [dorvale]}
events:
  - {actor: police, action: [arrest], target: men}
  - {actor: olsen, action: [praise], target: null}
roles:
  - {person: olsen, role: [mayor], org: dorvale}
"""


@pytest.fixture
def gold_story(tmp_path: Path) -> tuple[Path, Path, Path]:
    src, gold = tmp_path / "in", tmp_path / "gold"
    src.mkdir()
    gold.mkdir()
    (src / "story.txt").write_text(_STORY, encoding="utf-8")
    (gold / "story.yaml").write_text(_GOLD, encoding="utf-8")
    (src / "other.txt").write_text(_OTHER_STORY, encoding="utf-8")
    (gold / "other.yaml").write_text(_OTHER_GOLD, encoding="utf-8")
    return src, gold, tmp_path / "store"


@pytest.mark.model
def test_eval_calibration_prints_a_reliability_table(gold_story: tuple[Path, Path, Path], tmp_path: Path) -> None:
    src, gold, store = gold_story
    runner = CliRunner()
    res = runner.invoke(app, ["build", str(src), "--store", str(store), "--out", str(tmp_path), "--workers", "1"])
    assert res.exit_code == 0, res.output
    with opened(str(store)) as st:
        tables = calibration(st, gold)
        scores = evaluate(st, gold)["total"]
    for kind in ("events", "roles"):
        assert tables[kind].count == scores[kind].predicted
        assert sum(b.right for b in tables[kind].bins()) == scores[kind].right
    assert tables["all"].count == tables["events"].count + tables["roles"].count
    out = runner.invoke(app, ["eval", str(gold), "--store", str(store), "--calibration"], terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "confidence: the store's facts" in out.stdout and "0.8-0.9" in out.stdout
    line = re.search(r"all: confidence >= 0\.8: (\d+) of (\d+) facts", out.stdout)
    assert line and int(line.group(2)) == tables["all"].count and int(line.group(1)) == tables["all"].at_least(0.8)[0]


@pytest.mark.model
def test_fit_confidence_writes_coefficients_the_extractor_reads(gold_story: tuple[Path, Path, Path],
                                                                 tmp_path: Path) -> None:
    src, gold, _ = gold_story
    target = tmp_path / "confidence.json"
    out = CliRunner().invoke(app, ["eval", str(gold), "--articles", str(src), "--fit-confidence", str(target)],
                             terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "out of sample: each of the 2 articles" in out.stdout and f"wrote {target}" in out.stdout
    assert re.search(r"^all: confidence >= 0\.8: \d+ of \d+ facts", out.stdout, re.M)
    models = load_models(target)
    assert 0.0 <= models["events"].probability({"rule": "svo"}) <= 1.0


@pytest.mark.model
def test_eval_calibration_holds_out_each_group_of_articles(gold_story: tuple[Path, Path, Path],
                                                          tmp_path: Path) -> None:
    src, gold, _ = gold_story
    groups = tmp_path / "groups.yaml"
    groups.write_text("first: [story]\nsecond: [oth]\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["eval", str(gold), "--articles", str(src), "--calibration", "--groups", str(groups)],
                             terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "held-out group first (fitted on the other groups)" in out.stdout
    assert "held-out group second (fitted on the other groups)" in out.stdout
    assert "each of the 2 groups scored by a model fitted on the others" in out.stdout
    assert re.search(r"fold [12] of 2: fitting without first", out.output)
    rows = {m.group(1): (int(m.group(2)), float(m.group(3)))
            for m in re.finditer(r"^│ (first|second|all) +│ (\d+) +│ ([\d.]+) ", out.stdout, re.M)}
    assert set(rows) == {"first", "second", "all"}
    assert rows["all"][0] == rows["first"][0] + rows["second"][0] > 0
    summary = re.search(r"on >= 40% of the facts: (\d) of 2 groups", out.stdout)
    assert summary and re.search(r"^confidence < 0\.5: ", out.stdout, re.M)
    assert not list(tmp_path.glob("*.json"))  # a check: nothing written


@pytest.mark.model
def test_calibration_needs_the_confidence_column(gold_story: tuple[Path, Path, Path], tmp_path: Path) -> None:
    src, gold, store = gold_story
    runner = CliRunner()
    assert runner.invoke(app, ["build", str(src), "--store", str(store), "--out", str(tmp_path),
                               "--workers", "1"]).exit_code == 0
    old = tmp_path / "queries"
    old.mkdir()
    root = QUERY_DIR
    for name in ("events.rq", "roles.rq"):
        (old / name).write_text((root / name).read_text(encoding="utf-8").replace(" ?confidence ?sentence", " ?sentence"),
                                encoding="utf-8")
    with opened(str(store)) as st:
        with pytest.raises(UsageError, match=r"\?confidence"):
            calibration(st, gold, old)


@pytest.mark.parametrize("args, message", [
    (["--fit-confidence", "{tmp}/c.json"], "needs --articles"),
    (["--articles", "{tmp}"], "only with --calibration or --fit-confidence"),
    (["--groups", "{tmp}/groups.yaml"], "only with --calibration or --fit-confidence"),
    (["--groups", "{tmp}/groups.yaml", "--calibration"], "--groups needs --articles"),
    (["--articles", "{tmp}", "--calibration", "--groups", "{tmp}/no-groups.yaml"], "cannot read the groups file"),
    (["--articles", "{tmp}", "--fit-confidence", "{tmp}/no/such/folder/c.json"], "does not exist"),
    (["--articles", "{tmp}/missing", "--fit-confidence", "{tmp}/c.json"], "does not exist"),
    (["--articles", "{tmp}/empty", "--fit-confidence", "{tmp}/c.json"], "has a gold file"),
])
def test_eval_confidence_options_fail_in_one_line(gold_story: tuple[Path, Path, Path], tmp_path: Path,
                                                  args: list[str], message: str) -> None:
    _, gold, _ = gold_story
    (tmp_path / "empty").mkdir()
    res = CliRunner().invoke(app, ["eval", str(gold), *[a.format(tmp=tmp_path) for a in args]], terminal_width=500)
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kg: error:") and message in lines[0], res.output


_TOLD = ("Senator Paula Grant criticized Governor Ivo Strand on Monday, officials said. "
         "Police reportedly arrested the driver. Grant criticized Strand again on Tuesday. "
         "Lea Moss, the chief executive of the Acme Company, resigned.")


def test_features_say_how_often_a_fact_is_told_and_what_hedges_it(read: Read) -> None:
    facts = read(_TOLD)
    told = [e for e in facts.events if e.action == "criticize"]
    arrest = next(e for e in facts.events if e.action == "arrest")
    assert len(told) == 2 and arrest.features["cue"] == "hedge"
    assert all(e.features["told"] == 2.0 and e.features["cue"] == "none" for e in told)
    assert arrest.features["told"] == 1.0 and arrest.features["place"] == "body"
    assert all(0.0 <= float(e.features["name distance"]) <= 15.0 for e in facts.events)
    assert told[0].features["object"] == "entity" and told[0].features["name distance"] <= 2.0
    moss = next(r for r in facts.roles if r.org and "acme" in r.org.lower())
    assert moss.features["org kind"] == "company" and moss.features["person type from"] == "model"
