"""Exercise checks: what a learner's check cell calls, and what the tests and the grader reuse.

``check(grade_id, answer)`` prints one line: a confirmation, "not done yet", or a hint. The same
judgement is available as ``evaluate()``, which returns a :class:`Verdict` instead of printing.
An answer is converted to plain data first (``workbook.plain``); a function answer is called on
the exercise's own inputs and only what it returns is judged.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from workbook.exercises import Exercise, get_exercise
from workbook.plain import NotPlainData, to_plain

PASS, FAIL, NOT_DONE = "pass", "fail", "not_done"
SYMBOL = {PASS: "✔", FAIL: "✘", NOT_DONE: "…"}


# A hint is a sentence or two; one that quotes a learner's megabyte answer is cut in the middle,
# keeping its start (what was wrong) and its end (what to do).
MAX_HINT = 600


def _bounded(message: str) -> str:
    if len(message) <= MAX_HINT:
        return message
    head, tail = MAX_HINT * 2 // 3, MAX_HINT // 3 - 3
    return message[:head] + " … " + message[-tail:]


@dataclass(frozen=True)
class Verdict:
    status: str
    message: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", _bounded(str(self.message)))

    @property
    def passed(self) -> bool:
        return self.status == PASS

    def line(self, grade_id: str) -> str:
        return f"{SYMBOL[self.status]} {grade_id}: {self.message}"

    def printed(self, grade_id: str) -> str:
        """The line as a check cell prints it: a hint is wrapped between words into lines of at most
        WIDTH characters, continued with an indent. JupyterLab breaks a long output line anywhere,
        mid-word included (its output style is word-break: break-all), and so does a terminal."""
        return wrapped(self.line(grade_id)) if self.status != PASS else self.line(grade_id)


def passed(message: str) -> Verdict:
    return Verdict(PASS, message)


def failed(hint: str) -> Verdict:
    return Verdict(FAIL, hint)


def probe_error(result: Any) -> str | None:
    """What a function answer raised on one probe ("TypeName: message"), or None when it returned.

    A call that raises is recorded as ``{"error": "TypeName: message"}`` (``_call`` here, and the
    grader's kernel), so a judge reads the learner's bug as data. Only that exact shape counts: a
    function whose own answer is a dict with an "error" field among others returned a value, and
    is judged as one.
    """
    if isinstance(result, dict) and set(result) == {"error"} and isinstance(result["error"], str):
        return result["error"]
    return None


def whole_number(value: Any) -> Any:
    """An integral float (3.0) as the int it stands for; anything else unchanged, for the judge to refuse."""
    return int(value) if type(value) is float and value == int(value) else value


WIDTH = 96  # characters per printed line of a hint
INDENT = "  "  # a printed hint's continuation lines start with it


def wrapped(line: str) -> str:
    """``line`` broken between words into lines of at most WIDTH characters; unwrapped() undoes it."""
    import textwrap

    return (
        "\n".join(
            textwrap.wrap(
                line, WIDTH, subsequent_indent=INDENT, break_long_words=False, break_on_hyphens=False
            )
        )
        or line
    )


def unwrapped(text: str) -> str:
    """A printed hint back on one line."""
    return text.replace("\n" + INDENT, " ")


# What "not done yet" asks for, where the check ran: in the notebook, and in `make check` (a terminal
# running the saved file, where "run this cell again" would send the learner to the wrong place).
NOT_DONE_IN_TERMINAL = (
    "not done yet: replace the ... (or the raise NotImplementedError) in the exercise cell with your "
    "answer, save the notebook (Ctrl+S), then run make check again."
)


def for_terminal(message: str) -> str:
    """A check's message as `make check` prints it in a terminal."""
    return NOT_DONE_IN_TERMINAL if message == NOT_DONE_VERDICT.message else message


NOT_DONE_VERDICT = Verdict(
    NOT_DONE,
    "not done yet: replace the ... (or the raise NotImplementedError) "
    "in the exercise cell with your answer, run it, then run this cell again.",
)


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


# Words that hold a place instead of saying something; a judge of a written answer refuses them.
PLACEHOLDER_WORDS = frozenset(
    [
        "lorem",
        "ipsum",
        "dolor",
        "amet",
        "foo",
        "baz",
        "qux",
        "quux",
        "todo",
        "tbd",
        "fixme",
        "placeholder",
        "asdf",
        "qwerty",
        "blah",
        "dummy",
    ]
)


def placeholder_problem(text: str, what: str, least_words: int = 3) -> str | None:
    """Why ``text`` holds a place rather than saying something, or None when it reads as written words.

    Empty-ish (no letters, fewer than ``least_words`` words), placeholder words ("lorem ipsum",
    "TODO", "foo bar"), a letter repeated ("xxxx", "aaaa"), or one word over and over: judged on the
    words, whatever the answer's subject, so every written exercise shares one rule.
    """
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
    if len([w for w in words if len(w) > 1]) < least_words:
        left = f", not left as {text.strip()[:40]!r}" if text.strip() else ""
        return f"{what} should be written out in words (at least {least_words}){left}"
    held = sorted({w for w in words if w in PLACEHOLDER_WORDS or re.fullmatch(r"(.)\1{2,}", w)})
    if held:
        return f"{what} holds placeholder words ({', '.join(held[:3])}); write what you mean"
    if len(set(words)) * 2 < len(words) and len(set(words)) < least_words + 1:
        return f"{what} repeats the same few words; write it as a sentence"
    return None


def readable(value: Any, limit: int = 60) -> str:
    """A value as a hint shows it: whole when it is short, else a summary that is never cut mid-value.

    A tool or definition (a dict with a "name") is shown by its name, a list of records by its length,
    a long dict or list by the entries that fit whole and how many more there are, a long text by its
    first words and its length: a learner can tell which case it was, and no quote or bracket is left open."""
    shown = repr(value)
    if len(shown) <= limit:
        return shown
    if isinstance(value, dict):
        if isinstance(value.get("name"), str):
            return f"<{value['name']}>"
        parts = [f"{key!r}: {readable(item, limit // 2)}" for key, item in value.items()]
        return _fitting("{", parts, "}", limit, "more keys")
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(item, dict) for item in value):
            return f"<a list of {len(value)} dict{'' if len(value) == 1 else 's'}>"
        parts = [readable(item, limit // 2) for item in value]
        return _fitting(
            "[" if isinstance(value, list) else "(",
            parts,
            "]" if isinstance(value, list) else ")",
            limit,
            "more",
        )
    if isinstance(value, str):
        head = value[: max(limit - 24, 10)]
        words = head.rsplit(" ", 1)[0] if " " in head.strip() else head
        return f"{words.rstrip()!r}... ({len(value):,} characters)"
    return f"<a {type(value).__name__}>"


def _fitting(open_: str, parts: list[str], close: str, limit: int, more: str) -> str:
    """Whole entries, as many as fit in ``limit`` characters, then how many were left out."""
    kept: list[str] = []
    for part in parts:
        if kept and len(", ".join([*kept, part])) > limit - 16:
            break
        kept.append(part)
    left = len(parts) - len(kept)
    return open_ + ", ".join(kept) + (f", ... {left} {more}" if left else "") + close


def known_mistake(args: tuple, got: Any, mistakes: tuple[tuple[Any, str], ...]) -> str | None:
    """The hint of the first known wrong rule (a function, with its hint) that returns ``got`` on ``args``.

    A function exercise's judge names the rule a learner's result breaks this way, on the case where
    it broke, without saying the right result: a hint that named it would let a learner copy it.
    """
    import copy

    for rule, hint in mistakes:
        try:
            theirs = to_plain(rule(*copy.deepcopy(args)), "a known mistake")
        except Exception:  # a wrong rule that cannot take this case is simply not the one the learner made
            continue
        if theirs == got:
            return hint
    return None
