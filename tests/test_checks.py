"""The plain-data rule every check rests on, and what a check cell prints. (Each exercise is proven
both ways in test_exercises.py.)"""
import pytest

from workbook.checks import FAIL, check, evaluate, probe_error
from workbook.exercises import all_exercises
from workbook.plain import NotPlainData, to_plain

EXERCISES = all_exercises()


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


# ---------- what a check cell prints ----------

from workbook.exercises.lesson01 import reference_blocked  # noqa: E402


def test_check_prints_one_line(capsys):
    check("ex01-blocked-orders", reference_blocked)
    out = capsys.readouterr().out
    assert out.startswith("✔ ex01-blocked-orders:") and out.count("\n") == 1


def test_check_raises_under_nbgraders_autograder(monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError):
        check("ex01-blocked-orders", lambda orders: ["4711"])
    check("ex01-blocked-orders", reference_blocked)  # a pass does not raise


def test_unknown_grade_id_names_the_problem():
    with pytest.raises(KeyError, match="spelling"):
        evaluate("ex99-nothing", 1)


# ---------- what a judge reads as a probe that raised ----------

def test_only_the_record_of_a_raise_counts_as_one():
    assert probe_error({"error": "ValueError: bad"}) == "ValueError: bad"
    for returned in ({"error": "ValueError: bad", "hint": "x"}, {"error": 5}, {}, ["error"], "error", None):
        assert probe_error(returned) is None, returned
