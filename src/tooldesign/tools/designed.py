"""The designed tool set: five tools named for the jobs an order-to-cash clerk asks about.

Same SAP data as the mirror set, shaped for a reader that cannot ask questions:

* names follow object_verb_detail, so related tools share a prefix and differ by their job;
* each description is three or four short sentences: what the tool does, what it returns (naming
  the fields), when to use it, and the boundary clause naming the neighbouring tool;
* schemas are strict-ready: closed objects, every field required, null for "not given", enums
  for closed choices and the expected format inside each parameter description;
* each value's rule (a pattern for numbers, bounds for limits) sits in the schema once: one
  validator enforces it at dispatch and again in each handler, and its error states that rule;
* results carry names and texts instead of codes, stay small and keep stable identifiers;
* errors say what was wrong, what is expected, give an example and name the tool to use
  instead, and never reveal whether an order exists to someone who may not see it;
* nothing is ever changed: ``release_request_create`` drafts a request for a person to approve
  and returns the same draft when called again.

No handler raises on any JSON arguments; a property-based test feeds them arbitrary values.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tooldesign.data import sap
from tooldesign.tools.base import NotJSON, Tool, ToolSet, clip, echo, json_plain
from tooldesign.tools.mirror import SapRecords, load_sap
from tooldesign.tools.schema import argument_errors, rule_words

__all__ = [
    "build_designed_set",
    "DraftStore",
    "READ_ONLY",
    "DRAFTS_ONLY",
    "DESIGNED_NAMES",
    "EXAMPLES",
    "APPROVERS",
    "digits_error",
    "not_visible_error",
    "approver_for",
    "MIN_JUSTIFICATION_WORDS",
    "SEARCH_DEFAULT_LIMIT",
    "SEARCH_MAX_LIMIT",
    "ID_RULE",
    "CONSTRAINTS",
    "MAX_JUSTIFICATION_CHARS",
    "DESCRIPTIONS",
    "KEYWORD_STUFFED_DESCRIPTIONS",
]

DESIGNED_NAMES = (
    "sales_order_get_block_summary",
    "customer_get_credit_exposure",
    "customer_get_address_gaps",
    "sales_order_search",
    "release_request_create",
)

# MCP's behaviour hints, declared explicitly because a missing hint means "may write".
READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
DRAFTS_ONLY = {
    "readOnlyHint": False,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}

APPROVERS = ("none", "CREDIT_MANAGER", "HEAD_OF_FINANCE")
APPROVAL_RULE = "none within the limit, CREDIT_MANAGER up to 5% over, HEAD_OF_FINANCE beyond"
SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT = 5, 20
MIN_JUSTIFICATION_WORDS = 8
ADDRESS_FIELDS = ("street", "postal_code", "city", "country")

# One valid call per tool: errors quote it, so the model sees a shape that works.
EXAMPLES: dict[str, dict[str, Any]] = {
    "sales_order_get_block_summary": {"sales_order": "4711", "detail": "concise"},
    "customer_get_credit_exposure": {"customer": "10023", "sales_order": "4711"},
    "customer_get_address_gaps": {"customer": "10051"},
    "sales_order_search": {"customer": "10023", "blocked_only": True, "limit": None},
    "release_request_create": {
        "sales_order": "4711",
        "justification": (
            "Exposure 52,500 EUR is 5% over the 50,000 EUR limit; the customer has paid on time for years."
        ),
    },
}


# ---------- errors a model can act on ----------


def _shown(value: Any) -> str:
    """The value the model sent, quoted and cut short (the course's one echo rule), so the error shows what went wrong."""
    return echo(value)


def digits_error(field_name: str, value: Any, example: str) -> dict:
    """The one message every tool gives for a malformed number: the rule the schema enforces, an example, the fix."""
    return {
        "error": f"{field_name} takes {rule_words(ID_RULE)}, like '{example}'; "
        f"you sent {_shown(value)}. Strip any prefix such as 'SO-' and any spaces, then call again."
    }


def not_visible_error(kind: str, number: str, hint: str) -> dict:
    """Same words whether the record is missing or hidden from this user: nothing leaks."""
    return {"error": f"{kind} {number} does not exist or you may not see it. {hint}"}


def approver_for(exposure_cents: int, limit_cents: int) -> str:
    """The approval rule, decided in code so it holds every time (whole cents: no rounding doubt)."""
    if exposure_cents <= limit_cents:
        return "none"
    if exposure_cents * 100 <= limit_cents * 105:
        return "CREDIT_MANAGER"
    return "HEAD_OF_FINANCE"


def _cents(amount: Any) -> int:
    return round(float(amount) * 100)


# ---------- the rules a value must meet, stated once ----------

# Order and customer numbers: digits, at most ten (SAP keeps both in ten-character fields). The schema
# carries the pattern, the validator enforces it, and every error reads its words from it (rule_words).
ID_RULE = {"type": "string", "pattern": "^[0-9]{1,10}$"}
# Justifications are kept in the draft and shown to an approver: enough words to decide on, and a bound,
# because a draft store must not keep whatever size it is sent. (OpenAI lists no length keywords among the
# string keywords strict mode supports, so this rule lives in the handler, whose error states it.)
MAX_JUSTIFICATION_CHARS = 1000
_HINTS = {
    "sales_order": "Strip any prefix such as 'SO-' and any spaces, like '4711', then call again.",
    "customer": "Strip any prefix and any spaces, like '10023', then call again.",
    "detail": "Use 'concise' unless you need more.",
    "blocked_only": "Use false to list every order.",
    "limit": f"null means {SEARCH_DEFAULT_LIMIT}. Example: 10.",
}


def _schema_error(tool: str, args: Any) -> str | None:
    """The first way ``args`` break the tool's schema, as an actionable sentence, or None when they fit.

    The handlers below rely on this: what passes here has exactly the tool's fields, each of the
    right type and shape, so a handler never second-guesses a value the schema already settled.
    """
    schema = PARAMETERS[tool]
    names = tuple(schema["properties"])
    example = json.dumps(EXAMPLES.get(tool, {}))
    if not isinstance(args, dict):
        return (
            f"{tool} takes a JSON object with the fields {', '.join(names)}; you sent {_shown(args)}. "
            f"Example: {example}"
        )
    unknown = sorted(str(k) for k in args if k not in names)
    if unknown:
        return (
            f"{tool} has no field {clip(', '.join(unknown))}. Its fields are {', '.join(names)}. "
            f"Example: {example}"
        )
    missing = [n for n in names if n not in args]
    if missing:
        return (
            f"{tool} needs every field, and {', '.join(missing)} is missing; pass null where the "
            f"description allows 'not given'. Example: {example}"
        )
    for error in argument_errors(schema, args):
        name = str(error.absolute_path[0]) if error.absolute_path else ""
        spec = schema["properties"].get(name, {})
        if spec.get("pattern") == ID_RULE["pattern"]:
            return digits_error(name, args[name], str(EXAMPLES[tool].get(name) or "4711"))["error"]
        return f"{name} must be {rule_words(spec)}; you sent {_shown(args.get(name))}. {_HINTS.get(name, '')}".strip()
    return None


# ---------- the draft store: where release requests wait for a person ----------


@dataclass
class DraftStore:
    """Release requests waiting for a person. Nothing here ever reaches SAP.

    One draft per order: asking again returns the draft already made, which is what makes
    ``release_request_create`` idempotent.
    """

    drafts: dict[str, dict] = field(default_factory=dict)

    def get_or_create(self, sales_order: str, justification: str) -> tuple[dict, bool]:
        """The draft for ``sales_order`` and whether this call created it."""
        if sales_order in self.drafts:
            return dict(self.drafts[sales_order]), False
        draft = {
            "request_id": f"RR-{sales_order}",
            "sales_order": sales_order,
            "status": "waiting_for_approval",
            "justification": justification,
        }
        self.drafts[sales_order] = draft
        return dict(draft), True

    def pending(self) -> list[dict]:
        return [dict(d) for d in self.drafts.values() if d["status"] == "waiting_for_approval"]


# ---------- the handlers ----------


@dataclass(frozen=True)
class _Context:
    data: SapRecords
    drafts: DraftStore
    may_see: Callable[[str], bool]

    def order(self, number: str) -> dict[str, str] | None:
        """An order the current user may see, or None (missing and hidden look the same)."""
        header = self.data.orders.get(number)
        return header if header is not None and self.may_see(header["SoldToParty"]) else None

    def customer(self, number: str) -> dict[str, Any] | None:
        record = self.data.customers.get(number)
        return record if record is not None and self.may_see(number) else None

    def block_reason(self, header: dict[str, str]) -> str:
        return sap.block_text(header, self.data.block_texts)


_ORDER_HINT = "Ask the user to confirm the number; to list a customer's orders, call sales_order_search."
_CUSTOMER_HINT = "Take the customer number from sales_order_get_block_summary, or check it with the user."


def _block_summary(ctx: _Context, args: Any) -> dict:
    number, detail = args["sales_order"], args["detail"]
    header = ctx.order(number)
    if header is None:
        return not_visible_error("Sales order", number, _ORDER_HINT)
    customer = ctx.data.customers.get(header["SoldToParty"], {})
    result = {
        "sales_order": number,
        "customer": header["SoldToParty"],
        "customer_name": customer.get("name", ""),
        "net_value": float(header["TotalNetAmount"]),
        "currency": header["TransactionCurrency"],
        "blocked": sap.is_blocked(header),
        "block_reason": ctx.block_reason(header),
    }
    if detail == "detailed":
        result.update(
            {
                "created_on": header["CreationDate"],
                "requested_delivery_date": header["RequestedDeliveryDate"],
                "customer_po": header["PurchaseOrderByCustomer"],
                "sales_organization": header["SalesOrganization"],
                "items": [
                    {
                        "item": i["SalesOrderItem"],
                        "material": i["Material"],
                        "text": i["SalesOrderItemText"],
                        "quantity": int(i["RequestedQuantity"]),
                        "net_value": float(i["NetAmount"]),
                    }
                    for i in ctx.data.items.get(number, ())
                ],
            }
        )
    return result


def _credit_exposure(ctx: _Context, args: Any) -> dict:
    number, order_number = args["customer"], args["sales_order"]
    customer = ctx.customer(number)
    if customer is None:
        return not_visible_error("Customer", number, _CUSTOMER_HINT)
    order_cents = 0
    if order_number is not None:
        header = ctx.order(order_number)
        if header is None:
            return not_visible_error(
                "Sales order", order_number, "Pass null as sales_order to check the customer alone."
            )
        if header["SoldToParty"] != number:
            return {
                "error": f"Sales order {order_number} belongs to customer {header['SoldToParty']}, not "
                f"{number}. Call again with customer '{header['SoldToParty']}', or pass null as "
                "sales_order to check this customer alone."
            }
        order_cents = _cents(header["TotalNetAmount"])
    limit_cents, open_cents = _cents(customer["credit_limit"]), _cents(customer["open_items"])
    exposure_cents = open_cents + order_cents
    over = (exposure_cents - limit_cents) / limit_cents * 100 if limit_cents else 0.0
    return {
        "customer": number,
        "customer_name": customer["name"],
        "credit_limit": limit_cents / 100,
        "open_items": open_cents / 100,
        "order_value": order_cents / 100,
        "exposure": exposure_cents / 100,
        "percent_over_limit": max(round(over, 1), 0.0),
        "approver": approver_for(exposure_cents, limit_cents),
        "currency": "EUR",
    }


def _address_gaps(ctx: _Context, args: Any) -> dict:
    number = args["customer"]
    customer = ctx.customer(number)
    if customer is None:
        return not_visible_error("Customer", number, _CUSTOMER_HINT)
    missing = [f for f in ADDRESS_FIELDS if not str(customer.get(f, "")).strip()]
    return {
        "customer": number,
        "customer_name": customer["name"],
        "missing_fields": missing,
        "complete": not missing,
    }


def _search(ctx: _Context, args: Any) -> dict:
    number, blocked_only = args["customer"], args["blocked_only"]
    limit = SEARCH_DEFAULT_LIMIT if args["limit"] is None else args["limit"]
    if ctx.customer(number) is None:
        return not_visible_error("Customer", number, _CUSTOMER_HINT)
    rows = [
        h
        for h in ctx.data.orders.values()
        if h["SoldToParty"] == number and (sap.is_blocked(h) or not blocked_only)
    ]
    rows.sort(key=lambda h: (h["CreationDate"], h["SalesOrder"]), reverse=True)  # newest first
    shown = [
        {
            "sales_order": h["SalesOrder"],
            "net_value": float(h["TotalNetAmount"]),
            "blocked": sap.is_blocked(h),
            "block_reason": ctx.block_reason(h),
        }
        for h in rows[:limit]
    ]
    result: dict[str, Any] = {"customer": number, "total": len(rows), "showing": len(shown), "orders": shown}
    if len(rows) > len(shown):
        result["note"] = (
            f"{len(rows) - len(shown)} older orders are not shown. Set blocked_only to true to "
            f"see only blocked ones, or raise limit (up to {SEARCH_MAX_LIMIT})."
        )
    return result


def _release_request(ctx: _Context, args: Any) -> dict:
    number, why = args["sales_order"], args["justification"]
    header = ctx.order(number)
    if header is None:
        return not_visible_error("Sales order", number, _ORDER_HINT)
    if not sap.is_blocked(header):
        return {
            "error": f"Sales order {number} is not blocked, so there is nothing to release. Check an "
            "order's block with sales_order_get_block_summary before drafting a release."
        }
    if len(why) > MAX_JUSTIFICATION_CHARS:
        return {
            "error": f"justification is {len(why):,} characters; an approver reads at most "
            f"{MAX_JUSTIFICATION_CHARS:,}. Keep the facts (exposure, limit, why a release is "
            "justified) and call again."
        }
    if len(why.split()) < MIN_JUSTIFICATION_WORDS:
        return {
            "error": f"justification is too thin for an approver to decide on: write at least "
            f"{MIN_JUSTIFICATION_WORDS} words with the facts, for example the exposure and limit "
            "from customer_get_credit_exposure. Example: "
            + json.dumps(EXAMPLES["release_request_create"]["justification"])
        }
    draft, created = ctx.drafts.get_or_create(number, " ".join(why.split()))
    draft["message"] = (
        "Draft created. A person approves or rejects it; nothing has been released."
        if created
        else "A draft for this order already exists and is returned unchanged; nothing has been released."
    )
    return draft


def _without_leading_zeros(args: dict) -> dict:
    """Numbers as SAP keys them: "0000004711" is order 4711 (SAP pads to ten digits), not a missing one."""
    return {
        k: (v.lstrip("0") or "0") if k in ("sales_order", "customer") and isinstance(v, str) else v
        for k, v in args.items()
    }


def _guarded(ctx: _Context, name: str, body: Callable[[_Context, Any], dict]) -> Callable[[Any], dict]:
    """Validate against the tool's own schema, then run: the model reads the error and tries again."""

    def handler(args: Any) -> dict:
        try:
            args = json_plain(args)  # called directly, a handler may be handed tuples, NaN or worse
        except NotJSON as error:
            return {
                "error": f"{name} takes JSON values only, and {error}. "
                f"Example: {json.dumps(EXAMPLES.get(name, {}))}"
            }
        problem = _schema_error(name, args)
        if problem is not None:
            return {"error": problem}
        return body(ctx, _without_leading_zeros(args))

    return handler


# ---------- the definitions the model reads ----------


def _schema(properties: dict[str, dict]) -> dict:
    """A strict-ready object: closed, and every field required (null stands for "not given")."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


ORDER_NUMBER = {"type": "string", "description": "Sales order number, digits only, for example '4711'."}
CUSTOMER_NUMBER = {"type": "string", "description": "Customer number, digits only, for example '10023'."}

# One rule for every description (notebook 04; the linter checks it): three or four short sentences in
# this order: what it does and to which object; what it returns, naming the fields; when to use it; the
# boundary clause naming the neighbour. Plain business words, no synonym lists: written for a reader.
DESCRIPTIONS = {
    "sales_order_get_block_summary": (
        "Explains why one sales order is blocked or not delivered. Returns whether it is blocked, the "
        "block reason as text, net value and customer; 'detailed' adds dates, the PO number and items. "
        "Use it when the user names an order and asks what is holding it up. Not for a customer's list "
        "of orders (use sales_order_search) or for releasing an order (use release_request_create)."
    ),
    "customer_get_credit_exposure": (
        "Compares one customer's open items plus an order's value with its credit limit. "
        "Returns the credit limit, open items, order value, exposure, percent over the limit and the "
        "approver a release needs. Use it when the user asks whether a customer is "
        "over its limit or who must approve a release. Not for why an order is blocked (use "
        "sales_order_get_block_summary)."
    ),
    "customer_get_address_gaps": (
        "Lists the address fields missing from one customer's master data. Returns which of street, "
        "postal code, city and country are missing, and whether the address is complete. Use it when "
        "an order is held for incomplete master data or the user asks to check an address. Not for why "
        "an order is blocked (use sales_order_get_block_summary)."
    ),
    "sales_order_search": (
        f"Lists one customer's sales orders, newest first, optionally only the blocked ones. Returns the "
        f"total, how many are shown, each order's number, net value and block reason, and a note when the "
        f"list is cut ({SEARCH_DEFAULT_LIMIT} by default, up to {SEARCH_MAX_LIMIT}). Use it when the user "
        "asks which or how many orders a customer has. Not for one order the user named (use "
        "sales_order_get_block_summary)."
    ),
    "release_request_create": (
        "Drafts a request to release one blocked sales order; a person approves or rejects it, and "
        "nothing changes in SAP. Returns the request id, status and justification; asking again returns "
        "the same draft. Use it when the user wants a blocked order released and the reason for the "
        "block is settled. Not for explaining why an order is blocked (use "
        "sales_order_get_block_summary)."
    ),
}

# The course's own history, kept as a warning: the wording the descriptions had after batch after batch of
# revisions against the offline word matcher and BM25. Synonym lists raise a stand-in's score; nothing
# shows a model's rises with them. Notebook 06 alone uses it (tool_set("designed-keyword-stuffed")), to
# show what tuning to an instrument does; the linter flags every one of them (desc-long,
# desc-alternatives).
KEYWORD_STUFFED_DESCRIPTIONS = {
    "sales_order_get_block_summary": (
        "Explains why one sales order shows as blocked, on hold, flagged, stuck or sitting and not yet delivered or "
        "shipped: a delivery or billing block, a pricing or price dispute, missing data or another reason. "
        "Returns the status, net value and reason for the hold as text; 'detailed' adds dates, PO number "
        "and items. Use it first when the user names one order and asks you to look at it or find out why "
        "it is held, what the block, hold-up, problem or issue is, what is wrong or holding it, for a status check or "
        "what is going on. Not for a "
        "customer's order list (use sales_order_search), credit figures (use customer_get_credit_exposure) or "
        "releasing it (use release_request_create). Read-only."
    ),
    "customer_get_credit_exposure": (
        "Checks a customer's credit situation: the credit limit (credit line), total open items and receivables "
        "(AR, the outstanding or unpaid balance), exposure, how much credit is used (utilisation) or left "
        "(headroom), and whose approval or sign-off you need. Exposure "
        f"is open items plus the order's net value; the approver is decided in code: {APPROVAL_RULE}. "
        "Returns these figures, percent over the limit and the approver. Use it when the user asks about "
        "a credit limit, whether a customer is within, over, past or beyond it, good for another order or "
        "tapped out, or who signs off. Not for "
        "an order's block reason (use sales_order_get_block_summary). Read-only."
    ),
    "customer_get_address_gaps": (
        "Lists the address fields missing from a customer's master data record, ship-to or bill-to: street, "
        "postal code (postcode, zip), city or country. Returns the missing fields and whether the address is "
        "complete. Use it when a clerk asks what is missing in an address, wants an address check, asks whether "
        "an address or customer master is complete or on file, what to fill in, or when an order is incomplete "
        "for missing master data. Not "
        "for the order's block reason (use sales_order_get_block_summary). Read-only."
    ),
    "sales_order_search": (
        "Finds and lists one customer's sales orders, latest or most recent first: the last few, all of them, "
        "the open or blocked ones, a backlog, pipeline or order history. Returns the total, how many are shown, "
        "each one's number, value and block reason, and a note if the list is cut. Use it to find which, how "
        "many or what other orders a customer has open or on hold, what else is open, or everything they have got on "
        "order before a visit. Not for one order already named (use "
        "sales_order_get_block_summary). Gives 5 unless limit says more, up to 20; read-only."
    ),
    "release_request_create": (
        "Drafts a request to release or unblock one sales order so it can ship or be delivered; shipping "
        "waits until a person approves it, and this tool releases nothing. Returns the request id, status "
        "and justification; a repeat gives the same draft. Use it only when the user wants to release, "
        "unblock, free up, push through or let an order go, take it off hold, or to lift, clear, "
        "remove or override its block, whatever the customer promised or paid, once a dispute is "
        "resolved or finance agreed. Not for explaining "
        "a block (use sales_order_get_block_summary). Refuses unblocked orders and thin justifications."
    ),
}


PARAMETERS = {
    "sales_order_get_block_summary": _schema(
        {
            "sales_order": ORDER_NUMBER,
            "detail": {
                "enum": ["concise", "detailed"],
                "type": "string",
                "description": "'concise' unless you need dates, PO number or items.",
            },
        }
    ),
    "customer_get_credit_exposure": _schema(
        {
            "customer": CUSTOMER_NUMBER,
            "sales_order": {
                "type": ["string", "null"],
                "description": "Order number, digits only, to include its value; null for none.",
            },
        }
    ),
    "customer_get_address_gaps": _schema({"customer": CUSTOMER_NUMBER}),
    "sales_order_search": _schema(
        {
            "customer": CUSTOMER_NUMBER,
            "blocked_only": {"type": "boolean", "description": "true for blocked orders only."},
            "limit": {
                "type": ["integer", "null"],
                "description": "Most orders to return, 1 to 20; null means 5.",
            },
        }
    ),
    "release_request_create": _schema(
        {
            "sales_order": ORDER_NUMBER,
            "justification": {
                "type": "string",
                "description": "At least 8 words of facts for the approver, e.g. exposure and limit.",
            },
        }
    ),
}

# The constraints each field's value must meet, inside OpenAI's strict-mode subset (pattern, minimum,
# maximum, integer): the validator enforces them at dispatch and in every handler.
CONSTRAINTS: dict[str, dict[str, Any]] = {
    "sales_order": {"pattern": ID_RULE["pattern"]},
    "customer": {"pattern": ID_RULE["pattern"]},
    "limit": {"minimum": 1, "maximum": SEARCH_MAX_LIMIT},
}
for _schema_of_tool in PARAMETERS.values():
    _schema_of_tool["properties"] = {
        field: {**spec, **CONSTRAINTS.get(field, {})} for field, spec in _schema_of_tool["properties"].items()
    }

_BODIES = {
    "sales_order_get_block_summary": _block_summary,
    "customer_get_credit_exposure": _credit_exposure,
    "customer_get_address_gaps": _address_gaps,
    "sales_order_search": _search,
    "release_request_create": _release_request,
}


def _everyone(customer: str) -> bool:
    return True


def build_designed_set(
    data: SapRecords | None = None,
    drafts: DraftStore | None = None,
    may_see: Callable[[str], bool] | None = None,
    descriptions: dict[str, str] | None = None,
    name: str = "designed",
) -> ToolSet:
    """The five designed tools over ``data`` (the committed SAP tables by default).

    ``drafts`` holds release requests; pass your own store to inspect them, or leave it out for a
    fresh one, so two tool sets never share drafts by accident. ``may_see(customer_number)``
    says whether the current user may see a customer and its orders; errors for a hidden record
    read exactly like errors for a missing one. ``descriptions`` replaces the texts the model reads
    (notebook 06 passes the keyword-stuffed ones), everything else stays the same.
    """
    texts = descriptions or DESCRIPTIONS
    ctx = _Context(data or load_sap(), drafts if drafts is not None else DraftStore(), may_see or _everyone)
    tools = tuple(
        Tool(
            tool,
            texts[tool],
            PARAMETERS[tool],
            _guarded(ctx, tool, _BODIES[tool]),
            DRAFTS_ONLY if tool == "release_request_create" else READ_ONLY,
        )
        for tool in DESIGNED_NAMES
    )
    return ToolSet(name, tools)
