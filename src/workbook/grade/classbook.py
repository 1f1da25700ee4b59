"""What turns graded files into a class's marks: the roster, hand grades and missing learners.

Everything here works on :class:`~workbook.grade.results.Row` values that are already graded (this
run's, or the journal's), so a new hand-grades file or roster changes totals, exports and feedback
on the next ``grade`` run without running any notebook again.

* **Roster** (``--roster FILE.csv``): one row per learner; the ``learner`` column is the name the
  grader sees (the folder, the file prefix, or the key it gives a Canvas or Moodle download, such
  as ``lastfirst_123456``); the other columns are the LMS's identities (:data:`ROSTER_COLUMNS`).
  A Canvas key also matches a roster row by its ``canvas_id``.
* **Hand grades** (``--hand-grades FILE.csv``): ``learner,exercise,points,comment``, for the
  exercises a person grades (07's design note). Until a learner has one, that exercise is
  *pending*: it counts in ``max`` and adds nothing to ``total``.
* A roster learner without a submission for a notebook of the batch gets a row with status
  ``missing`` and zero points.

The typed results other modules read (exports, the Gradescope package): :class:`Roster`,
:class:`RosterEntry`, :class:`HandGrade`, :class:`Marks`; a row's per-exercise points, ``max``,
``pending`` and ``status`` are on ``Row`` / ``ExerciseResult`` themselves.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from workbook.grade.results import ExerciseResult, GradeVerdict, Row, Status, number

ROSTER_COLUMNS = (
    "learner",  # required: the grader's name for the learner
    "name",  # "Last, First" or "First Last", shown in the LMS file
    "first_name",
    "last_name",
    "canvas_id",  # Canvas's user ID (the "ID" column of its gradebook)
    "sis_user_id",
    "sis_login_id",
    "section",
    "email",
    "id_number",  # Moodle's ID number
)
UNIQUE_COLUMNS = ("learner", "canvas_id", "sis_user_id", "sis_login_id", "email", "id_number")
HAND_COLUMNS = ("learner", "exercise", "points", "comment")


class ClassbookError(ValueError):
    """A roster or hand-grades file that cannot be used; the message is one line saying what to do."""


@dataclass(frozen=True)
class RosterEntry:
    learner: str
    name: str = ""
    first_name: str = ""
    last_name: str = ""
    canvas_id: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    email: str = ""
    id_number: str = ""

    @property
    def shown_name(self) -> str:
        if self.name:
            return self.name
        both = " ".join(p for p in (self.first_name, self.last_name) if p)
        return both or self.learner

    @property
    def name_forms(self) -> tuple[str, ...]:
        """The ways an LMS writes this learner's name in a file or folder name: the roster's own
        learner, "First Last" (Moodle), "lastfirst" (Canvas's sortable name)."""
        first, last = self.first_last
        return tuple(f for f in (self.learner, self.name, f"{first} {last}", f"{last} {first}") if f.strip())

    @property
    def first_last(self) -> tuple[str, str]:
        """(first name, last name) as far as the roster tells them."""
        if self.first_name or self.last_name:
            return self.first_name, self.last_name
        if "," in self.name:
            last, first = (p.strip() for p in self.name.split(",", 1))
            return first, last
        first, _, last = self.name.rpartition(" ")
        return (first, last) if first else ("", self.name)


@dataclass(frozen=True)
class Roster:
    entries: tuple[RosterEntry, ...]

    def match(self, learner: str) -> RosterEntry | None:
        """The roster row of a learner as the grader names them: the same ``learner``; a Canvas key's
        user id as ``canvas_id``; else the name as Canvas and Moodle write it into file names, compared
        after Unicode normalisation and casefolding (:func:`~workbook.grade.submissions.same_text`),
        with and without accents. Only a match with ONE roster row counts: two learners of one name
        are never merged (their submissions are then reported as matching no roster row)."""
        from workbook.grade.submissions import ascii_text, same_text

        for entry in self.entries:
            if entry.learner == learner:
                return entry
        keyed = re.fullmatch(r"(.+?)_(\d+)", learner)  # a Canvas or Moodle key: <name>_<LMS id>
        if keyed:
            by_id = [e for e in self.entries if e.canvas_id and e.canvas_id == keyed.group(2)]
            if len(by_id) == 1:
                return by_id[0]
        for key in (same_text, ascii_text):
            wanted = {key(learner)} | ({key(keyed.group(1))} if keyed else set())
            wanted.discard("")
            found = [e for e in self.entries if wanted & {key(form) for form in e.name_forms}]
            if len(found) == 1:
                return found[0]
            if found:
                return None
        return None


def _read_csv(path: Path, what: str) -> list[dict[str, str]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ClassbookError(f"{what} {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ClassbookError(
            f"{what} {path} cannot be read as UTF-8 CSV ({error}); save it as CSV UTF-8"
        ) from None
    reader = csv.DictReader(io.StringIO(text))
    fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    if "learner" not in fields:
        raise ClassbookError(f"{what} {path} has no 'learner' column; its first line must name the columns")
    reader.fieldnames = fields
    return [{k: (v or "").strip() for k, v in row.items() if k} for row in reader]


def load_roster(path: Path) -> Roster:
    rows = _read_csv(path, "--roster")
    entries = []
    seen: dict[tuple[str, str], int] = {}
    for line, row in enumerate(rows, start=2):
        if not row.get("learner"):
            raise ClassbookError(
                f"--roster {path} line {line} has an empty learner; fill it in or delete the line"
            )
        for column in UNIQUE_COLUMNS:
            value = row.get(column, "")
            if not value:
                continue
            key = (column, value.lower() if column == "email" else value)
            if key in seen:
                raise ClassbookError(
                    f"--roster {path}: {column} {value!r} appears on lines {seen[key]} and {line}; "
                    "each learner needs ids of their own, so fix or delete one of them"
                )
            seen[key] = line
        entries.append(RosterEntry(**{c: row.get(c, "") for c in ROSTER_COLUMNS}))
    return Roster(tuple(entries))


@dataclass(frozen=True)
class HandGrade:
    learner: str
    exercise: str
    points: float
    comment: str
    line: int


def load_hand_grades(path: Path, manual: dict[str, float]) -> tuple[list[HandGrade], list[str]]:
    """The usable rows of a hand-grades file, and one line per row that is not (kept out).

    ``manual``: grade_id -> points of every hand-graded exercise of the course.
    """
    rows = _read_csv(path, "--hand-grades")
    grades, problems = [], []
    for line, row in enumerate(rows, start=2):
        where = f"--hand-grades line {line}"
        exercise, text = row.get("exercise", ""), row.get("points", "")
        if exercise not in manual:
            known = ", ".join(sorted(manual)) or "none"
            problems.append(
                f"{where}: {exercise!r} is not an exercise graded by hand (those are: {known}); fix the name"
            )
            continue
        try:
            points = float(text)
        except ValueError:
            problems.append(f"{where}: points {text!r} is not a number; write the points, e.g. 2 or 1.5")
            continue
        if not 0 <= points <= manual[exercise]:
            problems.append(
                f"{where}: {number(points)} points for {exercise}, which is worth 0 to "
                f"{number(manual[exercise])}; correct the points"
            )
            continue
        grades.append(HandGrade(row["learner"], exercise, number(points), row.get("comment", ""), line))
    return grades, problems


@dataclass
class Marks:
    """A class's rows once roster and hand grades are applied, and what could not be matched."""

    rows: list[Row]
    roster: Roster | None = None
    unmatched: list[str] = field(default_factory=list)  # learners with files but no roster row
    absent: list[str] = field(default_factory=list)  # roster learners with no file at all
    problems: list[str] = field(default_factory=list)  # hand-grade rows not used, one line each
    hand_graded: int = 0


def apply_hand_grades(
    rows: list[Row], grades: list[HandGrade], roster: Roster | None
) -> tuple[list[Row], list[str], int]:
    """Rows with each hand grade in place of its pending exercise, the problems, how many applied."""

    def key_of(learner: str) -> str:
        if roster is not None:
            entry = roster.match(learner)
            if entry is not None:
                return entry.learner
        return learner

    by_key: dict[tuple[str, str], HandGrade] = {}
    learners = {r.learner for r in rows} | {key_of(r.learner) for r in rows}
    problems = []
    for grade in grades:
        if grade.learner not in learners:
            problems.append(
                f"--hand-grades line {grade.line}: no learner {grade.learner!r} in this batch; use the "
                "learner's name as the gradebook's learner column shows it"
            )
            continue
        by_key[(grade.learner, grade.exercise)] = grade
    used: set[tuple[str, str]] = set()
    out = []
    for row in rows:
        exercises, graded_now = [], set()
        for exercise in row.exercises:
            found = by_key.get((row.learner, exercise.grade_id)) or by_key.get(
                (key_of(row.learner), exercise.grade_id)
            )
            if found is not None and exercise.verdict is GradeVerdict.MANUAL:
                used.add((found.learner, found.exercise))
                graded_now.add(exercise.grade_id)
                exercise = replace(
                    exercise,
                    points=found.points,
                    verdict=GradeVerdict.HAND,
                    message=found.comment or "graded by your instructor",
                )
            exercises.append(exercise)
        out.append(
            replace(
                row, exercises=tuple(exercises), reason=_without_hand_notes(row.reason, graded_now)
            ).recounted()
        )
    for key, grade in by_key.items():
        if key not in used:
            problems.append(
                f"--hand-grades line {grade.line}: {grade.learner} has no graded file with {grade.exercise}; "
                "check the learner and the exercise"
            )
    return out, problems, len(used)


def _without_hand_notes(reason: str, graded: set[str]) -> str:
    """The reason without "to grade by hand: <id>" for the exercises a person has now graded."""
    parts = [p for p in reason.split("; ") if not any(p.startswith(f"to grade by hand: {g}") for g in graded)]
    return "; ".join(parts)


def problem_line(problem: str) -> int:
    """Problems in file order: "--hand-grades line 4: ..." sorts by its 4."""
    found = re.match(r"--hand-grades line (\d+)", problem)
    return int(found.group(1)) if found else 0


def missing_rows(rows: list[Row], roster: Roster) -> tuple[list[Row], list[str], list[str]]:
    """A ``missing`` row (zero points) for each roster learner and notebook of the batch they sent no
    file for; and the learners with files but no roster row, and roster rows with no file at all."""
    notebooks: dict[str, Row] = {}
    for row in rows:
        if row.notebook and row.exercises and row.notebook not in notebooks:
            notebooks[row.notebook] = row
    present: dict[str, set[str]] = {}
    unmatched = set()
    for row in rows:
        entry = roster.match(row.learner)
        if entry is None:
            unmatched.add(row.learner)
            continue
        present.setdefault(entry.learner, set()).add(row.notebook)
    added, absent = [], []
    for entry in roster.entries:
        have = present.get(entry.learner, set())
        if not have:
            absent.append(entry.learner)
        for notebook, model in sorted(notebooks.items()):
            if notebook in have:
                continue
            zeros = tuple(
                ExerciseResult(
                    e.grade_id, 0, e.max, GradeVerdict.NOT_DONE, "no submission", e.hidden, e.prompt
                )
                for e in model.exercises
            )
            added.append(
                Row(
                    entry.learner,
                    notebook,
                    "",
                    Status.MISSING,
                    "no submission for this notebook",
                    0,
                    number(sum(e.max for e in zeros)),
                    zeros,
                    (),
                    model.sandbox,
                )
            )
    return rows + added, sorted(unmatched), absent


def course_version(exercises: tuple[tuple[str, str, float, str], ...]) -> str:
    """A short stamp of what a gradebook's points mean: every (notebook, grade_id, points, kind).
    An export refuses a gradebook whose stamp is not this course's."""
    text = "\n".join("\t".join(map(str, e)) for e in sorted(exercises))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def summary_line(label: str, names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "")
    return f"{label}: {len(names)} ({shown})" if names else f"{label}: none"
