"""`workbook new-lesson`: a lesson it writes passes every structural test, and it refuses what it cannot do.

The scaffold runs in a throw-away copy of the course (tests/course_copy.py), followed by the two
commands it prints, exactly as docs/AUTHORING.md tells an author. Then the course's own structural
tests run over that copy, unedited; they must pass with the new lesson in it.
"""
from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from course_copy import ROOT, make_copy, run_in

LAST = int(sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))[-1].stem[:2])
NEW = f"{LAST + 1:02d}"
NAME = "caching_results"
STRUCTURAL = ("test_lesson_structure.py", "test_claims.py", "test_release.py", "test_notebooks.py",
              "test_checks.py", "test_exercises.py", "test_grade_handout.py", "conftest.py", "tiers.py", "course_copy.py",
              "nbval_sanitize.cfg")


def _course(target: Path) -> Path:
    course = make_copy(target)
    shutil.copy2(ROOT / "README.md", course / "README.md")
    (course / "tests").mkdir()
    for name in STRUCTURAL:
        shutil.copy2(ROOT / "tests" / name, course / "tests" / name)
    return course


def _digest(course: Path) -> str:
    """One digest of every file the scaffold could write or change."""
    files = [course / "README.md", *sorted(p for folder in ("src", "solutions", "notebooks")
                                           for p in (course / folder).rglob("*") if p.is_file())]
    return hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in files)).hexdigest()


def _new_lesson(course: Path, number: str, name: str):
    return run_in(course, "-m", "workbook", "new-lesson", number, name, timeout=120)


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    course = _course(tmp_path_factory.mktemp("scaffold") / "course")
    done = _new_lesson(course, NEW, NAME)
    assert done.returncode == 0, done.stderr
    commands = [line.strip() for line in done.stdout.splitlines() if line.startswith("  .venv/bin/workbook ")]
    assert len(commands) == 2, done.stdout
    for command in commands:  # the entry point runs the same code as `python -m workbook`
        ran = run_in(course, "-m", "workbook", *command.split()[1:])
        assert ran.returncode == 0, f"{command}: {ran.stderr}"
    return course, done.stdout


def test_the_scaffold_names_every_file_and_the_next_commands(scaffolded):
    course, shown = scaffolded
    previous = sorted((course / "solutions").glob(f"{LAST:02d}_*.ipynb"))[0].name
    for path in (f"solutions/{NEW}_{NAME}.ipynb", f"src/workbook/exercises/lesson{NEW}.py",
                 "src/workbook/exercises/references.py", f"solutions/{previous}", "solutions/00_start_here.ipynb",
                 "README.md", f".venv/bin/workbook execute {NEW}", f".venv/bin/workbook release 00 {LAST:02d} {NEW}"):
        assert path in shown


def test_the_new_lesson_passes_the_structural_tests_unedited(scaffolded):
    course, _ = scaffolded
    pytest_in_copy = ("-m", "pytest", "-v", "-p", "no:cacheprovider")
    for selection in (
        # The checks of one lesson (their ids name it) and the checks of the course as a whole; the
        # tests of the checkers' own logic already ran on this course and do not change with a lesson.
        ("tests/test_lesson_structure.py", "tests/test_claims.py", "tests/test_release.py",
         "tests/test_grade_handout.py::test_every_exercise_is_registered_with_the_grader",
         "-k", f"{NEW}_{NAME} or numbered or every_learner_copy or manifest or there_are_notebooks"
               " or idempotent or registered"),
        ("tests/test_notebooks.py", "tests/test_checks.py", "tests/test_exercises.py", "-k", f"{NEW}_{NAME} or ex{NEW}"),  # the new lesson
        ("--nbval", "--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg",
         f"solutions/{NEW}_{NAME}.ipynb"),
    ):
        ran = run_in(course, *pytest_in_copy, *selection, timeout=600)
        assert ran.returncode == 0, ran.stdout[-3000:]
        assert f"{NEW}_{NAME}" in ran.stdout or f"ex{NEW}" in ran.stdout, "the new lesson was tested"


def test_the_solution_holds_the_pieces_a_lesson_needs(scaffolded):
    course, _ = scaffolded
    notebook = nbformat.read(course / "solutions" / f"{NEW}_{NAME}.ipynb", as_version=4)
    grading = [c.metadata["nbgrader"] for c in notebook.cells if "nbgrader" in c.metadata]
    assert [(g["grade_id"], g["solution"], g["grade"]) for g in grading] == [
        (f"ex{NEW}-word-count", True, False), (f"ex{NEW}-word-count-check", False, True)]
    assert all(c.outputs for c in notebook.cells if c.cell_type == "code" and "check(" in c.source)


