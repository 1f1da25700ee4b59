"""Exercise checks: what a learner's check cell calls, and what the tests and the grader reuse.

``check(grade_id, answer)`` prints one line: a confirmation, "not done yet", or a hint. The same
judgement is available as ``evaluate()``, which returns a :class:`Verdict` instead of printing.
An answer is converted to plain data first (``workbook.plain``); a function answer is called on
the exercise's own inputs and only what it returns is judged. The verdict and the judges' helpers
live in ``workbook.verdicts``, which knows no exercise; they are named here too, so a check cell
and the grader import one module.
"""

from __future__ import annotations

import os
from typing import Any

from workbook.exercises import Exercise, get_exercise
from workbook.plain import NotPlainData, to_plain
from workbook.verdicts import (
    FAIL,
    INDENT,
    MAX_HINT,
    NOT_DONE,
    NOT_DONE_IN_TERMINAL,
    NOT_DONE_VERDICT,
    PASS,
    PLACEHOLDER_WORDS,
    SYMBOL,
    WIDTH,
    Verdict,
    failed,
    for_terminal,
    known_mistake,
    passed,
    placeholder_problem,
    probe_error,
    readable,
    unwrapped,
    whole_number,
    wrapped,
)

__all__ = [
    "FAIL",
    "INDENT",
    "MAX_HINT",
    "NOT_DONE",
    "NOT_DONE_IN_TERMINAL",
    "NOT_DONE_VERDICT",
    "PASS",
    "PLACEHOLDER_WORDS",
    "SYMBOL",
    "WIDTH",
    "Verdict",
    "check",
    "collect",
    "evaluate",
    "failed",
    "for_terminal",
    "judge_plain",
    "known_mistake",
    "passed",
    "passed_here",
    "placeholder_problem",
    "probe_error",
    "readable",
    "unwrapped",
    "whole_number",
    "wrapped",
]


class _NotDone(Exception):
    pass


def _said(error: BaseException) -> str:
    """An exception's message, or a note when even that fails (a learner's class may break __str__)."""
    try:
        text = str(error)
    except Exception:
        return "(its message could not be read)"
    return text if type(text) is str else "(its message is not text)"


def _call(function: Any, args: tuple) -> Any:
    """Call a learner's function on one probe; its failures become plain data a judge can read."""
    try:
        return to_plain(function(*args), "what your function returned")
    except NotImplementedError:
        raise _NotDone from None
    except NotPlainData as error:
        return {"error": f"NotPlainData: {_said(error)}"}
    # The learner's bug is data for the hint, not a crash of the check: sys.exit() inside the function
    # included. Only an interrupt (the stop button) goes through.
    except (Exception, SystemExit) as error:
        return {"error": f"{type(error).__name__}: {_said(error)}"}


def collect(exercise: Exercise, answer: Any) -> Any:
    """What a check judges: the answer as plain data, or a function's results on the probes.

    Raises _NotDone for the untouched stub and NotPlainData for an answer that cannot be judged.
    """
    if answer is Ellipsis:
        raise _NotDone
    if exercise.kind == "function":
        if not callable(answer):
            raise NotPlainData(
                f"{exercise.answer} should be a function (def {exercise.answer}(...):), "
                f"not a {type(answer).__name__}"
            )
        return [_call(answer, args) for args in exercise.probes]
    return to_plain(answer, exercise.answer)


def judge_plain(exercise: Exercise, plain: Any) -> Verdict:
    """Judge plain data with the exercise's own rule. The grader calls this in its own process."""
    try:
        verdict = exercise.judge(plain)
    except Exception as error:  # a judge must never crash on odd data; say what it choked on
        return failed(
            f"this answer has an unexpected shape ({type(error).__name__}); "
            f"re-read what {exercise.answer} should be"
        )
    if not isinstance(verdict, Verdict):
        raise TypeError(f"the judge of {exercise.grade_id} returned {verdict!r}, not a Verdict")
    return verdict


def evaluate(grade_id: str, answer: Any) -> Verdict:
    """Judge ``answer`` for exercise ``grade_id`` and return the verdict."""
    exercise = get_exercise(grade_id)
    try:
        plain = collect(exercise, answer)
    except _NotDone:
        return NOT_DONE_VERDICT
    except NotPlainData as error:
        return failed(_said(error))
    return judge_plain(exercise, plain)


# Exercises whose latest check in this kernel passed: workbook.reveal holds answers back until then.
_PASSED: set[str] = set()


def passed_here(grade_id: str) -> bool:
    """Whether the latest check of ``grade_id`` in this kernel passed."""
    return grade_id in _PASSED


def check(grade_id: str, answer: Any) -> None:
    """Print the verdict for one exercise. Under nbgrader's autograder a miss raises, so it scores 0."""
    verdict = evaluate(grade_id, answer)
    if verdict.passed:
        _PASSED.add(grade_id)
    else:
        _PASSED.discard(grade_id)
    print(verdict.printed(grade_id))
    # A prediction earns no points, so under nbgrader's autograder a miss must not cost a grade cell.
    if (
        get_exercise(grade_id).scored
        and not verdict.passed
        and os.environ.get("NBGRADER_EXECUTION") == "autograde"
    ):
        raise AssertionError(verdict.line(grade_id))
