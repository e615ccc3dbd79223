"""The registry of extraction rules (kg/extract/rules.py): every rule name a fact can carry is registered,
each registered rule reads its own example, and docs/rules.md is the registry's table."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kg.extract.rules import BY_NAME, RULES, markdown
from kg.model.facts import Event, Role

ROOT = Path(__file__).resolve().parents[1]
EXTRACT = ROOT / "kg" / "extract"


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def rule_names_in_code() -> dict[str, str]:
    """Every string the extraction code gives a fact's rule: ``rule="..."`` arguments and assignments to a
    name ``rule`` (in a tuple too), with the file that writes it."""
    found: dict[str, str] = {}
    for path in sorted(EXTRACT.rglob("*.py")):
        if path.name == "rules.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            values: list[ast.AST] = []
            if isinstance(node, ast.keyword) and node.arg == "rule":
                values.append(node.value)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == "rule":
                        values.append(node.value)
                    elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        values += [v for t, v in zip(target.elts, node.value.elts)
                                   if isinstance(t, ast.Name) and t.id == "rule"]
            for value in values:
                for name in _strings(value):
                    if not (isinstance(value, ast.IfExp) and name in _strings(value.test)):
                        found.setdefault(name, str(path.relative_to(ROOT)))
    return found


@pytest.mark.unit
def test_every_rule_name_the_code_gives_is_registered() -> None:
    names = rule_names_in_code()
    assert len(names) > 10, names  # the scan found the rules (it would pass on nothing)
    missing = {n: p for n, p in names.items() if n not in BY_NAME}
    assert not missing, f"rule names not in kg/extract/rules.py: {missing}"


@pytest.mark.unit
def test_the_default_rules_of_the_facts_are_registered() -> None:
    defaults = {Event.__dataclass_fields__["rule"].default, Role.__dataclass_fields__["rule"].default}
    assert defaults <= set(BY_NAME)


@pytest.mark.unit
def test_every_registered_rule_is_used_and_well_formed() -> None:
    assert RULES
    used = set(rule_names_in_code()) | {"svo", "title"}
    assert not {r.name for r in RULES} - used, "registered rules no code gives"
    assert len(BY_NAME) == len(RULES), "a rule registered twice"
    for r in RULES:
        assert r.kind in ("event", "role") and r.construction and r.example.endswith(".")
        assert (EXTRACT / r.module).is_file(), r.module


@pytest.mark.unit
def test_docs_rules_md_is_the_registry() -> None:
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == markdown(), \
        "docs/rules.md is stale: python -m kg.extract.rules > docs/rules.md"


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_each_rule_reads_its_example(read, rule) -> None:  # type: ignore[no-untyped-def]
    facts = read(rule.example)
    made = facts.events if rule.kind == "event" else facts.roles
    assert made, f"no {rule.kind} read from {rule.example!r}"
    assert rule.name in {f.rule for f in made}, {f.rule for f in made}


def _unregistered(store) -> set[str]:  # type: ignore[no-untyped-def]
    rows = store.select("SELECT ?fact ?rule WHERE { ?fact <https://w3id.org/kg-news/ns#rule> ?rule }")
    assert len(rows) > 50, "the store holds few facts"
    return {str(r["rule"]) for r in rows} - set(BY_NAME)


def test_every_fact_of_the_seeds_names_a_registered_rule(seeds_store) -> None:  # type: ignore[no-untyped-def]
    assert not _unregistered(seeds_store)


def test_every_fact_of_the_dev_set_names_a_registered_rule(dev_store) -> None:  # type: ignore[no-untyped-def]
    assert not _unregistered(dev_store)
