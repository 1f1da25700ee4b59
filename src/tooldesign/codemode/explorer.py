"""The catalog explorer: move the budget and the padding, see which tools still fit.

``explorer_view()`` is the logic, a pure function of the slider values (it builds a registry in
memory and fits its catalog); ``catalog_explorer()`` wires it to sliders, a chart and the log line.
"""
from __future__ import annotations

import html
import io
from dataclasses import dataclass
from typing import Any

from tooldesign.codemode.catalog import BUDGET_BYTES, Catalog
from tooldesign.codemode.registry import MAX_DESCRIPTION_CHARS
from tooldesign.codemode.sizelimit import FILLERS, ORDERS, PADDING, explore, plot_catalog

__all__ = ["ExplorerView", "catalog_explorer", "catalog_png", "explorer_view"]

MAX_PADDING = 3940  # the filler's own sentence takes the rest of the 4,000 characters


@dataclass(frozen=True)
class ExplorerView:
    catalog: Catalog

    @property
    def log_line(self) -> str:
        """What the log would hold: the warning, or a note that there is none."""
        return f"WARNING {self.catalog.warning}" if self.catalog.warning else "(no warning: every tool fitted)"

    def text(self) -> str:
        return f"{self.catalog.report()}\nlog: {self.log_line}"


def explorer_view(budget: int = BUDGET_BYTES, padding: int = PADDING, fillers: int = FILLERS,
                  order: str = "A") -> ExplorerView:
    if not 0 <= padding <= MAX_PADDING:
        raise ValueError(f"padding must be between 0 and {MAX_PADDING}, so a description stays within "
                         f"{MAX_DESCRIPTION_CHARS:,} characters")
    return ExplorerView(explore(budget, padding, fillers, order))


def catalog_png(catalog: Catalog) -> bytes:
    """The bytes-per-tool chart as PNG bytes, for an image widget."""
    import matplotlib.pyplot as plt

    fig = plot_catalog(catalog)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    plt.close(fig)
    return buffer.getvalue()


def catalog_explorer() -> Any:
    """The widget: four controls, the report with the log line, and the bytes-per-tool chart.

    The report and the chart are widget values (HTML and PNG), not printed output, so the cell's
    own output stays the same however the sliders move.
    """
    import ipywidgets as w

    style = {"description_width": "150px"}
    layout = w.Layout(width="520px")
    controls = {
        "budget": w.IntSlider(value=BUDGET_BYTES, min=2000, max=45000, step=5, description="budget (bytes)",
                              style=style, layout=layout),
        "padding": w.IntSlider(value=PADDING, min=0, max=MAX_PADDING, step=10,
                               description="filler padding (chars)", style=style, layout=layout),
        "fillers": w.IntSlider(value=FILLERS, min=0, max=9, description="filler tools", style=style, layout=layout),
        "order": w.Dropdown(options=[(f"{key}: {text}", key) for key, text in ORDERS.items()], value="A",
                            description="store order", style=style, layout=layout),
    }
    report, chart = w.HTML(), w.Image(format="png")

    def redraw(_: object = None) -> None:
        view = explorer_view(**{name: control.value for name, control in controls.items()})
        report.value = f"<pre style='white-space: pre-wrap'>{html.escape(view.text())}</pre>"
        chart.value = catalog_png(view.catalog)

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    return w.VBox([*controls.values(), report, chart])
