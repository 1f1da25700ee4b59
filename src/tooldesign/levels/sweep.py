"""Beyond two seeds: the four levels over hundreds of runs.

The source judged the level-3 to level-4 gap (0.1666) against the gap
between its two runs. Two runs are a thin base for a band, so the sweep
runs every level under many seeds (20260218, 20260219, ...) and asks:

* per level, the mean task success with a 95 % interval, and the whole
  distribution over seeds;
* the run-to-run band: how far two runs of the *same* level land apart;
* whether the gap between two levels stands outside that band.

The world (subscribers, tasks) stays fixed; only the agent's seed moves,
exactly like run B of the published table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from tqdm.auto import tqdm  # a widget bar in Jupyter, text elsewhere

from tooldesign.levels.definitions import LEVELS, Level, levels_with
from tooldesign.levels.environment import SEED
from tooldesign.levels.loop import STEP_BUDGET
from tooldesign.levels.measure import measure
from tooldesign.levels.tasks import TASKS

Z95 = 1.959964  # two-sided 95 % quantile of the normal distribution
PUBLISHED_GAP = 0.1666  # level 4 minus level 3 in the source, seed A and B


@dataclass
class SweepResult:
    """Per seed and level: correct answers, tokens, calls, errors, steps."""

    seeds: np.ndarray
    levels: tuple[Level, ...]
    max_steps: int
    correct: np.ndarray  # shape (seeds, levels), counts of 24
    tokens: np.ndarray
    calls: np.ndarray
    errors: np.ndarray
    steps: np.ndarray
    task_count: int = len(TASKS)

    @property
    def success(self) -> np.ndarray:
        return self.correct / self.task_count

    def column(self, number: int) -> int:
        """Column index of the level with this number."""
        return [lv.number for lv in self.levels].index(number)

    def summary(self) -> pd.DataFrame:
        """Mean task success per level, its 95 % interval, and the spread of runs.

        The interval is for the *mean* (normal approximation, fine at
        hundreds of seeds); the 2.5-97.5 percentiles describe single runs.
        """
        s = self.success
        mean, sd = s.mean(axis=0), s.std(axis=0, ddof=1)
        half = Z95 * sd / math.sqrt(len(self.seeds))
        return pd.DataFrame(
            {
                "mean success": mean,
                "95% CI low": mean - half,
                "95% CI high": mean + half,
                "sd": sd,
                "runs 2.5%": np.percentile(s, 2.5, axis=0),
                "runs 97.5%": np.percentile(s, 97.5, axis=0),
                "mean tokens": self.tokens.mean(axis=0),
                "tokens/answer": self.tokens.sum(axis=0) / self.correct.sum(axis=0),
            },
            index=[lv.name for lv in self.levels],
        )

    def distribution(self) -> pd.DataFrame:
        """How many seeds ended with each number of correct answers, per level."""
        counts = {
            lv.name: np.bincount(self.correct[:, j], minlength=self.task_count + 1)
            for j, lv in enumerate(self.levels)
        }
        frame = pd.DataFrame(counts)
        frame.index.name = "correct of 24"
        return frame

    def compare(self, low: int = 3, high: int = 4, reference: float = PUBLISHED_GAP) -> LevelGap:
        """Judge the gap between two levels against the run-to-run band.

        ``reference`` is a single-run gap to judge, by default the source's.
        """
        if len(self.seeds) < 2:
            raise ValueError("a band needs at least two seeds")
        a = self.correct[:, self.column(low)]
        b = self.correct[:, self.column(high)]
        gap = (b - a) / self.task_count  # paired: one seed drives both levels
        half = Z95 * gap.std(ddof=1) / math.sqrt(len(gap))
        band = max(run_to_run_band(a, self.task_count), run_to_run_band(b, self.task_count))
        return LevelGap(
            low=low,
            high=high,
            seeds=len(gap),
            reference=reference,
            mean_gap=float(gap.mean()),
            gap_ci=(float(gap.mean() - half), float(gap.mean() + half)),
            band=band,
            noise_share=pair_share_apart(a, reference * self.task_count),
            share_higher=float((gap > 0).mean()),
        )


def _pair_differences(correct: np.ndarray) -> np.ndarray:
    """How many unordered pairs of runs differ by 0, 1, 2, ... correct answers.

    Counted from the histogram, so thousands of seeds cost no more than 25.
    """
    hist = np.bincount(correct).astype(np.int64)
    pairs = np.zeros(len(hist), dtype=np.int64)
    pairs[0] = (hist * (hist - 1) // 2).sum()
    for d in range(1, len(hist)):
        pairs[d] = (hist[:-d] * hist[d:]).sum()
    return pairs


def run_to_run_band(correct: np.ndarray, task_count: int = len(TASKS), coverage: float = 0.95) -> float:
    """How far apart two runs of the same level land, in task success.

    The smallest gap that covers ``coverage`` of all pairs of seeds: the
    source's idea (compare run A with run B) applied to every pair.
    """
    pairs = _pair_differences(correct)
    covered = np.cumsum(pairs) / pairs.sum()
    return float(np.searchsorted(covered, coverage - 1e-12)) / task_count


def pair_share_apart(correct: np.ndarray, at_least: float) -> float:
    """Share of pairs of runs of one level that differ by ``at_least`` answers or more."""
    pairs = _pair_differences(correct)
    first = math.ceil(at_least - 1e-9)
    return float(pairs[first:].sum() / pairs.sum())


@dataclass(frozen=True)
class LevelGap:
    """The sweep's answer on the gap between two levels."""

    low: int
    high: int
    seeds: int
    reference: float  # a single-run gap to judge (0.1666)
    mean_gap: float  # mean of (high - low) task success per seed
    gap_ci: tuple[float, float]  # 95 % interval of that mean
    band: float  # run-to-run band of the noisier level
    noise_share: float  # pairs of low-level runs apart by >= reference
    share_higher: float  # seeds where the higher level did better

    @property
    def real(self) -> bool:
        """The mean gap's interval excludes zero: the levels truly differ."""
        return self.gap_ci[0] > 0

    @property
    def outside_band(self) -> bool:
        """The mean gap is wider than the spread between two runs of one level."""
        return self.mean_gap > self.band

    def __str__(self) -> str:
        lo, hi = self.gap_ci
        return (
            f"level {self.low} -> {self.high}, {self.seeds} seeds: mean gap "
            f"{self.mean_gap:.4f} (95% CI {lo:.4f} .. {hi:.4f}); higher level better "
            f"in {self.share_higher:.1%} of seeds\n"
            f"run-to-run band {self.band:.4f}: the gap is "
            f"{'outside' if self.outside_band else 'inside'} it; two runs of level "
            f"{self.low} alone differ by >= {self.reference} in {self.noise_share:.1%} "
            f"of pairs"
        )


