"""The lesson's tables: tokens per model call per design, and tokens saved against facts lost.

``per_call()`` runs the task with the mirrored and the designed results carried as they are.
``techniques()`` runs it with the mirrored results shrunk each way and counts, for every technique,
the tokens sent over the whole task, the tokens saved against carrying everything, the facts the
end-of-task questions can still find, and whether the context says that something was left out.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    colors = {"mirror": "#c0504d", "designed": "#4f81bd"}
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
    """Tokens sent over the task per technique, each bar labelled with the facts it kept."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.8))
    positions = list(range(len(rows)))[::-1]
    ax.barh(
        positions,
        [r.tokens for r in rows],
        color=["#4f81bd" if r.technique.startswith("designed") else "#c0504d" for r in rows],
    )
    ax.set_yticks(positions, [r.technique for r in rows], fontsize=8)
    for y, r in zip(positions, rows):
        ax.text(
            r.tokens, y, f" {r.tokens:,} tokens, {len(r.kept)}/{len(FACTS)} facts", va="center", fontsize=8
        )
    ax.set_title("Tokens sent over the task, and facts still answerable at the end")
    ax.set_xlabel(f"tokens sent over all model calls ({ESTIMATE_LABEL})")
    ax.set_ylabel("how results are carried")
    ax.margins(x=0.35)
    return ax
