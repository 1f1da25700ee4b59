"""Every graded exercise of the course, one module per lesson (``lesson01``, ``lesson02``, ...).

An :class:`Exercise` names the answer a notebook cell defines, how many points it earns, and a
``judge`` that turns plain data into a verdict. ``wrong_answers`` lists plausible mistakes with a
piece of the hint each must get; the tests use them to prove every check fails where it should.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable, Literal


@dataclass(frozen=True)
class WrongAnswer:
    """A plausible mistake and a fragment of the hint the check must print for it."""
    answer: Any
    hint_contains: str
    why: str = ""


@dataclass(frozen=True)
class Exercise:
    grade_id: str                       # the nbgrader grade_id of the answer cell
    notebook: str                       # e.g. "02_coldchain_data"
    answer: str                         # the name the answer cell defines
    points: int
    judge: Callable[[Any], Any]         # plain data -> workbook.checks.Verdict
    kind: Literal["value", "function", "manual"] = "value"
    probes: tuple[tuple, ...] = ()      # for functions: the argument tuples the check calls it with
    wrong_answers: tuple[WrongAnswer, ...] = field(default=(), repr=False)
    prompt: str = ""                    # one line for feedback files: what the exercise asks


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
