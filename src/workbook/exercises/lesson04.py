"""Notebook 04: designed tools. A business rule in code, and a handler with results and errors
a model can use."""

from __future__ import annotations

import json
import re
from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, placeholder_problem, probe_error, readable

NOTEBOOK = "04_designed_tools"

# ---------- exercise 1: the approval rule, in code ----------

APPROVER_PROBES = (
    (50000.0, 50000.0),  # exactly at the limit: within it
    (4740.0, 30000.0),
    (30000.01, 30000.0),  # a cent over
    (99999.0, 50000.0),
    (52500.0, 50000.0),  # exactly 5 % over
    (52500.01, 50000.0),  # a cent beyond 5 %
    (84000.0, 80000.0),  # 5 % over another limit
    (15900.0, 80000.0),
)
APPROVER_EXPECTED = [
    "none",
    "none",
    "CREDIT_MANAGER",
    "HEAD_OF_FINANCE",
    "CREDIT_MANAGER",
    "HEAD_OF_FINANCE",
    "CREDIT_MANAGER",
    "none",
]


def _judge_approver(results: Any) -> object:
    for (exposure, limit), got, want in zip(APPROVER_PROBES, results, APPROVER_EXPECTED):
        call = f"approver({exposure}, {limit})"
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}")
        if got not in ("none", "CREDIT_MANAGER", "HEAD_OF_FINANCE"):
            return failed(
                f"{call} returned {got!r}; return exactly 'none', 'CREDIT_MANAGER' or 'HEAD_OF_FINANCE'"
            )
        if got == want:
            continue
        if exposure == limit:
            return failed(
                f"{call} returned {got!r}: an exposure equal to the limit is within it (<=), so no "
                "approver is needed"
            )
        if exposure == limit * 1.05 or abs(exposure - limit * 1.05) < 1e-6:
            return failed(
                f"{call} returned {got!r}: exactly 5 % over is still CREDIT_MANAGER. Compare amounts "
                "(exposure <= limit * 1.05) rather than a percentage: 52500 / 50000 - 1 is not exactly "
                "0.05 in floating point"
            )
        return failed(
            f"{call} returned {got!r}, expected {want!r}: none within the limit, CREDIT_MANAGER up to "
            "5 % over, HEAD_OF_FINANCE beyond"
        )
    return passed("the rule holds at every edge, the exact limit and exactly 5 % over included.")


def _approver_percent(exposure: float, limit: float) -> str:
    over = exposure / limit - 1
    return "none" if over <= 0 else "CREDIT_MANAGER" if over <= 0.05 else "HEAD_OF_FINANCE"


def _approver_strict(exposure: float, limit: float) -> str:
    return "none" if exposure < limit else "CREDIT_MANAGER" if exposure <= limit * 1.05 else "HEAD_OF_FINANCE"


# ---------- exercise 2: the price tool's handler ----------

PRICE_PROBES: tuple[tuple[Any], ...] = (  # some are not even a dict, on purpose
    ({"sales_order": "4725"},),
    ({"sales_order": "SO-4725"},),
    ({"sales_order": "4799"},),
    ({"sales_order": "4711"},),
    ({},),
    ({"sales_order": 4725},),
    ("4725",),
)
PRICE_4725 = {
    "sales_order": "4725",
    "list_price": 4300.0,
    "discount": 400.0,
    "net_price": 3900.0,
    "currency": "EUR",
}
DESIGNED_TOOLS = (
    "sales_order_get_block_summary",
    "customer_get_credit_exposure",
    "customer_get_address_gaps",
    "sales_order_search",
    "release_request_create",
)


def _tool_error(result: Any) -> str | None:
    """The error text a handler returned for the model to read.

    A handler that raised looks the same to a judge (``{"error": "TypeName: message"}``), so
    ``_judge_price`` tells a raise apart by the exception's name first.
    """
    if isinstance(result, dict) and type(result.get("error")) is str:
        return result["error"]
    return None


