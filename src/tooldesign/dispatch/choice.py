"""tool_choice in a small, deterministic loop: auto, any, a named tool, none.

Some steps must happen, and no description makes them certain. An instruction in the prompt
("always read the order first") is advice: a model follows it most of the time, which is what
produces intermittent failures. ``tool_choice`` is configuration: ``any`` obliges some call,
``{"type": "tool", "name": ...}`` obliges that one, ``none`` forbids calls. Under ``any`` and a
named tool the API prefills the assistant turn, so no text precedes the call.

The "model" here is an offline stand-in, labelled as such. Its share of instructions followed is a
parameter of the stand-in (an assumption for the demonstration), not a measurement of any model.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tooldesign.dispatch.calls import ToolCall, ToolResult
from tooldesign.dispatch.validate import Dispatcher
from tooldesign.selection import Picker, WordMatchPicker
from tooldesign.tools.base import Tool, ToolSet, echo

AUTO: dict = {"type": "auto"}
ANY: dict = {"type": "any"}
NONE: dict = {"type": "none"}


def named(name: str) -> dict:
    """The tool_choice that obliges one named tool."""
    return {"type": "tool", "name": name}


def check_tool_choice(choice: Mapping[str, Any], names: Sequence[str]) -> None:
    """Reject a tool_choice the API would reject: an unknown type, or a name not offered."""
    kind = choice.get("type")
    if kind not in ("auto", "any", "tool", "none"):
        raise ValueError(f"tool_choice type must be auto, any, tool or none, not {echo(kind)}")
    if kind == "tool" and choice.get("name") not in names:
        raise ValueError(
            f"tool_choice names {echo(choice.get('name'))}, which is not among the tools: {list(names)}"
        )
    if kind == "any" and not names:
        raise ValueError("tool_choice any needs at least one tool")


def ranked(picker: Picker, request: str, tools: Sequence[Tool]) -> list[str]:
    """The picker's choice first, then every other tool it scored above zero."""
    choice = picker.pick(request, list(tools))
    names = [choice.tool] if choice.tool else []
    return names + [n for n, score in choice.ranking if score > 0 and n not in names]


@dataclass(frozen=True)
class Turn:
    """One assistant turn: text, proposed calls, or both (only under auto)."""

    text: str
    calls: tuple[ToolCall, ...] = ()


_ORDER = re.compile(r"\b(4\d{3})\b")
_CUSTOMER = re.compile(r"\b(1\d{4})\b")


def fill_arguments(request: str, tool: Tool) -> dict:
    """The stand-in's arguments: numbers read off the request, the first enum value, nulls.

    It is deliberately literal. Whatever it cannot find it leaves empty, and the dispatcher's
    validation decides whether that is acceptable.
    """
    schema = tool.parameters
    args: dict[str, Any] = {}
    for name in schema.get("required", []):
        spec = schema.get("properties", {}).get(name, {})
        kinds = spec.get("type", "string")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        order, customer = _ORDER.search(request), _CUSTOMER.search(request)
        if "order" in name and order:
            args[name] = order.group(1)
        elif "customer" in name and customer:
            args[name] = customer.group(1)
        elif "enum" in spec:
            args[name] = spec["enum"][0]
        elif "null" in kinds:
            args[name] = None
        elif "boolean" in kinds:
            args[name] = False
        elif "string" in kinds and name not in ("sales_order", "customer"):
            args[name] = f"Requested by the clerk: {request}"
    return args


def firmness(instructions: str) -> int:
    """How hard an instruction shouts: capitalised words and emphasis markers."""
    return len(re.findall(r"\b(?:MUST|ALWAYS|NEVER|IMPORTANT|CRITICAL)\b|!", instructions))


