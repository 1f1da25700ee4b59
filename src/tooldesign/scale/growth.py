"""A tool set that grew by accretion: the five designed SAP tools plus up to 95 plausible others.

Every definition rides on every request, and every extra tool is one more candidate for the
choice. This module grows the designed set with distractors (tools a real order-to-cash
landscape could well expose: deliveries, billing, returns, stock, ...) and measures, at each size,
the definitions' tokens (an estimate: characters / 4) and the offline pickers' accuracy on the
selection test's requests.

The first distractors are near neighbours of the designed tools (order items, a customer's
master record, release status); the rest are other objects' tools. They are added in a fixed
order, so every size is reproducible. Distractors have no data behind them: their handler says so.

Run ``tooldesign scale growth`` (or ``python -m tooldesign.scale.growth``) to print the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from tooldesign.selection import CASES, NO_CALL_CASES, Case, Picker, offline_picker, run_selection
from tooldesign.tokens import ESTIMATE_RULE, estimate_tokens
from tooldesign.tools import tool_set
from tooldesign.tools.base import Tool, ToolSet

SIZES = (5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 100)
READ_ONLY = dict(readOnlyHint=True, openWorldHint=False)
DRAFTS_ONLY = dict(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)


class _Reported(TypedDict):
    """The published figures, each with its own type: ranges are (low, high) pairs."""

    tokens_for_50_tools: tuple[int, int]
    accuracy_degrades_past: tuple[int, int]
    soft_limit: int
    search_worth_it_above: int
    load_all_below: int
    tokens_for_58_tools: int


# Reported figures (Anthropic's and OpenAI's guidance, quoted in the sources), not measured here.
REPORTED: _Reported = {
    "tokens_for_50_tools": (10_000, 20_000),
    "accuracy_degrades_past": (30, 50),
    "soft_limit": 20,
    "search_worth_it_above": 20,
    "load_all_below": 10,
    "tokens_for_58_tools": 55_000,  # five servers, before the conversation starts
}


def _no_data(name: str):
    def handler(arguments: dict) -> dict:
        return {"error": f"{name} has no data in this course; it is here to make the tool set larger."}

    return handler


def _string(description: str) -> dict:
    return {"type": "string", "description": description}


def _schema(props: dict[str, dict]) -> dict:
    return {"type": "object", "required": list(props), "properties": props, "additionalProperties": False}


ORDER = _string("Sales order number, digits only, for example '4711'.")
CUSTOMER = _string("Customer number, digits only, for example '10023'.")

# Near neighbours of the designed tools: the ones that make choosing harder.
NEIGHBOURS: tuple[tuple[str, str, dict], ...] = (
    (
        "sales_order_get_items",
        "Lists the line items of one sales order with material, item text, quantity and net value. Returns "
        "the items in item order. Use it when the user asks what was ordered on an order. Read-only.",
        {"sales_order": ORDER},
    ),
    (
        "customer_get_master_record",
        "Reads one customer's master record: name, address, payment terms, tax number and sales area. "
        "Returns the record as it is stored. Use it when the user asks for a customer's details or "
        "contact data. Read-only.",
        {"customer": CUSTOMER},
    ),
    (
        "sales_order_get_status",
        "Reports the overall processing, delivery and billing status of one sales order in words. "
        "Returns three status texts and the date of the last change. Use it when the user asks how far "
        "an order has got. Read-only.",
        {"sales_order": ORDER},
    ),
    (
        "customer_get_payment_history",
        "Lists one customer's incoming payments of the last twelve months with dates and amounts. "
        "Returns the payments and the average days paid late. Use it when the user asks whether a "
        "customer pays on time. Read-only.",
        {"customer": CUSTOMER},
    ),
    (
        "release_request_get_status",
        "Reports where a release request stands: waiting, approved or rejected, and by whom. Returns the "
        "request id, status and the approver's note. Use it when the user asks about a release that was "
        "already requested. Read-only.",
        {"request_id": _string("Release request id, for example 'RR-4711'.")},
    ),
    (
        "credit_limit_get_history",
        "Shows how one customer's credit limit changed over time and who changed it. Returns the limit "
        "changes, newest first. Use it when the user asks since when a limit applies. Read-only.",
        {"customer": CUSTOMER},
    ),
    (
        "sales_order_list_changes",
        "Lists the change log of one sales order: which field changed, old and new value, who and when. "
        "Returns at most 50 entries, newest first. Use it when the user asks who changed an order. "
        "Read-only.",
        {"sales_order": ORDER},
    ),
    (
        "credit_limit_change_request_create",
        "Drafts a request to change one customer's credit limit; a person in credit management approves "
        "or rejects it. Returns the draft id and status. Use it when the user asks to raise or lower a "
        "limit. Changes nothing itself.",
        {
            "customer": CUSTOMER,
            "new_limit": {"type": "number", "description": "The limit asked for, in EUR."},
        },
    ),
    (
        "delivery_block_list_reasons",
        "Lists the delivery block reasons configured in this system with their codes and texts. Returns "
        "every reason, sorted by code. Use it when the user asks which block reasons exist. Read-only.",
        {"language": {"type": "string", "enum": ["EN", "DE"], "description": "Language of the texts."}},
    ),
    (
        "sales_order_list_conditions",
        "Breaks down how one sales order was priced: base price, each discount and surcharge, and the "
        "net price. Returns each condition with its amount in EUR. Use it when the user asks how an order's "
        "price was built. Read-only.",
        {"sales_order": ORDER},
    ),
    (
        "customer_find_by_name",
        "Finds customers whose name contains the given text. Returns up to ten matches with number, "
        "name and city. Use it when the user knows a customer's name but not the number. Read-only.",
        {"customer_name": _string("Part of the customer's name, for example 'Nordhafen'.")},
    ),
    (
        "sales_order_get_customer_po",
        "Reads the customer's purchase order reference and date on one sales order. Returns the PO "
        "number and its date. Use it when the user quotes or asks for the customer's PO. Read-only.",
        {"sales_order": ORDER},
    ),
)

# Other objects of an order-to-cash landscape: (prefix, noun, plural, what a record holds, its key).
OBJECTS: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "outbound_delivery",
        "outbound delivery",
        "outbound deliveries",
        "ship-to address, items, picking and goods-issue status",
        "80001234",
    ),
    (
        "billing_document",
        "billing document",
        "billing documents",
        "payer, net and tax amounts, due date and clearing status",
        "90004711",
    ),
    (
        "return_order",
        "return order",
        "return orders",
        "returned items, return reason and refund status",
        "61000021",
    ),
    (
        "sales_quotation",
        "sales quotation",
        "sales quotations",
        "quoted items, prices and validity dates",
        "20000311",
    ),
    (
        "sales_contract",
        "sales contract",
        "sales contracts",
        "target value, released value and validity",
        "40000077",
    ),
    (
        "credit_memo_request",
        "credit memo request",
        "credit memo requests",
        "amount, reason and approval status",
        "60000104",
    ),
    (
        "debit_memo_request",
        "debit memo request",
        "debit memo requests",
        "amount, reason and billing status",
        "70000055",
    ),
    (
        "customer_payment",
        "customer payment",
        "customer payments",
        "amount, value date and the invoices it clears",
        "1400000123",
    ),
    (
        "dunning_notice",
        "dunning notice",
        "dunning notices",
        "dunning level, overdue items and the date sent",
        "D-2026-0042",
    ),
    ("material_master", "material", "materials", "description, unit, weight and material group", "TG12"),
    (
        "material_stock",
        "stock record",
        "stock records",
        "unrestricted, blocked and in-transit quantities per plant",
        "TG12-1010",
    ),
    (
        "purchase_order",
        "purchase order",
        "purchase orders",
        "supplier, items, prices and delivery dates",
        "4500001234",
    ),
    (
        "supplier_invoice",
        "supplier invoice",
        "supplier invoices",
        "supplier, gross amount, tax and payment block",
        "5105600123",
    ),
    (
        "freight_order",
        "freight order",
        "freight orders",
        "carrier, stages, planned and actual dates",
        "6100000042",
    ),
    (
        "handling_unit",
        "handling unit",
        "handling units",
        "packaging material, contents and weight",
        "HU-000123",
    ),
    (
        "sales_inquiry",
        "sales inquiry",
        "sales inquiries",
        "requested items and the customer's deadline",
        "10000044",
    ),
    (
        "customer_complaint",
        "customer complaint",
        "customer complaints",
        "subject, category and processing status",
        "C-2026-117",
    ),
    (
        "goods_issue",
        "goods issue",
        "goods issues",
        "material document, quantities and posting date",
        "4900012345",
    ),
    ("product_batch", "batch", "batches", "production date, expiry date and quality status", "B2026-10-07"),
)

# The jobs every object offers, as (verb, how the description reads). Texts take the object's words.
JOBS: tuple[tuple[str, str], ...] = (
    (
        "get_details",
        "Reads one {noun} by its number. Returns {holds}. Use it when the user names one "
        "{noun} and asks about it. Read-only.",
    ),
    (
        "search",
        "Searches the {plural} of one customer, newest first. Returns up to 20 {plural} with "
        "number, date and status, saying so when it cuts the list. Use it when the user asks "
        "which {plural} a customer has. Read-only.",
    ),
    (
        "get_status",
        "Reports the processing status of one {noun} in words. Returns the status text and "
        "the date it last changed. Use it when the user asks whether a {noun} is open, done or "
        "held. Read-only.",
    ),
    (
        "list_changes",
        "Lists the change log of one {noun}: field, old value, new value, who and when. "
        "Returns at most 50 entries, newest first. Use it when the user asks who changed a "
        "{noun}. Read-only.",
    ),
    (
        "create_draft",
        "Drafts a new {noun} for a person to approve; nothing is posted until they do. "
        "Returns the draft id and its status. Use it when the user asks to create a {noun}. "
        "Changes nothing itself.",
    ),
)


def _object_tool(prefix: str, noun: str, plural: str, holds: str, key: str, verb: str, text: str) -> Tool:
    name = f"{prefix}_{verb}"
    number = _string(f"The {noun}'s number as shown to users, for example '{key}'.")
    props = {
        "search": {"customer": CUSTOMER},
        "create_draft": {
            "customer": CUSTOMER,
            "details": _string(f"What the new {noun} should contain, in one or two sentences."),
        },
    }
    params = _schema(props.get(verb, {f"{prefix}_number": number}))
    return Tool(
        name,
        text.format(noun=noun, plural=plural, holds=holds),
        params,
        _no_data(name),
        DRAFTS_ONLY if verb == "create_draft" else READ_ONLY,
    )


def distractors(order: str = "neighbours first") -> list[Tool]:
    """The 95 distractors in the order they join the set.

    "neighbours first": the near neighbours of the designed tools, then the other objects in
    rounds of one job each (so every size mixes objects). "unrelated first": the same tools with
    the neighbours last, to show that overlap, more than count, is what hurts.
    """
    neighbours = [
        Tool(
            name, text, _schema(props), _no_data(name), DRAFTS_ONLY if name.endswith("_create") else READ_ONLY
        )
        for name, text, props in NEIGHBOURS
    ]
    others = [_object_tool(*obj, verb, text) for verb, text in JOBS for obj in OBJECTS]
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    ordered = neighbours + others if order == ORDERS[0] else others + neighbours
    return ordered[: MAX_SIZE - 5]


ORDERS = ("neighbours first", "unrelated first")
MAX_SIZE = 100
SHUFFLES = 3
SEED = 20261005

_S, _E, _G = (
    ("sales_order_get_block_summary",),
    ("customer_get_credit_exposure",),
    ("customer_get_address_gaps",),
)
_Q, _R = ("sales_order_search",), ("release_request_create",)
# More clerk requests for the five designed jobs, in other words than the selection test's, so the
# curve has more than twelve points of resolution. None of them is a distractor's job.
EXTRA_CASES: tuple[Case, ...] = tuple(
    Case(request, {"designed": expected})
    for request, expected in (
        ("What is holding up order 4725?", _S),
        ("Give me the reason order 4711 cannot ship.", _S),
        ("Explain the block on sales order 4723.", _S),
        ("Why won't order 4711 go out?", _S),
        ("Is customer 10023 within its credit limit if we ship order 4711?", _E),
        ("What is the credit exposure of customer 10077?", _E),
        ("Which approver signs off the credit for customer 10023?", _E),
        ("How much open credit does customer 10051 have left?", _E),
        ("Is the address of customer 10051 complete?", _G),
        ("Which master data fields are empty in the address of customer 10077?", _G),
        ("Does customer 10051 lack a postal code?", _G),
        ("Show me every order of customer 10023.", _Q),
        ("Does customer 10077 have any blocked orders?", _Q),
        ("List the latest orders for customer 10051.", _Q),
        ("Draft a release for order 4725; the price dispute is settled.", _R),
        ("Ask for approval to release order 4711.", _R),
        ("Get order 4725 unblocked, please.", _R),
        ("What's the weather in Walldorf tomorrow?", ()),
        ("Write a haiku about autumn.", ()),
    )
)
SCALE_CASES: tuple[Case, ...] = CASES + NO_CALL_CASES + EXTRA_CASES


def catalog(
    size: int, base: ToolSet | None = None, order: str = "neighbours first", shuffle: int | None = None
) -> ToolSet:
    """The designed set grown to ``size`` tools; its name keeps "designed" so the cases apply.

    ``shuffle`` (a seed) mixes the positions: a real catalog does not list your five tools first,
    and the word-matching stand-in breaks ties by position.
    """
    base = base or tool_set("designed")
    extra = distractors(order)
    if not len(base) <= size <= len(base) + len(extra):
        raise ValueError(f"size must be between {len(base)} and {len(base) + len(extra)}, not {size}")
    tools = list(base.with_tools(extra[: size - len(base)]))
    if shuffle is not None:
        random.Random(shuffle).shuffle(tools)
    return ToolSet(f"{base.name}+{size - len(base)}", tuple(tools))


def definition_tokens(tools: ToolSet | Sequence[Tool]) -> int:
    """Tokens of the definitions sent with every request: an estimate (characters / 4)."""
    return estimate_tokens([t.definition() for t in tools])


@dataclass(frozen=True)
class Point:
    """One size of the catalog: tools, tokens (estimate) and accuracy per picker (a share, 0 to 1)."""

    tools: int
    tokens: int
    accuracy: dict[str, float]


def right_share(
    picker: Picker, tools: ToolSet | Sequence[Tool], cases: Sequence[Case] = SCALE_CASES
) -> float:
    """Share of cases judged right: the right first tool, or no call where none fits."""
    result = run_selection(picker, tools, cases)
    return (result.right + result.declined[0]) / len(cases)


def measure(
    sizes: Sequence[int] = SIZES,
    pickers: Sequence[str] = ("words", "bm25"),
    cases: Sequence[Case] = SCALE_CASES,
    order: str = "neighbours first",
    shuffles: int = SHUFFLES,
) -> list[Point]:
    """Tokens and accuracy at each size for each offline picker, averaged over seeded shuffles."""
    base = tool_set("designed")
    chosen: dict[str, Picker] = {p: offline_picker(p) for p in pickers}
    points = []
    for size in sizes:
        sets = [catalog(size, base, order, SEED + n) for n in range(shuffles)]
        accuracy = {
            name: round(sum(right_share(picker, s, cases) for s in sets) / shuffles, 4)
            for name, picker in chosen.items()
        }
        points.append(Point(size, definition_tokens(sets[0]), accuracy))
    return points


def table(points: Sequence[Point]) -> list[dict]:
    return [
        {
            "tools": p.tools,
            "tokens (estimate)": p.tokens,
            **{f"{name} accuracy": f"{share:.0%}" for name, share in p.accuracy.items()},
        }
        for p in points
    ]


def _report() -> None:
    print(
        f"Designed SAP set grown with distractors; {len(SCALE_CASES)} requests; offline pickers (stand-ins, "
        f"not models), mean of {SHUFFLES} seeded orderings; tokens are estimates ({ESTIMATE_RULE})"
    )
    for order in ORDERS:
        print(f"\n{order}:\n{'tools':>5} {'tokens':>7} {'words':>6} {'bm25':>6}")
        for p in measure(order=order):
            print(f"{p.tools:>5} {p.tokens:>7} {p.accuracy['words']:>6.0%} {p.accuracy['bm25']:>6.0%}")
    low, high = REPORTED["tokens_for_50_tools"]
    a, b = REPORTED["accuracy_degrades_past"]
    print(
        f"\nReported, not measured here: 50 tools take {low:,} to {high:,} tokens; selection degrades past "
        f"{a} to {b} tools; a soft limit of {REPORTED['soft_limit']} tools."
    )


def main(argv: Sequence[str] | None = None, prog: str = "python -m tooldesign.scale.growth") -> int:
    """``tooldesign scale growth`` and its ``python -m`` spelling; bad input ends in one line."""
    from tooldesign.command_line import run_report

    return run_report(
        _report, argv, prog=prog, description="Tokens and accuracy as the tool set grows (lesson 13)."
    )


if __name__ == "__main__":
    raise SystemExit(main())
