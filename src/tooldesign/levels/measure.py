"""Measuring a level: run all 24 tasks and add up what the runs left.

The figures of the lesson come from here: calls, tool errors, the valid
share, task success, steps, tokens and tokens per correct answer. Task
success is judged against :func:`~tooldesign.levels.tasks.correct_answer`,
which reads the records directly and never the tools.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from tooldesign.levels.definitions import LEVELS, Level
from tooldesign.levels.environment import SEED
from tooldesign.levels.loop import STEP_BUDGET, TaskRun, run_task
from tooldesign.levels.tasks import TASKS, Task, correct_answer

SEEDS = (SEED, SEED + 1)  # the two published runs, "A" and "B"

# The figures as the course's source reports them, to compare against.
PUBLISHED = {
    "name only": dict(
        calls=157,
        errors=113,
        valid=0.2803,
        success_a=0.3333,
        success_b=0.4167,
        steps=167,
        tokens=27950,
        tokens_per_answer=3494,
    ),
    "name + description": dict(
        calls=111,
        errors=56,
        valid=0.4955,
        success_a=0.6667,
        success_b=0.5833,
        steps=129,
        tokens=27489,
        tokens_per_answer=1718,
    ),
    "name + description + schema": dict(
        calls=74,
        errors=8,
        valid=0.8919,
        success_a=0.7917,
        success_b=0.7917,
        steps=97,
        tokens=21387,
        tokens_per_answer=1126,
    ),
    "schema + example call": dict(
        calls=74,
        errors=8,
        valid=0.8919,
        success_a=0.9583,
        success_b=0.9583,
        steps=97,
        tokens=27886,
        tokens_per_answer=1212,
    ),
}
PUBLISHED_CATALOG_TOKENS = {1: 10, 2: 71, 3: 97, 4: 164}


@dataclass
class LevelResult:
    """The 24 runs of one level under one seed, and their totals."""

    level: Level
    seed: int
    runs: list[TaskRun]
    correct: int

    @property
    def calls(self) -> int:
        return sum(r.calls for r in self.runs)

    @property
    def errors(self) -> int:
        return sum(r.errors for r in self.runs)

    @property
    def valid_calls(self) -> int:
        return self.calls - self.errors

    @property
    def valid_share(self) -> float:
        """Share of calls that came back without a tool error."""
        return self.valid_calls / self.calls if self.calls else float("nan")

    @property
    def foreign(self) -> int:
        """Valid calls to a tool the task's sequence does not contain."""
        return sum(r.foreign for r in self.runs)

    @property
    def steps(self) -> int:
        return sum(r.steps for r in self.runs)

    @property
    def tokens(self) -> int:
        return sum(r.tokens for r in self.runs)

    @property
    def success(self) -> float:
        return self.correct / len(self.runs)

    @property
    def tokens_per_answer(self) -> float:
        """Tokens spent per correct answer: the unit cost of the level."""
        return self.tokens / self.correct if self.correct else float("inf")


def is_correct(run: TaskRun) -> bool:
    """Did the run leave the right answer (TM8)?"""
    return run.answer == correct_answer(run.task)


def measure(
    level: Level | int, seed: int = SEED, max_steps: int = STEP_BUDGET, tasks: Sequence[Task] = TASKS
) -> LevelResult:
    """Run every task at one level and one seed."""
    if isinstance(level, int):
        level = LEVELS[level]
    runs = [run_task(task, level, seed, max_steps) for task in tasks]
    return LevelResult(level, seed, runs, sum(is_correct(r) for r in runs))


def table_row(results: Sequence[LevelResult]) -> dict:
    """One row of the table from one level's results, one per seed.

    Counts, steps and tokens come from the first seed; task success is
    shown for each seed, which is how the source judged run-to-run noise.
    """
    first = results[0]
    row = {
        "level": first.level.name,
        "calls": first.calls,
        "errors": first.errors,
        "valid": round(first.valid_share, 4),
    }
    for i, result in enumerate(results):  # runs are named A, B, C, ...
        row[f"success {chr(ord('A') + i)}"] = round(result.success, 4)
    row.update(steps=first.steps, tokens=first.tokens)
    row["tokens/answer"] = round(first.tokens_per_answer) if first.correct else float("inf")
    return row


def level_table(
    levels: Mapping[int, Level] = LEVELS, seeds: Iterable[int] = SEEDS, max_steps: int = STEP_BUDGET
) -> pd.DataFrame:
    """The lesson's table: one row per level (see :func:`table_row`)."""
    seeds = list(seeds)
    rows = [table_row([measure(level, s, max_steps) for s in seeds]) for level in levels.values()]
    return pd.DataFrame(rows).set_index("level")


def trace_frame(run: TaskRun) -> pd.DataFrame:
    """One row per step of a run: what was wanted, what was called, with what.

    Reading a trace this way is how you spot a call that is valid and wrong.
    """
    rows = [
        {
            "step": s.number,
            "wanted": s.target or "(done)",
            "called": s.tool,
            "arguments": s.arguments,
            "result": s.result,
            "error": s.failed,
        }
        for s in run.trace
    ]
    return pd.DataFrame(rows).set_index("step")
