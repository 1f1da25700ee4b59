"""What a loop sends: the whole conversation, again, on every model call.

A model API keeps no state between calls. Each step of a tool loop therefore sends the system
prompt, the tool definitions, the user's request and every call and result so far, and only then
gets the next call back. A result is paid for once per later step, not once. This module runs a
scripted task step by step and measures what each model call carries, in characters and in
estimated tokens (characters / 4, the course's offline estimate: no tokenizer is downloaded).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tooldesign.dispatch import Decision, Dispatcher, ToolCall, fixed
from tooldesign.loop.caching import CacheSplit
from tooldesign.tokens import chars_to_tokens
from tooldesign.tools import ToolSet, tool_set

__all__ = [
    "SYSTEM_PROMPT",
    "Exchange",
    "CallCost",
    "Run",
    "Carrier",
    "as_is",
    "run_steps",
    "text_of",
]

SYSTEM_PROMPT = (
    "You help order-to-cash clerks. Use the tools to look things up; never change an order "
    "yourself; propose releases for a person to approve."
)


def text_of(value: Any) -> str:
    """A value as the text that enters the context: strings as they are, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Exchange:
    """One round trip carried in the context: the model's tool call and the result text it got back."""

    call: ToolCall
    result: str

    @property
    def chars(self) -> int:
        return len(json.dumps(self.call.block(), ensure_ascii=False)) + len(self.result)


@dataclass(frozen=True)
class CallCost:
    """One model call: what it sent, split into the fixed part and the conversation so far."""

    number: int
    label: str
    fixed_chars: int  # system prompt, tool definitions, the user's request
    conversation_chars: int  # every call and result carried so far

    @property
    def chars(self) -> int:
        return self.fixed_chars + self.conversation_chars

    @property
    def tokens(self) -> int:
        return chars_to_tokens(self.chars)


@dataclass(frozen=True)
class Run:
    """A scripted task run to the end: the exchanges carried and the cost of each model call."""

    name: str
    exchanges: tuple[Exchange, ...]
    calls: tuple[CallCost, ...]

    @property
    def total_chars(self) -> int:
        """Characters sent over the whole task: each call re-sends everything before it."""
        return sum(c.chars for c in self.calls)

    @property
    def total_tokens(self) -> int:
        return chars_to_tokens(self.total_chars)

    @property
    def context(self) -> str:
        """Everything the last model call carried in its conversation: what a final answer can draw on."""
        return "\n".join(e.result for e in self.exchanges)

    def cache_splits(self) -> list[CacheSplit]:
        """Each model call's tokens as sent and as a warm prompt cache would re-read them.

        The conversation only grows at its end, so everything call k-1 sent is call k's unchanged
        prefix: read from the cache, while only the newest round trip is new.
        """
        splits, before = [], 0
        for c in self.calls:
            splits.append(CacheSplit(c.tokens, chars_to_tokens(before)))
            before = c.chars
        return splits

    def rows(self) -> list[dict]:
        """One row per model call, with running totals, ready for a table."""
        out, running = [], 0
        for c, split in zip(self.calls, self.cache_splits()):
            running += c.chars
            out.append(
                {
                    "run": self.name,
                    "model call": c.number,
                    "after": c.label,
                    "chars sent": c.chars,
                    "tokens sent (est.)": c.tokens,
                    "read from cache (est.)": split.from_cache,
                    "at full price (est.)": split.full_price,
                    "tokens so far (est.)": chars_to_tokens(running),
                }
            )
        return out


# A carrier decides what of one result goes into the context, and may add round trips (a cursor).
Carrier = Callable[[ToolCall, Any, Callable[[ToolCall], Any]], list[Exchange]]


def as_is(call: ToolCall, result: Any, run_again: Callable[[ToolCall], Any]) -> list[Exchange]:
    """Carry the result exactly as the tool returned it (what most first loops do)."""
    return [Exchange(call, text_of(result))]


def _dispatcher(tools: ToolSet) -> Dispatcher:
    # In the scripted run the clerk (a person) allows the proposed draft; the gate still records it.
    return Dispatcher(tools, person_decides=fixed(Decision.allow()))


def run_steps(
    name: str,
    set_name: str,
    request: str,
    steps: Sequence[ToolCall],
    carrier: Carrier = as_is,
    tools: ToolSet | None = None,
) -> Run:
    """Run ``steps`` through the dispatcher and measure every model call the loop makes.

    Model call 1 sends the fixed part alone; each tool call's result then joins the conversation,
    and the next model call sends it again. The last model call writes the answer.
    """
    tools = tools or tool_set(set_name)
    dispatcher = _dispatcher(tools)

    def run_one(call: ToolCall) -> Any:
        return dispatcher.dispatch(call).content

    fixed_chars = len(SYSTEM_PROMPT) + len(json.dumps(tools.definitions(), ensure_ascii=False)) + len(request)
    exchanges: list[Exchange] = []
    calls = [CallCost(1, "the request", fixed_chars, 0)]
    for step in steps:
        for exchange in carrier(step, run_one(step), run_one):
            exchanges.append(exchange)
            calls.append(
                CallCost(len(calls) + 1, exchange.call.name, fixed_chars, sum(e.chars for e in exchanges))
            )
    return Run(name, tuple(exchanges), tuple(calls))
