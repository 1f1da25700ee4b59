"""Notebook 07's checks, proven both ways: the solution passes; the stub and each wrong answer fail."""
from __future__ import annotations

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import sizelimit
from workbook.checks import FAIL, NOT_DONE, PASS, evaluate
from workbook.exercises import exercises_for, get_exercise
from workbook.exercises.lesson07 import EXPECTED_ROWS, PRIOR_STATES, verification_rows_after

SIZES = sizelimit.entry_bytes()


def solution_fillers_that_fit(budget: int) -> int:
    fixed = SIZES["preamble"] + SIZES["CC_LIST_SHIPMENTS"] + SIZES["CC_GET_READINGS"] + SIZES["CC_GET_LIMITS"]
    return max(0, min(9, (budget - fixed) // SIZES["one filler"]))


def stub_function(budget: int) -> int:
    raise NotImplementedError()


SOLUTIONS = {
    "ex07-descriptions": cc.CORRECTED,
    "ex07-access": {cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"},
    "ex07-fillers": solution_fillers_that_fit,
}
STUBS = {"ex07-descriptions": ..., "ex07-access": ..., "ex07-fillers": stub_function}


def test_the_notebook_has_exactly_these_exercises():
    assert sorted(ex.grade_id for ex in exercises_for("07_code_mode_catalog")) == sorted(SOLUTIONS)


@pytest.mark.parametrize("grade_id", sorted(SOLUTIONS))
def test_solution_passes(grade_id):
    verdict = evaluate(grade_id, SOLUTIONS[grade_id])
    assert verdict.status == PASS, verdict.message


@pytest.mark.parametrize("grade_id", sorted(STUBS))
def test_stub_is_not_done(grade_id):
    assert evaluate(grade_id, STUBS[grade_id]).status == NOT_DONE


@pytest.mark.parametrize("grade_id, index", [(ex.grade_id, i) for ex in exercises_for("07_code_mode_catalog")
                                             for i in range(len(ex.wrong_answers))])
def test_wrong_answer_fails_with_its_hint(grade_id, index):
    wrong = get_exercise(grade_id).wrong_answers[index]
    verdict = evaluate(grade_id, wrong.answer)
    assert verdict.status == FAIL and wrong.hint_contains in verdict.message, verdict.message


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
