"""The selection test's requests: what a clerk asks, and which first tool is right in each set.

``expected`` maps a set name to the tools that would be a right first call:

* a tuple of names: any of them is right;
* ``()``: the right answer is no call at all (the request is outside every tool's job);
* ``None``: the set has no safe tool for the request. Every answer counts as a miss, on purpose:
  the mirror set can only serve a release request with ``update_order``, which would change the
  order without anyone's approval, and declining leaves the clerk unserved.

The ten tool requests are the headline score; the no-call requests are counted separately.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

__all__ = ["Case", "CASES", "NO_CALL_CASES", "ALL_CASES", "expected_for"]

Expected = Optional[tuple[str, ...]]


@dataclass(frozen=True)
class Case:
    request: str
    expected: Mapping[str, Expected]

    @property
    def no_call(self) -> bool:
        """True when no tool in any set should serve this request."""
        return all(v == () for v in self.expected.values())


def expected_for(case: Case, set_name: str) -> Expected:
    """The right tools for ``set_name``; a set the case does not know falls back to its base name
    ("designed+pricing" reads the "designed" answer), so an extended set keeps the old cases."""
    if set_name in case.expected:
        return case.expected[set_name]
    base = set_name.split("+")[0]
    if base in case.expected:
        return case.expected[base]
    raise KeyError(f"case {case.request!r} has no expected tools for set {set_name!r}")


ORDER_READ = ("get_order", "get_order_status", "get_order_details")
SUMMARY = ("sales_order_get_block_summary",)
EXPOSURE = ("customer_get_credit_exposure",)
GAPS = ("customer_get_address_gaps",)
SEARCH = ("sales_order_search",)
RELEASE = ("release_request_create",)

CASES: tuple[Case, ...] = (
    Case("Why is sales order 4711 on hold?", {"mirror": ORDER_READ, "designed": SUMMARY}),
    Case("How far is customer 10023 over its credit limit?", {"mirror": ("get_credit",), "designed": EXPOSURE}),
    Case("List the blocked orders of customer 10051.", {"mirror": ("query",), "designed": SEARCH}),
    Case("Which address fields are missing for customer 10051?", {"mirror": ("get_bp",), "designed": GAPS}),
    Case("Release order 4711, the customer has promised to pay.", {"mirror": None, "designed": RELEASE}),
    Case("Is order 4725 stuck because of pricing or because of credit?", {"mirror": ORDER_READ, "designed": SUMMARY}),
    Case("How many orders does customer 10023 have with us?", {"mirror": ("query",), "designed": SEARCH}),
    Case("Who has to approve the credit for customer 10023 if order 4711 goes out?",
         {"mirror": ("get_credit",), "designed": EXPOSURE}),
    Case("Order 4723 is incomplete: what is missing in the customer's address?",
         {"mirror": ("get_bp", "get_order", "get_order_details"), "designed": GAPS + SUMMARY}),
    Case("Please unblock order 4723 so it can ship today.", {"mirror": None, "designed": RELEASE}),
)

NO_CALL_CASES: tuple[Case, ...] = (
    Case("Book a meeting room for Friday morning.", {"mirror": (), "designed": ()}),
    Case("Translate 'thank you for your patience' into French.", {"mirror": (), "designed": ()}),
)

ALL_CASES = CASES + NO_CALL_CASES
