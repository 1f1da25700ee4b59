"""An explorer for the four levels: pick a level, a seed, a step budget and a
swap share, and see the table and the cost/success plot change.

The logic lives in :func:`explore`, a plain function that tests can call;
:func:`explorer` only wires it to sliders.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from tooldesign import access
from tooldesign.levels.definitions import LEVELS, PUBLISHED_SWAP_SHARE, levels_with
from tooldesign.levels.environment import SEED
from tooldesign.levels.loop import STEP_BUDGET
from tooldesign.levels.measure import is_correct, measure, table_row


@dataclass
class Exploration:
    """What the explorer shows for one setting."""

    table: pd.DataFrame  # the four levels under one seed
    highlight: str  # the chosen level's name
    missed: list[str]  # tasks the chosen level got wrong

    def headline(self) -> str:
        row = self.table.loc[self.highlight]
        missed = ", ".join(self.missed) or "none"
        return (
            f"{self.highlight}: success {row['success']:.4f}, "
            f"{row['tokens/answer']:.0f} tokens per correct answer; missed: {missed}"
        )


def explore(
    level: int = 4, seed: int = SEED, max_steps: int = STEP_BUDGET, swap_share: float = PUBLISHED_SWAP_SHARE
) -> Exploration:
    """Measure all four levels at one setting and pick out ``level``.

    ``swap_share`` applies to the levels without an example call; the
    example call keeps level four at zero, as in the lesson.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {sorted(LEVELS)}")
    if max_steps < 1:
        raise ValueError("the step budget must be at least one step")
    if not 0.0 <= swap_share <= 1.0:
        raise ValueError("the swap share is a share, between 0 and 1")
    results = {n: measure(lv, seed, max_steps) for n, lv in levels_with(swap=swap_share).items()}
    frame = pd.DataFrame([table_row([r]) for r in results.values()]).set_index("level")
    frame = frame.rename(columns={"success A": "success"})
    missed = [r.task.name for r in results[level].runs if not is_correct(r)]
    return Exploration(frame, results[level].level.name, missed)


def explorer_html(view: Exploration, png: bytes) -> str:
    """The headline, the table and the plot as one HTML value.

    One value means one redraw: the text and the chart can never show two
    different settings, not even for a moment.
    """
    import base64
    from html import escape

    table = view.table.reset_index().to_html(index=False, border=0)
    image = base64.b64encode(png).decode("ascii")
    return (
        f"<b>{escape(view.headline())}</b>{table}"
        f"<img src='data:image/png;base64,{image}' alt='task success against tokens per correct answer'>"
        + access.page_helpers_html()
    )


def explorer():
    """The widget: four controls above one HTML view (headline, table, plot).

    Everything the controls change is computed first and then shown in a
    single assignment, so the text never runs ahead of the chart.
    """
    import ipywidgets as w

    from tooldesign.levels.plots import cost_success_png

    controls = {
        "level": w.Dropdown(
            options=[(f"{n}: {lv.name}", n) for n, lv in LEVELS.items()], value=4, description="level"
        ),
        "seed": w.BoundedIntText(value=SEED, min=0, max=2**32 - 1, description="seed"),
        "max_steps": w.IntSlider(
            value=STEP_BUDGET,
            min=1,
            max=16,
            description="step budget",
            style={"description_width": "initial"},
        ),
        "swap_share": w.FloatSlider(
            value=PUBLISHED_SWAP_SHARE,
            min=0.0,
            max=1.0,
            step=0.05,
            description="swap share",
            style={"description_width": "initial"},
        ),
    }
    shown = w.HTML()

    def redraw(_=None) -> None:
        view = explore(**{k: c.value for k, c in controls.items()})
        png = cost_success_png(view.table, success="success", highlight=view.highlight)
        shown.value = explorer_html(view, png)

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    return w.VBox(
        [
            w.HBox([controls["level"], controls["seed"]]),
            w.HBox([controls["max_steps"], controls["swap_share"]]),
            shown,
        ]
    )
