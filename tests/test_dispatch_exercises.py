"""Notebook 09: the solutions pass in process and the answer keys match the package. (The stub and
wrong-answer directions are proven for every exercise in test_checks.py.)"""
from __future__ import annotations

import re

import pytest

from tooldesign.dispatch import Decision, Dispatcher, ToolCall
from tooldesign.dispatch import boundary
from tooldesign.tools import tool_set
from workbook.checks import PASS, evaluate
from workbook.exercises import exercises_for
from workbook.exercises.lesson09 import APPROVAL_PROBES

NOTEBOOK = "09_dispatch_and_errors"
CLAUSE = ("Not for a customer as a whole: everything on or about a customer, the full picture, "
          "the account, or who is behind a name or number (use search_customers).")


def approve(arguments: dict) -> dict:
    if not re.search(r"\d[\d,.]*\s*(?:EUR|€)|(?:EUR|€)\s*\d", arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and the credit limit in EUR, then propose again."}
    digits = re.sub(r"\D", "", arguments["sales_order"])
    if digits != arguments["sales_order"]:
        return {"behavior": "allow", "updated_input": {**arguments, "sales_order": digits}}
    return {"behavior": "allow"}


SOLUTIONS = {"ex09-boundary-clause": CLAUSE, "ex09-fixed-call": {"sales_order": "4725", "detail": "concise"},
             "ex09-approval": approve}


def test_the_notebook_has_exactly_these_exercises():
    assert sorted(ex.grade_id for ex in exercises_for(NOTEBOOK)) == sorted(SOLUTIONS)


@pytest.mark.parametrize("grade_id", sorted(SOLUTIONS))
def test_solution_passes(grade_id):
    verdict = evaluate(grade_id, SOLUTIONS[grade_id])
    assert verdict.status == PASS, verdict.message


def test_clause_solution_has_the_shape_the_package_judges():
    verdict = boundary.clause_verdict(CLAUSE, boundary.ORDERS)
    assert verdict.ok and verdict.neighbour == boundary.CUSTOMERS


def test_clause_check_passes_other_words_and_fails_keyword_stuffing():
    other_words = "Questions about the customer as a party, such as who they are or the full picture, go to " \
                  "search_customers."
    assert evaluate("ex09-boundary-clause", other_words).status == PASS
    stuffed = "Not for customer full picture account profile everything (use search_customers)."
    verdict = evaluate("ex09-boundary-clause", stuffed)
    assert verdict.status != PASS and "keyword list" in verdict.message


def test_fixed_call_passes_the_real_dispatcher():
    result = Dispatcher(tool_set("designed")).dispatch(ToolCall("sales_order_get_block_summary",
                                                                SOLUTIONS["ex09-fixed-call"]))
    assert not result.is_error and result.content["sales_order"] == "4725"


def test_the_solution_callback_agrees_with_the_lesson_policy_and_runs_in_the_gate():
    from tooldesign.dispatch import release_policy
    release = tool_set("designed")["release_request_create"]
    for (arguments,) in APPROVAL_PROBES:
        mine = Decision(**approve(arguments))
        theirs = release_policy(ToolCall(release.name, arguments), release)
        assert (mine.allowed, mine.updated_input) == (theirs.allowed, theirs.updated_input)
    dispatcher = Dispatcher(tool_set("designed"), approve=lambda call, tool: Decision(**approve(dict(call.arguments))))
    ran = dispatcher.dispatch(ToolCall(release.name, APPROVAL_PROBES[1][0]))
    assert ran.ran and ran.content["sales_order"] == "4711"
    # "SO-4711" fails the designed schema's digits pattern before any approver is asked.
    refused = dispatcher.dispatch(ToolCall(release.name, APPROVAL_PROBES[2][0]))
    assert not refused.ran and "at most 10" in refused.content
