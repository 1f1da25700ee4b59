"""What to grade in each notebook, read from the source in solutions/ and the exercise definitions.

A :class:`Plan` is the released notebook (``learner_copy`` of the solution: what every learner
started from) plus one :class:`Slot` per graded answer. Which cells are answers, which are checks
and how many points each is worth come from the nbgrader metadata of the solution notebook, the
same metadata nbgrader reads; the judge, kind and probes come from ``workbook.exercises``.

Hidden checks (``--hidden-checks FILE``) are exercises of the same shape, in a file the learners
never see. One with a new grade_id gets a slot of its own, taken out at the same point as the official
exercise that defines the same answer name (at the end of the notebook when none does). One with
the grade_id of an official exercise replaces its judge and probes and keeps its points.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import pkgutil
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import workbook.exercises as exercises_package
from workbook import REPO_ROOT, SOLUTIONS_DIR
from workbook.checks import failed
from workbook.exercises import Exercise
from workbook.release import learner_copy, read_notebook

CHECK_SUFFIX = "-check"


class PlanError(RuntimeError):
    """The course itself cannot be graded this way (a broken lesson, a bad hidden-checks file)."""


@dataclass(frozen=True)
class Slot:
    exercise: Exercise
    points: float
    answer_cell: int | None  # index of the answer cell in the released notebook
    extract_at: int  # the answer is taken out just before running this cell (len(cells): at the end)
    hidden: bool = False  # from --hidden-checks: its hint is not shown to the learner

    @property
    def grade_id(self) -> str:
        return self.exercise.grade_id


@dataclass(frozen=True)
class Cell:
    kind: str  # "code", "markdown", "raw"
    source: str
    role: str = "lesson"  # "lesson", "answer" or "check"
    grade_id: str = ""
    cell_id: str = ""  # the released cell's nbformat id: a learner's copy keeps it whatever its metadata says


@dataclass(frozen=True)
class Plan:
    notebook: str
    cells: tuple[Cell, ...]
    slots: tuple[Slot, ...]
    answer_cells: dict[str, int] = field(default_factory=dict)  # grade_id -> index of its answer cell
    problems: tuple[str, ...] = ()  # author mistakes found while planning
    predictions: dict[str, int] = field(default_factory=dict)  # grade_id -> cell of an unscored prediction

    @property
    def max_points(self) -> float:
        return sum(slot.points for slot in self.slots)  # hand-graded points count (pending until graded)


def known_notebooks(solutions: Path = SOLUTIONS_DIR) -> list[str]:
    return sorted(p.stem for p in solutions.glob("[0-9][0-9]_*.ipynb"))


@cache
def lesson_exercises() -> tuple[tuple[Exercise, ...], tuple[str, ...]]:
    """Every lesson's exercises, and one line per lesson module that failed to import.

    Each module is imported on its own, so a lesson being edited (or broken) costs only its own
    notebooks, which get a row saying so, and never the whole batch.
    """
    found: list[Exercise] = []
    broken: list[str] = []
    for module in sorted(m.name for m in pkgutil.iter_modules(exercises_package.__path__)):
        if not module.startswith("lesson"):
            continue
        try:
            found.extend(importlib.import_module(f"{exercises_package.__name__}.{module}").EXERCISES)
        except Exception as error:  # one broken lesson must not stop the grading of the others
            broken.append(f"{module}: {type(error).__name__}: {error}")
    return tuple(found), tuple(broken)


def load_hidden_checks(path: Path | None) -> tuple[Exercise, ...]:
    """The hidden checks in ``path``: a Python file that defines ``EXERCISES = [Exercise(...), ...]``."""
    if path is None:
        return ()
    if not path.is_file():
        raise PlanError(f"--hidden-checks {path}: no such file")
    name = f"workbook_hidden_checks_{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # Python loads only files it recognises, such as *.py
        raise PlanError(f"--hidden-checks {path}: not a Python file; name a file ending in .py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look modules up by name
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit, KeyboardInterrupt) as error:
        # sys.exit(0) in the file must not end `grade` with status 0 having graded nothing.
        raise PlanError(
            f"--hidden-checks {path} does not load: {type(error).__name__}: {error}"
            + (" (a hidden-checks file must not exit or stop)" if not isinstance(error, Exception) else "")
        ) from None
    hidden_checks = getattr(module, "EXERCISES", None)
    if not isinstance(hidden_checks, (list, tuple)) or not all(
        isinstance(ex, Exercise) for ex in hidden_checks
    ):
        raise PlanError(
            f"--hidden-checks {path} must define EXERCISES, a list of workbook.exercises.Exercise"
        )
    for exercise in hidden_checks:
        if exercise.kind not in ("value", "function"):
            raise PlanError(
                f"--hidden-checks: {exercise.grade_id} has kind {exercise.kind!r}; hidden checks are "
                "'value' or 'function'"
            )
        if not _literal(exercise.probes):
            raise PlanError(
                f"--hidden-checks: the probes of {exercise.grade_id} must be plain literals "
                "(numbers, strings, None, lists, tuples, dicts)"
            )
    return tuple(hidden_checks)


def _literal(value: object) -> bool:
    try:
        return ast.literal_eval(repr(value)) == value
    except (ValueError, SyntaxError):
        return False


def _no_definition(grade_id: str):
    def judge(plain: object) -> object:
        return failed(
            f"the course has no check for {grade_id}; the instructor must add it to workbook.exercises"
        )

    return judge


def build_plan(
    notebook: str, hidden_checks: tuple[Exercise, ...] = (), solutions: Path = SOLUTIONS_DIR
) -> Plan:
    """The plan of one notebook: released cells, answer and check cells, slots in notebook order."""
    exercises, broken = lesson_exercises()
    number = notebook[:2]
    broken_here = [line for line in broken if line.startswith(f"lesson{number}")]
    if broken_here:
        raise PlanError(f"the exercise definitions of this lesson do not import ({broken_here[0]})")
    source = read_notebook(solutions / f"{notebook}.ipynb")
    released = learner_copy(source)
    defined = {ex.grade_id: ex for ex in exercises if ex.notebook == notebook}
    # A prediction is the learner's own: its cell runs as they wrote it (later cells may wait for its
    # check), but it is no answer: missing, copied or lifted, it costs nothing and earns nothing.
    predictions = {gid for gid, ex in defined.items() if not ex.scored}
    defined = {gid: ex for gid, ex in defined.items() if gid not in predictions}
    cells: list[Cell] = []
    answers: dict[str, int] = {}
    checks: dict[str, tuple[int, float]] = {}
    predicted: dict[str, int] = {}
    manual: dict[str, float] = {}
    for index, cell in enumerate(released.cells):
        meta = cell.metadata.get("nbgrader", {})
        grade_id = meta.get("grade_id", "")
        role = "lesson"
        if grade_id in predictions:
            if meta.get("solution"):
                predicted[grade_id] = index
        elif meta.get("solution") and not meta.get("grade"):
            role, answers[grade_id] = "answer", index
        elif meta.get("grade") and meta.get("solution"):  # nbgrader's manually graded answer
            role, answers[grade_id] = "answer", index
            manual[grade_id] = float(meta.get("points", 0))
        elif meta.get("grade") and grade_id.endswith(CHECK_SUFFIX):
            role = "check"
            checks[grade_id[: -len(CHECK_SUFFIX)]] = (index, float(meta.get("points", 0)))
        cells.append(Cell(cell.cell_type, cell.source, role, grade_id, str(cell.get("id", "") or "")))
    problems = [f"{gid}: an answer cell with no exercise definition" for gid in answers if gid not in defined]
    problems += [
        f"{gid}: defined in workbook.exercises but has no answer cell"
        for gid in defined
        if gid not in answers
    ]
    slots: list[Slot] = []
    for grade_id, index in sorted(answers.items(), key=lambda item: item[1]):
        exercise = defined.get(grade_id) or Exercise(grade_id, notebook, "?", 0, _no_definition(grade_id))
        check_index, points = checks.get(grade_id, (index + 1, manual.get(grade_id, float(exercise.points))))
        slots.append(Slot(exercise, points, index, check_index))
    slots = _with_hidden_checks(slots, [ex for ex in hidden_checks if ex.notebook == notebook], len(cells))
    return Plan(notebook, tuple(cells), tuple(slots), answers, tuple(problems), predicted)


def _with_hidden_checks(slots: list[Slot], hidden_checks: list[Exercise], end: int) -> list[Slot]:
    by_id = {slot.grade_id: i for i, slot in enumerate(slots)}
    added: list[Slot] = []
    for exercise in hidden_checks:
        if exercise.grade_id in by_id:  # a stricter rule for an official exercise: same points, new judge
            i = by_id[exercise.grade_id]
            slots[i] = Slot(exercise, slots[i].points, slots[i].answer_cell, slots[i].extract_at, hidden=True)
            continue
        twin = next((s for s in slots if s.exercise.answer == exercise.answer and not s.hidden), None)
        added.append(
            Slot(
                exercise,
                float(exercise.points),
                twin.answer_cell if twin else None,
                twin.extract_at if twin else end,
                hidden=True,
            )
        )
    # Stable order: official slots first at each extraction point, then the hidden ones.
    return sorted(slots + added, key=lambda s: (s.extract_at, s.hidden))


def manual_points() -> dict[str, float]:
    """grade_id -> points of every exercise a person grades (``kind="manual"``), from the notebooks'
    nbgrader metadata (the points the grader puts in ``max``)."""
    exercises, _ = lesson_exercises()
    out = {}
    for exercise in exercises:
        if exercise.kind == "manual":
            plan = build_plan(exercise.notebook)
            out.update({s.grade_id: s.points for s in plan.slots if s.grade_id == exercise.grade_id})
    return out


def course_exercises() -> tuple[tuple[str, str, float, str], ...]:
    """(notebook, grade_id, points, kind) of every scored exercise: what a gradebook's points mean."""
    exercises, _ = lesson_exercises()
    return tuple((e.notebook, e.grade_id, float(e.points), e.kind) for e in exercises if e.scored)


def answer_owner(hidden_checks: tuple[Exercise, ...] = ()) -> dict[str, str]:
    """grade_id -> notebook for every answer of the course: how a misnamed file is recognised."""
    exercises, _ = lesson_exercises()
    return {ex.grade_id: ex.notebook for ex in (*exercises, *hidden_checks)}


def context_fingerprint(
    notebook: str | None, hidden_checks: Path | None, settings: str, solutions: Path = SOLUTIONS_DIR
) -> str:
    """What a grade depends on besides the submission: the course code, data, this notebook's
    source, the hidden checks and the settings. A journal entry counts only while this is unchanged."""
    digest = hashlib.sha256(settings.encode())
    for folder, pattern in ((REPO_ROOT / "src", "*.py"), (REPO_ROOT / "data", "*")):
        for path in sorted(folder.rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(REPO_ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    for named in (
        REPO_ROOT / "requirements.txt",
        hidden_checks,
        solutions / f"{notebook}.ipynb" if notebook else None,
    ):
        if named is not None and named.is_file():
            digest.update(named.name.encode() + b"\0" + named.read_bytes())
    return digest.hexdigest()
