"""An MCP server built from a course tool set, so what a host lists is the one definition itself.

Why the low-level ``mcp.server.Server`` and not ``MCPServer``: ``MCPServer`` builds each tool's input
schema from a Python function's signature, which would be a second copy of the schema the designed
set already states, and it answers a call to an unknown tool with an ``isError`` result. The designed
definitions are data, and the MCP specification (Tools, "Error Handling") makes an unknown tool a
protocol error. ``Server`` is the layer ``MCPServer`` itself runs on; here it is handed the ToolSet's
name, description, parameters and annotations unchanged.

What the server does for each request:

* ``tools/list``: every tool's name, description, ``inputSchema`` (the ToolSet's parameters),
  ``outputSchema`` (``tooldesign.mcp.results``) and annotations (the ToolSet's hints);
* ``tools/call`` for a known tool: the arguments are checked against the tool's schema by the
  dispatcher's own function (``tooldesign.dispatch.validate.schema_refusal``), so a call refused there reads
  the same over MCP as through the dispatcher; then the tool's own handler runs; its
  ``{"error": ...}`` comes back as an ``isError`` result whose text the model reads, anything else as
  structured content plus the same JSON as text;
* ``tools/list`` with a cursor: a protocol error (-32602). Every tool fits on one page, so this
  server never issues a cursor, and the specification (*Pagination*, "Error Handling") answers an
  invalid cursor with -32602 rather than a listing the client did not ask for;
* ``tools/call`` for an unknown tool: a protocol error (JSON-RPC -32602). Malformed requests never
  reach this code: ``tooldesign.mcp.wire`` and the SDK reject them with -32700, -32600, -32602 or
  -32601 first.

Under revision 2026-07-28 a listing is cacheable (*Caching*): ``LISTING_CACHE`` says how long a host
may reuse it without asking again, and that it is the same for every caller ("public"). The server
keeps nothing between calls: each request carries what it needs, as the stateless revision asks,
and a draft lives in the ``DraftStore`` under its request id, an explicit handle.

A handler that raises anyway is a bug in the server, not a message for the model: the model gets a
short ``isError`` text without internals, and the exception's type is kept in ``crashes`` so a test
can insist there are none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.server.caching import CacheHint
from mcp.shared.exceptions import MCPError

from tooldesign.dispatch.calls import ToolCall
from tooldesign.dispatch.validate import schema_refusal
from tooldesign.mcp.listing import annotations_of, listed_tool
from tooldesign.mcp.results import split_result
from tooldesign.tools.base import ToolSet

__all__ = [
    "ServedSet",
    "serve",
    "listed_tool",
    "annotations_of",
    "UNKNOWN_TOOL",
    "UNKNOWN_CURSOR",
    "LISTING_CACHE",
    "CRASH_TEXT",
]

UNKNOWN_TOOL = types.INVALID_PARAMS  # the code the specification's example uses for an unknown tool
UNKNOWN_CURSOR = types.INVALID_PARAMS  # Pagination, "Error Handling": invalid cursors get -32602
# A host may reuse the listing for five minutes (the specification's own example value); the listing
# has no per-user part, so a shared cache may keep it too. A freshness hint, not a promise: a host that
# approved a definition still compares each new listing with it (notebook 15).
LISTING_CACHE = CacheHint(ttl_ms=300_000, scope="public")
CRASH_TEXT = "The tool failed inside the server. Nothing was changed; try again later or tell the user."


@dataclass(frozen=True)
class ServedSet:
    """A tool set behind an MCP server. Pass ``server`` to ``mcp.Client`` (in memory) or run it.

    ``crashes`` lists the tool and exception type of every handler that raised; it should stay empty.
    """

    tools: ToolSet
    server: Server = field(repr=False)
    crashes: list[str] = field(default_factory=list)


def _text(value: str) -> list[types.ContentBlock]:
    return [types.TextContent(type="text", text=value)]


def serve(tools: ToolSet, name: str | None = None) -> ServedSet:
    """Build the MCP server for ``tools``; nothing is started until a client connects or it is run."""
    listing = types.ListToolsResult(
        tools=[listed_tool(tool) for tool in tools],
        ttl_ms=LISTING_CACHE.ttl_ms,
        cache_scope=LISTING_CACHE.scope,
    )
    crashes: list[str] = []

    async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        if params is not None and params.cursor is not None:
            raise MCPError(
                code=UNKNOWN_CURSOR,
                message=f"Unknown cursor {params.cursor[:40]!r}: this server lists every tool on one page "
                "and never issues a cursor. List again without one.",
            )
        return listing

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools.names:
            raise MCPError(
                code=UNKNOWN_TOOL,
                message=f"Unknown tool: {params.name}. This server offers {', '.join(tools.names)}.",
            )
        arguments = params.arguments if params.arguments is not None else {}
        refused = schema_refusal(ToolCall(params.name, arguments, "mcp"), tools[params.name], arguments)
        if refused is not None:  # one input, one rule, one message: the dispatcher's
            return types.CallToolResult(content=_text(str(refused.content)), is_error=True)
        try:
            result = tools[params.name].run(arguments)
        except Exception as error:  # a bug, kept for the tests; the model learns only that it failed
            crashes.append(f"{params.name}: {type(error).__name__}")
            return types.CallToolResult(content=_text(CRASH_TEXT), is_error=True)
        split = split_result(result)
        return types.CallToolResult(
            content=_text(split.text), structured_content=split.structured, is_error=split.is_error
        )

    server = Server(
        name or f"tooldesign-{tools.name}",
        version="1",
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    return ServedSet(tools, server, crashes)
