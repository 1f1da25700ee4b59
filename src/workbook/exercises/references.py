"""The grader's registry: grade_id -> the right answer, and inputs drawn at grade time.

This module, like every lesson module, stays with the instructor: the student edition
(``.venv/bin/workbook handout``) leaves it out, and stubs each graded function of ``tooldesign``
named here as "module:name". So nothing a learner's kernel can import holds a reference answer.

For a function exercise, ``generate(rng)`` draws one argument tuple from a ``random.Random`` the
grader seeds with a secret per run; the grader calls the learner's function on the lesson's fixed
probes (the edge cases, judged by the lesson's own judge, hints and all) and on ``draws`` drawn
inputs, whose right results the reference computes in the grader's process. Memorising any probe
a learner could see therefore cannot pass. For a value exercise the reference is the right value,
used only to build the student edition's salted digests; the grader judges with the lesson's judge.

Adding an exercise: one entry here (see docs/AUTHORING.md, "What the grader keeps").
"""

from __future__ import annotations

import math
import pkgutil
import random
import re
import string
from collections.abc import Callable
from functools import cache
from typing import Any

from workbook.exercises.kinds import Grading

WORDS = (
    "order",
    "credit",
    "block",
    "customer",
    "reading",
    "limit",
    "tool",
    "price",
    "the",
    "a",
    "of",
    "to",
    "shipment",
    "carrier",
    "lane",
    "invoice",
    "München",
    "café",
    "naïve",
    "€",
    "42",
    "SHP-2047",
)


def _text(rng: random.Random, most: int = 40) -> str:
    parts = [rng.choice(WORDS) for _ in range(rng.randint(0, most))]
    return "".join(part + rng.choice([" ", " ", ", ", ". ", "\n"]) for part in parts).strip()


# ---------- 00 model_is_told ----------
# Tools drawn here, not the lesson's: each puts one phrase in one place (the name, the description, an
# argument's name, description or enum, the handler's docstring or a comment, or nowhere) and asks for it.

_TOOL_NAMES = ("shipment_find", "invoice_get", "carrier_list", "price_quote", "reading_range", "lane_check")
_ARGUMENTS = ("shipment_id", "carrier", "lane", "since", "limit", "currency", "profile", "page")
_PHRASES = (
    "at most 20 rows",
    "dates as YYYY-MM-DD",
    "only FROZEN goods",
    "amounts in EUR",
    "SHP-2047",
    "sorted by arrival",
    "Meridian Cargo",
    "from the last 90 days",
    "a missing lane means all lanes",
    "cached for an hour",
    "Nordfracht",
    "raises KeyError",
    "company code 1010",
    "rounded to cents",
)
_PLACES = (
    "name",
    "description",
    "argument",
    "argument description",
    "enum",
    "docstring",
    "comment",
    "nowhere",
)


def _told(tool: dict, fact: str) -> bool:
    from workbook.exercises.lesson00 import reference_told

    return reference_told(tool, fact)


def _gen_told(rng: random.Random) -> tuple:
    phrases = rng.sample(_PHRASES, 7)
    fact, place = phrases.pop(), rng.choice(_PLACES)
    name = fact.replace(" ", "_").lower() if place == "name" else rng.choice(_TOOL_NAMES)
    properties: dict[str, dict] = {}
    for argument in rng.sample(_ARGUMENTS, rng.randint(0 if place not in _PLACES[2:5] else 1, 3)):
        properties[argument] = {"type": "string"}
        if rng.random() < 0.7:
            properties[argument]["description"] = f"The {argument.replace('_', ' ')}; {phrases.pop()}."
    first = next(iter(properties), None)
    if place == "argument" and first is not None:
        properties[fact.replace(" ", "_")] = properties.pop(first)
        fact = fact.replace(" ", "_")
    elif place == "argument description" and first is not None:
        properties[first]["description"] = f"The {first.replace('_', ' ')}, {fact}."
    elif place == "enum" and first is not None:
        properties[first]["enum"] = [rng.choice(_ARGUMENTS), fact]
    if place == "name":
        fact = name
    description = f"{rng.choice(['Find', 'Get', 'List'])} {name.split('_')[0]}s; {phrases.pop()}."
    if place == "description":
        description = f"{description[:-1]}, {fact}."
    docstring = fact if place == "docstring" else phrases.pop()
    comment = fact if place == "comment" else phrases.pop()
    schema: dict = {"type": "object", "properties": properties}
    if properties and rng.random() < 0.5:
        schema["required"] = [next(iter(properties))]
    handler = f'def {name}(args):\n    """{docstring}."""\n    # {comment}\n    ...'
    tool = {"name": name, "description": description, "parameters": schema, "handler": handler}
    if rng.random() < 0.3:  # the code-side parts may come in any order, or first
        tool = {"handler": handler, **{k: v for k, v in tool.items() if k != "handler"}}
    return (tool, fact)


# ---------- 01 blocked_orders ----------
# Order tables drawn here, not the course's: its nine orders and their answer are printed in the lesson.

_BLOCK_CODES = {
    "DeliveryBlockReason": ("01", "02", "03", "Z1"),
    "HeaderBillingBlockReason": ("01", "02", "08"),
    "TotalCreditCheckStatus": ("B", "C"),
}
_NOT_SET = ("", "", "", None, "missing")


