"""The boundary clause: two tools, a set of ambiguous requests, and what the descriptions decide.

``search_customers`` returns customer profiles; ``search_orders`` returns orders with their items and
delivery state. A request such as "pull up everything on Nordhafen" fits both, and the choice is
made on the descriptions alone. A boundary clause is the sentence that settles it: it names the
requests this tool does not serve and the tool that serves them ("Not for ... (use search_orders).").

The offline pickers drop any sentence that names another tool, because a word matcher cannot read
"not" and would count the neighbour's words as its own. So a clause is invisible to them as they
stand. ``read_boundaries`` shows what a reader who follows the redirect does with it: the words of
"Not for X (use B)" count for B. Both readings are measured, side by side.

Run ``python -m tooldesign.dispatch.boundary`` to print the table.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from tooldesign.data import sap
from tooldesign.selection import Picker, offline_picker
from tooldesign.tools.base import NotJSON, Tool, ToolSet, echo, json_plain

CUSTOMERS, ORDERS = "search_customers", "search_orders"
READ_ONLY = dict(readOnlyHint=True, openWorldHint=False)

# Documentation for a colleague: says what each tool does, and nothing about the ground they share.
PLAIN = {
    CUSTOMERS: ("Searches the customer master by name or customer number. Returns the matching customers "
                "with address, country, credit limit and open items. Use it to look up a customer."),
    ORDERS: ("Searches sales orders by customer or by order number. Returns each order with its line items, "
             "net value and delivery state. Use it to look up orders."),
}
# The same, each with a boundary clause naming the disputed requests and the tool that serves them.
CLAUSES = {
    CUSTOMERS: ("Not for what a customer ordered, bought or received, its items and deliveries, or anything "
                "on hold or stuck (use search_orders)."),
    ORDERS: ("Not for a customer as a whole: everything on or about a customer, the account, or who is behind "
             "a name or number (use search_customers)."),
}


def with_clauses(plain: Mapping[str, str] = PLAIN, clauses: Mapping[str, str] = CLAUSES) -> dict[str, str]:
    return {name: f"{text} {clauses.get(name, '')}".strip() for name, text in plain.items()}


@dataclass(frozen=True)
class Request:
    text: str
    expected: str
    why: str


# The course's rule, which the clauses state: the customer as a party goes to search_customers; what the
# customer ordered, received or is waiting for goes to search_orders.
REQUESTS: tuple[Request, ...] = (
    Request("Pull up everything on Nordhafen.", CUSTOMERS, "the customer as a whole"),
    Request("Tell me about Donau Retail.", CUSTOMERS, "the customer as a whole"),
    Request("Show me the account of Lac Leman Instruments.", CUSTOMERS, "the account"),
    Request("Who is behind 10051?", CUSTOMERS, "who the customer is"),
    Request("Give me the full picture on 10023.", CUSTOMERS, "the customer as a whole"),
    Request("Look up 4711.", ORDERS, "a four-digit order number"),
    Request("Anything stuck for Lac Leman Instruments?", ORDERS, "orders on hold"),
    Request("Where is the stuff Nordhafen bought?", ORDERS, "what was bought, and its delivery"),
    Request("What did Donau Retail receive from us?", ORDERS, "what was delivered"),
    Request("Is anything for Nordhafen on hold?", ORDERS, "orders on hold"),
)


# ---------- the two tools over the SAP data ----------

def _text(arguments: Any, name: str) -> str:
    """The one text field these tools read, as plain text; anything else reads as "" and finds nothing."""
    try:
        value = json_plain(arguments).get(name, "") if isinstance(arguments, Mapping) else ""
    except NotJSON:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)  # a number sent for a number-like field still names it
    return value.strip() if isinstance(value, str) else ""


def _find_customers(arguments: Mapping[str, Any]) -> dict:
    wanted = _text(arguments, "customer").lower()
    frame = sap.customers()
    hits = frame[(frame["customer"] == wanted) | frame["name"].str.lower().str.contains(wanted, regex=False)]
    if not wanted or hits.empty:
        return {"error": f"No customer matches {echo(wanted)}. Give part of the name or the number, for example "
                         "'Nordhafen' or '10023'."}
    return {"customers": [{k: r[k] for k in ("customer", "name", "city", "country", "credit_limit", "open_items")}
                          for _, r in hits.iterrows()]}


def _find_orders(arguments: Mapping[str, Any]) -> dict:
    wanted = _text(arguments, "customer_or_order")
    headers, items, customers = sap.orders(), sap.items(), sap.customers()
    names = customers[customers["name"].str.lower().str.contains(wanted.lower(), regex=False)]["customer"].tolist()
    chosen = headers[(headers["SalesOrder"] == wanted) | (headers["SoldToParty"] == wanted)
                     | headers["SoldToParty"].isin(names if wanted else [])]
    if chosen.empty:
        return {"error": f"No order matches {echo(wanted)}. Give an order number such as '4711', a customer number "
                         "or part of a customer's name."}
    reasons = sap.block_reasons()
    return {"orders": [{
        "sales_order": h["SalesOrder"], "customer": h["SoldToParty"], "net_value": float(h["TotalNetAmount"]),
        "delivery_state": sap.block_text(h, reasons) or "free to deliver",
        "items": items[items["SalesOrder"] == h["SalesOrder"]]["SalesOrderItemText"].tolist()}
        for _, h in chosen.iterrows()]}


def tools(descriptions: Mapping[str, str] = PLAIN) -> ToolSet:
    """The two tools with the given descriptions; schemas and handlers stay the same."""
    customer = {"type": "string", "description": "Part of the customer's name or the customer number, "
                                                 "for example 'Nordhafen' or '10023'."}
    order = {"type": "string", "description": "An order number such as '4711', a customer number or part of "
                                              "a customer's name."}
    return ToolSet("boundary", (
        Tool(CUSTOMERS, descriptions[CUSTOMERS], {"type": "object", "additionalProperties": False,
             "required": ["customer"], "properties": {"customer": customer}}, _find_customers, READ_ONLY),
        Tool(ORDERS, descriptions[ORDERS], {"type": "object", "additionalProperties": False,
             "required": ["customer_or_order"], "properties": {"customer_or_order": order}}, _find_orders,
             READ_ONLY),
    ))


# ---------- reading a clause as a redirect ----------

_REDIRECT = re.compile(r"\b(not for|do not use|don't use|instead)\b", re.IGNORECASE)


def read_boundaries(toolset: Sequence[Tool]) -> ToolSet:
    """The definitions as a reader who follows redirects uses them.

    Every sentence of tool A that names tool B and says "not for" / "instead" is moved to B, with
    the tool names taken out: the requests it lists are B's. Nothing else changes.
    """
    names = [t.name for t in toolset]
    extra: dict[str, list[str]] = {n: [] for n in names}
    kept: dict[str, list[str]] = {n: [] for n in names}
    for tool in toolset:
        for sentence in re.split(r"(?<=[.!?])\s+", tool.description.strip()):
            targets = [n for n in names if n != tool.name and n in sentence]
            if targets and _REDIRECT.search(sentence):
                plain = sentence
                for n in names:
                    plain = plain.replace(n, "")
                plain = re.sub(r"\(\s*(use)?\s*\)", "", _REDIRECT.sub("", plain))
                for target in targets:
                    extra[target].append(plain.strip())
            else:
                kept[tool.name].append(sentence)
    return ToolSet(getattr(toolset, "name", "tools"), tuple(
        Tool(t.name, " ".join(kept[t.name] + extra[t.name]), t.parameters, t.handler, t.annotations)
        for t in toolset))


# ---------- the measurement ----------

@dataclass(frozen=True)
class Decision:
    request: str
    expected: str
    chosen: str | None

    @property
    def right(self) -> bool:
        return self.chosen == self.expected


def decide(descriptions: Mapping[str, str], picker: Picker | str = "words", redirects: bool = True,
           requests: Sequence[Request] = REQUESTS) -> list[Decision]:
    """Each request's first tool under ``descriptions``; ``redirects`` reads clauses as redirects."""
    chooser = offline_picker(picker) if isinstance(picker, str) else picker
    offered = tools(descriptions)
    if redirects:
        offered = read_boundaries(offered)
    return [Decision(r.text, r.expected, chooser.pick(r.text, offered).tool) for r in requests]


