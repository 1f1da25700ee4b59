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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jsonschema.exceptions import ValidationError

from tooldesign.dispatch.approval import NO_DECIDER, NO_PERSON, WriteNotice, WriteState, refused
from tooldesign.dispatch.calls import ToolCall, ToolResult
from tooldesign.dispatch.errors import ToolFailure, actionable_message, error_result
from tooldesign.dispatch.gate import (
    ApprovalCallback,
    ApprovalRequired,
    AuditLog,
    Decider,
    Decision,
    _frozen,
    definition_version,
    require_decision,
    who_decides,
)
from tooldesign.dispatch.serialisation import ArgumentsNotParsed, parse_arguments, plain_copy
from tooldesign.tools.base import NotJSON, Tool, ToolSet, clip, echo, json_plain
from tooldesign.tools.schema import argument_errors, rule_words
from tooldesign.wording import count


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a proposed call, in words the model can act on."""

    field: str
    wrong: str
    expected: str

    def sentence(self) -> str:
        return f"{self.field}: {self.wrong}; expected {self.expected}"


def _property_schema(schema: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    properties = schema.get("properties", {})
    spec = properties.get(name, {}) if isinstance(properties, Mapping) else {}
    return spec if isinstance(spec, Mapping) else {}


def _expected(spec: Mapping[str, Any]) -> str:
    """What a field should hold: the rule its schema enforces, then the words its description adds."""
    rule = rule_words(spec)
    words = spec.get("description", "")
    return f"{rule} ({words.rstrip('.')})" if isinstance(words, str) and words else rule


# A call can break many rules at once; the first few tell the model what to fix.
MAX_PROBLEMS = 5


def describe(error: ValidationError, schema: Mapping[str, Any]) -> Problem:
    """Translate one jsonschema error into a Problem; the raw message names schema internals."""
    path = clip(".".join(str(p) for p in error.absolute_path)) or "(arguments)"
    sent = echo(error.instance)
    if error.validator == "required":
        found = re.findall(r"'([^']+)' is a required property", error.message)
        missing = found[0] if found else clip(error.message)
        return Problem(missing, "missing", _expected(_property_schema(schema, missing)))
    if error.validator == "additionalProperties":
        allowed = ", ".join(schema.get("properties", {})) or "no fields"
        extra = sorted(str(k) for k in set(error.instance) - set(schema.get("properties", {})))
        return Problem(clip(", ".join(extra)), "not a field of this tool", f"only {allowed}")
    spec = error.schema if isinstance(error.schema, Mapping) else {}
    top = _property_schema(schema, str(error.absolute_path[0])) if error.absolute_path else spec
    if error.validator == "type":  # 4711 and "4711" echo alike: the kind sent is the mistake, so say it
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        sent = f"{sent} ({json_kind(error.instance)}, not {' or '.join(_KIND_WORDS.get(str(k), str(k)) for k in wanted)})"
    return Problem(path, f"you sent {sent}", _expected(top if top else spec))


_KIND_WORDS = {
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "array": "a list",
    "object": "an object",
}


def json_kind(value: Any) -> str:
    """What kind of JSON value ``value`` is, in words: "a number", "a string", "true or false"..."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    for kind, words in ((str, "a string"), (type(None), "null"), (list, "a list"), (Mapping, "an object")):
        if isinstance(value, kind):
            return words
    return f"a {type(value).__name__}"


def problems(tool: Tool, arguments: Any) -> list[Problem]:
    """Every schema problem of ``arguments`` for ``tool``, in a stable order. Empty means valid."""
    if not isinstance(arguments, Mapping):
        return [Problem("(arguments)", f"you sent {echo(arguments)}", "a JSON object")]
    schema = dict(tool.parameters)
    return [describe(e, schema) for e in argument_errors(schema, dict(arguments))]


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


