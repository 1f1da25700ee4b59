"""``.venv/bin/workbook new-lesson NN name``: every file a new lesson needs, written in one step.

A lesson touches more files than its notebook: its exercise module, the grader's registry, the
previous lesson's Next link, and the course maps in the README and in notebook 00. Missing one of
them fails a structural test far from the cause, so the scaffold writes them all, from a complete
minimal lesson that already follows every rule in docs/AUTHORING.md. The author then replaces
its content.

The number must be the next one: the lessons are numbered without gaps, and a lesson inserted in
the middle would renumber every later file, grade id and link. Everything is planned and checked
before the first file is written, and nothing that exists is overwritten; the only edits to
existing files are one registry line, one link and one row in each course map. If a write fails
or is interrupted, the files written are removed and the edited ones put back.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from tooldesign.atomic import write_atomic
from workbook import NOTEBOOKS_DIR, REPO_ROOT, SOLUTIONS_DIR
from workbook.authoring import notebook_from_script
from workbook.notebook_files import write_notebook

EXERCISES_DIR = REPO_ROOT / "src" / "workbook" / "exercises"
REGISTRY = EXERCISES_DIR / "references.py"
QUIZZES_DIR = REPO_ROOT / "src" / "workbook" / "quizzes"  # each lesson's quiz questions
README = REPO_ROOT / "README.md"
START = SOLUTIONS_DIR / "00_start_here.ipynb"  # its course map gets a row for every lesson
# The example the minimal lesson counts; the exercise module holds only the answers drawn from it.
DESCRIPTION = "Return the open sales orders of one customer, newest first."

_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
# How the last lesson ends where a Next link would be; the scaffold writes it and looks for it.
_LAST = "**Next:** none, this is the\nlast lesson of the course: back to the course map in the [README](../README.md)."
_LAST_FOUND = re.compile(r"\*\*Next:\*\* none\b.*\Z", re.DOTALL)
_MAP = "## The course map"
_REGISTRY_OPEN = "REFERENCES: dict[str, Grading] = {\n"


class ScaffoldError(Exception):
    """A lesson the scaffold cannot write as asked; one line that says what to do."""


@dataclass(frozen=True)
class Change:
    path: Path
    action: str  # "written" (a new file) or "changed" (an edit to an existing one)


@dataclass(frozen=True)
class Scaffolded:
    stem: str
    changes: tuple[Change, ...]
    next_commands: tuple[str, ...]


@dataclass(frozen=True)
class _Lesson:
    number: str
    name: str
    previous: Path  # the solution notebook that is the last lesson today

    @property
    def stem(self) -> str:
        return f"{self.number}_{self.name}"

    @property
    def words(self) -> str:
        return self.name.replace("_", " ")

    @property
    def title(self) -> str:
        return f"{self.number} · {self.words[0].upper()}{self.words[1:]}"

    @property
    def grade_id(self) -> str:
        return f"ex{self.number}-word-count"


def new_lesson(number: str, name: str) -> Scaffolded:
    """Write lesson ``number`` called ``name``; refuse before writing anything if a step cannot be done."""
    lesson = _validated(number, name)
    previous = nbformat.read(lesson.previous, as_version=4)
    start = nbformat.read(START, as_version=4)
    if not README.exists():
        raise ScaffoldError("README.md is missing; new-lesson adds the lesson to its course map")
    readme = README.read_text(encoding="utf-8")
    registry = REGISTRY.read_text(encoding="utf-8")
    # Every edit is made in memory first, so a refusal leaves the course as it was.
    _link_next(previous, lesson)
    _add_map_row(start, lesson, f"{lesson.stem}.ipynb", f"solutions/{START.name}")
    readme = _with_map_row(readme, lesson, f"notebooks/{lesson.stem}.ipynb", "README.md")
    registry = _registered(registry, lesson)

    module = EXERCISES_DIR / f"lesson{lesson.number}.py"
    questions = QUIZZES_DIR / f"lesson{lesson.number}.py"
    target = SOLUTIONS_DIR / f"{lesson.stem}.ipynb"
    edited = (REGISTRY, lesson.previous, START, README)
    before = {path: path.read_bytes() for path in edited}
    try:
        write_atomic(module, _exercise_module(lesson))
        write_atomic(questions, _quiz_module(lesson))
        importlib.invalidate_caches()  # the check cell's points come from the module just written
        notebook = notebook_from_script(_lesson_script(lesson))
        nbformat.validate(notebook)
        write_notebook(target, notebook)
        write_atomic(REGISTRY, registry)
        write_notebook(lesson.previous, previous)
        write_notebook(START, start)
        write_atomic(README, readme)
    except BaseException:  # Ctrl+C or a failed write included: all of the lesson, or none of it
        _undo((module, questions, target), before)
        raise
    changes = (
        Change(target, "written"),
        Change(module, "written"),
        Change(questions, "written"),
        Change(REGISTRY, "changed"),
        Change(lesson.previous, "changed"),
        Change(START, "changed"),
        Change(README, "changed"),
    )
    released = " ".join(dict.fromkeys(("00", lesson.previous.stem[:2], lesson.number)))
    commands = (f".venv/bin/workbook execute {lesson.number}", f".venv/bin/workbook release {released}")
    return Scaffolded(lesson.stem, changes, commands)


def _undo(written: tuple[Path, ...], before: dict[Path, bytes]) -> None:
    """Remove the files this call wrote and put back the ones it changed."""
    for path in written:
        path.unlink(missing_ok=True)  # new files: validation refused any that existed
    for path, content in before.items():
        if path.read_bytes() != content:
            path.write_bytes(content)


def _validated(number: str, name: str) -> _Lesson:
    lessons = sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))
    if not lessons:
        raise ScaffoldError(f"no lessons in {SOLUTIONS_DIR}; run new-lesson inside the course")
    if lessons[-1].stem[:2] == "99":
        raise ScaffoldError(
            "lesson numbers have two digits and 99 is the last lesson; the course cannot grow further"
        )
    following = f"{int(lessons[-1].stem[:2]) + 1:02d}"
    if not re.fullmatch(r"[0-9]{2}", number):  # ASCII digits only: int() would also read '١٤'
        raise ScaffoldError(f"give the lesson number as two digits, e.g. {following}, not {number!r}")
    if number != following:
        taken = [p.name for p in lessons if p.stem[:2] == number]
        why = (
            f"lesson {number} exists (solutions/{taken[0]})"
            if taken
            else "the lessons are numbered without gaps"
        )
        raise ScaffoldError(f"{why}; the next lesson is {following}")
    if not _NAME.fullmatch(name) or len(name) > 40:
        raise ScaffoldError(
            "name the lesson in lowercase words joined by underscores, at most 40 characters, "
            f"e.g. caching_results, not {name!r}"
        )
    lesson = _Lesson(number, name, lessons[-1])
    for path in (
        SOLUTIONS_DIR / f"{lesson.stem}.ipynb",
        NOTEBOOKS_DIR / f"{lesson.stem}.ipynb",
        EXERCISES_DIR / f"lesson{number}.py",
        QUIZZES_DIR / f"lesson{number}.py",
    ):
        if path.exists():
            raise ScaffoldError(f"{path.relative_to(REPO_ROOT)} exists; new-lesson never overwrites a file")
    return lesson


def _link_next(previous: nbformat.NotebookNode, lesson: _Lesson) -> None:
    """Point the last lesson's "Next: none" at the new one."""
    for cell in reversed(previous.cells):
        found = _LAST_FOUND.search(cell.source) if cell.cell_type == "markdown" else None
        if found:
            cell.source = f"{cell.source[: found.start()]}**Next:** [{lesson.title}]({lesson.stem}.ipynb)"
            return
    raise ScaffoldError(
        f"solutions/{lesson.previous.name} has no '**Next:** none' line to point at the new lesson; "
        "end it with its Previous/Next links first"
    )


