"""Notebook 03: the mirrored tool set, what its results cost over a loop, and a fix for each problem."""

from __future__ import annotations

from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed

NOTEBOOK = "03_mirrored_tools"

# ---------- exercise: a design fix for each problem of the mirror ----------

# What the notebook showed, each in a few words; the learner picks the fix that removes it.
PROBLEMS = {
    "near-twin names": "get_order, get_order_details and get_order_status differ by one word each",
    "bare numbers": "get_credit answers {'limit', 'open'}, and the sum, the comparison and the policy are left over",
    "whole records": "query returns seven whole records for seven numbers and a yes or no each",
    "bare status codes": "a wrong order number gets '400 Bad Request', a missing one '404'",
    "a direct write": "update_order, in a real mirror of the API, would clear a credit block with nobody asked",
}
# The fixes to choose from: one for each problem, and two that sound reasonable and fix none of them.
# Listed by id, alphabetically: in the problems' order, the printed list would pair each problem with
# its fix by position, and dict(zip(PROBLEMS, FIXES)) would be the answer.
FIXES = {
    "actionable-error": "an error that says what was wrong, what is expected, and gives an example",
    "concise-result": "return only the fields the next decision needs, with a total and a note when a list is cut",
    "draft-behind-gate": "a tool of its own that only drafts the change, behind an approval gate",
    "firmer-prompt": "a system prompt telling the model to be careful with these tools",
    "one-tool-per-task": "one tool per task, named object_verb_detail, whose description says when to use it and "
    "which neighbour to use instead",
    "retry": "retry every failed call up to three times",
    "rule-in-code": "the tool does the arithmetic and applies the approval rule, and returns the outcome",
}
DESIGN_KEY = {
    "near-twin names": "one-tool-per-task",
    "bare numbers": "rule-in-code",
    "whole records": "concise-result",
    "bare status codes": "actionable-error",
    "a direct write": "draft-behind-gate",
}


def _judge_fixes(answer: Any) -> object:
    if type(answer) is not dict or set(answer) != set(PROBLEMS):
        return failed("design_fixes should be a dict with one key for each problem: " + "; ".join(PROBLEMS))
    if any(type(v) is not str or v not in FIXES for v in answer.values()):
        return failed("each value should be one of the fix ids printed above, such as 'retry'")
    if any(v in ("firmer-prompt", "retry") for v in answer.values()):
        return failed(
            "a firmer prompt or a retry changes nothing the model reads or gets back: the same names, the "
            "same results and the same codes arrive; pick a fix in the definition or the code"
        )
    if len(set(answer.values())) < len(answer):
        return failed(
            "each problem has a fix of its own here: one fix used twice leaves another problem as it is"
        )
    # The hint names no problem: naming the wrong one would let a learner swap fixes until it passes.
    if answer != DESIGN_KEY:
        return failed(
            "at least one problem is matched to a fix that would leave it as it is: for each, ask what the "
            "model would still have to guess or do after the fix"
        )
    return passed(
        "each problem removed where it arises: in the names, the code, the result, the error and the gate."
    )


EXERCISES = [
    Exercise(
        "ex03-design-fixes",
        NOTEBOOK,
        "design_fixes",
        2,
        _judge_fixes,
        prompt="Match each problem of the mirrored set with the design fix that removes it.",
        wrong_answers=(
            WrongAnswer({**DESIGN_KEY, "bare status codes": "retry"}, "a firmer prompt or a retry"),
            WrongAnswer({**DESIGN_KEY, "near-twin names": "firmer-prompt"}, "a firmer prompt or a retry"),
            WrongAnswer({**DESIGN_KEY, "bare numbers": "concise-result"}, "one fix used twice"),
            WrongAnswer(
                {**DESIGN_KEY, "bare numbers": "concise-result", "whole records": "rule-in-code"},
                "at least one problem",
            ),
            WrongAnswer(
                {
                    **DESIGN_KEY,
                    "a direct write": "actionable-error",
                    "bare status codes": "draft-behind-gate",
                },
                "at least one problem",
            ),
            WrongAnswer(list(DESIGN_KEY.values()), "a dict with one key"),
            WrongAnswer({**DESIGN_KEY, "a direct write": "gate"}, "fix ids"),
        ),
    ),
]
