"""The provider controls a tool designer sets per request, built as the official SDKs' typed parameters.

Each builder returns the SDK's own TypedDict, so what lesson 18 sends is what the pinned SDK types
allow (anthropic 2.10.0, openai 3.51.0), and the capture server shows it on the wire:

- which tools may be called this turn, without touching the (cached) tools list: OpenAI's
  ``allowed_tools`` tool choice; Anthropic's nearest control, a ``tool_removal`` block in a
  mid-conversation system message (beta), which withdraws a tool from that point on;
- parallel calls on or off: OpenAI's ``parallel_tool_calls``, Anthropic's ``disable_parallel_tool_use``;
- tool search over deferred definitions: OpenAI's ``tool_search`` tool with ``defer_loading`` inside a
  ``namespace``; Anthropic's ``tool_search_tool_bm25`` with ``defer_loading`` and ``tool_reference``;
- a server tool's paused turn: ``continue_paused`` sends the assistant content back, unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from anthropic.types import (
    MessageParam,
    ToolChoiceAnyParam,
    ToolChoiceAutoParam,
    ToolParam,
    ToolSearchToolBm25_20251119Param,
    WebSearchTool20250305Param,
)
from anthropic.types.beta import BetaRequestToolRemovalBlockParam, BetaSystemMessageParam
from openai.types.responses import (
    FunctionToolParam,
    NamespaceToolParam,
    ToolChoiceAllowedParam,
    ToolSearchToolParam,
)


def allowed_tools(names: Iterable[str], mode: Literal["auto", "required"] = "auto") -> ToolChoiceAllowedParam:
    """OpenAI Responses: only these functions may be called this turn; ``tools`` stays as it was."""
    return ToolChoiceAllowedParam(
        type="allowed_tools", mode=mode, tools=[{"type": "function", "name": n} for n in names]
    )


def anthropic_choice(
    kind: Literal["auto", "any"] = "auto", parallel: bool = True
) -> ToolChoiceAutoParam | ToolChoiceAnyParam:
    """Anthropic ``tool_choice``; ``parallel=False`` sets ``disable_parallel_tool_use`` (at most one call
    with auto, exactly one with any)."""
    choice: ToolChoiceAutoParam | ToolChoiceAnyParam = (
        ToolChoiceAutoParam(type="auto") if kind == "auto" else ToolChoiceAnyParam(type="any")
    )
    if not parallel:
        choice["disable_parallel_tool_use"] = True
    return choice


def tool_removal(name: str) -> BetaSystemMessageParam:
    """Anthropic (beta): a mid-conversation system message withdrawing one declared tool from here on."""
    block = BetaRequestToolRemovalBlockParam(
        type="tool_removal", tool={"type": "tool_reference", "name": name}
    )
    return BetaSystemMessageParam(role="system", content=[block])


def namespace(name: str, description: str, functions: Sequence[FunctionToolParam]) -> NamespaceToolParam:
    """OpenAI Responses: functions grouped under a name, each deferred (``defer_loading`` on the functions,
    never on the namespace itself)."""
    deferred: list[Any] = [{**f, "defer_loading": True} for f in functions]
    return NamespaceToolParam(type="namespace", name=name, description=description, tools=deferred)


OPENAI_TOOL_SEARCH = ToolSearchToolParam(type="tool_search")
ANTHROPIC_TOOL_SEARCH = ToolSearchToolBm25_20251119Param(
    type="tool_search_tool_bm25_20251119", name="tool_search_tool_bm25"
)
WEB_SEARCH = WebSearchTool20250305Param(type="web_search_20250305", name="web_search", max_uses=3)


def deferred(tools: Sequence[ToolParam], keep: Iterable[str] = ()) -> list[ToolParam]:
    """Anthropic: every tool declared with ``defer_loading: true`` except those named in ``keep``."""
    loaded = set(keep)
    return [ToolParam(**{**t, "defer_loading": t["name"] not in loaded}) for t in tools]


def continue_paused(messages: Sequence[MessageParam], paused_content: Sequence[Any]) -> list[MessageParam]:
    """After ``stop_reason: "pause_turn"``: the assistant content goes back as it came, and no user
    message is added; the next request carries the same tools and the API resumes the turn."""
    return [*messages, {"role": "assistant", "content": list(paused_content)}]
