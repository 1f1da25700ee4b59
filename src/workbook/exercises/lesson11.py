"""Notebook 11: boundaries and validation at dispatch. A boundary clause, and a call fixed from its error."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from workbook.exercises.kinds import Exercise, LazyProbes, WrongAnswer
from workbook.verdicts import failed, passed, placeholder_problem, probe_error

NOTEBOOK = "11_dispatch_and_errors"
TARGET = "Give me the full picture on 10023."  # a request the clause is written for


# ---------- exercise 1: a boundary clause ----------


def _judge_clause(answer: Any) -> object:
    """Judged by structure, whatever words it uses: the offline stand-ins cannot measure a clause."""
    from tooldesign.dispatch import boundary as b

    if type(answer) is not str or not answer.strip():
        return failed("orders_clause should be one sentence (a string) to end search_orders' description")
    verdict = b.clause_verdict(answer, b.ORDERS)
    words = re.sub(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", " ", answer)  # the tool names are not its words
    problem = placeholder_problem(words, "the clause, besides the tool it names", least_words=4)
    if verdict.problems:
        first = verdict.problems[0]
        if problem and "placeholder" in problem and "keyword list" in first:
            return failed(
                problem
            )  # "lorem ipsum dolor" joins no words either, but the plainer hint is this one
        return failed(first)
    if problem:
        return failed(problem)
    if not _PARTY.search(words):
        return failed(
            "say which requests go to search_customers in words about the customer: the requests about "
            "the customer as a whole, not about its orders"
        )
    return passed(
        f"the clause hands requests to {verdict.neighbour}, says which ones, and takes {verdict.words} "
        "words. Offline that is all that can be judged; a real model shows what it does."
    )


# What a clause about the customer as a whole speaks of, in some word: the customer, the party, its account.
_PARTY = re.compile(
    r"\b(customer|client|part(y|ies)|account|profile|buyer|compan(y|ies)|firm|business|partner|"
    r"master|contact|who)",
    re.IGNORECASE,
)


# ---------- exercise 2: a call fixed from its error and the user's request ----------

FIX_TOOL = "sales_order_get_block_summary"
FIX_FIELDS = ("sales_order", "detail")
# The request behind the lesson's rejected call (the notebook shows it beside the error).
LESSON_REQUEST = "Why is order 4725 blocked? The short answer is enough."


@cache
def _dispatcher() -> Any:
    from tooldesign.dispatch import Dispatcher
    from tooldesign.tools import tool_set
    from tooldesign.tools.designed import EXAMPLES

    return Dispatcher(tool_set("designed"), examples=EXAMPLES)


def rejection(call: dict, tool: str = FIX_TOOL) -> str:
    """What the course's dispatcher answers a call the schema refuses (its error text, as the model reads it)."""
    from tooldesign.dispatch import ToolCall

    result = _dispatcher().dispatch(ToolCall(tool, call, "toolu_fix"))
    if not result.is_error:
        raise ValueError(f"{call!r} passes the schema of {tool}; a rejected call is needed")
    return str(result.content)


def _fix_probes() -> tuple[tuple[str, dict, str], ...]:
    cases = (
        (LESSON_REQUEST, {"sales_order": "SO-4725", "detail": "full"}),
        (
            "Why is sales order 4731 blocked? I need its PO number too.",
            {"sales_order": "4731", "detail": "full"},
        ),
        ("Is SO-4734 held? Keep it brief.", {"sales_order": 4734, "detail": "concise"}),
        ("Give me the dates and items on the block of order 4723.", {"detail": "detailed"}),
        ("What is holding order 4711? One line, please.", {"sales_order": "4711"}),
        (
            "Which items of order #4732 are held, and why?",
            {"sales_order": "#4732", "detail": "short", "order": "4732"},
        ),
        (
            "Why can order 4733 not ship? Send the delivery dates.",
            {"sales_order": "4733 ", "detail": "summary"},
        ),
    )
    return tuple((request, call, rejection(call)) for request, call in cases)


