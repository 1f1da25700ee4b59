"""What ``tools/list`` says about a course tool, in MCP's own types (``mcp_types``).

Kept apart from ``server``: showing a definition in MCP's dialect (lesson 18) needs the protocol's
types, not the server and its transports.
"""

from __future__ import annotations

import mcp_types as types

from tooldesign.mcp.results import output_schema
from tooldesign.tools.base import Tool

__all__ = ["annotations_of", "listed_tool"]


def annotations_of(tool: Tool) -> types.ToolAnnotations | None:
    """The ToolSet's behaviour hints in MCP's type; None when a tool declares none (the mirror)."""
    return types.ToolAnnotations.model_validate(dict(tool.annotations)) if tool.annotations else None


def listed_tool(tool: Tool) -> types.Tool:
    """What ``tools/list`` says about one tool: its own definition, plus its result schema."""
    return types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=dict(tool.parameters),
        output_schema=output_schema(tool),
        annotations=annotations_of(tool),
    )
