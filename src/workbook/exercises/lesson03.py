"""Notebook 03: the mirrored tool set, and what its results cost over a loop."""

from __future__ import annotations

from typing import Any

from workbook.checks import failed, passed, probe_error, whole_number
from workbook.exercises import Exercise, WrongAnswer

NOTEBOOK = "03_mirrored_tools"

# Hidden loops: the sizes (characters) of the results, in the order the tools were called.
RESENT_PROBES: tuple[tuple[list[int]], ...] = (
    ([918, 35, 6447],),  # a mirror loop: the order, the credit, the customer's list
    ([190, 230],),
    ([100],),
    ([],),
    ([10, 20, 30, 40],),
    ([6447, 918],),  # the same results in another order cost something else
)


def _resent(sizes: list[int]) -> int:
    """The answer key: after call k the model reads results 1..k again."""
    return sum(size * (len(sizes) - i) for i, size in enumerate(sizes))


def _judge_resent(results: Any) -> object:
    for (sizes,), got in zip(RESENT_PROBES, results):
        call = f"resent_characters({sizes})"
        want = _resent(sizes)
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}; it must handle any list, even an empty one")
        got = whole_number(got)
        if type(got) is not int:
            return failed(
                f"{call} returned a {type(got).__name__}; return a whole number of characters (int)"
            )
        if got == want:
            continue
        if got == sum(sizes) and len(sizes) > 1:
            return failed(
                f"{call} returned {got}, each result counted once; but every later model call "
                "reads every earlier result again"
            )
        if len(sizes) > 1 and got == sum(size * (i + 1) for i, size in enumerate(sizes)):
            return failed(
                f"{call} returned {got}: the FIRST result is the one read most often, since it "
                "stays in the context for every later call"
            )
        if got == sum(sizes) * len(sizes):
            return failed(
                f"{call} returned {got}: a result is only read from the call after it arrived, not before"
            )
        return failed(
            f"{call} returned {got}, expected {want}: after the k-th tool call the model reads results 1 to k"
        )
    return passed("every result is read again on each later call: the first one costs the most.")


EXERCISES = [
    Exercise(
        "ex03-resent",
        NOTEBOOK,
        "resent_characters",
        2,
        _judge_resent,
        kind="function",
        probes=RESENT_PROBES,
        prompt="Write resent_characters(sizes): characters of tool results the model reads over a loop.",
        wrong_answers=(
            WrongAnswer(lambda sizes: sum(sizes), "every later model call"),
            WrongAnswer(lambda sizes: sum(s * (i + 1) for i, s in enumerate(sizes)), "FIRST result"),
            WrongAnswer(lambda sizes: sum(sizes) * len(sizes), "only read from the call after"),
            WrongAnswer(lambda sizes: max(sizes, default=0) * len(sizes), "expected"),
        ),
    ),
]