FIX_PROBES = LazyProbes(_fix_probes)
# What each probe's user asked for: the order (digits) and whether they need dates, PO number or items.
_FIX_WANTS = (
    ("4725", "concise"),
    ("4731", "detailed"),
    ("4734", "concise"),
    ("4723", "detailed"),
    ("4711", "concise"),
    ("4732", "detailed"),
    ("4733", "detailed"),
)


def _fix_problem(got: Any, want: tuple[str, str]) -> str | None:
    """What is wrong with one corrected call, in the words of the error's rule; None when it is right."""
    if type(got) is not dict:
        return "return a dict of arguments, like the call the dispatcher rejected"
    extra = sorted(set(got) - set(FIX_FIELDS))
    if extra:
        return (
            f"{', '.join(map(str, extra))} is not a field of {FIX_TOOL}; the error lists the fields it takes"
        )
    missing = [field for field in FIX_FIELDS if field not in got]
    if missing:
        return (
            f"the call has no {missing[0]}, and the error says it is required: the user's request says what "
            "goes there"
        )
    order, detail = got["sales_order"], got["detail"]
    if type(order) is not str:
        return "sales_order is a string of digits, as the error says, not a number"
    if order != want[0]:
        if re.sub(r"\D", "", order) == want[0]:
            return "sales_order takes digits only, as the error says: drop the 'SO-' prefix, the '#' and any spaces"
        if order == "4711":
            return "4711 is the error's example, there to show the shape: the order is the one the user asked about"
        return "sales_order must be the order the user asked about, in digits"
    if detail not in ("concise", "detailed"):
        return "detail must be one of the values the error lists: 'concise' or 'detailed'"
    if detail != want[1]:
        if want[1] == "detailed":
            return (
                "the error's rule is 'concise' unless you need dates, PO number or items, and this user asks "
                "for one of them: read the request"
            )
        return "this user asks for no dates, PO number or items, so the error's rule gives 'concise'"
    return None


def _judge_fixed_call(results: Any) -> object:
    for (request, call, _error), got, want in zip(FIX_PROBES, results, _FIX_WANTS):
        where = f"for {request!r} (the rejected call {call})"
        if (raised := probe_error(got)) is not None:
            return failed(f"fixed_call raised {raised} {where}")
        problem = _fix_problem(got, want)
        if problem:
            return failed(f"{where}: {problem}")
    return passed(
        f"right for all {len(FIX_PROBES)} rejected calls: the error says what the schema expects, the request "
        "what the user wants, and the corrected call needs both."
    )


# Mistakes a learner's fixed_call may make.
def _types_the_printed_answer(request: str, call: dict, error: str) -> dict:
    return {"sales_order": "4725", "detail": "concise"}


def _sends_the_example(request: str, call: dict, error: str) -> dict:
    return json.loads(error.split("Example: ", 1)[1].rsplit(". Correct", 1)[0])


def _always_concise(request: str, call: dict, error: str) -> dict:
    return {"sales_order": re.sub(r"\D", "", request), "detail": "concise"}


def _keeps_the_order_as_sent(request: str, call: dict, error: str) -> dict:
    detail = "detailed" if re.search(r"\b(dates?|PO|items?)\b", request) else "concise"
    return {"sales_order": call.get("sales_order", ""), "detail": detail}


def _order_as_a_number(request: str, call: dict, error: str) -> dict:
    detail = "detailed" if re.search(r"\b(dates?|PO|items?)\b", request) else "concise"
    return {"sales_order": int(re.sub(r"\D", "", request)), "detail": detail}


def _order_from_the_call_only(request: str, call: dict, error: str) -> dict:
    detail = "detailed" if re.search(r"\b(dates?|PO|items?)\b", request) else "concise"
    return {"sales_order": re.sub(r"\D", "", str(call.get("sales_order", ""))), "detail": detail}


