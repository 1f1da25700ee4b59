"""The catalog explorer: move the budget and the padding, see which tools still fit.

``explorer_view()`` is the logic, a pure function of the slider values (it builds a registry in
memory and fits its catalog); ``catalog_explorer()`` wires it to sliders and one display that
holds the report, the log line and the chart together, so they change in a single step and never
disagree on screen.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from typing import Any

from tooldesign import access
from tooldesign.codemode.catalog import BUDGET_BYTES, Catalog
from tooldesign.codemode.registry import MAX_DESCRIPTION_CHARS
from tooldesign.codemode.sizelimit import FILLERS, ORDERS, PADDING, explore, plot_catalog
from tooldesign.figures import png

__all__ = ["ExplorerView", "catalog_explorer", "catalog_png", "explorer_view"]

MAX_PADDING = 3940  # the filler's own sentence takes the rest of the 4,000 characters


@dataclass(frozen=True)
class ExplorerView:
    catalog: Catalog

    @property
    def log_line(self) -> str:
        """What the log would hold: the warning, or a note that there is none."""
        return (
            f"WARNING {self.catalog.warning}" if self.catalog.warning else "(no warning: every tool fitted)"
        )

    def text(self) -> str:
        return f"{self.catalog.report()}\nlog: {self.log_line}"

    @property
    def headline(self) -> str:
        """The chart's title, in words the report also states."""
        return (
            f"{len(self.catalog.included)} of {self.catalog.code_callable_count} code-callable tools fit: "
            f"{self.catalog.size_bytes:,} of {self.catalog.budget:,} bytes"
        )

    def html(self) -> str:
        """Report, log line and chart as one piece of HTML: one value, so one update."""
        png = base64.b64encode(catalog_png(self.catalog)).decode("ascii")
        return (
            access.readout_html(self.text())
            + f"<img src='data:image/png;base64,{png}' alt='{html.escape(self.headline, quote=True)}' "
            f"style='max-width: 100%'>"
        )


def explorer_view(
    budget: int = BUDGET_BYTES, padding: int = PADDING, fillers: int = FILLERS, order: str = "A"
) -> ExplorerView:
    if not 0 <= padding <= MAX_PADDING:
        raise ValueError(
            f"padding must be between 0 and {MAX_PADDING}, so a description stays within "
            f"{MAX_DESCRIPTION_CHARS:,} characters"
        )
    return ExplorerView(explore(budget, padding, fillers, order))


def catalog_png(catalog: Catalog) -> bytes:
    """The bytes-per-tool chart as PNG bytes, for an image widget."""
    return png(plot_catalog(catalog), dpi=80)


def catalog_explorer() -> Any:
    """The widget: four controls and one display with the report, the log line and the chart.

    The display is a single HTML widget, set once per move of a slider, so the text and the chart
    always show the same catalog. It is a widget value, not printed output, so the cell's own
    output stays the same however the sliders move.
    """
    import ipywidgets as w

    style = {"description_width": "150px"}
    layout = w.Layout(width="520px")
    controls = {
        "budget": w.IntSlider(
            value=BUDGET_BYTES,
            min=2000,
            max=45000,
            step=1,  # the text asks to take one byte away: the arrow keys do exactly that
            description="budget (bytes)",
            style=style,
            layout=layout,
        ),
        "padding": w.IntSlider(
            value=PADDING,
            min=0,
            max=MAX_PADDING,
            step=10,
            description="filler padding (chars)",
            style=style,
            layout=layout,
        ),
        "fillers": w.IntSlider(
            value=FILLERS, min=0, max=9, description="filler tools", style=style, layout=layout
        ),
        "order": w.Dropdown(
            options=[(f"{key}: {text}", key) for key, text in ORDERS.items()],
            value="A",
            description="store order",
            style=style,
            layout=layout,
        ),
    }
    display = w.HTML()

    def redraw(_: object = None) -> None:
        view = explorer_view(**{name: control.value for name, control in controls.items()})
        display.value = view.html()  # everything computed first, then one assignment

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    return w.VBox([*controls.values(), display])