def _blocked(orders: list[dict]) -> list[str]:
    from workbook.exercises.lesson01 import reference_blocked

    return reference_blocked(orders)


def _gen_blocked(rng: random.Random) -> tuple:
    digits = rng.choice([4, 6, 8, 10])  # one length per table: text order and number order agree
    numbers = rng.sample(range(10 ** (digits - 1), 10**digits), rng.randint(0, 12))
    orders = []
    for number in numbers:
        header: dict = {"SalesOrder": str(number), "SoldToParty": str(rng.randint(10000, 99999))}
        for field, codes in _BLOCK_CODES.items():
            value = rng.choice(codes) if rng.random() < 0.2 else rng.choice(_NOT_SET)
            if value != "missing":
                header[field] = value
        if rng.random() < 0.3:  # a status code outside the block fields is no block
            header["OverallSDProcessStatus"] = rng.choice(["A", "B", "C"])
        orders.append(header)
    if orders and rng.random() < 0.5:  # the same header read twice, a blocked one when there is one
        blocked = [h for h in orders if _blocked([h])]
        orders.append(dict(rng.choice(blocked or orders)))
    rng.shuffle(orders)
    return (orders,)


# ---------- 01 credit_exposure ----------


@cache
def _sap_columns() -> tuple[dict[str, float], dict[str, float]]:
    """Open items per customer and net value per order, read once per grading process (the data is fixed)."""
    from tooldesign.data import sap

    customers, orders = sap.customers(), sap.orders()
    return (
        {str(k): float(v) for k, v in zip(customers["customer"], customers["open_items"])},
        {str(k): float(v) for k, v in zip(orders["SalesOrder"], orders["TotalNetAmount"])},
    )


def _exposure(customer: str, sales_order: str | None) -> float:
    open_items, order_values = _sap_columns()
    total = open_items[customer]
    if sales_order is not None:
        total += order_values[sales_order]
    return total


def _gen_exposure(rng: random.Random) -> tuple:
    from tooldesign.data import sap

    customer = rng.choice(sorted(sap.customers()["customer"]))
    order = rng.choice([None, *sorted(sap.orders()["SalesOrder"])])
    return (customer, order)


def _same_money(got: Any, want: Any) -> bool:
    return type(got) in (int, float) and abs(got - want) < 0.005


# ---------- 02 longest_breach_minutes ----------


def _gen_breach(rng: random.Random) -> tuple:
    limit = rng.choice([-18.0, 8.0, 2.5, 0.0])
    temps = [
        round(limit + rng.choice([-2.0, -0.5, 0.0, 0.1, 0.4, 1.5]) + rng.choice([0.0, 0.0, -0.3, 0.3]), 1)
        for _ in range(rng.randint(0, 30))
    ]
    if temps and rng.random() < 0.5:
        temps[rng.randrange(len(temps))] = limit  # touching the limit is not above it
    return (temps, limit, rng.choice([5, 10, 15, 30, 60]))


def _coldchain_uses() -> None:
    """What the package itself asks of the breach rule: the explorer's summaries, the classic run."""
    from tooldesign.codemode import runs
    from tooldesign.data import coldchain, views

    shipments, readings, limits = coldchain.shipments(), coldchain.readings(), coldchain.limits()
    for number in shipments["shipment_number"]:
        views.shipment_summary(number, shipments, readings, limits)
    runs.classic_run()


# ---------- 02 claims_for ----------
# Shipments, readings and limits drawn here: the course's claims table is printed from lesson 02 on.

_CLASSES = ("FROZEN", "CHILLED", "PHARMA", "ULTRA", "FRESH")


def _claims(shipments: list[dict], readings: list[dict], limits: list[dict]) -> dict[str, int]:
    from workbook.exercises.lesson02 import reference_claims

    return reference_claims(shipments, readings, limits)


