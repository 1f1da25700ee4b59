"""What serving costs in definition size: the listing a host receives beside the definitions sent directly.

A host reads ``tools/list`` and passes the model the part it needs: name, description and input schema,
which are the direct definitions byte for byte. The listing also carries the output schemas and the
annotations, for the host. Token counts are characters / 4, an estimate, as everywhere in the course.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tooldesign.mcp.view import as_plain, definition_of
from tooldesign.tokens import estimate_tokens
from tooldesign.tools.base import ToolSet

__all__ = ["SizeRow", "sizes", "size_table"]


@dataclass(frozen=True)
class SizeRow:
    set_name: str
    tools: int
    direct_tokens: int  # the definitions as the course sends them to a model
    model_tokens: int  # the part of the listing a host passes to the model
    listing_tokens: int  # the whole tools/list entries: plus output schemas and annotations

    def row(self) -> dict[str, Any]:
        return {
            "set": self.set_name,
            "tools": self.tools,
            "direct (tokens, estimate)": self.direct_tokens,
            "served, model's part": self.model_tokens,
            "served, whole listing": self.listing_tokens,
        }


def sizes(direct: ToolSet, listed: Iterable[Any]) -> SizeRow:
    """Compare one set's direct definitions with what a client listed for it."""
    plain = [as_plain(t) for t in getattr(listed, "tools", listed)]
    return SizeRow(
        direct.name,
        len(direct),
        estimate_tokens(json.dumps(direct.definitions())),
        estimate_tokens(json.dumps([definition_of(t) for t in plain])),
        estimate_tokens(json.dumps(plain)),
    )


def size_table(rows: Iterable[SizeRow]) -> list[dict[str, Any]]:
    return [r.row() for r in rows]
