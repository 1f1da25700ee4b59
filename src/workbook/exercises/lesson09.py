"""Notebook 09: dispatch and errors. A boundary clause, a call fixed from its error, a policy check."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from workbook.checks import failed, passed, placeholder_problem, probe_error
from workbook.exercises import Exercise, WrongAnswer

NOTEBOOK = "09_dispatch_and_errors"
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


FIX_PROBES = _fix_probes()
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


# ---------- exercise 3: the policy check in front of a draft ----------

# Every probe passes the release schema: the dispatcher asks the policy check about nothing else.
GOOD = "Exposure of 52,500 EUR sits 5% above the 50,000 EUR limit; always paid on time."
APPROVAL_PROBES = (
    (
        {
            "sales_order": "4725",
            "justification": "The customer says the price dispute is settled, please release.",
        },
    ),
    ({"sales_order": "4711", "justification": GOOD},),
    (
        {
            "sales_order": "4711",
            "justification": "Exposure 50,700 EUR is just over the 50,000 EUR limit; always paid on time.",
        },
    ),
    ({"sales_order": "4723", "justification": "Postal code fixed; order value 640 EUR, no credit issue."},),
    (
        {
            "sales_order": "4723",
            "justification": "Value € 640, exposure € 4,740, the address is complete now.",
        },
    ),
    (
        {
            "sales_order": "4725",
            "justification": "Net 3,900 EUR after the agreed discount; exposure 12,000 EUR, far "
            "below the 80,000 EUR limit.",
        },
    ),
    (
        {
            "sales_order": "4711",
            "justification": "Exposure: 52500 EUR, 5% over the 50,000 EUR limit, paid on time.",
        },
    ),
)
# What the judge wants: "deny", "allow", or the exposure (EUR) the corrected justification must state.
APPROVAL_EXPECTED: tuple[str | float, ...] = ("deny", "allow", 52500.0, "allow", "allow", 15900.0, "allow")
_NUMBER = re.compile(r"\d[\d,.]*\d|\d")


def _words_around_figures(text: str) -> str:
    """The justification with every number masked: what an edit of one figure must leave alone."""
    return " ".join(_NUMBER.sub("#", text).split())


def _judge_edit(call: str, args: dict, updated: Any, want: float) -> str | None:
    """Why an allow-with-changes answer is wrong, or None if it is right."""
    from tooldesign.dispatch.gate import stated_exposure
    from tooldesign.dispatch.validate import problems
    from tooldesign.tools import tool_set

    figure = f"{want:,.0f} EUR"
    if type(updated) is not dict:
        return (
            f"{call}: the stated exposure is not what the credit check reports ({figure}); allow it with "
            "updated_input, the whole input with that figure corrected"
        )
    if set(updated) != set(args):
        return f"{call}: updated_input replaces the whole input: keep sales_order and every field, change the figure"
    refused = problems(tool_set("designed")["release_request_create"], updated)
    if refused:
        return f"{call}: the dispatcher would refuse your edit before it runs ({refused[0].sentence()})"
    if updated["sales_order"] != args["sales_order"]:
        return f"{call}: the order is right; keep sales_order {args['sales_order']!r} and correct only the figure"
    why = updated["justification"]
    stated = stated_exposure(why) if type(why) is str else None
    if stated is None or stated.value != want:
        return f"{call}: the corrected justification should state the exposure as {figure}, the credit check's figure"
    if _words_around_figures(why) != _words_around_figures(args["justification"]):
        return f"{call}: change only the exposure figure and keep the rest of the justification as it was"
    return None


def _judge_approval(results: Any) -> object:
    for (args,), got, want in zip(APPROVAL_PROBES, results, APPROVAL_EXPECTED):
        call = f"release_check({args})"
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}")
        if type(got) is not dict or got.get("behavior") not in ("allow", "deny"):
            return failed(f"{call} returned {got!r}; return a dict with behavior 'allow' or 'deny'")
        if want == "deny":
            if got["behavior"] != "deny":
                return failed(f"{call} was allowed, but its justification has no figure in EUR: deny it")
            message = got.get("message")
            if type(message) is not str or not message.strip():
                return failed(f"{call}: a denial needs a message the model reads, or it is left guessing")
            if "EUR" not in message and "€" not in message:
                return failed(
                    f"{call}: say in the message what the credit desk needs (the figures in EUR), so the "
                    "model can fix the request"
                )
            held = placeholder_problem(message, "the denial's message", least_words=4)
            if held:
                return failed(f"{call}: {held}; the model reads it to fix the request")
            continue
        if got["behavior"] != "allow":
            return failed(f"{call} was denied, but it names a figure in EUR: allow it")
        updated = got.get("updated_input")
        if want == "allow":
            if updated is not None:
                return failed(
                    f"{call} needs no change (any exposure it states is the credit check's, compared as a "
                    "number, not as text): allow it as proposed, without updated_input"
                )
            continue
        wrong = _judge_edit(call, args, updated, float(want))  # neither "deny" nor "allow": a figure
        if wrong:
            return failed(wrong)
    return passed("the policy check allows, corrects the figure and denies exactly as the rule says.")


def _figure_fix(arguments: dict, checked: float | None) -> str:
    """A helper of the wrong answers below: the justification with the stated exposure replaced."""
    from tooldesign.dispatch.gate import stated_exposure

    why = arguments["justification"]
    stated = stated_exposure(why)
    # The wrong answers call this only for a known order whose justification states a figure.
    assert stated is not None and checked is not None
    return why[: stated.start] + f"{checked:,.0f}" + why[stated.end :]


def _has_figure(text):
    return re.search(r"\d\s*(EUR|€)|(EUR|€)\s*\d", text)


def _allow_everything(arguments):
    return {"behavior": "allow"}


def _silent_denial(arguments):
    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny"}
    return {"behavior": "allow"}


def _right_but_denies_with(message):
    """The rule done right, except that a denial says only ``message``."""

    def approve(arguments):
        from tooldesign.dispatch.gate import checked_exposure, stated_exposure

        if not _has_figure(arguments["justification"]):
            return {"behavior": "deny", "message": message}
        checked = checked_exposure(arguments["sales_order"])
        stated = stated_exposure(arguments["justification"])
        if stated and stated.value != checked:
            return {
                "behavior": "allow",
                "updated_input": {**arguments, "justification": _figure_fix(arguments, checked)},
            }
        return {"behavior": "allow"}

    return approve


def _no_correction(arguments):
    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    return {"behavior": "allow"}


def _drops_sales_order(arguments):
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.value != checked:
        return {"behavior": "allow", "updated_input": {"justification": _figure_fix(arguments, checked)}}
    return {"behavior": "allow"}


def _compares_text(arguments):
    """Looks for the figure as the credit desk writes it, so "52500 EUR" counts as wrong."""
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.text != f"{checked:,.0f}":
        return {
            "behavior": "allow",
            "updated_input": {**arguments, "justification": _figure_fix(arguments, checked)},
        }
    return {"behavior": "allow"}


def _appends_a_note(arguments):
    """Adds the right figure after the wrong one instead of correcting it."""
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.value != checked:
        why = f"{arguments['justification']} Credit check: exposure {checked:,.0f} EUR."
        return {"behavior": "allow", "updated_input": {**arguments, "justification": why}}
    return {"behavior": "allow"}


def _rewrites_the_order(arguments):
    """Corrects the figure but writes the order number the way the paper form does: the schema refuses it."""
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.value != checked:
        return {
            "behavior": "allow",
            "updated_input": {
                "sales_order": "SO-" + arguments["sales_order"],
                "justification": _figure_fix(arguments, checked),
            },
        }
    return {"behavior": "allow"}


EXERCISES = [
    Exercise(
        "ex09-boundary-clause",
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
        "ex09-fixed-call",
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
    Exercise(
        "ex09-approval",
        NOTEBOOK,
        "release_check",
        3,
        _judge_approval,
        kind="function",
        probes=APPROVAL_PROBES,
        prompt="Write release_check(arguments): the policy check (code) in front of release_request_create, by the "
        "stated rule: "
        "deny without figures in EUR, correct a stated exposure the credit check contradicts, allow the "
        "rest.",
        wrong_answers=(
            WrongAnswer(_allow_everything, "deny it"),
            WrongAnswer(_silent_denial, "needs a message"),
            WrongAnswer(_right_but_denies_with("EUR"), "in words"),
            WrongAnswer(_right_but_denies_with("TODO lorem ipsum EUR"), "placeholder words"),
            WrongAnswer(_right_but_denies_with("xxx EUR yyy zzz"), "placeholder words"),
            WrongAnswer(_no_correction, "credit check reports"),
            WrongAnswer(_drops_sales_order, "whole input"),
            WrongAnswer(_compares_text, "compared as a number"),
            WrongAnswer(_appends_a_note, "state the exposure as 52,500 EUR"),
            WrongAnswer(_rewrites_the_order, "refuse your edit"),
        ),
    ),
]
