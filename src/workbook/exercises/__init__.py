"""Every graded exercise of the course, one module per lesson (``lesson01``, ``lesson02``, ...).

An :class:`Exercise` names the answer a notebook cell defines, how many points it earns, and a
``judge`` that turns plain data into a verdict. ``wrong_answers`` lists plausible mistakes with a
piece of the hint each must get; the tests use them to prove every check fails where it should.

A ``"prediction"`` is checked for the learner and never scored (``points`` 0, no gradebook column): its
answer is what one of the lesson's own instruments prints when run, and the student edition has to ship
that instrument for the cells after the check, so a grade would measure only whether the learner ran it
first. Its check cell is a locked cell, not an nbgrader grade cell; the grader leaves it out.

What the grader needs beyond that lives in ``workbook.exercises.references``: for each grade_id,
the right answer (a reference function, or the right value) and, for a function, a generator of
inputs drawn at grade time. Neither a lesson module nor that registry goes into the student
edition (``workbook.handout``): there each lesson module is rebuilt from salted digests.
"""

from __future__ import annotations

import importlib
import pkgutil

from workbook.exercises.kinds import NO_GRADING, Exercise, Grading, WrongAnswer

__all__ = [
    "NO_GRADING",
    "Exercise",
    "Grading",
    "WrongAnswer",
    "all_exercises",
    "exercises_for",
    "exercises_for_number",
    "get_exercise",
    "grading_for",
]


def _lesson_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("lesson"))


def all_exercises() -> list[Exercise]:
    """Every exercise of every lesson, in course order."""
    found: list[Exercise] = []
    for name in _lesson_modules():
        found.extend(_lesson_exercises(name))
    return found


def exercises_for(notebook: str) -> list[Exercise]:
    own = f"lesson{notebook[:2]}"
    candidates = _lesson_exercises(own) if own in _lesson_modules() else all_exercises()
    return [ex for ex in candidates if ex.notebook == notebook]


def exercises_for_number(number: str) -> list[Exercise]:
    """The exercises of lesson ``number`` ("02"), whatever its notebook is called."""
    own = f"lesson{number}"
    return (
        _lesson_exercises(own)
        if own in _lesson_modules()
        else [ex for ex in all_exercises() if ex.notebook[:2] == number]
    )


def _lesson_exercises(name: str) -> list[Exercise]:
    return importlib.import_module(f"{__name__}.{name}").EXERCISES


def get_exercise(grade_id: str) -> Exercise:
    # "ex02-claims" lives in lesson02: import that module alone, so a check cell stays fast and
    # one lesson's imports never slow down (or break) another lesson's checks.
    own = f"lesson{grade_id[2:4]}"
    candidates = _lesson_exercises(own) if own in _lesson_modules() else all_exercises()
    for exercise in candidates:
        if exercise.grade_id == grade_id:
            return exercise
    raise KeyError(f"no exercise with grade_id {grade_id!r}; check the spelling in the check cell")


def grading_for(grade_id: str) -> Grading:
    """The grader's part of an exercise; an exercise nobody registered gets NO_GRADING (fixed probes only)."""
    try:
        from workbook.exercises.references import REFERENCES
    except ImportError:  # the student edition: there are no references to hand out
        return NO_GRADING
    return REFERENCES.get(grade_id, NO_GRADING)