def schema_refusal(
    call: ToolCall, tool: Tool, arguments: Any, example: Mapping[str, Any] | None = None
) -> ToolResult | None:
    """The one answer to arguments that break ``tool``'s schema, or None when they fit.

    Every door a call comes through asks this (the dispatcher, the MCP server), so one input gets
    one rule and one message, whichever door it came through.
    """
    found = problems(tool, arguments)
    return invalid_call_result(call, tool, found, example) if found else None


def invalid_call_result(
    call: ToolCall, tool: Tool, found: list[Problem], example: Mapping[str, Any] | None = None
) -> ToolResult:
    """The error for a call that failed its schema: each problem, and a valid example."""
    shown, more = found[:MAX_PROBLEMS], len(found) - MAX_PROBLEMS
    what = f"{tool.name} was not run: " + "; ".join(p.field + " " + p.wrong for p in shown)
    if more > 0:
        what += f"; and {count(more, 'more problem')}"
    expected = "; ".join(f"{p.field}: {p.expected}" for p in shown)
    if example is None or not is_valid(tool, example):
        example = example_arguments(tool)
    return error_result(
        call.id, what, expected=expected, example=example, instead="Correct the arguments and call again"
    )


# ---------- the dispatcher ----------

Clock = Callable[[], float]


@dataclass
class Dispatcher:
    """Runs proposed calls: parse, validate, ask the gate for writes, run, and record everything.

    A write is decided by up to two deciders, kept apart by name: ``policy_check`` is code (a rule
    applied the same way every time) and ``person_decides`` is a person (a click in the approval
    panel is such a callback). The policy check, if any, is asked first; then the person, if one is
    set up or if the tool needs one (``gate.who_decides``). A write nobody is set up to decide is
    refused, and the model is told that nothing ran and nothing was queued. ``dispatch`` may be
    given either decider for a single call. ``approve`` is the older name of ``policy_check``: a
    callable is code, so that is what it is. ``examples`` maps tool names to a valid call quoted in
    errors (for instance the designed set's ``EXAMPLES``).

    Whatever arrives (a dict, a list, None, a string, nested junk), ``dispatch`` answers with a
    result and never raises. Each stage works on its own deep copy, so neither the caller, a
    decider nor the handler can change what was validated or what the audit shows.
    """

    tools: ToolSet
    policy_check: ApprovalCallback | None = None
    person_decides: ApprovalCallback | None = None
    examples: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    audit: AuditLog = field(default_factory=AuditLog)
    clock: Clock | None = None
    handler_calls: list[ToolCall] = field(default_factory=list)
    approve: ApprovalCallback | None = None

    def __post_init__(self) -> None:
        if self.approve is not None and self.policy_check is None:
            self.policy_check = self.approve

    def dispatch(
        self,
        call: Any,
        approve: ApprovalCallback | None = None,
        *,
        policy_check: ApprovalCallback | None = None,
        person_decides: ApprovalCallback | None = None,
    ) -> ToolResult:
        call, malformed = _as_call(call)
        if malformed:
            shape = 'a JSON object with "name" (a string) and "input" (an object)'
            sample_call = {"name": self.tools.names[0] if self.tools.names else "tool_name", "input": {}}
            error = error_result(call.id, malformed, expected=shape, example=sample_call)
            return self._refuse(call, None, call.arguments, "malformed call", error)
        try:
            proposed = parse_arguments(call.arguments)
        except ArgumentsNotParsed as err:
            example = self.examples.get(call.name) or {"sales_order": "4711"}
            error = error_result(call.id, str(err), expected="a JSON object of arguments", example=example)
            return self._refuse(call, None, call.arguments, "arguments not parsed", error)
        if call.name not in self.tools.names:
            expected = "one of " + ", ".join(self.tools.names)
            error = error_result(call.id, f"There is no tool named {echo(call.name)}", expected=expected)
            return self._refuse(call, None, proposed, "unknown tool", error)
        tool = self.tools[call.name]
        refused = schema_refusal(call, tool, proposed, self.examples.get(tool.name))
        if refused is not None:
            return self._refuse(call, tool, proposed, "rejected by schema", refused)
        if not tool.writes:
            result = self._execute(call, tool, proposed, None)
            self._record(call, tool, proposed, "read-only: no decision needed", proposed, "", result)
            return result
        policy = policy_check or approve or self.policy_check
        return self._write(call, tool, proposed, policy, person_decides or self.person_decides)

    def _write(
        self,
        call: ToolCall,
        tool: Tool,
        proposed: dict,
        policy: ApprovalCallback | None,
        person: ApprovalCallback | None,
    ) -> ToolResult:
        """A valid proposed write: the policy check, then the person, then the handler, or a refusal."""
        deciders = [(by, ask) for by, ask in ((Decider.POLICY, policy), (Decider.PERSON, person)) if ask]
        missing = _nobody_to_decide(tool, person is not None, bool(deciders))
        if missing:
            notice = WriteNotice(WriteState.NO_DECIDER, tool.name, missing)
            return self._refuse(
                call, tool, proposed, "no decider", ToolResult(call.id, notice.text, is_error=True)
            )
        decision: Decision | None = None
        final, label = proposed, ""
        asked: list[str] = []
        notes: list[str] = []
        for by, ask in deciders:
            asked.append(by.value)
            decision, final, label, refusal = self._decide(call, tool, proposed, final, by, ask, asked, notes)
            if refusal is not None:
                return refusal
        result = self._execute(call, tool, final, decision)
        self._record(call, tool, proposed, label, final, "; ".join(notes), result, ", ".join(asked))
        return result

    def _decide(
        self,
        call: ToolCall,
        tool: Tool,
        proposed: dict,
        current: dict,
        by: Decider,
        ask: ApprovalCallback,
        asked: list[str],
        notes: list[str],
    ) -> tuple[Decision | None, dict, str, ToolResult | None]:
        """Ask one decider about ``current``; return its decision, what will run, its label, or a refusal.

        The decider sees a copy. Whatever it decides (allow, allow with new input, or allow after
        editing its copy in place), what will run is validated again before it runs. The model is
        told who answered: a policy check is never reported as a person.
        """
        who = "the policy check" if by is Decider.POLICY else "the person asked"

        def notice(state: WriteState, reason: str = "") -> ToolResult:
            return ToolResult(call.id, WriteNotice(state, tool.name, reason, who).text, is_error=True)

        def refuse(label: str, result: ToolResult, message: str = "", final: Any = None):
            kept = "; ".join(m for m in [*notes, message] if m)
            record = self._refuse(call, tool, proposed, label, result, kept, final, ", ".join(asked))
            return (decision, current, label, record)

        decision = None
        shown = ToolCall(call.name, plain_copy(current), call.id)
        try:
            decision = ask(shown, tool)
        except Exception as exc:  # a decider that crashes has not decided anything
            decision = None
            return refuse(
                "no decision", notice(WriteState.DECIDER_FAILED, f"it failed with {type(exc).__name__}")
            )
        except BaseException as stop:
            # Ctrl-C, sys.exit() or a cancelled task is a person stopping the program, not a decision:
            # it goes on up, but only after the audit shows the proposal and that nothing ran.
            decision = None
            refuse(
                f"no decision (interrupted by {type(stop).__name__})",
                notice(WriteState.DECIDER_FAILED, "it was interrupted"),
            )
            raise
        decision = _settled(decision, by)
        if decision is None:
            return refuse("no decision", notice(WriteState.DECIDER_FAILED))
        message = clip(decision.message, MAX_MESSAGE)
        if not decision.allowed:
            said = refused(tool.name, message, by_person=by is Decider.PERSON).text
            return refuse(decision.label, ToolResult(call.id, said, is_error=True), message)
        if message:
            notes.append(message)
        if decision.updated_input is not None:
            candidate, label = decision.updated_input, decision.label
        elif _frozen(shown.arguments) != _frozen(current):
            candidate, label = shown.arguments, "allow (edited in place)"
        else:
            return decision, current, decision.label, None
        try:
            final = parse_arguments(candidate)
        except ArgumentsNotParsed as err:
            return refuse(
                label + " but invalid", notice(WriteState.EDIT_INVALID, str(err)), message, candidate
            )
        found = problems(tool, final)
        if found:
            why = "it failed the schema: " + "; ".join(p.sentence() for p in found[:MAX_PROBLEMS])
            return refuse(label + " but invalid", notice(WriteState.EDIT_INVALID, why), message, final)
        return decision, final, label, None

    def _execute(self, call: ToolCall, tool: Tool, arguments: dict, decision: Decision | None) -> ToolResult:
        """The only place a handler runs, and it checks the decision itself."""
        require_decision(tool, decision)
        self.handler_calls.append(ToolCall(call.name, plain_copy(arguments), call.id))
        try:
            value = tool.run(plain_copy(arguments))
        except ToolFailure as failure:
            return ToolResult(call.id, failure.message(), is_error=True, ran=True)
        except ApprovalRequired:
            raise
        except Exception as exc:  # a traceback is opaque to the model and may leak internals
            return error_result(
                call.id,
                f"{tool.name} failed unexpectedly ({type(exc).__name__})",
                instead="Try once more; if it fails again, tell the user the tool is unavailable",
                ran=True,
            )
        if not isinstance(value, (str, ToolResult)):
            try:
                json.dumps(value, ensure_ascii=False)
            except (TypeError, ValueError, RecursionError):  # the model can only ever read JSON
                return error_result(
                    call.id,
                    f"{tool.name} returned a {type(value).__name__}, which JSON cannot carry",
                    instead="Tell the user the tool is unavailable",
                    ran=True,
                )
        return ToolResult(call.id, value, is_error=_reports_error(value), ran=True)

    def _refuse(
        self,
        call: ToolCall,
        tool: Tool | None,
        arguments: Any,
        label: str,
        result: ToolResult,
        message: str = "",
        final: Any = None,
        decided_by: str = "",
    ) -> ToolResult:
        self._record(call, tool, arguments, label, final, message, result, decided_by)
        return result

    def _record(
        self,
        call: ToolCall,
        tool: Tool | None,
        proposed: Any,
        label: str,
        final: Any,
        message: str,
        result: ToolResult,
        decided_by: str = "",
    ) -> None:
        self.audit.add(
            call_id=call.id,
            tool=call.name,
            writes=bool(tool and tool.writes),
            proposed=proposed,
            decision=label,
            final=final,
            message=message,
            ran=result.ran,
            is_error=result.is_error,
            at=self.clock() if self.clock else None,
            decided_by=decided_by,
            definition=_version(tool),
            result_chars=len(result.block()["content"]),
        )


