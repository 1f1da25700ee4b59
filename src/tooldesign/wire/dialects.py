"""One tool definition, four dialects: generated from the ToolSet, never written by hand.

The course keeps one definition per tool (name, description, JSON Schema). Each API wants it in
its own envelope: Anthropic's ``input_schema``, OpenAI's ``parameters`` inside ``function`` (Chat
Completions) or flat (Responses), MCP's ``inputSchema``. Anthropic and Chat Completions come from
``tooldesign.selection.models``, the home the real-model pickers use, so the lesson shows exactly
what lesson 06 sends; the other two are built here with the SDKs' typed parameters.
"""

from __future__ import annotations

from typing import Any

from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionToolParam
from openai.types.responses import FunctionToolParam

from tooldesign.mcp.listing import listed_tool
from tooldesign.selection.models import anthropic_tools, openai_tools
from tooldesign.tools.base import Tool
from tooldesign.tools.schema import is_strict_ready


def anthropic_tool(tool: Tool) -> ToolParam:
    """Anthropic Messages: name, description, ``input_schema``; strict where the schema allows it."""
    entry: ToolParam = anthropic_tools([tool])[0]  # type: ignore[assignment]
    return entry


def chat_tool(tool: Tool) -> ChatCompletionToolParam:
    """OpenAI Chat Completions: ``{"type": "function", "function": {name, description, parameters}}``."""
    entry: ChatCompletionToolParam = openai_tools([tool])[0]  # type: ignore[assignment]
    return entry


def responses_tool(tool: Tool) -> FunctionToolParam:
    """OpenAI Responses: the same fields, flat, with ``strict`` always stated (it is required there)."""
    return FunctionToolParam(
        type="function",
        name=tool.name,
        description=tool.description,
        parameters=dict(tool.parameters),
        strict=is_strict_ready(tool.parameters),
    )


def mcp_tool(tool: Tool) -> dict[str, Any]:
    """MCP ``tools/list``: ``inputSchema`` (camel case), as lesson 14's server lists it, without the extras."""
    listed = listed_tool(tool).model_dump(by_alias=True, exclude_none=True)
    return {key: listed[key] for key in ("name", "description", "inputSchema") if key in listed}


def in_every_dialect(tool: Tool) -> dict[str, Any]:
    """The one definition in each dialect, keyed by API."""
    return {
        "Anthropic Messages": anthropic_tool(tool),
        "OpenAI Chat Completions": chat_tool(tool),
        "OpenAI Responses": responses_tool(tool),
        "MCP tools/list": mcp_tool(tool),
    }


def schema_key(api: str) -> str:
    """Where the argument schema sits in each dialect: the one field name that differs most."""
    return {
        "Anthropic Messages": "input_schema",
        "OpenAI Chat Completions": "function.parameters",
        "OpenAI Responses": "parameters",
        "MCP tools/list": "inputSchema",
    }[api]


# tool_choice across providers: the same four intentions, spelled three ways. Anthropic's "any" is
# OpenAI's "required". With extended thinking, Anthropic accepts only "auto" and "none" (its extended-thinking page).
TOOL_CHOICE: tuple[dict[str, Any], ...] = (
    {
        "intention": "the model decides",
        "Anthropic": {"type": "auto"},
        "OpenAI Chat Completions": "auto",
        "OpenAI Responses": "auto",
        "with extended thinking (Anthropic)": "allowed",
    },
    {
        "intention": "some tool must be called",
        "Anthropic": {"type": "any"},
        "OpenAI Chat Completions": "required",
        "OpenAI Responses": "required",
        "with extended thinking (Anthropic)": "refused",
    },
    {
        "intention": "this tool must be called",
        "Anthropic": {"type": "tool", "name": "sales_order_search"},
        "OpenAI Chat Completions": {"type": "function", "function": {"name": "sales_order_search"}},
        "OpenAI Responses": {"type": "function", "name": "sales_order_search"},
        "with extended thinking (Anthropic)": "refused",
    },
    {
        "intention": "no tool may be called",
        "Anthropic": {"type": "none"},
        "OpenAI Chat Completions": "none",
        "OpenAI Responses": "none",
        "with extended thinking (Anthropic)": "allowed",
    },
)


# Lesson 09's code_mode_access, in Anthropic's programmatic tool calling: who may call the tool.
CODE_EXECUTION = "code_execution_20250825"
ALLOWED_CALLERS: dict[str, list[str]] = {
    "direct": ["direct"],
    "code": [CODE_EXECUTION],
    "both": ["direct", CODE_EXECUTION],
}


def allowed_callers(access: str) -> list[str]:
    """``allowed_callers`` for a lesson-09 access value: direct (the model), code (a program), or both."""
    if access not in ALLOWED_CALLERS:
        raise ValueError(f"access must be one of {', '.join(ALLOWED_CALLERS)}; got {access!r}")
    return list(ALLOWED_CALLERS[access])
