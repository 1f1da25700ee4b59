"""Lesson 19's loop check, proven both ways beyond the generic tests: two more right loops written
differently pass, each wrong loop fails with the hint naming its behaviour, and drawn runs compare."""

import json
import random

import pytest

from tooldesign.capstone import BEHAVIOURS, FIRST_BUDGET, MAX_TOKENS_RETRIES, AgentReport, CallRecord, CallOutcome, StopReason, as_model, scripted
from tooldesign.capstone import course_dispatcher, loop_problem
from tooldesign.capstone.agent import tool_definitions, transcript_lines
from tooldesign.dispatch import ToolCall
from workbook.checks import evaluate
from workbook.exercises.lesson19 import LOOP_PROBES, _gen_loop, _loop, _same_run
from workbook.plain import to_plain


def _recursive_loop(model, request, max_steps=6):
    """Right, written as recursion over model calls, results built after the calls are classified."""
    model = as_model(model)
    disp = course_dispatcher()

    def step(messages, calls, done, n, budget=FIRST_BUDGET, tries=0):
        if n == max_steps:
            return AgentReport(None, n, tuple(calls), StopReason.BUDGET, tuple(messages))
        reply = model.respond(messages, tool_definitions(), max_tokens=budget)
        why = reply["stop_reason"]
        if why == "max_tokens":
            if tries == MAX_TOKENS_RETRIES:
                return AgentReport(None, n + 1, tuple(calls), StopReason.CUT_OFF, tuple(messages))
            return step(messages, calls, done, n + 1, budget * 2, tries + 1)
        messages = [*messages, {"role": "assistant", "content": reply["content"]}]
        if why == "refusal":
            return AgentReport(None, n + 1, tuple(calls), StopReason.REFUSED, tuple(messages))
        if why == "pause_turn":
            return step(messages, calls, done, n + 1)
        uses = [b for b in reply["content"] if b["type"] == "tool_use"]
        if why != "tool_use" and not uses:
            text = " ".join(b["text"] for b in reply["content"] if b["type"] == "text")
            return AgentReport(text, n + 1, tuple(calls), StopReason.ANSWERED, tuple(messages))
        blocks = []
        for use in uses:
            sig = json.dumps([use["name"], use["input"]], sort_keys=True)
            tool = disp.tools[use["name"]] if use["name"] in disp.tools.names else None
            if tool is not None and tool.writes:
                blocks.append({"type": "tool_result", "tool_use_id": use["id"], "is_error": True,
                               "content": "Needs approval from a person; not executed."})
                calls.append(CallRecord(use["id"], use["name"], use["input"], CallOutcome.PENDING))
            elif sig in done:
                blocks.append({"type": "tool_result", "tool_use_id": use["id"],
                               "content": f"Same call as {done[sig]}: see its result."})
                calls.append(CallRecord(use["id"], use["name"], use["input"], CallOutcome.REPEATED))
            else:
                res = disp.dispatch({"id": use["id"], "name": use["name"], "input": use["input"]})
                blocks.append(res.block())
                calls.append(CallRecord(use["id"], use["name"], use["input"],
                                        CallOutcome.RAN if res.ran else CallOutcome.REFUSED))
                if res.ran:
                    done[sig] = use["id"]
        blocks.reverse()  # any order of the results is right, as long as each has its id
        messages = [*messages, {"role": "user", "content": blocks + [{"type": "text", "text": "Go on."}]}]
        if any(c.outcome is CallOutcome.PENDING for c in calls):
            return AgentReport(None, n + 1, tuple(calls), StopReason.PENDING, tuple(messages))
        return step(messages, calls, done, n + 1)

    return step([{"role": "user", "content": request}], [], {}, 0)


class _Agent:
    """Right, as a small class with a method per kind of call."""

    def __init__(self, model, budget):
        self.model, self.budget = as_model(model), budget
        self.disp = course_dispatcher()
        self.calls, self.seen = [], set()

    def answer(self, use):
        if use["name"] in self.disp.tools.names and self.disp.tools[use["name"]].writes:
            self.calls.append(CallRecord(use["id"], use["name"], use["input"], CallOutcome.PENDING))
            return {"type": "tool_result", "tool_use_id": use["id"], "content": "awaiting approval", "is_error": True}
        key = (use["name"], json.dumps(use["input"], sort_keys=True))
        if key in self.seen:
            self.calls.append(CallRecord(use["id"], use["name"], use["input"], CallOutcome.REPEATED))
            return {"type": "tool_result", "tool_use_id": use["id"], "content": "You called this already."}
        result = self.disp.dispatch(ToolCall(use["name"], use["input"], use["id"]))
        if result.ran:
            self.seen.add(key)
        self.calls.append(CallRecord(use["id"], use["name"], use["input"], CallOutcome.RAN if result.ran else CallOutcome.REFUSED))
        return result.block()

    def run(self, request):
        msgs = [{"role": "user", "content": request}]
        steps, budget, cuts = 0, FIRST_BUDGET, 0
        while True:
            if steps >= self.budget:
                return AgentReport(None, steps, tuple(self.calls), StopReason.BUDGET, tuple(msgs))
            reply = self.model.respond(msgs, tool_definitions(), max_tokens=budget)
            steps += 1
            why = reply["stop_reason"]
            if why == "max_tokens":  # cut off: keep none of it, ask again with more room (four times)
                cuts += 1
                if cuts > MAX_TOKENS_RETRIES:
                    return AgentReport(None, steps, tuple(self.calls), StopReason.CUT_OFF, tuple(msgs))
                budget *= 4
                continue
            budget, cuts = FIRST_BUDGET, 0
            msgs.append({"role": "assistant", "content": reply["content"]})
            if why in ("refusal", "pause_turn"):
                if why == "refusal":
                    return AgentReport(None, steps, tuple(self.calls), StopReason.REFUSED, tuple(msgs))
                continue
            uses = [b for b in reply["content"] if b["type"] == "tool_use"]
            if not uses:
                words = [b["text"] for b in reply["content"] if b["type"] == "text"]
                return AgentReport(" ".join(words), steps, tuple(self.calls), StopReason.ANSWERED, tuple(msgs))
            msgs.append({"role": "user", "content": [self.answer(u) for u in uses]})
            if CallOutcome.PENDING in {c.outcome for c in self.calls}:
                return AgentReport(None, steps, tuple(self.calls), StopReason.PENDING, tuple(msgs))