def _gen_claims(rng: random.Random) -> tuple:
    limits: list[dict[str, Any]] = [
        {
            "product_class": name,
            "max_temp_c": rng.choice([-25.0, -18.0, 2.0, 8.0, 15.0]),
            "sample_minutes": rng.choice([5, 10, 15, 30]),
            "max_minutes_above": rng.choice([0, 20, 30, 45, 60, 90]),
            "claim_per_hour_eur": rng.choice([50, 95, 120, 240, 500]),
        }
        for name in rng.sample(_CLASSES, rng.randint(1, 3))
    ]
    # never a course shipment (ids 101-124, SHP-2040 to SHP-2063): nothing read off its table can answer
    ids = rng.sample(range(200, 1000), rng.randint(0, 6))
    numbers = rng.sample(range(3000, 10000), len(ids))
    shipments: list[dict] = []
    logs: list[list[dict]] = []
    for shipment_id, number in zip(ids, numbers):
        rule = rng.choice(limits)
        shipments.append(
            {
                "shipment_id": shipment_id,
                "shipment_number": f"SHP-{number}",
                "product_class": rule["product_class"],
            }
        )
        limit: float = rule["max_temp_c"]
        temps: list[float] = []
        length = rng.randint(0, 24)
        while len(temps) < length:
            above = rng.random() < 0.4
            step = rng.choice([0.1, 0.4, 1.5, 3.0]) if above else rng.choice([0.0, -0.5, -2.0])
            temps += [round(limit + step, 1)] * rng.randint(1, 10)  # a run above, or one at or below
        allowed, every = rule["max_minutes_above"], rule["sample_minutes"]
        if allowed and allowed % every == 0 and rng.random() < 0.4:  # a run of exactly the allowance
            at = rng.randint(0, len(temps))
            temps[at:at] = [
                round(limit - 1.0, 1),
                *[round(limit + 0.5, 1)] * (allowed // every),
                round(limit - 1.0, 1),
            ]
        logs.append([{"shipment_id": shipment_id, "temp_c": t} for t in temps])
    readings: list[dict] = []
    while any(logs):  # in time order per shipment, shipments interleaved as a logger sends them
        log = rng.choice([log for log in logs if log])
        readings.append(log.pop(0))
    return (shipments, readings, limits)


def _same_claims(got: Any, want: Any) -> bool:
    return (
        type(got) is dict
        and set(got) == set(want)
        and all(type(got[k]) in (int, float) and got[k] == want[k] for k in want)
    )


# ---------- 04 approver and the price handler ----------


def _approver(exposure: float, credit_limit: float) -> str:
    if exposure <= credit_limit:
        return "none"
    if exposure <= credit_limit * 1.05:
        return "CREDIT_MANAGER"
    return "HEAD_OF_FINANCE"


def _gen_approver(rng: random.Random) -> tuple:
    from tooldesign.tools.designed import approver_for

    while True:
        limit = float(rng.choice([30000, 50000, 80000, rng.randrange(1000, 200000, 500)]))
        exposure = rng.choice(
            [
                limit,
                round(limit * 1.05, 2),
                round(limit * 1.05 + 0.01, 2),
                round(limit + 0.01, 2),
                round(limit - 0.01, 2),
                round(limit * rng.uniform(0.3, 1.6), 2),
            ]
        )
        # Only inputs where the float rule of the lesson and the whole-cents rule of the package agree.
        if _approver(exposure, limit) == approver_for(round(exposure * 100), round(limit * 100)):
            return (exposure, limit)


def _designed_uses() -> None:
    """What the package asks of the approval rule: the credit tool, for every customer and order."""
    from tooldesign.data import sap
    from tooldesign.tools import tool_set

    tool = tool_set("designed")["customer_get_credit_exposure"]
    orders = sap.orders()
    for customer in sorted(sap.customers()["customer"]):
        own = sorted(orders.loc[orders["SoldToParty"] == customer, "SalesOrder"])
        for order in [None, *own]:
            tool.handler({"customer": customer, "sales_order": order})


@cache
def _price_table() -> dict[str, dict]:
    from tooldesign.data import sap

    table = sap.price_conditions()
    return {str(row["sales_order"]): row for row in table.to_dict("records")}


def _price(arguments: Any) -> dict:
    """The handler's facts; the words of its errors are the learner's own (see ``_same_price``)."""
    if not isinstance(arguments, dict) or "sales_order" not in arguments:
        return {"error": "missing"}
    number = arguments["sales_order"]
    if not isinstance(number, str) or not re.fullmatch(r"[0-9]{1,10}", number):
        return {"error": "format", "sent": str(number)}
    if number not in _sap_columns()[1]:
        return {"error": "not visible"}
    prices = _price_table()
    if number not in prices:
        return {"error": "no prices"}
    row = prices[number]
    return {
        "sales_order": number,
        "list_price": float(row["list_price"]),
        "discount": float(row["discount"]),
        "net_price": float(row["net_price"]),
        "currency": row["currency"],
    }


def _same_price(got: Any, want: Any) -> bool:
    if type(got) is not dict:
        return False
    if "error" not in want:
        return all(got.get(k) == v and type(got.get(k)) is type(v) for k, v in want.items())
    text = got.get("error")
    if type(text) is not str or len(text) < 25 or re.match(r"\w+(Error|Exception|Warning): ", text):
        return False  # a raised exception is reported as its text: a handler must not raise
    from workbook.verdicts import placeholder_problem

    if placeholder_problem(text, "an error") is not None:
        return False
    if want["error"] == "not visible":
        return "does not exist or you may not see it" in text
    if want["error"] == "format":
        return want["sent"] in text
    return True


def _gen_price(rng: random.Random) -> tuple:
    from tooldesign.data import sap

    orders = sorted(sap.orders()["SalesOrder"])
    priced = sorted(_price_table())
    kind = rng.choice(["priced", "priced", "order", "unknown", "prefix", "missing"])
    if kind == "missing":  # the model left the argument out, or named it its own way
        return (rng.choice([{}, {"order": rng.choice(priced)}, {"SalesOrder": rng.choice(priced)}]),)
    if kind == "priced":
        return ({"sales_order": rng.choice(priced)},)
    if kind == "order":
        return ({"sales_order": rng.choice(orders)},)
    if kind == "unknown":
        known = set(orders)
        return (
            {
                "sales_order": next(
                    n for n in (str(rng.randint(1000, 99999)) for _ in range(100)) if n not in known
                )
            },
        )
    return ({"sales_order": rng.choice(["SO-", "so ", "#"]) + rng.choice(priced)},)


# ---------- 05 returns_clause ----------

_SENTENCES = (
    "Looks up a carrier's lanes.",
    "Use it when a clerk asks how long a delivery takes.",
    "Not for payments (use payment_search).",
    "Lists the open invoices of one customer.",
    "It only reads.",
    "Creates a draft for a person to approve.",
    "Finds a bin by its label.",
    "Marks an item as nonreturnable.",
    "Finds returning customers.",
    "Not for refunds (use return_order_search).",
)
_RETURN_WORDS = ("returns", "Returns", "RETURNS", "returned", "return", "Returned:")
_RETURN_OBJECTS = (
    "the lanes and their days",
    "data",
    "the result",
    "the draft id and its status",
    "the bin label",
    "the information",
    "two whole numbers",
)


def _returns(description: str) -> list[str]:
    from workbook.exercises.lesson05 import reference_returns_clause

    return reference_returns_clause(description)


def _gen_returns(rng: random.Random) -> tuple:
    parts = rng.sample(_SENTENCES, rng.randint(0, 3))
    if rng.random() < 0.6:
        clause = f"{rng.choice(['It ', ''])}{rng.choice(_RETURN_WORDS)} {rng.choice(_RETURN_OBJECTS)}."
        parts.insert(rng.randint(0, len(parts)), clause[0].upper() + clause[1:])
    return (" ".join(parts),)


def _same_flag(got: Any, want: Any) -> bool:
    from workbook.verdicts import placeholder_problem

    return (
        type(got) is list
        and all(type(m) is str and placeholder_problem(m, "a message") is None for m in got)
        and bool(got) == bool(want)
    )


# ---------- 08 fillers_that_fit ----------


def _gen_fillers(rng: random.Random) -> tuple:
    from workbook.exercises.lesson09 import _sizes

    sizes = _sizes()
    fixed = sizes["preamble"] + sum(v for k, v in sizes.items() if k.startswith("CC_"))
    filler = sizes["one filler"]
    count = rng.randint(0, 11)
    return (fixed + count * filler + rng.choice([0, -1, 1, rng.randint(-filler, filler)]),)


# ---------- 08 access_for ----------
# Written from the lesson's reasons, not from its four tools: a write never goes to programs, bulk data
# nobody reads goes to programs alone, a small result a person asks about stays callable from both sides.


def _access(tool: dict) -> str:
    if tool["writes"]:
        return "direct"
    return "both" if tool["person_asks"] else "code"


def _same_access(got: Any, want: Any) -> bool:
    """Case and spaces forgiven, as the lesson's check forgives them."""
    return type(got) is str and got.strip().lower() == want


_TOOL_NAME_PARTS = (
    ("CC", "WH", "TMS", "QA", "DOCK"),
    ("GET", "LIST", "FILE", "SET", "HOLD", "EXPORT", "CANCEL", "BOOK", "SYNC"),
    ("SHIPMENT", "CARRIER", "LANE", "PALLET", "ALARM", "SENSOR_LOG", "CLAIMS", "SLOT", "INVOICE", "LIMITS"),
)


def _gen_access_tool(rng: random.Random) -> tuple:
    """A tool whose access follows beyond doubt from its description; its name says nothing reliable."""
    code = "_".join(rng.choice(part) for part in _TOOL_NAME_PARTS)
    kind = rng.choice(("write", "write", "bulk", "small"))
    if kind == "write":  # any size, any reader, undoable or not: a write stays out of every program
        chars = rng.choice((rng.randint(20, 600), rng.randint(1_500, 60_000)))
        return (
            {
                "name": code,
                "writes": True,
                "irreversible": rng.random() < 0.5,
                "result_chars": chars,
                "person_asks": rng.random() < 0.5,
            },
        )
    bulk = kind == "bulk"  # bulk data nobody asks to read, or a small result a person may ask about
    chars = rng.randint(1_500, 80_000) if bulk else rng.randint(20, 600)
    return (
        {
            "name": code,
            "writes": False,
            "irreversible": False,
            "result_chars": chars,
            "person_asks": not bulk,
        },
    )


# ---------- 08 tokens_per_correct ----------


def _tokens_per_correct(runs: list[dict]) -> float | None:
    correct = sum(run["answer"] == run["expected"] for run in runs)
    return None if correct == 0 else sum(run["tokens"] for run in runs) / correct


def _gen_runs(rng: random.Random) -> tuple:
    values = [52, 99948, "SY01", "TR01", None, 0, 460]
    return (
        [
            {
                "tokens": rng.randint(100, 3000),
                "answer": rng.choice(values),
                "expected": rng.choice(values[:4]),
            }
            for _ in range(rng.randint(0, 6))
        ],
    )


# ---------- 09 fixed_call ----------
# The order is the one the user named; detail follows the schema's own rule ('concise' unless the user
# needs dates, PO number or items) applied to the request, which the error cannot know.

_NEEDS_DETAIL = re.compile(r"\b(dates?|PO|items?)\b", re.IGNORECASE)


def _fixed_call(request: str, call: dict, error: str) -> dict:
    order = re.search(r"\d+", request)
    return {
        "sales_order": order.group() if order else "",
        "detail": "detailed" if _NEEDS_DETAIL.search(request) else "concise",
    }


_ASKS_SHORT = (
    "Why is order {n} blocked? Just the short answer.",
    "Quick question: what is holding sales order {n}?",
    "Is SO-{n} blocked, and why? One line, please.",
    "What is the block on order #{n}? Keep it brief.",
    "Tell me in a sentence why order {n} cannot ship.",
)
_ASKS_DETAIL = (
    "Why is order {n} blocked? I also need its PO number.",
    "Give me the dates on the block of order {n}.",
    "Which items of sales order #{n} are held, and why?",
    "Is SO-{n} blocked? Send the delivery dates and the items too.",
    "I need the PO number and the dates for the block on order {n}.",
)


def _gen_fixed_call(rng: random.Random) -> tuple:
    """A request, a call the model got wrong for it, and the course dispatcher's real error for that call."""
    from workbook.exercises.lesson11 import rejection

    number = str(rng.randint(1000, 99_999))
    detailed = rng.random() < 0.5
    request = rng.choice(_ASKS_DETAIL if detailed else _ASKS_SHORT).format(n=number)
    orders = [
        f"SO-{number}",
        f"{number} ",
        f"#{number}",
        int(number),
        f"SO{number}",
        f" {number}",
        None,
        number,
    ]
    details = [
        "full",
        "short",
        "verbose",
        "summary",
        "brief",
        "long",
        None,
        "detailed" if detailed else "concise",
    ]
    while True:
        order, detail = rng.choice(orders), rng.choice(details)
        call: dict = {}
        if order is not None:
            call["sales_order"] = order
        if detail is not None:
            call["detail"] = detail
        if rng.random() < 0.2:
            call[rng.choice(("order", "customer", "id"))] = number
        if call != {"sales_order": number, "detail": "detailed" if detailed else "concise"}:
            return (request, call, rejection(call))


# ---------- 10 approve ----------


def _approve(arguments: dict) -> dict:
    """The lesson's rule: deny without a figure in EUR, correct a stated exposure the credit check
    contradicts (compared as a number), allow the rest as proposed."""
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    why = arguments["justification"]
    if not re.search(r"\d[\d,.]*\s*(?:EUR|€)|(?:EUR|€)\s*\d", why, re.IGNORECASE):
        return {"behavior": "deny", "message": "State the exposure and the credit limit in EUR."}
    stated = stated_exposure(why)
    checked = checked_exposure(arguments["sales_order"])
    if stated and checked is not None and stated.value != checked:
        fixed = why[: stated.start] + f"{checked:,.0f}" + why[stated.end :]
        return {"behavior": "allow", "updated_input": {**arguments, "justification": fixed}}
    return {"behavior": "allow"}


def _same_approval(got: Any, want: Any) -> bool:
    """The learner's denial and correction may be worded and formatted their own way; the facts must agree."""
    from tooldesign.dispatch.gate import stated_exposure
    from workbook.exercises.lesson12 import _words_around_figures
    from workbook.verdicts import placeholder_problem

    if type(got) is not dict or got.get("behavior") != want["behavior"]:
        return False
    if want["behavior"] == "deny":
        message = got.get("message")
        return (
            type(message) is str
            and ("EUR" in message or "€" in message)
            and placeholder_problem(message, "the message", least_words=4) is None
        )
    wanted, given = want.get("updated_input"), got.get("updated_input")
    if wanted is None:
        return given is None
    if (
        type(given) is not dict
        or set(given) != set(wanted)
        or given.get("sales_order") != wanted["sales_order"]
    ):
        return False
    why = given.get("justification")
    if type(why) is not str:
        return False
    stated, expected = stated_exposure(why), stated_exposure(wanted["justification"])
    return (
        stated is not None
        and expected is not None
        and stated.value == expected.value
        and _words_around_figures(why) == _words_around_figures(wanted["justification"])
    )


def _gen_approval(rng: random.Random) -> tuple:
    from tooldesign.dispatch.gate import checked_exposure

    number = rng.choice(["4711", "4723", "4725"])
    checked = checked_exposure(number) or 0.0
    exposure = rng.choice(
        [checked, checked, checked + rng.choice([100, 1000, -500]), float(rng.randint(1, 90) * 1000)]
    )
    # Only the two ways the exercise's text defines ("52500" and "52,500" are the same figure): a
    # figure like "52.500" (German thousands) is no question the text asks, and a reader of the text
    # may fairly take it for 52.5.
    written = rng.choice([f"{exposure:,.0f}", f"{exposure:.0f}"])
    limit = f"{rng.choice([30, 50, 80])},000"
    justification = rng.choice(
        [
            f"Exposure {written} EUR against the {limit} EUR limit; paid on time.",
            f"Exposure of € {written}, limit € {limit}.",
            f"Value € {rng.randint(10, 900)} only, no credit issue.",
            "The customer always pays, please release.",
            f"Limit {limit} EUR; exposure: {written} EUR.",
        ]
    )
    return ({"sales_order": number, "justification": justification},)


# ---------- 10 choose_k and catch_all_fields ----------


def _choose_k(rows: list[dict], budget: float) -> int | None:
    fitting = [r for r in rows if r["tokens"] <= budget]
    return max(fitting, key=lambda r: (r["accuracy"], -r["k"]))["k"] if fitting else None


def _gen_rows(rng: random.Random) -> tuple:
    ks = rng.sample(range(1, 13), rng.randint(1, 6))
    rows = [
        {
            "k": k,
            "accuracy": rng.choice([0.7, 0.74, 0.77, 0.8, 0.9]),
            "tokens": 350 + 120 * k + rng.randint(0, 60),
        }
        for k in ks
    ]
    budget = rng.choice([rng.choice(rows)["tokens"], rng.randint(300, 2000)])
    return (rows, budget)


def catch_all_fields(definition: dict) -> list[str]:
    """The names (as spelt) of the free-text fields that choose the operation: the package's lint rule
    gives a yes/no finding per tool, not these names, so it cannot stand in for the answer."""
    from tooldesign.scale.consolidate import CHOICE_WORDS

    fields = []
    for name, spec in definition["parameters"].get("properties", {}).items():
        kinds = spec.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if (
            name.lower() in CHOICE_WORDS
            and "string" in kinds
            and "enum" not in spec
            and "pattern" not in spec
        ):
            fields.append(name)
    return fields


def _same_fields(got: Any, want: Any) -> bool:
    """Field names in any order; exact strings, no repeats."""
    return (
        type(got) is list
        and all(type(name) is str for name in got)
        and len(got) == len(set(got))
        and sorted(got) == sorted(want)
    )


def _gen_definition(rng: random.Random) -> tuple:
    from tooldesign.scale.consolidate import CHOICE_WORDS

    names = [*sorted(CHOICE_WORDS), "customer", "sales_order", "limit", "detail", "note"]
    props = {}
    for _ in range(rng.randint(0, 4)):
        name = rng.choice(names)
        name = rng.choice([name, name.upper(), name.capitalize()])
        spec: dict = {
            "type": rng.choice(["string", "string", ["string", "null"], "integer", ["integer", "null"]])
        }
        extra = rng.choice([None, None, "enum", "pattern"])
        if extra == "enum":
            spec["enum"] = ["credit_exposure", "address_gaps"]
        elif extra == "pattern":
            spec["pattern"] = "^[a-z_]+$"
        props[name] = spec
    tool = "".join(rng.choice(string.ascii_lowercase) for _ in range(6)) + "_run"
    return ({"name": tool, "description": "A tool.", "parameters": {"type": "object", "properties": props}},)


# ---------- 11 MCP: hint defaults, outcomes, approval ----------

_HINT_NAMES = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
_MCP_DEFAULTS = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}