def score(descriptions: Mapping[str, str], picker: Picker | str = "words", redirects: bool = True,
          requests: Sequence[Request] = REQUESTS) -> int:
    return sum(d.right for d in decide(descriptions, picker, redirects, requests))


VARIANTS = {"without clauses": PLAIN, "with clauses": with_clauses()}


def try_clause(tool: str, clause: str, target: str, base: Mapping[str, str] | None = None,
               picker: Picker | str = "words") -> dict[str, Any]:
    """Replace ``tool``'s boundary clause with ``clause``: is ``target`` fixed, and what broke?

    "Broke" lists requests that were right with the course's clauses and are wrong with yours.
    """
    base = dict(base or with_clauses())
    before = {d.request: d.right for d in decide(base, picker)}
    trial = dict(base)
    trial[tool] = f"{PLAIN[tool]} {clause}".strip()
    after = decide(trial, picker)
    return {"fixed": any(d.request == target and d.right for d in after),
            "broke": [d.request for d in after if before[d.request] and not d.right],
            "right": sum(d.right for d in after), "of": len(after)}


def table(pickers: Sequence[str] = ("words",)) -> list[dict]:
    """One row per request: the expected tool and the choice under each variant and picker."""
    columns = {f"{variant}, {p}": decide(descriptions, p)
               for variant, descriptions in VARIANTS.items() for p in pickers}
    rows = []
    for n, request in enumerate(REQUESTS):
        row: dict[str, Any] = {"request": request.text, "expected": request.expected}
        for label, decisions in columns.items():
            chosen = decisions[n].chosen
            row[label] = (chosen or "(no call)") + ("" if decisions[n].right else "  x")
        rows.append(row)
    return rows


def scores(pickers: Sequence[str] = ("words", "bm25")) -> list[dict]:
    """Right first tools per variant, picker and reading: the clause is invisible without redirects."""
    return [{"descriptions": variant, "picker": p, "reading": "clauses as redirects" if redirects else "as is",
             "right": score(descriptions, p, redirects), "of": len(REQUESTS)}
            for variant, descriptions in VARIANTS.items() for p in pickers for redirects in (False, True)]


def main() -> None:
    print("Ambiguous requests, two tools; offline pickers (stand-ins, not models)")
    for row in scores():
        print(f"  {row['descriptions']:<16} {row['picker']:<6} {row['reading']:<21} {row['right']}/{row['of']}")


if __name__ == "__main__":
    from tooldesign.cli import takes_no_arguments
    takes_no_arguments("tooldesign.dispatch.boundary")
    main()
