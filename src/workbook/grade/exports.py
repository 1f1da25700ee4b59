"""Marks in the shape each LMS imports: ``workbook grade ... --export canvas|moodle|nbgrader|lesson-csv``.

Every export is written from the rows of the run (roster, hand grades and missing learners applied,
see ``classbook``), into ``OUT/exports/``. One score per learner and lesson, the lesson being the
notebook (one LMS assignment per notebook). A lesson whose hand-graded points are still pending
is left *empty* in the Canvas, Moodle and nbgrader files (each reads an empty cell as "not graded
yet", never as zero) and written ``pending`` in the per-lesson CSV.

Formats, as each target documents its import:

* ``canvas``: Canvas gradebook import CSV. Read 2026-12-02: a university's guide to it, "Import a CSV
  file into Carmen Grades" (https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades):
  the student's name ("last name, first name") or Student ID or SIS User ID, then SIS Login ID,
  then Section, then one column per assignment, the layout of Canvas's own export; and "Gradebook
  Action Menu" (https://ts.vcu.edu/askit/teaching-and-learning/canvas/faculty/grading-faculty/gradebook-action-menu-faculty/)
  on re-uploading an export. So: columns ``Student,ID,SIS User ID,SIS Login ID,Section``, then one
  column per assignment; the second line is ``Points Possible`` with each assignment's points, as
  Canvas's export writes it. Canvas computes its own totals, so no total column is written (Canvas
  would take it for a new assignment). UTF-8 without BOM and CRLF line ends are the course's choice
  (neither page names an encoding).
* ``moodle``: Moodle grade import from a CSV file (MoodleDocs, "Grade import",
  https://docs.moodle.org/311/en/Grade_import, read 2026-12-02): "the import file format is the
  same as the corresponding export format", mapped from "Email address" to useremail or from
  "ID number" to useridnumber; one column per grade item. UTF-8, comma, no BOM.
* ``nbgrader``: the ``grades.csv`` of ``nbgrader export`` (nbgrader's CsvExportPlugin, documented in
  "Creating and grading assignments", nbgrader.readthedocs.io, read 2026-12): ``assignment,duedate,
  timestamp,student_id,last_name,first_name,email,raw_score,late_submission_penalty,score,max_score``,
  scores as floats (``1.5``, ``9.0``), LF line ends.
* ``lesson-csv``: one file per lesson, one row per learner, one column per exercise, then total,
  max, pending and status; and ``course.csv`` with each lesson's total and the course total.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from tooldesign.atomic import write_atomic
from workbook.grade.classbook import Roster, RosterEntry
from workbook.grade.gradebook import Course, csv_cell, exercise_columns
from workbook.grade.results import Row, Status, number

TARGETS = ("canvas", "moodle", "nbgrader", "lesson-csv")
NEEDS_ROSTER = ("canvas", "moodle")
CANVAS_HEAD = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_HEAD = ("First name", "Last name", "ID number", "Email address")
NBGRADER_HEAD = (
    "assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email",
    "raw_score", "late_submission_penalty", "score", "max_score",
)  # fmt: skip


class ExportError(ValueError):
    """An export that cannot be written as asked; one line saying what to do."""


@dataclass(frozen=True)
class LessonMark:
    """One learner's mark for one lesson: what every export writes."""

    learner: str
    lesson: str
    points: float
    max: float
    pending: float  # points waiting for a person's grade (in max, not in points)
    status: Status
    row: Row


def lesson_marks(rows: list[Row]) -> dict[tuple[str, str], LessonMark]:
    """(learner, lesson) -> the mark; of two files of one learner for one lesson, the better counts."""
    marks: dict[tuple[str, str], LessonMark] = {}
    for row in rows:
        if not row.notebook:
            continue
        mark = LessonMark(row.learner, row.notebook, row.total, row.max, row.pending, row.status, row)
        held = marks.get((row.learner, row.notebook))
        if held is None or (mark.points, mark.max) > (held.points, held.max):
            marks[(row.learner, row.notebook)] = mark
    return marks


def lessons_of(rows: list[Row]) -> dict[str, float]:
    """lesson -> its points possible (the largest max any file of it shows)."""
    out: dict[str, float] = {}
    for row in sorted(rows, key=lambda r: r.notebook):
        if row.notebook:
            out[row.notebook] = max(out.get(row.notebook, 0), row.max)
    return out


def _score(mark: LessonMark | None) -> str | float:
    if mark is None or mark.pending:
        return ""  # not graded yet: an LMS leaves an empty cell alone, and never reads it as 0
    return number(mark.points)


def _people(rows: list[Row], roster: Roster | None) -> list[tuple[str, RosterEntry]]:
    """(learner key, roster entry) in roster order; without a roster, each learner as their own entry."""
    if roster is None:
        return [(name, RosterEntry(name)) for name in sorted({r.learner for r in rows})]
    out = []
    for entry in roster.entries:
        out.append((entry.learner, entry))
    return out


def _keyed(rows: list[Row], roster: Roster | None) -> list[Row]:
    """Rows with the roster's learner name, so a Canvas key finds its roster row."""
    if roster is None:
        return rows
    from dataclasses import replace

    out = []
    for row in rows:
        entry = roster.match(row.learner)
        out.append(replace(row, learner=entry.learner) if entry else row)
    return out


