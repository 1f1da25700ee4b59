"""Notebook 01: the fictional SAP order-to-cash data."""

from __future__ import annotations

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, known_mistake, passed, probe_error

BLOCK_FIELDS = ("DeliveryBlockReason", "HeaderBillingBlockReason", "TotalCreditCheckStatus")


def _header(
    number: str, delivery: object = "", billing: object = "", credit: object = "", **more: object
) -> dict:
    return {
        "SalesOrder": number,
        "DeliveryBlockReason": delivery,
        "HeaderBillingBlockReason": billing,
        "TotalCreditCheckStatus": credit,
        **more,
    }


# The course's own table (its block fields; tests/test_drawn_value_exercises.py keeps it equal to the data).
COURSE_ORDERS = [
    _header("4711", credit="B"),
    _header("4723", delivery="01"),
    _header("4725", delivery="02"),
    *(_header(number) for number in ("4730", "4731", "4732", "4733", "4734", "4735")),
]

# The check's cases for blocked_orders(orders): each a list of order headers, with what it tries.
BLOCKED_PROBES: tuple[tuple[list[dict]], ...] = (
    (COURSE_ORDERS,),
    ([],),
    ([_header("5120", billing="01"), _header("5102", credit="B"), _header("5111", delivery="03")],),
    (
        [
            _header("6001", delivery=None),
            {"SalesOrder": "6002", "DeliveryBlockReason": "", "HeaderBillingBlockReason": ""},
            _header("6003", billing="01"),
            _header("6004", OverallSDProcessStatus="A"),
        ],
    ),
    ([_header("7203", credit="B"), _header("7201"), _header("7202", credit="")],),
    (
        [
            _header("8002", delivery="01", billing="01"),
            _header("8001"),
            _header("8002", delivery="01", billing="01"),
        ],
    ),
)
# What each case is, for the hints: a hint names the case and the rule, never the right list.
BLOCKED_CASES = (
    "the course's nine orders",
    "no orders at all",
    "three orders, each with a code in a different block field",
    "an empty field written as None, as an empty string, and left out of the header",
    "a code only in TotalCreditCheckStatus",
    "the same order listed twice",
)


def reference_blocked(orders: list[dict]) -> list[str]:
    """The course's rule: blocked when any block field holds a code; "", None or no field is no code."""
    return sorted(
        {
            header["SalesOrder"]
            for header in orders
            if any(isinstance(header.get(f), str) and header[f].strip() for f in BLOCK_FIELDS)
        }
    )


def _credit_only(orders):
    return sorted({h["SalesOrder"] for h in orders if h.get("TotalCreditCheckStatus")})


def _delivery_only(orders):
    return sorted({h["SalesOrder"] for h in orders if h.get("DeliveryBlockReason")})


def _as_numbers(orders):
    return [int(number) for number in reference_blocked(orders)]


def _unsorted(orders):
    right = set(reference_blocked(orders))
    return list(dict.fromkeys(h["SalesOrder"] for h in orders if h["SalesOrder"] in right))


def _with_repeats(orders):
    right = set(reference_blocked(orders))
    return sorted(h["SalesOrder"] for h in orders if h["SalesOrder"] in right)


def _any_value_is_a_code(orders):
    """A field that is there counts, whatever it holds (a column compared with != "" in pandas reads None
    and a missing field, NaN, as codes)."""
    return sorted({h["SalesOrder"] for h in orders if any(h.get(f, "") != "" for f in BLOCK_FIELDS)})


def _empty_text_is_a_code(orders):
    return sorted({h["SalesOrder"] for h in orders if any(h.get(f) is not None for f in BLOCK_FIELDS)})


def _every_field(orders):
    return sorted({h["SalesOrder"] for h in orders if any(v for k, v in h.items() if k != "SalesOrder")})


_FIELDS_HINT = (
    "look at all three block fields: DeliveryBlockReason, HeaderBillingBlockReason and TotalCreditCheckStatus"
)
BLOCKED_MISTAKES = (
    (_credit_only, _FIELDS_HINT + " (you read only the credit status)"),
    (_delivery_only, _FIELDS_HINT + " (you read only the delivery block)"),
    (_unsorted, "sort the list, so two correct answers look the same: sorted(...)"),
    (_with_repeats, "an order appears twice; each blocked order once"),
    (
        _any_value_is_a_code,
        'an empty field is not a block, however it is written: "", None, or a field the header does not '
        "have (NaN once pandas reads it): only a non-empty string is a code",
    ),
    (_empty_text_is_a_code, 'an empty string "" is an empty field, not a block code'),
    (_every_field, "only the three block fields count: a code in another field (a status) is no block"),
)


def _judge_blocked(results) -> object:
    for (orders,), case, got in zip(BLOCKED_PROBES, BLOCKED_CASES, results):
        where = f"on the check's case ({case})"
        if (raised := probe_error(got)) is not None:
            return failed(
                f"blocked_orders raised {raised} {where}; it must take any list of headers, even []"
            )
        if type(got) is not list:
            return failed(
                f"blocked_orders returned a {type(got).__name__} {where}; return a list of order numbers"
            )
        if any(type(item) is not str for item in got):
            return failed(
                f"{where}: order numbers are strings in the API, as in the header above: keep them as text, not int"
            )
        want = reference_blocked(orders)
        if got == want:
            continue
        hint = known_mistake((orders,), got, BLOCKED_MISTAKES)
        if hint is None and got != sorted(got):
            hint = "sort the list, so two correct answers look the same: sorted(...)"
        if hint is None and len(set(got)) != len(got):
            hint = "an order appears twice; each blocked order once"
        return failed(
            f"{where}: "
            + (
                hint
                or "not the blocked orders: an order is blocked when ANY of the three block fields holds a "
                "code, and an empty field is no code"
            )
        )
    return passed(
        "blocked when any of the three block fields holds a code, for order tables it had not seen as well."
    )


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
        kind="function",
        probes=BLOCKED_PROBES,
        prompt=(
            "Write blocked_orders(orders): the numbers of the orders with a code in any of the three block "
            'fields, sorted, each once ("", None or a missing field is no code).'
        ),
        wrong_answers=(
            WrongAnswer(_credit_only, "all three block fields"),
            WrongAnswer(_delivery_only, "all three block fields"),
            WrongAnswer(_as_numbers, "strings"),
            WrongAnswer(_unsorted, "sort the list"),
            WrongAnswer(_with_repeats, "each blocked order once"),
            WrongAnswer(_any_value_is_a_code, "an empty field is not a block"),
            WrongAnswer(_empty_text_is_a_code, "not a block code"),
            WrongAnswer(_every_field, "only the three block fields"),
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
        prompt=(
            "Write credit_exposure(customer, sales_order): the customer's open items plus the order's net "
            "value in EUR, as a float (the open items alone when sales_order is None)."
        ),
        wrong_answers=(
            WrongAnswer(_forgot_order, "add the order's TotalNetAmount"),
            WrongAnswer(_text_amount, "as a number"),
        ),
    ),
]