def _with_defaults(tool: dict) -> dict:
    declared = tool.get("annotations") or {}
    return {hint: declared.get(hint, default) for hint, default in _MCP_DEFAULTS.items()}


def _gen_tool(rng: random.Random) -> dict:
    name = rng.choice(
        [
            "get_order",
            "release_request_create",
            "customer_note_add",
            "list_items",
            "delete_items",
            "web_page_fetch",
        ]
    ) + rng.choice(["", "_v2", "_" + str(rng.randint(1, 99))])
    tool: dict = {"name": name, "description": f"The {name} tool.", "inputSchema": {"type": "object"}}
    if rng.random() < 0.8:
        annotations: dict[str, Any] = {
            hint: rng.choice([True, False]) for hint in _HINT_NAMES if rng.random() < 0.5
        }
        if rng.random() < 0.3:
            annotations["title"] = name.replace("_", " ").capitalize()
        tool["annotations"] = annotations
    return tool


def _gen_hints(rng: random.Random) -> tuple:
    return (_gen_tool(rng),)


def _outcome(message: dict) -> str:
    if "error" in message:
        return "protocol error"
    return "tool error" if message["result"].get("isError") is True else "result"


def _gen_outcome(rng: random.Random) -> tuple:
    number = rng.randint(1, 999)
    if rng.random() < 0.3:
        code, text = rng.choice(
            [
                (-32602, "Unknown tool: sales_order_release"),
                (-32601, "Method not found"),
                (-32603, "Internal error"),
            ]
        )
        error: dict = {"code": code, "message": text}
        if rng.random() < 0.4:
            error["data"] = "tools/" + rng.choice(["release", "call"])
        return ({"jsonrpc": "2.0", "id": number, "error": error},)
    text = rng.choice(
        [
            '{"sales_order": "4711", "blocked": true}',
            "Customer 19999 does not exist or you may not see it.",
            '{"errors_found": 0, "note": "no error in the address"}',
            "sales_order takes digits only.",
            "Not found: no error here, just no rows.",
        ]
    )
    result: dict = {"content": [{"type": "text", "text": text}]}
    flag = rng.choice([True, False, None])
    if flag is not None:
        result["isError"] = flag
    return ({"jsonrpc": "2.0", "id": number, "result": result},)


