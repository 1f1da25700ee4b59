"""Notebook 19: build the agent loop. The learner's run_agent, run against every scripted behaviour."""

from __future__ import annotations

import json
import random
from typing import Any

from tooldesign.capstone import (
    BEHAVIOURS,
    loop_problem,
)
from tooldesign.capstone.agent import REQUEST
from tooldesign.capstone.reference import reference_loop
from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import Verdict, failed, passed, probe_error

NOTEBOOK = "19_build_the_agent_loop"

# Seeds and budgets the notebook never shows: two draws of every script, one with a tight budget.
LOOP_PROBES: tuple[tuple[dict, str, int], ...] = tuple(
    ({"script": name, "seed": seed}, REQUEST, budget)
    for name in BEHAVIOURS
    for seed, budget in ((101, 6), (7919, 4))
)


def _judge_loop(results: Any) -> Verdict:
    if type(results) is not list or len(results) != len(LOOP_PROBES):
        return failed("run_agent should return an AgentReport for each script it is run against")
    for (script, request, budget), got in zip(LOOP_PROBES, results):
        error = probe_error(got)
        if error is not None:
            if "the script answered" in error:  # a loop with no bound: the script says what it kept doing
                return failed(f"with the {script['script']} script: {error.split(': ', 1)[-1]}")
            return failed(
                f"with the {script['script']} script your loop raised {error}; read the reply it choked on"
            )
        problem = loop_problem(script, request, budget, got)
        if problem is not None:
            return failed(problem)
    return passed(
        f"your loop handled all {len(BEHAVIOURS)} scripted behaviours and every stop reason they send, "
        "on seeds it had never seen."
    )


def _gen_loop(rng: random.Random) -> tuple:
    return ({"script": rng.choice(BEHAVIOURS), "seed": rng.randrange(10**6)}, REQUEST, rng.randint(2, 8))


def _shape(report: Any) -> Any:
    """What two right runs share: the replies, the pairing (id and is_error, results first), the report."""
    if type(report) is not dict or type(report.get("transcript")) is not list:
        return None
    turns: list[Any] = []
    for turn in report["transcript"][1:]:
        if type(turn) is not dict:
            return None
        if turn.get("role") == "assistant":
            turns.append(json.dumps(turn, sort_keys=True))
            continue
        content = turn.get("content")
        blocks: list[Any] = content if type(content) is list else []
        results = [b for b in blocks if type(b) is dict and b.get("type") == "tool_result"]
        first = blocks[: len(results)] == results
        turns.append((first, sorted((str(b.get("tool_use_id")), b.get("is_error") is True) for b in results)))
    calls = [
        (c.get("id"), c.get("name"), c.get("outcome")) for c in report.get("calls") or [] if type(c) is dict
    ]
    return (turns, calls, report.get("stop"), report.get("steps"), report.get("answer"))


def _same_run(got: Any, want: Any) -> bool:
    return _shape(got) is not None and _shape(got) == _shape(want)


# ---------- the answer key and its plausible mistakes (never shipped) ----------
# They live in tooldesign.capstone.reference, which the student edition leaves out (workbook.handout),
# so `tooldesign record` runs a real model through the same loop the grader trusts.
_loop = reference_loop


EXERCISES = [
    Exercise(
        "ex19-agent-loop",
        NOTEBOOK,
        "run_agent",
        4,
        _judge_loop,
        kind="function",
        probes=LOOP_PROBES,
        prompt="Write run_agent: the loop from a request to an answer over the designed tools and the dispatcher.",
        wrong_answers=(
            WrongAnswer(_loop("unpaired"), "pair the results by tool_use_id"),
            WrongAnswer(_loop("text_first"), "tool_result blocks first"),
            WrongAnswer(_loop("swallow"), "goes back with is_error"),
            WrongAnswer(_loop("run_write"), "needs a person must not run"),
            WrongAnswer(_loop("no_budget"), "step budget"),
            WrongAnswer(
                _loop("rerun_repeat"), "with the repeated_call script: a repeated call is not run again"
            ),
            WrongAnswer(_loop("separate_turns"), "ONE user turn"),
            WrongAnswer(_loop("past_the_gate"), "stop at the approval gate"),
            WrongAnswer(
                _loop("runs_cut_call"), "with the cut_off_mid_call script: stop_reason max_tokens came back"
            ),
            WrongAnswer(_loop("endless_retry"), "kept asking after stop_reason max_tokens"),
            WrongAnswer(_loop("same_budget"), "double max_tokens on each retry"),
            WrongAnswer(_loop("pause_is_end"), "stop_reason pause_turn is not the end of the turn"),
            WrongAnswer(_loop("drops_paused"), "Append its content unchanged as an assistant turn"),
            WrongAnswer(_loop("retries_refusal"), "and your loop asked again: do not ask again"),
            WrongAnswer(_loop("runs_refused_call"), "run nothing from the refused reply"),
        ),
    ),
]
