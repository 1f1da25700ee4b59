"""The gradebook: one CSV row per submitted file, one column per exercise, for a spreadsheet or an LMS.

Columns: learner, notebook, one column per exercise grade_id (the notebooks of the batch in course
order, hidden checks after the official ones; a hand-graded exercise not graded yet says
"pending"), total, max (hand-graded points included), pending (the points of max still waiting
for a person's grade), status, reason, file, sandbox ("bwrap",
or "unsandboxed": graded with --no-sandbox, so the learner's code could have changed anything). A cell is empty
where the exercise belongs to another notebook. Rows are sorted by learner, notebook and file, so
two runs over the same submissions give the same bytes.
"""

from __future__ import annotations

import csv
import io
import re
from enum import Enum
from pathlib import Path

from tooldesign.atomic import write_atomic
from workbook.grade.results import GradeVerdict, Row, encodable

FIXED_HEAD = ("learner", "notebook")
FIXED_TAIL = ("total", "max", "pending", "status", "reason", "file", "sandbox")


def sort_rows(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r.learner, r.notebook, r.file))


def exercise_columns(rows: list[Row]) -> list[str]:
    columns: dict[str, None] = {}
    for row in sorted(rows, key=lambda r: r.notebook):
        for exercise in row.exercises:
            columns.setdefault(exercise.grade_id, None)
    return list(columns)


def note_duplicates(rows: list[Row]) -> list[Row]:
    """Two files of one learner for one notebook are both graded; each row names the other file."""
    by_key: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        if row.notebook:
            by_key.setdefault((row.learner, row.notebook), []).append(row.file)
    out = []
    for row in rows:
        others = [f for f in by_key.get((row.learner, row.notebook), []) if f != row.file]
        if others:
            row = row.with_reason(f"the same learner submitted this notebook again as {', '.join(others)}")
        out.append(row)
    return out


# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): = + - @, and a tab or a
# line break that hides one. Numbers are written as numbers and never pass through here.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")  # a number in text: never a formula


class Course(str):
    """Text the course or the instructor wrote (a header, a lesson name, a status, a roster's
    section, a score written as text): written as it is. Only text that came from a learner (names,
    ids, file names, feedback and reasons quoting their code) is guarded against formulas, so the
    guard never alters the course's own values ("-1" stays -1)."""

    __slots__ = ()


def csv_cell(value: object) -> object:
    """The one escape of every gradebook and export cell: learner text that a spreadsheet would run
    as a formula gets a leading apostrophe (shown as text, never evaluated); any text is made valid
    UTF-8. :class:`Course` text and text that is just a number are not formulas and stay as they are."""
    course = isinstance(value, (Course, Enum))  # a status is the grader's own word
    value = value.value if isinstance(value, Enum) else value
    if not isinstance(value, str):
        return value
    # The writer quotes a field with "\n" but not one with a lone "\r", which would end the row early.
    text = encodable(value).replace("\r\n", "\n").replace("\r", "\n")
    if course or PLAIN_NUMBER.fullmatch(text):
        return text
    return "'" + text if text.lstrip(" ").startswith(FORMULA_START) else text


def render(rows: list[Row]) -> str:
    columns = exercise_columns(rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(Course(c)) for c in (*FIXED_HEAD, *columns, *FIXED_TAIL)])
    for row in sort_rows(rows):
        points = {
            e.grade_id: (Course("pending") if e.verdict is GradeVerdict.MANUAL else e.points)
            for e in row.exercises
        }
        cells = [
            row.learner,
            Course(row.notebook),
            *(points.get(c, "") for c in columns),
            *(getattr(row, name) for name in FIXED_TAIL),
        ]
        writer.writerow([csv_cell(c) for c in cells])
    return buffer.getvalue()


def write_gradebook(rows: list[Row], path: Path) -> Path:
    """Write the gradebook atomically: a spreadsheet open on it never reads half a run."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(path, render(rows))


def write_stamp(rows: list[Row], path: Path) -> Path:
    """``gradebook.json`` next to the CSV: the course version the points mean, and every row, for
    ``workbook`` tools that read a finished gradebook (exports, the Gradescope package)."""
    import json

    from workbook.grade.classbook import course_version
    from workbook.grade.plan import course_exercises

    data = {
        "course_version": course_version(course_exercises()),
        "rows": [r.to_dict() for r in sort_rows(rows)],
    }
    return write_atomic(path, json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def read_stamp(path: Path) -> list[Row]:
    """The rows of a ``gradebook.json``; refused (one line) when it came from another course version."""
    import json

    from workbook.grade.classbook import ClassbookError, course_version
    from workbook.grade.plan import course_exercises

    if not path.is_file():
        raise ClassbookError(
            f"{path.parent} holds no {path.name}; grade into it first: workbook grade SUBMISSIONS --out {path.parent}"
        )
    not_ours = f"{path} is not a gradebook the grader wrote; run `workbook grade` again to write it"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ClassbookError(
            f"{path} cannot be read ({error}); run `workbook grade` again to write it"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise ClassbookError(not_ours)
    here = course_version(course_exercises())
    if data.get("course_version") != here:
        raise ClassbookError(
            f"{path} was graded with course version {data.get('course_version')!r}, this course is {here!r}: "
            "its points mean other exercises; grade again with this course before exporting"
        )
    try:
        return [Row.from_dict(r) for r in data["rows"]]
    except (TypeError, ValueError, KeyError, AttributeError):
        raise ClassbookError(not_ours) from None
