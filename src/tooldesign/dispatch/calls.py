"""The two messages either side of your code: a proposed call coming in, a result going back.

A model never runs anything. It proposes a call (a name, an id and arguments), your code decides
what happens, and a result goes back carrying the same id. Keeping both as small frozen records
makes every later step (validation, approval, audit) a plain function of plain data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """A proposal from a caller that can be wrong: treat every field as untrusted input.

    ``arguments`` is usually a dict or its JSON text, but nothing guarantees it: the dispatcher
    checks it before anything else reads it.
    """

    name: str
    arguments: Mapping[str, Any] | Any
    id: str = "call_1"

    def block(self) -> dict:
        """The call as a tool_use block, the shape a model's reply carries."""
        return {
            "type": "tool_use",
            "id": self.id,
            "name": self.name,
            "input": dict(self.arguments) if isinstance(self.arguments, Mapping) else self.arguments,
        }


@dataclass(frozen=True)
class ToolResult:
    """What goes back to the model. ``is_error`` tells it the content describes a failure."""

    call_id: str
    content: Any
    is_error: bool = False
    # Kept for the audit and the lessons; the model is sent only ``block()``.
    ran: bool = field(default=False, compare=False)

    def block(self) -> dict:
        """The result as a tool_result block echoing the call's id."""
        text = self.content if isinstance(self.content, str) else json.dumps(self.content, ensure_ascii=False)
        out: dict[str, Any] = {"type": "tool_result", "tool_use_id": self.call_id, "content": text}
        if self.is_error:
            out["is_error"] = True
        return out
