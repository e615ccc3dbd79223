"""The dependency labels several readers test for are defined once (kg/extract/grammar/labels.py):
no module of kg.extract spells out one of those sets again."""
from __future__ import annotations

import ast
from pathlib import Path

from kg.extract.grammar import labels

EXTRACT = Path(labels.__file__).resolve().parents[1]
SHARED = {labels.ACTIVE_SUBJECTS: "ACTIVE_SUBJECTS", labels.NOUN_SUBJECTS: "NOUN_SUBJECTS",
          labels.SUBJECTS: "SUBJECTS"}


def _spelt_out(source: str) -> list[tuple[int, str]]:
    """(line, name) of each tuple, list or set literal of strings that is one of the shared sets."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            words = frozenset(e.value for e in node.elts if isinstance(e, ast.Constant))
            if words in SHARED:
                found.append((node.lineno, SHARED[words]))
    return found


def test_the_finder_finds_a_set_spelt_out() -> None:
    assert _spelt_out('SUBJ = ("nsubj", "csubj")\nok = ("nsubj", "dobj")\n') == [(1, "ACTIVE_SUBJECTS")]
    assert _spelt_out('x = c.dep_ in {"nsubjpass", "nsubj"}\n') == [(1, "NOUN_SUBJECTS")]


def test_the_three_subject_sets_are_distinct() -> None:
    assert len(SHARED) == 3
    assert labels.SUBJECTS == labels.ACTIVE_SUBJECTS | labels.NOUN_SUBJECTS


def test_no_module_spells_out_a_shared_label_set() -> None:
    modules = sorted(p for p in EXTRACT.rglob("*.py") if p.name != "labels.py")
    assert modules
    again = {str(p.relative_to(EXTRACT)): hits for p in modules if (hits := _spelt_out(p.read_text(encoding="utf-8")))}
    assert not again, f"import these from kg.extract.grammar.labels instead: {again}"
