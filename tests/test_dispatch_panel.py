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