def _add_map_row(notebook: nbformat.NotebookNode, lesson: _Lesson, link: str, shown: str) -> None:
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and _MAP in cell.source:
            cell.source = _with_map_row(cell.source, lesson, link, shown)
            return
    raise ScaffoldError(f"{shown} has no '{_MAP}' table to add lesson {lesson.number} to")


def _with_map_row(text: str, lesson: _Lesson, link: str, shown: str) -> str:
    """``text`` with a course-map row for the new lesson after the last lesson's row."""
    last, begin = lesson.previous.stem[:2], text.find(_MAP)
    finish = text.find("\n## ", begin + 1)
    section = re.compile(rf"(?m)^\| {last} \|.*\|$")
    rows = [] if begin < 0 else list(section.finditer(text, begin, finish if finish > 0 else len(text)))
    if not rows:
        raise ScaffoldError(f"{shown} has no row for lesson {last} under '{_MAP}'; add that row first")
    row = f"| {lesson.number} | [{lesson.words}]({link}) | what you do in this lesson, in one line |"
    end = rows[-1].end()
    return f"{text[:end]}\n{row}{text[end:]}"


def _registered(registry: str, lesson: _Lesson) -> str:
    """The registry with the new exercise's entry as the last line of ``REFERENCES``."""
    start = registry.find(_REGISTRY_OPEN)
    end = registry.find("\n}\n", start)
    if start < 0 or end < 0:
        raise ScaffoldError(f"{REGISTRY.relative_to(REPO_ROOT)} has no REFERENCES dict to add an entry to")
    if f'"{lesson.grade_id}"' in registry:
        raise ScaffoldError(f"{lesson.grade_id} is registered already; remove its stale entry first")
    entry = f'\n    "{lesson.grade_id}": Grading(_value("lesson{lesson.number}", "WORD_COUNT")),'
    return registry[:end] + entry + registry[end:]


