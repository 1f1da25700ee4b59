"""Scripted models: stand-ins that replay fixed replies in the Anthropic Messages format.

They are scripts, not models: each one replays the replies its behaviour and seed draw, whatever
the conversation says, so a loop can be tested against the ways real models misbehave (an
unknown tool, invalid arguments, several calls in one turn, the same call again, a write that
needs a person, a model that never stops) and against a well-behaved one. The seed changes the
ids, the customers and the order of the calls, so no fixed transcript fits two seeds.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass, field
from typing import Any

from tooldesign.tools.designed import EXAMPLES

BEHAVIOURS = (
    "well_behaved",
    "unknown_tool",
    "invalid_arguments",
    "two_calls_in_one_turn",
    "repeated_call",
    "needs_a_person",
    "never_stops",
)
CUSTOMERS = ("10023", "10051")
# A script answers at most this many steps: a loop without a budget stops here with an error.
SCRIPT_LIMIT = 40


def _id(rng: random.Random) -> str:
    return "toolu_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(20))


def _use(rng: random.Random, name: str, **arguments: Any) -> dict:
    return {"type": "tool_use", "id": _id(rng), "name": name, "input": arguments}


def _reply(*blocks: dict) -> dict:
    calls = any(b["type"] == "tool_use" for b in blocks)
    return {"role": "assistant", "content": list(blocks), "stop_reason": "tool_use" if calls else "end_turn"}


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


def _replies(behaviour: str, rng: random.Random) -> list[dict]:
    """The finite part of a script; after it, a script answers with text (or, never_stops, calls on)."""
    customer = rng.choice(CUSTOMERS)
    search = {"customer": customer, "blocked_only": True, "limit": rng.choice([None, 5, 10])}
    opening = [_text("Let me look that up.")] if rng.random() < 0.5 else []
    if behaviour == "well_behaved":
        return [_reply(*opening, _use(rng, "sales_order_search", **search))]
    if behaviour == "unknown_tool":
        wrong = rng.choice(["sales_order_release", "get_orders", "customer_lookup"])
        return [
            _reply(_use(rng, wrong, customer=customer)),
            _reply(_use(rng, "sales_order_search", **search)),
        ]
    if behaviour == "invalid_arguments":
        bad: dict[str, Any] = rng.choice(
            [{"sales_order": "SO-4711"}, {"sales_order": 4711}, {"order": "4711"}]
        )
        return [
            _reply(*opening, _use(rng, "sales_order_get_block_summary", **bad)),
            _reply(_use(rng, "sales_order_get_block_summary", sales_order="4711", detail="concise")),
        ]
    if behaviour == "two_calls_in_one_turn":
        calls = [
            _use(rng, "sales_order_search", **search),
            _use(rng, "customer_get_credit_exposure", customer="10023", sales_order="4711"),
        ]
        if rng.random() < 0.5:
            calls.append(_use(rng, "customer_get_address_gaps", customer="10051"))
        rng.shuffle(calls)
        return [_reply(*opening, *calls)]
    if behaviour == "repeated_call":
        first = _use(rng, "sales_order_search", **search)
        again = dict(first, id=_id(rng))
        return [_reply(first), _reply(*opening, again)]
    if behaviour == "needs_a_person":
        write = _use(rng, "release_request_create", **EXAMPLES["release_request_create"])
        return [_reply(_use(rng, "sales_order_search", **search)), _reply(*opening, write)]
    if behaviour == "never_stops":
        return []
    raise ValueError(f"no script named {behaviour!r}; use one of {', '.join(BEHAVIOURS)}")


@dataclass
class ScriptedModel:
    """A script that answers ``respond(messages, tools)`` like a model would. Not a model."""

    behaviour: str
    seed: int = 0
    replies: list[dict] = field(init=False)
    asked: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(f"{self.behaviour}:{self.seed}")
        self.replies = _replies(self.behaviour, self._rng)

    def respond(self, messages: list[dict], tools: list[dict]) -> dict:
        if self.asked >= SCRIPT_LIMIT:
            raise RuntimeError(
                f"the script answered {SCRIPT_LIMIT} steps and the loop kept asking: give the loop a step budget"
            )
        self.asked += 1
        return self.reply(self.asked - 1)

    def reply(self, step: int) -> dict:
        """The reply at ``step`` (0-based), the same each time it is asked for."""
        while len(self.replies) <= step:
            if self.behaviour == "never_stops":
                n = len(self.replies)
                self.replies.append(
                    _reply(
                        _use(
                            self._rng, "sales_order_search", customer="10023", blocked_only=False, limit=n + 1
                        )
                    )
                )
            else:
                self.replies.append(
                    _reply(_text("Order 4711 of customer 10023 is blocked by the credit check."))
                )
        return self.replies[step]


def scripted(behaviour: str, seed: int = 0) -> ScriptedModel:
    """The scripted stand-in for ``behaviour`` (one of BEHAVIOURS), its variations drawn from ``seed``."""
    if behaviour not in BEHAVIOURS:
        raise ValueError(f"no script named {behaviour!r}; use one of {', '.join(BEHAVIOURS)}")
    return ScriptedModel(behaviour, seed)


def as_model(model: Any) -> Any:
    """A model as given, or the scripted one a plain ``{"script": name, "seed": n}`` names.

    The check hands a loop plain data (so a grader can run it in another kernel); this turns it
    into the script. Anything with ``respond`` is returned as it is.
    """
    if hasattr(model, "respond"):
        return model
    if isinstance(model, dict) and isinstance(model.get("script"), str):
        return scripted(model["script"], int(model.get("seed", 0)))
    raise TypeError('give a model with respond(messages, tools), or {"script": name, "seed": n}')
