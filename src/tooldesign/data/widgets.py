"""The explorers of notebooks 01 and 02: pick an order or a shipment, see what it looks like.

What they show is decided by plain functions in ``tooldesign.data.views`` (tested without a
browser); the builders here import ipywidgets inside themselves and only wire a dropdown to them.
"""

from __future__ import annotations

import base64
from html import escape
from typing import Any

from tooldesign import access
from tooldesign.data import coldchain, sap
from tooldesign.data.views import order_views, shipment_png, shipment_summary


def _pre(text: str) -> str:
    return access.readout_html(text, " font-size: 11px; line-height: 1.25;")


def order_explorer() -> Any:
    """Pick an order; see the record as the API sends it beside what a clerk would read."""
    import ipywidgets as widgets

    orders, customers, reasons = sap.orders(), sap.customers(), sap.block_reasons()
    picker = widgets.Dropdown(options=list(orders["SalesOrder"]), description="order")
    raw, readable = widgets.HTML(), widgets.HTML()

    def show(_=None) -> None:
        raw_text, card_text = order_views(picker.value, orders, customers, reasons)
        raw.value, readable.value = _pre(raw_text), _pre(card_text)

    picker.observe(show, names="value")
    show()
    return widgets.VBox([picker, widgets.HBox([raw, readable])])


def shipment_explorer() -> Any:
    """Pick a shipment; see its curve and its longest breach."""
    import ipywidgets as widgets

    shipments, readings, limits = coldchain.shipments(), coldchain.readings(), coldchain.limits()
    picker = widgets.Dropdown(
        options=list(shipments["shipment_number"]), value="SHP-2047", description="shipment"
    )
    view = widgets.HTML()

    def show(_=None) -> None:
        # Curve and summary are one value, so the page never shows one shipment's curve under another's line.
        png = base64.b64encode(shipment_png(picker.value, shipments, readings, limits)).decode("ascii")
        summary = escape(shipment_summary(picker.value, shipments, readings, limits))
        view.value = (
            f'<img alt="The curve shows the temperature of {escape(picker.value)}" src="data:image/png;base64,{png}">'
            f"<br><b>{summary}</b>" + access.page_helpers_html()
        )

    picker.observe(show, names="value")
    show()
    return widgets.VBox([picker, view])