def _needs_approval(tool: dict, server_trusted: bool) -> bool:
    return not server_trusted or (tool.get("annotations") or {}).get("readOnlyHint") is not True


def _gen_approval_tool(rng: random.Random) -> tuple:
    return (_gen_tool(rng), rng.choice([True, False]))


# ---------- 12 the loop: fields kept, a cut at whole records, a page ----------


def _lesson16(name: str) -> Any:
    return pkgutil.resolve_name(f"workbook.exercises.lesson16:{name}")


def _keep_fields(questions: list[str]) -> list[str]:
    return _lesson16("_keep_fields")(questions)


def _gen_keep(rng: random.Random) -> tuple:
    return _lesson16("_gen_keep")(rng)


def _same_kept_fields(got: Any, want: Any) -> bool:
    return _lesson16("_same_fields")(got, want)


def _cut(rows: list, limit: int) -> dict:
    return _lesson16("_cut")(rows, limit)


def _gen_cut(rng: random.Random) -> tuple:
    return _lesson16("_gen_cut")(rng)


def _same_cut(got: Any, want: Any) -> bool:
    return _lesson16("_same_cut")(got, want)


def _page(rows: list, cursor: int, size: int) -> dict:
    return _lesson16("_page")(rows, cursor, size)


def _gen_page(rng: random.Random) -> tuple:
    return _lesson16("_gen_page")(rng)