def _judge_price(results: Any) -> object:
    ok, wrong_format, missing, no_prices, empty, number, not_object = results
    for result in results:
        if isinstance(result, dict) and re.match(
            r"\w+(Error|Exception|Warning): ", str(result.get("error", ""))
        ):
            return failed(
                f"your handler raised {result['error']}; a handler returns an error the model can read, "
                "it never raises"
            )
    if not isinstance(ok, dict) or _tool_error(ok) is not None:
        return failed(
            f"price_conditions({{'sales_order': '4725'}}) returned {readable(ok, 100)}; expected the "
            "price conditions of order 4725"
        )
    for key, value in PRICE_4725.items():
        if ok.get(key) != value or type(ok.get(key)) is not type(value):
            return failed(
                f"for 4725 the result needs {key!r}: {value!r} (numbers as numbers, the order number as "
                "text); you returned " + readable(ok, 100)
            )
    if len(json.dumps(ok)) > 300:
        return failed(
            f"the 4725 result has {len(json.dumps(ok))} characters; keep it small: what a pricing "
            "question needs"
        )
    bare = [e for e in map(_tool_error, results[1:]) if e is not None and len(e) < 25]
    if bare:
        return failed(
            f"the error {bare[0]!r} is a bare status; say what was wrong, what is expected, and an example"
        )
    held = [
        h
        for e in map(_tool_error, results[1:])
        if e is not None and (h := placeholder_problem(e, "an error"))
    ]
    if held:
        return failed(f"{held[0]}: say what was wrong, what is expected, and an example")
    text = _tool_error(wrong_format)
    if text is None:
        return failed("'SO-4725' must give an error (a dict with an 'error' text), not a result")
    if "SO-4725" not in text or "digit" not in text.lower() or not re.search(r"'\d+'|\"\d+\"", text):
        return failed(
            "the error for 'SO-4725' should quote what was sent, say digits only and give an example "
            "such as '4725'"
        )
    text = _tool_error(missing)
    if text is None or "does not exist or you may not see it" not in text:
        return failed(
            "for 4799 say it 'does not exist or you may not see it': the same words whether it is "
            "missing or hidden, so nothing leaks"
        )
    text = _tool_error(no_prices)
    if text is None:
        return failed("order 4711 has no price conditions: return an error that says so, not an empty result")
    if not any(name in text for name in DESIGNED_TOOLS):
        return failed(
            "4711 has no price conditions: name the tool to use instead (for example "
            "sales_order_get_block_summary, to see why it is blocked)"
        )
    for args, result in (
        ("{}", empty),
        ("{'sales_order': 4725}", number),
        ("'4725' (not an object)", not_object),
    ):
        if _tool_error(result) is None:
            return failed(f"price_conditions({args}) should return an error that says what is expected")
    if "sales_order" not in (_tool_error(empty) or ""):
        return failed("when sales_order is missing, the error should name the field it needs: sales_order")
    return passed("small results for 4725, and every error says what was wrong and what to do next.")


def _bare_handler(arguments: Any) -> dict:
    number = arguments.get("sales_order") if isinstance(arguments, dict) else None
    if type(number) is not str or not number.isdigit():
        return {"error": "400 Bad Request"}
    return dict(PRICE_4725) if number == "4725" else {"error": "404"}


def _padded_handler(arguments: Any) -> dict:
    """Errors long enough to pass for sentences, and nothing in them."""
    number = arguments.get("sales_order") if isinstance(arguments, dict) else None
    if number == "4725":
        return dict(PRICE_4725)
    return {"error": f"TODO lorem ipsum dolor amet placeholder {json.dumps(number)}"}


def _leaky_handler(arguments: Any) -> dict:
    number = arguments.get("sales_order") if isinstance(arguments, dict) else None
    if type(number) is not str or not number.isdigit():
        return {
            "error": f"sales_order must be digits only, for example '4725'; you sent {json.dumps(number)}. "
            "Check it with the user."
        }
    if number == "4725":
        return dict(PRICE_4725)
    if number == "4711":
        return {"error": "Order 4711 has no price conditions; use sales_order_get_block_summary instead."}
    return {"error": f"Sales order {number} was not found in the system."}


def _raising_handler(arguments: Any) -> dict:
    number = arguments["sales_order"]  # KeyError on {}, TypeError on a string
    if number == "4725":
        return dict(PRICE_4725)
    return {"error": f"sales_order {number} does not exist or you may not see it; digits only, e.g. '4725'."}


EXERCISES = [
    Exercise(
        "ex04-approver",
        NOTEBOOK,
        "approver",
        2,
        _judge_approver,
        kind="function",
        probes=APPROVER_PROBES,
        prompt=(
            "Write approver(exposure, credit_limit): 'none' up to the limit (equal included), "
            "'CREDIT_MANAGER' up to 5 % over (exactly 5 % included), 'HEAD_OF_FINANCE' beyond."
        ),
        wrong_answers=(
            WrongAnswer(_approver_percent, "exactly 5 % over"),
            WrongAnswer(_approver_strict, "equal to the limit"),
            WrongAnswer(
                lambda exposure, limit: "none" if exposure <= limit else "HEAD_OF_FINANCE",
                "CREDIT_MANAGER up to 5 % over",
            ),
            WrongAnswer(lambda exposure, limit: "credit manager", "return exactly"),
        ),
    ),
    Exercise(
        "ex04-price-handler",
        NOTEBOOK,
        "price_conditions",
        3,
        _judge_price,
        kind="function",
        probes=PRICE_PROBES,
        prompt="Write the handler price_conditions(arguments) of sales_order_get_price_conditions.",
        wrong_answers=(
            WrongAnswer(_bare_handler, "bare status"),
            WrongAnswer(_padded_handler, "placeholder words"),
            WrongAnswer(_leaky_handler, "does not exist or you may not see it"),
            WrongAnswer(_raising_handler, "never raises"),
            WrongAnswer(lambda arguments: {"sales_order": "4725", "price": "4300/400"}, "needs 'list_price'"),
        ),
    ),
]
