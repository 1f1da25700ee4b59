"""Whatever a caller proposes, the dispatcher answers with a result, and nobody can rewrite what ran.

A proposal is untrusted input of any JSON shape; an approver is code that may edit what it is
shown; a handler may change its own arguments. None of them may change what was validated, what
runs, or what the audit shows.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tooldesign.dispatch import Decision, Dispatcher, ToolCall, ToolResult, allow_all, fixed
from tooldesign.dispatch.serialisation import ArgumentsNotParsed, parse_arguments
from tooldesign.tools import tool_set
from tooldesign.tools.base import ECHO_LIMIT, Tool, ToolSet, echo
from tooldesign.tools.designed import EXAMPLES

RELEASE = {"type": "object", "additionalProperties": False, "required": ["sales_order", "justification", "tags"],
           "properties": {"sales_order": {"type": "string", "pattern": "^[0-9]{1,10}$"},
                          "justification": {"type": "string"},
                          "tags": {"type": "array", "items": {"type": "string"}}}}
GOOD = {"sales_order": "4711", "justification": "Exposure 52,500 EUR against a 50,000 EUR limit.", "tags": ["credit"]}


def gated(ran: list, mutate_in_handler: bool = False) -> ToolSet:
    def handler(args: dict) -> dict:
        ran.append(json.loads(json.dumps(args)))
        if mutate_in_handler:
            args["sales_order"] = "9999"
            args["tags"].append("handler was here")
        return {"draft": "RR-1"}
    write = Tool("release_request_create", "Drafts a release.", RELEASE, handler,
                 {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False})
    read = Tool("sales_order_get_block_summary", "Reads.", {"type": "object", "properties": {}},
                lambda a: {"ok": 1}, {"readOnlyHint": True})
    return ToolSet("t", (write, read))


# ---------- malformed proposals ----------

MALFORMED = [None, [1], "x", 3, 2.5, True, [], {}, {"name": None}, {"name": 7, "input": {}},
             {"name": ["release_request_create"]}, {"name": "release_request_create", "input": None},
             {"name": "release_request_create", "input": [1, 2]}, {"name": "release_request_create", "input": "x"},
             {"name": "release_request_create", "input": 5}, {"name": "release_request_create", "arguments": "{"},
             {"name": "", "input": {}}, {"name": "x" * 1_000_000, "input": {}},
             {"name": "release_request_create", "input": {1: "non-string key"}},
             {"name": "release_request_create", "input": {"sales_order": {"4711"}}},
             {"name": "release_request_create", "id": ["not", "a", "string"], "input": {}},
             ToolCall(None, None), ToolCall("release_request_create", ["4711"]), ToolCall(["x"], {}, None)]


@pytest.mark.parametrize("proposal", MALFORMED, ids=lambda p: type(p).__name__ + ":" + echo(p, 30))
def test_every_malformed_proposal_becomes_an_actionable_error(proposal):
    ran: list = []
    dispatcher = Dispatcher(gated(ran), approve=allow_all)
    result = dispatcher.dispatch(proposal)
    assert isinstance(result, ToolResult) and result.is_error and not result.ran and not ran
    assert isinstance(result.call_id, str)
    text = result.block()["content"]
    assert "Expected" in text or "one of" in text, text
    assert len(text) < 1200
    assert len(dispatcher.audit) == 1 and dispatcher.audit.records[0].ran is False


def test_deep_nesting_is_refused_not_a_recursion_error():
    deep: object = "4711"
    for _ in range(5000):
        deep = [deep]
    ran: list = []
    text = "[" * 100_000 + "]" * 100_000
    for args in ({**GOOD, "tags": deep}, text):
        result = Dispatcher(gated(ran), approve=allow_all).dispatch(ToolCall("release_request_create", args))
        assert result.is_error and not ran and "nested" in result.content


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
NAMES = st.sampled_from(["release_request_create", "sales_order_get_block_summary", "nope", ""]) | JSON
PROPOSALS = JSON | st.fixed_dictionaries({}, optional={"name": NAMES, "input": JSON | st.just(GOOD), "id": JSON,
                                                        "arguments": JSON | st.text(max_size=20)})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PROPOSALS)
def test_dispatch_raises_nothing_on_any_json_shape(proposal):
    ran: list = []
    dispatcher = Dispatcher(gated(ran), approve=allow_all)
    result = dispatcher.dispatch(proposal)
    assert isinstance(result, ToolResult)
    json.dumps(result.block())
    assert len(dispatcher.audit) == 1
    if result.ran:
        assert isinstance(proposal, dict) and proposal.get("name") in ("release_request_create",
                                                                       "sales_order_get_block_summary")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(EXAMPLES)), arguments=JSON | st.dictionaries(st.text(max_size=12), JSON))
def test_the_designed_set_behind_a_dispatcher_raises_nothing(name, arguments):
    dispatcher = Dispatcher(tool_set("designed"), approve=allow_all, examples=EXAMPLES)
    for proposal in ({"name": name, "input": arguments}, {"name": name, "arguments": json.dumps(arguments)}):
        result = dispatcher.dispatch(proposal)
        assert isinstance(result, ToolResult)
        json.dumps(result.block())


def test_parse_arguments_gives_a_fresh_deep_copy():
    original = {"a": {"b": [1, 2]}}
    copy = parse_arguments(original)
    copy["a"]["b"].append(3)
    assert original == {"a": {"b": [1, 2]}}
    with pytest.raises(ArgumentsNotParsed):
        parse_arguments(object())


# ---------- the approval gate: validate what will actually run ----------

def in_place(edit):
    def approver(call: ToolCall, tool: Tool) -> Decision:
        edit(call.arguments)
        return Decision.allow()
    return approver


@pytest.mark.parametrize("edit", [
    lambda a: a.update(sales_order="SO-4711"),                 # top-level value made invalid
    lambda a: a.pop("justification"),                         # a required field removed
    lambda a: a.update(extra="unexpected"),                   # a field the schema does not have
    lambda a: a["tags"].append(42),                           # nested: a list item of the wrong type
    lambda a: a.update(tags={"not": "a list"}),               # nested value replaced by another shape
])
def test_an_approver_editing_in_place_cannot_run_invalid_arguments(edit):
    ran: list = []
    dispatcher = Dispatcher(gated(ran), approve=in_place(edit))
    call = ToolCall("release_request_create", json.loads(json.dumps(GOOD)))
    result = dispatcher.dispatch(call)
    assert result.is_error and not result.ran and not ran
    record = dispatcher.audit.records[0]
    assert record.proposed == GOOD, "the audit shows what was proposed, not the approver's edit"
    assert record.decision == "allow (edited in place) but invalid" and record.executed is None
    assert call.arguments == GOOD, "the caller's own dict is untouched"


def test_a_valid_in_place_edit_runs_and_is_audited_as_an_edit():
    ran: list = []
    better = GOOD["justification"] + " Approved on the phone."
    dispatcher = Dispatcher(gated(ran), approve=in_place(lambda a: a.update(justification=better)))
    result = dispatcher.dispatch(ToolCall("release_request_create", GOOD))
    assert result.ran and ran == [{**GOOD, "justification": better}]
    record = dispatcher.audit.records[0]
    assert record.proposed == GOOD and record.executed == {**GOOD, "justification": better}
    assert record.decision == "allow (edited in place)"


@pytest.mark.parametrize("replacement", [
    {"sales_order": "4711"},                                   # fields dropped
    {**GOOD, "sales_order": ""},                               # pattern broken
    {**GOOD, "tags": [None]},                                  # nested item broken
    ["not", "an", "object"],                                   # not even an object
    {**GOOD, "tags": {1, 2}},                                  # not JSON at all
])
def test_returned_replacement_arguments_are_validated(replacement):
    ran: list = []
    dispatcher = Dispatcher(gated(ran))
    result = dispatcher.dispatch(ToolCall("release_request_create", GOOD),
                                 approve=fixed(Decision(behavior="allow", updated_input=replacement)))
    assert result.is_error and not ran and dispatcher.audit.records[0].proposed == GOOD


def test_mutating_after_the_decision_changes_neither_what_runs_nor_the_audit():
    ran: list = []
    edited = json.loads(json.dumps(GOOD))
    edited["justification"] += " Checked twice."
    decision = Decision.allow_modified(edited)
    edited["tags"].append(99)          # the approver's dict changes after it decided
    edited["sales_order"] = "SO-1"
    dispatcher = Dispatcher(gated(ran, mutate_in_handler=True))
    proposal = json.loads(json.dumps(GOOD))
    result = dispatcher.dispatch(ToolCall("release_request_create", proposal), approve=fixed(decision))
    assert result.ran and ran[0]["tags"] == ["credit"] and ran[0]["sales_order"] == "4711"
    proposal["tags"].append("caller edits after the call")
    record = dispatcher.audit.records[0]
    assert record.proposed == GOOD
    assert record.executed == {**GOOD, "justification": GOOD["justification"] + " Checked twice."}
    record.proposed["tags"].append("reader edits what it read")
    assert record.proposed == GOOD and dispatcher.audit.rows()[0]["proposed"] == GOOD
    assert dispatcher.handler_calls[0].arguments["sales_order"] == "4711"


def test_audit_records_cannot_be_replaced_or_edited():
    dispatcher = Dispatcher(gated([]), approve=allow_all)
    dispatcher.dispatch(ToolCall("release_request_create", GOOD))
    with pytest.raises(AttributeError):
        dispatcher.audit.records.append("forged")  # a tuple: the log itself is the only writer
    with pytest.raises(AttributeError):
        dispatcher.audit.records[0].proposed_json = "{}"


def test_an_approver_that_crashes_is_no_decision():
    ran: list = []

    def crash(call, tool):
        raise RuntimeError("the approval service is down")
    result = Dispatcher(gated(ran), approve=crash).dispatch(ToolCall("release_request_create", GOOD))
    assert result.is_error and not ran and "gave no usable decision" in result.content


# ---------- errors that echo input are bounded ----------

def test_a_megabyte_field_name_comes_back_short():
    dispatcher = Dispatcher(tool_set("designed"), approve=allow_all, examples=EXAMPLES)
    result = dispatcher.dispatch({"name": "customer_get_address_gaps", "input": {"customer": "10051",
                                                                               "x" * 1_000_000: 1}})
    assert result.is_error and len(result.block()["content"]) < 1000 and "…" in result.content


def test_a_megabyte_value_comes_back_short_everywhere():
    huge = "9" * 1_000_000
    dispatcher = Dispatcher(tool_set("designed"), approve=allow_all, examples=EXAMPLES)
    for proposal in ({"name": huge, "input": {}}, {"name": "sales_order_search", "input": huge},
                     {"name": "sales_order_get_block_summary", "input": {"sales_order": huge, "detail": huge}},
                     {"name": "release_request_create", "input": {"sales_order": "4711", "justification": huge}},
                     huge):
        result = dispatcher.dispatch(proposal)
        assert result.is_error and len(result.block()["content"]) < 1500, proposal if len(str(proposal)) < 99 else ""


def test_echo_caps_at_the_limit_with_an_ellipsis():
    assert len(echo("x" * 10_000)) == ECHO_LIMIT and echo("x" * 10_000).endswith("…")
    assert echo("4711") == '"4711"' and echo({1, 2}).startswith("<a set")


def test_a_handler_returning_what_json_cannot_carry_is_an_error_not_a_crash_later():
    odd = Tool("odd_get", "Returns a set.", {"type": "object", "properties": {}}, lambda a: {"ids": {1, 2}},
               {"readOnlyHint": True})
    result = Dispatcher(ToolSet("t", (odd,))).dispatch(ToolCall("odd_get", {}))
    assert result.is_error and result.ran and "JSON cannot carry" in result.content
    json.dumps(result.block())


EDITS = st.lists(st.tuples(st.sampled_from(["sales_order", "justification", "tags", "extra"]),
                           st.sampled_from(["set", "delete", "append"]), JSON), max_size=4)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS, st.booleans())
def test_whatever_an_approver_does_only_schema_valid_arguments_run(edits, replace):
    """An approver edits its copy at random (in place, or returns the edit); the audit stays true."""
    from tooldesign.tools.schema import validate_arguments

    def approver(call: ToolCall, tool: Tool) -> Decision:
        args = call.arguments
        for key, how, value in edits:
            if how == "set":
                args[key] = value
            elif how == "delete":
                args.pop(key, None)
            elif isinstance(args.get(key), list):
                args[key].append(value)
        return Decision.allow_modified(args) if replace else Decision.allow()

    ran: list = []
    dispatcher = Dispatcher(gated(ran), approve=approver)
    result = dispatcher.dispatch(ToolCall("release_request_create", json.loads(json.dumps(GOOD))))
    record = dispatcher.audit.records[0]
    assert record.proposed == GOOD
    tool = gated([])["release_request_create"]
    if result.ran:
        assert validate_arguments(tool, ran[0]) == [] and record.executed == ran[0]
    else:
        assert not ran and record.executed is None


def test_numpy_scalars_are_their_values_and_arrays_are_refused():
    import numpy as np
    assert parse_arguments({"a": np.int64(5), "b": [np.float64(1.5)], "c": np.bool_(True)}) == {
        "a": 5, "b": [1.5], "c": True}
    assert type(parse_arguments({"a": np.int64(5)})["a"]) is int
    with pytest.raises(ArgumentsNotParsed):
        parse_arguments({"a": np.array([1, 2])})