@dataclass
class StandIn:
    """An offline stand-in for a model answering under a tool_choice.

    Under auto it calls the tool its picker ranks first, then answers in text. It follows a
    "call X first" instruction with probability ``1 - miss * 0.7 ** firmness``: firmer wording
    helps and never reaches certainty. That formula is the demonstration's assumption, not a
    property of any real model.
    """

    picker: Picker = field(default_factory=WordMatchPicker)
    seed: int = 0
    miss: float = 0.3
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def respond(
        self,
        request: str,
        tools: Sequence[Tool],
        choice: Mapping[str, Any],
        instructions: str = "",
        done: Sequence[str] = (),
        turn: int = 1,
    ) -> Turn:
        names = [t.name for t in tools]
        check_tool_choice(choice, names)
        by_name = {t.name: t for t in tools}
        kind = choice["type"]
        call_id = f"call_{turn}"
        if kind == "none":
            return Turn(f"(answers in text from what it has: {', '.join(done) or 'no tool results'})")
        if kind == "tool":  # prefilled by the API: the call, and no text before it
            tool = by_name[choice["name"]]
            return Turn("", (ToolCall(tool.name, fill_arguments(request, tool), call_id),))
        if kind == "any":  # some call is obliged: the best one not yet made
            order = [n for n in ranked(self.picker, request, tools) if n not in done]
            name = (order or [n for n in names if n not in done] or names)[0]
            return Turn("", (ToolCall(name, fill_arguments(request, by_name[name]), call_id),))
        required = re.search(r"call (\w+) first", instructions)
        if (
            required
            and required.group(1) in by_name
            and not done
            and self.rng.random() >= self.miss * 0.7 ** firmness(instructions)
        ):
            name = required.group(1)
            return Turn(
                "Let me check that first.",
                (ToolCall(name, fill_arguments(request, by_name[name]), call_id),),
            )
        top = self.picker.pick(request, list(tools)).tool
        if top is None or top in done:  # the job is done, or no tool fits: answer in text
            return Turn("Here is what I found." if done else "I can answer that without a tool.")
        return Turn("Let me look that up.", (ToolCall(top, fill_arguments(request, by_name[top]), call_id),))


@dataclass(frozen=True)
class Step:
    turn: int
    choice: str
    text: str
    call: str | None
    arguments: Mapping[str, Any] | None
    is_error: bool | None


def _choice_label(choice: Mapping[str, Any]) -> str:
    return f"tool:{choice['name']}" if choice["type"] == "tool" else choice["type"]


def run_loop(
    request: str,
    tools: ToolSet,
    model: StandIn,
    first: Mapping[str, Any] = AUTO,
    later: Mapping[str, Any] = AUTO,
    instructions: str = "",
    dispatcher: Dispatcher | None = None,
    max_turns: int = 4,
) -> list[Step]:
    """Turns until the stand-in answers in text or the turn budget runs out.

    ``first`` applies to the first request only, then ``later``: naming a tool on every turn would
    loop forever on the same call.
    """
    dispatcher = dispatcher or Dispatcher(tools)
    steps: list[Step] = []
    done: list[str] = []
    for turn in range(1, max_turns + 1):
        choice = first if turn == 1 else later
        reply = model.respond(request, list(tools), choice, instructions, tuple(done), turn)
        if not reply.calls:
            steps.append(Step(turn, _choice_label(choice), reply.text, None, None, None))
            break
        for call in reply.calls:
            result: ToolResult = dispatcher.dispatch(call)
            done.append(call.name)
            steps.append(
                Step(
                    turn, _choice_label(choice), reply.text, call.name, dict(call.arguments), result.is_error
                )
            )
    return steps


# Lesson 12's setting: a release request whose process requires reading the order's block first.
FIRST_STEP_REQUEST = "Release order 4711, the customer has promised to pay."
FIRST_STEP = "sales_order_get_block_summary"


@dataclass(frozen=True)
class Setting:
    """One way of asking for the first step: a tool_choice (Anthropic's spelling) and an instruction."""

    label: str
    choice: Mapping[str, Any]
    instructions: str = ""


def lesson_settings(step: str = FIRST_STEP) -> tuple[Setting, ...]:
    """The settings lesson 12 compares: instructions of rising firmness under auto, then each
    configured choice (the named tool, any, none); ``tooldesign record`` asks a real model each one."""
    return (
        Setting("auto, no instruction", AUTO),
        Setting("auto, 'call it first'", AUTO, f"Always call {step} first."),
        Setting("auto, shouted", AUTO, f"IMPORTANT: you MUST ALWAYS call {step} first!"),
        Setting("tool_choice names it", named(step)),
        Setting("tool_choice any", ANY),
        Setting("tool_choice none", NONE),
    )


def first_calls(
    request: str,
    tools: ToolSet,
    first: Mapping[str, Any],
    instructions: str = "",
    seeds: Sequence[int] = range(100),
    picker: Picker | None = None,
) -> list[str | None]:
    """The first tool called in each of several seeded runs: how often did the required step come first?"""
    out = []
    for seed in seeds:
        reply = StandIn(picker or WordMatchPicker(), seed=seed).respond(
            request, list(tools), first, instructions
        )
        out.append(reply.calls[0].name if reply.calls else None)
    return out
