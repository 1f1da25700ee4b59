"""Notebooks 08 and 09: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import sizelimit
from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises import exercises_for
from workbook.exercises.lesson09 import DEPLOYED, PRIOR_STATES, verification_rows_after

SIZES = sizelimit.entry_bytes()


def solution_fillers_that_fit(budget: int) -> int:
    fixed = SIZES["preamble"] + SIZES["CC_LIST_SHIPMENTS"] + SIZES["CC_GET_READINGS"] + SIZES["CC_GET_LIMITS"]
    return max(0, min(9, (budget - fixed) // SIZES["one filler"]))


ACCESS = {cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both", cc.FILE_CLAIM: "direct"}


def test_every_exercise_has_wrong_answers():
    assert all(len(ex.wrong_answers) >= 4 for ex in exercises_for("08_code_mode_catalog") + exercises_for("09_code_mode_access"))


def test_descriptions_check_follows_the_real_result(monkeypatch):
    """The corrected descriptions pass; add a field to a tool's result and they no longer name every field."""
    assert evaluate("ex08-descriptions", cc.CORRECTED).status == PASS
    original = cc.HANDLERS[cc.LIMITS]
    monkeypatch.setitem(cc.HANDLERS, cc.LIMITS, lambda args: [dict(row, currency="EUR") for row in original(args)])
    verdict = evaluate("ex08-descriptions", cc.CORRECTED)
    assert verdict.status == FAIL and "CC_GET_LIMITS" in verdict.message


def access_for(tool):
    """The lesson's reasons, as a learner might write them."""
    if tool["writes"]:
        return "direct"
    return "both" if tool["person_asks"] else "code"


def test_access_check_runs_the_real_verification_query():
    assert evaluate("ex09-access", access_for).status == PASS
    answer = {code: access_for(facts) for code, facts in cc.deployment_facts().items()}
    assert answer == ACCESS
    want = [[cc.FILE_CLAIM, "direct", 1], [cc.LIMITS, "both", 1], [cc.READINGS, "code", 1], [cc.LIST, "code", 1]]
    for _, prior in PRIOR_STATES:
        assert verification_rows_after(answer, prior) == want


def test_the_facts_hold_no_access_value_and_match_what_the_lesson_printed():
    """The description the exercise decides from says what a tool does, never where it goes."""
    facts = cc.deployment_facts()
    assert list(facts) == list(DEPLOYED)
    for code, tool in facts.items():
        assert set(tool) == {"name", "writes", "irreversible", "result_chars", "person_asks"}
        assert not {"direct", "code", "both"} & {v for v in tool.values() if isinstance(v, str)}
    assert facts[cc.LIST]["result_chars"] > 1000 > facts[cc.LIMITS]["result_chars"]


def test_the_access_prompt_does_not_print_the_answer():
    """The exercise's text describes the tools; it never lists the access values to type in."""
    import json
    from pathlib import Path
    notebook = json.loads((Path(__file__).parents[1] / "solutions" / "09_code_mode_access.ipynb").read_text())
    sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    answer_cell = next(i for i, c in enumerate(notebook["cells"])
                       if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "ex09-access")
    prompt = sources[answer_cell - 1] + sources[answer_cell - 2] + sources[answer_cell - 3]
    for code, value in ACCESS.items():
        assert f"{code} {value}" not in prompt and f"{code}: {value}" not in prompt
        assert f'"{code}": "{value}"' not in prompt and f"`{code}` `{value}`" not in prompt


def _by_size(tool):
    if tool["writes"]:
        return "DIRECT"
    return " code " if tool["result_chars"] >= 1000 and not tool["person_asks"] else "Both"


def _from_a_table(tool):
    table = {(True, False): "direct", (True, True): "direct", (False, False): "code", (False, True): "both"}
    return table[(tool["writes"], tool["person_asks"])]


@pytest.mark.parametrize("answer", [_by_size, _from_a_table], ids=["by size, other spelling", "a table"])
def test_a_right_access_answer_in_other_words_passes(answer):
    assert evaluate("ex09-access", answer).status == PASS


@pytest.mark.parametrize("answer, says", [
    (lambda t: "direct" if "CLAIM" in t["name"] else ("both" if t["person_asks"] else "code"), "it writes"),
    (lambda t: {cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"}.get(t["name"]), "passes nothing"),
    (lambda t: "direct" if t["writes"] else "both", "into the context"),
    (lambda t: "direct" if t["writes"] else ("direct" if t["person_asks"] else "code"), "could not call it"),
    (lambda t: None, "passes nothing"),
    (lambda t: ACCESS[t["name"]], "raised KeyError"),
    (lambda t: "direct" if t["irreversible"] else ("both" if t["person_asks"] else "code"), "can be undone"),
])
def test_plausible_access_mistakes_get_the_idea_back(answer, says):
    verdict = evaluate("ex09-access", answer)
    assert verdict.status == FAIL and says in verdict.message, verdict.message


def test_fillers_answer_passes_and_agrees_with_the_lesson_figure():
    assert evaluate("ex09-fillers", solution_fillers_that_fit).status == PASS
    assert solution_fillers_that_fit(31_855) == sizelimit.fillers_that_fit(31_855) == 7


def test_not_plain_answers_are_refused_with_a_reason():
    verdict = evaluate("ex09-access", lambda tool: {"code"})
    assert verdict.status == FAIL and "sorted list" in verdict.message, verdict.message


def test_descriptions_in_other_words_pass():
    """Different sentences, other order of fields, lists written as arrays: still every field named."""
    answer = {
        cc.LIMITS: "No arguments. Gives back, per product class, an object with product_class, claim_per_hour_eur, "
                   "sample_minutes, max_minutes_above and max_temp_c.",
        cc.READINGS: "Argument shipment_id (a number taken from CC_LIST_SHIPMENTS, never an SHP- code). The result "
                     "object has shipment_id and readings; each reading has ts and temp_c.",
        cc.LIST: "Gives an array; each entry: departure, product_class, lane, carrier, shipment_number, shipment_id.",
    }
    assert evaluate("ex08-descriptions", answer).status == PASS


def test_fillers_written_as_a_loop_pass():
    def by_loop(budget):
        used = SIZES["preamble"] + SIZES["CC_LIST_SHIPMENTS"] + SIZES["CC_GET_READINGS"] + SIZES["CC_GET_LIMITS"]
        count = 0
        while count < 9 and used + SIZES["one filler"] <= budget:
            used += SIZES["one filler"]
            count += 1
        return count

    assert evaluate("ex09-fillers", by_loop).status == PASS
