"""Development selection cases: the requests descriptions may be revised against.

Together with the ten tuning requests in ``cases`` they are what a description writer looks at:
paraphrases, terse and long requests, with and without numbers, in the words clerks use for each
job. The held-out cases in ``heldout`` are kept apart and are never used to change a description.
"""
from __future__ import annotations

from tooldesign.selection.cases import (EXPOSURE, GAPS, ORDER_READ, RELEASE, SEARCH, SUMMARY, Case)

__all__ = ["DEVELOPMENT_CASES", "DEVELOPMENT_NO_CALL"]


def _case(request: str, mirror, designed) -> Case:
    return Case(request, {"mirror": mirror, "designed": designed})


DEVELOPMENT_CASES: tuple[Case, ...] = (
    _case("Why is 4711 blocked?", ORDER_READ, SUMMARY),
    _case("What's the hold reason on sales order 4725?", ORDER_READ, SUMMARY),
    _case("Order 4723 is stuck, can you see why?", ORDER_READ, SUMMARY),
    _case("The customer asks why their order 4730 hasn't been delivered.", ORDER_READ, SUMMARY),
    _case("Explain the block on order 4711 in detail, with the PO number and items.", ORDER_READ, SUMMARY),
    _case("Is 4725 held for credit or for price?", ORDER_READ, SUMMARY),
    _case("What is going on with order 4732?", ORDER_READ, SUMMARY),
    _case("Delivery for 4711 is blocked, what's the reason?", ORDER_READ, SUMMARY),
    _case("What's the credit limit of customer 10023?", ("get_credit",), EXPOSURE),
    _case("Customer 10051: how much of their credit have they used?", ("get_credit",), EXPOSURE),
    _case("Who signs off on the credit for order 4711?", ("get_credit",), EXPOSURE),
    _case("Is customer 10023 over their limit if we ship 4711?", ("get_credit",), EXPOSURE),
    _case("How much does 10023 owe us in open items?", ("get_credit",), EXPOSURE),
    _case("Credit exposure for 10051, please.", ("get_credit",), EXPOSURE),
    _case("Does the head of finance need to approve the credit on 4711?", ("get_credit",), EXPOSURE),
    _case("Which address data is missing for 10023?", ("get_bp",), GAPS),
    _case("Customer 10051 has no postal code, what else is missing?", ("get_bp",), GAPS),
    _case("Is the address of customer 10023 complete?", ("get_bp",), GAPS),
    _case("Order 4723 is held for incomplete master data - check the customer's address.",
          ("get_bp", "get_order", "get_order_details"), GAPS + SUMMARY),
    _case("Find the gaps in customer 10051's address.", ("get_bp",), GAPS),
    _case("What orders does 10023 have open?", ("query",), SEARCH),
    _case("Show the blocked orders for customer 10023.", ("query",), SEARCH),
    _case("How many sales orders has customer 10051 placed?", ("query",), SEARCH),
    _case("Give me a list of 10051's orders, newest first.", ("query",), SEARCH),
    _case("Any other orders on hold for 10023?", ("query",), SEARCH),
    _case("Find all orders for customer 10023 over the last year.", ("query",), SEARCH),
    _case("Unblock 4711 please.", None, RELEASE),
    _case("Release 4725, pricing has been agreed with the customer.", None, RELEASE),
    _case("Raise a release request for order 4723.", None, RELEASE),
    _case("Get 4711 released, the customer promised payment by Friday.", None, RELEASE),
    _case("Let order 4730 ship, the hold can go.", None, RELEASE),
)

DEVELOPMENT_NO_CALL: tuple[Case, ...] = (
    _case("Remind me to call the customer back at 3 pm.", (), ()),
    _case("What's the VAT rate in Austria?", (), ()),
    _case("Summarise this email thread for me.", (), ()),
)
