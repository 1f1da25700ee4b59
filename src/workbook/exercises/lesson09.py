"""Notebook 09: dispatch and errors. A boundary clause, a call fixed from its error, an approval callback."""
from __future__ import annotations

import re
from typing import Any

from workbook.checks import failed, passed
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
    if verdict.problems:
        return failed(verdict.problems[0])
    return passed(f"the clause hands requests to {verdict.neighbour}, says which ones, and takes {verdict.words} "
                  "words. Offline that is all that can be judged; a real model shows what it does.")


# ---------- exercise 2: a call fixed from its error ----------

def _judge_fixed_call(answer: Any) -> object:
    if type(answer) is not dict:
        return failed("fixed_call should be a dict of arguments, like the one the dispatcher rejected")
    extra = sorted(set(answer) - {"sales_order", "detail"})
    if extra:
        return failed(f"{', '.join(extra)} is not a field of sales_order_get_block_summary; the error lists "
                      "the fields it takes")
    order, detail = answer.get("sales_order"), answer.get("detail")
    if type(order) is not str:
        return failed("sales_order is a string of digits, '4725', not a number")
    if order != "4725":
        if order.strip().upper().replace("SO-", "").replace("SO", "") == "4725":
            return failed("sales_order takes digits only: drop the 'SO-' prefix and any spaces")
        return failed("keep the same order: 4725 is the one the user asked about")
    if detail not in ("concise", "detailed"):
        return failed("detail must be one of 'concise', 'detailed', as the error says; the user wants the short "
                      "answer")
    if detail != "concise":
        return failed("the user asked for the short answer: 'concise'")
    return passed("the corrected call passes the schema: read the error, change what it names, call again.")


# ---------- exercise 3: the approval callback ----------

GOOD = "Exposure of 52,500 EUR sits 5% above the 50,000 EUR limit; always paid on time."
APPROVAL_PROBES = (
    ({"sales_order": "4725", "justification": "The customer says the price dispute is settled, please release."},),
    ({"sales_order": "4711", "justification": GOOD},),
    ({"sales_order": "SO-4711", "justification": GOOD},),
    ({"sales_order": " 4723 ", "justification": "Postal code fixed; order value 640 EUR, no credit issue."},),
    ({"sales_order": "4723", "justification": "Value € 640, the address is complete now."},),
    ({"sales_order": "so 4725", "justification": "Net 3,900 EUR after the agreed 400 EUR discount."},),
)
APPROVAL_EXPECTED = ("deny", "allow", "4711", "4723", "allow", "4725")


def _judge_approval(results: Any) -> object:
    for (args,), got, want in zip(APPROVAL_PROBES, results, APPROVAL_EXPECTED):
        call = f"approve({args})"
        if isinstance(got, dict) and "error" in got and "behavior" not in got:
            return failed(f"{call} raised {got['error']}")
        if type(got) is not dict or got.get("behavior") not in ("allow", "deny"):
            return failed(f"{call} returned {got!r}; return a dict with behavior 'allow' or 'deny'")
        if want == "deny":
            if got["behavior"] != "deny":
                return failed(f"{call} was allowed, but its justification has no figure in EUR: deny it")
            message = got.get("message")
            if type(message) is not str or not message.strip():
                return failed(f"{call}: a denial needs a message the model reads, or it is left guessing")
            if "EUR" not in message and "€" not in message:
                return failed(f"{call}: say in the message what the approver needs (the figures in EUR), so the "
                              "model can fix the request")
            continue
        if got["behavior"] != "allow":
            return failed(f"{call} was denied, but it names a figure in EUR: allow it")
        updated = got.get("updated_input")
        if want == "allow":
            if updated is not None:
                return failed(f"{call} needs no change: allow it as proposed, without updated_input")
            continue
        if type(updated) is not dict:
            return failed(f"{call}: the order number has a prefix or spaces; allow it with updated_input holding "
                          "the digits only")
        if updated.get("sales_order") != want:
            return failed(f"{call}: updated_input should carry sales_order {want!r}, digits only")
        if updated.get("justification") != args["justification"]:
            return failed(f"{call}: updated_input replaces the whole input, so keep the justification as it was")
    return passed("the callback allows, corrects and denies exactly as the rule says.")


