"""Check every proposed call against its schema before anything runs.

The dispatcher stands between a model that may propose nonsense and systems that cannot undo a
change. It is the last point where the proposal is still yours, so the arguments are validated there,
with jsonschema, and a failure goes back as a result the model can act on: ``is_error``, what was
wrong, what is expected and an example. A failed validation is an ordinary path, not an
exception that ends the run.

The module also keeps three tempting alternatives (loosen the schema, log and dispatch anyway,
retry the same call unchanged) so a lesson can run them side by side with the real thing.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from tooldesign.dispatch.calls import ToolCall, ToolResult
from tooldesign.dispatch.errors import ToolFailure, actionable_message, error_result
from tooldesign.dispatch.gate import (ApprovalCallback, ApprovalRequired, AuditLog, Decision,
                                      require_decision)
from tooldesign.dispatch.serialisation import ArgumentsNotParsed, parse_arguments
from tooldesign.tools.base import Tool, ToolSet


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a proposed call, in words the model can act on."""
    field: str
    wrong: str
    expected: str

    def sentence(self) -> str:
        return f"{self.field}: {self.wrong}; expected {self.expected}"


def _property_schema(schema: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return schema.get("properties", {}).get(name, {})


def _expected(spec: Mapping[str, Any]) -> str:
    """What a field should hold, from its schema: enum, type and the format its description states."""
    if "enum" in spec:
        return "one of " + ", ".join(json.dumps(v) for v in spec["enum"])
    kind = spec.get("type", "a value")
    kind = " or ".join(kind) if isinstance(kind, list) else kind
    words = spec.get("description", "")
    return f"{kind} ({words.rstrip('.')})" if words else str(kind)


def describe(error: ValidationError, schema: Mapping[str, Any]) -> Problem:
    """Translate one jsonschema error into a Problem; the raw message names schema internals."""
    path = ".".join(str(p) for p in error.absolute_path) or "(arguments)"
    sent = json.dumps(error.instance, ensure_ascii=False)
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)[0]
        return Problem(missing, "missing", _expected(_property_schema(schema, missing)))
    if error.validator == "additionalProperties":
        allowed = ", ".join(schema.get("properties", {})) or "no fields"
        extra = sorted(set(error.instance) - set(schema.get("properties", {})))
        return Problem(", ".join(extra), "not a field of this tool", f"only {allowed}")
    spec = error.schema if isinstance(error.schema, Mapping) else {}
    top = _property_schema(schema, str(error.absolute_path[0])) if error.absolute_path else spec
    return Problem(path, f"you sent {sent} ({error.message})" if error.validator not in ("type", "enum", "pattern")
                   else f"you sent {sent}", _expected(top if top else spec))


def problems(tool: Tool, arguments: Any) -> list[Problem]:
    """Every schema problem of ``arguments`` for ``tool``, in a stable order. Empty means valid."""
    if not isinstance(arguments, Mapping):
        return [Problem("(arguments)", f"you sent {json.dumps(arguments)}", "a JSON object")]
    schema = dict(tool.parameters)
    validator = Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(dict(arguments)), key=lambda e: (list(e.absolute_path), e.validator))
    return [describe(e, schema) for e in errors]


def is_valid(tool: Tool, arguments: Any) -> bool:
    return not problems(tool, arguments)


_EXAMPLE_IN_WORDS = re.compile(r"for example\s+['\"]([^'\"]+)['\"]", re.IGNORECASE)


def example_arguments(tool: Tool) -> dict | None:
    """A valid example call to show next to an error, or None when none can be made honestly.

    The schema's own ``examples`` come first (the course keeps input examples there). Otherwise
    one is assembled from enums, ``for example '...'`` in descriptions and plain type defaults,
    and kept only if it passes the schema: a wrong example is worse than none.
    """
    schema = dict(tool.parameters)
    for candidate in schema.get("examples", []):
        if is_valid(tool, candidate):
            return dict(candidate)
    example: dict[str, Any] = {}
    for name in schema.get("required", []):
        spec = _property_schema(schema, name)
        kinds = spec.get("type", "string")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        found = _EXAMPLE_IN_WORDS.search(spec.get("description", ""))
        if spec.get("examples"):
            example[name] = spec["examples"][0]
        elif "enum" in spec:
            example[name] = spec["enum"][0]
        elif found and "string" in kinds:
            example[name] = found.group(1)
        elif "null" in kinds:
            example[name] = None
        elif "boolean" in kinds:
            example[name] = False
        elif "integer" in kinds or "number" in kinds:
            example[name] = spec.get("minimum", 1)
        else:
            return None  # a free string with no stated example: inventing one would mislead
    return example if is_valid(tool, example) else None


