"""The host's side: what a client sees of a served tool set, in the course's own shapes.

A host knows a server only through ``tools/list``. Turning that listing back into a ToolSet lets the
lint of notebook 05 run on exactly what was served, and lets a test compare it with the definitions
the server was built from. The tools in such a view cannot run here: calls go through the client.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tooldesign.tools.base import Tool, ToolSet

__all__ = ["as_plain", "definition_of", "view_of", "RemoteOnly", "send_raw"]


class RemoteOnly(RuntimeError):
    """Raised when a tool from a client's view is run locally: it lives on the server."""


def as_plain(listed: Any) -> dict[str, Any]:
    """A listed tool (``mcp.types.Tool``) as the JSON a host receives: camelCase keys, no empty fields."""
    if isinstance(listed, Mapping):
        return dict(listed)
    return listed.model_dump(by_alias=True, exclude_none=True, mode="json")


def definition_of(listed: Any) -> dict[str, Any]:
    """The part a model is sent: name, description and the input schema as ``parameters``.

    Annotations and the output schema stay with the host, as they do in the course's own definitions.
    """
    tool = as_plain(listed)
    return {
        "name": tool["name"],
        "description": tool.get("description", ""),
        "parameters": dict(tool.get("inputSchema", {})),
    }


def _remote(name: str):
    def handler(arguments: dict) -> Any:
        raise RemoteOnly(f"{name} runs on the MCP server; call it with client.call_tool({name!r}, ...)")

    return handler


def view_of(listing: Any, name: str = "served") -> ToolSet:
    """A ToolSet rebuilt from a ``tools/list`` result (or a list of listed tools) for the lint."""
    tools: Iterable[Any] = getattr(listing, "tools", listing)
    rebuilt = []
    for listed in tools:
        plain = as_plain(listed)
        definition = definition_of(plain)
        rebuilt.append(
            Tool(
                definition["name"],
                definition["description"],
                definition["parameters"],
                _remote(definition["name"]),
                dict(plain.get("annotations") or {}),
            )
        )
    return ToolSet(name, tuple(rebuilt))


async def send_raw(client: Any, method: str, params: Any) -> dict[str, Any]:
    """Send one request exactly as given, past the SDK's own checks, the way a buggy client could.

    ``client.call_tool`` cannot build a malformed request, so showing what a server does with one
    needs the session's dispatcher. Object params get the same protocol stamp (``_meta``: version,
    client info) the session puts on every request, so the server judges the params and nothing else.
    Returns the raw result; a protocol error raises ``MCPError``.
    """
    session = client.session
    data: dict[str, Any] = {"method": method, "params": dict(params) if isinstance(params, dict) else params}
    options: dict[str, Any] = {}
    if isinstance(params, dict):
        session._stamp(data, options)
    return await session._dispatcher.send_raw_request(method, data["params"], options)
