"""Lesson 19's loop check, proven both ways beyond the generic tests: two more right loops written
differently pass, each wrong loop fails with the hint naming its behaviour, and drawn runs compare."""

import json
import random

import pytest

from tooldesign.capstone import BEHAVIOURS, FIRST_BUDGET, MAX_TOKENS_RETRIES, AgentReport, CallRecord, CallOutcome, StopReason, as_model, scripted
from tooldesign.capstone import course_dispatcher, loop_problem
from tooldesign.capstone.agent import tool_definitions, transcript_lines
from tooldesign.dispatch import ToolCall
from tooldesign.dispatch.approval import waiting
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
                               "content": "Not executed: it needs a decision from a person."})
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
            return {"type": "tool_result", "tool_use_id": use["id"], "content": waiting(use["name"]).text, "is_error": True}
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


# ---------- every stop reason: the scripts, the adapters, termination ----------
from anthropic.types import Message  # noqa: E402

from tooldesign.capstone.agent import chat_stop_reason, message_reply  # noqa: E402
from tooldesign.capstone.reference import FAULTS, reference_loop  # noqa: E402
from tooldesign.capstone.scripts import SCRIPT_LIMIT, assistant_turns  # noqa: E402


def _as_message(reply):
    return Message.model_validate({"id": "msg_1", "type": "message", "model": "m", "usage": {"input_tokens": 0, "output_tokens": 0}, **reply})


@pytest.mark.parametrize("name", BEHAVIOURS)
def test_every_scripted_reply_is_a_typed_sdk_message(name):
    model = scripted(name, 3)
    for step in range(4):
        for budget in (FIRST_BUDGET, 2 * FIRST_BUDGET, 10**6):
            reply = model.reply(step, budget)
            assert message_reply(_as_message(reply)) == reply


def test_a_cut_off_call_fits_in_twice_the_first_budget_and_only_there():
    for seed in range(30):
        model = scripted("cut_off_mid_call", seed)
        cut, whole = model.reply(0, FIRST_BUDGET), model.reply(0, 2 * FIRST_BUDGET)
        assert cut["stop_reason"] == "max_tokens" and whole["stop_reason"] == "tool_use"
        (cut_call,) = [b for b in cut["content"] if b["type"] == "tool_use"]
        (call,) = [b for b in whole["content"] if b["type"] == "tool_use"]
        assert set(cut_call["input"]) < set(call["input"])  # the cut call lacks arguments


def test_a_reply_that_never_ends_is_cut_at_any_budget():
    for seed in range(10):
        model = scripted("always_cut_off", seed)
        assert all(model.reply(1, b)["stop_reason"] == "max_tokens" for b in (FIRST_BUDGET, 10**5, 10**9))


def test_a_paused_turn_holds_server_tool_blocks_and_no_client_call():
    for seed in range(10):
        model = scripted("paused_turn", seed)
        paused = [model.turn(s) for s in range(3) if model.turn(s).stop_reason == "pause_turn"]
        assert paused
        for turn in paused:
            kinds = [b["type"] for b in turn.full["content"]]
            assert "server_tool_use" in kinds and "tool_use" not in kinds
            assert all(b["id"].startswith("srvtoolu_") for b in turn.full["content"] if b["type"] == "server_tool_use")


def test_a_refusal_carries_typed_stop_details_and_stays_refused():
    model = scripted("refuses", 5)
    first = model.reply(1)
    assert first["stop_reason"] == "refusal" and first["stop_details"] == {"type": "refusal"}
    assert any(b["type"] == "tool_use" for b in first["content"])  # a call was written before the refusal
    assert all(model.reply(s)["stop_reason"] == "refusal" for s in range(1, 6))


def test_a_script_answers_at_the_step_the_conversation_holds():
    model = scripted("cut_off_mid_call", 2)
    messages = [{"role": "user", "content": "q"}]
    first = model.respond(messages, [])
    assert model.respond(messages, []) == first  # the same conversation, the same cut
    assert model.respond(messages, [], max_tokens=2 * FIRST_BUDGET)["stop_reason"] == "tool_use"
    assert assistant_turns([*messages, {"role": "assistant", "content": []}]) == 1
    assert assistant_turns("not a list") == 0


@pytest.mark.parametrize(
    "finish, calls, stop",
    [
        ("length", True, "max_tokens"),  # a call cut off at the limit must not run
        ("length", False, "max_tokens"),
        ("content_filter", True, "refusal"),
        ("content_filter", False, "refusal"),
        ("tool_calls", True, "tool_use"),
        ("stop", True, "tool_use"),  # Ollama sends "stop" with calls
        ("stop", False, "end_turn"),
        (None, False, "end_turn"),
        ("function_call", True, "tool_use"),
    ],
)
def test_chat_finish_reasons_become_stop_reasons(finish, calls, stop):
    assert chat_stop_reason(finish, calls) == stop