def _same_page(got: Any, want: Any) -> bool:
    return _lesson16("_same_page")(got, want)


def _loop_uses() -> None:
    """What the package asks of truncate_text: the truncating carrier in the measured runs, the slider,
    and the order list notebook 16 shows cut at 1,000 characters."""
    from tooldesign.loop import measure, run_task, shrink, widgets

    widgets._run.cache_clear()  # a warm cache would hide calls from the recorder, and the edition starts cold
    measure.techniques()
    low, high, step = widgets.LIMITS
    for limit in range(low, high + 1, step):  # every position of the slider, with and without the note
        for note in (True, False):
            widgets.readout(limit, note)
    for exchange in run_task("mirror").exchanges:
        shrink.truncate_text(exchange.result, 1000)


# ---------- 13 results that carry instructions ----------


def _lesson17(name: str) -> Any:
    return pkgutil.resolve_name(f"workbook.exercises.lesson17:{name}")


def _as_data(text: str, source: str) -> dict:
    return _lesson17("_as_data")(text, source)


def _gen_as_data(rng: random.Random) -> tuple:
    return _lesson17("_gen_as_data")(rng)


def _same_as_data(got: Any, want: Any) -> bool:
    return _lesson17("_same_as_data")(got, want)


def _flagged(value: Any, marker: str) -> list[str]:
    return _lesson17("_flagged")(value, marker)


