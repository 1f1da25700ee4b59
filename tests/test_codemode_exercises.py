"""Notebook 07: the solutions pass in process and the answer keys match the package. (The stub and
wrong-answer directions are proven for every exercise in test_checks.py.)"""
from __future__ import annotations

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import sizelimit
from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises import exercises_for
from workbook.exercises.lesson07 import EXPECTED_ROWS, PRIOR_STATES, verification_rows_after

SIZES = sizelimit.entry_bytes()


def solution_fillers_that_fit(budget: int) -> int:
    fixed = SIZES["preamble"] + SIZES["CC_LIST_SHIPMENTS"] + SIZES["CC_GET_READINGS"] + SIZES["CC_GET_LIMITS"]
    return max(0, min(9, (budget - fixed) // SIZES["one filler"]))


SOLUTIONS = {
    "ex07-descriptions": cc.CORRECTED,
    "ex07-access": {cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"},
    "ex07-fillers": solution_fillers_that_fit,
}


def test_the_notebook_has_exactly_these_exercises():
    assert sorted(ex.grade_id for ex in exercises_for("07_code_mode_catalog")) == sorted(SOLUTIONS)


@pytest.mark.parametrize("grade_id", sorted(SOLUTIONS))
def test_solution_passes(grade_id):
    verdict = evaluate(grade_id, SOLUTIONS[grade_id])
    assert verdict.status == PASS, verdict.message


def test_every_exercise_has_wrong_answers():
    assert all(len(ex.wrong_answers) >= 4 for ex in exercises_for("07_code_mode_catalog"))


def test_descriptions_check_follows_the_real_result(monkeypatch):
    """Add a field to a tool's result and the solution no longer names every field."""
    original = cc.HANDLERS[cc.LIMITS]
    monkeypatch.setitem(cc.HANDLERS, cc.LIMITS, lambda args: [dict(row, currency="EUR") for row in original(args)])
    verdict = evaluate("ex07-descriptions", cc.CORRECTED)
    assert verdict.status == FAIL and "CC_GET_LIMITS" in verdict.message


def test_access_check_runs_the_real_verification_query():
    answer = SOLUTIONS["ex07-access"]
    for _, prior in PRIOR_STATES:
        assert verification_rows_after(answer, prior) == EXPECTED_ROWS


def test_fillers_answer_key_agrees_with_the_lesson_figure():
    assert solution_fillers_that_fit(31_855) == sizelimit.fillers_that_fit(31_855) == 7


def test_not_plain_answers_are_refused_with_a_reason():
    verdict = evaluate("ex07-access", {cc.LIST: {"code"}})
    assert verdict.status == FAIL and "sorted list" in verdict.message