def sweep(
    n_seeds: int = 500,
    first_seed: int = SEED,
    levels: Mapping[int, Level] | None = None,
    max_steps: int = STEP_BUDGET,
    swap: float | None = None,
    fill: Mapping[int, float] | None = None,
    progress: bool = True,
) -> SweepResult:
    """Measure every level under ``n_seeds`` consecutive seeds.

    ``swap`` and ``fill`` change the level table as in
    :func:`~tooldesign.levels.definitions.levels_with`; ``max_steps`` is the
    step budget. The result depends only on the arguments, never on time or
    order, so two sweeps with the same arguments are identical.
    """
    table = tuple(levels_with(swap=swap, fill=fill, levels=levels or LEVELS).values())
    seeds = np.arange(first_seed, first_seed + n_seeds)
    shape = (n_seeds, len(table))
    arrays = {
        key: np.zeros(shape, dtype=np.int64) for key in ("correct", "tokens", "calls", "errors", "steps")
    }
    for i, seed in enumerate(tqdm(seeds, desc="seeds", disable=not progress)):
        for j, level in enumerate(table):
            result = measure(level, int(seed), max_steps)
            for key, values in arrays.items():
                values[i, j] = getattr(result, key)
    return SweepResult(
        seeds,
        table,
        max_steps,
        correct=arrays["correct"],
        tokens=arrays["tokens"],
        calls=arrays["calls"],
        errors=arrays["errors"],
        steps=arrays["steps"],
    )
