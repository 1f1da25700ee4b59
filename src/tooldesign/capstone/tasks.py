"""Whole clerk tasks through the capstone's loop: did the run end where it should?

The first pick (lessons 06 and 13) says which tool a model reaches for; a task says whether the run
as a whole left the right end state. Each ``ClerkTask`` is a request on the course's fictional SAP
order-to-cash data with a known right end: which release requests were proposed for a person (the
loop never runs a write, so a proposal waiting for a person is the draft), that no other write was
proposed or ran, and which facts the answer states. ``judge`` compares a run's ``EndState`` with
that, in any order of calls, so a right run passes however it got there.

``task_rows`` runs every task through the loop with a tool set and a model, and counts steps, tool
calls and estimated tokens (``tooldesign.tokens``: characters / 4 of the tool definitions and the
conversation each model call is sent, and of each reply). ``run_task`` is the one run both use:
``task_rows`` for the scripted models, ``tooldesign record`` for a real one, whose tokens are those
its provider reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tooldesign.capstone.agent import AgentReport, CallOutcome
from tooldesign.selection.models import anthropic_tools
from tooldesign.tokens import chars_to_tokens
from tooldesign.tools import tool_set
from tooldesign.tools.base import ToolSet

RELEASE = "release_request_create"
SETS = ("mirror", "designed")  # the tool sets every task is run with
MAX_STEPS = 6  # the loop's step budget for one task, scripted or real (``tooldesign record``)


@dataclass(frozen=True)
class ClerkTask:
    """A request and its right end: release drafts proposed, and facts the answer must state.

    ``facts`` is a tuple of alternatives: each entry is a regular expression the answer must match
    (case-insensitive); a task whose right end is a proposal waiting for a person needs no answer.
    """

    name: str
    request: str
    drafts: frozenset[str] = frozenset()
    facts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.drafts and not self.facts:
            raise ValueError(f"task {self.name!r} has no end to check: give drafts or facts")


TASKS = (
    ClerkTask("why 4711", "Why is sales order 4711 blocked?", facts=(r"credit",)),
    ClerkTask(
        "customer 10051's block", "Why is customer 10051's order blocked?", facts=(r"4723", r"postal|address")
    ),
    ClerkTask(
        "exposure 10023",
        "What is customer 10023's credit exposure against its limit?",
        facts=(r"52[,.]?500", r"50[,.]?000"),
    ),
    ClerkTask(
        "who approves 4711", "Who has to approve a release of order 4711?", facts=(r"credit[_ ]manager",)
    ),
    ClerkTask("gaps 10051", "Which master data fields is customer 10051 missing?", facts=(r"postal",)),
    ClerkTask(
        "price 4725", "What blocks order 4725, and what is it worth?", facts=(r"pric|disput", r"3[,.]?900")
    ),
    ClerkTask("no such order", "Why is order 4718 blocked?", facts=(r"not exist|does not|confirm|no order",)),
    ClerkTask(
        "release 4711",
        "Ask for a release of order 4711; the customer has paid on time for years.",
        drafts=frozenset({"4711"}),
    ),
    ClerkTask(
        "release 4723",
        "Order 4723: the postal code was added today, please ask for its release.",
        drafts=frozenset({"4723"}),
    ),
)


@dataclass(frozen=True)
class EndState:
    """Where a run left things: release drafts proposed (by order), other writes, and the answer."""

    drafts: frozenset[str]
    other_writes: tuple[str, ...]
    answer: str | None


@dataclass(frozen=True)
class TaskVerdict:
    task: str
    success: bool
    problems: tuple[str, ...]


def end_state(report: AgentReport, writes: Iterable[str]) -> EndState:
    """The end a report shows. ``writes`` names the tools of the set that change data."""
    writing = set(writes)
    drafts: set[str] = set()
    others: list[str] = []
    for call in report.calls:
        if call.name not in writing or call.outcome not in (CallOutcome.PENDING, CallOutcome.RAN):
            continue
        order = call.input.get("sales_order") if isinstance(call.input, dict) else None
        if call.name == RELEASE and isinstance(order, str):
            drafts.add(order)
        else:
            others.append(call.name)
    return EndState(frozenset(drafts), tuple(others), report.answer)


def judge(task: ClerkTask, end: EndState) -> TaskVerdict:
    """Success only when the drafts are exactly the right ones, nothing else was written, and the
    answer states every fact (an answer is not needed when the right end is a draft for a person)."""
    problems = []
    if end.drafts - task.drafts:
        problems.append(
            "release requests proposed for orders nobody asked about: "
            + ", ".join(sorted(end.drafts - task.drafts))
        )
    if task.drafts - end.drafts:
        problems.append("no release request proposed for " + ", ".join(sorted(task.drafts - end.drafts)))
    if end.other_writes:
        problems.append("other writes proposed: " + ", ".join(end.other_writes))
    if not task.drafts:
        answer = end.answer or ""
        missing = [f for f in task.facts if not re.search(f, answer, re.IGNORECASE)]
        if end.answer is None:
            problems.append("no answer")
        elif missing:
            problems.append("the answer lacks " + ", ".join(missing))
    return TaskVerdict(task.name, not problems, tuple(problems))


def estimated_tokens(report: AgentReport, definitions: Sequence[dict]) -> int:
    """Tokens sent and received, estimated: each model call is sent the tool definitions and the
    conversation before its reply. Calls whose reply was cut off and asked again are not in the
    transcript, so they are not counted."""
    tools_chars = len(json.dumps(definitions))
    total, sent = 0, 0
    for message in report.transcript:
        chars = len(json.dumps(message["content"], default=str))
        if message["role"] == "assistant":
            total += chars_to_tokens(tools_chars + sent) + chars_to_tokens(chars)
        sent += chars
    return total


@dataclass(frozen=True)
class TaskRow:
    tool_set: str
    model: str
    task: str
    success: bool
    steps: int
    tool_calls: int
    tokens: int
    stop: str
    problems: str


Loop = Callable[..., AgentReport]


def run_task(
    loop: Loop, model: Any, task: ClerkTask, tools: ToolSet, max_steps: int = MAX_STEPS
) -> tuple[AgentReport, TaskVerdict]:
    """One task through ``loop(model, request, max_steps, tool_set=tools)``, and its verdict.

    ``task_rows`` uses it for the scripted models, ``tooldesign record`` for a real one, so both
    tables are judged by the same end state."""
    report = loop(model, task.request, max_steps, tool_set=tools)
    return report, judge(task, end_state(report, [t.name for t in tools if t.writes]))


def task_rows(
    loop: Loop,
    models: dict[str, Callable[[], Any]],
    sets: Sequence[str] = SETS,
    tasks: Sequence[ClerkTask] = TASKS,
    max_steps: int = MAX_STEPS,
) -> list[TaskRow]:
    """Every task through ``loop(model, request, max_steps, tool_set=...)`` for each set and model.

    ``models`` maps a label to a function that makes a fresh model for one run (a script keeps its
    place, so each run needs its own)."""
    rows = []
    for name in sets:
        tools: ToolSet = tool_set(name)
        definitions = anthropic_tools(tools)
        for label, make in models.items():
            for task in tasks:
                report, verdict = run_task(loop, make(), task, tools, max_steps)
                rows.append(
                    TaskRow(
                        name,
                        label,
                        task.name,
                        verdict.success,
                        report.steps,
                        len(report.calls),
                        estimated_tokens(report, definitions),
                        report.stop.value,
                        "; ".join(verdict.problems),
                    )
                )
    return rows


def summary(rows: Sequence[TaskRow]) -> list[dict]:
    """Per tool set and model: tasks right, and mean steps, tool calls and estimated tokens per task."""
    keys = sorted({(r.tool_set, r.model) for r in rows})
    out = []
    for set_name, model in keys:
        mine = [r for r in rows if (r.tool_set, r.model) == (set_name, model)]
        n = len(mine)
        out.append(
            {
                "tool set": set_name,
                "model": model,
                "tasks right": f"{sum(r.success for r in mine):,} of {n:,}",
                "steps per task": round(sum(r.steps for r in mine) / n, 1),
                "tool calls per task": round(sum(r.tool_calls for r in mine) / n, 1),
                "tokens per task (estimate)": round(sum(r.tokens for r in mine) / n),
            }
        )
    return out


def course_loop() -> Loop | None:
    """The capstone's reference loop, which runs the tasks with either set; None in the student
    edition, which leaves it out because it is the answer to lesson 19's exercise."""
    try:
        from tooldesign.capstone.reference import reference_loop
    except ImportError:
        return None
    return reference_loop()
