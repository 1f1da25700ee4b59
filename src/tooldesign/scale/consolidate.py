"""Consolidation: an action enum over one resource, against a catch-all that takes free text.

Two ways to shrink the designed set:

* **consolidated**: the two customer checks (credit exposure, address gaps) become one tool,
  ``customer_check_account``, with an ``action`` enum. The choice stays in the schema: an unknown action or
  a missing field is rejected before anything runs, and each action keeps its own rule.
* **catch-all**: one tool, ``sap_assistant_run``, takes a free-text ``instruction`` and routes it
  on keywords. The choice did not go away; it moved into a string no schema constrains.

``CATCH_ALL_RULE`` is a lint rule (``tooldesign.lint``'s ``Rule`` interface) that flags the second shape.
Run ``tooldesign scale consolidate`` (or ``python -m tooldesign.scale.consolidate``) to print the comparison.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tooldesign.dispatch.validate import is_valid
from tooldesign.lint import Rule, lint
from tooldesign.scale.growth import SCALE_CASES, SEED, SHUFFLES, definition_tokens
from tooldesign.selection import Case, expected_for, judge, offline_picker
from tooldesign.tokens import ESTIMATE_RULE
from tooldesign.tools import tool_set
from tooldesign.tools.base import Tool, ToolSet

# ---------- the lint rules ----------

# Parameter names that, as free text, carry the choice of operation.
CHOICE_WORDS = frozenset(
    {
        "instruction",
        "instructions",
        "command",
        "action",
        "operation",
        "op",
        "request",
        "task",
        "prompt",
        "query",
        "what",
        "method",
        "intent",
        "do",
    }
)
WRITE_VERBS = (
    "create",
    "release",
    "update",
    "delete",
    "change",
    "post",
    "approve",
    "set",
    "cancel",
    "submit",
)


def _catch_all(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    """A free-text parameter that says what to do: no per-operation schema can check the call."""
    props = tool.parameters.get("properties", {})
    out = []
    for name, spec in props.items():
        if not isinstance(spec, dict):
            continue
        kinds = spec.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        free = "string" in kinds and "enum" not in spec and "pattern" not in spec
        if free and name.lower() in CHOICE_WORDS:
            out.append(
                f"'{name}' is free text that chooses the operation: a catch-all. Split unrelated jobs into "
                "their own tools, or give one resource's operations an action enum"
            )
    return out


def _action_mixes_writes(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    """An action enum that mixes reads and writes hides a write behind a read-only looking tool."""
    props = tool.parameters.get("properties", {})
    for name, spec in props.items():
        values = [str(v) for v in spec.get("enum", [])] if isinstance(spec, dict) else []
        writes = [v for v in values if any(w in v.lower() for w in WRITE_VERBS)]
        if name.lower() in CHOICE_WORDS and writes and len(writes) < len(values):
            return [
                f"action values {', '.join(writes)} write and the others read: keep writes in their own tool "
                "with its own approval"
            ]
    return []


CATCH_ALL_RULE = Rule(
    "param-catch-all",
    "no free-text parameter that chooses the operation",
    "the choice moves into a string no schema checks",
    _catch_all,
)
MIXED_ACTION_RULE = Rule(
    "action-mixes-writes",
    "an action enum does not mix reads and writes",
    "a write needs its own tool, approval and audit line",
    _action_mixes_writes,
)
RULES = (CATCH_ALL_RULE, MIXED_ACTION_RULE)

# ---------- the consolidated tool ----------

CUSTOMER = {"description": "The customer's number in digits, for example '10023'.", "type": "string"}
CHECK_PARAMETERS = {
    "type": "object",
    "additionalProperties": False,
    "required": ["action", "customer", "sales_order"],
    "properties": {
        "action": {
            "type": "string",
            "enum": ["credit_exposure", "address_gaps"],
            "description": "'credit_exposure': exposure against the limit and who approves; "
            "'address_gaps': missing address fields.",
        },
        "customer": CUSTOMER,
        "sales_order": {
            "type": ["string", "null"],
            "description": "With credit_exposure: the order whose value "
            "to include, digits only, or null. With address_gaps: null.",
        },
    },
    # Each action keeps its own rule: address_gaps takes no order.
    "allOf": [
        {
            "if": {"properties": {"action": {"const": "address_gaps"}}},
            "then": {"properties": {"sales_order": {"type": "null"}}},
        }
    ],
}
CHECK_DESCRIPTION = (
    "Checks one customer's account, chosen by action: its credit exposure against the limit, or the address "
    "fields missing from its master data. Returns the credit figures and approver, or the missing fields, "
    "with the customer's name. Use it when the user asks about a customer's credit limit or address. Not for "
    "why an order is blocked (use sales_order_get_block_summary)."
)


def consolidated(base: ToolSet | None = None) -> ToolSet:
    """The designed set with the two customer checks merged under an action parameter: four tools."""
    base = base or tool_set("designed")
    exposure, gaps = base["customer_get_credit_exposure"], base["customer_get_address_gaps"]

    def handler(arguments: dict) -> Any:
        if arguments.get("action") == "address_gaps":
            return gaps.run({"customer": arguments.get("customer")})
        return exposure.run(
            {"customer": arguments.get("customer"), "sales_order": arguments.get("sales_order")}
        )

    check = Tool(
        "customer_check_account", CHECK_DESCRIPTION, CHECK_PARAMETERS, handler, dict(exposure.annotations)
    )
    kept = [t for t in base if t.name not in (exposure.name, gaps.name)]
    return ToolSet("consolidated", (kept[0], check, *kept[1:]))


RENAMED = {
    "customer_get_credit_exposure": "customer_check_account",
    "customer_get_address_gaps": "customer_check_account",
}

# ---------- the catch-all ----------

CATCH_ALL_DESCRIPTION = (
    "Does anything in the order-to-cash system: explains blocks, checks credit, finds address gaps, lists "
    "orders and drafts releases. Returns whatever the chosen operation returns. Use it for every SAP request. "
    "Write what you want done in the instruction, with the numbers."
)
# The router a catch-all ends up with: keywords in a fixed order, first hit wins.
ROUTES = (
    ("release_request_create", ("release", "unblock")),
    ("customer_get_credit_exposure", ("credit", "limit", "exposure", "approve")),
    ("customer_get_address_gaps", ("address", "postal")),
    ("sales_order_search", ("orders", "list", "how many")),
    ("sales_order_get_block_summary", ("order",)),
)


def route(instruction: str) -> str | None:
    """The operation a keyword router sends an instruction to; None when no keyword matches."""
    text = instruction.lower()
    for name, keys in ROUTES:
        if any(k in text for k in keys):
            return name
    return None


def catch_all(base: ToolSet | None = None) -> ToolSet:
    base = base or tool_set("designed")

    def handler(arguments: dict) -> Any:
        target = route(str(arguments.get("instruction", "")))
        if target is None:
            return {"error": "Could not tell which operation you want."}
        return {"routed_to": target}  # the arguments would have to be dug out of the text as well

    tool = Tool(
        "sap_assistant_run",
        CATCH_ALL_DESCRIPTION,
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["instruction"],
            "properties": {"instruction": {"type": "string", "description": "What to do, in words."}},
        },
        handler,
        {"readOnlyHint": False},
    )
    return ToolSet("catch-all", (tool,))


# ---------- the comparison ----------


@dataclass(frozen=True)
class Shape:
    label: str
    tools: int
    tokens: int
    lint_findings: int
    catch_all_flagged: int
    right_tool: float | None  # None: one tool, so the picker cannot miss; the choice moved into text
    bad_rejected: int
    bad_calls: int
    gated: int  # requests whose call must wait for a person, because the tool may write


# Calls a model might get wrong, per set: (tool, arguments). The same three mistakes each time: a
# wrong or missing choice, an order passed to the address check, and an empty call.
BAD_CALLS: dict[str, tuple[tuple[str, dict], ...]] = {
    "designed": (
        ("customer_get_credit_exposure", {"customer": "10023"}),
        ("customer_get_address_gaps", {"customer": "10051", "sales_order": "4723"}),
        ("customer_get_credit_exposure", {}),
    ),
    "consolidated": (
        ("customer_check_account", {"action": "credit", "customer": "10023", "sales_order": None}),
        ("customer_check_account", {"action": "address_gaps", "customer": "10051", "sales_order": "4723"}),
        ("customer_check_account", {"action": "credit_exposure"}),
    ),
    "catch-all": (
        ("sap_assistant_run", {"instruction": "credit 10023"}),
        ("sap_assistant_run", {"instruction": "address gaps of 4723"}),
        ("sap_assistant_run", {"instruction": ""}),
    ),
}


def _right_share(tools: ToolSet, cases: Sequence[Case], chooser: Any) -> float:
    right = 0
    for case in cases:
        expected = expected_for(case, "designed")
        if expected:
            expected = tuple(name if name in tools.names else RENAMED.get(name, name) for name in expected)
        right += judge(expected, chooser.pick(case.request, tools).tool)
    return right / len(cases)


def right_tool(
    tools: ToolSet, cases: Sequence[Case] = SCALE_CASES, picker: str = "words", shuffles: int = SHUFFLES
) -> float | None:
    """Share of requests whose first call is the right tool (a merged tool counts for both jobs).

    Averaged over the same seeded orderings as ``growth.measure``, because the word-matching
    stand-in breaks ties by position: the designed set then scores the same here as at five tools
    in the growth table.
    """
    if len(tools) == 1:
        return None
    chooser = offline_picker(picker)
    shares = []
    for n in range(shuffles):
        order = list(tools)
        random.Random(SEED + n).shuffle(order)
        shares.append(_right_share(ToolSet(tools.name, tuple(order)), cases, chooser))
    return round(sum(shares) / shuffles, 4)


def gated(tools: ToolSet, cases: Sequence[Case] = SCALE_CASES) -> int:
    """Requests whose right call goes through the approval gate, because its tool may write."""
    count = 0
    for case in cases:
        expected = expected_for(case, "designed") or ()
        if len(tools) == 1:
            names = set(tools.names) if expected else set()
        else:
            names = {n if n in tools.names else RENAMED.get(n, n) for n in expected}
        count += any(tools[n].writes for n in names if n in tools.names)
    return count


def compare(base: ToolSet | None = None) -> list[Shape]:
    """The designed set, the consolidated set and the catch-all, side by side."""
    base = base or tool_set("designed")
    shapes = []
    for tools in (base, consolidated(base), catch_all(base)):
        report = lint(tools, extra=RULES)
        flagged = sum(1 for f in report.findings if f.rule == CATCH_ALL_RULE.id)
        bad = BAD_CALLS[tools.name]
        rejected = sum(not is_valid(tools[name], call) for name, call in bad)
        shapes.append(
            Shape(
                tools.name,
                len(tools),
                definition_tokens(tools),
                report.count,
                flagged,
                right_tool(tools),
                rejected,
                len(bad),
                gated(tools),
            )
        )
    return shapes


def table(shapes: Sequence[Shape]) -> list[dict]:
    return [
        {
            "set": s.label,
            "tools": s.tools,
            "tokens (estimate)": s.tokens,
            "lint findings": s.lint_findings,
            "catch-all flagged": s.catch_all_flagged,
            "right first tool": "one tool: moved into text"
            if s.right_tool is None
            else f"{s.right_tool:.0%}",
            "bad calls rejected by schema": f"{s.bad_rejected}/{s.bad_calls}",
            f"requests held for approval (of {len(SCALE_CASES)})": s.gated,
        }
        for s in shapes
    ]


def _report() -> None:
    print(
        "Consolidation, offline: the word-matching stand-in picks the tool (a stand-in, not a model); "
        f"tokens are estimates ({ESTIMATE_RULE})"
    )
    for row in table(compare()):
        print("  " + ", ".join(f"{k}: {v}" for k, v in row.items()))


def main(argv: Sequence[str] | None = None, prog: str = "python -m tooldesign.scale.consolidate") -> int:
    """``tooldesign scale consolidate`` and its ``python -m`` spelling; bad input ends in one line."""
    from tooldesign.command_line import run_report

    return run_report(_report, argv, prog=prog, description="Consolidated tool shapes, offline (lesson 13).")


if __name__ == "__main__":
    raise SystemExit(main())
