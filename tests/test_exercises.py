"""Every exercise of the course, proven both ways: the right answer passes, each known mistake fails.

The exercises come from the registry (``workbook.exercises``) and the lessons from solutions/, so a
new lesson is covered here without a new test. A lesson's own test file keeps what is particular
to it: other correct wordings that must pass too, edge cases, answer keys checked against the package.
"""
import json

import nbformat
import pytest

from workbook import SOLUTIONS_DIR
from workbook.checks import FAIL, NOT_DONE, PASS, evaluate
from workbook.exercises import all_exercises, exercises_for, get_exercise, grading_for

LESSONS = sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))
EXERCISES = all_exercises()
IDS = [ex.grade_id for ex in EXERCISES]
GRADED = [ex.grade_id for ex in EXERCISES if ex.kind != "manual"]
FUNCTIONS = [ex.grade_id for ex in EXERCISES if ex.kind == "function"]
# A public judge holds no answer key, and its registry entry is what the grader compares drawn
# inputs with, not necessarily an answer; the lesson's own tests give it right answers.
KEYED = [gid for gid in GRADED if not grading_for(gid).public]


def _cells(notebook_stem):
    return nbformat.read(SOLUTIONS_DIR / f"{notebook_stem}.ipynb", as_version=4).cells


def _answer_ids(cells):
    return sorted(c.metadata["nbgrader"]["grade_id"] for c in cells
                  if c.metadata.get("nbgrader", {}).get("solution"))


def _right_answer(grade_id):
    exercise, grading = get_exercise(grade_id), grading_for(grade_id)
    return grading.reference_function() if exercise.kind == "function" else grading.right_value()


def _stub(exercise):
    if exercise.kind != "function":
        return Ellipsis

    def stub(*args):
        raise NotImplementedError()
    return stub


# ---------- the registry and the notebooks agree ----------

@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_each_notebook_defines_exactly_the_exercises_its_lesson_registers(path):
    assert _answer_ids(_cells(path.stem)) == sorted(ex.grade_id for ex in exercises_for(path.stem))


def test_every_exercise_belongs_to_a_notebook_of_the_course():
    stems = {p.stem for p in LESSONS}
    assert [ex.grade_id for ex in EXERCISES if ex.notebook not in stems] == []


def test_grade_ids_are_unique_across_the_course():
    assert len(IDS) == len(set(IDS))
    ids_in_notebooks = [c.metadata["nbgrader"]["grade_id"] for path in LESSONS
                        for c in nbformat.read(path, as_version=4).cells if "nbgrader" in c.metadata]
    assert len(ids_in_notebooks) == len(set(ids_in_notebooks))


def test_each_exercise_lives_in_its_own_lesson_module():
    """get_exercise imports only lessonNN for exNN-...; a misplaced exercise would not be found."""
    for exercise in EXERCISES:
        assert exercise.grade_id[:2] == "ex" and exercise.grade_id[2:4] == exercise.notebook[:2], exercise.grade_id


def test_judges_only_ever_see_json_data():
    for exercise in EXERCISES:
        for probe in exercise.probes:
            json.dumps(probe)


# ---------- the right answer passes ----------

@pytest.mark.parametrize("grade_id", IDS)
def test_the_solution_notebook_holds_the_exercise_and_its_passing_check(grade_id):
    """With nbval re-running the notebook and comparing, this proves the solution passes."""
    exercise = get_exercise(grade_id)
    cells = _cells(exercise.notebook)
    answers = [c for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    assert len(answers) == 1, f"{grade_id}: one answer cell expected"
    meta = answers[0].metadata["nbgrader"]
    assert meta["solution"] is True and meta["schema_version"] == 3
    assert "### BEGIN SOLUTION" in answers[0].source
    if exercise.kind == "manual":
        assert meta["grade"] is True and meta["points"] == exercise.points
        return
    checks = [c for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == f"{grade_id}-check"]
    assert len(checks) == 1, f"{grade_id}: one check cell expected"
    check_meta = checks[0].metadata["nbgrader"]
    if exercise.kind == "prediction":  # checked for the learner, worth nothing: a locked cell, no grade cell
        assert exercise.points == 0 and check_meta["grade"] is False and check_meta["locked"] is True
        assert "points" not in check_meta
    else:
        assert check_meta["grade"] is True and check_meta["locked"] is True
        assert check_meta["points"] == exercise.points > 0
    assert f'check("{grade_id}", {exercise.answer})' in checks[0].source
    printed = "".join(o.get("text", "") for o in checks[0].outputs)
    assert printed.startswith(f"✔ {grade_id}:"), printed


@pytest.mark.parametrize("grade_id", KEYED)
def test_the_graders_right_answer_passes_the_lessons_check(grade_id):
    """The answer key the grader holds (workbook.exercises.references) passes the check a learner runs."""
    verdict = evaluate(grade_id, _right_answer(grade_id))
    assert verdict.status == PASS, verdict.message


# ---------- the stub and every known mistake do not ----------

@pytest.mark.parametrize("grade_id", GRADED)
def test_the_untouched_stub_is_not_done(grade_id):
    verdict = evaluate(grade_id, _stub(get_exercise(grade_id)))
    assert verdict.status == NOT_DONE and "not done yet" in verdict.message


@pytest.mark.parametrize("grade_id", GRADED)
def test_plausible_wrong_answers_fail_with_their_hint(grade_id):
    exercise = get_exercise(grade_id)
    assert exercise.wrong_answers, f"{grade_id} has no wrong answer to prove its check can fail"
    for wrong in exercise.wrong_answers:
        verdict = evaluate(grade_id, wrong.answer)
        assert verdict.status == FAIL, f"{grade_id} accepted {wrong.answer!r}"
        assert wrong.hint_contains in verdict.message, (grade_id, verdict.message)
        assert "\n" not in verdict.message


@pytest.mark.parametrize("grade_id", FUNCTIONS)
def test_a_function_that_crashes_gets_a_hint_not_a_traceback(grade_id):
    def broken(*args):
        raise ZeroDivisionError("division by zero")
    verdict = evaluate(grade_id, broken)
    assert verdict.status == FAIL
    assert ("ZeroDivision" in verdict.message or "divided by zero" in verdict.message), verdict.message
    assert "Traceback" not in verdict.message and "\n" not in verdict.message