def _class_loop(model, request, max_steps=6):
    return _Agent(model, max_steps).run(request)


@pytest.mark.parametrize("loop", [_loop(), _recursive_loop, _class_loop], ids=["reference", "recursive", "class"])
def test_right_loops_written_differently_pass(loop):
    verdict = evaluate("ex19-agent-loop", loop)
    assert verdict.passed, verdict.message


@pytest.mark.parametrize("loop", [_recursive_loop, _class_loop])
def test_right_loops_match_the_reference_on_drawn_runs(loop):
    rng = random.Random(5)
    reference = _loop()
    for _ in range(40):
        args = _gen_loop(rng)
        got, want = to_plain(loop(*args), "got"), to_plain(reference(*args), "want")
        assert _same_run(got, want), args
        assert loop_problem(args[0], args[1], args[2], got) is None


WRONG = {
    "unpaired": ("two_calls_in_one_turn", "pair the results by tool_use_id"),
    "text_first": ("", "tool_result blocks first"),
    "swallow": ("unknown_tool", "goes back with is_error"),
    "run_write": ("needs_a_person", "needs a person must not run"),
    "no_budget": ("never_stops", "step budget"),
    "rerun_repeat": ("repeated_call", "a repeated call is not run again"),
    "separate_turns": ("two_calls_in_one_turn", "ONE user turn"),
    "past_the_gate": ("needs_a_person", "stop at the approval gate"),
    "runs_cut_call": ("cut_off_mid_call", "stop_reason max_tokens came back: the reply was cut off in the middle of a tool call"),
    "endless_retry": ("cut_off_mid_call", "kept asking after stop_reason max_tokens"),
    "same_budget": ("cut_off_mid_call", "double max_tokens on each retry"),
    "pause_is_end": ("paused_turn", "stop_reason pause_turn is not the end of the turn"),
    "drops_paused": ("paused_turn", "Append its content unchanged as an assistant turn"),
    "retries_refusal": ("refuses", "and your loop asked again: do not ask again"),
    "runs_refused_call": ("refuses", "run nothing from the refused reply"),
}


@pytest.mark.parametrize("fault", sorted(WRONG))
def test_each_wrong_loop_fails_naming_its_behaviour(fault):
    script, hint = WRONG[fault]
    verdict = evaluate("ex19-agent-loop", _loop(fault))
    assert not verdict.passed
    assert hint in verdict.message
    assert f"with the {script}" in verdict.message


def test_a_transcript_replayed_from_one_seed_fails_on_another():
    recorded = {}
    reference = _loop()
    for script, request, budget in LOOP_PROBES:
        recorded[script["script"]] = reference({"script": script["script"], "seed": 0}, request, budget)

    def replay(model, request, max_steps=6):
        return recorded[model["script"]]

    verdict = evaluate("ex19-agent-loop", replay)
    assert not verdict.passed


def test_wrong_stop_reason_and_step_count_are_named():
    script, request, budget = LOOP_PROBES[0]
    good = to_plain(_loop()(script, request, budget), "r")
    assert loop_problem(script, request, budget, dict(good, stop="budget")).endswith("not 'budget'")
    assert "steps counts" in loop_problem(script, request, budget, dict(good, steps=good["steps"] + 1))
    assert "AgentReport" in loop_problem(script, request, budget, None)


def test_scripts_vary_with_the_seed_and_are_stable():
    for name in BEHAVIOURS:
        a, b = scripted(name, 1), scripted(name, 2)
        assert a.reply(0) == scripted(name, 1).reply(0)
        ids = lambda m: [x.get("id") for x in m.reply(0)["content"]]
        assert ids(a) != ids(b)


def test_a_loop_without_budget_is_stopped_by_the_script():
    model = scripted("never_stops", 3)
    with pytest.raises(RuntimeError, match="step budget"):
        for _ in range(1000):
            model.respond([], [])


def test_bad_inputs_say_what_to_do():
    with pytest.raises(ValueError, match="use one of"):
        scripted("silly")
    with pytest.raises(TypeError, match="respond"):
        as_model(42)


def test_transcript_lines_are_bounded():
    report = _loop()({"script": "two_calls_in_one_turn", "seed": 4}, "q", 4)
    lines = transcript_lines(report, width=60)
    assert lines[0].startswith(" 0 user")
    assert all(len(line) <= 60 for line in lines)
