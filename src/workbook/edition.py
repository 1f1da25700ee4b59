"""Which edition of the course this is, and the one table of wording that differs between editions.

The course comes in two editions: the repository (``course``: solutions/, tests, the grader) and the
student edition an instructor hands a graded class (``student``: ``workbook handout``; no solutions/,
no grader, no answers). Most of a notebook is true in both. Where a sentence is not (where answers
live, which files and commands exist), the solution notebook holds the course's wording and
:data:`PHRASES` holds both; release writes each learner copy with the wording of the edition it is
written for, so the two are never edited apart. :func:`current` says which edition is running: the
handout rewrites :data:`NAME` in its copy of this file.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Edition(str, Enum):
    COURSE = "course"
    STUDENT = "student"


NAME = "course"  # the student edition's copy of this file says "student" (workbook.handout writes it)

# What every graded function stubbed in the student edition's package calls instead of its body
# (workbook.handout.stub_function writes it): a text holding it shows a placeholder, not an answer.
STUB_MARK = "_handout_answer("


def current() -> Edition:
    return Edition(NAME)


@dataclass(frozen=True)
class Phrase:
    """One piece of text whose wording depends on the edition: exactly ``course`` in the named files
    (notebooks by their two-digit number; package files by their path, "src/workbook/...", which the
    handout words in its copy: where a quiz moved into a module, name the module here)."""

    key: str
    where: tuple[str, ...]
    course: str
    student: str

    def text(self, edition: Edition) -> str:
        return self.course if edition is Edition.COURSE else self.student


PHRASES: tuple[Phrase, ...] = (
    Phrase(
        "around-objective",
        ("00",),
        "- find your way around: your notebooks, the solutions, the package behind the lessons;\n",
        "- find your way around: your notebooks, the package behind the lessons, the checks;\n",
    ),
    Phrase(
        "layout-answers",
        ("00",),
        "| `solutions/` | the same lessons, complete and already run: look there when you are stuck |\n",
        "| `originals/` | the notebooks as you received them: `make notebooks` copies a fresh one from here |\n",
    ),
    Phrase(
        "layout-machinery",
        ("00",),
        "| `src/workbook/` | the course machinery: checks, the release of your notebooks, grading, this doctor |\n",
        "| `src/workbook/` | the course machinery: checks, fresh copies of your notebooks, this doctor "
        "(the grader and the answers stay with your instructor) |\n",
    ),
    Phrase(
        "takeaway-answers",
        ("00",),
        "- You work in `notebooks/`; complete versions are in `solutions/`.\n",
        "- You work in `notebooks/`; this edition holds no answers: the checks' hints say what to look at "
        "again.\n",
    ),
    Phrase(
        "quiz-stuck",
        ("src/workbook/quizzes/lesson00.py",),
        "                Choice(\n"
        '                    "In solutions/, where the same notebook stands complete and already run",\n'
        '                    "Every lesson\'s solution is there. This is a course, not an exam.",\n'
        "                    correct=True,\n"
        "                ),\n"
        "                Choice(\n"
        '                    "In data/, where the built tables hold each exercise\'s expected answer",\n'
        '                    "data/ holds the fictional data the lessons build, not the answers.",\n'
        "                ),\n"
        "                Choice(\n"
        '                    "Nowhere: the answers stay hidden until your instructor grades",\n'
        '                    "They are not hidden: solutions/ has every lesson complete. Your instructor grades with "\n'
        '                    "separate checks.",\n'
        "                ),\n",
        "                Choice(\n"
        '                    "In solutions/, where the same notebook stands complete and already run",\n'
        '                    "This edition has no solutions/: it is handed out for a graded class, so the answers "\n'
        '                    "stay with your instructor.",\n'
        "                ),\n"
        "                Choice(\n"
        '                    "In data/, where the built tables hold each exercise\'s expected answer",\n'
        '                    "data/ holds the fictional data the lessons build, not the answers.",\n'
        "                ),\n"
        "                Choice(\n"
        '                    "In the check\'s hint and the lesson above the exercise",\n'
        '                    "The hint says what to look at again; this edition holds no answers, since your "\n'
        '                    "instructor grades them.",\n'
        "                    correct=True,\n"
        "                ),\n",
    ),
    Phrase(
        "approver-version",
        ("04",),
        "(press to see it once your check has passed):",
        "(in this edition it stays with your instructor):",
    ),
    Phrase(
        "as-data-version",
        ("17",),
        "The package's version, which the quoted variant uses (it shows once your check has passed):",
        "The package's version, which the quoted variant uses, stays with your instructor in this edition:",
    ),
    Phrase(
        "workbench-benchmark",
        ("05",),
        "One update takes a few milliseconds (`benchmarks/bench_workbench.py` measures it), so it keeps up\n"
        "with your typing.",
        "One update takes a few milliseconds (a benchmark in the course's repository measures it), so it\n"
        "keeps up with your typing.",
    ),
    Phrase(
        "sandbox-suite",
        ("09",),
        "The course's suite tries many more escapes\n(`tests/test_codemode_sandbox.py`), and",
        "The course's test suite (in its\nrepository, not in this edition) tries many more escapes, and",
    ),
    Phrase(
        "mcp-benchmark",
        ("14",),
        "The tests run one\nreal round trip over each transport, and `benchmarks/bench_mcp.py` prints what a "
        "call costs on each;",
        "The course's tests\nrun one real round trip over each transport, and a benchmark in its repository "
        "prints what a call costs on each;",
    ),
)


def phrases_for(where: str) -> tuple[Phrase, ...]:
    return tuple(p for p in PHRASES if where in p.where)


def worded(text: str, where: str, edition: Edition) -> str:
    """``text`` (a cell, or a package file) with each phrase of ``where`` in ``edition``'s wording.

    Either wording is recognised, so a copy already written for one edition is rewritten for the other."""
    for phrase in phrases_for(where):
        for known in (phrase.course, phrase.student):
            if known in text:
                text = text.replace(known, phrase.text(edition))
                break
    return text


def missing_phrases(texts: dict[str, str]) -> list[str]:
    """Phrases whose course wording is in none of the files named (a notebook edited past the table)."""
    return [
        f"{phrase.key} in {where}"
        for phrase in PHRASES
        for where in phrase.where
        if where in texts and phrase.course not in texts[where] and phrase.student not in texts[where]
    ]
