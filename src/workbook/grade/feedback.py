"""One feedback file per learner: for each notebook and exercise, the points, passed or not, the hint.

Written for the learner (Markdown, readable as plain text too). Hidden checks show their points
and whether they passed, but not their hint: the hint of a hidden check names the inputs it
tried, and keeping those private is what makes the check worth having. Notes for the instructor
only (the "review" flags and "to grade by hand" in the gradebook's reason column) are left out;
a hand-graded answer is quoted, so the instructor reads it where the learner will.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

from tooldesign.atomic import write_atomic
from tooldesign.wording import count as plural_count
from workbook.grade.gradebook import sort_rows
from workbook.grade.results import ExerciseResult, GradeVerdict, Row, Status, encodable

MARK = {"pass": "✔", "fail": "✘", "not_done": "…", "manual": "✎", "hand": "✎"}
INSTRUCTOR_ONLY = ("review ", "to grade by hand:")  # reasons meant for the gradebook, not the learner
STATUS_TEXT = {
    Status.GRADED: "graded",
    Status.MISSING: "no submission",
    Status.MISSING_ANSWERS: "graded, but some answer cells were missing",
    Status.DUPLICATE_ANSWERS: "graded, but some answer cells appeared twice",
    Status.OUTPUT_LIMIT: "graded; some output was too long and was thrown away",
    Status.TIMEOUT: "a cell ran too long and was stopped",
    Status.MEMORY_LIMIT: "the notebook used more memory than the grader allows",
    Status.DISK_LIMIT: "the notebook wrote more to disk than the grader allows",
    Status.CRASHED: "the notebook's kernel crashed",
    Status.NOT_A_NOTEBOOK: "the file could not be read as a notebook",
    Status.WRONG_NOTEBOOK: "this is not the notebook it is named after",
    Status.REFUSED: "the file was not graded: it is not a plain file (a link or a special file)",
    Status.GRADER_ERROR: "not graded yet: the grader had a problem (not your fault); it will be graded again",
}


_PLAIN_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9_-]+)*")
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?", re.IGNORECASE)  # Windows device names


def file_name(learner: str) -> str:
    """The one name of a learner's feedback file, distinct for every distinct learner id.

    A plain lowercase id ("alice", "bob-2") is its own name. Any other id (capitals, accents, spaces,
    slashes, bytes that are not UTF-8) gets a readable ASCII part and the first hex digits of the
    SHA-256 of the exact id, after a "~" no plain name contains: "Zoë" and "Zoé" get two files, and so
    do "Alice" and "alice" on a file system that ignores case.
    """
    if len(learner) <= 64 and _PLAIN_NAME.fullmatch(learner) and not _RESERVED.fullmatch(learner):
        return learner + ".md"
    ascii_part = unicodedata.normalize("NFKD", learner).encode("ascii", "ignore").decode("ascii")
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_part).strip("._-")[:48] or "learner"
    digest = hashlib.sha256(learner.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{readable}~{digest}.md"


# Line and paragraph breaks of every kind, and the characters that change how text is shown.
_BREAKS = re.compile(r"\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def md_text(text: object) -> str:
    """The one escape of learner-controlled text in a feedback file (an exception message, a name).

    The result stays on the line the grader starts: breaks become " / ", so a message cannot begin
    a line of its own that looks like the grader's ("- ✔ ... 2 of 2", another learner's heading).
    Control and bidi characters are written as escapes, raw HTML cannot open, and any text is made
    valid UTF-8.
    """
    one_line = _BREAKS.sub(" / ", encodable(str(text)))
    shown = "".join(
        char if unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co") else f"\\u{ord(char):04x}"
        for char in one_line
    )
    return shown.replace("<", "&lt;")


# A check's hint is written for the notebook, where "scored below" points at the next cells. A feedback
# file (or Gradescope's page) has nothing below the hint: such a pointer names the notebook instead.
_WHERE = re.compile(r"\b(below|further down|in the next cells?|above)(?=\s*[.;,:)]|\s*$)")
_WHERE_SAID = {
    "below": "in the notebook, in the cells after this exercise's check",
    "further down": "in the notebook, in the cells after this exercise's check",
    "in the next cell": "in the notebook, in the cell after this exercise's check",
    "in the next cells": "in the notebook, in the cells after this exercise's check",
    "above": "in the notebook, before this exercise",
}


def outside_notebook(text: str) -> str:
    """A hint as read outside the notebook: a pointer to cells "below" or "above" names the notebook."""
    return _WHERE.sub(lambda found: _WHERE_SAID[found.group(1)], text)


def _code(text: str) -> str:
    """Inline code holding any text: the fence is one backtick longer than any run inside it."""
    body = md_text(text)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    return f"{fence} {body} {fence}" if fence != "`" else f"`{body}`"


def _points(value: float | int) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _exercise_lines(exercise: ExerciseResult) -> list[str]:
    if exercise.verdict is GradeVerdict.MANUAL:
        written = [
            f"  > {md_text(line)}".rstrip() for line in (exercise.message or "(no answer)").splitlines()
        ]
        return [
            f"- ✎ **{md_text(exercise.grade_id)}**: {_points(exercise.max)} points pending your "
            "instructor's grade; you wrote:",
            *written,
        ]
    if exercise.verdict is GradeVerdict.HAND:
        return [
            f"- ✎ **{md_text(exercise.grade_id)}**: {_points(exercise.points)} of {_points(exercise.max)}, "
            "graded by your instructor",
            f"  - comment: {md_text(exercise.message)}",
        ]
    mark = MARK.get(exercise.verdict.value, "?")
    head = f"- {mark} **{md_text(exercise.grade_id)}**: {_points(exercise.points)} of {_points(exercise.max)}"
    if exercise.hidden:
        return [
            f"{head} (a check your instructor keeps private: "
            f"{'passed' if exercise.verdict is GradeVerdict.PASS else 'not passed'})"
        ]
    lines = [head]
    if exercise.prompt:
        lines.append(f"  - asked: {md_text(outside_notebook(exercise.prompt))}")
    lines.append(
        f"  - {'result' if exercise.verdict is GradeVerdict.PASS else 'hint'}: "
        f"{md_text(outside_notebook(exercise.message))}"
    )
    return lines


def _pending(points: float) -> str:
    return f", {_points(points)} pending a person's grade" if points else ""


def render_learner(learner: str, rows: list[Row]) -> str:
    total = sum(r.total for r in rows)
    most = sum(r.max for r in rows)
    waiting = sum(r.pending for r in rows)
    lines = [
        f"# Feedback for {md_text(learner)}",
        "",
        f"{_points(total)} of {_points(most)} points over {plural_count(len(rows), 'file')}{_pending(waiting)}.",
        "",
    ]
    for row in rows:
        title = row.notebook or row.file
        lines += [
            f"## {md_text(title)}: {_points(row.total)} of {_points(row.max)} points{_pending(row.pending)}",
            "",
            f"File {_code(row.file)}: {STATUS_TEXT.get(row.status, str(row.status))}."
            if row.file
            else "No file was submitted for this notebook.",
        ]
        public = [p for p in row.reason.split("; ") if p and not p.startswith(INSTRUCTOR_ONLY)]
        if public and row.status is not Status.GRADED:
            lines.append(f"Why: {md_text('; '.join(public))}.")
        lines.append("")
        for exercise in row.exercises:
            lines += _exercise_lines(exercise)
        if row.notes:
            lines += ["", "Notes:"] + [f"- {md_text(note)}" for note in row.notes]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def write_feedback(rows: list[Row], folder: Path) -> list[Path]:
    by_learner: dict[str, list[Row]] = {}
    for row in sort_rows(rows):
        by_learner.setdefault(row.learner, []).append(row)
    if by_learner:
        folder.mkdir(parents=True, exist_ok=True)
    return [
        write_atomic(folder / file_name(learner), render_learner(learner, learner_rows))
        for learner, learner_rows in by_learner.items()
    ]