def _allow_everything(arguments):
    return {"behavior": "allow"}


def _silent_denial(arguments):
    if "EUR" not in arguments["justification"] and "€" not in arguments["justification"]:
        return {"behavior": "deny"}
    return {"behavior": "allow"}


def _drops_justification(arguments):
    if not re.search(r"\d\s*(EUR|€)|(EUR|€)\s*\d", arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    digits = re.sub(r"\D", "", arguments["sales_order"])
    if digits != arguments["sales_order"]:
        return {"behavior": "allow", "updated_input": {"sales_order": digits}}
    return {"behavior": "allow"}


def _no_correction(arguments):
    if not re.search(r"\d\s*(EUR|€)|(EUR|€)\s*\d", arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    return {"behavior": "allow"}


EXERCISES = [
    Exercise("ex09-boundary-clause", NOTEBOOK, "orders_clause", 2, _judge_clause,
             prompt="Write a boundary clause for search_orders that hands the requests about a customer as a whole "
                    "to search_customers: name the neighbour exactly, say which requests go there, stay short.",
             wrong_answers=(
                 WrongAnswer("Use it for the full picture on a customer.", "exactly as it is called"),
                 WrongAnswer("It covers the full picture on a customer (use search_customers).", "claims the requests"),
                 WrongAnswer("Not for the full picture on a customer (use customer_search).", "not a tool in this set"),
                 WrongAnswer("Not for the full picture on a customer (use search_orders).",
                             "names search_orders itself"),
                 WrongAnswer("Not for other requests (use search_customers).", "say which requests"),
                 WrongAnswer("Not for the full picture on 10023 (use search_customers).", "particular records"),
                 WrongAnswer("Not for customer, account, profile, full picture, everything, details, who, behind, "
                             "name, number (use search_customers).", "keyword list"),
                 WrongAnswer("Not for customer account profile picture everything details (use search_customers).",
                             "keyword list"),
                 WrongAnswer("Not for customer or account or profile or picture or details (use search_customers).",
                             "keyword list"),
                 WrongAnswer("Not for a customer as a whole (use search_customers): customer account profile picture "
                             "everything name number full.", "keyword list"),
                 WrongAnswer("Not for a customer as a whole, their account, their profile, who they are, where they "
                             "are based, what they are called, how they pay, who their contacts are, what their "
                             "credit limit is or anything else about them as a party (use search_customers).",
                             "at most 40 words"),
             )),
    Exercise("ex09-fixed-call", NOTEBOOK, "fixed_call", 1, _judge_fixed_call,
             prompt="Correct the rejected call from what its error says.",
             wrong_answers=(
                 WrongAnswer({"sales_order": "SO-4725", "detail": "concise"}, "digits only"),
                 WrongAnswer({"sales_order": "4725", "detail": "full"}, "one of"),
                 WrongAnswer({"sales_order": 4725, "detail": "concise"}, "not a number"),
                 WrongAnswer({"sales_order": "4725", "detail": "concise", "order": "4725"}, "not a field"),
             )),
    Exercise("ex09-approval", NOTEBOOK, "approve", 3, _judge_approval, kind="function", probes=APPROVAL_PROBES,
             prompt="Write approve(arguments): the approval callback for release_request_create, by the stated rule.",
             wrong_answers=(
                 WrongAnswer(_allow_everything, "deny it"),
                 WrongAnswer(_silent_denial, "needs a message"),
                 WrongAnswer(_drops_justification, "keep the justification"),
                 WrongAnswer(_no_correction, "digits only"),
             )),
]