def _csv(rows: list[list[object]], ending: str) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=ending)
    for cells in rows:
        writer.writerow([csv_cell(c) for c in cells])
    return buffer.getvalue()


def canvas(rows: list[Row], roster: Roster | None) -> str:
    rows = _keyed(rows, roster)
    lessons, marks = lessons_of(rows), lesson_marks(rows)
    table: list[list[object]] = [
        [*map(Course, CANVAS_HEAD), *map(Course, lessons)],
        [Course("Points Possible"), "", "", "", "", *map(number, lessons.values())],
    ]
    for key, entry in _people(rows, roster):
        first, last = entry.first_last
        student = f"{last}, {first}" if first and last else entry.shown_name
        table.append(
            [
                student,
                entry.canvas_id,
                entry.sis_user_id,
                entry.sis_login_id,
                Course(entry.section),  # the instructor's value, never a learner's
                *(_score(marks.get((key, lesson))) for lesson in lessons),
            ]
        )
    return _csv(table, "\r\n")


def moodle(rows: list[Row], roster: Roster | None) -> str:
    rows = _keyed(rows, roster)
    lessons, marks = lessons_of(rows), lesson_marks(rows)
    table: list[list[object]] = [[*map(Course, MOODLE_HEAD), *map(Course, lessons)]]
    for key, entry in _people(rows, roster):
        first, last = entry.first_last
        table.append(
            [
                first,
                last,
                entry.id_number,
                entry.email,
                *(_score(marks.get((key, lesson))) for lesson in lessons),
            ]
        )
    return _csv(table, "\n")


def _float(value: float) -> str:
    return repr(float(value))


def nbgrader(rows: list[Row], roster: Roster | None) -> str:
    rows = _keyed(rows, roster)
    lessons, marks = lessons_of(rows), lesson_marks(rows)
    table: list[list[object]] = [list(map(Course, NBGRADER_HEAD))]
    for lesson, most in lessons.items():
        for key, entry in sorted(_people(rows, roster)):
            first, last = entry.first_last
            mark = marks.get((key, lesson))
            score = "" if mark is None or mark.pending else _float(mark.points)
            table.append(
                [
                    Course(lesson),
                    "",
                    "",
                    key,
                    last,
                    first,
                    entry.email,
                    Course(score),
                    Course("0.0" if score else ""),
                    Course(score),
                    Course(_float(most)),
                ]
            )
    return _csv(table, "\n")


def lesson_csv(rows: list[Row], roster: Roster | None) -> dict[str, str]:
    """file name -> text: ``lesson-<notebook>.csv`` for each lesson, and ``course.csv``."""
    rows = _keyed(rows, roster)
    lessons, marks = lessons_of(rows), lesson_marks(rows)
    people = [key for key, _ in _people(rows, roster)]
    files = {}
    for lesson in lessons:
        of_lesson = [m.row for (_, name), m in marks.items() if name == lesson]
        columns = exercise_columns(of_lesson)
        table: list[list[object]] = [
            list(map(Course, ["learner", *columns, "total", "max", "pending", "status"]))
        ]
        for key in people:
            mark = marks.get((key, lesson))
            if mark is None:
                table.append([key, *([""] * len(columns)), 0, number(lessons[lesson]), 0, Course("missing")])
                continue
            cells = {
                e.grade_id: (Course("pending") if e.pending else number(e.points)) for e in mark.row.exercises
            }
            table.append(
                [
                    key,
                    *(cells.get(c, "") for c in columns),
                    number(mark.points),
                    number(mark.max),
                    number(mark.pending),
                    mark.status.value,
                ]
            )
        files[f"lesson-{lesson}.csv"] = _csv(table, "\n")
    course: list[list[object]] = [list(map(Course, ["learner", *lessons, "total", "max", "pending"]))]
    for key in people:
        got = [marks.get((key, lesson)) for lesson in lessons]
        course.append(
            [
                key,
                *(number(m.points) if m else 0 for m in got),
                number(sum(m.points for m in got if m)),
                number(sum(lessons.values())),
                number(sum(m.pending for m in got if m)),
            ]
        )
    files["course.csv"] = _csv(course, "\n")
    return files


def write_exports(
    rows: list[Row], roster: Roster | None, targets: list[str] | tuple[str, ...], folder: Path
) -> list[Path]:
    """Each target written once, in the order first asked for (``--to canvas --to moodle --to canvas``
    writes canvas.csv, then moodle.csv)."""
    targets = list(dict.fromkeys(targets))
    bad = [t for t in targets if t not in TARGETS]
    if bad:
        raise ExportError(f"--export {bad[0]}: unknown target; choose from {', '.join(TARGETS)}")
    missing_roster = [t for t in targets if t in NEEDS_ROSTER and roster is None]
    if missing_roster:
        raise ExportError(
            f"--export {missing_roster[0]} needs --roster FILE.csv: the LMS matches learners by its own ids "
            "(canvas_id / sis_user_id, or id_number / email), which only the roster holds"
        )
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for target in targets:
        if target == "lesson-csv":
            for name, text in lesson_csv(rows, roster).items():
                written.append(write_atomic(folder / name, text))
        else:
            text = {"canvas": canvas, "moodle": moodle, "nbgrader": nbgrader}[target](rows, roster)
            written.append(write_atomic(folder / f"{target}.csv", text))
    return written