def _exercise_module(lesson: _Lesson) -> str:
    return f'''"""Notebook {lesson.number}: {lesson.words}. Count the words of a tool description."""

from __future__ import annotations

from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import Verdict, failed, passed

NOTEBOOK = "{lesson.stem}"
WORD_COUNT = {len(DESCRIPTION.split())}  # the words of the notebook's description
CHARACTERS = {len(DESCRIPTION)}  # its characters: the count of a plausible mistake


def _judge_word_count(answer: Any) -> Verdict:
    if type(answer) is not int:
        return failed(f"word_count should be a whole number (int), not a {{type(answer).__name__}}")
    if answer == CHARACTERS:
        return failed("that counts characters; count the words: len(description.split())")
    if answer != WORD_COUNT:
        return failed("count every word of the description once: len(description.split())")
    return passed(f"{{WORD_COUNT}} words, sent with every request that offers the tool.")


EXERCISES = [
    Exercise(
        "{lesson.grade_id}",
        NOTEBOOK,
        "word_count",
        1,
        _judge_word_count,
        prompt="Count the words of the tool description.",
        wrong_answers=(
            WrongAnswer(CHARACTERS, "counts characters"),
            WrongAnswer(str(WORD_COUNT), "whole number"),
            WrongAnswer(WORD_COUNT - 1, "every word"),
        ),
    ),
]
'''


def _quiz_module(lesson: _Lesson) -> str:
    return f'''"""The "check yourself" questions of lesson {lesson.number} (its quiz cell shows them with quiz("{lesson.number}")).

The right choice is written first; workbook.quiz.Quiz.order decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz((
    Question("When does a model read a tool's description?", (
        Choice("With every request that offers the tool", "The definitions are sent again each time.",
               correct=True),
        Choice("Once, when the tool is registered", "Nothing is remembered between requests."),
    )),
    Question("Why count the words of a description?", (
        Choice("Its length is a cost paid on every request", "Every word is sent again and again.",
               correct=True),
        Choice("Shorter descriptions are always better", "A description must still say what the tool does."),
    )),
    Question("Which measure does this notebook use?", (
        Choice("Words, split at white space", "`len(description.split())`.", correct=True),
        Choice("Characters", "That is a different measure; the exercise counts words."),
    )),
))
'''


def _lesson_script(lesson: _Lesson) -> str:
    """The lesson in the script format of ``workbook.authoring``; the scaffold's module supplies the data."""
    previous = nbformat.read(lesson.previous, as_version=4).cells[0].source.splitlines()[0].lstrip("# ")
    return f'''# %% [markdown]
# # {lesson.title}
#
# **Time:** about 10 minutes. **Previous:** [{previous}]({lesson.previous.name})
#
# A model is handed every tool's description with every request, word for word. This notebook
# counts the words of one description, so you see what a model reads before it answers.
#
# By the end of this notebook you can:
# - count the words of a tool description;
# - say why a description's length is a cost paid on every request.

# %%
from workbook.checks import check

# %% [markdown]
# ## 1. What the model reads
#
# Here is the description of a tool that lists a customer's open orders:

# %%
description = "{DESCRIPTION}"
print(description)

# %% [markdown]
# Notice that nothing in it is wasted: it says what the tool returns and in which order.
#
# **Exercise.** Count the words of `description` and assign the count to `word_count`. Then run the
# check cell after it.

# %% answer {lesson.grade_id}
### BEGIN SOLUTION
word_count = len(description.split())
### END SOLUTION

# %% check {lesson.grade_id}
check("{lesson.grade_id}", word_count)

# %% [markdown]
# ## Check yourself

# %%
from workbook.quiz import quiz

quiz("{lesson.number}")

# %% [markdown]
# ## Key takeaways
# - A tool's description is sent with every request that offers the tool.
# - Its length is a cost paid again and again, so every word should earn its place.
#
# | package part | what it does here |
# |---|---|
# | `workbook.checks.check` | judges the exercise and prints the verdict |
# | `workbook.quiz.quiz` | the quiz above, its questions in `workbook.quizzes.lesson{lesson.number}` |
#
# **Previous:** [{previous}]({lesson.previous.name}) · {_LAST.replace(chr(10), chr(10) + "# ")}
'''
