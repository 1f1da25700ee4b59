"""Lesson 19's answer: the agent loop over the designed tools and lesson 11's dispatcher.

It is the exercise the learner writes (ex19-agent-loop), so it is one home for three users that
must never reach a learner: the grader's reference, the grader's plausible mistakes (one ``fault``
each), and ``tooldesign record``, which runs a real model through the loop the grader trusts. The
student edition leaves this module out (``workbook.handout.TOOLDESIGN_LEFT_OUT``); there
``tooldesign record`` says in one line that the capstone step is the lesson's exercise and skips it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tooldesign.capstone.agent import (
    AgentReport,
    CallOutcome,
    CallRecord,
    StopReason,
    course_dispatcher,
    tool_definitions,
)
from tooldesign.capstone.scripts import as_model
from tooldesign.dispatch import ToolCall, allow_all

__all__ = ["FAULTS", "reference_loop"]

FAULTS = (
    "unpaired",
    "text_first",
    "swallow",
    "run_write",
    "no_budget",
    "rerun_repeat",
    "separate_turns",
    "past_the_gate",
)


def reference_loop(fault: str | None = None) -> Callable[..., AgentReport]:
    """The right loop (``fault`` None), or the loop with one plausible mistake: the grader's
    wrong answers ("unpaired", "text_first", "swallow", "run_write", "no_budget", "rerun_repeat",
    "separate_turns", "past_the_gate"), each of which the check must fail with its hint."""

    def run_agent(model: Any, request: str, max_steps: int = 6) -> AgentReport:
        model = as_model(model)
        dispatcher, tools = course_dispatcher(), tool_definitions()
        messages: list[dict] = [{"role": "user", "content": request}]
        calls: list[CallRecord] = []
        seen: dict[str, str] = {}
        steps = 0
        while fault == "no_budget" or steps < max_steps:
            reply = model.respond(messages, tools)
            steps += 1
            messages.append({"role": "assistant", "content": reply["content"]})
            uses = [b for b in reply["content"] if b["type"] == "tool_use"]
            if not uses:
                answer = " ".join(b["text"] for b in reply["content"] if b["type"] == "text")
                return AgentReport(answer, steps, tuple(calls), StopReason.ANSWERED, tuple(messages))
            results, pending = [], False
            for use in uses:
                key = use["name"] + json.dumps(use["input"], sort_keys=True)
                name = use["name"]
                if name in dispatcher.tools.names and dispatcher.tools[name].writes and fault != "run_write":
                    note = f"{name} changes data and awaits a person's approval; it was not run."
                    block = {
                        "type": "tool_result",
                        "tool_use_id": use["id"],
                        "content": note,
                        "is_error": True,
                    }
                    outcome, pending = CallOutcome.PENDING, True
                elif key in seen and fault != "rerun_repeat":
                    note = f"You already made this call ({seen[key]}); its result is above."
                    block, outcome = (
                        {"type": "tool_result", "tool_use_id": use["id"], "content": note},
                        CallOutcome.REPEATED,
                    )
                else:
                    result = dispatcher.dispatch(
                        ToolCall(name, use["input"], use["id"]), policy_check=allow_all
                    )
                    block = result.block()
                    if fault == "swallow":
                        block.pop("is_error", None)
                    outcome = CallOutcome.RAN if result.ran else CallOutcome.REFUSED
                    if result.ran:
                        seen[key] = use["id"]
                if fault == "unpaired":
                    block["tool_use_id"] = uses[0]["id"]
                results.append(block)
                calls.append(CallRecord(use["id"], name, use["input"], outcome))
            if fault == "text_first":
                results.insert(0, {"type": "text", "text": "Here are the results."})
            if fault == "separate_turns":
                messages.extend({"role": "user", "content": [b]} for b in results)
            else:
                messages.append({"role": "user", "content": results})
            if pending and fault != "past_the_gate":
                return AgentReport(None, steps, tuple(calls), StopReason.PENDING, tuple(messages))
        return AgentReport(None, steps, tuple(calls), StopReason.BUDGET, tuple(messages))

    return run_agent
