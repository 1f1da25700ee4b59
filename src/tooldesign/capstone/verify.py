"""Judge one run of a loop from its plain report and the script it ran against (no answer key).

The rules are those of the Messages API and of lessons 11 and 12. Every ``stop_reason`` asks for its
own move ([Stop reasons and fallback](https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons)):
``tool_use``: every call of the reply is answered in the next user turn by one tool_result with its
tool_use_id, results before any text; a failure goes back with is_error; a write waits for a person
and is not run; a repeated call is not run again. ``end_turn``: the text is the answer.
``max_tokens``: the reply was cut off, so nothing in it is kept or run; ask again with twice the
budget, at most ``MAX_TOKENS_RETRIES`` times, then stop ``cut_off``. ``pause_turn``: the paused
content goes back unchanged as an assistant turn, and the model is asked again. ``refusal``: keep
the reply as the last turn, run nothing from it, do not ask again. The loop stops at its step
budget, every model call counted. The judge replays the script call by call as a right loop would
ask it, and each hint names the script, the stop reason, what came back and what was expected.
"""

from __future__ import annotations

import json
from typing import Any

from tooldesign.capstone.agent import FIRST_BUDGET, MAX_TOKENS_RETRIES, course_dispatcher
from tooldesign.capstone.scripts import scripted
from tooldesign.dispatch.errors import false_success

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


def _arguments(given: Any) -> str:
    """A call's input whole when it is short, else the names of its arguments (never cut mid-value)."""
    text = json.dumps(given, default=str)
    if len(text) <= 80:
        return text
    if type(given) is dict:
        return "arguments " + ", ".join(str(k) for k in given)
    return f"an input of {len(text)} characters"


def _said(content: Any) -> str:
    """A reply's blocks in a few words: "text, tool_use sales_order_search({...})"."""
    if type(content) is not list:
        return f"a {type(content).__name__}, not a list of blocks"
    parts = []
    for b in content:
        kind = b.get("type") if type(b) is dict else "?"
        if kind in ("tool_use", "server_tool_use"):
            parts.append(f"{kind} {b.get('name')}({_arguments(b.get('input'))})")
        else:
            parts.append(str(kind))
    return ", ".join(parts) or "no blocks"


def _cut_hint(reply: dict, kept: bool) -> str:
    calls = [b for b in reply["content"] if b["type"] == "tool_use"]
    what = (
        f"in the middle of a tool call ({_said(calls[-1:])}, its input incomplete)"
        if calls
        else "in the middle of its text"
    )
    done = "your loop kept it in the conversation" if kept else "your loop used it"
    return (
        f"stop_reason max_tokens came back: the reply was cut off {what}, and {done}; a cut reply is not run, "
        f"sent back or taken for the answer: ask again with max_tokens doubled (at most {MAX_TOKENS_RETRIES} "
        "times, then stop with StopReason.CUT_OFF)"
    )


def _missing_hint(reply: dict, after_cut: bool, report: dict, calls_made: int) -> str:
    """The transcript has no turn where ``reply`` belongs: say what came back and what was expected."""
    stop = reply["stop_reason"]
    ended = f"your loop ended with {report.get('stop')!r} after {report.get('steps')} model calls"
    if after_cut:
        return (
            f"stop_reason max_tokens came back at model call {calls_made - 1}; asked again with twice the budget, "
            f"the reply fits ({_said(reply['content'])}), but {ended}: double max_tokens on each retry"
        )
    if stop == "pause_turn":
        return (
            f"stop_reason pause_turn came back at model call {calls_made} ({_said(reply['content'])}): a server "
            f"tool paused a long turn; {ended}. Append its content unchanged as an assistant turn and ask again"
        )
    if stop == "refusal":
        return (
            f"stop_reason refusal came back at model call {calls_made} ({_said(reply['content'])}); {ended}. "
            "Keep the refused reply as the last turn and stop with StopReason.REFUSED: do not ask again"
        )
    return (
        f"the transcript ends before the reply of model call {calls_made} (stop_reason {stop}: "
        f"{_said(reply['content'])}); {ended}. Run the loop until end_turn, a stop or the budget"
    )


