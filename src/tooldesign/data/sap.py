"""Fictional order-to-cash data shaped like SAP's sales order API (A_SalesOrder).

Field names follow the A_SalesOrder entity of API_SALES_ORDER_SRV, and values stay what the API
sends: strings, with codes as codes ("B", "01", "0004"). What a code means is configured per
system, so the texts a clerk reads live in a separate table (``block_reasons``), the way a real
system keeps them in its configuration. Everything here is made up.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from tooldesign import DATA_DIR
from tooldesign.data.files import money, verified, write_csv, write_manifest

FOLDER = DATA_DIR / "sap"

# The header fields of A_SalesOrder that the course uses, in the API's order.
ORDER_FIELDS = (
    "SalesOrder",
    "SalesOrderType",
    "SalesOrganization",
    "DistributionChannel",
    "OrganizationDivision",
    "SoldToParty",
    "CreationDate",
    "CreatedByUser",
    "PurchaseOrderByCustomer",
    "SalesOrderDate",
    "TotalNetAmount",
    "TransactionCurrency",
    "PricingDate",
    "RequestedDeliveryDate",
    "ShippingCondition",
    "CompleteDeliveryIsDefined",
    "IncotermsClassification",
    "IncotermsTransferLocation",
    "CustomerPaymentTerms",
    "HeaderBillingBlockReason",
    "DeliveryBlockReason",
    "OverallSDProcessStatus",
    "TotalCreditCheckStatus",
    "OverallTotalDeliveryStatus",
    "OverallSDDocumentRejectionSts",
)
# An order counts as blocked when any of these fields holds a code.
BLOCK_FIELDS = ("DeliveryBlockReason", "HeaderBillingBlockReason", "TotalCreditCheckStatus")


@dataclass(frozen=True)
class _Order:
    number: str
    customer: str
    items: tuple[tuple[str, str, int, float], ...]  # material, text, quantity, net amount
    created: str  # day in October 2026
    requested: str
    delivery_block: str = ""
    billing_block: str = ""
    credit_status: str = ""


_ORDERS = (
    _Order(
        "4711",
        "10023",
        (("TG12", "Torque wrench set", 2, 1200.00), ("TG14", "Calibration kit", 1, 600.00)),
        "01",
        "12",
        credit_status="B",
    ),
    _Order("4723", "10051", (("RT20", "Display shelf", 4, 640.00),), "03", "14", delivery_block="01"),
    _Order("4725", "10077", (("LI07", "Laboratory balance", 1, 3900.00),), "04", "16", delivery_block="02"),
    _Order("4730", "10023", (("TG11", "Socket set", 4, 520.00),), "06", "19"),
    _Order("4731", "10023", (("TG02", "Bit holder", 15, 75.00),), "07", "19"),
    _Order(
        "4732",
        "10023",
        (("TG12", "Torque wrench set", 1, 600.00), ("TG15", "Wrench case", 5, 610.00)),
        "08",
        "20",
    ),
    _Order("4733", "10023", (("TG09", "Hex key set", 10, 300.00),), "09", "21"),
    _Order(
        "4734",
        "10023",
        (("TG14", "Calibration kit", 1, 600.00), ("TG11", "Socket set", 3, 380.00)),
        "12",
        "23",
    ),
    _Order("4735", "10023", (("TG02", "Bit holder", 12, 60.00),), "13", "26"),
)

# Block codes and the texts a clerk reads, as a system's configuration would hold them.
BLOCK_REASONS = (
    ("TotalCreditCheckStatus", "B", "Blocked by the credit check."),
    ("DeliveryBlockReason", "01", "Incomplete: delivery address data missing."),
    ("DeliveryBlockReason", "02", "Pricing: the customer disputes the price."),
    ("DeliveryBlockReason", "03", "Export control check pending."),
    ("HeaderBillingBlockReason", "01", "Billing held: the price must be checked before invoicing."),
)

# The customer master (not an SAP API): an empty postal code is a gap in the master data.
_CUSTOMERS = (
    ("10023", "Nordhafen Tools GmbH", "Hauptstrasse 5", "69190", "Walldorf", "DE", 50000.00, 50700.00),
    ("10051", "Donau Retail AG", "Ringstrasse 12", "", "Vienna", "AT", 30000.00, 4100.00),
    ("10077", "Lac Leman Instruments SA", "Rue de Rive 3", "1204", "Geneva", "CH", 80000.00, 12000.00),
)
CUSTOMER_FIELDS = (
    "customer",
    "name",
    "street",
    "postal_code",
    "city",
    "country",
    "credit_limit",
    "open_items",
)

_PRICE_CONDITIONS = (("4725", 4300.00, 400.00, 3900.00, "EUR"),)
PRICE_FIELDS = ("sales_order", "list_price", "discount", "net_price", "currency")
REASON_FIELDS = ("field", "code", "text")
ITEM_FIELDS = (
    "SalesOrder",
    "SalesOrderItem",
    "Material",
    "SalesOrderItemText",
    "RequestedQuantity",
    "RequestedQuantityUnit",
    "NetAmount",
    "TransactionCurrency",
)


def _header(order: _Order) -> dict[str, str]:
    total = sum(amount for *_, amount in order.items)
    created = f"2026-10-{order.created}"
    return {
        "SalesOrder": order.number,
        "SalesOrderType": "OR",
        "SalesOrganization": "1010",
        "DistributionChannel": "10",
        "OrganizationDivision": "00",
        "SoldToParty": order.customer,
        "CreationDate": created,
        "CreatedByUser": "CB9980000046",
        "PurchaseOrderByCustomer": f"PO-{order.number}",
        "SalesOrderDate": created,
        "TotalNetAmount": money(total),
        "TransactionCurrency": "EUR",
        "PricingDate": created,
        "RequestedDeliveryDate": f"2026-10-{order.requested}",
        "ShippingCondition": "01",
        "CompleteDeliveryIsDefined": "",
        "IncotermsClassification": "EXW",
        "IncotermsTransferLocation": "Walldorf",
        "CustomerPaymentTerms": "0004",
        "HeaderBillingBlockReason": order.billing_block,
        "DeliveryBlockReason": order.delivery_block,
        "OverallSDProcessStatus": "A",
        "TotalCreditCheckStatus": order.credit_status,
        "OverallTotalDeliveryStatus": "A",
        "OverallSDDocumentRejectionSts": "A",
    }


def write(folder: Path = FOLDER) -> list[Path]:
    """Write the five SAP tables as CSV under ``folder``, and the manifest loaders check them against."""
    headers = [_header(order) for order in _ORDERS]
    items = [
        (o.number, f"{10 * n}", material, text, str(qty), "PC", money(amount), "EUR")
        for o in _ORDERS
        for n, (material, text, qty, amount) in enumerate(o.items, start=1)
    ]
    customers = [(*row[:6], money(row[6]), money(row[7])) for row in _CUSTOMERS]
    prices = [
        (number, money(lst), money(disc), money(net), cur)
        for number, lst, disc, net, cur in _PRICE_CONDITIONS
    ]
    written = [
        write_csv(folder / "sales_orders.csv", ORDER_FIELDS, ([h[f] for f in ORDER_FIELDS] for h in headers)),
        write_csv(folder / "sales_order_items.csv", ITEM_FIELDS, items),
        write_csv(folder / "block_reasons.csv", REASON_FIELDS, BLOCK_REASONS),
        write_csv(folder / "customers.csv", CUSTOMER_FIELDS, customers),
        write_csv(folder / "price_conditions.csv", PRICE_FIELDS, prices),
    ]
    write_manifest(folder, written)
    return written


# Each table and the columns this version of the course reads from it.
TABLES = {
    "sales_orders.csv": ORDER_FIELDS,
    "sales_order_items.csv": ITEM_FIELDS,
    "block_reasons.csv": REASON_FIELDS,
    "customers.csv": CUSTOMER_FIELDS,
    "price_conditions.csv": PRICE_FIELDS,
}


def _read(name: str, folder: Path) -> pd.DataFrame:
    """One table, checked against the folder's manifest first: damaged data fails loudly, never quietly."""
    path = verified(Path(folder) / name, TABLES[name])
    stat = path.stat()
    # A copy, so a caller that edits its frame never changes the next caller's.
    return _parsed(path.resolve(), stat.st_mtime_ns, stat.st_size).copy()