# What a person writes when denying goes back to the model; a screenful is plenty.
MAX_MESSAGE = 1000
MAX_ID = 128


def _as_call(call: Any) -> tuple[ToolCall, str]:
    """A ToolCall and "" for a usable proposal, or a placeholder call and what is wrong with it.

    Accepts a ToolCall, a tool_use-shaped dict (``input`` or ``arguments``), an OpenAI-shaped one
    (``{"function": {"name", "arguments"}}``) or a client library's reply object that turns itself
    into such a dict (``model_dump``). A proposal is untrusted input, so every field is checked
    before it is used, and a proposal that fails while being read is malformed, not a crash.
    """
    try:
        return _read_call(call)
    except Exception as error:  # a mapping whose own methods raise, an attribute that explodes
        return ToolCall("", None, "call_1"), (
            f"The proposed call could not be read ({type(error).__name__}); send a JSON object"
        )


def _read_call(call: Any) -> tuple[ToolCall, str]:
    if not isinstance(call, (ToolCall, Mapping)) and callable(getattr(type(call), "model_dump", None)):
        call = call.model_dump()  # pydantic objects from the anthropic and openai client libraries
    if isinstance(call, ToolCall):
        name, args, call_id = call.name, call.arguments, call.id
    elif isinstance(call, Mapping):
        call = dict(call.items())
        function = call.get("function")
        if isinstance(function, Mapping) and "name" not in call:
            call = {**call, **dict(function.items())}
        name, call_id = call.get("name"), call.get("id", "call_1")
        args = call["input"] if "input" in call else call.get("arguments", {})
    else:
        return ToolCall("", None, "call_1"), f"A proposed call must be a JSON object, not {echo(call)}"
    safe_id = _plain_or_none(call_id)
    safe_id = safe_id if safe_id and len(safe_id) <= MAX_ID else "call_1"
    plain_name = _plain_or_none(name)
    if not plain_name:
        return (
            ToolCall(clip(plain_name or ""), args, safe_id),
            f'The proposed call names no tool: "name" must be a tool\'s name as a string, not {echo(name)}',
        )
    if len(plain_name) > MAX_ID:
        return ToolCall(clip(plain_name), args, safe_id), f"There is no tool named {echo(plain_name)}"
    return ToolCall(plain_name, args, safe_id), ""