def _gen_flag(rng: random.Random) -> tuple:
    return _lesson17("_gen_flag")(rng)


def _same_paths(got: Any, want: Any) -> bool:
    return _lesson17("_same_paths")(got, want)


def _lesson_uses(stem: str) -> Callable[[], None]:
    """What a lesson asks of a graded neighbour of the package: its own code cells, run here, so the
    edition's stub answers exactly those calls and stays in step with the lesson."""

    def uses() -> None:
        import contextlib
        import io

        import nbformat

        from workbook import SOLUTIONS_DIR

        # The course's own solution notebook: read plainly (workbook.release, which explains a damaged
        # learner file, looks exercises up and so sits above this registry).
        namespace: dict = {"__name__": f"__lesson{stem[:2]}__"}
        for cell in nbformat.read(SOLUTIONS_DIR / f"{stem}.ipynb", as_version=4).cells:
            if cell.cell_type != "code" or cell.source.lstrip().startswith(("%", "!")):
                continue
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(cell.source, namespace)  # the course's own lesson cells
            except Exception:  # a cell that shows a widget or a source needs no answer from the stub
                pass
        import matplotlib.pyplot as plt

        plt.close("all")  # the lesson's plots were drawn for nobody: let them go

    return uses


def _pager_uses() -> None:
    """What the package and notebook 16 ask of page_of: the paginating carriers in the measured runs,
    and the first page the lesson shows."""
    _loop_uses()
    _lesson_uses("16_results_across_the_loop")()


def _injection_uses() -> None:
    """What the package asks of quoted and free_text_paths: the noted sets, the measured outcomes and
    defences, the lint rows and the canary lint notebook 17 runs."""
    from tooldesign.injection import attack, lint_rule, measure, reader, results
    from tooldesign.lint import lint

    measure.outcomes.cache_clear()  # a warm cache would hide calls from the recorder, and the edition starts cold
    for variant in results.VARIANTS:
        results.noted_set(variant)
        for who in reader.READERS:
            for gate in (False, True):
                measure.outcomes(variant, who, gate)
    measure.defence_rows()
    measure.lint_rows()
    for variant in results.VARIANTS:
        lint(results.noted_set(variant, notes=lint_rule.canary_notes()), extra=[lint_rule.FREE_TEXT_RULE])
    for note in attack.seeded_notes():
        results.noted_set("quoted", notes=[*attack.clean_notes(), note])


def _value(module: str, name: str) -> Any:
    """A value defined in a lesson module, looked up when the student edition is built."""
    return lambda: pkgutil.resolve_name(f"workbook.exercises.{module}:{name}")


def _called(module: str, name: str) -> Any:
    return lambda: pkgutil.resolve_name(f"workbook.exercises.{module}:{name}")()


def _lesson18(name: str) -> Any:
    """A lesson-18 function, looked up when called (the registry imports no lesson at load time)."""
    return lambda *args: pkgutil.resolve_name(f"workbook.exercises.lesson18:{name}")(*args)


def _agent_loop(*args: Any) -> Any:
    """Lesson 19's answer key: the right loop, built where the student edition never ships it."""
    return pkgutil.resolve_name("tooldesign.capstone.reference:reference_loop")()(*args)


def _lesson19(name: str) -> Any:
    return lambda *args: pkgutil.resolve_name(f"workbook.exercises.lesson19:{name}")(*args)


