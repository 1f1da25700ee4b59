"""Definition checks, argument validation and the strict-mode checker, each shown both ways."""
import pytest

from tooldesign.tools import Tool, tool_set
from tooldesign.tools.schema import (STRICT_RULES, argument_error, check_definition, is_strict_ready,
                                     strict_problems, validate_arguments)


def make(name="thing_get_x", parameters=None, annotations=None, description="Does a thing."):
    params = parameters if parameters is not None else {"type": "object", "properties": {}}
    return Tool(name, description, params, lambda args: {}, annotations or {})


def test_check_definition_accepts_both_course_sets():
    for set_name in ("mirror", "designed"):
        assert all(check_definition(t) == [] for t in tool_set(set_name))


@pytest.mark.parametrize("tool, fragment", [
    (make(name="get order"), "does not match"),
    (make(name="x" * 65), "does not match"),
    (make(description=""), "should be non-empty"),
    (make(parameters={"type": "array"}), "'object' was expected"),
    (make(parameters={"type": "object", "properties": {"a": {"type": "strnig"}}}), "not a valid JSON Schema"),
    (make(annotations={"readOnlyHint": "yes"}), "is not of type 'boolean'"),
    (make(annotations={"readOnly": True}), "Additional properties"),
])
def test_check_definition_reports_what_an_api_would_refuse(tool, fragment):
    problems = check_definition(tool)
    assert problems and any(fragment in p for p in problems), problems


def test_validate_arguments_both_ways():
    search = tool_set("designed")["sales_order_search"]
    assert validate_arguments(search, {"customer": "10023", "blocked_only": False, "limit": None}) == []
    problems = validate_arguments(search, {"customer": 10023, "blocked_only": "no", "limit": 5, "x": 1})
    assert len(problems) == 3
    assert any("customer" in p and "string" in p for p in problems)


def test_argument_error_says_what_was_wrong_and_what_is_expected():
    tool = tool_set("designed")["sales_order_get_block_summary"]
    assert argument_error(tool, {"sales_order": "4711", "detail": "concise"}) is None
    error = argument_error(tool, {"sales_order": "4711", "detail": "short"})["error"]
    assert '"short" is not one of' in error and "sales_order (string)" in error and "call again" in error


STRICT = {"type": "object", "additionalProperties": False, "required": ["a", "b"],
          "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}}}


@pytest.mark.parametrize("schema, rule", [
    ({"type": "array", "items": {"type": "string"}}, "strict-root"),
    ({**STRICT, "additionalProperties": True}, "strict-closed"),
    ({**STRICT, "required": ["a"]}, "strict-required"),
    ({**STRICT, "properties": {**STRICT["properties"], "b": {"type": "object"}}}, "strict-free-form"),
    ({**STRICT, "properties": {**STRICT["properties"], "a": {"type": "string", "pattern": r"(?=x)\w+"}}},
     "strict-pattern"),
    ({**STRICT, "properties": {**STRICT["properties"], "a": {"type": "string", "pattern": r"(a)\1"}}},
     "strict-pattern"),
    ({**STRICT, "properties": {**STRICT["properties"], "a": {"type": "string", "pattern": r"\bword"}}},
     "strict-pattern"),
])
def test_each_strict_rule_fires(schema, rule):
    assert rule in {p.rule for p in strict_problems(schema)}
    assert not is_strict_ready(schema)


def test_strict_ready_schema_and_harmless_pattern_pass():
    assert strict_problems(STRICT) == []
    fine = {**STRICT, "properties": {**STRICT["properties"], "a": {"type": "string", "pattern": "^[0-9]{1,10}$"}}}
    assert is_strict_ready(fine)
    assert set(STRICT_RULES) == {"strict-root", "strict-closed", "strict-required", "strict-free-form",
                                 "strict-pattern"}


def test_nested_objects_are_checked_too():
    nested = {**STRICT, "properties": {**STRICT["properties"],
                                       "b": {"type": "object", "properties": {"c": {"type": "string"}}}}}
    paths = {(p.rule, p.path) for p in strict_problems(nested)}
    assert ("strict-closed", "properties/b") in paths and ("strict-required", "properties/b") in paths


def test_mirror_fails_strict_designed_passes():
    assert not any(is_strict_ready(t.parameters) for t in tool_set("mirror"))
    assert all(is_strict_ready(t.parameters) for t in tool_set("designed"))