def invalid_call_result(call: ToolCall, tool: Tool, found: list[Problem],
                        example: Mapping[str, Any] | None = None) -> ToolResult:
    """The error for a call that failed its schema: each problem, and a valid example."""
    what = f"{tool.name} was not run: " + "; ".join(p.field + " " + p.wrong for p in found)
    expected = "; ".join(f"{p.field}: {p.expected}" for p in found)
    if example is None or not is_valid(tool, example):
        example = example_arguments(tool)
    return error_result(call.id, what, expected=expected, example=example,
                        instead="Correct the arguments and call again")


# ---------- the dispatcher ----------

Clock = Callable[[], float]


@dataclass
class Dispatcher:
    """Runs proposed calls: parse, validate, ask the gate for writes, run, and record everything.

    ``approve`` is the default approval callback; ``dispatch`` may be given another one for a single
    call (a click in the approval panel is such a callback). With no callback at all, writes are
    refused: a write cannot run without a decision. ``examples`` maps tool names to a valid call
    quoted in errors (for instance the designed set's ``EXAMPLES``).
    """
    tools: ToolSet
    approve: ApprovalCallback | None = None
    examples: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    audit: AuditLog = field(default_factory=AuditLog)
    clock: Clock | None = None
    handler_calls: list[ToolCall] = field(default_factory=list)

    def dispatch(self, call: ToolCall | Mapping[str, Any], approve: ApprovalCallback | None = None) -> ToolResult:
        call = _as_call(call)
        try:
            arguments = parse_arguments(call.arguments)
        except ArgumentsNotParsed as err:
            return self._refuse(call, None, {}, "arguments not parsed", error_result(
                call.id, str(err), expected="a JSON object of arguments", example={"sales_order": "4711"}))
        if call.name not in self.tools.names:
            return self._refuse(call, None, arguments, "unknown tool", error_result(
                call.id, f"There is no tool named {call.name!r}", expected="one of " + ", ".join(self.tools.names)))
        tool = self.tools[call.name]
        found = problems(tool, arguments)
        if found:
            return self._refuse(call, tool, arguments, "rejected by schema", invalid_call_result(
                call, tool, found, self.examples.get(tool.name)))
        decision: Decision | None = None
        if tool.writes:
            decision, refusal = self._decide(call, tool, arguments, approve or self.approve)
            if refusal is not None:
                return refusal
        final = dict(decision.updated_input) if decision and decision.updated_input is not None else arguments
        result = self._execute(call, tool, final, decision)
        self._record(call, tool, arguments, decision.label if decision else "read-only: no decision needed",
                     final, decision.message if decision else "", result)
        return result

    def _decide(self, call: ToolCall, tool: Tool, arguments: dict,
                approve: ApprovalCallback | None) -> tuple[Decision | None, ToolResult | None]:
        """Ask the callback; return the decision, or a refusal result when the write must not run."""
        if approve is None:
            return None, self._refuse(call, tool, arguments, "no decision", error_result(
                call.id, f"{tool.name} changes data and needs a person's decision, and none was given; "
                "it was not run", instead="Tell the user the request is waiting for approval"))
        decision = approve(ToolCall(call.name, arguments, call.id), tool)
        if not isinstance(decision, Decision):
            return None, self._refuse(call, tool, arguments, "no decision", error_result(
                call.id, f"The approval step for {tool.name} gave no decision; it was not run",
                instead="Tell the user the request is waiting for approval"))
        if not decision.allowed:
            return decision, self._refuse(call, tool, arguments, decision.label, ToolResult(
                call.id, f"A person denied {tool.name}; it was not run. Their message: {decision.message}",
                is_error=True), decision.message)
        if decision.updated_input is not None:
            found = problems(tool, decision.updated_input)
            if found:
                return decision, self._refuse(call, tool, arguments, "allow (modified) but invalid", error_result(
                    call.id, f"The approver's edited input for {tool.name} failed its schema, so it was not run: "
                    + "; ".join(p.sentence() for p in found), instead="Ask the user to review the request"))
        return decision, None

    def _execute(self, call: ToolCall, tool: Tool, arguments: dict, decision: Decision | None) -> ToolResult:
        """The only place a handler runs, and it checks the decision itself."""
        require_decision(tool, decision)
        self.handler_calls.append(ToolCall(call.name, arguments, call.id))
        try:
            value = tool.run(dict(arguments))
        except ToolFailure as failure:
            return ToolResult(call.id, failure.message(), is_error=True, ran=True)
        except ApprovalRequired:
            raise
        except Exception as exc:  # a traceback is opaque to the model and may leak internals
            return error_result(call.id, f"{tool.name} failed unexpectedly ({type(exc).__name__})",
                                instead="Try once more; if it fails again, tell the user the tool is unavailable",
                                ran=True)
        return ToolResult(call.id, value, is_error=_reports_error(value), ran=True)

    def _refuse(self, call: ToolCall, tool: Tool | None, arguments: Mapping[str, Any], label: str,
                result: ToolResult, message: str = "") -> ToolResult:
        self._record(call, tool, arguments, label, None, message, result)
        return result

    def _record(self, call: ToolCall, tool: Tool | None, proposed: Mapping[str, Any], label: str,
                final: Mapping[str, Any] | None, message: str, result: ToolResult) -> None:
        self.audit.add(call_id=call.id, tool=call.name, writes=bool(tool and tool.writes), proposed=dict(proposed),
                       decision=label, final=dict(final) if final is not None else None, message=message,
                       ran=result.ran, is_error=result.is_error, at=self.clock() if self.clock else None)


