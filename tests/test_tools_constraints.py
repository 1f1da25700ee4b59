"""Each value's rule lives in the designed schema once; validation and handler agree on every value."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tooldesign.dispatch import Dispatcher, ToolCall, allow_all
from tooldesign.tools import tool_set
from tooldesign.tools.designed import EXAMPLES, ID_RULE, MAX_JUSTIFICATION_CHARS, SEARCH_MAX_LIMIT
from tooldesign.tools.schema import is_strict_ready, rule_words, validate_arguments

SEARCH = {"customer": "10023", "blocked_only": False, "limit": None}
SUMMARY = {"sales_order": "4711", "detail": "concise"}

# Values a handler used to be the only one to refuse: each must now fail the schema itself.
SCHEMA_REFUSES = [
    ("sales_order_get_block_summary", {**SUMMARY, "sales_order": "SO-4711"}),
    ("sales_order_get_block_summary", {**SUMMARY, "sales_order": ""}),
    ("sales_order_get_block_summary", {**SUMMARY, "sales_order": "99999999999"}),
    ("sales_order_get_block_summary", {**SUMMARY, "sales_order": "4711\n"}),
    ("sales_order_get_block_summary", {**SUMMARY, "sales_order": " 4711"}),
    ("sales_order_get_block_summary", {**SUMMARY, "sales_order": "٤٧١١"}),
    ("customer_get_credit_exposure", {"customer": "10023", "sales_order": "SO-4711"}),
    ("customer_get_address_gaps", {"customer": "C10051"}),
    ("sales_order_search", {**SEARCH, "customer": ""}),
    ("sales_order_search", {**SEARCH, "limit": 5.0}),
    ("sales_order_search", {**SEARCH, "limit": 10 ** 30}),
    ("sales_order_search", {**SEARCH, "limit": 0}),
    ("sales_order_search", {**SEARCH, "limit": SEARCH_MAX_LIMIT + 1}),
    ("sales_order_search", {**SEARCH, "limit": True}),
    ("release_request_create", {"sales_order": "SO-4711", "justification": EXAMPLES["release_request_create"]
                                ["justification"]}),
]


@pytest.mark.parametrize("tool, args", SCHEMA_REFUSES)
def test_the_schema_refuses_what_the_handler_refuses(tool, args):
    designed = tool_set("designed")
    assert validate_arguments(designed[tool], args), f"{args} passes the schema"
    assert "error" in designed[tool].run(args)
    result = Dispatcher(designed, approve=allow_all).dispatch(ToolCall(tool, args))
    assert result.is_error and not result.ran


def test_constraints_are_in_the_schema_the_model_reads():
    designed = tool_set("designed")
    for tool in designed:
        props = tool.parameters["properties"]
        for name in ("sales_order", "customer"):
            if name in props:
                assert props[name]["pattern"] == ID_RULE["pattern"], (tool.name, name)
        assert is_strict_ready(tool.parameters)
    limit = designed["sales_order_search"].parameters["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"], limit["type"]) == (1, SEARCH_MAX_LIMIT, ["integer", "null"])


def test_plain_json_schema_agrees_on_everything_but_the_python_spellings():
    """A model API validates with standard JSON Schema: only 5.0 and a trailing newline differ."""
    designed = tool_set("designed")
    for tool, args in SCHEMA_REFUSES:
        standard = Draft202012Validator(designed[tool].parameters).is_valid(args)
        assert standard == (args.get("limit") == 5.0 or args.get("sales_order") == "4711\n"), (tool, args)


def test_the_error_for_eleven_digits_states_the_real_rule():
    designed = tool_set("designed")
    error = designed["sales_order_get_block_summary"].run({**SUMMARY, "sales_order": "99999999999"})["error"]
    assert "at most 10" in error and '"99999999999"' in error
    dispatched = Dispatcher(designed).dispatch(ToolCall("sales_order_get_block_summary",
                                                         {**SUMMARY, "sales_order": "99999999999"}))
    assert "at most 10" in dispatched.content


def test_ten_digits_are_a_valid_number_that_simply_does_not_exist():
    error = tool_set("designed")["sales_order_get_block_summary"].run({**SUMMARY, "sales_order": "9999999999"})
    assert "does not exist or you may not see it" in error["error"]


@pytest.mark.parametrize("spec, words", [
    ({"type": "string", "pattern": "^[0-9]{1,10}$"}, "a string of digits only, at most 10 of them"),
    ({"type": ["integer", "null"], "minimum": 1, "maximum": 20}, "a whole number from 1 to 20, or null"),
    ({"type": "boolean"}, "true or false"),
    ({"enum": ["concise", "detailed"], "type": "string"}, 'one of "concise", "detailed"'),
])
def test_rule_words_read_the_schema(spec, words):
    assert rule_words(spec) == words


def test_the_limit_error_says_what_to_send():
    error = tool_set("designed")["sales_order_search"].run({**SEARCH, "limit": 5.0})["error"]
    assert "whole number from 1 to 20" in error and "5.0" in error and "null" in error


def test_a_huge_justification_is_neither_stored_nor_returned():
    tool = tool_set("designed")["release_request_create"]
    huge = "The exposure is 52,500 EUR against a limit of 50,000 EUR. " * 20_000
    result = tool.run({"sales_order": "4711", "justification": huge})
    assert "error" in result and len(result["error"]) < 300 and f"{MAX_JUSTIFICATION_CHARS:,}" in result["error"]
    fits = tool.run({"sales_order": "4711", "justification": huge[:MAX_JUSTIFICATION_CHARS]})
    assert fits["status"] == "waiting_for_approval" and len(fits["justification"]) <= MAX_JUSTIFICATION_CHARS
