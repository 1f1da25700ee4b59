"""The two turns of a tool call in Anthropic's Messages format, and the same in OpenAI's two APIs.

A reply that stops with ``stop_reason: "tool_use"`` holds one ``tool_use`` block per proposed call
(several means parallel calls). Your code answers with ONE user turn holding one ``tool_result``
block per ``tool_use_id``, the results first (text, if any, after them), each marked ``is_error``
when it describes a failure. The loop repeats until the stop reason is something else.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from anthropic.types import ToolResultBlockParam, UserMessageParam

from tooldesign.dispatch.calls import ToolCall, ToolResult
from tooldesign.dispatch.validate import Dispatcher


def tool_uses(content: Iterable[Any]) -> list[dict]:
    """The ``tool_use`` blocks of a reply's content, in order, as plain dicts (SDK blocks or dicts)."""
    blocks = []
    for block in content:
        plain = block.model_dump() if hasattr(block, "model_dump") else dict(block)
        if plain.get("type") == "tool_use":
            blocks.append(
                {"type": "tool_use", "id": plain["id"], "name": plain["name"], "input": plain["input"]}
            )
    return blocks


def result_block(result: ToolResult) -> ToolResultBlockParam:
    """One result as the typed block the SDK sends; ``is_error`` only when it describes a failure."""
    block = ToolResultBlockParam(**result.block())  # type: ignore[typeddict-item]
    return block


def results_turn(results: Sequence[ToolResult]) -> UserMessageParam:
    """The user turn that answers a reply: every result in one message, in the calls' order."""
    return UserMessageParam(role="user", content=[result_block(r) for r in results])


def answer_tool_uses(
    dispatcher: Dispatcher, content: Iterable[Any]
) -> tuple[UserMessageParam, list[ToolResult]]:
    """Run every ``tool_use`` of a reply through the lesson-11 dispatcher and build the answering turn.

    The dispatcher never raises: an unknown tool, bad arguments or a write without a decision come
    back as results with ``is_error`` set, so the model reads what went wrong and can correct it.
    """
    results = [dispatcher.dispatch(ToolCall(b["name"], b["input"], b["id"])) for b in tool_uses(content)]
    return results_turn(results), results


def chat_tool_messages(results: Sequence[ToolResult]) -> list[dict]:
    """Chat Completions: one ``role: "tool"`` message per call, matched by ``tool_call_id``.

    This API has no error flag: a failure is said in the content itself.
    """
    return [{"role": "tool", "tool_call_id": r.call_id, "content": r.block()["content"]} for r in results]


def responses_outputs(results: Sequence[ToolResult]) -> list[dict]:
    """Responses: one ``function_call_output`` input item per ``function_call``, matched by ``call_id``."""
    return [
        {"type": "function_call_output", "call_id": r.call_id, "output": r.block()["content"]}
        for r in results
    ]


def as_function_calls(blocks: Sequence[Mapping[str, Any]]) -> list[dict]:
    """The same proposed calls as Responses ``function_call`` items: arguments travel as JSON text."""
    return [
        {"type": "function_call", "call_id": b["id"], "name": b["name"], "arguments": json.dumps(b["input"])}
        for b in blocks
    ]
