"""Judge one run of a loop from its plain report and the script it ran against (no answer key).

The rules are those of the Messages API and of lessons 11 and 12: every tool_use of a reply is answered
in the next user turn by one tool_result with its tool_use_id, results before any text; a
failure goes back with is_error; a write waits for a person and is not run; a repeated call is
not run again; the loop stops at its step budget. Each hint names the script that exposed it.
"""

from __future__ import annotations

import json
from typing import Any

from tooldesign.capstone.agent import course_dispatcher
from tooldesign.capstone.scripts import scripted

REPEAT_WORDS = ("already", "repeat", "same call", "earlier", "again")


def _key(block: dict) -> str:
    return block["name"] + json.dumps(block.get("input"), sort_keys=True, default=str)


def _expected(block: dict, seen: dict[str, str], dispatcher: Any) -> tuple[str, bool | None]:
    """The outcome a right loop gives this call, and the is_error its result must carry (None: any)."""
    tools = dispatcher.tools
    if block["name"] in tools.names and tools[block["name"]].writes:
        return "pending", True
    if _key(block) in seen:
        return "repeated", None
    from tooldesign.dispatch import ToolCall

    result = dispatcher.dispatch(ToolCall(block["name"], block.get("input"), block["id"]))
    if not result.ran:
        return "refused", True
    seen[_key(block)] = block["id"]
    return "ran", result.is_error


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return json.dumps(content, default=str)


def loop_problem(script: dict, request: str, max_steps: int, report: Any) -> str | None:
    """What is wrong with ``report`` (a loop's plain report) on this script: None when it is right."""
    name = script["script"]
    model = scripted(name, int(script.get("seed", 0)))
    say = f"with the {name} script: "
    if type(report) is not dict or not {"answer", "steps", "calls", "stop", "transcript"} <= set(report):
        return "return an AgentReport(answer=..., steps=..., calls=..., stop=..., transcript=...)"
    turns = report["transcript"]
    if type(turns) is not list or not turns or turns[0].get("role") != "user":
        return say + "the transcript starts with the user's request, the first message you send"
    dispatcher = course_dispatcher()
    seen: dict[str, str] = {}
    outcomes: dict[str, str] = {}
    i, step, stop = 1, 0, None
    while i < len(turns):
        if step >= max_steps:
            return say + f"the loop asked the model more than max_steps={max_steps} times; stop at the budget"
        reply = model.reply(step)
        step += 1
        if turns[i] != {"role": "assistant", "content": reply["content"]}:
            return (
                say
                + "append each reply as one assistant turn: {'role': 'assistant', 'content': reply['content']}"
            )
        uses = [b for b in reply["content"] if b["type"] == "tool_use"]
        if not uses:
            stop = "answered"
            if i != len(turns) - 1:
                return say + "the loop went on after the model answered with text (stop_reason end_turn)"
            words = " ".join(b["text"] for b in reply["content"] if b["type"] == "text")
            if report["answer"] != words:
                return say + "the answer is the text of the model's last reply"
            break
        if i + 1 >= len(turns):
            return (
                say
                + "every reply with tool_use needs a user turn of tool_result blocks before the loop stops"
            )
        back = turns[i + 1]
        blocks = back.get("content") if type(back) is dict else None
        if type(back) is not dict or back.get("role") != "user" or type(blocks) is not list:
            return say + "answer the calls in ONE user turn whose content is a list of tool_result blocks"
        head = blocks[: len(uses)]
        if any(type(b) is not dict or b.get("type") != "tool_result" for b in head):
            return say + "put the tool_result blocks first in the user turn, any text after them"
        ids = [b.get("tool_use_id") for b in blocks if type(b) is dict and b.get("type") == "tool_result"]
        later = turns[i + 2] if i + 2 < len(turns) else None
        if (
            set(map(str, ids)) < {u["id"] for u in uses}
            and type(later) is dict
            and later.get("role") == "user"
        ):
            return say + "answer every call of one reply in ONE user turn, not one turn per result"
        if sorted(map(str, ids)) != sorted(u["id"] for u in uses):
            return say + "pair the results by tool_use_id: exactly one tool_result per tool_use of that reply"
        by_id = {b["tool_use_id"]: b for b in head}
        for use in uses:
            outcome, is_error = _expected(use, seen, dispatcher)
            outcomes[use["id"]] = outcome
            got = by_id[use["id"]]
            flagged = got.get("is_error") is True
            if outcome == "pending" and not flagged:
                return say + "a write that needs a person must not run: send is_error with 'awaits approval'"
            if outcome == "refused" and not flagged:
                return say + "a refused call (unknown tool, invalid arguments) goes back with is_error: True"
            if outcome == "ran" and is_error is not None and flagged is not is_error:
                return say + "pass the dispatcher's is_error through as it is"
            if outcome == "repeated":
                text = _text_of(got.get("content")).lower()
                earlier = [k for k, v in seen.items() if k == _key(use)]
                if not any(w in text for w in REPEAT_WORDS) and seen[earlier[0]].lower() not in text:
                    return (
                        say
                        + "a repeated call is not run again; say in its result that it repeats an earlier call"
                    )
        i += 2
        if "pending" in outcomes.values():
            stop = "pending_approval"
            if i != len(turns):
                return (
                    say
                    + "stop at the approval gate: after a write that needs a person, do not ask the model again"
                )
            break
        if step == max_steps:
            stop = "budget"
            if i != len(turns):
                return say + f"stop after max_steps={max_steps} model calls"
            break
    if stop is None:
        return (
            say + "the transcript ends before the model's answer; run the loop until end_turn or the budget"
        )
    if report["stop"] != stop:
        return say + f"stop should be {stop!r} (StopReason), not {report['stop']!r}"
    if report["steps"] != step:
        return say + f"steps counts the model calls made ({step} here)"
    calls = report["calls"]
    if type(calls) is not list or [c.get("id") for c in calls if type(c) is dict] != list(outcomes):
        return say + "calls lists every proposed call once, in the order the model made them"
    for c in calls:
        if c.get("outcome") != outcomes[c["id"]]:
            return (
                say
                + f"call {c.get('name')} should be recorded as {outcomes[c['id']]!r}, not {c.get('outcome')!r}"
            )
    if stop == "pending_approval" and report["answer"] is not None:
        return say + "a loop stopped at the approval gate has no answer yet (None)"
    return None
