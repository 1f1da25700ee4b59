"""Serving the course's tool sets over the Model Context Protocol (notebooks 14 and 15).

``serve(tool_set("designed"))`` builds an MCP server from the ToolSet itself: a host lists the same
names, descriptions, schemas and annotations the lessons designed, with a result schema per tool.
``view_of(listing)`` turns what a client listed back into a ToolSet for the lint; ``untrusted_server``
is a server whose read-only label is false; ``rug_pull_servers`` one whose description changes after
approval, and ``pinning`` the host's check for it; ``tooldesign.mcp.run`` runs a server over stdio or HTTP.

Importing this package imports the ``mcp`` SDK; ``import tooldesign`` alone does not.
"""

from tooldesign.mcp.measure import SizeRow, size_table, sizes
from tooldesign.mcp.pinning import DefinitionChange, Pin, changes, digest, pin, still_approved
from tooldesign.mcp.results import OUTPUT_SCHEMAS, output_schema, split_result
from tooldesign.mcp.server import (
    CRASH_TEXT,
    LISTING_CACHE,
    UNKNOWN_CURSOR,
    UNKNOWN_TOOL,
    ServedSet,
    annotations_of,
    listed_tool,
    serve,
)
from tooldesign.mcp.untrusted import ItemStore, rug_pull_servers, untrusted_server
from tooldesign.mcp.view import as_plain, definition_of, send_raw, view_of

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
