"""Which part of a request a provider can read from its prompt cache after a change.

A cached prefix is built in the order tools, then system, then messages. A change invalidates
its own part and everything after it: a changed tools array leaves nothing cached, a changed
system prompt keeps the tools, and a changed ``tool_choice`` keeps tools and system but not the
messages (the table on Anthropic's prompt caching page, cited in docs/references.md). Adding a message at the end
changes nothing before it, which is why an agent loop caches so well.

This is a model of the documented rule, not a provider: it compares two request bodies and
reports the first part that differs, with the estimated tokens before it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tooldesign.tokens import estimate_tokens


class Segment(str, Enum):
    """The parts of a prefix, in the order a cache reads them; NONE: nothing changed before the new turn."""

    TOOLS = "tools"
    SYSTEM = "system"
    MESSAGES = "messages"
    NONE = "none"


@dataclass(frozen=True)
class CacheVerdict:
    """The first part a change invalidates, and the estimated tokens still read from the cache."""

    broken_at: Segment
    cached_tokens: int
    sent_tokens: int
    why: str


def _plain(value: Any) -> Any:
    """An SDK block (a pydantic model, as a reply's content holds) as the JSON it is sent as."""
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_none=True)
    raise TypeError(f"{type(value).__name__} is not part of a request body")


def _tokens(value: Any) -> int:
    return (
        estimate_tokens(json.dumps(value, sort_keys=True, ensure_ascii=False, default=_plain)) if value else 0
    )


def _common_messages(before: list, after: list) -> int:
    count = 0
    for old, new in zip(before, after):
        if old != new:
            break
        count += 1
    return count


def cache_verdict(before: Mapping[str, Any], after: Mapping[str, Any]) -> CacheVerdict:
    """Compare two request bodies (Anthropic Messages shape) in cache order; say what stays cached."""
    tools_b, tools_a = before.get("tools") or [], after.get("tools") or []
    system_b, system_a = before.get("system") or "", after.get("system") or ""
    msgs_b, msgs_a = list(before.get("messages") or []), list(after.get("messages") or [])
    sent = _tokens(tools_a) + _tokens(system_a) + sum(_tokens(m) for m in msgs_a)
    if tools_b != tools_a:
        return CacheVerdict(
            Segment.TOOLS, 0, sent, "the tools array changed: nothing before it, nothing cached"
        )
    cached = _tokens(tools_a)
    if system_b != system_a:
        return CacheVerdict(
            Segment.SYSTEM, cached, sent, "the system prompt changed: only the tools are cached"
        )
    cached += _tokens(system_a)
    if before.get("tool_choice") != after.get("tool_choice"):
        return CacheVerdict(
            Segment.MESSAGES, cached, sent, "tool_choice changed: tools and system stay, messages do not"
        )
    shared = _common_messages(msgs_b, msgs_a)
    cached += sum(_tokens(m) for m in msgs_a[:shared])
    if shared < len(msgs_b):
        return CacheVerdict(
            Segment.MESSAGES, cached, sent, f"message {shared + 1} changed: the messages after it are new"
        )
    return CacheVerdict(
        Segment.NONE, cached, sent, "only new turns at the end: everything sent before is cached"
    )
