"""Notebook 01: the fictional SAP order-to-cash data."""

from __future__ import annotations

from tooldesign.wording import count
from workbook.checks import failed, passed, probe_error
from workbook.exercises import Exercise, WrongAnswer

BLOCKED = ["4711", "4723", "4725"]


def _judge_blocked(answer) -> object:
    if type(answer) is not list:
        return failed(f"blocked_orders should be a list of order numbers, not a {type(answer).__name__}")
    if any(type(item) is not str for item in answer):
        return failed("order numbers are strings in the API ('4711', not 4711): keep them as text")
    if answer != sorted(answer):
        return failed("sort the list, so two correct answers look the same: sorted(...)")
    if len(set(answer)) != len(answer):
        return failed("an order appears twice; each blocked order once")
    if answer == ["4711"]:
        return failed(
            "only 4711 is blocked by credit; look at all three block fields: DeliveryBlockReason, "
            "HeaderBillingBlockReason and TotalCreditCheckStatus"
        )
    missing, extra = sorted(set(BLOCKED) - set(answer)), sorted(set(answer) - set(BLOCKED))
    if extra:
        return failed(f"{', '.join(extra)} has no block code; an empty field means not blocked")
    if missing:
        return failed(
            f"{count(len(missing), 'blocked order')} missing: an order is blocked when ANY of the three "
            "block fields holds a code"
        )
    return passed("4711 (credit), 4723 (delivery block 01) and 4725 (delivery block 02).")


# Hidden cases: (customer, sales_order or None) -> exposure in EUR.
EXPOSURE_PROBES = (
    ("10023", "4711"),
    ("10051", "4723"),
    ("10077", None),
    ("10023", "4735"),
    ("10077", "4725"),
)
EXPOSURE_EXPECTED = [52500.0, 4740.0, 12000.0, 50760.0, 15900.0]


def _judge_exposure(results) -> object:
    for (customer, order), got, want in zip(EXPOSURE_PROBES, results, EXPOSURE_EXPECTED):
        call = f"credit_exposure({customer!r}, {order!r})"
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}")
        if type(got) not in (int, float):
            return failed(f"{call} returned a {type(got).__name__}; return the amount as a number (float)")
        if order is not None and abs(got - (want - _order_value(order))) < 0.005:
            return failed(f"{call} returned {got:g}: add the order's TotalNetAmount to the open items")
        if abs(got - want) >= 0.005:
            return failed(
                f"{call} returned {got:g}, which is not the exposure: open items of the customer, "
                "plus the order's net value when an order is given (None: no order)"
            )
    return passed("exposure = open items + the order's net value, for customers and orders it had not seen.")


def _order_value(order: str) -> float:
    return {"4711": 1800.0, "4723": 640.0, "4725": 3900.0, "4735": 60.0}[order]


def _forgot_order(customer, sales_order):
    return {"10023": 50700.0, "10051": 4100.0, "10077": 12000.0}[customer]


def _text_amount(customer, sales_order):
    return str(_forgot_order(customer, sales_order) + (_order_value(sales_order) if sales_order else 0))


EXERCISES = [
    Exercise(
        "ex01-blocked-orders",
        "01_sap_orders_data",
        "blocked_orders",
        1,
        _judge_blocked,
        prompt="List the blocked sales orders (any of the three block fields set), sorted.",
        wrong_answers=(
            WrongAnswer(["4711"], "all three block fields"),
            WrongAnswer([4711, 4723, 4725], "strings"),
            WrongAnswer(["4711", "4723", "4725", "4730"], "no block code"),
        ),
    ),
    Exercise(
        "ex01-credit-exposure",
        "01_sap_orders_data",
        "credit_exposure",
        2,
        _judge_exposure,
        kind="function",
        probes=EXPOSURE_PROBES,
        prompt="Write credit_exposure(customer, sales_order): open items plus the order's net value.",
        wrong_answers=(
            WrongAnswer(_forgot_order, "add the order's TotalNetAmount"),
            WrongAnswer(_text_amount, "as a number"),
        ),
    ),
]