def _tool_turn_problem(
    uses: list[dict], back: Any, later: Any, seen: dict[str, str], outcomes: dict[str, str], dispatcher: Any
) -> str | None:
    """What is wrong with the user turn that answers ``uses`` (None: right); fills ``outcomes``."""
    blocks = back.get("content") if type(back) is dict else None
    if type(back) is not dict or back.get("role") != "user" or type(blocks) is not list:
        return "answer the calls in ONE user turn whose content is a list of tool_result blocks"
    head = blocks[: len(uses)]
    if any(type(b) is not dict or b.get("type") != "tool_result" for b in head):
        return "put the tool_result blocks first in the user turn, any text after them"
    ids = [b.get("tool_use_id") for b in blocks if type(b) is dict and b.get("type") == "tool_result"]
    if set(map(str, ids)) < {u["id"] for u in uses} and type(later) is dict and later.get("role") == "user":
        return "answer every call of one reply in ONE user turn, not one turn per result"
    if sorted(map(str, ids)) != sorted(u["id"] for u in uses):
        return "pair the results by tool_use_id: exactly one tool_result per tool_use of that reply"
    by_id = {b["tool_use_id"]: b for b in head}
    for use in uses:
        outcome, is_error = _expected(use, seen, dispatcher)
        outcomes[use["id"]] = outcome
        got = by_id[use["id"]]
        flagged = got.get("is_error") is True
        if outcome == "pending" and not flagged:
            return (
                "a write that needs a person must not run: send is_error with approval.waiting(name).text, "
                "which says first that nothing has changed"
            )
        if outcome == "pending" and false_success(_text_of(got.get("content"))):
            return (
                "the result of a write that did not run reads as done ("
                + str(false_success(_text_of(got.get("content"))))
                + "): send approval.waiting(name).text"
            )
        if outcome == "refused" and not flagged:
            return "a refused call (unknown tool, invalid arguments) goes back with is_error: True"
        if outcome == "ran" and is_error is not None and flagged is not is_error:
            return "pass the dispatcher's is_error through as it is"
        if outcome == "repeated":
            text = _text_of(got.get("content")).lower()
            if not any(w in text for w in REPEAT_WORDS) and seen[_key(use)].lower() not in text:
                return "a repeated call is not run again; say in its result that it repeats an earlier call"
    return None


