"""JSON Schema checks for tools: the definition, the arguments, and strict mode.

Three questions, three functions:

* ``check_definition(tool)``: is this a definition a model API would accept? The tool's shape is
  checked against ``DEFINITION_SCHEMA`` and its parameters against the JSON Schema meta-schema,
  both with the jsonschema library.
* ``validate_arguments(tool, arguments)``: do a model's arguments fit the tool's schema? Run it at
  dispatch, the last point your code still owns the call, and send the messages back to the model.
  Every check in the course uses one validator (``ArgumentValidator``): standard JSON Schema, with
  5.0 refused where a whole number is due and ``$`` meaning the end of the text, as a model API
  reads it. ``rule_words(spec)`` turns a field's schema into the words its errors state.
* ``strict_problems(schema)``: which rules of strict mode does a schema break? Strict mode makes
  the model's arguments follow the schema, but only for closed objects with every field required.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import SchemaError, ValidationError

from tooldesign.tools.base import Tool, clip, echo

__all__ = [
    "DEFINITION_SCHEMA",
    "ANNOTATION_HINTS",
    "StrictProblem",
    "STRICT_RULES",
    "check_definition",
    "validate_arguments",
    "argument_error",
    "strict_problems",
    "is_strict_ready",
    "ArgumentValidator",
    "argument_errors",
    "rule_words",
]

NAME_PATTERN = r"^[a-zA-Z0-9_-]{1,64}$"
# MCP's four behaviour hints; a client reads them, the model never sees them.
ANNOTATION_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

DEFINITION_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tool definition as the course sends it",
    "type": "object",
    "required": ["name", "description", "parameters"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "pattern": NAME_PATTERN},
        "description": {"type": "string", "minLength": 1},
        "parameters": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
        "annotations": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                **{hint: {"type": "boolean"} for hint in ANNOTATION_HINTS},
                "title": {"type": "string"},
            },
        },
    },
}
_DEFINITION_VALIDATOR = Draft202012Validator(DEFINITION_SCHEMA)


def _where(path: Iterator[Any] | Any) -> str:
    parts = [str(p) for p in path]
    return "/".join(parts) if parts else "(top level)"


def check_definition(tool: Tool) -> list[str]:
    """Problems that would make an API refuse this definition; an empty list means it is valid."""
    document = {**tool.definition(), "annotations": dict(tool.annotations)}
    problems = [
        f"{tool.name}: {_where(e.absolute_path)}: {e.message}"
        for e in sorted(_DEFINITION_VALIDATOR.iter_errors(document), key=lambda e: list(e.path))
    ]
    try:
        Draft202012Validator.check_schema(dict(tool.parameters))
    except SchemaError as error:
        problems.append(f"{tool.name}: parameters are not a valid JSON Schema: {error.message}")
    return problems


# ---------- validating arguments the way a model API means the schema ----------


def _integer(checker: Any, value: Any) -> bool:
    """A whole number as JSON writes it: 5, never 5.0 or true.

    JSON Schema lets 5.0 count as an integer, Python code does not (``rows[:5.0]`` raises), and
    strict mode makes a model write integers as integers. Refusing 5.0 here keeps the schema and
    the handler in agreement, so a handler may rely on what validation let through.
    """
    return isinstance(value, int) and not isinstance(value, bool)


_TRAILING_DOLLAR = re.compile(r"(?<!\\)\$$")


def _ecma_pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """``pattern`` with the meaning a model API gives it (ECMA-262): ``$`` is the very end of the text.

    Python's ``$`` also matches before a final newline, so ``^[0-9]{1,10}$`` would let "4711\\n" through.
    """
    if not isinstance(instance, str):
        return
    if not re.search(_TRAILING_DOLLAR.sub(r"\\Z", pattern), instance):
        yield ValidationError(f"{echo(instance)} does not match {pattern!r}")


ArgumentValidator = validators.extend(
    Draft202012Validator,
    {"pattern": _ecma_pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _integer),
)


def argument_errors(schema: Mapping[str, Any], arguments: Any) -> list[ValidationError]:
    """Every way ``arguments`` break ``schema``, in a stable order (the course's one validator)."""
    errors = ArgumentValidator(dict(schema)).iter_errors(arguments)
    return sorted(errors, key=lambda e: ([str(p) for p in e.absolute_path], str(e.validator)))


def _short_message(error: ValidationError) -> str:
    """jsonschema's message with the offending value cut short: it starts with the value's repr."""
    message, shown = error.message, repr(error.instance)
    if message.startswith(shown):
        message = echo(error.instance) + message[len(shown) :]
    return clip(message, 2 * 80)


def validate_arguments(tool: Tool, arguments: Any) -> list[str]:
    """Every way ``arguments`` break the tool's schema, as short readable lines."""
    return [
        f"{_where(e.absolute_path)}: {_short_message(e)}" for e in argument_errors(tool.parameters, arguments)
    ]


_DIGIT_RUN = re.compile(r"^\^\[0-9\]\{(\d+),(\d+)\}\$$")
_TYPE_WORDS = {
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "object": "a JSON object",
    "array": "a list",
}


def rule_words(spec: Mapping[str, Any]) -> str:
    """What a value must be, in words, read from its schema: the rule stated once, where it is enforced.

    ``{"type": "string", "pattern": "^[0-9]{1,10}$"}`` reads "a string of 1 to 10 digits (0-9)";
    ``{"type": ["integer", "null"], "minimum": 1, "maximum": 20}`` reads "a whole number from 1 to 20, or null".
    """
    if "enum" in spec:
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in spec["enum"])
    if "const" in spec:
        return f"exactly {json.dumps(spec['const'], ensure_ascii=False)}"
    kinds = spec.get("type")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
    main = [k for k in kinds if k != "null"]
    words = " or ".join(_TYPE_WORDS.get(k, str(k)) for k in main) or "a value"
    pattern = spec.get("pattern")
    if isinstance(pattern, str):
        run = _DIGIT_RUN.match(pattern)
        if run and run.group(1) == "1":
            words += f" of digits only, at most {run.group(2)} of them"
        elif run:
            words += f" of {run.group(1)} to {run.group(2)} digits only"
        else:
            words += f" matching {pattern}"
    low, high = spec.get("minimum"), spec.get("maximum")
    if low is not None and high is not None:
        words += f" from {low} to {high}"
    elif low is not None:
        words += f" of at least {low}"
    elif high is not None:
        words += f" of at most {high}"
    if "null" in kinds:
        words += ", or null"
    return words


