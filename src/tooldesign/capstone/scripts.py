"""Scripted models: stand-ins that replay fixed replies in the Anthropic Messages format.

They are scripts, not models: each one replays the replies its behaviour and seed draw, whatever
the conversation says, so a loop can be tested against the ways a run goes wrong (an unknown tool,
invalid arguments, several calls in one turn, the same call again, a write that needs a person, a
model that never stops) and against every ``stop_reason`` the Messages API documents for a loop: a
reply cut off at ``max_tokens`` in the middle of a call, a turn a server tool paused
(``pause_turn``), a ``refusal``. The seed changes the ids, the customers and the order of the
calls, so no fixed transcript fits two seeds.

Every reply is built as the SDK's typed ``anthropic.types.Message`` (so a block or a stop reason the
pinned SDK does not know is refused here) and handed over as ``capstone.agent.message_reply`` hands
over a real one. What a script answers depends on two things only: how many assistant turns the
conversation already holds (its step) and the ``max_tokens`` it is asked with. A reply's size in
output tokens is a number the script draws, not the length of its text; asked with less, the script
answers with the reply cut off there, ``stop_reason: "max_tokens"``.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass, field
from typing import Any

from tooldesign.capstone.agent import FIRST_BUDGET, message_reply
from tooldesign.tokens import chars_to_tokens

BEHAVIOURS = (
    "well_behaved",
    "unknown_tool",
    "invalid_arguments",
    "two_calls_in_one_turn",
    "repeated_call",
    "needs_a_person",
    "never_stops",
    "cut_off_mid_call",
    "always_cut_off",
    "paused_turn",
    "refuses",
)
CUSTOMERS = ("10023", "10051")
# A script answers at most this many model calls: a loop without a bound stops here with an error.
SCRIPT_LIMIT = 40
ANSWER = "Order 4711 of customer 10023 is blocked by the credit check."
REFUSAL_DETAILS = {
    "type": "refusal",
    "category": None,
    "explanation": None,
}  # stop_details, as the SDK types it


def _id(rng: random.Random, prefix: str = "toolu_") -> str:
    return prefix + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(20))


def _use(rng: random.Random, name: str, **arguments: Any) -> dict:
    return {"type": "tool_use", "id": _id(rng), "name": name, "input": arguments}


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


def _typed(
    blocks: list[dict], stop: str, output_tokens: int, rng: random.Random, details: dict | None = None
) -> dict:
    """One reply, validated as the SDK's ``Message`` and dumped as a real reply is."""
    # The SDK is loaded with the first reply: naming the behaviours (an exercise's probes) stays light.
    from anthropic.types import Message

    message = Message.model_validate(
        {
            "id": _id(rng, "msg_"),
            "type": "message",
            "role": "assistant",
            "model": "scripted",
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "stop_details": details,
            "usage": {"input_tokens": 0, "output_tokens": output_tokens},
        }
    )
    return message_reply(message)


@dataclass(frozen=True)
class ScriptTurn:
    """One reply of a script: whole (``full``) when asked with at least ``need`` output tokens,
    else ``cut`` (stop_reason max_tokens); ``need`` None is a reply that never ends, always cut."""

    full: dict
    need: int | None
    cut: dict

    def at(self, max_tokens: int) -> dict:
        return self.cut if self.need is None or max_tokens < self.need else self.full

    @property
    def stop_reason(self) -> str:
        return str(self.full["stop_reason"])


def _turn(
    rng: random.Random, *blocks: dict, stop: str | None = None, details: dict | None = None
) -> ScriptTurn:
    """A reply small enough for any budget a loop asks with (its size: characters / 4)."""
    blocks_ = list(blocks)
    stop = stop or ("tool_use" if any(b["type"] == "tool_use" for b in blocks_) else "end_turn")
    need = max(1, chars_to_tokens(len(str(blocks_))))
    full = _typed(blocks_, stop, need, rng, details)
    return ScriptTurn(full, need, full)


