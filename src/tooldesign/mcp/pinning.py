"""The host's side of a changing server: pin each definition when a person approves it, compare later.

A person approves a third-party server by reading its tools once. Nothing in MCP stops the server
from listing other words the next time: ``tools/list`` answers with whatever the server holds now,
and a server that declares ``listChanged`` may even say that it changed. A description is text the
model reads as guidance, so a description that changes after the approval (a "rug pull") can carry
instructions nobody approved. The host's defence is plain bookkeeping: keep a SHA-256 of each
definition as approved, compare every new listing with it, and pass the model only the tools whose
definitions are still the approved ones. A changed or new tool goes back to a person first.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tooldesign.mcp.view import as_plain

__all__ = ["DEFINITION_FIELDS", "DefinitionChange", "Pin", "changes", "digest", "pin", "still_approved"]

# Every part of a listed tool the model or the host acts on; a change in any one is a new definition.
DEFINITION_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


def _part(tool: Mapping[str, Any]) -> dict[str, Any]:
    return {key: tool[key] for key in DEFINITION_FIELDS if key in tool}


def digest(listed: Any) -> str:
    """The SHA-256 of one listed tool's definition, as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(_part(as_plain(listed)), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Pin:
    """One tool as a person approved it: its digest, and the definition itself for showing a change."""

    name: str
    sha256: str
    definition_json: str

    @property
    def definition(self) -> dict[str, Any]:
        return json.loads(self.definition_json)


def pin(listed_tools: Iterable[Any]) -> dict[str, Pin]:
    """Pins for every tool of a listing a person has just approved, by name."""
    pins = {}
    for listed in listed_tools:
        tool = _part(as_plain(listed))
        pins[tool["name"]] = Pin(
            tool["name"], digest(tool), json.dumps(tool, sort_keys=True, ensure_ascii=False)
        )
    return pins


@dataclass(frozen=True)
class DefinitionChange:
    """How one tool of a new listing differs from what was approved: "changed", "new" or "gone"."""

    tool: str
    kind: str
    fields: tuple[str, ...] = ()


def changes(pins: Mapping[str, Pin], listed_tools: Iterable[Any]) -> list[DefinitionChange]:
    """What differs between the approved pins and a new listing, tool by tool, in listing order."""
    found, seen = [], set()
    for listed in listed_tools:
        tool = _part(as_plain(listed))
        name = tool["name"]
        seen.add(name)
        if name not in pins:
            found.append(DefinitionChange(name, "new"))
        elif digest(tool) != pins[name].sha256:
            before = pins[name].definition
            fields = tuple(f for f in DEFINITION_FIELDS if before.get(f) != tool.get(f))
            found.append(DefinitionChange(name, "changed", fields))
    found += [DefinitionChange(name, "gone") for name in pins if name not in seen]
    return found


def still_approved(pins: Mapping[str, Pin], listed_tools: Iterable[Any]) -> list[dict[str, Any]]:
    """The tools of a new listing whose definitions are exactly the approved ones: all the model gets."""
    kept = []
    for listed in listed_tools:
        tool = as_plain(listed)
        name = str(tool.get("name"))
        if name in pins and digest(tool) == pins[name].sha256:
            kept.append(tool)
    return kept
