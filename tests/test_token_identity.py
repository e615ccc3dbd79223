"""spaCy makes a new Token object at each access (``tok.head``, ``doc[i]``), so ``a is b`` between
tokens is False for the same word: extraction compares positions (``a.i == b.i``). This test keeps
identity comparisons out of the extraction code, but for the few between objects that are not tokens."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "kg"
#: Identity comparisons of objects that are no tokens (events, spans of one list, a compiled pattern).
NOT_TOKENS = {"e is claim", "e is ent", "m.re is _UNIT"}

pytestmark = pytest.mark.unit


def _identity_comparisons(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.Is, ast.IsNot)) and not isinstance(right, ast.Constant) \
                    and not isinstance(node.left, ast.Constant):
                out.append(ast.unparse(node))
    return out


def test_extraction_compares_tokens_by_position() -> None:
    found = [f"{p.relative_to(ROOT.parent)}: {c}" for folder in ("extract", "nlp")
             for p in sorted((ROOT / folder).rglob("*.py")) for c in _identity_comparisons(p) if c not in NOT_TOKENS]
    assert not found, "compare tokens with .i, not is:\n" + "\n".join(found)


def test_the_check_sees_an_identity_comparison(tmp_path: Path) -> None:
    code = tmp_path / "x.py"
    code.write_text("def f(a, b):\n    return a.head is b\n", encoding="utf-8")
    assert _identity_comparisons(code) == ["a.head is b"]