def _plain_or_none(text: Any) -> str | None:
    """``text`` as a plain str that UTF-8 can carry, or None: a name or id goes back in every result."""
    if not isinstance(text, str):
        return None
    try:
        plain = json_plain(text)
    except NotJSON:
        return None
    return plain


def _version(tool: Tool | None) -> str:
    """The definition version for the audit; "" when no tool was found, or its definition is not JSON."""
    if tool is None:
        return ""
    try:
        return definition_version(tool)
    except (NotJSON, TypeError, ValueError, RecursionError):
        return ""


def _nobody_to_decide(tool: Tool, has_person: bool, has_any: bool) -> str:
    """What the model is told when no one set up here may decide this write; "" when someone may."""
    if who_decides(tool) is Decider.PERSON and not has_person:
        return NO_PERSON
    if not has_any:
        return NO_DECIDER
    return ""


def _settled(decision: Any, by: Decider) -> Decision | None:
    """A plain Decision rebuilt from what a decider returned, stamped with who decided, or None.

    Rebuilding runs Decision's own checks again, so a subclass with a property that raises, or a
    decision whose fields were forced after it was made, cannot reach the gate in that state. The
    stamp comes from the dispatcher, which knows whom it asked: a callback cannot claim to be a person.
    """
    if not isinstance(decision, Decision):
        return None
    try:
        behavior, message = json_plain(decision.behavior), json_plain(decision.message)
        return Decision(behavior, decision.updated_input, message, by)
    except Exception:
        return None


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
    rows.append(
        _row(
            "log, then dispatch anyway",
            backend,
            result,
            f"the fault was caught ({len(log)} log line) and forwarded regardless",
        )
    )

    backend = Backend(tool)
    for _ in range(retries):
        result = ToolResult(call.id, backend(arguments), is_error=True, ran=True)
    rows.append(
        _row(
            f"retry unchanged ({retries}x)",
            backend,
            result,
            "the same input fails the same way; nothing new was learned",
        )
    )

    backend = Backend(tool)
    checked = Tool(tool.name, tool.description, tool.parameters, backend, {"readOnlyHint": True})
    result = Dispatcher(ToolSet("checked", (checked,))).dispatch(call)
    rows.append(
        _row("validate at dispatch", backend, result, "nothing reached the service; the model can fix it")
    )
    return rows


def _row(strategy: str, backend: Backend, result: ToolResult, note: str) -> dict:
    text = result.block()["content"]
    return {
        "strategy": strategy,
        "calls reaching the service": len(backend.received),
        "model reads": text if len(text) <= 160 else text[:157] + "...",
        "note": note,
    }


__all__ = [
    "Backend",
    "Dispatcher",
    "Problem",
    "actionable_message",
    "compare_strategies",
    "describe",
    "example_arguments",
    "invalid_call_result",
    "is_valid",
    "loosened",
    "json_kind",
    "problems",
    "schema_refusal",
]
