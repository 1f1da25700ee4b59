"""Hints say what is wrong without naming the answer's parts, so nobody can probe their way to it.

A hint that named the wrong shipment or the rule that does not fire would let a learner change one
item at a time and read the answer off the hints. These tests try exactly that and require every such
attempt to get the same hint, with nothing in it the learner did not already write.
"""
from __future__ import annotations

import re

from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises.lesson02 import CLAIMS
from workbook.exercises.lesson05 import draft_rules

ALL_SHIPMENTS = [f"SHP-{n}" for n in range(2040, 2064)]


def test_claim_hints_name_no_shipment():
    hints = set()
    for extra in (s for s in ALL_SHIPMENTS if s not in CLAIMS):
        verdict = evaluate("ex02-claims", {**CLAIMS, extra: 240})
        assert verdict.status == FAIL
        hints.add(verdict.message)
    for missing in CLAIMS:
        verdict = evaluate("ex02-claims", {k: v for k, v in CLAIMS.items() if k != missing})
        assert verdict.status == FAIL
        hints.add(verdict.message)
    assert not any(re.search(r"SHP-\d+", hint) for hint in hints), hints
    assert len(hints) == 2  # one for too many, one for too few, whichever shipment it is


def test_claim_hint_for_zeros_names_nothing_either():
    verdict = evaluate("ex02-claims", {**CLAIMS, "SHP-2044": 0})
    assert verdict.status == FAIL and "SHP" not in verdict.message


def test_the_claims_in_other_types_still_pass():
    assert evaluate("ex02-claims", {k: float(v) for k, v in CLAIMS.items()}).status == PASS


def test_prediction_hints_name_no_rule():
    from tooldesign.lint import RULES
    want = draft_rules()
    others = [r.id for r in RULES if r.id not in want]
    hints = set()
    for rule in others:
        verdict = evaluate("ex05-predict", sorted({*want, rule}))
        assert verdict.status == FAIL
        hints.add(verdict.message)
    for rule in want:
        verdict = evaluate("ex05-predict", sorted(set(want) - {rule}))
        assert verdict.status == FAIL
        hints.add(verdict.message)
    ids = {r.id for r in RULES}
    assert not any(rule in hint for hint in hints for rule in ids), hints
    assert len(hints) == 2


def test_the_prediction_passes_in_any_correct_form():
    assert evaluate("ex05-predict", draft_rules()).status == PASS
    assert evaluate("ex05-predict", list(reversed(draft_rules()))).status == FAIL  # sorted is part of the task