def _cut_in_call(rng: random.Random, blocks: list[dict], need: int | None) -> ScriptTurn:
    """A reply whose last block is a call; cut, that call keeps only the arguments written before the cut."""
    *head, call = blocks
    written = dict(list(call["input"].items())[:1])
    cut = _typed([*head, dict(call, input=written)], "max_tokens", FIRST_BUDGET, rng)
    full = _typed(blocks, "tool_use", need or FIRST_BUDGET, rng)
    return ScriptTurn(full, need, cut)


def _search(rng: random.Random, customer: str) -> dict:
    return _use(
        rng, "sales_order_search", customer=customer, blocked_only=True, limit=rng.choice([None, 5, 10])
    )


def _paused(rng: random.Random, customer: str) -> list[ScriptTurn]:
    """A turn Anthropic's web search tool (a server tool) runs: paused once or twice, then a call."""
    topics = ["credit block release procedure", "credit limit review for a key account"]
    turns: list[ScriptTurn] = []
    before: list[dict] = []
    for n in range(rng.choice([1, 2])):
        search_id = _id(rng, "srvtoolu_")
        search: dict[str, Any] = {
            "type": "server_tool_use",
            "id": search_id,
            "name": "web_search",
            "input": {"query": topics[n]},
        }
        opening = [_text("Let me check how a credit block is released.")] if n == 0 else []
        turns.append(_turn(rng, *before, *opening, search, stop="pause_turn"))
        before = [_found(rng, search_id, topics[n])]
    turns.append(_turn(rng, *before, _search(rng, customer)))
    return turns


def _found(rng: random.Random, search_id: str, topic: str) -> dict:
    page = {
        "type": "web_search_result",
        "title": topic.capitalize(),
        "url": "https://example.com/credit-management",
        "encrypted_content": _id(rng, ""),
    }
    return {"type": "web_search_tool_result", "tool_use_id": search_id, "content": [page]}


def _refusal(rng: random.Random, call: bool = False) -> ScriptTurn:
    """A reply a classifier stopped while it streamed: what was written before stays, a call included
    (always in the first refusal of a script, on some seeds in the later ones)."""
    from tooldesign.tools.designed import EXAMPLES

    blocks = [_text("Order 4711 of customer 10023 is blocked because")]
    if call or rng.random() < 0.5:
        blocks.append(_use(rng, "customer_get_credit_exposure", **EXAMPLES["customer_get_credit_exposure"]))
    return _turn(rng, *blocks, stop="refusal", details=REFUSAL_DETAILS)


def _turns(behaviour: str, rng: random.Random) -> list[ScriptTurn]:
    """The finite part of a script; after it, a script answers with text (or calls on, refuses on...)."""
    customer = rng.choice(CUSTOMERS)
    search = {"customer": customer, "blocked_only": True, "limit": rng.choice([None, 5, 10])}
    opening = [_text("Let me look that up.")] if rng.random() < 0.5 else []
    if behaviour == "well_behaved":
        return [_turn(rng, *opening, _use(rng, "sales_order_search", **search))]
    if behaviour == "unknown_tool":
        wrong = rng.choice(["sales_order_release", "get_orders", "customer_lookup"])
        return [
            _turn(rng, _use(rng, wrong, customer=customer)),
            _turn(rng, _use(rng, "sales_order_search", **search)),
        ]
    if behaviour == "invalid_arguments":
        bad: dict[str, Any] = rng.choice(
            [{"sales_order": "SO-4711"}, {"sales_order": 4711}, {"order": "4711"}]
        )
        return [
            _turn(rng, *opening, _use(rng, "sales_order_get_block_summary", **bad)),
            _turn(rng, _use(rng, "sales_order_get_block_summary", sales_order="4711", detail="concise")),
        ]
    if behaviour == "two_calls_in_one_turn":
        calls = [
            _use(rng, "sales_order_search", **search),
            _use(rng, "customer_get_credit_exposure", customer="10023", sales_order="4711"),
        ]
        if rng.random() < 0.5:
            calls.append(_use(rng, "customer_get_address_gaps", customer="10051"))
        rng.shuffle(calls)
        return [_turn(rng, *opening, *calls)]
    if behaviour == "repeated_call":
        first = _use(rng, "sales_order_search", **search)
        again = dict(first, id=_id(rng))
        return [_turn(rng, first), _turn(rng, *opening, again)]
    if behaviour == "needs_a_person":
        from tooldesign.tools.designed import EXAMPLES

        write = _use(rng, "release_request_create", **EXAMPLES["release_request_create"])
        return [_turn(rng, _use(rng, "sales_order_search", **search)), _turn(rng, *opening, write)]
    if behaviour == "never_stops":
        return []
    if behaviour == "cut_off_mid_call":
        # fits in twice the first budget, not in the first: one retry with a doubled max_tokens gets it whole
        plan = _text(
            f"I will list the blocked orders of customer {customer}, then read why each one is blocked."
        )
        call = _use(
            rng, "sales_order_search", customer=customer, blocked_only=True, limit=rng.choice([5, 10])
        )
        return [_cut_in_call(rng, [plan, call], rng.randint(FIRST_BUDGET + 50, 2 * FIRST_BUDGET - 50))]
    if behaviour == "always_cut_off":
        # a reply that never ends: cut whatever the budget, on some seeds in the middle of a call
        blocks = [_text(" ".join(["The credit check holds the order, and the credit check"] * 8))]
        if rng.random() < 0.5:
            blocks.append(_use(rng, "customer_get_credit_exposure", customer="10023"))
        cut = _typed(blocks, "max_tokens", FIRST_BUDGET, rng)
        return [_turn(rng, _use(rng, "sales_order_search", **search)), ScriptTurn(cut, None, cut)]
    if behaviour == "paused_turn":
        return _paused(rng, customer)
    if behaviour == "refuses":
        return [_turn(rng, _use(rng, "sales_order_search", **search)), _refusal(rng, call=True)]
    raise ValueError(f"no script named {behaviour!r}; use one of {', '.join(BEHAVIOURS)}")


