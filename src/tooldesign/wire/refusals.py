"""What the capture server refuses: the course's reading of the providers' documented constraints.

A real API answers a malformed tool request with HTTP 400 and an error body; the official clients
raise their typed ``BadRequestError``. The capture server checks each request it receives against
the rules below and answers the same way, so a learner meets a constraint as a refusal before
meeting it in production. These are NOT the services' own validators: each rule is the course's
reading of a documented constraint (the sources are named on every rule and in the README), the
messages are the course's wording, and a real service may check more, less, or in another order.

One home for every rule: ``refusal(path, body)`` picks the dialect from the path, runs its rules in
order and returns the first ``Refusal`` (or ``None``); ``error_body`` spells it the provider's way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any


class Dialect(str, Enum):
    ANTHROPIC = "Anthropic Messages"
    RESPONSES = "OpenAI Responses"
    CHAT = "OpenAI Chat Completions"


@dataclass(frozen=True)
class Refusal:
    """One refused request: which rule, the parameter it concerns, what the learner should change."""

    rule: str
    dialect: Dialect
    param: str
    message: str


def dialect_of(path: str) -> Dialect | None:
    """The API a request path belongs to, as the official clients spell the paths (query left out)."""
    path = path.split("?", 1)[0]
    if path.rstrip("/").endswith("/messages"):
        return Dialect.ANTHROPIC
    if path.rstrip("/").endswith("/responses"):
        return Dialect.RESPONSES
    if path.rstrip("/").endswith("/chat/completions"):
        return Dialect.CHAT
    return None


def error_body(refusal: Refusal) -> dict[str, Any]:
    """The provider's error shape, as its SDK reads it (anthropic/_exceptions.py, openai/_exceptions.py)."""
    if refusal.dialect is Dialect.ANTHROPIC:
        return {"type": "error", "error": {"type": "invalid_request_error", "message": refusal.message}}
    return {
        "error": {
            "message": refusal.message,
            "type": "invalid_request_error",
            "param": refusal.param,
            "code": refusal.rule,
        }
    }


# Anthropic's documented tool-name pattern (Define tools; R45's family of pages).
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
CODE_EXECUTION_PREFIX = "code_execution_"


