"""Every exercise check, proven in both directions, and the plain-data rule they rest on."""
import json

import nbformat
import pytest

from workbook import SOLUTIONS_DIR
from workbook.checks import FAIL, NOT_DONE, PASS, check, evaluate
from workbook.exercises import all_exercises, get_exercise
from workbook.plain import NotPlainData, to_plain

EXERCISES = all_exercises()
IDS = [ex.grade_id for ex in EXERCISES]


class AlwaysEqual:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class _EqualsEverything(type):
    def __eq__(cls, other):
        return True

    __hash__ = type.__hash__


class MetaSneaky(metaclass=_EqualsEverything):
    pass


class SneakyStr(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


# ---------- plain data ----------

@pytest.mark.parametrize("value", [None, True, 3, 2.5, "x", [1, "a"], {"k": [1.0, None]}])
def test_plain_values_pass_through(value):
    assert to_plain(value) == value


def test_tuples_become_lists_and_int_keys_become_strings():
    assert to_plain((1, 2)) == [1, 2]
    assert to_plain({4711: "x"}) == {"4711": "x"}


def test_numpy_scalars_are_accepted_as_their_value():
    import numpy as np
    assert type(to_plain(np.int64(3))) is int and type(to_plain(np.float64(2.5))) is float


@pytest.mark.parametrize("value, says", [
    ({1, 2}, "sorted list"), (AlwaysEqual(), "not plain data"), (SneakyStr("4711"), "not plain data"),
    (MetaSneaky(), "not plain data"),
    (float("nan"), "finite"), ({(1, 2): 3}, "keys"),
])
def test_what_could_cheat_or_confuse_is_refused(value, says):
    with pytest.raises(NotPlainData, match=says):
        to_plain(value)


def test_pandas_objects_are_refused_with_the_fix():
    import pandas as pd
    with pytest.raises(NotPlainData, match="tolist"):
        to_plain(pd.Series([1, 2]))


def test_an_always_equal_object_never_passes_any_check():
    for exercise in EXERCISES:
        if exercise.kind == "manual":
            continue
        verdict = evaluate(exercise.grade_id, AlwaysEqual())
        assert verdict.status == FAIL, exercise.grade_id


# ---------- every exercise, both ways ----------

@pytest.mark.parametrize("grade_id", IDS)
def test_the_untouched_stub_is_not_done(grade_id):
    exercise = get_exercise(grade_id)
    if exercise.kind == "manual":
        pytest.skip("graded by a person")
    stub = Ellipsis
    if exercise.kind == "function":
        def stub(*args):
            raise NotImplementedError()
    verdict = evaluate(grade_id, stub)
    assert verdict.status == NOT_DONE and "not done yet" in verdict.message


@pytest.mark.parametrize("grade_id", IDS)
def test_plausible_wrong_answers_fail_with_their_hint(grade_id):
    exercise = get_exercise(grade_id)
    if exercise.kind == "manual":
        pytest.skip("graded by a person")
    assert exercise.wrong_answers, f"{grade_id} has no wrong answer to prove its check can fail"
    for wrong in exercise.wrong_answers:
        verdict = evaluate(grade_id, wrong.answer)
        assert verdict.status == FAIL, f"{grade_id} accepted {wrong.answer!r}"
        assert wrong.hint_contains in verdict.message, (grade_id, verdict.message)
        assert "\n" not in verdict.message


@pytest.mark.parametrize("grade_id", IDS)
def test_a_function_that_crashes_gets_a_hint_not_a_traceback(grade_id):
    exercise = get_exercise(grade_id)
    if exercise.kind != "function":
        pytest.skip("not a function exercise")

    def broken(*args):
        raise ZeroDivisionError("division by zero")
    verdict = evaluate(grade_id, broken)
    assert verdict.status == FAIL
    assert ("ZeroDivision" in verdict.message or "divided by zero" in verdict.message), verdict.message
    assert "Traceback" not in verdict.message and "\n" not in verdict.message


def _cells(notebook_stem):
    return nbformat.read(SOLUTIONS_DIR / f"{notebook_stem}.ipynb", as_version=4).cells


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
    assert check_meta["grade"] is True and check_meta["locked"] is True and check_meta["points"] == exercise.points
    assert f'check("{grade_id}", {exercise.answer})' in checks[0].source
    printed = "".join(o.get("text", "") for o in checks[0].outputs)
    assert printed.startswith(f"✔ {grade_id}:"), printed


def test_grade_ids_are_unique_across_the_course():
    assert len(IDS) == len(set(IDS))
    ids_in_notebooks = [c.metadata["nbgrader"]["grade_id"] for path in sorted(SOLUTIONS_DIR.glob("*.ipynb"))
                        for c in nbformat.read(path, as_version=4).cells if "nbgrader" in c.metadata]
    assert len(ids_in_notebooks) == len(set(ids_in_notebooks))


def test_check_prints_one_line(capsys):
    check("ex01-blocked-orders", ["4711", "4723", "4725"])
    out = capsys.readouterr().out
    assert out.startswith("✔ ex01-blocked-orders:") and out.count("\n") == 1


def test_check_raises_under_nbgraders_autograder(monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError):
        check("ex01-blocked-orders", ["4711"])
    check("ex01-blocked-orders", ["4711", "4723", "4725"])  # a pass does not raise


def test_unknown_grade_id_names_the_problem():
    with pytest.raises(KeyError, match="spelling"):
        evaluate("ex99-nothing", 1)


def test_judges_only_ever_see_json_data():
    for exercise in EXERCISES:
        for probe in exercise.probes:
            json.dumps(probe)


def test_each_exercise_lives_in_its_own_lesson_module():
    """get_exercise imports only lessonNN for exNN-...; a misplaced exercise would not be found."""
    for exercise in EXERCISES:
        assert exercise.grade_id[:2] == "ex" and exercise.grade_id[2:4] == exercise.notebook[:2], exercise.grade_id
