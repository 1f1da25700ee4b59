"""The questions asked at the end of the task, and whether what was carried can still answer them.

A fact counts as kept when the evidence for it is in the context the last model call carries:
the value itself, written as either tool set writes it. This is deliberately literal: it checks
that the information is *there*, not that a model would read it correctly. A fact that is absent
cannot be answered by any model without calling a tool again; one that is present may still be
misread, which this check cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Fact", "FACTS", "kept", "lost", "TASK_FACTS"]


@dataclass(frozen=True)
class Fact:
    id: str
    question: str
    answer: str
    present: Callable[[str], bool]


def _all(*needles: str) -> Callable[[str], bool]:
    return lambda text: all(n in text for n in needles)


def _any(*needles: str) -> Callable[[str], bool]:
    return lambda text: any(n in text for n in needles)


_CUSTOMER_ORDERS = ("4711", "4730", "4731", "4732", "4733", "4734", "4735")


def _order_count(text: str) -> bool:
    """Seven orders: a stated total of 7, or all seven numbers in what was read."""
    stated = re.search(r'"(?:total|__count)": "?7\b|\b7 orders\b', text)
    return bool(stated) or all(n in text for n in _CUSTOMER_ORDERS)


FACTS: tuple[Fact, ...] = (
    Fact(
        "blocked",
        "Which order is held, and by what?",
        "4711, by the credit check",
        _any('"TotalCreditCheckStatus": "B"', "TotalCreditCheckStatus B", "credit check"),
    ),
    Fact("value", "What is 4711 worth?", "1,800.00 EUR", _any("1800.0")),
    Fact("limit", "What is the customer's credit limit?", "50,000.00 EUR", _any("50000.0")),
    Fact("open", "How much is open on the account?", "50,700.00 EUR", _any("50700.0")),
    Fact("count", "How many orders does 10023 have?", "7", _order_count),
    Fact("newest", "Which is the newest order?", "4735", _any("4735")),
    Fact("items", "What is on order 4711?", "TG12 and TG14", _all("TG12", "TG14")),
    Fact("date", "When does the customer want 4711?", "2026-10-12", _any("2026-10-12")),
)
# The four the task itself needs; the others are follow-up questions a caller might ask next.
TASK_FACTS = ("blocked", "value", "limit", "open")


def kept(context: str, facts: tuple[Fact, ...] = FACTS) -> list[str]:
    """Ids of the facts whose evidence is in ``context``."""
    return [f.id for f in facts if f.present(context)]


def lost(context: str, facts: tuple[Fact, ...] = FACTS) -> list[str]:
    return [f.id for f in facts if not f.present(context)]
