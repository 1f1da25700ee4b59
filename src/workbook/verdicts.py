"""A check's verdict and the pieces every judge builds it from.

A judge (one per exercise, in ``workbook.exercises.lessonNN``) turns plain data into a
:class:`Verdict` with ``passed``/``failed`` and the helpers here. This module knows no exercise:
``workbook.checks`` looks an exercise up and judges with it, so the arrows run one way
(checks -> exercises -> verdicts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from workbook.plain import to_plain

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
