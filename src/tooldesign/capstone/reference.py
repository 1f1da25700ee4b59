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
from typing import TYPE_CHECKING, Any

from tooldesign.capstone.agent import (
    FIRST_BUDGET,
    MAX_TOKENS_RETRIES,
    AgentReport,
    CallOutcome,
    CallRecord,
    StopReason,
    course_dispatcher,
    tool_definitions,
)
from tooldesign.capstone.scripts import as_model

if TYPE_CHECKING:
    from tooldesign.tools.base import ToolSet

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
    # the stop reasons: each a loop that reads only whether a reply holds tool_use blocks, in one place
    "runs_cut_call",  # max_tokens: runs the call a cut reply holds, or takes cut text for the answer
    "endless_retry",  # max_tokens: asks again and again, never counting the calls
    "same_budget",  # max_tokens: asks again with the budget that was too small
    "pause_is_end",  # pause_turn: takes the paused turn for the end of the run
    "drops_paused",  # pause_turn: asks again without sending the paused content back
    "retries_refusal",  # refusal: asks again in the same conversation
    "runs_refused_call",  # refusal: runs the calls of the refused reply
)


def _results(
    uses: list[dict], dispatcher: Any, seen: dict[str, str], fault: str | None
) -> tuple[list[dict], list[CallRecord]]:
    """One tool_result per call of a reply, in order, and the record of each call."""
    from tooldesign.dispatch import ToolCall, allow_all
    from tooldesign.dispatch.approval import waiting

    results, records = [], []
    for use in uses:
        key = use["name"] + json.dumps(use["input"], sort_keys=True)
        name = use["name"]
        if name in dispatcher.tools.names and dispatcher.tools[name].writes and fault != "run_write":
            note = waiting(name).text
            block = {"type": "tool_result", "tool_use_id": use["id"], "content": note, "is_error": True}
            outcome = CallOutcome.PENDING
        elif key in seen and fault != "rerun_repeat":
            note = f"You already made this call ({seen[key]}); its result is above."
            block, outcome = (
                {"type": "tool_result", "tool_use_id": use["id"], "content": note},
                CallOutcome.REPEATED,
            )
        else:
            result = dispatcher.dispatch(ToolCall(name, use["input"], use["id"]), policy_check=allow_all)
            block = result.block()
            if fault == "swallow":
                block.pop("is_error", None)
            outcome = CallOutcome.RAN if result.ran else CallOutcome.REFUSED
            if result.ran:
                seen[key] = use["id"]
        if fault == "unpaired":
            block["tool_use_id"] = uses[0]["id"]
        results.append(block)
        records.append(CallRecord(use["id"], name, use["input"], outcome))
    if fault == "text_first":
        results.insert(0, {"type": "text", "text": "Here are the results."})
    return results, records


def reference_loop(fault: str | None = None) -> Callable[..., AgentReport]:
    """The right loop (``fault`` None), or the loop with one plausible mistake from FAULTS, each of
    which the check must fail with its hint."""

    def run_agent(
        model: Any, request: str, max_steps: int = 6, tool_set: ToolSet | None = None
    ) -> AgentReport:
        """``tool_set`` None is the course's designed set; another set (the mirror) runs the same loop."""
        # Loaded on the first run: an exercise that only lists the faulty loops stays light.
        from tooldesign.dispatch import Dispatcher
        from tooldesign.selection.models import anthropic_tools
        from tooldesign.tools.designed import EXAMPLES

        model = as_model(model)
        if tool_set is None:
            dispatcher, tools = course_dispatcher(), tool_definitions()
        else:
            dispatcher, tools = Dispatcher(tool_set, examples=EXAMPLES), anthropic_tools(tool_set)
        messages: list[dict] = [{"role": "user", "content": request}]
        calls: list[CallRecord] = []
        seen: dict[str, str] = {}
        steps, budget, retries = 0, FIRST_BUDGET, 0

        def report(stop: StopReason, answer: str | None = None) -> AgentReport:
            return AgentReport(answer, steps, tuple(calls), stop, tuple(messages))

        while fault == "no_budget" or steps < max_steps:
            reply = model.respond(messages, tools, max_tokens=budget)
            stop = reply["stop_reason"]
            if fault == "endless_retry" and stop == "max_tokens":
                continue  # neither counted nor bounded
            steps += 1
            if stop == "max_tokens" and fault != "runs_cut_call":
                # the reply was cut off: nothing in it is whole, so none of it is kept or run
                if retries == MAX_TOKENS_RETRIES:
                    return report(StopReason.CUT_OFF)
                retries += 1
                budget = budget if fault == "same_budget" else budget * 2
                continue
            if stop == "model_context_window_exceeded":  # a cut no bigger budget can mend
                return report(StopReason.CUT_OFF)
            retries, budget = 0, FIRST_BUDGET
            if stop == "pause_turn" and fault == "drops_paused":
                continue
            messages.append({"role": "assistant", "content": reply["content"]})
            if stop == "refusal" and fault != "runs_refused_call":
                if fault == "retries_refusal":
                    continue
                return report(StopReason.REFUSED)
            if stop == "pause_turn" and fault != "pause_is_end":
                continue  # the paused content goes back as it is: the provider resumes the turn
            uses = [b for b in reply["content"] if b["type"] == "tool_use"]
            if not uses:  # end_turn, or stop_sequence if the request had set stop_sequences
                answer = " ".join(b["text"] for b in reply["content"] if b["type"] == "text")
                return report(StopReason.ANSWERED, answer)
            results, records = _results(uses, dispatcher, seen, fault)
            calls.extend(records)
            if fault == "separate_turns":
                messages.extend({"role": "user", "content": [b]} for b in results)
            else:
                messages.append({"role": "user", "content": results})
            if stop == "refusal":
                return report(StopReason.REFUSED)
            if any(r.outcome is CallOutcome.PENDING for r in records) and fault != "past_the_gate":
                return report(StopReason.PENDING)
        return report(StopReason.BUDGET)

    return run_agent
