"""The dispatcher validates before it runs: a call that fails its schema never reaches a handler."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st
from jsonschema import Draft202012Validator

from tooldesign.dispatch import Dispatcher, ToolCall, ToolFailure, example_arguments, problems
from tooldesign.dispatch.validate import compare_strategies
from tooldesign.tools.base import Tool, ToolSet

SCHEMA = {
    "type": "object", "required": ["sales_order", "detail"], "additionalProperties": False,
    "properties": {
        "sales_order": {"type": "string", "pattern": "^[0-9]{1,10}$",
                        "description": "The order's number in digits only, for example '4711'."},
        "detail": {"enum": ["concise", "detailed"], "type": "string"},
        "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 20},
    },
}


def make(handler=None) -> tuple[Dispatcher, list]:
    seen: list = []

    def record(args):
        seen.append(args)
        return {"ok": True} if handler is None else handler(args)

    tool = Tool("sales_order_get_block_summary", "Reads one order.", SCHEMA, record, {"readOnlyHint": True})
    return Dispatcher(ToolSet("t", (tool,))), seen


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=6)
    | st.sampled_from(["4711", "SO-4711", "concise", "detailed", "full"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=6)
arguments = st.dictionaries(st.sampled_from(["sales_order", "detail", "limit", "extra"]) | st.text(max_size=5),
                            json_values, max_size=4)


@settings(max_examples=300, deadline=None)
@given(arguments)
def test_never_runs_a_call_that_fails_its_schema(args):
    dispatcher, seen = make()
    result = dispatcher.dispatch(ToolCall("sales_order_get_block_summary", args))
    schema_ok = Draft202012Validator(SCHEMA).is_valid(args)
    assert bool(seen) == schema_ok
    assert result.is_error == (not schema_ok)
    assert result.ran == schema_ok


@settings(max_examples=100, deadline=None)
@given(arguments)
def test_same_verdict_for_a_json_string(args):
    dispatcher, seen = make()
    dispatcher.dispatch(ToolCall("sales_order_get_block_summary", json.dumps(args)))
    assert bool(seen) == Draft202012Validator(SCHEMA).is_valid(args)


def test_error_says_what_was_wrong_what_is_expected_and_gives_an_example():
    dispatcher, seen = make()
    result = dispatcher.dispatch(ToolCall("sales_order_get_block_summary", {"sales_order": "SO-4711", "detail": "x"}))
    text = result.block()["content"]
    assert result.is_error and result.block()["is_error"] is True and not seen
    assert '"SO-4711"' in text and "digits only" in text
    assert 'one of "concise", "detailed"' in text
    assert 'Example: {"sales_order": "4711", "detail": "concise"}' in text


def test_missing_and_unexpected_fields_are_named():
    found = {p.field: p for p in problems(make()[0].tools["sales_order_get_block_summary"], {"order": "4711"})}
    assert found["order"].wrong == "not a field of this tool"
    assert found["sales_order"].wrong == "missing" and found["detail"].wrong == "missing"


def test_unknown_tool_and_unparseable_arguments_are_errors_not_exceptions():
    dispatcher, seen = make()
    assert "one of sales_order_get_block_summary" in dispatcher.dispatch(ToolCall("get_order", {})).content
    bad = dispatcher.dispatch(ToolCall("sales_order_get_block_summary", '{"sales_order": "4711",'))
    assert bad.is_error and "not valid JSON" in bad.content and not seen


def test_handler_failures_become_actionable_or_generic_errors():
    def fail(args):
        raise ToolFailure("No sales order 4799 is visible to you",
                          instead="List the customer's orders with sales_order_search")
    dispatcher, _ = make(fail)
    result = dispatcher.dispatch(ToolCall("sales_order_get_block_summary", {"sales_order": "4799", "detail": "concise"}))
    assert result.is_error and result.ran and "sales_order_search" in result.content

    def crash(args):
        raise KeyError("internal_table_T001")
    dispatcher, _ = make(crash)
    result = dispatcher.dispatch(ToolCall("sales_order_get_block_summary", {"sales_order": "4711", "detail": "concise"}))
    assert result.is_error and "KeyError" in result.content and "T001" not in result.content


def test_error_shaped_results_are_flagged():
    dispatcher, _ = make(lambda args: {"error": "Sales order 4711 is not blocked."})
    assert dispatcher.dispatch(ToolCall("sales_order_get_block_summary",
                                        {"sales_order": "4711", "detail": "concise"})).is_error


def test_example_is_valid_or_absent():
    tool = make()[0].tools["sales_order_get_block_summary"]
    assert example_arguments(tool) == {"sales_order": "4711", "detail": "concise"}
    free = Tool("note_add", "d", {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}},
                lambda a: a)
    assert example_arguments(free) is None
    given_examples = Tool("x", "d", {**SCHEMA, "examples": [{"sales_order": "4725", "detail": "detailed"}]}, lambda a: a)
    assert example_arguments(given_examples) == {"sales_order": "4725", "detail": "detailed"}


def test_the_three_alternatives_reach_the_service_and_validation_does_not():
    tool = make()[0].tools["sales_order_get_block_summary"]
    rows = {r["strategy"]: r for r in compare_strategies(tool, {"sales_order": "SO-4711", "detail": "concise"})}
    assert rows["loosen the schema"]["calls reaching the service"] == 1
    assert rows["log, then dispatch anyway"]["calls reaching the service"] == 1
    assert rows["retry unchanged (3x)"]["calls reaching the service"] == 3
    assert rows["validate at dispatch"]["calls reaching the service"] == 0
    assert "400" in rows["loosen the schema"]["model reads"]
    assert "digits only" in rows["validate at dispatch"]["model reads"]
