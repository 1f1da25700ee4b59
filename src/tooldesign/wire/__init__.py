"""On the wire: a tool call as today's model APIs send and receive it (lesson 18).

``dialects`` turns one ToolSet definition into each provider's format (Anthropic, OpenAI Chat
Completions and Responses, MCP), ``turns`` builds the assistant and user turns of a tool call and
runs a turn through the lesson-11 dispatcher, ``capture`` is a server on 127.0.0.1 that records
what the official SDKs send and answers with a documented-format example, ``examples`` holds those
example replies (examples, never a model's output), and ``cache`` says which part of a request a
provider could read from its cache after a change.
"""

from tooldesign.wire.cache import Segment, cache_verdict
from tooldesign.wire.capture import CaptureServer
from tooldesign.wire.dialects import (
    TOOL_CHOICE,
    anthropic_tool,
    chat_tool,
    in_every_dialect,
    mcp_tool,
    responses_tool,
)
from tooldesign.wire.turns import answer_tool_uses, results_turn, tool_uses

__all__ = [
    "TOOL_CHOICE",
    "CaptureServer",
    "Segment",
    "answer_tool_uses",
    "anthropic_tool",
    "cache_verdict",
    "chat_tool",
    "in_every_dialect",
    "mcp_tool",
    "responses_tool",
    "results_turn",
    "tool_uses",
]
