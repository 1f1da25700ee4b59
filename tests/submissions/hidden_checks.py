"""Hidden checks for the test class: what an instructor keeps out of the learners' repository.

Same interface as workbook.exercises: a list EXERCISES of Exercise. This one calls the learner's
credit_exposure on customers and orders the public check never tries, and computes the answer
key from the course data, so it stays right if the data is rebuilt.
"""
from __future__ import annotations

from tooldesign.data import sap
from workbook.checks import failed, passed
from workbook.exercises import Exercise

PROBES = (("10051", None), ("10023", None), ("10023", "4731"), ("10023", "4733"))


def _expected(customer: str, sales_order: str | None) -> float:
    open_items = float(sap.customers().set_index("customer").loc[customer, "open_items"])
    if sales_order is None:
        return open_items
    return open_items + float(sap.orders().set_index("SalesOrder").loc[sales_order, "TotalNetAmount"])


def _judge(results) -> object:
    for args, got in zip(PROBES, results):
        if type(got) not in (int, float) or abs(got - _expected(*args)) >= 0.005:
            return failed(f"credit_exposure{args} gave {got!r}")
    return passed("right on four more customers and orders")


EXERCISES = [
    Exercise("ex01-credit-exposure-hidden", "01_sap_orders_data", "credit_exposure", 1, _judge,
             kind="function", probes=PROBES, prompt="credit_exposure on inputs kept private"),
]
