"""Four ways to carry less of a result, each a carrier for ``run_task``.

Every one lowers what later steps re-send, and every one drops something: that is the trade the
lesson measures. They act on the result after the tool returned it, the way a loop or a wrapper
around an existing tool would; a tool you design can do the same inside (the designed search
already pages, and ``detail`` is field selection).

* ``truncate(limit, note)``: keep the first ``limit`` characters; with ``note``, say what was cut;
* ``paginate(size, read_all)``: the first ``size`` rows, a total and a cursor; ``read_all`` follows it;
* ``select_fields(fields)``: only the named fields of each record (OData's ``$select``);
* ``summarise``: a short sentence written by code in place of the record.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from tooldesign.data.sap import BLOCK_FIELDS
from tooldesign.dispatch import ToolCall
from tooldesign.loop.transcript import Carrier, Exchange, text_of

__all__ = [
    "truncate_text",
    "truncate",
    "paginate",
    "page_of",
    "select_fields",
    "summarise",
    "summary_of",
    "NEEDED_FIELDS",
    "TRUNCATE_LIMIT",
    "PAGE_SIZE",
]

TRUNCATE_LIMIT = 1000  # characters kept per result
PAGE_SIZE = 2  # rows per page
# What the clerk's four questions need from an order header: number, customer, value, blocks.
NEEDED_FIELDS = ("SalesOrder", "SoldToParty", "TotalNetAmount", "TransactionCurrency", *BLOCK_FIELDS)


# ---------- truncation ----------


def truncate_text(text: str, limit: int, note: bool = True) -> str:
    """``text`` cut to ``limit`` characters; with ``note``, a line saying how much was left out and why."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1 character, not {limit}")
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if not note:
        return cut
    return (
        f"{cut}\n[cut: {len(text) - limit:,} of {len(text):,} characters not shown. Ask for one order, "
        "fewer fields or a filter to see the rest.]"
    )


def truncate(limit: int = TRUNCATE_LIMIT, note: bool = True) -> Carrier:
    def carrier(call: ToolCall, result: Any, run_again: Callable[[ToolCall], Any]) -> list[Exchange]:
        return [Exchange(call, truncate_text(text_of(result), limit, note))]

    return carrier


# ---------- pagination with a cursor ----------


def _row_list(result: Any) -> tuple[dict, str] | None:
    """The dict that holds the result's list of records, and the list's key (OData's d.results, orders)."""
    if not isinstance(result, dict):
        return None
    for key, value in result.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            return result, key
        found = _row_list(value)
        if found is not None:
            return found
    return None


def page_of(result: Any, cursor: int, size: int = PAGE_SIZE) -> Any:
    """Page ``cursor`` (0-based start row) of the result's record list, with the total and the next cursor.

    A result without a list of records comes back unchanged.
    """
    copy = json.loads(json.dumps(result))
    found = _row_list(copy)
    if found is None:
        return copy
    holder, key = found
    rows = holder[key]
    holder[key] = rows[cursor : cursor + size]
    holder["total"] = len(rows)
    holder["next_cursor"] = str(cursor + size) if cursor + size < len(rows) else None
    return copy


def paginate(size: int = PAGE_SIZE, read_all: bool = False) -> Carrier:
    """Carry the first page; with ``read_all``, follow ``next_cursor`` (one more round trip per page)."""
    if size < 1:
        raise ValueError(f"size must be at least 1 row, not {size}")

    def carrier(call: ToolCall, result: Any, run_again: Callable[[ToolCall], Any]) -> list[Exchange]:
        page = page_of(result, 0, size)
        out = [Exchange(call, text_of(page))]
        cursor = _next(page)
        while read_all and cursor is not None:
            # The cursor call is a new model turn: the model asks for the next page.
            follow = ToolCall(call.name, {**dict(call.arguments), "cursor": cursor}, f"{call.id}_p{cursor}")
            page = page_of(result, int(cursor), size)
            out.append(Exchange(follow, text_of(page)))
            cursor = _next(page)
        return out

    return carrier


def _next(page: Any) -> str | None:
    found = _row_list(page) if isinstance(page, dict) else None
    return found[0].get("next_cursor") if found else None


# ---------- field selection ----------


def _select(value: Any, fields: Sequence[str]) -> Any:
    if isinstance(value, list):
        return [_select(v, fields) for v in value]
    if not isinstance(value, dict):
        return value
    if "SalesOrder" in value:  # an order record: keep only the selected fields
        return {k: v for k, v in value.items() if k in fields}
    return {k: _select(v, fields) for k, v in value.items()}


def select_fields(fields: Sequence[str] = NEEDED_FIELDS) -> Carrier:
    """Keep only ``fields`` of every order record in a result; other results pass unchanged."""

    def carrier(call: ToolCall, result: Any, run_again: Callable[[ToolCall], Any]) -> list[Exchange]:
        return [Exchange(call, text_of(_select(result, fields)))]

    return carrier


# ---------- a summary ----------


def _blocks(record: dict) -> str:
    codes = [f"{f} {record[f]}" for f in BLOCK_FIELDS if str(record.get(f, "")).strip()]
    return ", ".join(codes)


def summary_of(result: Any) -> str:
    """One or two sentences in place of the result, written by a fixed rule (a stand-in for a model's summary).

    Lists: how many orders, their numbers, which are blocked and by which code. One order: its
    number, customer, value, blocks and number of items. Small results (four fields or fewer) and
    errors are kept as they are, because a summary of them would be no shorter.
    """
    if isinstance(result, dict) and "SalesOrder" in result:
        items = result.get("to_Item", {}).get("results", [])
        return (
            f"Order {result['SalesOrder']} for customer {result.get('SoldToParty', '?')}: "
            f"{result.get('TotalNetAmount', '?')} {result.get('TransactionCurrency', '')}, "
            f"blocked: {_blocks(result) or 'no'}; {len(items)} items."
        )
    found = _row_list(result)
    if found is not None:
        rows = found[0][found[1]]
        numbers = [str(r.get("SalesOrder", r.get("sales_order", "?"))) for r in rows]
        blocked = [f"{n} ({_blocks(r)})" for n, r in zip(numbers, rows) if _blocks(r)]
        return f"{len(rows)} orders ({', '.join(numbers)}); blocked: {', '.join(blocked) or 'none'}."
    return text_of(result)


def summarise(call: ToolCall, result: Any, run_again: Callable[[ToolCall], Any]) -> list[Exchange]:
    """Carry a summary of each result instead of the result."""
    return [Exchange(call, summary_of(result))]
