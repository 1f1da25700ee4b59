"""What a served tool returns: a result schema per tool, and one result split into MCP's two forms.

A tool definition names its inputs; an MCP tool can also name its outputs (``outputSchema``), which is
MCP's answer to notebook 08's "name the result fields". A client that has listed the tool checks every
successful result against that schema, so a schema here is a promise the tests hold the tools to.

This module does not import the ``mcp`` package: the schemas and the split are plain data, so the
lint, the tests and the benchmark can use them without starting a server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tooldesign.tools.base import Tool

__all__ = ["OUTPUT_SCHEMAS", "ANY_OBJECT", "output_schema", "Split", "split_result", "is_error_result"]

# The mirror names no result field, like the API it copies: its served schema says only "an object".
ANY_OBJECT: dict[str, Any] = {"type": "object"}

_TEXT = {"type": "string"}
_NUMBER = {"type": "number"}
_BOOL = {"type": "boolean"}
_COUNT = {"type": "integer", "minimum": 0}


def _object(required: Mapping[str, Any], optional: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A closed object: every field the tool returns is named, and nothing else may appear."""
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": list(required),
        "additionalProperties": False,
    }


_ITEM = _object(
    {"item": _TEXT, "material": _TEXT, "text": _TEXT, "quantity": {"type": "integer"}, "net_value": _NUMBER}
)
_ORDER_ROW = _object({"sales_order": _TEXT, "net_value": _NUMBER, "blocked": _BOOL, "block_reason": _TEXT})

OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "sales_order_get_block_summary": _object(
        {
            "sales_order": _TEXT,
            "customer": _TEXT,
            "customer_name": _TEXT,
            "net_value": _NUMBER,
            "currency": _TEXT,
            "blocked": _BOOL,
            "block_reason": _TEXT,
        },
        # only with detail "detailed"
        {
            "created_on": _TEXT,
            "requested_delivery_date": _TEXT,
            "customer_po": _TEXT,
            "sales_organization": _TEXT,
            "items": {"type": "array", "items": _ITEM},
        },
    ),
    "customer_get_credit_exposure": _object(
        {
            "customer": _TEXT,
            "customer_name": _TEXT,
            "credit_limit": _NUMBER,
            "open_items": _NUMBER,
            "order_value": _NUMBER,
            "exposure": _NUMBER,
            "percent_over_limit": {"type": "number", "minimum": 0},
            "approver": {"type": "string", "enum": ["none", "CREDIT_MANAGER", "HEAD_OF_FINANCE"]},
            "currency": _TEXT,
        }
    ),
    "customer_get_address_gaps": _object(
        {
            "customer": _TEXT,
            "customer_name": _TEXT,
            "missing_fields": {
                "type": "array",
                "items": {"enum": ["street", "postal_code", "city", "country"]},
            },
            "complete": _BOOL,
        }
    ),
    "sales_order_search": _object(
        {
            "customer": _TEXT,
            "total": _COUNT,
            "showing": _COUNT,
            "orders": {"type": "array", "items": _ORDER_ROW},
        },
        {"note": _TEXT},
    ),  # only when the list was cut short
    "release_request_create": _object(
        {
            "request_id": _TEXT,
            "sales_order": _TEXT,
            # a draft is all this tool can make: no status here means "released"
            "status": {"type": "string", "enum": ["waiting_for_approval"]},
            "justification": _TEXT,
            "message": _TEXT,
        }
    ),
}


def output_schema(tool: Tool) -> dict[str, Any]:
    """The result schema a server lists for ``tool``: its named fields, or "an object" when none are named."""
    return OUTPUT_SCHEMAS.get(tool.name, ANY_OBJECT)


def is_error_result(result: Any) -> bool:
    """The course's tools report a failure as ``{"error": "<what to do>"}`` and nothing else."""
    return isinstance(result, dict) and set(result) == {"error"} and isinstance(result["error"], str)


@dataclass(frozen=True)
class Split:
    """One tool result as MCP carries it: text for any reader, structured content for a program."""

    is_error: bool
    text: str
    structured: dict[str, Any] | None  # None for an error: the client reads the text


def split_result(result: Any) -> Split:
    """Turn a handler's return value into MCP's text and structured forms.

    An error keeps only its message as text, so the model reads an instruction, not JSON. A success
    sends the same object twice: as ``structuredContent`` and, serialised, as text, which is what a
    client that ignores structured content still shows the model.
    """
    if is_error_result(result):
        return Split(True, result["error"], None)
    if isinstance(result, dict):
        return Split(False, json.dumps(result, ensure_ascii=False), result)
    # MCP's structured content must be an object, so a bare value travels inside one.
    wrapped = {"value": result}
    return Split(False, json.dumps(wrapped, ensure_ascii=False), wrapped)