REFERENCES: dict[str, Grading] = {
    "ex00-model-is-told": Grading(_told, _gen_told),
    "ex01-blocked-orders": Grading(_blocked, _gen_blocked),
    "ex01-credit-exposure": Grading(_exposure, _gen_exposure, same=_same_money),
    "ex02-longest-breach": Grading(
        "tooldesign.data.coldchain:longest_breach_minutes", _gen_breach, package_uses=_coldchain_uses
    ),
    "ex02-claims": Grading(
        _claims, _gen_claims, same=_same_claims, stubs=("tooldesign.data.coldchain:claims",)
    ),
    "ex03-design-fixes": Grading(_value("lesson03", "DESIGN_KEY")),
    "ex04-approver": Grading(
        _approver,
        _gen_approver,
        stubs=("tooldesign.tools.designed:approver_for",),
        package_uses=_designed_uses,
    ),
    "ex04-price-handler": Grading(_price, _gen_price, same=_same_price, public=True),
    "ex05-predict": Grading(_called("lesson05", "draft_rules")),
    "ex05-returns-rule": Grading(_returns, _gen_returns, same=_same_flag, public=True),
    "ex06-own-requests": Grading(public=True),  # any two fair requests pass: the judge holds no key
    "ex07-price-tool": Grading(public=True),
    "ex07-broken": Grading(public=True),
    "ex08-descriptions": Grading(public=True),
    "ex09-access": Grading(_access, _gen_access_tool, same=_same_access),
    "ex09-fillers": Grading("tooldesign.codemode.sizelimit:fillers_that_fit", _gen_fillers, draws=6),
    # The judge parses the call and its hints name both indexes, as the prompt does: no key to hide.
    "ex10-example-call": Grading(_value("lesson10", "EXAMPLE_CALL"), public=True),
    "ex10-swapped-m3": Grading(_value("lesson10", "SWAPPED_M3")),
    "ex10-tokens-per-correct": Grading(_tokens_per_correct, _gen_runs),
    "ex10-fifth-level": Grading(_value("lesson10", "FIFTH")),
    "ex11-boundary-clause": Grading(public=True),
    "ex11-fixed-call": Grading(_fixed_call, _gen_fixed_call),
    # The lesson's example policy is this exercise's answer in another shape: the edition stubs it.
    "ex12-approval": Grading(
        _approve,
        _gen_approval,
        same=_same_approval,
        public=True,
        stubs=("tooldesign.dispatch.gate:release_policy",),
        package_uses=_lesson_uses("12_writes_errors_and_tool_choice"),
    ),
    "ex13-loss-per-tool": Grading(_called("lesson13", "loss_key")),
    "ex13-choose-k": Grading(_choose_k, _gen_rows),
    "ex13-catch-all": Grading(catch_all_fields, _gen_definition, same=_same_fields, public=True),
    "ex14-hint-defaults": Grading(_with_defaults, _gen_hints),
    "ex14-outcome": Grading(_outcome, _gen_outcome),
    "ex15-approval": Grading(_needs_approval, _gen_approval_tool),
    "ex16-keep-fields": Grading(_keep_fields, _gen_keep, same=_same_kept_fields),
    # The note is in the learner's words: the judge checks properties, so it ships; drawn inputs compare facts.
    "ex16-cut-records": Grading(_cut, _gen_cut, same=_same_cut, public=True),
    # The package's pager is this exercise's answer in another shape: the edition stubs it.
    "ex16-page": Grading(
        _page,
        _gen_page,
        same=_same_page,
        stubs=("tooldesign.loop.shrink:page_of",),
        package_uses=_pager_uses,
    ),
    "ex17-as-data": Grading(
        _as_data,
        _gen_as_data,
        same=_same_as_data,
        public=True,
        stubs=("tooldesign.injection.results:quoted",),
        package_uses=_injection_uses,
    ),
    # Paths in any order pass, and the judge's hints name the expected paths: it ships as it is.
    "ex17-flag-free-text": Grading(
        _flagged,
        _gen_flag,
        same=_same_paths,
        public=True,
        stubs=("tooldesign.injection.lint_rule:free_text_paths",),
        package_uses=_injection_uses,
    ),
    "ex17-must-catch": Grading(_called("lesson17", "_measured_catch")),
    # The judge reads the pairing rule itself (no answer key), so it ships; drawn inputs compare with the reference.
    "ex18-answer-turn": Grading(
        _lesson18("_answer_turn"), _lesson18("_gen_answer"), same=_lesson18("_same_answer"), public=True
    ),
    "ex18-chat-tool": Grading(_lesson18("_to_chat_tool"), _lesson18("_gen_convert")),
    "ex18-cache-breaks": Grading(_value("lesson18", "BREAKS")),
    # The judge reads the wire's rules from the scripts (no answer key), so it ships; drawn runs compare with the reference.
    "ex19-agent-loop": Grading(_agent_loop, _lesson19("_gen_loop"), same=_lesson19("_same_run"), public=True),
}


def same_plain(got: Any, want: Any) -> bool:
    """Plain equality with exact kinds: numbers within a hair (an integral float is its int), bools as bools."""
    if type(want) is bool or want is None:
        return type(got) is type(want) and got == want
    if type(want) in (int, float):
        if type(got) is int and type(want) is int:
            return got == want  # exact: a 400-digit integer has no float to be close to
        try:
            return type(got) in (int, float) and math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)
        except OverflowError:  # an integer beyond any float against a float: not the right number
            return False
    if type(want) is list:
        return type(got) is list and len(got) == len(want) and all(map(same_plain, got, want))
    if type(want) is dict:
        return type(got) is dict and set(got) == set(want) and all(same_plain(got[k], want[k]) for k in want)
    return type(got) is type(want) and got == want