def assistant_turns(messages: Any) -> int:
    """How many assistant turns a conversation holds: the step a script answers at."""
    if not isinstance(messages, (list, tuple)):
        return 0
    return sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")


@dataclass
class ScriptedModel:
    """A script that answers ``respond(messages, tools, max_tokens)`` like a model would. Not a model."""

    behaviour: str
    seed: int = 0
    turns: list[ScriptTurn] = field(init=False)
    asked: int = field(default=0, init=False)
    last: dict | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(f"{self.behaviour}:{self.seed}")
        self.turns = _turns(self.behaviour, self._rng)

    def respond(self, messages: list[dict], tools: list[dict], max_tokens: int = FIRST_BUDGET) -> dict:
        if self.asked >= SCRIPT_LIMIT:
            raise RuntimeError(self._limit_message())
        self.asked += 1
        budget = max_tokens if type(max_tokens) is int else FIRST_BUDGET
        self.last = self.turn(assistant_turns(messages)).at(budget)
        return self.last

    def _limit_message(self) -> str:
        said = (self.last or {}).get("stop_reason")
        head = f"the script answered {SCRIPT_LIMIT} model calls and the loop kept asking"
        if said == "max_tokens":
            return (
                f"{head} after stop_reason max_tokens: ask again at most MAX_TOKENS_RETRIES times with a doubled "
                "max_tokens, then stop with StopReason.CUT_OFF; count every model call against the step budget"
            )
        if said == "refusal":
            return f"{head} after stop_reason refusal: stop at a refusal with StopReason.REFUSED, do not ask again"
        return f"{head}: give the loop a step budget"

    def turn(self, step: int) -> ScriptTurn:
        """The reply at ``step`` (0-based, assistant turns so far), the same each time it is asked for."""
        while len(self.turns) <= step:
            n = len(self.turns)
            if self.behaviour == "never_stops":
                use = _use(self._rng, "sales_order_search", customer="10023", blocked_only=False, limit=n + 1)
                self.turns.append(_turn(self._rng, use))
            elif self.behaviour == "refuses":  # a refusal stays: the same context is refused again
                self.turns.append(_refusal(self._rng))
            else:
                self.turns.append(_turn(self._rng, _text(ANSWER)))
        return self.turns[step]

    def reply(self, step: int, max_tokens: int = FIRST_BUDGET) -> dict:
        """The reply at ``step`` as the script gives it when asked with ``max_tokens``."""
        return self.turn(step).at(max_tokens)


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
