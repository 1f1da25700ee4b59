"""The scripted task: a clerk's four-step job on customer 10023, with either tool set.

"Which of Nordhafen's orders are held, why, and can we release them?" takes four tool calls:
find the blocked orders, explain the block, check credit, draft a release. The calls are written
out, not chosen by a model, so both tool sets do the same job and the only difference measured
is what their results put in the context.
"""

from __future__ import annotations

from tooldesign.dispatch import ToolCall
from tooldesign.loop.transcript import Carrier, Run, as_is, run_steps
from tooldesign.tools import ToolSet
from tooldesign.tools.respond import CLEAR_BLOCKS, JUSTIFICATION

__all__ = ["REQUEST", "CUSTOMER", "ORDER", "STEPS", "STEP_TITLES", "run_task"]

CUSTOMER, ORDER = "10023", "4711"
REQUEST = (
    f"Customer {CUSTOMER} (Nordhafen Tools) is on the phone: which of their orders are held, why, and "
    "can we release them?"
)
STEP_TITLES = ("find the blocked orders", "explain the block", "check credit", "draft a release")

STEPS: dict[str, tuple[ToolCall, ...]] = {
    # The mirror has no blocked filter, so step 1 fetches every order of the customer.
    "mirror": (
        ToolCall("query", {"entity": "A_SalesOrder", "filter": f"SoldToParty eq '{CUSTOMER}'"}, "call_1"),
        ToolCall("get_order_details", {"id": ORDER}, "call_2"),
        ToolCall("get_credit", {"id": CUSTOMER}, "call_3"),
        ToolCall("update_order", {"id": ORDER, "fields": CLEAR_BLOCKS}, "call_4"),
    ),
    "designed": (
        ToolCall("sales_order_search", {"customer": CUSTOMER, "blocked_only": True, "limit": None}, "call_1"),
        ToolCall("sales_order_get_block_summary", {"sales_order": ORDER, "detail": "concise"}, "call_2"),
        ToolCall("customer_get_credit_exposure", {"customer": CUSTOMER, "sales_order": ORDER}, "call_3"),
        ToolCall("release_request_create", {"sales_order": ORDER, "justification": JUSTIFICATION}, "call_4"),
    ),
}


def run_task(
    set_name: str, carrier: Carrier = as_is, name: str | None = None, tools: ToolSet | None = None
) -> Run:
    """The four steps with ``set_name``'s tools ("mirror" or "designed"), results carried by ``carrier``."""
    if set_name not in STEPS:
        raise ValueError(f"unknown tool set {set_name!r}; choose one of {', '.join(STEPS)}")
    return run_steps(name or set_name, set_name, REQUEST, STEPS[set_name], carrier, tools)