def _blocks(message: Mapping[str, Any]) -> list[dict]:
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _duplicates(names: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    return sorted({n for n in names if n in seen or seen.add(n)})  # type: ignore[func-returns-value]


# --- Anthropic Messages ----------------------------------------------------------------------------

Rule = Callable[[Mapping[str, Any]], "tuple[str, str] | None"]  # (param, message) or None


def _a_tool_names(body: Mapping[str, Any]) -> tuple[str, str] | None:
    for i, tool in enumerate(body.get("tools") or []):
        name = tool.get("name", "")
        if not NAME.match(name):
            return f"tools.{i}.name", (
                f"tools.{i}.name: {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$; "
                "use letters, digits, '_' or '-', at most 64 characters"
            )
    return None


def _a_unique_names(body: Mapping[str, Any]) -> tuple[str, str] | None:
    twice = _duplicates(t.get("name", "") for t in body.get("tools") or [])
    if twice:
        return "tools", f"tools: tool names must be unique; {', '.join(twice)} appears more than once"
    return None


def _a_tool_choice_known(body: Mapping[str, Any]) -> tuple[str, str] | None:
    choice = body.get("tool_choice") or {}
    names = {t.get("name") for t in body.get("tools") or []}
    if choice.get("type") == "tool" and choice.get("name") not in names:
        return "tool_choice.name", (
            f"tool_choice.name: {choice.get('name')!r} is not a tool in this request; name one of the tools"
        )
    return None


def _a_forced_with_thinking(body: Mapping[str, Any]) -> tuple[str, str] | None:
    thinking = body.get("thinking") or {}
    choice = body.get("tool_choice") or {}
    if thinking.get("type") in ("enabled", "adaptive") and choice.get("type") in ("any", "tool"):
        return "tool_choice", (
            f"tool_choice: type {choice['type']!r} cannot be used with extended thinking; use 'auto' or 'none'"
        )
    return None


def _a_allowed_callers(body: Mapping[str, Any]) -> tuple[str, str] | None:
    tools = body.get("tools") or []
    present = {t.get("type") for t in tools if str(t.get("type", "")).startswith(CODE_EXECUTION_PREFIX)}
    for i, tool in enumerate(tools):
        for caller in tool.get("allowed_callers") or []:
            if caller.startswith(CODE_EXECUTION_PREFIX) and caller not in present:
                return f"tools.{i}.allowed_callers", (
                    f"tools.{i}.allowed_callers: {caller!r} names a code execution tool that is not in tools; "
                    f"add {{'type': '{caller}', 'name': 'code_execution'}} to tools or remove the caller"
                )
    return None


def _a_not_all_deferred(body: Mapping[str, Any]) -> tuple[str, str] | None:
    tools = body.get("tools") or []
    if tools and all(t.get("defer_loading") for t in tools):
        return "tools", (
            "tools: every tool has defer_loading: true; at least one tool (the search tool) must be loaded"
        )
    return None


def _a_results_answer_calls(body: Mapping[str, Any]) -> tuple[str, str] | None:
    messages = list(body.get("messages") or [])
    for i, message in enumerate(messages):
        if message.get("role") != "user":
            continue
        blocks = _blocks(message)
        results = [b for b in blocks if b.get("type") == "tool_result"]
        if not results:
            continue
        before = messages[i - 1] if i else {}
        calls = {
            b.get("id")
            for b in _blocks(before)
            if before.get("role") == "assistant" and b.get("type") == "tool_use"
        }
        for r in results:
            if r.get("tool_use_id") not in calls:
                return f"messages.{i}.content", (
                    f"messages.{i}.content: the tool_result block with tool_use_id {r.get('tool_use_id')!r} "
                    "matches no tool_use block in the previous assistant message"
                )
    return None


def _a_results_first(body: Mapping[str, Any]) -> tuple[str, str] | None:
    for i, message in enumerate(body.get("messages") or []):
        blocks = _blocks(message) if message.get("role") == "user" else []
        first_other = next((n for n, b in enumerate(blocks) if b.get("type") != "tool_result"), len(blocks))
        if any(n > first_other for n, b in enumerate(blocks) if b.get("type") == "tool_result"):
            return f"messages.{i}.content", (
                f"messages.{i}.content: tool_result blocks must come first in the user message, "
                "before any text"
            )
    return None


def _a_every_call_answered(body: Mapping[str, Any]) -> tuple[str, str] | None:
    messages = list(body.get("messages") or [])
    for i, message in enumerate(messages[:-1]):
        if message.get("role") != "assistant":
            continue
        calls = [str(b.get("id")) for b in _blocks(message) if b.get("type") == "tool_use"]
        answered = {b.get("tool_use_id") for b in _blocks(messages[i + 1]) if b.get("type") == "tool_result"}
        missing = [c for c in calls if c not in answered]
        if missing:
            return f"messages.{i + 1}", (
                f"messages.{i + 1}: tool_use ids were found without tool_result blocks immediately after: "
                f"{', '.join(missing)}; answer every tool_use in the next user message"
            )
    return None


def _a_references_deferred(body: Mapping[str, Any]) -> tuple[str, str] | None:
    tools = {t.get("name"): t for t in body.get("tools") or []}
    for i, message in enumerate(body.get("messages") or []):
        for result in _blocks(message):
            content = result.get("content")
            if result.get("type") != "tool_result" or not isinstance(content, list):
                continue
            for ref in content:
                if not isinstance(ref, dict) or ref.get("type") != "tool_reference":
                    continue
                name = ref.get("tool_name")
                if name not in tools:
                    return f"messages.{i}.content", (
                        f"messages.{i}.content: tool_reference names {name!r}, which is not in tools; "
                        "declare it in tools with defer_loading: true"
                    )
                if not tools[name].get("defer_loading"):
                    return f"messages.{i}.content", (
                        f"messages.{i}.content: tool_reference names {name!r}, which is not deferred; "
                        "reference only tools declared with defer_loading: true"
                    )
    return None


ANTHROPIC_RULES: dict[str, Rule] = {
    "invalid_tool_name": _a_tool_names,
    "duplicate_tool_name": _a_unique_names,
    "unknown_tool_choice": _a_tool_choice_known,
    "forced_choice_with_thinking": _a_forced_with_thinking,
    "allowed_callers_without_code_execution": _a_allowed_callers,
    "all_tools_deferred": _a_not_all_deferred,
    "unmatched_tool_result": _a_results_answer_calls,
    "tool_result_not_first": _a_results_first,
    "unanswered_tool_use": _a_every_call_answered,
    "tool_reference_not_deferred": _a_references_deferred,
}


# --- OpenAI Responses ------------------------------------------------------------------------------


def _functions(tools: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Every function, namespaces opened: their names share one space with the flat functions."""
    found: list[Mapping[str, Any]] = []
    for tool in tools:
        if tool.get("type") == "namespace":
            found += [t for t in tool.get("tools") or [] if t.get("type") == "function"]
        elif tool.get("type") == "function":
            found.append(tool)
    return found


def _names_twice(twice: list[str]) -> tuple[str, str] | None:
    if not twice:
        return None
    return (
        "tools",
        f"Function names used more than once in tools: {', '.join(twice)}. Give each function its own name.",
    )


def _r_unique_names(body: Mapping[str, Any]) -> tuple[str, str] | None:
    twice = _duplicates(f.get("name", "") for f in _functions(body.get("tools") or []))
    return _names_twice(twice)


def _r_allowed_tools_known(body: Mapping[str, Any]) -> tuple[str, str] | None:
    choice = body.get("tool_choice")
    if not isinstance(choice, dict):
        return None
    names = {f.get("name") for f in _functions(body.get("tools") or [])}
    if choice.get("type") == "allowed_tools":
        for entry in choice.get("tools") or []:
            if entry.get("type") == "function" and entry.get("name") not in names:
                return "tool_choice.tools", (
                    f"tool_choice.tools names function {entry.get('name')!r}, which is not in tools. "
                    "allowed_tools can only narrow the tools you sent."
                )
    if choice.get("type") == "function" and choice.get("name") not in names:
        return "tool_choice.name", f"Tool choice function {choice.get('name')!r} is not in tools."
    return None


def _r_defer_needs_search(body: Mapping[str, Any]) -> tuple[str, str] | None:
    tools = body.get("tools") or []
    for i, tool in enumerate(tools):
        if tool.get("type") == "namespace" and "defer_loading" in tool:
            return f"tools[{i}].defer_loading", (
                "defer_loading goes on the functions inside a namespace, not on the namespace itself."
            )
    deferred = any(f.get("defer_loading") for f in _functions(tools))
    if deferred and not any(t.get("type") == "tool_search" for t in tools):
        return "tools", "Deferred functions need a tool_search tool in tools: add {'type': 'tool_search'}."
    return None


def _r_outputs_answer_calls(body: Mapping[str, Any]) -> tuple[str, str] | None:
    items = body.get("input")
    if not isinstance(items, list):
        return None
    calls: set[str] = set()
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call":
            calls.add(item.get("call_id", ""))
        elif item.get("type") == "function_call_output" and item.get("call_id") not in calls:
            return f"input[{i}].call_id", (
                f"No tool call found for function call output with call_id {item.get('call_id')!r}."
            )
    return None


def _parallel_without_tools(body: Mapping[str, Any]) -> tuple[str, str] | None:
    if "parallel_tool_calls" in body and not body.get("tools"):
        return "parallel_tool_calls", "parallel_tool_calls is only allowed when 'tools' are specified."
    return None


RESPONSES_RULES: dict[str, Rule] = {
    "duplicate_function_name": _r_unique_names,
    "unknown_allowed_tool": _r_allowed_tools_known,
    "deferred_without_tool_search": _r_defer_needs_search,
    "unmatched_function_call_output": _r_outputs_answer_calls,
    "parallel_without_tools": _parallel_without_tools,
}


# --- OpenAI Chat Completions -----------------------------------------------------------------------


def _c_unique_names(body: Mapping[str, Any]) -> tuple[str, str] | None:
    twice = _duplicates((t.get("function") or {}).get("name", "") for t in body.get("tools") or [])
    return _names_twice(twice)


def _c_tool_messages(body: Mapping[str, Any]) -> tuple[str, str] | None:
    messages = list(body.get("messages") or [])
    for i, message in enumerate(messages):
        calls = [c.get("id") for c in message.get("tool_calls") or []]
        if message.get("role") == "assistant" and calls:
            answered = set()
            for later in messages[i + 1 :]:
                if later.get("role") != "tool":
                    break
                answered.add(later.get("tool_call_id"))
            missing = [c for c in calls if c not in answered]
            if missing:
                return f"messages.[{i}]", (
                    "An assistant message with 'tool_calls' must be followed by tool messages responding to "
                    f"each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                    f"{', '.join(missing)}"
                )
        if message.get("role") == "tool":
            j = i - 1
            while j >= 0 and messages[j].get("role") == "tool":
                j -= 1
            offered = {c.get("id") for c in (messages[j].get("tool_calls") or [])} if j >= 0 else set()
            if message.get("tool_call_id") not in offered:
                return f"messages.[{i}].role", (
                    "Invalid parameter: messages with role 'tool' must be a response to a preceding message "
                    "with 'tool_calls'."
                )
    return None


CHAT_RULES: dict[str, Rule] = {
    "duplicate_function_name": _c_unique_names,
    "unanswered_tool_call": _c_tool_messages,
    "parallel_without_tools": _parallel_without_tools,
}

RULES: dict[Dialect, dict[str, Rule]] = {
    Dialect.ANTHROPIC: ANTHROPIC_RULES,
    Dialect.RESPONSES: RESPONSES_RULES,
    Dialect.CHAT: CHAT_RULES,
}


def _plain(body: Mapping[str, Any]) -> dict[str, Any]:
    # The server receives JSON; a body built in Python (SDK blocks, tuples) is read as that JSON.
    return json.loads(json.dumps(body, default=lambda v: v.model_dump(exclude_none=True)))


def refusal(path: str, body: Mapping[str, Any]) -> Refusal | None:
    """The first rule the request breaks, or None when the course's checks find nothing to refuse."""
    dialect = dialect_of(path)
    if dialect is None:
        return None
    plain = _plain(body)
    for rule, check in RULES[dialect].items():
        broken = check(plain)
        if broken:
            return Refusal(rule, dialect, broken[0], broken[1])
    return None
