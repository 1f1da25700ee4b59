"""The lesson's tables: tokens per model call per design, and tokens saved against facts lost.

``per_call()`` runs the task with the mirrored and the designed results carried as they are.
``techniques()`` runs it with the mirrored results shrunk each way and counts, for every technique,
the tokens sent over the whole task, the tokens saved against carrying everything, the facts the
end-of-task questions can still find, and whether the context says that something was left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from tooldesign import palette
from tooldesign.loop import shrink
from tooldesign.loop.facts import FACTS, TASK_FACTS, kept
from tooldesign.loop.task import run_task
from tooldesign.loop.transcript import Carrier, Run, as_is
from tooldesign.tokens import ESTIMATE_LABEL

__all__ = [
    "Technique",
    "TECHNIQUES",
    "TechniqueRow",
    "per_call",
    "techniques",
    "technique_rows",
    "plot_per_call",
    "plot_techniques",
    "says_what_was_cut",
]


@dataclass(frozen=True)
class Technique:
    name: str
    set_name: str
    carrier: Carrier


TECHNIQUES: tuple[Technique, ...] = (
    Technique("mirror, as is", "mirror", as_is),
    Technique(f"truncate at {shrink.TRUNCATE_LIMIT:,}, no note", "mirror", shrink.truncate(note=False)),
    Technique(f"truncate at {shrink.TRUNCATE_LIMIT:,}, with note", "mirror", shrink.truncate(note=True)),
    Technique(f"pages of {shrink.PAGE_SIZE}, first page", "mirror", shrink.paginate()),
    Technique(f"pages of {shrink.PAGE_SIZE}, every page", "mirror", shrink.paginate(read_all=True)),
    Technique("select needed fields", "mirror", shrink.select_fields()),
    Technique("summary", "mirror", shrink.summarise),
    Technique("designed, as is", "designed", as_is),
)


@dataclass(frozen=True)
class TechniqueRow:
    technique: str
    model_calls: int
    tokens: int  # estimated tokens sent over the whole task
    saved: int  # against the first technique (everything carried)
    kept: tuple[str, ...]
    lost: tuple[str, ...]
    says_cut: bool  # the context tells the model something was left out, and how to get it

    def row(self) -> dict:
        task_lost = [f for f in self.lost if f in TASK_FACTS]
        return {
            "technique": self.technique,
            "model calls": self.model_calls,
            "tokens sent (est.)": self.tokens,
            "tokens saved": self.saved,
            "facts kept": f"{len(self.kept)}/{len(FACTS)}",
            "task facts lost": ", ".join(task_lost) or "-",
            "follow-up facts lost": ", ".join(f for f in self.lost if f not in TASK_FACTS) or "-",
            "says what was cut": "yes" if self.says_cut else "no",
        }


def says_what_was_cut(context: str) -> bool:
    """True when the context carries a note or a cursor: the model can tell it has not seen everything."""
    return any(mark in context for mark in ("[cut:", '"next_cursor": "', '"note":'))


def per_call() -> list[Run]:
    """The task with each tool set's results carried as they are."""
    return [run_task("mirror"), run_task("designed")]


def techniques(chosen: tuple[Technique, ...] = TECHNIQUES) -> list[TechniqueRow]:
    runs = [(t, run_task(t.set_name, t.carrier, t.name)) for t in chosen]
    baseline = runs[0][1].total_tokens
    return [
        TechniqueRow(
            t.name,
            len(run.calls),
            run.total_tokens,
            baseline - run.total_tokens,
            tuple(kept(run.context)),
            tuple(f.id for f in FACTS if f.id not in kept(run.context)),
            says_what_was_cut(run.context),
        )
        for t, run in runs
    ]


def technique_rows() -> list[dict]:
    return [r.row() for r in techniques()]


def plot_per_call(runs: list[Run], ax=None):
    """Tokens each model call sends, per design, with the running total on a second axis."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.6))
    colors = {"mirror": palette.BAD, "designed": palette.GOOD}
    for run in runs:
        numbers = [c.number for c in run.calls]
        ax.plot(
            numbers,
            [c.tokens for c in run.calls],
            marker="o",
            color=colors.get(run.name, "grey"),
            label=f"{run.name}: sent by each call",
        )
        running = [sum(c.tokens for c in run.calls[: i + 1]) for i in range(len(run.calls))]
        ax.plot(
            numbers,
            running,
            linestyle="--",
            color=colors.get(run.name, "grey"),
            label=f"{run.name}: running total",
        )
    ax.set_title("What each model call of the four-step task sends")
    ax.set_xlabel("model call (1 = the request; then one per tool result)")
    ax.set_ylabel(f"tokens ({ESTIMATE_LABEL})")
    ax.set_xticks([c.number for c in runs[0].calls])
    ax.legend(fontsize=8)
    return ax


def plot_techniques(rows: list[TechniqueRow], ax=None):
    """Tokens saved against facts kept, one labelled dot per technique (the trade in one picture)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.8))
    for n, r in enumerate(rows):
        designed = r.technique.startswith("designed")
        # Colour and marker both say which tool set: colour is never the only encoding.
        ax.scatter(
            r.saved,
            len(r.kept),
            s=60,
            zorder=3,
            marker="o" if designed else "s",
            color=palette.GOOD if designed else palette.BAD,
        )
        ax.annotate(
            r.technique,
            (r.saved, len(r.kept)),
            textcoords="offset points",
            xytext=(6, 6 if n % 2 else -12),
            fontsize=8,
        )
    ax.scatter([], [], marker="o", color=palette.GOOD, label="designed tools")
    ax.scatter([], [], marker="s", color=palette.BAD, label="mirrored tools")
    ax.legend(fontsize=8, loc="lower left")
    ax.set_title("What each way of carrying results saves, and what it keeps")
    ax.set_xlabel(f"tokens saved over the task against carrying everything ({ESTIMATE_LABEL})")
    ax.set_ylabel(f"facts still answerable (of {len(FACTS)})")
    ax.set_ylim(-0.5, len(FACTS) + 0.8)
    ax.margins(x=0.25)
    return ax
