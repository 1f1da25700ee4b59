"""Hints say what is wrong without naming the answer's parts, so nobody can probe their way to it.

A hint that named the wrong shipment or the rule that does not fire would let a learner change one
item at a time and read the answer off the hints. These tests try exactly that and require every such
attempt to get the same hint, with nothing in it the learner did not already write.
"""
from __future__ import annotations

import itertools
import re

from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises.lesson01 import BLOCKED_PROBES, reference_blocked
from workbook.exercises.lesson02 import CLAIM_PROBES, reference_claims
from workbook.exercises.lesson05 import draft_rules


def _answering(probes, reference, case: int, result):
    """A function right on every case of the check but one, where it returns ``result``: a learner
    trying one guess at a time on the case they are stuck on."""
    def function(*args):
        index = next(i for i, probe in enumerate(probes) if list(probe) == list(args))
        return result if index == case else reference(*args)
    return function


def _claim_guesses(case: int):
    shipments = [s["shipment_number"] for s in CLAIM_PROBES[case][0]] + ["SHP-1"]
    right = reference_claims(*CLAIM_PROBES[case])
    for size in range(len(shipments) + 1):
        for chosen in itertools.combinations(shipments, size):
            for amount in (0, 1, 120, 240, 480, 500, 720, 1000):
                guess = dict.fromkeys(chosen, amount)
                if guess != right:
                    yield guess


def test_claim_hints_name_no_shipment_and_no_amount():
    """Whatever a learner guesses on whichever case, the hint names the case and a rule, never a
    shipment or an amount: so no sequence of guesses reads the right claims off the hints."""
    for case in range(len(CLAIM_PROBES)):
        hints = set()
        for guess in _claim_guesses(case):
            verdict = evaluate("ex02-claims", _answering(CLAIM_PROBES, reference_claims, case, guess))
            assert verdict.status == FAIL, guess
            hints.add(verdict.message)
        assert not any(re.search(r"SHP-\d|\d{3}", hint) for hint in hints), hints
        assert len(hints) <= 6, hints  # a few rules, not one hint per guess


def test_blocked_hints_name_no_order():
    for case, (orders,) in enumerate(BLOCKED_PROBES):
        numbers = sorted({h["SalesOrder"] for h in orders}) + ["9999"]
        right = reference_blocked(orders)
        hints = set()
        for size in range(min(len(numbers), 4) + 1):
            for chosen in itertools.combinations(numbers, size):
                if list(chosen) == right:
                    continue
                verdict = evaluate("ex01-blocked-orders",
                                   _answering(BLOCKED_PROBES, reference_blocked, case, list(chosen)))
                assert verdict.status == FAIL, chosen
                hints.add(verdict.message)
        assert not any(n in hint for hint in hints for n in numbers), hints


def test_the_claims_in_other_types_still_pass():
    def as_floats(*args):
        return {k: float(v) for k, v in reference_claims(*args).items()}
    assert evaluate("ex02-claims", as_floats).status == PASS


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
