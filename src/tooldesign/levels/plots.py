"""The two pictures of the lesson: what a level buys against what it costs,
and how much single runs scatter around a level's mean."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tooldesign import palette
from tooldesign.figures import png
from tooldesign.levels.sweep import SweepResult

if TYPE_CHECKING:
    from matplotlib.transforms import Bbox


def plot_cost_success(table: pd.DataFrame, success: str = "success A", highlight: str | None = None, ax=None):
    """Task success against tokens per correct answer, one point per level.

    ``table`` is a :func:`~tooldesign.levels.measure.level_table`. Up and to
    the left is better; a level that moves right buys success at a price.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 4.0))
    x, y = table["tokens/answer"], table[success]
    ax.plot(x, y, color="0.7", zorder=1)  # the path from level to level
    for name in table.index:
        big = name == highlight
        ax.scatter(
            x[name], y[name], s=90 if big else 40, zorder=2, color=palette.BAD if big else palette.GOOD
        )
    texts = [
        ax.annotate(label, (px, py), textcoords="offset points", xytext=(6, -5), va="top", fontsize=8)
        for label, (px, py) in _labels(table, x, y)
    ]
    _untangle(ax, texts)
    ax.margins(x=0.18)  # room for the rightmost point's label inside the axes
    ax.set_xlabel("tokens per correct answer (lesson tokens)")
    ax.set_ylabel(f"task success ({success.split()[-1]}, share of 24)")
    ax.set_ylim(0, 1.05)
    ax.set_title("What each definition level buys, and at what price")
    return ax


def _labels(table: pd.DataFrame, x: pd.Series, y: pd.Series):
    """One label per spot: levels that land on the same point share it, one name per line.

    Points closer than about a label's height are treated as one spot too,
    so names never print over each other when two levels tie.
    """
    span_x = max(float(x.max() - x.min()), 1.0)
    spots: list[tuple[list[str], float, float]] = []
    for name in table.index:
        for names, sx, sy in spots:
            if abs(float(x[name]) - sx) < 0.08 * span_x and abs(float(y[name]) - sy) < 0.05:
                names.append(name)
                break
        else:
            spots.append(([name], float(x[name]), float(y[name])))
    return [("\n".join(names), (sx, sy)) for names, sx, sy in spots]


def _untangle(ax, texts) -> None:
    """Move a label down, a line at a time, while it overlaps one placed before it."""
    canvas = ax.figure.canvas
    renderer = canvas.get_renderer() if hasattr(canvas, "get_renderer") else None
    if renderer is None:
        return
    placed: list[Bbox] = []
    for text in texts:
        for _ in range(12):
            box = text.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed):
                break
            dx, dy = text.xyann
            text.xyann = (dx, dy - 10)
        placed.append(text.get_window_extent(renderer))


def cost_success_png(table: pd.DataFrame, success: str = "success A", highlight: str | None = None) -> bytes:
    """:func:`plot_cost_success` as PNG bytes, for an image widget."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    plot_cost_success(table, success=success, highlight=highlight, ax=ax)
    fig.tight_layout()
    return png(fig, dpi=80)


def plot_distributions(result: SweepResult, ax=None):
    """Task success of every seed, per level, as side-by-side histograms.

    The width of each histogram is the run-to-run band: what two runs of
    the same level can disagree by with no change at all.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 4.0))
    counts = result.distribution()
    share = counts.index.to_numpy() / result.task_count
    width = 0.8 / result.task_count / len(counts.columns)
    for j, name in enumerate(counts.columns):
        offset = (j - (len(counts.columns) - 1) / 2) * width
        ax.bar(share + offset, counts[name], width=width, label=name)
    means = result.success.mean(axis=0)
    for j, mean in enumerate(means):
        ax.axvline(mean, color=f"C{j}", linestyle="--", linewidth=1)
    ax.set_xlabel("task success (share of 24 tasks)")
    ax.set_ylabel(f"seeds (of {len(result.seeds)})")
    ax.set_xticks(np.linspace(0, 1, 5))
    ax.set_title(f"Task success over {len(result.seeds)} seeds; dashed: the means")
    ax.set_ylim(0, counts.to_numpy().max() * 1.3)  # headroom for the legend
    ax.legend(fontsize=8, ncol=2, loc="upper left")
    return ax