def loop_problem(script: dict, request: str, max_steps: int, report: Any) -> str | None:
    """What is wrong with ``report`` (a loop's plain report) on this script: None when it is right."""
    name = script["script"]
    model = scripted(name, int(script.get("seed", 0)))
    say = f"with the {name} script: "
    if type(report) is not dict or not {"answer", "steps", "calls", "stop", "transcript"} <= set(report):
        return "return an AgentReport(answer=..., steps=..., calls=..., stop=..., transcript=...)"
    turns = report["transcript"]
    if type(turns) is not list or not turns or type(turns[0]) is not dict or turns[0].get("role") != "user":
        return say + "the transcript starts with the user's request, the first message you send"
    dispatcher = course_dispatcher()
    seen: dict[str, str] = {}
    outcomes: dict[str, str] = {}
    i, step, calls_made, budget, retries = 1, 0, 0, FIRST_BUDGET, 0
    stop = None
    while stop is None:
        if calls_made >= max_steps:
            if i < len(turns):
                return (
                    say
                    + f"the loop asked the model more than max_steps={max_steps} times; stop at the budget"
                )
            stop = "budget"
            break
        reply = model.turn(step).at(budget)
        calls_made += 1
        kept = {"role": "assistant", "content": reply["content"]}
        if reply["stop_reason"] == "max_tokens":
            if i < len(turns) and turns[i] == kept:
                return say + _cut_hint(reply, kept=True)
            if retries == MAX_TOKENS_RETRIES:
                stop = "cut_off"
                if i != len(turns):
                    return say + "after the last retry cut off at max_tokens, stop: the transcript goes on"
                break
            retries, budget = retries + 1, budget * 2
            continue
        after_cut, retries, budget = retries > 0, 0, FIRST_BUDGET
        if i >= len(turns):
            return say + _missing_hint(reply, after_cut, report, calls_made)
        if turns[i] != kept:
            if (
                reply["stop_reason"] == "pause_turn"
                and type(turns[i]) is dict
                and turns[i].get("role") == "assistant"
            ):
                return say + "stop_reason pause_turn: send the paused content back unchanged, as it came"
            return (
                say
                + f"append each reply as one assistant turn, its content unchanged: model call {calls_made} "
                f"answered {_said(reply['content'])} (stop_reason {reply['stop_reason']}), "
                f"the transcript holds {_said(turns[i].get('content') if type(turns[i]) is dict else turns[i])}"
            )
        i, step = i + 1, step + 1
        said = reply["stop_reason"]
        if said == "refusal":
            stop = "model_refused"
            if i != len(turns):
                nxt = turns[i] if type(turns[i]) is dict else {}
                if nxt.get("role") == "user":
                    return (
                        say + "stop_reason refusal: run nothing from the refused reply "
                        f"({_said(reply['content'])}) and send nothing back; stop with StopReason.REFUSED"
                    )
                return (
                    say
                    + f"stop_reason refusal came back at model call {calls_made} ({_said(reply['content'])}) "
                    "and your loop asked again: do not ask again; stop with StopReason.REFUSED"
                )
            break
        if said == "pause_turn":
            if i < len(turns) and type(turns[i]) is dict and turns[i].get("role") == "user":
                return say + "stop_reason pause_turn: send the paused content back with no user turn after it"
            if i == len(turns) and report.get("stop") != "budget":
                return (
                    say + f"stop_reason pause_turn is not the end of the turn ({_said(reply['content'])}): "
                    f"your loop stopped with {report.get('stop')!r}; send the paused content back and ask again"
                )
            continue
        uses = [b for b in reply["content"] if b["type"] == "tool_use"]
        if not uses:
            stop = "answered"
            if i != len(turns):
                return say + f"the loop went on after the model answered with text (stop_reason {said})"
            words = " ".join(b["text"] for b in reply["content"] if b["type"] == "text")
            if report["answer"] != words:
                return say + "the answer is the text of the model's last reply"
            break
        if i >= len(turns):
            return (
                say
                + "every reply with tool_use needs a user turn of tool_result blocks before the loop stops"
            )
        later = turns[i + 1] if i + 1 < len(turns) else None
        problem = _tool_turn_problem(uses, turns[i], later, seen, outcomes, dispatcher)
        if problem is not None:
            return say + problem
        i += 1
        if "pending" in outcomes.values():
            stop = "pending_approval"
            if i != len(turns):
                return (
                    say
                    + "stop at the approval gate: after a write that needs a person, do not ask the model again"
                )
    return _report_problem(say, report, stop, calls_made, outcomes)


def _report_problem(
    say: str, report: dict, stop: str, calls_made: int, outcomes: dict[str, str]
) -> str | None:
    if report["stop"] != stop:
        why = {"cut_off": " (every retry stopped at max_tokens)", "model_refused": " (stop_reason refusal)"}
        return say + f"stop should be {stop!r} (StopReason){why.get(stop, '')}, not {report['stop']!r}"
    if report["steps"] != calls_made:
        return say + f"steps counts the model calls made, retries included ({calls_made} here)"
    calls = report["calls"]
    if type(calls) is not list or [c.get("id") for c in calls if type(c) is dict] != list(outcomes):
        return (
            say + "calls lists every call the loop answered with a tool_result, once, in the order the model "
            "made them (none from a reply cut off at max_tokens or refused)"
        )
    for c in calls:
        if c.get("outcome") != outcomes[c["id"]]:
            return (
                say
                + f"call {c.get('name')} should be recorded as {outcomes[c['id']]!r}, not {c.get('outcome')!r}"
            )
    if stop in ("pending_approval", "model_refused", "cut_off") and report["answer"] is not None:
        return say + f"a loop that stopped with {stop!r} has no answer (None)"
    return None
