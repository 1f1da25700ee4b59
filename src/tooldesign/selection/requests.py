"""What every case set of the selection test is made of: a :class:`Case` (a request and the right first
tools per tool set), how a set's answer is read (``expected_for``), and the names of the designed
tools the cases expect. The three case sets (``cases``, ``development``, ``heldout``) import these from
here, and ``cases`` gathers the sets, so the arrows point one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "Case",
    "Expected",
    "expected_for",
    "ORDER_READ",
    "SUMMARY",
    "EXPOSURE",
    "GAPS",
    "SEARCH",
    "RELEASE",
]

Expected = tuple[str, ...] | None


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
    ("designed+pricing" and the variant "designed-keyword-stuffed" read the "designed" answer), so an
    extended set or another wording of the same tools keeps the old cases."""
    if set_name in case.expected:
        return case.expected[set_name]
    for base in (set_name.split("+")[0], set_name.split("+")[0].split("-")[0]):
        if base in case.expected:
            return case.expected[base]
    raise KeyError(f"case {case.request!r} has no expected tools for set {set_name!r}")


ORDER_READ = ("get_order", "get_order_status", "get_order_details")
SUMMARY = ("sales_order_get_block_summary",)
EXPOSURE = ("customer_get_credit_exposure",)
GAPS = ("customer_get_address_gaps",)
SEARCH = ("sales_order_search",)
RELEASE = ("release_request_create",)