@functools.lru_cache(maxsize=32)
def _parsed(path: Path, mtime_ns: int, size: int) -> pd.DataFrame:
    """A table parsed once per version of its file (the stamp is part of the key): the graders'
    drawn inputs and the lessons read the same tables hundreds of times."""
    # Everything as text, so "01" stays "01" and an empty code stays "".
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def orders(folder: Path = FOLDER) -> pd.DataFrame:
    """Order headers exactly as stored: every value a string, as the API sends it."""
    return _read("sales_orders.csv", folder)


def items(folder: Path = FOLDER) -> pd.DataFrame:
    return _read("sales_order_items.csv", folder)


def block_reasons(folder: Path = FOLDER) -> pd.DataFrame:
    return _read("block_reasons.csv", folder)


def customers(folder: Path = FOLDER) -> pd.DataFrame:
    """The customer master with credit limit and open items as numbers."""
    frame = _read("customers.csv", folder)
    return frame.astype({"credit_limit": float, "open_items": float})


def price_conditions(folder: Path = FOLDER) -> pd.DataFrame:
    return _read("price_conditions.csv", folder).astype(
        {"list_price": float, "discount": float, "net_price": float}
    )


def is_blocked(header: Mapping[str, Any] | pd.Series) -> bool:
    """The course's blocked rule: delivery block, billing block or credit status holds a code.
    An empty field is no code: "", None (JSON null), pandas' NaN, or a field the header lacks."""
    return any(isinstance(code := header.get(field), str) and bool(code.strip()) for field in BLOCK_FIELDS)


def block_text_lookup(reasons: pd.DataFrame | None = None) -> dict[tuple[str, str], str]:
    """(field, code) -> the configured text, read once so callers can reuse it."""
    reasons = block_reasons() if reasons is None else reasons
    return {(r.field, r.code): r.text for r in reasons.itertuples()}


def block_text(
    header: Mapping[str, str] | pd.Series, reasons: pd.DataFrame | Mapping[tuple[str, str], str] | None = None
) -> str:
    """The clerk's text for an order's block, from the configured texts; "" when it is not blocked."""
    lookup = reasons if isinstance(reasons, Mapping) else block_text_lookup(reasons)
    texts = [
        lookup.get((field, str(header[field])), f"{field} {header[field]} (no text configured)")
        for field in BLOCK_FIELDS
        if str(header.get(field, "")).strip()
    ]
    return " ".join(texts)
