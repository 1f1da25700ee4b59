"""JSON Schema checks for tools: the definition, the arguments, and strict mode.

Three questions, three functions:

* ``check_definition(tool)``: is this a definition a model API would accept? The tool's shape is
  checked against ``DEFINITION_SCHEMA`` and its parameters against the JSON Schema meta-schema,
  both with the jsonschema library.
* ``validate_arguments(tool, arguments)``: do a model's arguments fit the tool's schema? Run it at
  dispatch, the last point your code still owns the call, and send the messages back to the model.
* ``strict_problems(schema)``: which rules of strict mode does a schema break? Strict mode makes
  the model's arguments follow the schema, but only for closed objects with every field required.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from tooldesign.tools.base import Tool

__all__ = ["DEFINITION_SCHEMA", "ANNOTATION_HINTS", "StrictProblem", "STRICT_RULES", "check_definition",
           "validate_arguments", "argument_error", "strict_problems", "is_strict_ready"]

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
        "annotations": {"type": "object", "additionalProperties": False,
                        "properties": {**{hint: {"type": "boolean"} for hint in ANNOTATION_HINTS},
                                       "title": {"type": "string"}}},
    },
}
_DEFINITION_VALIDATOR = Draft202012Validator(DEFINITION_SCHEMA)


def _where(path: Iterator[Any] | Any) -> str:
    parts = [str(p) for p in path]
    return "/".join(parts) if parts else "(top level)"


def check_definition(tool: Tool) -> list[str]:
    """Problems that would make an API refuse this definition; an empty list means it is valid."""
    document = {**tool.definition(), "annotations": dict(tool.annotations)}
    problems = [f"{tool.name}: {_where(e.absolute_path)}: {e.message}"
                for e in sorted(_DEFINITION_VALIDATOR.iter_errors(document), key=lambda e: list(e.path))]
    try:
        Draft202012Validator.check_schema(dict(tool.parameters))
    except SchemaError as error:
        problems.append(f"{tool.name}: parameters are not a valid JSON Schema: {error.message}")
    return problems


def validate_arguments(tool: Tool, arguments: Any) -> list[str]:
    """Every way ``arguments`` break the tool's schema, as short readable lines."""
    validator = Draft202012Validator(dict(tool.parameters))
    return [f"{_where(e.absolute_path)}: {e.message}"
            for e in sorted(validator.iter_errors(arguments), key=lambda e: [str(p) for p in e.path])]


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
    expected = "; ".join(f"{name} ({_type_text(spec)}): {str(spec.get('description', 'no description')).rstrip('.')}"
                         for name, spec in props.items())
    return {"error": f"The arguments for {tool.name} do not fit its schema: {' | '.join(problems[:3])}. "
                     f"Expected fields: {expected or 'none'}. Fix them and call again."}


# ---------- strict mode ----------

@dataclass(frozen=True)
class StrictProblem:
    rule: str      # one of STRICT_RULES
    path: str      # where in the schema, e.g. "properties/fields"
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
            yield StrictProblem("strict-free-form", here, "object without properties: list the allowed fields")
        if schema.get("additionalProperties") is not False:
            yield StrictProblem("strict-closed", here, "set additionalProperties to false")
        missing = [name for name in (props or {}) if name not in schema.get("required", [])]
        if missing:
            yield StrictProblem("strict-required", here, f"not in required: {', '.join(missing)}; list them and "
                                                         "use a null type for 'not given'")
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and _BAD_PATTERN.search(pattern):
        yield StrictProblem("strict-pattern", here, f"pattern {pattern!r} uses a construct strict mode rejects")
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
        problems.append(StrictProblem("strict-root", "(top level)", "use \"type\": \"object\" at the top level"))
    problems.extend(_walk(schema, ""))
    return problems


def is_strict_ready(schema: Mapping[str, Any]) -> bool:
    """True when a model API may be asked to enforce this schema with strict mode."""
    return not strict_problems(schema)
