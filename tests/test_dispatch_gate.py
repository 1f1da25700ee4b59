"""The approval gate: no write runs without an allowing decision from the decider it needs, and every
proposal is audited. A policy check (code) may settle a draft; only a person settles a write that
cannot be taken back; the model is never told that something happened that did not."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tooldesign.dispatch import (ApprovalRequired, Decider, Decision, Dispatcher, ToolCall, allow_all, deny_all,
                                 fixed, release_policy, require_decision, who_decides)
from tooldesign.tools.base import Tool, ToolSet

RELEASE = {"type": "object", "additionalProperties": False, "required": ["sales_order", "justification"],
           "properties": {"sales_order": {"type": "string"}, "justification": {"type": "string", "minLength": 20}}}
GOOD = {"sales_order": "4711", "justification": "Exposure 52,500 EUR against a 50,000 EUR limit."}


DRAFT = {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False}


def tools(ran: list, hints: dict | None = None) -> ToolSet:
    write = Tool("release_request_create", "Drafts a release.", RELEASE, lambda a: ran.append(a) or {"draft": a},
                 DRAFT if hints is None else hints)
    read = Tool("sales_order_get_block_summary", "Reads.", {"type": "object", "properties": {}},
                lambda a: ran.append(a) or {"ok": 1}, {"readOnlyHint": True})
    return ToolSet("t", (write, read))


def test_no_callback_means_no_write_and_the_model_is_told_nothing_was_queued():
    ran: list = []
    dispatcher = Dispatcher(tools(ran))
    result = dispatcher.dispatch(ToolCall("release_request_create", GOOD))
    assert result.is_error and not ran and "nothing was queued" in result.content
    assert "waiting" not in result.content and "approval" not in result.content
    assert dispatcher.audit.records[0].decision == "no decider" and dispatcher.audit.records[0].decided_by == ""


def test_a_tool_without_readonly_hint_is_gated_too():
    ran: list = []
    result = Dispatcher(tools(ran, hints={})).dispatch(ToolCall("release_request_create", GOOD))
    assert result.is_error and not ran


def test_reads_need_no_decision():
    ran: list = []
    assert not Dispatcher(tools(ran)).dispatch(ToolCall("sales_order_get_block_summary", {})).is_error
    assert ran == [{}]


decisions = st.one_of(
    st.just(None), st.just("not a decision"), st.builds(Decision.allow),
    st.builds(Decision.deny, st.text(min_size=1).filter(str.strip)),
    st.builds(Decision.allow_modified, st.fixed_dictionaries(
        {"sales_order": st.sampled_from(["4711", "4723"]), "justification": st.text(max_size=40)})),
)


@settings(max_examples=200, deadline=None)
@given(decisions, st.booleans())
def test_no_write_runs_without_an_allowing_decision(decision, valid_input):
    ran: list = []
    args = GOOD if valid_input else {"sales_order": "4711"}
    dispatcher = Dispatcher(tools(ran), approve=(lambda call, tool: decision))
    result = dispatcher.dispatch(ToolCall("release_request_create", args))
    allowed = isinstance(decision, Decision) and decision.allowed
    final = decision.updated_input if allowed and decision.updated_input is not None else args
    final_valid = len(final.get("justification", "")) >= 20
    should_run = valid_input and allowed and final_valid
    assert bool(ran) == should_run and result.ran == should_run
    if should_run:
        assert ran == [dict(final)]
    assert len(dispatcher.audit) == 1 and dispatcher.audit.records[0].ran == should_run


def test_require_decision_is_the_enforcement_point():
    write = tools([])["release_request_create"]
    with pytest.raises(ApprovalRequired):
        require_decision(write, None)
    with pytest.raises(ApprovalRequired):
        require_decision(write, Decision.deny("no"))
    require_decision(write, Decision.allow())
    require_decision(tools([])["sales_order_get_block_summary"], None)
    # A write that cannot be taken back runs on a person's allow only.
    claim = tools([], hints={"readOnlyHint": False})["release_request_create"]
    for decision in (Decision.allow(), Decision("allow", by=Decider.POLICY), Decision.deny("no")):
        with pytest.raises(ApprovalRequired):
            require_decision(claim, decision)
    require_decision(claim, Decision("allow", by=Decider.PERSON))


@pytest.mark.parametrize("hints, who", [
    ({"readOnlyHint": True}, None),
    ({}, Decider.PERSON),                                   # MCP defaults: may write, destructive, open world
    ({"readOnlyHint": False}, Decider.PERSON),
    (DRAFT, Decider.POLICY),
    ({**DRAFT, "openWorldHint": True}, Decider.PERSON),     # reaches outside: cannot be called back
    ({**DRAFT, "destructiveHint": True}, Decider.PERSON),
    ({"readOnlyHint": False, "destructiveHint": False}, Decider.PERSON),  # open world by default
])
def test_who_decides_follows_the_hints_and_their_defaults(hints, who):
    assert who_decides(tools([], hints=hints)["release_request_create"]) is who


def test_a_write_that_cannot_be_taken_back_needs_a_person_whatever_the_policy_check_says():
    ran: list = []
    irreversible = tools(ran, hints={"readOnlyHint": False, "openWorldHint": True})
    result = Dispatcher(irreversible, policy_check=allow_all).dispatch(ToolCall("release_request_create", GOOD))
    assert result.is_error and not ran and "a person decides it" in result.content
    assert "nothing was queued" in result.content
    dispatcher = Dispatcher(irreversible, policy_check=allow_all, person_decides=allow_all)
    assert not dispatcher.dispatch(ToolCall("release_request_create", GOOD)).is_error and ran == [GOOD]
    assert dispatcher.audit.records[0].decided_by == "policy_check, person_decides"


def test_the_policy_check_is_asked_first_and_its_refusal_never_reaches_the_person():
    ran: list = []
    asked: list = []

    def person(call, tool):
        asked.append(call.arguments)
        return Decision.allow()

    irreversible = tools(ran, hints={"readOnlyHint": False})
    dispatcher = Dispatcher(irreversible, policy_check=deny_all("Figures missing."), person_decides=person)
    result = dispatcher.dispatch(ToolCall("release_request_create", GOOD))
    assert result.is_error and not ran and not asked
    assert "policy check (code, not a person)" in result.content and "Figures missing." in result.content
    assert "A person" not in result.content


def test_the_person_sees_what_the_policy_check_settled_on():
    ran: list = []
    asked: list = []
    corrected = {**GOOD, "justification": GOOD["justification"] + " Corrected by the check."}

    def person(call, tool):
        asked.append(dict(call.arguments))
        return Decision.allow()

    dispatcher = Dispatcher(tools(ran, hints={}), policy_check=fixed(Decision.allow_modified(corrected, "fixed")),
                            person_decides=person)
    dispatcher.dispatch(ToolCall("release_request_create", GOOD))
    assert asked == [corrected] and ran == [corrected]
    record = dispatcher.audit.records[0]
    assert record.proposed == GOOD and record.final == corrected and record.message == "fixed"


def test_a_denial_names_who_denied():
    by_code = Dispatcher(tools([]), policy_check=deny_all("Figures missing.")).dispatch(
        ToolCall("release_request_create", GOOD))
    by_person = Dispatcher(tools([]), person_decides=deny_all("Not this week.")).dispatch(
        ToolCall("release_request_create", GOOD))
    assert by_code.content.startswith("Nothing has changed") and "the policy check (code, not a person) refused" in by_code.content
    assert "a person refused" in by_person.content and "Not this week." in by_person.content
    assert "person" not in by_code.content.replace("not a person", "")


def test_a_callback_cannot_claim_to_be_a_person():
    ran: list = []
    claims = fixed(Decision("allow", by=Decider.PERSON))
    result = Dispatcher(tools(ran, hints={}), policy_check=claims).dispatch(ToolCall("release_request_create", GOOD))
    assert result.is_error and not ran


def test_approve_is_the_older_name_of_the_policy_check():
    dispatcher = Dispatcher(tools([]), approve=allow_all)
    assert dispatcher.policy_check is allow_all and dispatcher.person_decides is None


def test_a_denial_needs_a_message_and_the_model_reads_it():
    with pytest.raises(ValueError):
        Decision.deny("  ")
    ran: list = []
    result = Dispatcher(tools(ran), approve=deny_all("Order 4711 waits for the credit review on Friday.")).dispatch(
        ToolCall("release_request_create", GOOD))
    assert result.is_error and "credit review on Friday" in result.content and not ran


def test_allow_with_modified_input_runs_the_modified_input_and_audits_both():
    ran: list = []
    edited = {**GOOD, "justification": GOOD["justification"] + " Approved by the sales manager."}
    dispatcher = Dispatcher(tools(ran))
    dispatcher.dispatch(ToolCall("release_request_create", GOOD), approve=fixed(Decision.allow_modified(edited)))
    assert ran == [edited]
    record = dispatcher.audit.records[0]
    assert record.proposed == GOOD and record.final == edited and record.decision == "allow (modified)"


def test_edited_input_is_validated_again():
    ran: list = []
    dispatcher = Dispatcher(tools(ran))
    result = dispatcher.dispatch(ToolCall("release_request_create", GOOD),
                                 approve=fixed(Decision.allow_modified({"sales_order": "4711", "justification": "ok"})))
    assert result.is_error and not ran and "edited input" in result.content


def test_every_proposal_is_audited_in_order():
    ran: list = []
    dispatcher = Dispatcher(tools(ran), approve=allow_all, clock=iter(range(100)).__next__)
    dispatcher.dispatch(ToolCall("sales_order_get_block_summary", {}, "a"))
    dispatcher.dispatch(ToolCall("release_request_create", {"sales_order": "4711"}, "b"))
    dispatcher.dispatch(ToolCall("release_request_create", GOOD, "c"))
    dispatcher.dispatch(ToolCall("release_order", GOOD, "d"))
    labels = [(r.seq, r.call_id, r.decision, r.ran, r.at) for r in dispatcher.audit]
    assert labels == [(1, "a", "read-only: no decision needed", True, 0), (2, "b", "rejected by schema", False, 1),
                      (3, "c", "allow", True, 2), (4, "d", "unknown tool", False, 3)]


def test_release_policy():
    write = tools([])["release_request_create"]
    assert release_policy(ToolCall("release_request_create", GOOD), write) == Decision.allow()
    denied = release_policy(ToolCall("release_request_create", {**GOOD, "justification": "The customer pays."}), write)
    assert not denied.allowed and "EUR" in denied.message
    misquoted = {**GOOD, "justification": "Exposure 50,700 EUR against a 50,000 EUR limit."}
    fixed_up = release_policy(ToolCall("release_request_create", misquoted), write)
    assert fixed_up.updated_input == GOOD and "50,700" in fixed_up.message
    # The same figure written another way is the same figure: no edit.
    same = {**GOOD, "justification": "Exposure: EUR 52500 against a 50,000 EUR limit."}
    assert release_policy(ToolCall("release_request_create", same), write) == Decision.allow()
    # Figures but no exposure stated: nothing to check against the credit service.
    other = {"sales_order": "4723", "justification": "Order value 640 EUR, the postal code is fixed now."}
    assert release_policy(ToolCall("release_request_create", other), write) == Decision.allow()


def test_stated_exposure_is_read_as_a_number():
    from tooldesign.dispatch.gate import amount, checked_exposure, stated_exposure
    assert [amount(t) for t in ("52,500", "52.500", "52500.00", "4,740.5")] == [52500, 52500, 52500, 4740.5]
    assert stated_exposure("Net 3,900 EUR; exposure of € 12,000, far below the limit").value == 12000
    assert stated_exposure("Order value 640 EUR.") is None
    assert checked_exposure("4711") == 52500 and checked_exposure("9999999") is None


def test_every_record_carries_the_definition_version_and_the_result_size():
    from tooldesign.dispatch import definition_version
    ran: list = []
    set_a = tools(ran)
    dispatcher = Dispatcher(set_a, approve=allow_all)
    dispatcher.dispatch(ToolCall("sales_order_get_block_summary", {}, "a"))
    dispatcher.dispatch(ToolCall("release_order", GOOD, "b"))
    read, unknown = dispatcher.audit.records
    assert read.definition == definition_version(set_a["sales_order_get_block_summary"]) and len(read.definition) == 12
    assert read.result_chars == len('{"ok": 1}') and unknown.definition == ""
    # A changed description is a new version; the same definition built again is the same one.
    changed = Tool("sales_order_get_block_summary", "Reads more.", {"type": "object", "properties": {}},
                   lambda a: {"ok": 1}, {"readOnlyHint": True})
    assert definition_version(changed) != read.definition
    assert definition_version(tools([])["sales_order_get_block_summary"]) == read.definition
