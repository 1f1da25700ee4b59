"""The catalog's size limit, demonstrated: fillers, two store orders, and three ways to stay inside.

Nine filler tools with 3,900 characters of padding each make twelve code-callable tools. Ten fit
in the 31,855-byte budget and two are left out, with one warning in the log and no error anywhere.
How many are left out follows from the sizes; which ones follows from the order the store returns
the rows in, so two registries holding the same tools can drop different pairs.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from tooldesign import palette
from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode.catalog import (
    BUDGET_BYTES,
    LOG,
    PREAMBLE,
    Catalog,
    catalog_for,
    catalog_line,
    filler_description,
    register_fillers,
)
from tooldesign.codemode.registry import Registry

__all__ = [
    "FILLERS",
    "ORDERS",
    "PADDING",
    "demo_registry",
    "explore",
    "fillers_that_fit",
    "plot_catalog",
    "three_ways",
    "two_orders",
]

FILLERS = 9
PADDING = 3900
ORDERS = {
    "A": "cold-chain tools first, then fillers 1 to 9",
    "B": "fillers 9 down to 1 first, then the cold-chain tools",
}


def demo_registry(
    path: str | Path = ":memory:",
    *,
    order: str = "A",
    fillers: int = FILLERS,
    padding: int = PADDING,
    filler_access: str = "both",
) -> Registry:
    """A registry with the three cold-chain tools (corrected) and ``fillers`` filler tools.

    ``order`` decides the insertion order and so the order the store returns rows in.
    """
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}; got {order!r}")
    registry = Registry(path)
    numbers = list(range(1, fillers + 1))
    if order == "A":
        cc.register(registry, access=dict.fromkeys(cc.CODES, "both"))
        register_fillers(registry, padding=padding, numbers=numbers, code_mode_access=filler_access)
    else:
        register_fillers(registry, padding=padding, numbers=numbers[::-1], code_mode_access=filler_access)
        cc.register(registry, access=dict.fromkeys(cc.CODES, "both"))
    return registry


def two_orders(folder: str | Path | None = None, logger: logging.Logger | None = LOG) -> dict[str, Catalog]:
    """The catalogs of two registries with the same twelve tools, inserted in different orders.

    With ``folder`` each registry is a database file there (limit_A.sqlite, limit_B.sqlite).
    """
    catalogs = {}
    for order in ORDERS:
        path = ":memory:" if folder is None else Path(folder) / f"limit_{order}.sqlite"
        if path != ":memory:" and Path(path).exists():
            Path(path).unlink()  # start from an empty file, so the insertion order is ours
        with demo_registry(path, order=order) as registry:
            catalogs[order] = catalog_for(registry, logger=logger)
    return catalogs


def _row(way: str, catalog: Catalog) -> dict:
    return {
        "way": way,
        "code-callable": catalog.code_callable_count,
        "in the catalog": len(catalog.included),
        "left out": len(catalog.left_out),
        "catalog bytes": catalog.size_bytes,
        "spare bytes": catalog.spare_bytes,
    }


def three_ways(short_padding: int = 300) -> pd.DataFrame:
    """The limit as registered, then each of the three ways to stay inside it."""
    with demo_registry() as registry:
        rows = [_row("as registered: 9 fillers of 3,900 characters", catalog_for(registry, logger=None))]
    with demo_registry(padding=short_padding) as registry:
        rows.append(
            _row(f"1. short descriptions ({short_padding} characters)", catalog_for(registry, logger=None))
        )
    with demo_registry(filler_access="direct") as registry:
        rows.append(_row("2. fillers set to direct", catalog_for(registry, logger=None)))
    with demo_registry() as registry:
        rows.append(_row(f"3. load by tag: {cc.TAG} only", catalog_for(registry, [cc.TAG], logger=None)))
    return pd.DataFrame(rows)


def explore(
    budget: int = BUDGET_BYTES, padding: int = PADDING, fillers: int = FILLERS, order: str = "A"
) -> Catalog:
    """The catalog for one setting of the explorer's sliders; quiet, because sliders move often."""
    with demo_registry(order=order, fillers=fillers, padding=padding) as registry:
        return catalog_for(registry, budget=budget, logger=None)


def fillers_that_fit(budget: int, padding: int = PADDING, fillers: int = FILLERS) -> int:
    """How many fillers the budget holds, measured by building the catalog (the answer key)."""
    catalog = explore(budget, padding, fillers)
    return sum(code.startswith("CC_FILLER_") for code in catalog.codes)


def entry_bytes(padding: int = PADDING) -> dict[str, int]:
    """The byte sizes the arithmetic needs: the preamble, the three tools, and one filler line."""
    sizes = {"preamble": len(PREAMBLE.encode("utf-8"))}
    for code in cc.CODES:
        line = catalog_line(code, list(cc.SCHEMAS[code]["properties"]), cc.CORRECTED[code])
        sizes[code] = len(line.encode("utf-8")) + 1
    # Filler numbers 1-9 all have one digit, so every filler line has the same size.
    sizes["one filler"] = (
        len(catalog_line("CC_FILLER_1", [], filler_description(1, padding)).encode("utf-8")) + 1
    )
    return sizes


def plot_catalog(catalog: Catalog, ax=None):
    """Bytes per entry, in store order: the preamble, what fitted, what was left out.

    Horizontal bars keep every name level and full size; a left-out entry is hatched and says
    "left out" in its label, so colour is never the only sign of it.
    """
    import matplotlib.pyplot as plt

    entries = [("preamble", len(catalog.preamble.encode("utf-8")), palette.GREY, "")]
    entries += [(e.code.replace("CC_", ""), e.size_bytes, palette.GOOD, "") for e in catalog.included]
    entries += [
        (f"{e.code.replace('CC_', '')} (left out)", e.size_bytes, palette.BAD, "//") for e in catalog.left_out
    ]
    if ax is None:
        _, ax = plt.subplots(figsize=(10, 1.2 + 0.26 * len(entries)))
    positions = list(range(len(entries)))[::-1]
    for y, (_, size, color, hatch) in zip(positions, entries):
        ax.barh(y, size, color=color, hatch=hatch, edgecolor="white")
    ax.set_yticks(positions, [name for name, _, _, _ in entries], fontsize=9)
    ax.set_title(
        f"{len(catalog.included)} of {catalog.code_callable_count} code-callable tools fit: "
        f"{catalog.size_bytes:,} of {catalog.budget:,} bytes (blue: in; orange, hatched: left out)",
        fontsize=10,
    )
    ax.set_xlabel("bytes")
    ax.set_ylabel("catalog entry, in store order")
    ax.figure.tight_layout()
    return ax.figure
