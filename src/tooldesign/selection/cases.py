"""The selection test's requests: what a clerk asks, and which first tool is right in each set.

``expected`` maps a set name to the tools that would be a right first call:

* a tuple of names: any of them is right;
* ``()``: the right answer is no call at all (the request is outside every tool's job);
* ``None``: the set has no safe tool for the request. Every answer counts as a miss, on purpose:
  the mirror set can only serve a release request with ``update_order``, which would change the
  order without anyone's approval, and declining leaves the clerk unserved.

Three case sets are kept apart (``case_set(name)``):

* ``tuning``: the ten requests below (a :class:`Case` and the tool names are defined in
  ``tooldesign.selection.requests``) and the no-call requests: the first cases the descriptions
  were written against;
* ``development``: more requests, varied, that descriptions may be revised against
  (``tooldesign.selection.development``);
* ``held-out``: requests written before any description was revised and never used to change one
  (``tooldesign.selection.heldout``). Its score is the headline.

In every set the no-call requests are counted separately from the tool requests.
"""

from __future__ import annotations

from dataclasses import dataclass

from tooldesign.selection.development import DEVELOPMENT_CASES, DEVELOPMENT_NO_CALL
from tooldesign.selection.heldout import HELD_OUT_CASES, HELD_OUT_NO_CALL
from tooldesign.selection.requests import (
    EXPOSURE,
    GAPS,
    ORDER_READ,
    RELEASE,
    SEARCH,
    SUMMARY,
    Case,
    Expected,
    expected_for,
)

__all__ = [
    "Case",
    "CASES",
    "NO_CALL_CASES",
    "ALL_CASES",
    "expected_for",
    "Expected",
    "ORDER_READ",
    "SUMMARY",
    "EXPOSURE",
    "GAPS",
    "SEARCH",
    "RELEASE",
    "CaseSet",
    "SET_ORDER",
    "case_set",
    "case_sets",
]

CASES: tuple[Case, ...] = (
    Case("Why is sales order 4711 on hold?", {"mirror": ORDER_READ, "designed": SUMMARY}),
    Case(
        "How far is customer 10023 over its credit limit?", {"mirror": ("get_credit",), "designed": EXPOSURE}
    ),
    Case("List the blocked orders of customer 10051.", {"mirror": ("query",), "designed": SEARCH}),
    Case("Which address fields are missing for customer 10051?", {"mirror": ("get_bp",), "designed": GAPS}),
    Case("Release order 4711, the customer has promised to pay.", {"mirror": None, "designed": RELEASE}),
    Case(
        "Is order 4725 stuck because of pricing or because of credit?",
        {"mirror": ORDER_READ, "designed": SUMMARY},
    ),
    Case("How many orders does customer 10023 have with us?", {"mirror": ("query",), "designed": SEARCH}),
    Case(
        "Who has to approve the credit for customer 10023 if order 4711 goes out?",
        {"mirror": ("get_credit",), "designed": EXPOSURE},
    ),
    Case(
        "Order 4723 is incomplete: what is missing in the customer's address?",
        {"mirror": ("get_bp", "get_order", "get_order_details"), "designed": GAPS + SUMMARY},
    ),
    Case("Please unblock order 4723 so it can ship today.", {"mirror": None, "designed": RELEASE}),
)

NO_CALL_CASES: tuple[Case, ...] = (
    Case("Book a meeting room for Friday morning.", {"mirror": (), "designed": ()}),
    Case("Translate 'thank you for your patience' into French.", {"mirror": (), "designed": ()}),
)

ALL_CASES = CASES + NO_CALL_CASES


SET_ORDER = ("tuning", "development", "held-out")
_PURPOSE = {
    "tuning": "the first cases the descriptions were written against",
    "development": "what descriptions may be revised against",
    "held-out": "written before any revision, never used to change a description",
}


@dataclass(frozen=True)
class CaseSet:
    """One named set of cases: the tool requests and the no-call requests, kept apart."""

    name: str
    tool_cases: tuple[Case, ...]
    no_call_cases: tuple[Case, ...]
    purpose: str

    @property
    def cases(self) -> tuple[Case, ...]:
        return self.tool_cases + self.no_call_cases


def case_set(name: str) -> CaseSet:
    """The case set called ``name``: "tuning", "development" or "held-out"."""
    if name == "tuning":
        return CaseSet(name, CASES, NO_CALL_CASES, _PURPOSE[name])
    if name == "development":
        return CaseSet(name, DEVELOPMENT_CASES, DEVELOPMENT_NO_CALL, _PURPOSE[name])
    if name in ("held-out", "heldout", "held_out"):
        return CaseSet("held-out", HELD_OUT_CASES, HELD_OUT_NO_CALL, _PURPOSE["held-out"])
    raise ValueError(f"unknown case set {name!r}; choose one of {', '.join(SET_ORDER)}")


def case_sets() -> tuple[CaseSet, ...]:
    """All three sets, in the order tuning, development, held-out."""
    return tuple(case_set(n) for n in SET_ORDER)
