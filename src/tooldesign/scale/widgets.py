"""The catalog-size slider: how many tools are loaded, what they cost, how often the right one is picked.

``readout(size)`` is the plain function behind the widget (tested without a browser); ``size_slider``
is the ipywidgets shell around it. Measurements are cached, so moving the slider back and forth
costs nothing after the first visit to a size.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tooldesign import access
from tooldesign.scale.growth import MAX_SIZE, ORDERS, REPORTED, Point, measure

STEP = 5


@cache
def _point(size: int, order: str) -> Point:
    return measure(sizes=(size,), order=order)[0]


def readout(size: int, order: str = ORDERS[0]) -> dict[str, Any]:
    """Tokens (estimate) and offline accuracy at ``size`` tools, and where that sits in the guidance."""
    if not 5 <= size <= MAX_SIZE:
        raise ValueError(f"size must be between 5 and {MAX_SIZE}, not {size}")
    point = _point(size, order)
    low, high = REPORTED["accuracy_degrades_past"]
    zone = (
        "within the soft limit of 20"
        if size <= REPORTED["soft_limit"]
        else f"past the soft limit, before the reported {low} to {high}"
        if size < low
        else f"in or past the reported {low} to {high} range"
    )
    return {
        "tools": size,
        "tokens (estimate)": point.tokens,
        "words accuracy": point.accuracy["words"],
        "bm25 accuracy": point.accuracy["bm25"],
        "guidance": zone,
    }


def readout_text(size: int, order: str = ORDERS[0]) -> str:
    r = readout(size, order)
    return (
        f"{r['tools']} tools loaded: about {r['tokens (estimate)']:,} tokens of definitions (estimate) on every "
        f"request; right first call {r['words accuracy']:.0%} (word-matching stand-in), "
        f"{r['bm25 accuracy']:.0%} (BM25); {r['guidance']} (reported guidance)."
    )


def size_slider(start: int = 20) -> Any:
    """A slider over the catalog size with a line of text that follows it."""
    import ipywidgets as w

    slider = w.IntSlider(
        value=start,
        min=5,
        max=MAX_SIZE,
        step=STEP,
        description="tools loaded",
        style={"description_width": "initial"},
        continuous_update=False,
    )
    # A width of its own: with "initial" the page still cut "growth order" to "growth or..." by a few pixels
    order = w.Dropdown(
        options=list(ORDERS),
        value=ORDERS[0],
        description="growth order",
        style={"description_width": "120px"},
    )
    out = w.HTML(readout_text(start) + access.page_helpers_html())

    def update(_change: Any = None) -> None:
        out.value = readout_text(slider.value, order.value) + access.page_helpers_html()

    slider.observe(update, names="value")
    order.observe(update, names="value")
    return w.VBox([w.HBox([slider, order]), out])