def _keeps_extra_fields(request: str, call: dict, error: str) -> dict:
    detail = "detailed" if re.search(r"\b(dates?|PO|items?)\b", request) else "concise"
    return {**call, "sales_order": re.sub(r"\D", "", request), "detail": detail}


def _detail_from_the_call(request: str, call: dict, error: str) -> dict:
    detail = call.get("detail") if call.get("detail") in ("concise", "detailed") else "concise"
    return {"sales_order": re.sub(r"\D", "", request), "detail": detail}


EXERCISES = [
    Exercise(
        "ex11-boundary-clause",
        NOTEBOOK,
        "orders_clause",
        2,
        _judge_clause,
        prompt="Write a boundary clause for search_orders that hands the requests about a customer as a whole "
        "to search_customers: name the neighbour exactly, say which requests go there, stay short.",
        wrong_answers=(
            WrongAnswer("Use it for the full picture on a customer.", "exactly as it is called"),
            WrongAnswer(
                "It covers the full picture on a customer (use search_customers).", "claims the requests"
            ),
            WrongAnswer(
                "Not for the full picture on a customer (use customer_search).", "not a tool in this set"
            ),
            WrongAnswer(
                "Not for the full picture on a customer (use search_orders).", "names search_orders itself"
            ),
            WrongAnswer("Not for other requests (use search_customers).", "say which requests"),
            WrongAnswer("Not for the full picture on 10023 (use search_customers).", "particular records"),
            WrongAnswer(
                "Not for customer, account, profile, full picture, everything, details, who, behind, "
                "name, number (use search_customers).",
                "keyword list",
            ),
            WrongAnswer(
                "Not for customer account profile picture everything details (use search_customers).",
                "keyword list",
            ),
            WrongAnswer(
                "Not for customer or account or profile or picture or details (use search_customers).",
                "keyword list",
            ),
            WrongAnswer(
                "Not for a customer as a whole (use search_customers): customer account profile picture "
                "everything name number full.",
                "keyword list",
            ),
            WrongAnswer(
                "Not for a customer as a whole, their account, their profile, who they are, where they "
                "are based, what they are called, how they pay, who their contacts are, what their "
                "credit limit is or anything else about them as a party (use search_customers).",
                "at most 40 words",
            ),
            # Degenerate: a short keyword list, placeholder words, a clause about nothing in particular.
            WrongAnswer(
                "Not for customer, account, profile, everything (use search_customers).", "keyword list"
            ),
            WrongAnswer("Not for customer, account or profile (use search_customers).", "keyword list"),
            WrongAnswer("Not for customers, accounts, profiles (use search_customers).", "keyword list"),
            WrongAnswer("Not for lorem ipsum dolor amet (use search_customers).", "placeholder words"),
            WrongAnswer("Not for foo or baz requests (use search_customers).", "placeholder words"),
            WrongAnswer("Not for xxx yyy (use search_customers).", "placeholder words"),
            WrongAnswer("Not for TODO (use search_customers).", "say which requests"),
            WrongAnswer(
                "Not for the weather forecast at the weekend (use search_customers).", "about the customer"
            ),
        ),
    ),
    Exercise(
        "ex11-fixed-call",
        NOTEBOOK,
        "fixed_call",
        1,
        _judge_fixed_call,
        kind="function",
        probes=FIX_PROBES,
        prompt="Write fixed_call(request, call, error): the arguments to send after a rejected call, from what "
        "the error says the schema expects and what the user's request asks for.",
        wrong_answers=(
            WrongAnswer(_types_the_printed_answer, "the order the user asked about"),
            WrongAnswer(_sends_the_example, "the error's example"),
            WrongAnswer(_always_concise, "asks for one of them"),
            WrongAnswer(_keeps_the_order_as_sent, "digits only"),
            WrongAnswer(_order_as_a_number, "not a number"),
            WrongAnswer(_order_from_the_call_only, "the order the user asked about"),
            WrongAnswer(_keeps_extra_fields, "not a field"),
            WrongAnswer(_detail_from_the_call, "asks for one of them"),
        ),
    ),
]
