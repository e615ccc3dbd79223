"""The written-down parses of the rule tests (tests/parses.json) are still what the pipeline makes: a change
to the model or to kg's NER repairs that changes one shows here, not as a rule test that tests an old parse."""
from __future__ import annotations

from handparse import _parses, stale


def test_the_written_down_parses_are_the_pipeline_s(nlp) -> None:  # type: ignore[no-untyped-def]
    assert _parses(), "no parse written down"
    changed = stale(nlp)
    assert not changed, (f"{len(changed)} written-down parses differ from the pipeline's now "
                         f"(python tests/handparse.py --refresh, then read the rule tests that fail): {changed[:5]}")
