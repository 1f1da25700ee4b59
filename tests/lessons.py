"""Lessons found by their names, so renumbering the course touches no test.

A test names a lesson by the words of its notebook's file name ("tool_set_size"); these look up
its number, its notebook stem and its exercise module in the course as it stands.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from types import ModuleType

from workbook import SOLUTIONS_DIR


@cache
def stem(name: str) -> str:
    """The notebook stem of the lesson called ``name``: "tool_set_size" -> "13_tool_set_size"."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise LookupError(f"{name!r} is no lesson's name: give the words after the number, like 'tool_set_size'")
    found = sorted(p.stem for p in SOLUTIONS_DIR.glob(f"[0-9][0-9]_{name}.ipynb"))
    if len(found) != 1:
        raise LookupError(f"{len(found)} lessons are called {name!r} in {SOLUTIONS_DIR}; name exactly one")
    return found[0]


def number(name: str) -> str:
    """The lesson's two-digit number: "tool_set_size" -> "13"."""
    return stem(name)[:2]


def module(name: str) -> ModuleType:
    """The lesson's exercise module (``workbook.exercises.lessonNN``)."""
    return importlib.import_module(f"workbook.exercises.lesson{number(name)}")


def grade_id(name: str, rest: str) -> str:
    """An exercise id of the lesson: grade_id("tool_set_size", "catch-all") -> "ex13-catch-all"."""
    return f"ex{number(name)}-{rest}"


def answer_key(name: str, rest: str) -> str:
    """The keyword a test's notebook builder takes for an answer: "ex13_catch_all"."""
    return grade_id(name, rest).replace("-", "_")