@pytest.mark.parametrize("number, name, says", [
    ("5", NAME, "two digits"),
    ("\u0661\u0664", NAME, "two digits"),  # Arabic-Indic digits: int() reads them, a file name should not
    ("1e", NAME, "two digits"),
    (" 5", NAME, "two digits"),
    ("05", NAME, "lesson 05 exists"),
    (f"{LAST + 2:02d}", NAME, f"the next lesson is {NEW}"),
    (NEW, "Caching-Results", "lowercase words"),
    (NEW, "2_fast", "lowercase words"),
    (NEW, "caching__results", "lowercase words"),
])
def test_a_lesson_it_cannot_write_is_refused_in_one_line(tmp_path, number, name, says):
    course = _course(tmp_path / "course")
    before = _digest(course)
    done = _new_lesson(course, number, name)
    assert done.returncode == 2 and says in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert _digest(course) == before


@pytest.mark.parametrize("existing", [f"notebooks/{NEW}_{NAME}.ipynb", f"src/workbook/exercises/lesson{NEW}.py"])
def test_an_existing_file_is_never_overwritten(tmp_path, existing):
    course = _course(tmp_path / "course")
    (course / existing).write_text("mine\n", encoding="utf-8")
    before = _digest(course)
    done = _new_lesson(course, NEW, NAME)
    assert done.returncode == 2 and "never overwrites" in done.stderr and "Traceback" not in done.stderr
    assert _digest(course) == before and (course / existing).read_text(encoding="utf-8") == "mine\n"


# Runs new-lesson in the copy with one write made to fail: the README's (the last), or the second
# notebook's, or interrupted as by Ctrl+C.
FAILING_WRITE = """
import sys
import workbook.scaffold as scaffold
which, error = sys.argv[1], {"oserror": OSError("disk full"), "interrupt": KeyboardInterrupt()}[sys.argv[2]]
real = {"write_atomic": scaffold.write_atomic, "write_notebook": scaffold.write_notebook}
def failing(name):
    def write(path, content):
        if path.name == which:
            raise error
        return real[name](path, content)
    return write
scaffold.write_atomic, scaffold.write_notebook = failing("write_atomic"), failing("write_notebook")
try:
    scaffold.new_lesson(sys.argv[3], sys.argv[4])
except (OSError, KeyboardInterrupt) as stopped:
    print("stopped:", type(stopped).__name__)
"""


@pytest.mark.parametrize("which, error", [("README.md", "oserror"), ("00_start_here.ipynb", "interrupt"),
                                           ("references.py", "oserror"), (f"{NEW}_{NAME}.ipynb", "interrupt")])
def test_a_write_that_fails_leaves_the_course_as_it_was(tmp_path, which, error):
    course = _course(tmp_path / "course")
    before = _digest(course)
    done = run_in(course, "-c", FAILING_WRITE, which, error, NEW, NAME, timeout=120)
    assert "stopped:" in done.stdout, done.stderr
    assert _digest(course) == before, "a half-written lesson was left behind"
    assert not list((course / "solutions").glob(f"{NEW}_*")) and not (course / f"src/workbook/exercises/lesson{NEW}.py").exists()


def test_a_last_lesson_without_its_closing_line_is_refused(tmp_path):
    course = _course(tmp_path / "course")
    last = sorted((course / "solutions").glob("[0-9][0-9]_*.ipynb"))[-1]
    notebook = nbformat.read(last, as_version=4)
    notebook.cells[-1].source = notebook.cells[-1].source.replace("**Next:** none", "Next: nothing")
    nbformat.write(notebook, last)
    before = _digest(course)
    done = _new_lesson(course, NEW, NAME)
    assert done.returncode == 2 and "**Next:** none" in done.stderr
    assert _digest(course) == before


def test_the_authoring_guide_names_only_files_of_the_repository():
    text = (ROOT / "docs" / "AUTHORING.md").read_text(encoding="utf-8")
    named = {ROOT / p for p in re.findall(r"`((?:src|tests|solutions|notebooks|docs)/[^`\s]+)`", text)}
    relative = re.findall(r"`(\.\./[^`\s]+)`", text) + re.findall(r"\]\(([^)#:]+)\)", text)
    named |= {ROOT / "docs" / p for p in relative if p != "..."}
    outside = sorted(str(p) for p in named if not p.resolve().is_relative_to(ROOT.resolve()))
    assert not outside, f"docs/AUTHORING.md points outside the repository: {outside}"
    concrete = {str(p.resolve().relative_to(ROOT.resolve())) for p in named}
    concrete = {p for p in concrete if not re.search(r"NN|PP|<|\*", p)}
    missing = sorted(p for p in concrete if not (ROOT / p).exists())
    assert concrete and not missing, f"docs/AUTHORING.md names files that do not exist: {missing}"


def test_a_course_map_without_the_last_lesson_is_refused(tmp_path):
    course = _course(tmp_path / "course")
    readme = course / "README.md"
    without = re.sub(rf"(?m)^\| {LAST:02d} \|.*\n", "", readme.read_text(encoding="utf-8"))
    readme.write_text(without, encoding="utf-8")
    before = _digest(course)
    done = _new_lesson(course, NEW, NAME)
    assert done.returncode == 2 and "README.md has no row for lesson" in done.stderr
    assert _digest(course) == before