def test_a_real_refusal_keeps_its_stop_details():
    message = _as_message(
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Hello.."}],
            "stop_reason": "refusal",
            "stop_details": {"type": "refusal", "category": "cyber", "explanation": "declined"},
        }
    )
    reply = message_reply(message)
    assert reply["stop_reason"] == "refusal"
    assert reply["stop_details"] == {"type": "refusal", "category": "cyber", "explanation": "declined"}
    assert "stop_details" not in message_reply(_as_message({"role": "assistant", "content": [], "stop_reason": "end_turn"}))


class _Random:
    """Not a script: any stop reason the SDK types, at random, with calls or without, forever."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def respond(self, messages, tools, max_tokens=FIRST_BUDGET):
        stop = self.rng.choice(["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "model_context_window_exceeded"])
        content = [{"type": "text", "text": "x"}]
        if self.rng.random() < 0.7:
            content.append({"type": "tool_use", "id": f"toolu_{self.rng.random()}", "name": "sales_order_search", "input": {"customer": "10023"}})
        return {"role": "assistant", "content": content, "stop_reason": stop}


class _Counting:
    def __init__(self, inner):
        self.inner, self.calls = inner, 0

    def respond(self, messages, tools, max_tokens=FIRST_BUDGET):
        self.calls += 1
        assert self.calls <= 50, "the loop did not stop"
        return self.inner.respond(messages, tools, max_tokens)


@pytest.mark.parametrize("max_steps", [1, 2, 3, 5, 8])
def test_the_loop_ends_within_its_step_budget_whatever_comes_back(max_steps):
    loop = reference_loop()
    for seed in range(40):
        model = _Counting(_Random(seed))
        report = loop(model, "q", max_steps)
        assert report.steps == model.calls <= max_steps
        assert report.stop in set(StopReason)
    for name in BEHAVIOURS:
        model = _Counting(scripted(name, max_steps))
        report = loop(model, "q", max_steps)
        assert report.steps == model.calls <= max_steps, name


class _Forever:
    def __init__(self, stop):
        self.stop = stop

    def respond(self, messages, tools, max_tokens=FIRST_BUDGET):
        return {"role": "assistant", "content": [{"type": "text", "text": "..."}], "stop_reason": self.stop}


def test_a_turn_paused_forever_ends_at_the_budget_and_a_cut_forever_after_the_retries():
    paused = reference_loop()(_Counting(_Forever("pause_turn")), "q", 5)
    assert paused.stop is StopReason.BUDGET and paused.steps == 5 and len(paused.transcript) == 6
    cut = reference_loop()(_Counting(_Forever("max_tokens")), "q", 8)
    assert cut.stop is StopReason.CUT_OFF and cut.steps == 1 + MAX_TOKENS_RETRIES and len(cut.transcript) == 1
    full = reference_loop()(_Forever("model_context_window_exceeded"), "q", 8)
    assert full.stop is StopReason.CUT_OFF and full.steps == 1


def test_a_loop_without_a_bound_is_stopped_by_the_script_naming_the_stop_reason():
    cut = scripted("always_cut_off", 1)
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": []}]
    with pytest.raises(RuntimeError, match="after stop_reason max_tokens"):
        for _ in range(SCRIPT_LIMIT + 1):
            cut.respond(messages, [])
    refused = scripted("refuses", 1)
    with pytest.raises(RuntimeError, match="after stop_reason refusal"):
        for _ in range(SCRIPT_LIMIT + 1):
            refused.respond(messages, [])


def _variant(change):
    """The right loop with one more mistake made to its report or transcript."""

    def loop(model, request, max_steps=6):
        return to_plain(change(to_plain(reference_loop()(model, request, max_steps), "r")), "r")

    return loop


def _continue_after_pause(report):
    turns = report["transcript"]
    out = [turns[0]]
    for t in turns[1:]:
        out.append(t)
        if t["role"] == "assistant" and any(b["type"] == "server_tool_use" for b in t["content"]) and not any(
            b["type"] == "tool_use" for b in t["content"]
        ):
            out.append({"role": "user", "content": "Please continue."})
    return dict(report, transcript=out)


def _edit_paused(report):
    turns = [dict(t) for t in report["transcript"]]
    for t in turns[1:]:
        if t["role"] == "assistant" and any(b["type"] == "server_tool_use" for b in t["content"]):
            t["content"] = [b for b in t["content"] if b["type"] != "text"] + [{"type": "text", "text": "(paused)"}]
    return dict(report, transcript=turns)


def _answer_the_refusal(report):
    if report["stop"] != "model_refused":
        return report
    return dict(report, stop="answered", answer="Order 4711 of customer 10023 is blocked because")


@pytest.mark.parametrize(
    "change, script, hint",
    [
        (_continue_after_pause, "paused_turn", "no user turn after it"),
        (_edit_paused, "paused_turn", "send the paused content back unchanged"),
        (_answer_the_refusal, "refuses", "stop should be 'model_refused' (StopReason) (stop_reason refusal)"),
        (lambda r: dict(r, steps=r["steps"] - 1) if r["stop"] == "cut_off" else r, "always_cut_off", "retries included"),
        (lambda r: dict(r, answer="partial") if r["stop"] == "cut_off" else r, "always_cut_off", "has no answer"),
    ],
)
def test_more_stop_reason_mistakes_are_named(change, script, hint):
    verdict = evaluate("ex19-agent-loop", _variant(change))
    assert not verdict.passed
    assert f"with the {script} script" in verdict.message and hint in verdict.message, verdict.message


def test_a_cut_text_taken_for_the_answer_is_named():
    def cut_as_answer(model, request, max_steps=6):
        model = as_model(model)
        messages = [{"role": "user", "content": request}]
        report = reference_loop()(model, request, max_steps)
        if report.stop is not StopReason.CUT_OFF:
            return report
        reply = model.respond(list(report.transcript), tool_definitions())
        words = " ".join(b["text"] for b in reply["content"] if b["type"] == "text")
        kept = [*report.transcript, {"role": "assistant", "content": reply["content"]}]
        return AgentReport(words, report.steps - MAX_TOKENS_RETRIES, report.calls, StopReason.ANSWERED, tuple(kept))

    for seed in range(12):
        script = {"script": "always_cut_off", "seed": seed}
        problem = loop_problem(script, "q", 6, to_plain(cut_as_answer(script, "q", 6), "r"))
        assert problem is not None and "stop_reason max_tokens came back: the reply was cut off" in problem


def test_every_fault_is_listed_with_its_script_and_registered():
    from workbook.exercises.lesson19 import EXERCISES

    assert set(FAULTS) == set(WRONG)
    assert len(EXERCISES[0].wrong_answers) == len(FAULTS)


def test_a_record_with_a_new_stop_reads_back(tmp_path):
    from tooldesign import record as rec

    assert {"model_refused", "cut_off"} <= set(rec.SCHEMA["properties"]["capstone"]["items"]["properties"]["stop"]["enum"])


# ---------- the real-model adapters pass the budget on and keep a cut a cut ----------
from types import SimpleNamespace  # noqa: E402

from openai.types.chat import ChatCompletion  # noqa: E402

from tooldesign.capstone.agent import ChatModel, MessagesModel  # noqa: E402


class _Sent:
    def __init__(self, answer):
        self.answer, self.kwargs = answer, None

    def create(self, **kwargs):
        self.kwargs = kwargs
        return self.answer


def _chat(finish, provider):
    completion = ChatCompletion.model_validate(
        {
            "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": finish, "message": {
                "role": "assistant", "content": None,
                "tool_calls": [{"id": "call_1", "type": "function",
                                "function": {"name": "sales_order_search", "arguments": '{"customer": "100'}}]}}],
        }
    )
    sent = _Sent(completion)
    client = SimpleNamespace(chat=SimpleNamespace(completions=sent))
    return ChatModel(SimpleNamespace(client=client, model="m", label="m", provider=provider)), sent


@pytest.mark.parametrize("provider, field", [("openai", "max_completion_tokens"), ("ollama", "max_tokens")])
def test_a_chat_reply_cut_in_a_call_is_max_tokens_and_the_budget_goes_out(provider, field):
    model, sent = _chat("length", provider)
    reply = model.respond([{"role": "user", "content": "q"}], tool_definitions(), max_tokens=2048)
    assert reply["stop_reason"] == "max_tokens"
    assert sent.kwargs[field] == 2048
    assert reference_loop()(model, "q", 5).stop is StopReason.CUT_OFF  # the cut call never ran


def test_a_filtered_chat_reply_is_a_refusal():
    model, _ = _chat("content_filter", "openai")
    report = reference_loop()(model, "q", 5)
    assert report.stop is StopReason.REFUSED and report.calls == ()


def test_the_messages_adapter_sends_the_budget_and_the_stop_details():
    message = _as_message({"role": "assistant", "content": [], "stop_reason": "refusal",
                           "stop_details": {"type": "refusal", "category": "bio"}})
    sent = _Sent(message)
    client = SimpleNamespace(messages=sent)
    model = MessagesModel(SimpleNamespace(client=client, model="m", label="m", provider="anthropic"))
    reply = model.respond([{"role": "user", "content": "q"}], [], max_tokens=4096)
    assert sent.kwargs["max_tokens"] == 4096
    assert reply["stop_details"] == {"type": "refusal", "category": "bio"}
