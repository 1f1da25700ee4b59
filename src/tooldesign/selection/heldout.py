"""HELD-OUT selection cases. NEVER USED TO CHANGE A DESCRIPTION.

These requests were written and committed before any tool description was revised against the
development cases, and no description may ever be edited while looking at how they score. They
are the test the course reports as its headline: a score on requests the wording was not tuned to.
If a description change makes one of them fail, the change is still judged on tuning and
development cases only; the failure is reported, not fixed by rewording towards it.

Phrasing is the clerks' own: short and long, with and without numbers, the words an
order-to-cash desk uses ("hold", "headroom", "sign-off", "out the door") rather than the words of
any description. They were written by the same author as the descriptions, though, so they share
that author's words for each job: their score is an upper bound on what requests written by other
people would give (notebook 06 asks learners to bring such requests).
"""

from __future__ import annotations

from tooldesign.selection.requests import EXPOSURE, GAPS, ORDER_READ, RELEASE, SEARCH, SUMMARY, Case

__all__ = ["HELD_OUT_CASES", "HELD_OUT_NO_CALL"]


def _case(request: str, mirror, designed) -> Case:
    return Case(request, {"mirror": mirror, "designed": designed})


HELD_OUT_CASES: tuple[Case, ...] = (
    # why one order is held
    _case("What's holding up 4711?", ORDER_READ, SUMMARY),
    _case("Order 4725 hasn't shipped yet, what's the problem?", ORDER_READ, SUMMARY),
    _case("Can you check what's wrong with SO 4723?", ORDER_READ, SUMMARY),
    _case("Customer is chasing delivery of order 4730 - why hasn't it gone out?", ORDER_READ, SUMMARY),
    _case("Is there a delivery block on 4711?", ORDER_READ, SUMMARY),
    _case("Give me the status of sales order 4731.", ORDER_READ, SUMMARY),
    _case("4725 - blocked for pricing?", ORDER_READ, SUMMARY),
    _case("Why won't the system let order 4723 go to delivery?", ORDER_READ, SUMMARY),
    # credit: limit, exposure, who signs off
    _case("Is 10023 still within its credit line?", ("get_credit",), EXPOSURE),
    _case("How much headroom does customer 10051 have left on credit?", ("get_credit",), EXPOSURE),
    _case("What's the total exposure for 10023 including order 4711?", ("get_credit",), EXPOSURE),
    _case("Does releasing 4711 need sign-off from the credit manager?", ("get_credit",), EXPOSURE),
    _case(
        "Customer 10023 wants to place another big order - are they over the limit already?",
        ("get_credit",),
        EXPOSURE,
    ),
    _case("What are the open receivables of customer 10051 against its limit?", ("get_credit",), EXPOSURE),
    _case("Credit check failed on 4711, how far over are we?", ("get_credit",), EXPOSURE),
    # address gaps in the customer master
    _case(
        "Customer 10051's master data is incomplete, which fields do we need to fill in?", ("get_bp",), GAPS
    ),
    _case("Does 10023 have a postal code on file?", ("get_bp",), GAPS),
    _case("Is the ship-to address for customer 10051 complete?", ("get_bp",), GAPS),
    _case("What's missing from the address record of customer 10062?", ("get_bp",), GAPS),
    _case(
        "We can't ship to 10051 because the address is incomplete - what do we need from them?",
        ("get_bp",),
        GAPS,
    ),
    _case("Check the street and city for customer 10023.", ("get_bp",), GAPS),
    # a customer's orders
    _case("Show me all open orders for 10023.", ("query",), SEARCH),
    _case("Which of customer 10051's orders are on hold right now?", ("query",), SEARCH),
    _case("What's in the order backlog for customer 10023?", ("query",), SEARCH),
    _case("Pull up the last five orders from 10051.", ("query",), SEARCH),
    _case("Does customer 10023 have any other blocked orders besides 4711?", ("query",), SEARCH),
    _case("How many blocked orders has 10051 got?", ("query",), SEARCH),
    _case("List everything customer 10023 has ordered this year.", ("query",), SEARCH),
    # release: the mirror has no safe tool (None)
    _case("Please release 4725, the price issue is sorted.", None, RELEASE),
    _case("Go ahead and lift the block on 4711.", None, RELEASE),
    _case("Can we get order 4723 out the door today? Sales says it's fine.", None, RELEASE),
    _case("Request approval to release sales order 4711.", None, RELEASE),
    _case("Remove the credit hold on 4711 so the warehouse can pick it.", None, RELEASE),
    _case("Push 4730 through, the customer paid this morning.", None, RELEASE),
)

# Requests no tool serves (irrelevance): counted apart from the tool requests.
HELD_OUT_NO_CALL: tuple[Case, ...] = (
    _case("What's the weather in Hamburg tomorrow?", (), ()),
    _case("Write a polite reminder email for an overdue invoice.", (), ()),
    _case("Convert 500 USD to euros.", (), ()),
    _case("What time does the warehouse close on Saturday?", (), ()),
)