def _as_call(call: ToolCall | Mapping[str, Any]) -> ToolCall:
    """Accept a ToolCall or a tool_use-shaped dict (``input`` or ``arguments``)."""
    if isinstance(call, ToolCall):
        return call
    args = call.get("input", call.get("arguments", {}))
    return ToolCall(str(call.get("name", "")), args, str(call.get("id", "call_1")))


def _reports_error(value: Any) -> bool:
    """Handlers in the course report a business failure as ``{"error": "..."}`` or ``is_error``."""
    if isinstance(value, ToolResult):
        return value.is_error
    return isinstance(value, Mapping) and (value.get("is_error") is True or set(value) == {"error"})


# ---------- three tempting alternatives, for comparison ----------

@dataclass
class Backend:
    """A stand-in for the remote service behind a tool: it counts what reaches it.

    Like many real services, it answers bad input with a bare status, which is the point: once
    your dispatcher stops checking, this is the first and only validator left.
    """
    tool: Tool
    received: list[dict] = field(default_factory=list)

    def __call__(self, arguments: Mapping[str, Any]) -> Any:
        self.received.append(dict(arguments))
        if not is_valid(self.tool, arguments):
            return {"error": "400 Bad Request"}
        return self.tool.run(dict(arguments))


def loosened(tool: Tool) -> Tool:
    """The tool with a schema that accepts anything: nothing fails here any more."""
    loose = {"type": "object", "properties": {k: {} for k in tool.parameters.get("properties", {})}}
    return Tool(tool.name, tool.description, loose, tool.handler, tool.annotations)


def compare_strategies(tool: Tool, arguments: Mapping[str, Any], retries: int = 3) -> list[dict]:
    """Run one bad call four ways and report what reached the backend and what the model reads."""
    call = ToolCall(tool.name, dict(arguments), "call_bad")
    rows = []

    backend = Backend(tool)
    loose = Tool(tool.name, tool.description, loosened(tool).parameters, backend, {"readOnlyHint": True})
    result = Dispatcher(ToolSet("loose", (loose,))).dispatch(call)
    rows.append(_row("loosen the schema", backend, result, "the remote service is the first validator"))

    backend, log = Backend(tool), []
    if not is_valid(tool, arguments):
        log.append(f"WARNING invalid arguments for {tool.name}: {dict(arguments)}")
    result = ToolResult(call.id, backend(arguments), is_error=True, ran=True)
    rows.append(_row("log, then dispatch anyway", backend, result,
                     f"the fault was caught ({len(log)} log line) and forwarded regardless"))

    backend = Backend(tool)
    for _ in range(retries):
        result = ToolResult(call.id, backend(arguments), is_error=True, ran=True)
    rows.append(_row(f"retry unchanged ({retries}x)", backend, result,
                     "the same input fails the same way; nothing new was learned"))

    backend = Backend(tool)
    checked = Tool(tool.name, tool.description, tool.parameters, backend, {"readOnlyHint": True})
    result = Dispatcher(ToolSet("checked", (checked,))).dispatch(call)
    rows.append(_row("validate at dispatch", backend, result, "nothing reached the service; the model can fix it"))
    return rows


def _row(strategy: str, backend: Backend, result: ToolResult, note: str) -> dict:
    text = result.block()["content"]
    return {"strategy": strategy, "calls reaching the service": len(backend.received),
            "model reads": text if len(text) <= 160 else text[:157] + "...", "note": note}


__all__ = ["Backend", "Dispatcher", "Problem", "actionable_message", "compare_strategies", "describe",
           "example_arguments", "invalid_call_result", "is_valid", "loosened", "problems"]
