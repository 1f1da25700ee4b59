"""Notebook 07: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import sizelimit
from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises import exercises_for
from workbook.exercises.lesson07 import DEPLOYED, PRIOR_STATES, verification_rows_after

SIZES = sizelimit.entry_bytes()


def solution_fillers_that_fit(budget: int) -> int:
    fixed = SIZES["preamble"] + SIZES["CC_LIST_SHIPMENTS"] + SIZES["CC_GET_READINGS"] + SIZES["CC_GET_LIMITS"]
    return max(0, min(9, (budget - fixed) // SIZES["one filler"]))


ACCESS = {cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both", cc.FILE_CLAIM: "direct"}


def test_every_exercise_has_wrong_answers():
    assert all(len(ex.wrong_answers) >= 4 for ex in exercises_for("07_code_mode_catalog"))


def test_descriptions_check_follows_the_real_result(monkeypatch):
    """The corrected descriptions pass; add a field to a tool's result and they no longer name every field."""
    assert evaluate("ex07-descriptions", cc.CORRECTED).status == PASS
    original = cc.HANDLERS[cc.LIMITS]
    monkeypatch.setitem(cc.HANDLERS, cc.LIMITS, lambda args: [dict(row, currency="EUR") for row in original(args)])
    verdict = evaluate("ex07-descriptions", cc.CORRECTED)
    assert verdict.status == FAIL and "CC_GET_LIMITS" in verdict.message


def test_access_check_runs_the_real_verification_query():
    answer = ACCESS
    assert evaluate("ex07-access", answer).status == PASS
    want = [[cc.FILE_CLAIM, "direct", 1], [cc.LIMITS, "both", 1], [cc.READINGS, "code", 1], [cc.LIST, "code", 1]]
    for _, prior in PRIOR_STATES:
        assert verification_rows_after(answer, prior) == want


def test_the_access_prompt_does_not_print_the_answer():
    """The exercise's text describes the tools; it never lists the access values to type in."""
    import json
    from pathlib import Path
    notebook = json.loads((Path(__file__).parents[1] / "solutions" / "07_code_mode_catalog.ipynb").read_text())
    sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    answer_cell = next(i for i, c in enumerate(notebook["cells"])
                       if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "ex07-access")
    prompt = sources[answer_cell - 1] + sources[answer_cell - 2]
    for code, value in ACCESS.items():
        assert f"{code} {value}" not in prompt and f"{code}: {value}" not in prompt
        assert f'"{code}": "{value}"' not in prompt and f"`{code}` `{value}`" not in prompt


@pytest.mark.parametrize("answer", [
    {cc.FILE_CLAIM: "direct", cc.LIMITS: "both", cc.READINGS: "code", cc.LIST: "code"},     # another order
    {cc.LIST: "Code", cc.READINGS: " code ", cc.LIMITS: "BOTH", cc.FILE_CLAIM: "Direct"},  # other spelling
])
def test_a_right_access_answer_in_other_words_passes(answer):
    assert evaluate("ex07-access", answer).status == PASS


@pytest.mark.parametrize("answer, says", [
    ({cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both", cc.FILE_CLAIM: "code"}, "it writes"),
    ({cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"}, "passes nothing for it"),
    ({cc.LIST: "code", cc.READINGS: "both", cc.LIMITS: "both", cc.FILE_CLAIM: "direct"}, "into the context"),
    ({cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "direct", cc.FILE_CLAIM: "direct"}, "could not call it"),
    ({}, "passes nothing for it"),
])
def test_plausible_access_mistakes_get_the_idea_back(answer, says):
    verdict = evaluate("ex07-access", answer)
    assert verdict.status == FAIL and says in verdict.message


def test_the_deployment_covers_the_four_tools():
    assert set(DEPLOYED) == set(ACCESS)


def test_fillers_answer_passes_and_agrees_with_the_lesson_figure():
    assert evaluate("ex07-fillers", solution_fillers_that_fit).status == PASS
    assert solution_fillers_that_fit(31_855) == sizelimit.fillers_that_fit(31_855) == 7


def test_not_plain_answers_are_refused_with_a_reason():
    verdict = evaluate("ex07-access", {cc.LIST: {"code"}})
    assert verdict.status == FAIL and "sorted list" in verdict.message


def test_descriptions_in_other_words_pass():
    """Different sentences, other order of fields, lists written as arrays: still every field named."""
    answer = {
        cc.LIMITS: "No arguments. Gives back, per product class, an object with product_class, claim_per_hour_eur, "
                   "sample_minutes, max_minutes_above and max_temp_c.",
        cc.READINGS: "Argument shipment_id (a number taken from CC_LIST_SHIPMENTS, never an SHP- code). The result "
                     "object has shipment_id and readings; each reading has ts and temp_c.",
        cc.LIST: "Gives an array; each entry: departure, product_class, lane, carrier, shipment_number, shipment_id.",
    }
    assert evaluate("ex07-descriptions", answer).status == PASS


def test_fillers_written_as_a_loop_pass():
    def by_loop(budget):
        used = SIZES["preamble"] + SIZES["CC_LIST_SHIPMENTS"] + SIZES["CC_GET_READINGS"] + SIZES["CC_GET_LIMITS"]
        count = 0
        while count < 9 and used + SIZES["one filler"] <= budget:
            used += SIZES["one filler"]
            count += 1
        return count

    assert evaluate("ex07-fillers", by_loop).status == PASS
