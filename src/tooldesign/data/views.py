"""Plots for notebooks 01 and 02, and what their explorers show.

The functions that decide what to show are plain (they take frames, return dicts or strings or
draw on an Axes), so the tests can call them; the explorers in ``tooldesign.data.widgets`` only
wire them to a dropdown.
"""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import pandas as pd

from tooldesign import palette
from tooldesign.data import coldchain, sap
from tooldesign.figures import png

BLOCKED_COLOUR, FREE_COLOUR, LIMIT_COLOUR, BREACH_COLOUR = (
    palette.BAD,
    palette.GREY,
    palette.LIMIT,
    palette.COLOURS[8],
)


# ---------- notebook 01: orders ----------


def readable_order(number: str, orders: pd.DataFrame, customers: pd.DataFrame, reasons: pd.DataFrame) -> dict:
    """One order as a clerk would want to read it: names and texts instead of codes."""
    header = orders.set_index("SalesOrder").loc[number]
    customer = customers.set_index("customer").loc[header["SoldToParty"]]
    return {
        "sales_order": number,
        "customer": f"{customer['name']} ({header['SoldToParty']})",
        "net_value": f"{float(header['TotalNetAmount']):,.2f} {header['TransactionCurrency']}",
        "requested_delivery": header["RequestedDeliveryDate"],
        "blocked": sap.is_blocked(header),
        "why": sap.block_text(header, reasons) or "not blocked",
    }


def order_values_chart(orders: pd.DataFrame, customers: pd.DataFrame):
    """Net value of every order, grouped by customer, blocked orders coloured and hatched."""
    names = customers.set_index("customer")["name"]
    table = orders.assign(
        value=orders["TotalNetAmount"].astype(float), blocked=orders.apply(sap.is_blocked, axis=1)
    ).sort_values(["SoldToParty", "SalesOrder"])
    fig, ax = plt.subplots(figsize=(8, 3.4))
    colours = [BLOCKED_COLOUR if b else FREE_COLOUR for b in table["blocked"]]
    labels = [f"{o}\n{names[c].split()[0]}" for o, c in zip(table["SalesOrder"], table["SoldToParty"])]
    # Hatching as well as colour: a reader who cannot tell the colours apart still sees the blocked ones.
    hatches = ["//" if b else "" for b in table["blocked"]]
    ax.bar(labels, table["value"], color=colours, hatch=hatches, edgecolor="white")
    ax.set(
        title="Order net value by customer (orange, hatched: blocked)",
        xlabel="sales order and customer",
        ylabel="net value (EUR)",
    )
    ax.tick_params(axis="x", labelsize=8)
    fig.tight_layout()
    return fig


def order_views(
    number: str, orders: pd.DataFrame, customers: pd.DataFrame, reasons: pd.DataFrame
) -> tuple[str, str]:
    """The record as the API sends it and the clerk's card, each headed by its size in characters."""
    record = {"SalesOrder": number, **orders.set_index("SalesOrder").loc[number].to_dict()}
    raw = json.dumps(record, indent=1)
    card = readable_order(number, orders, customers, reasons)
    lines = [f"  {key:<19} {value}" for key, value in card.items()]
    return (
        f"As the API sends it ({len(json.dumps(record))} characters):\n{raw}",
        f"As a clerk reads it ({len(json.dumps(card))} characters):\n" + "\n".join(lines),
    )


# ---------- notebook 02: shipments ----------


def breach_spans(temps: list[float], max_temp_c: float) -> list[tuple[int, int]]:
    """(first, last) reading index of every run strictly above the limit."""
    spans, start = [], None
    for i, temp in enumerate([*temps, float("-inf")]):
        if temp > max_temp_c and start is None:
            start = i
        elif temp <= max_temp_c and start is not None:
            spans.append((start, i - 1))
            start = None
    return spans


def plot_shipment(
    ax, shipment: pd.Series, readings: pd.DataFrame, limits: pd.DataFrame, compact: bool = False
) -> None:
    """One shipment's temperature against its class limit, each breach shaded."""
    rows = readings[readings["shipment_id"] == shipment["shipment_id"]]  # 49 rows, in time order
    limit = float(limits.set_index("product_class").loc[shipment["product_class"], "max_temp_c"])
    hours = (rows["ts"] - rows["ts"].iloc[0]).dt.total_seconds() / 3600
    temps = rows["temp_c"].tolist()
    ax.plot(hours, temps, color=palette.BLUE, linewidth=1.2)
    ax.axhline(limit, color=LIMIT_COLOUR, linestyle="--", linewidth=1)
    for first, last in breach_spans(temps, limit):
        # Each reading stands for one sample interval, so shade from the reading to the next one.
        ax.axvspan(hours.iloc[first], hours.iloc[last] + 0.5, color=BREACH_COLOUR, alpha=0.8, linewidth=0)
    title = f"{shipment['shipment_number']} {shipment['product_class'].lower()}"
    if compact:
        ax.set_title(title, fontsize=8)
        ax.tick_params(labelsize=6)
    else:
        ax.set(
            title=f"{title}, {shipment['carrier']}, {shipment['lane']} (dashed: limit {limit:g} °C)",
            xlabel="hours since departure",
            ylabel="temperature (°C)",
        )


def small_multiples(shipments: pd.DataFrame, readings: pd.DataFrame, limits: pd.DataFrame):
    """All 24 shipments at a glance, each against its own limit, breaches shaded."""
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(4, 6, figsize=(13, 7.5), sharex=True)
    for ax, (_, shipment) in zip(axes.flat, shipments.iterrows()):
        plot_shipment(ax, shipment, readings, limits, compact=True)
        ax.yaxis.set_major_locator(MaxNLocator(3))
    fig.suptitle("Every shipment against its class limit (dashed); shaded: readings above the limit")
    fig.supxlabel("hours since departure")
    fig.supylabel("temperature (°C)")
    # Fixed margins: tight_layout over 24 axes costs seconds and changes nothing here.
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.08, top=0.9, wspace=0.3, hspace=0.45)
    return fig


def shipment_summary(
    number: str, shipments: pd.DataFrame, readings: pd.DataFrame, limits: pd.DataFrame
) -> str:
    shipment = shipments.set_index("shipment_number").loc[number]
    limit = limits.set_index("product_class").loc[shipment["product_class"]]
    temps = readings.loc[readings["shipment_id"] == shipment["shipment_id"], "temp_c"].tolist()
    minutes = coldchain.longest_breach_minutes(temps, limit["max_temp_c"], int(limit["sample_minutes"]))
    claim = coldchain.claim_eur(minutes, int(limit["max_minutes_above"]), limit["claim_per_hour_eur"])
    return (
        f"{number}: longest breach {minutes} min, allowance {int(limit['max_minutes_above'])} min, "
        f"claim EUR {claim:g}"
    )


def shipment_png(number: str, shipments: pd.DataFrame, readings: pd.DataFrame, limits: pd.DataFrame) -> bytes:
    """One shipment's plot as PNG bytes, for an image widget."""
    fig, ax = plt.subplots(figsize=(8, 3))
    plot_shipment(
        ax,
        shipments.set_index("shipment_number")
        .loc[number]
        .rename(number)
        .to_frame()
        .T.reset_index(names="shipment_number")
        .iloc[0],
        readings,
        limits,
    )
    fig.tight_layout()
    return png(fig, dpi=80)
