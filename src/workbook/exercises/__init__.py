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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class WrongAnswer:
    """A plausible mistake and a fragment of the hint the check must print for it."""

    answer: Any
    hint_contains: str
    why: str = ""


@dataclass(frozen=True)
class Exercise:
    grade_id: str  # the nbgrader grade_id of the answer cell
    notebook: str  # e.g. "02_coldchain_data"
    answer: str  # the name the answer cell defines
    points: int
    judge: Callable[[Any], Any]  # plain data -> workbook.checks.Verdict
    kind: Literal["value", "function", "manual", "prediction"] = "value"
    probes: tuple[tuple, ...] = ()  # for functions: the argument tuples the check calls it with
    wrong_answers: tuple[WrongAnswer, ...] = field(default=(), repr=False)
    prompt: str = ""  # one line for feedback files: what the exercise asks

    @property
    def scored(self) -> bool:
        """Whether it earns points: every kind but a prediction."""
        return self.kind != "prediction"


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


@dataclass(frozen=True)
class Grading:
    """What only the grader holds for one exercise (see ``workbook.exercises.references``).

    ``reference`` is the right function (a callable, or "module:name" of a graded function in
    ``tooldesign``, which the student edition stubs), or for a value exercise the right value (or a
    function of no arguments computing it). ``generate(rng)`` draws one argument tuple; the grader
    draws ``draws`` of them per run from a secret seed and compares the learner's results with the
    reference's, using ``same(got, want)`` when plain equality is not the rule. ``public`` marks a
    judge that holds no answer key (it checks properties with the subject package), so the student
    edition may ship it as it is. ``stubs`` names more graded functions of ``tooldesign`` ("module:name")
    that give this answer away; ``package_uses`` makes the calls the package itself needs from them
    on the course data, which the student edition's stubs go on answering.
    """

    reference: Any = None
    generate: Callable[[Any], tuple] | None = None
    draws: int = 12
    same: Callable[[Any, Any], bool] | None = None
    public: bool = False
    stubs: tuple[str, ...] = ()
    package_uses: Callable[[], Any] | None = None

    def reference_function(self) -> Callable | None:
        """The reference as a callable, importing a "module:name" reference on first use."""
        if isinstance(self.reference, str) and ":" in self.reference:
            return pkgutil.resolve_name(self.reference)
        return self.reference if callable(self.reference) else None

    def right_value(self) -> Any:
        value = self.reference
        return value() if callable(value) else value


NO_GRADING = Grading()


def grading_for(grade_id: str) -> Grading:
    """The grader's part of an exercise; an exercise nobody registered gets NO_GRADING (fixed probes only)."""
    try:
        from workbook.exercises.references import REFERENCES
    except ImportError:  # the student edition: there are no references to hand out
        return NO_GRADING
    return REFERENCES.get(grade_id, NO_GRADING)
