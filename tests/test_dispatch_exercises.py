"""Notebooks 11 and 12: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

import re

from tooldesign.dispatch import Decision, Dispatcher, ToolCall
from tooldesign.dispatch import boundary
from tooldesign.dispatch.gate import checked_exposure
from tooldesign.tools import tool_set
from workbook.checks import PASS, evaluate
from workbook.exercises.lesson12 import APPROVAL_PROBES
CLAUSE = ("Not for a customer as a whole: everything on or about a customer, the full picture, "
          "the account, or who is behind a name or number (use search_customers).")


def approve(arguments: dict) -> dict:
    """The notebook's rule, written as a learner might: its own pattern, the figure put back as plain digits."""
    why = arguments["justification"]
    if not re.search(r"\d[\d,.]*\s*(?:EUR|€)|(?:EUR|€)\s*\d", why):
        return {"behavior": "deny", "message": "State the exposure and the credit limit in EUR, then propose again."}
    stated = re.search(r"exposure\D{0,12}?([\d][\d,.]*\d|\d)\s*(?:EUR|€)|exposure\D{0,12}?(?:EUR|€)\s*(\d[\d,.]*\d|\d)",
                       why, re.I)
    if stated:
        group = 1 if stated.group(1) else 2
        checked = checked_exposure(arguments["sales_order"])
        if float(stated.group(group).replace(",", "")) != checked:
            fixed = why[:stated.start(group)] + str(int(checked)) + why[stated.end(group):]
            return {"behavior": "allow", "updated_input": {"justification": fixed, "sales_order": arguments["sales_order"]}}
    return {"behavior": "allow"}


def fixed_call(request, call, error):
    """From the error (which fields, what shape) and the request (which order, how much), as a learner might."""
    fixed = {}
    if "sales_order you sent" in error or "sales_order missing" in error:
        fixed["sales_order"] = re.findall(r"[0-9]+", request)[0]
    else:
        fixed["sales_order"] = call["sales_order"]
    wants = any(word in request.lower().split() or word + "." in request.lower() for word in ("dates", "items", "po"))
    fixed["detail"] = "detailed" if wants else "concise"
    return fixed


def test_clause_solution_passes_and_has_the_shape_the_package_judges():
    assert evaluate("ex11-boundary-clause", CLAUSE).status == PASS
    verdict = boundary.clause_verdict(CLAUSE, boundary.ORDERS)
    assert verdict.ok and verdict.neighbour == boundary.CUSTOMERS


def test_clause_check_passes_other_words_and_fails_keyword_stuffing():
    other_words = "Questions about the customer as a party, such as who they are or the full picture, go to " \
                  "search_customers."
    assert evaluate("ex11-boundary-clause", other_words).status == PASS
    stuffed = "Not for customer full picture account profile everything (use search_customers)."
    verdict = evaluate("ex11-boundary-clause", stuffed)
    assert verdict.status != PASS and "keyword list" in verdict.message


def test_fixed_call_passes_the_check_and_the_real_dispatcher():
    from workbook.exercises.lesson11 import FIX_PROBES
    assert evaluate("ex11-fixed-call", fixed_call).status == PASS
    for request, call, error in FIX_PROBES:
        assert "was not run" in error and "Correct the arguments" in error  # the dispatcher's own error
        again = fixed_call(request, call, error)
        result = Dispatcher(tool_set("designed")).dispatch(ToolCall("sales_order_get_block_summary", again))
        assert not result.is_error, (request, again)


def test_the_solution_callback_passes_agrees_with_the_lesson_policy_and_runs_in_the_gate():
    from tooldesign.dispatch import release_policy
    verdict = evaluate("ex12-approval", approve)
    assert verdict.status == PASS, verdict.message
    release = tool_set("designed")["release_request_create"]
    for (arguments,) in APPROVAL_PROBES:
        mine = Decision(**approve(arguments))
        theirs = release_policy(ToolCall(release.name, arguments), release)
        assert mine.allowed == theirs.allowed
        assert (mine.updated_input is None) == (theirs.updated_input is None), arguments
    asked = []

    def callback(call, tool):
        asked.append(call.id)
        return Decision(**approve(dict(call.arguments)))
    dispatcher = Dispatcher(tool_set("designed"), approve=callback)
    ran = dispatcher.dispatch(ToolCall(release.name, APPROVAL_PROBES[2][0], "misquoted"))
    assert ran.ran and "52500 EUR" in ran.content["justification"]
    assert dispatcher.audit.records[-1].proposed != dispatcher.audit.records[-1].executed
    # A format error never reaches the approver: the schema refuses "SO-4711" first, and says how to fix it.
    refused = dispatcher.dispatch(ToolCall(release.name, {**APPROVAL_PROBES[1][0], "sales_order": "SO-4711"}, "prefixed"))
    assert not refused.ran and "digits only" in refused.content and asked == ["misquoted"]


def test_every_approval_probe_is_one_the_dispatcher_would_pass_to_an_approver():
    from tooldesign.dispatch import problems
    release = tool_set("designed")["release_request_create"]
    assert all(problems(release, arguments) == [] for (arguments,) in APPROVAL_PROBES)


def test_approval_check_accepts_other_correct_spellings_of_the_figure():
    from tooldesign.dispatch.gate import stated_exposure

    def replaced(arguments, text):
        why = arguments["justification"]
        stated = stated_exposure(why)
        return {"behavior": "allow", "updated_input": {**arguments, "justification": why[:stated.start] + text
                                                       + why[stated.end:]}}

    for spelling in ("{:,.0f}", "{:.0f}", "{:,.2f}"):
        def variant(arguments, spelling=spelling):
            decision = approve(arguments)
            if "updated_input" in decision:
                return replaced(arguments, spelling.format(checked_exposure(arguments["sales_order"])))
            return decision
        assert evaluate("ex12-approval", variant).status == PASS, spelling


def test_an_approver_edit_that_breaks_the_schema_is_refused_and_audited():
    from tooldesign.dispatch import fixed
    release = tool_set("designed")["release_request_create"]
    proposed = APPROVAL_PROBES[1][0]
    edit = {**proposed, "sales_order": "SO-4711"}
    dispatcher = Dispatcher(tool_set("designed"), approve=fixed(Decision.allow_modified(edit)))
    result = dispatcher.dispatch(ToolCall(release.name, proposed))
    record = dispatcher.audit.records[-1]
    assert result.is_error and not result.ran and "failed the schema" in result.content
    assert record.proposed == proposed and record.final == edit and record.executed is None
