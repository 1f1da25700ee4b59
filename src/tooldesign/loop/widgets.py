"""The truncation slider: move the limit, see the tokens the task sends and the facts it keeps.

``readout(limit, note)`` is the plain function (tested without a browser); ``truncation_slider``
wires an IntSlider and a checkbox to it. Runs are cached, so revisiting a limit costs nothing.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tooldesign import access
from tooldesign.figures import png
from tooldesign.loop import shrink
from tooldesign.loop.facts import FACTS, kept
from tooldesign.loop.measure import says_what_was_cut
from tooldesign.loop.task import run_task

__all__ = ["readout", "readout_text", "readout_html", "facts_line_png", "truncation_slider", "LIMITS"]

LIMITS = (100, 6000, 100)  # min, max, step in characters
_NO_LIMIT = 10**9  # a limit no result reaches: the task as it is, uncut
_LINE_STEP = 300  # the small line samples every 300 characters (each limit is one run of the task)


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
    uncut = _run(_NO_LIMIT, note)
    return {
        "limit": limit,
        "note": note,
        "tokens": run.total_tokens,
        "kept": found,
        "lost": [f.id for f in FACTS if f.id not in found],
        "says_cut": says_what_was_cut(run.context),
        "cut": run.context != uncut.context,  # did the limit cut any result at all?
    }


def readout_text(limit: int, note: bool = True) -> str:
    r = readout(limit, note)
    if not r["cut"]:
        told = "no result is longer than the limit, so nothing was cut"
    elif r["says_cut"]:
        told = "the model is told what was cut"
    else:
        told = "nothing tells the model anything is missing"
    lost = ", ".join(r["lost"]) or "nothing"
    return (
        f"results cut at {limit:,} characters: {r['tokens']:,} tokens sent over the task (estimate); "
        f"{len(r['kept'])}/{len(FACTS)} facts kept; lost: {lost}; {told}."
    )


def facts_line_png(limit: int, note: bool = True) -> str:
    """A small line of facts kept against the limit, the current limit marked; a base64 PNG."""
    import base64

    import matplotlib.pyplot as plt

    from tooldesign import palette

    low, high, _ = LIMITS
    xs = sorted({*range(low, high + 1, _LINE_STEP), high, limit})
    ys = [len(readout(x, note)["kept"]) for x in xs]
    fig, ax = plt.subplots(figsize=(5.2, 1.9), dpi=80)
    ax.step(xs, ys, where="post", color=palette.BLUE)
    ax.plot([limit], [len(readout(limit, note)["kept"])], "D", color=palette.DARK_ORANGE)
    ax.set(
        title="Facts kept as the limit moves (diamond: this limit)",
        xlabel="limit (characters)",
        ylabel=f"facts (of {len(FACTS)})",
        ylim=(-0.3, len(FACTS) + 0.5),
    )
    ax.title.set_fontsize(9)
    fig.tight_layout()
    return base64.b64encode(png(fig)).decode("ascii")


def readout_html(limit: int, note: bool = True) -> str:
    """The readout text and the small line, as one value (they change together)."""
    text = readout_text(limit, note)
    return access.readout_html(text) + (
        f"<img src='data:image/png;base64,{facts_line_png(limit, note)}' "
        f"alt='The line shows how many facts are kept at each limit; the diamond marks {limit:,} characters.'>"
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
    out = w.HTML(readout_html(start, note))

    def update(_change: Any = None) -> None:
        out.value = readout_html(slider.value, box.value)

    slider.observe(update, names="value")
    box.observe(update, names="value")
    return w.VBox([w.HBox([slider, box]), out])
