"""Serving the course's tool sets over the Model Context Protocol (notebooks 14 and 15).

``serve(tool_set("designed"))`` builds an MCP server from the ToolSet itself: a host lists the same
names, descriptions, schemas and annotations the lessons designed, with a result schema per tool.
``view_of(listing)`` turns what a client listed back into a ToolSet for the lint; ``untrusted_server``
is a server whose read-only label is false; ``rug_pull_servers`` one whose description changes after
approval, and ``pinning`` the host's check for it; ``tooldesign.mcp.run`` runs a server over stdio or HTTP.

The names below load their module on first use, so ``tooldesign.mcp.results`` or ``.listing`` (lesson
18's MCP dialect) does not bring in the server and its transports; ``import tooldesign`` alone loads
no part of the ``mcp`` SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tooldesign.lazy import lazy_exports

if TYPE_CHECKING:
    from tooldesign.mcp.listing import annotations_of, listed_tool
    from tooldesign.mcp.measure import SizeRow, size_table, sizes
    from tooldesign.mcp.pinning import DefinitionChange, Pin, changes, digest, pin, still_approved
    from tooldesign.mcp.results import OUTPUT_SCHEMAS, output_schema, split_result
    from tooldesign.mcp.server import (
        CRASH_TEXT,
        LISTING_CACHE,
        UNKNOWN_CURSOR,
        UNKNOWN_TOOL,
        ServedSet,
        serve,
    )
    from tooldesign.mcp.untrusted import ItemStore, rug_pull_servers, untrusted_server
    from tooldesign.mcp.view import as_plain, definition_of, send_raw, view_of

_HOMES = {
    "serve": "server",
    "ServedSet": "server",
    "listed_tool": "listing",
    "annotations_of": "listing",
    "UNKNOWN_TOOL": "server",
    "UNKNOWN_CURSOR": "server",
    "LISTING_CACHE": "server",
    "CRASH_TEXT": "server",
    "OUTPUT_SCHEMAS": "results",
    "output_schema": "results",
    "split_result": "results",
    "as_plain": "view",
    "definition_of": "view",
    "send_raw": "view",
    "view_of": "view",
    "ItemStore": "untrusted",
    "untrusted_server": "untrusted",
    "rug_pull_servers": "untrusted",
    "DefinitionChange": "pinning",
    "Pin": "pinning",
    "changes": "pinning",
    "digest": "pinning",
    "pin": "pinning",
    "still_approved": "pinning",
    "SizeRow": "measure",
    "sizes": "measure",
    "size_table": "measure",
}

__all__ = [
    "serve",
    "ServedSet",
    "listed_tool",
    "annotations_of",
    "UNKNOWN_TOOL",
    "UNKNOWN_CURSOR",
    "LISTING_CACHE",
    "CRASH_TEXT",
    "OUTPUT_SCHEMAS",
    "output_schema",
    "split_result",
    "as_plain",
    "definition_of",
    "send_raw",
    "view_of",
    "ItemStore",
    "untrusted_server",
    "rug_pull_servers",
    "DefinitionChange",
    "Pin",
    "changes",
    "digest",
    "pin",
    "still_approved",
    "SizeRow",
    "sizes",
    "size_table",
]

__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())
