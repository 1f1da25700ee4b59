"""The approval panel's logic, without a browser."""
from __future__ import annotations

import json

from tooldesign.dispatch import Decision, Dispatcher, ToolCall
from tooldesign.dispatch.widgets import approval_panel, decide, decision_from, proposal_text
from tooldesign.tools.base import Tool, ToolSet

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["sales_order", "justification"],
          "properties": {"sales_order": {"type": "string"}, "justification": {"type": "string", "minLength": 20}}}
CALL = ToolCall("release_request_create",
                {"sales_order": "4711", "justification": "Exposure 52,500 EUR, limit 50,000 EUR."}, "toolu_1")


def dispatcher(ran: list) -> Dispatcher:
    tool = Tool("release_request_create", "d", SCHEMA, lambda a: ran.append(a) or {"request_id": "RR-4711"},
                {"readOnlyHint": False})
    return Dispatcher(ToolSet("t", (tool,)))


def test_decision_from_clicks():
    assert decision_from("allow") == Decision.allow()
    assert decision_from("edit", '{"sales_order": "4723"}').updated_input == {"sales_order": "4723"}
    assert "not a JSON object" in decision_from("edit", "{oops")
    assert "reason" in decision_from("deny", message=" ")
    assert decision_from("deny", message="Wait for Friday.") == Decision.deny("Wait for Friday.")
    assert "Unknown action" in decision_from("approve")


def test_decide_runs_only_on_a_complete_decision():
    ran: list = []
    d = dispatcher(ran)
    assert decide(d, CALL, "deny").result is None and not ran and len(d.audit) == 0
    outcome = decide(d, CALL, "deny", message="Credit review first.")
    assert outcome.result.is_error and "Credit review first." in outcome.result.content and not ran
    edited = json.dumps({**CALL.arguments, "justification": CALL.arguments["justification"] + " Checked by AB."})
    outcome = decide(d, CALL, "edit", edited)
    assert outcome.result.ran and ran[0]["justification"].endswith("Checked by AB.")
    assert [r.decision for r in d.audit] == ["deny", "allow (modified)"]


def test_proposal_text_and_widget_builds():
    assert proposal_text(CALL).startswith("release_request_create (call toolu_1) proposes:")
    panel = approval_panel(dispatcher([]), CALL)
    allow = panel.children[3].children[0]
    allow.click()
    assert all(b.disabled for b in panel.children[3].children)


def test_a_click_is_a_persons_decision_and_the_policy_check_is_asked_first():
    from tooldesign.dispatch import deny_all
    ran: list = []
    d = dispatcher(ran)
    outcome = decide(d, CALL, "allow")
    assert outcome.result.ran and d.audit.records[-1].decided_by == "person_decides"
    assert outcome.note.startswith("a person decided: allow")
    d.policy_check = deny_all("The figures do not match the credit check.")
    outcome = decide(d, CALL, "allow")
    assert not outcome.result.ran and "policy check (code, not a person)" in outcome.result.content
    assert d.audit.records[-1].decided_by == "policy_check" and len(ran) == 1


def test_without_a_click_an_irreversible_write_is_not_run_and_the_model_is_told_so():
    ran: list = []
    result = dispatcher(ran).dispatch(CALL)
    assert result.is_error and not ran and "no person is set up" in result.content
    assert "nothing was queued" in result.content
