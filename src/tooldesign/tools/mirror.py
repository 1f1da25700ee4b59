"""The first-draft tool set: one tool per API call, the way a quick wrapper of SAP's API looks.

Seven tools mirror the sales order and business partner endpoints. Their descriptions are one
line, their parameters are called ``id``, ``entity``, ``filter`` and ``fields``, their results are
whole API records with codes, and their errors are bare status codes. Lesson 03 reads them;
lessons 04-06 measure what this costs. Nothing here changes any data: ``update_order`` always
answers "403", where a real mirror would have changed the order.

The raw records are loaded once from the committed data files (``load_sap``), so a handler is a
dictionary lookup and a notebook widget can call it on every keystroke.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from tooldesign.data import sap
from tooldesign.tools.base import NotJSON, Tool, ToolSet, echo, json_plain

__all__ = ["SapRecords", "load_sap", "build_mirror_set", "MIRROR_NAMES", "ORDER_ENTITY"]

ORDER_ENTITY = "API_SALES_ORDER_SRV.A_SalesOrderType"
MIRROR_NAMES = (
    "get_order",
    "get_order_details",
    "get_order_status",
    "get_bp",
    "get_credit",
    "query",
    "update_order",
)


@dataclass(frozen=True)
class SapRecords:
    """Every SAP table the tools read, as plain dicts keyed the way the tools look them up."""

    orders: Mapping[str, dict[str, str]]  # SalesOrder -> header, all strings
    items: Mapping[str, tuple[dict[str, str], ...]]  # SalesOrder -> its items
    customers: Mapping[str, dict[str, Any]]  # customer number -> master record
    block_texts: Mapping[tuple[str, str], str]  # (field, code) -> configured text
    prices: Mapping[str, dict[str, Any]]  # SalesOrder -> price conditions


@lru_cache(maxsize=4)
def load_sap(folder: Path | str | None = None) -> SapRecords:
    """Read the SAP tables once. Cached, because handlers run on every widget update."""
    folder = Path(folder) if folder is not None else sap.FOLDER
    orders = {row["SalesOrder"]: dict(row) for row in sap.orders(folder).to_dict("records")}
    items: dict[str, list[dict[str, str]]] = {}
    for row in sap.items(folder).to_dict("records"):
        items.setdefault(row["SalesOrder"], []).append(dict(row))
    customers = {row["customer"]: dict(row) for row in sap.customers(folder).to_dict("records")}
    texts = {(r["field"], r["code"]): r["text"] for r in sap.block_reasons(folder).to_dict("records")}
    prices = {row["sales_order"]: dict(row) for row in sap.price_conditions(folder).to_dict("records")}
    return SapRecords(orders, {k: tuple(v) for k, v in items.items()}, customers, texts, prices)


def _text(args: Any, key: str) -> str:
    """A first draft reads whatever it is handed as text; it never says what it expected."""
    try:
        value = json_plain(args).get(key, "") if isinstance(args, dict) else ""
    except NotJSON:  # what a real service answers for a body it cannot parse
        return "\x00unreadable"
    return value if isinstance(value, str) else echo(value)


def _record(header: dict[str, str]) -> dict[str, Any]:
    """An order as the OData API sends it: metadata first, then every header field with its codes."""
    return {"__metadata": {"type": ORDER_ENTITY}, **header}


def _order_tool(data: SapRecords, shape: str):
    def handler(args: Any) -> dict:
        key = _text(args, "id")
        if not key.isascii() or not key.isdigit():
            return {"error": "400 Bad Request"}
        header = data.orders.get(key)
        if header is None:
            return {"error": "404"}
        if shape == "status":
            # The status view keeps the code fields and nothing that explains them.
            return {k: v for k, v in header.items() if k.endswith(("Status", "Sts", "BlockReason"))}
        record = _record(header)
        if shape == "details":
            record["to_Item"] = {"results": [dict(item) for item in data.items.get(key, ())]}
        return record

    return handler


def _partner_tool(data: SapRecords, shape: str):
    def handler(args: Any) -> dict:
        record = data.customers.get(_text(args, "id"))
        if record is None:
            return {"error": "404"}
        if shape == "credit":
            return {"limit": record["credit_limit"], "open": record["open_items"]}
        return {
            "BusinessPartner": record["customer"],
            **{k: v for k, v in record.items() if k not in ("customer", "credit_limit", "open_items")},
        }

    return handler


_CLAUSE = re.compile(r"^\s*(\w+)\s+eq\s+'([^']*)'\s*$")


def _query_tool(data: SapRecords):
    def handler(args: Any) -> dict:
        entity = _text(args, "entity")
        rows: list[dict[str, Any]]
        if entity == "A_SalesOrder":
            rows = [_record(h) for h in data.orders.values()]
        elif entity == "A_SalesOrderItem":
            rows = [dict(i) for group in data.items.values() for i in group]
        elif entity == "A_BusinessPartner":
            rows = [dict(c) for c in data.customers.values()]
        else:
            return {"error": "404"}
        text = _text(args, "filter").strip()
        for clause in re.split(r"\s+and\s+", text) if text else []:
            match = _CLAUSE.match(clause)
            if match is None:
                return {"error": "400 Bad Request"}
            field, value = match.groups()
            rows = [r for r in rows if str(r.get(field, "")) == value]
        return {"d": {"results": rows}}

    return handler


def _update_order(args: Any) -> dict:
    # The course never writes. A real mirror would have changed any field of any order here.
    return {"error": "403"}


def _id(kind: str = "string") -> dict:
    return {"type": kind}


def build_mirror_set(data: SapRecords | None = None) -> ToolSet:
    """The seven mirrored tools over ``data`` (the committed SAP tables by default).

    The definitions are deliberately thin, the way a first draft copies an API: that is what the
    linter and the selection test in lessons 05 and 06 are meant to catch.
    """
    data = data or load_sap()

    def params(fields: dict, needed: list[str]) -> dict:
        return {"type": "object", "properties": fields, "required": list(needed)}

    one_id = params({"id": _id()}, ["id"])
    tools = (
        Tool("get_order", "Get an order.", one_id, _order_tool(data, "record")),
        Tool("get_order_details", "Get order details.", one_id, _order_tool(data, "details")),
        Tool("get_order_status", "Get order status.", one_id, _order_tool(data, "status")),
        Tool("get_bp", "Get business partner.", one_id, _partner_tool(data, "partner")),
        Tool("get_credit", "Get credit.", one_id, _partner_tool(data, "credit")),
        Tool(
            "query",
            "Query an entity set with a filter.",
            params({"entity": _id(), "filter": _id()}, ["entity"]),
            _query_tool(data),
        ),
        Tool(
            "update_order",
            "Update an order.",
            params({"id": _id(), "fields": _id("object")}, ["id", "fields"]),
            _update_order,
        ),
    )
    return ToolSet("mirror", tools)
