"""The truncation slider: move the limit, see the tokens the task sends and the facts it keeps.

``readout(limit, note)`` is the plain function (tested without a browser); ``truncation_slider``
wires an IntSlider and a checkbox to it. Runs are cached, so revisiting a limit costs nothing.
"""

from __future__ import annotations

from functools import cache
from html import escape
from typing import Any

from tooldesign.loop import shrink
from tooldesign.loop.facts import FACTS, kept
from tooldesign.loop.measure import says_what_was_cut
from tooldesign.loop.task import run_task

__all__ = ["readout", "readout_text", "truncation_slider", "LIMITS"]

LIMITS = (100, 6000, 100)  # min, max, step in characters


@cache
def _run(limit: int, note: bool):
    return run_task("mirror", shrink.truncate(limit, note), f"truncate {limit}")


def readout(limit: int, note: bool = True) -> dict[str, Any]:
    """Tokens sent over the task, and the facts kept and lost, with results cut at ``limit`` characters."""
    low, high, _ = LIMITS
    if not low <= limit <= high:
        raise ValueError(f"limit must be between {low} and {high} characters, not {limit}")
    run = _run(limit, note)
    found = kept(run.context)
    return {
        "limit": limit,
        "note": note,
        "tokens": run.total_tokens,
        "kept": found,
        "lost": [f.id for f in FACTS if f.id not in found],
        "says_cut": says_what_was_cut(run.context),
    }


def readout_text(limit: int, note: bool = True) -> str:
    r = readout(limit, note)
    told = (
        "the model is told what was cut" if r["says_cut"] else "nothing tells the model anything is missing"
    )
    lost = ", ".join(r["lost"]) or "nothing"
    return (
        f"results cut at {limit:,} characters: {r['tokens']:,} tokens sent over the task (estimate); "
        f"{len(r['kept'])}/{len(FACTS)} facts kept; lost: {lost}; {told}."
    )


def truncation_slider(start: int = shrink.TRUNCATE_LIMIT, note: bool = True) -> Any:
    import ipywidgets as w

    low, high, step = LIMITS
    slider = w.IntSlider(
        value=start,
        min=low,
        max=high,
        step=step,
        description="limit (characters)",
        style={"description_width": "initial"},
        continuous_update=False,
        layout=w.Layout(width="480px"),
    )
    box = w.Checkbox(value=note, description="add a note when cut")
    out = w.HTML(f"<pre>{escape(readout_text(start, note))}</pre>")

    def update(_change: Any = None) -> None:
        out.value = f"<pre>{escape(readout_text(slider.value, box.value))}</pre>"

    slider.observe(update, names="value")
    box.observe(update, names="value")
    return w.VBox([w.HBox([slider, box]), out])
