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
    # a second batch, written to widen the phrasing
    _case("Sales order 4733 won't deliver - what's the hold?", ORDER_READ, SUMMARY),
    _case("Quick one: 4711 status?", ORDER_READ, SUMMARY),
    _case("What's the issue with order 4723? The customer keeps calling.", ORDER_READ, SUMMARY),
    _case("Something is blocking 4730, can you find out what?", ORDER_READ, SUMMARY),
    _case("How close is 10051 to its credit limit?", ("get_credit",), EXPOSURE),
    _case("Is there enough available credit for 10023 to take order 4711?", ("get_credit",), EXPOSURE),
    _case("What's 10023's outstanding balance compared to the limit?", ("get_credit",), EXPOSURE),
    _case("Who needs to approve going over the limit for 10023?", ("get_credit",), EXPOSURE),
    _case("10051's postcode is missing, anything else incomplete in the address?", ("get_bp",), GAPS),
    _case("Do we have a full street address for customer 10023?", ("get_bp",), GAPS),
    _case("Which master data fields are empty for 10051?", ("get_bp",), GAPS),
    _case("Give me an overview of all orders from 10051.", ("query",), SEARCH),
    _case("How many of 10023's orders are still blocked?", ("query",), SEARCH),
    _case("Show me 10023's most recent orders.", ("query",), SEARCH),
    _case("Approve the release of order 4711, the credit manager agreed.", None, RELEASE),
    _case("Take 4725 off hold, pricing is fixed.", None, RELEASE),
    _case("Can you unblock SO 4730 for shipping?", None, RELEASE),
    # a third batch: more of the desk's own terms
    _case("Why is 4725 not released yet?", ORDER_READ, SUMMARY),
    _case("Can you look into order 4730 for me?", ORDER_READ, SUMMARY),
    _case("Order 4711 is flagged, why?", ORDER_READ, SUMMARY),
    _case("Why did the credit check stop 4711?", ORDER_READ, SUMMARY + EXPOSURE),
    _case("What's the credit utilisation for 10023?", ("get_credit",), EXPOSURE),
    _case("Has 10051 exceeded its credit limit?", ("get_credit",), EXPOSURE),
    _case("How much can 10023 still buy on credit?", ("get_credit",), EXPOSURE),
    _case("Check the credit situation of customer 10023 before we ship 4711.", ("get_credit",), EXPOSURE),
    _case("What's the unpaid balance of 10051?", ("get_credit",), EXPOSURE),
    _case("Is the postal address for 10051 filled in correctly?", ("get_bp",), GAPS),
    _case("What do we still need from 10023 to complete their customer record?", ("get_bp",), GAPS),
    _case("Country is missing for 10051?", ("get_bp",), GAPS),
    _case("What has 10051 got in the pipeline?", ("query",), SEARCH),
    _case("Are there more blocked orders for 10023?", ("query",), SEARCH),
    _case("List 10023's orders, only the blocked ones.", ("query",), SEARCH),
    _case("Give me 20 orders from customer 10051.", ("query",), SEARCH),
    _case("Override the hold on 4711, I take responsibility.", None, RELEASE),
    _case("Free up order 4725 for delivery.", None, RELEASE),
    _case("Submit 4711 for release, customer is a long-standing payer.", None, RELEASE),
    _case("We need 4723 shipped today, please release it.", None, RELEASE),
    # a fourth batch: inflections and idioms (holding, blocking, lifting) the stand-ins' crude stemmer splits
    _case("What's blocking order 4711?", ORDER_READ, SUMMARY),
    _case("Who or what is holding order 4725 back?", ORDER_READ, SUMMARY),
    _case("What's wrong with 4732?", ORDER_READ, SUMMARY),
    _case("Lift the delivery block on 4711, please.", None, RELEASE),
    _case("Can you get the hold removed from 4725?", None, RELEASE),
    _case("Clear the block on 4723 so we can deliver.", None, RELEASE),
    _case("Show the last three orders of 10023.", ("query",), SEARCH),
    _case("What are 10051's latest orders?", ("query",), SEARCH),
    _case("Is customer 10023 maxed out on credit?", ("get_credit",), EXPOSURE),
    _case("How much is 10051 over its limit in euros?", ("get_credit",), EXPOSURE),
    _case("The address for 10051 is missing a house number and street - what else?", ("get_bp",), GAPS),
    _case("Does customer 10023 have a complete billing address?", ("get_bp",), GAPS),
    # a fifth batch, scored once before any revision against it: designed 14/17 (words), 15/17 (BM25)
    _case("Hi, can you tell me why 4711 hasn't gone out yet?", ORDER_READ, SUMMARY),
    _case("Order 4730: is there a block on it and what kind?", ORDER_READ, SUMMARY),
    _case("Customer rang about 4725, it's been stuck for a week. Reason?", ORDER_READ, SUMMARY),
    _case("Is anything preventing delivery of sales order 4731?", ORDER_READ, SUMMARY),
    _case("Remaining credit for 10051?", ("get_credit",), EXPOSURE),
    _case("Would order 4711 push 10023 past its limit?", ("get_credit",), EXPOSURE),
    _case("10023's credit - how much is used and who has to approve more?", ("get_credit",), EXPOSURE),
    _case("Is 10051 in good standing credit-wise?", ("get_credit",), EXPOSURE),
    _case("Check whether 10023's address data is complete.", ("get_bp",), GAPS),
    _case("What part of 10051's address is blank?", ("get_bp",), GAPS),
    _case("We need the missing address details for 10051 before we can ship.", ("get_bp",), GAPS),
    _case("Open sales orders for 10051, please.", ("query",), SEARCH),
    _case("How many orders are currently blocked for customer 10023?", ("query",), SEARCH),
    _case("I need a list of everything 10023 has on order.", ("query",), SEARCH),
    _case("Please get 4711 released today.", None, RELEASE),
    _case("Can we release the hold on order 4730? Payment arrived.", None, RELEASE),
    _case("Kick off a release for 4725, the price dispute is resolved.", None, RELEASE),
)

DEVELOPMENT_NO_CALL: tuple[Case, ...] = (
    _case("Remind me to call the customer back at 3 pm.", (), ()),
    _case("What's the VAT rate in Austria?", (), ()),
    _case("Summarise this email thread for me.", (), ()),
    _case("What's our company holiday schedule?", (), ()),
)