def _type_text(spec: Mapping[str, Any]) -> str:
    kind = spec.get("type", "any")
    return " or ".join(kind) if isinstance(kind, list) else str(kind)


def argument_error(tool: Tool, arguments: Any) -> dict | None:
    """An error result a model can act on, or None when the arguments fit the schema.

    It says what was wrong (every violation), and what is expected (each field with its type and
    description), so the model can correct the call instead of guessing.
    """
    problems = validate_arguments(tool, arguments)
    if not problems:
        return None
    props = tool.parameters.get("properties", {})
    expected = "; ".join(
        f"{name} ({_type_text(spec)}): {str(spec.get('description', 'no description')).rstrip('.')}"
        for name, spec in props.items()
    )
    return {
        "error": f"The arguments for {tool.name} do not fit its schema: {' | '.join(problems[:3])}. "
        f"Expected fields: {expected or 'none'}. Fix them and call again."
    }


# ---------- strict mode ----------


@dataclass(frozen=True)
class StrictProblem:
    rule: str  # one of STRICT_RULES
    path: str  # where in the schema, e.g. "properties/fields"
    message: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.path}: {self.message}"


STRICT_RULES: dict[str, str] = {
    "strict-root": "the top level must be an object schema, not a union or a bare type",
    "strict-closed": "every object sets additionalProperties to false",
    "strict-required": "every property is listed in required; optional values are typed with null",
    "strict-free-form": "every object lists its properties; a free-form object cannot be constrained",
    "strict-pattern": "patterns avoid backreferences, lookarounds and word boundaries, which do not compile",
}
# backreference \1 or \k<name>, lookahead (?= (?!, lookbehind (?<= (?<!, word boundary \b \B
_BAD_PATTERN = re.compile(r"\\[1-9]|\\k<|\(\?[=!]|\(\?<[=!]|\\[bB]")


def _types(schema: Mapping[str, Any]) -> set[str]:
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind} if isinstance(kind, str) else set()


def _walk(schema: Any, path: str) -> Iterator[StrictProblem]:
    if not isinstance(schema, Mapping):
        return
    here = path or "(top level)"
    if "object" in _types(schema) or "properties" in schema:
        props = schema.get("properties")
        if not props:
            yield StrictProblem(
                "strict-free-form", here, "object without properties: list the allowed fields"
            )
        if schema.get("additionalProperties") is not False:
            yield StrictProblem("strict-closed", here, "set additionalProperties to false")
        missing = [name for name in (props or {}) if name not in schema.get("required", [])]
        if missing:
            yield StrictProblem(
                "strict-required",
                here,
                f"not in required: {', '.join(missing)}; list them and use a null type for 'not given'",
            )
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and _BAD_PATTERN.search(pattern):
        yield StrictProblem(
            "strict-pattern", here, f"pattern {pattern!r} uses a construct strict mode rejects"
        )
    for name, sub in (schema.get("properties") or {}).items():
        yield from _walk(sub, f"{path}/properties/{name}".lstrip("/"))
    if isinstance(schema.get("items"), Mapping):
        yield from _walk(schema["items"], f"{path}/items".lstrip("/"))
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key) or []):
            yield from _walk(sub, f"{path}/{key}/{i}".lstrip("/"))
    for name, sub in (schema.get("$defs") or {}).items():
        yield from _walk(sub, f"{path}/$defs/{name}".lstrip("/"))


def strict_problems(schema: Mapping[str, Any]) -> list[StrictProblem]:
    """Each strict-mode rule the parameter schema breaks, with where; empty means strict-ready."""
    problems: list[StrictProblem] = []
    if _types(schema) != {"object"}:
        problems.append(StrictProblem("strict-root", "(top level)", 'use "type": "object" at the top level'))
    problems.extend(_walk(schema, ""))
    return problems


def is_strict_ready(schema: Mapping[str, Any]) -> bool:
    """True when a model API may be asked to enforce this schema with strict mode."""
    return not strict_problems(schema)
