"""A check answers any answer with one verdict: cycles, deep nesting, huge keys and megabyte hints included.

A learner can hand a check a list that holds itself, a dict keyed by a 5,000-digit number or a
function that raises with a megabyte message. None of these may end the check cell with a
traceback, and no hint may be longer than a few lines.
"""
from __future__ import annotations

from functools import reduce

import pytest

from workbook.checks import MAX_HINT, Verdict, evaluate, failed
from workbook.exercises import all_exercises
from workbook.plain import NotPlainData, to_plain

CYCLE: list = []
CYCLE.append(CYCLE)
DEEP = reduce(lambda inner, _: [inner], range(100_000), 1)


def _raises(*args):
    raise ValueError("y" * 1_000_000)


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no message")


class NotTextMessage(Exception):
    def __str__(self):
        return 42  # type: ignore[return-value]


class Hostile:
    """An object that breaks every protocol a judge might touch."""

    def __eq__(self, other):
        raise RuntimeError("eq")

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        raise RuntimeError("repr")

    def __bool__(self):
        raise RuntimeError("bool")

    def __iter__(self):
        raise RuntimeError("iter")

    def __len__(self):
        raise RuntimeError("len")


def _raises_unprintable(*args):
    raise Unprintable()


def _raises_not_text(*args):
    raise NotTextMessage()


def _exits(*args):
    raise SystemExit(3)


def _stops(*args):
    raise StopIteration


ANSWERS = {
    "a list that holds itself": CYCLE,
    "a list 100,000 deep": DEEP,
    "a dict keyed by a 5,000-digit number": {10 ** 5000: 1},
    "a dict with a megabyte key": {"k" * 1_000_000: 1},
    "a dict keyed by a tuple": {(1, 2): 3},
    "a 5,000-digit number": 10 ** 5000,
    "a megabyte string": "x" * 1_000_000,
    "a function returning a cycle": lambda *args: CYCLE,
    "a function returning a deep list": lambda *args: DEEP,
    "a function raising a megabyte message": _raises,
    "a function raising an exception whose message raises": _raises_unprintable,
    "a function raising an exception whose message is not text": _raises_not_text,
    "a function calling sys.exit": _exits,
    "a function raising StopIteration": _stops,
    "a hostile object": Hostile(),
    "a function returning a hostile object": lambda *args: Hostile(),
    "a function returning a dict holding a hostile object": lambda *args: {"results": Hostile(), "total": 1},
    "a list holding a hostile object": [Hostile()],
}
EXERCISES = [ex for ex in all_exercises() if ex.kind != "manual"]


@pytest.mark.parametrize("label", list(ANSWERS))
def test_every_exercise_gives_one_bounded_verdict_for_a_hostile_answer(label):
    for exercise in EXERCISES:
        verdict = evaluate(exercise.grade_id, ANSWERS[label])
        assert isinstance(verdict, Verdict) and not verdict.passed, exercise.grade_id
        assert len(verdict.message) <= MAX_HINT + 5, (exercise.grade_id, len(verdict.message))


def test_nesting_and_cycles_are_refused_by_the_plain_copy_in_one_sentence():
    for value in (CYCLE, DEEP, {"a": CYCLE}):
        with pytest.raises(NotPlainData, match="nested more than 64 levels deep"):
            to_plain(value)
    with pytest.raises(NotPlainData, match="a number too long"):
        to_plain({10 ** 5000: 1})
    with pytest.raises(NotPlainData) as error:
        to_plain({"a" * 1_000_000: {1.5: 2}})
    assert len(str(error.value)) < 300


def test_a_long_hint_keeps_its_start_and_its_fix():
    hint = failed("returned " + "x" * 10_000 + " ; return True or False").message
    assert len(hint) <= MAX_HINT + 5
    assert hint.startswith("returned x") and hint.endswith("return True or False") and " … " in hint
    assert failed("short hint").message == "short hint"
