"""Lessons 03-07: the exercise checks against the package, beyond the generic both-ways tests.

tests/test_exercises.py proves every check both ways with its wrong answers; these tests pin what
those checks rest on (answer keys that must agree with the package) and the hints a learner gets
for the mistakes most likely in these lessons.
"""
import inspect
import re

import pytest

from tooldesign.tools.designed import approver_for
from workbook.checks import evaluate
from workbook.exercises import lesson03, lesson04, lesson05, lesson06, lesson07

PRICE_DESCRIPTION = ("Shows the agreed prices of one sales order. Returns the list price, discount, net price and "
                     "currency. Use it when the customer disputes a price or asks what discount was given. Not "
                     "for the reason an order is blocked (use sales_order_get_block_summary).")


def price_definition(description=PRICE_DESCRIPTION):
    return {"name": lesson07.PRICE_TOOL, "description": description, "parameters": lesson07.PRICE_PARAMETERS,
            "annotations": {"readOnlyHint": True, "openWorldHint": False}}


def test_design_key_gives_each_problem_its_own_real_fix():
    key = lesson03.DESIGN_KEY
    assert set(key) == set(lesson03.PROBLEMS) and set(key.values()) <= set(lesson03.FIXES)
    assert len(set(key.values())) == len(key) and not {"firmer-prompt", "retry"} & set(key.values())


def test_design_fix_hints_name_no_problem():
    from workbook.checks import FAIL, evaluate
    key = lesson03.DESIGN_KEY
    names = list(key)
    hints = set()
    for a, b in zip(names, names[1:] + names[:1]):  # swap two fixes: every problem count is still one
        verdict = evaluate("ex03-design-fixes", {**key, a: key[b], b: key[a]})
        assert verdict.status == FAIL
        hints.add(verdict.message)
    assert len(hints) == 1 and not any(name in hint for hint in hints for name in names)


def test_approver_key_agrees_with_the_package_rule():
    for (exposure, limit), want in zip(lesson04.APPROVER_PROBES, lesson04.APPROVER_EXPECTED):
        assert approver_for(round(exposure * 100), round(limit * 100)) == want


def test_price_handler_check_accepts_a_handler_built_on_the_package_helpers():
    from tooldesign.tools.designed import digits_error, not_visible_error
    from tooldesign.tools.mirror import load_sap

    data = load_sap()

    def handler(arguments):
        if not isinstance(arguments, dict) or "sales_order" not in arguments:
            return {"error": "pass a JSON object with sales_order, for example {\"sales_order\": \"4725\"}"}
        number = arguments["sales_order"]
        if type(number) is not str or not number.isdigit():
            return digits_error("sales_order", number, "4725")
        if number not in data.orders:
            return not_visible_error("Sales order", number, "Check it with the user.")
        if number not in data.prices:
            return {"error": f"Order {number} has no price conditions; use sales_order_get_block_summary."}
        return dict(data.prices[number])

    assert evaluate("ex04-price-handler", handler).passed


def test_predicted_rules_key_is_the_linters_answer():
    assert lesson05.draft_rules() == ["desc-boundary", "desc-sentences", "name-shape", "param-described",
                                      "safety-read-only-hint", "strict-closed", "strict-required"]
    assert set(lesson05.HINTS) == set(lesson05.draft_rules())


def test_returns_probes_agree_with_a_reference_rule():
    reference = lesson05.reference_returns_clause
    assert [bool(reference(d)) for (d,) in lesson05.RETURNS_PROBES] == lesson05.RETURNS_EXPECTED
    assert evaluate("ex05-returns-rule", reference).passed


def test_returns_rule_in_other_words_passes_and_letter_matching_fails():
    def tokens_rule(description):
        for sentence in re.split(r"(?<=[.!?])\s+", description):
            words = [w.strip(".,:;()'\"").lower() for w in sentence.split()]
            if {"return", "returns", "returned"} & set(words) and \
                    [w for w in words if w and w not in lesson05.VAGUE | {"return", "returns", "returned"}]:
                return []
        return ["no returns clause"]

    assert evaluate("ex05-returns-rule", tokens_rule).passed
    letters = evaluate("ex05-returns-rule", lambda d: [] if "return" in d.lower() else ["x"])
    assert not letters.passed and "whole words" in letters.message


def test_price_tool_reference_passes_on_its_design_and_shows_routing_as_feedback_only():
    verdict = evaluate("ex07-price-tool", {"definition": price_definition(lesson07.GOOD_DESCRIPTION),
                                           "requests": lesson07.GOOD_REQUESTS})
    assert verdict.passed and "6 tools, 0 findings, the description follows the rule" in verdict.message
    assert "Feedback only, not the pass condition" in verdict.message and "cannot see" in verdict.message
    assert len(verdict.message) <= 600


# Plain, correct answers in words other than the reference's: the judge looks at the design, not at
# whether a word matcher routes the price requests to the tool.
PLAIN_ANSWERS = [
    "Looks up the pricing agreed with the customer for one sales order. Returns list_price, discount, "
    "net_price and currency. Use it when a customer questions what they were charged. Not for why an order "
    "is on hold (use sales_order_get_block_summary).",
    "Reports the price conditions of one order. It returns the list price, the discount and the net price, "
    "with the currency. Use it when a price is in dispute. Do not use it to explain a block; use "
    "sales_order_get_block_summary.",
    "Returns the list price, discount and net price of one sales order, in its currency. Use it when the "
    "agreed terms of an order are in doubt. Not for the reason a delivery is held (use "
    "sales_order_get_block_summary).",
    "Gives the price conditions agreed for one order. Returns list price, discount, net price and currency. "
    "Call it when the customer questions a price. Do not use it for blocks; sales_order_get_block_summary "
    "explains those instead.",
]


@pytest.mark.parametrize("description", PLAIN_ANSWERS)
def test_plain_correct_price_tools_in_other_words_pass(description):
    verdict = evaluate("ex07-price-tool", {"definition": price_definition(description),
                                           "requests": lesson07.GOOD_REQUESTS})
    assert verdict.passed, verdict.message


def test_plain_answers_pass_whatever_the_stand_in_routes():
    """At least one plain answer loses price requests to the stand-in and still passes: routing is feedback."""
    from tooldesign.selection import WordMatchPicker, run_selection

    _, price = lesson07._revision_cases()
    right = [run_selection(WordMatchPicker(), lesson07._six(price_definition(d)), price, "designed").right
             for d in PLAIN_ANSWERS]
    assert min(right) < len(price)


def test_a_keyword_stuffed_price_tool_fails_and_is_told_why():
    verdict = evaluate("ex07-price-tool", {"definition": price_definition(lesson07.KEYWORD_STUFFED),
                                           "requests": lesson07.GOOD_REQUESTS})
    assert not verdict.passed
    assert "synonym list raises a word matcher's score" in verdict.message and "plain words" in verdict.message


@pytest.mark.parametrize("description, hint", [
    (PLAIN_ANSWERS[0] + " Read-only. Fast.", "longer is not safer"),
    (PLAIN_ANSWERS[0].replace("list_price, discount, net_price and currency", "the figures"), "does not name"),
    (PLAIN_ANSWERS[0].replace("net_price", "total"), "net price"),
    (PLAIN_ANSWERS[0].replace("(use sales_order_get_block_summary)", "(use sales_order_search)"),
     "must not take from"),
    ("Looks up the pricing agreed for one sales order. Use it when a customer questions a price. Returns "
     "list_price, discount, net_price and currency. Not for why an order is held (use "
     "sales_order_get_block_summary).", "order of the rule"),
])
def test_each_part_of_the_rule_has_its_own_hint(description, hint):
    verdict = evaluate("ex07-price-tool", {"definition": price_definition(description),
                                           "requests": lesson07.GOOD_REQUESTS})
    assert not verdict.passed and hint in verdict.message, verdict.message


@pytest.mark.parametrize("requests", [
    ["Customer says 4725 was overcharged - what did we agree?", "Is 4725 too expensive?"],
    ["Preis für 4725 prüfen bitte", "why so pricey, 4725??"],
    ["Is 4725 too expensive?", "What did we charge on the disputed order?"],
])
def test_realistic_requests_of_your_own_never_fail_the_check(requests):
    """Own requests are held out: a miss is reported below the exercise, never a reason to reword."""
    verdict = evaluate("ex07-price-tool", {"definition": price_definition(lesson07.GOOD_DESCRIPTION),
                                           "requests": requests})
    assert verdict.passed, verdict.message


def test_no_hint_ever_asks_to_share_words_with_a_request():
    source = inspect.getsource(lesson06) + inspect.getsource(lesson07)
    assert "share the clerk's words" not in source and "should share" not in source


@pytest.mark.parametrize("description", [lesson07.RULE_ABIDING,
                                         "Returns stored commercial figures for one document. Use it when those "
                                         "figures are needed. Not for block reasons (use "
                                         "sales_order_get_block_summary). Read-only.",
                                         "Fetches ledger terms of a record. It returns what is stored there. Use it "
                                         "when the terms matter. Do not use it for holds; use "
                                         "sales_order_get_block_summary instead."])
def test_rule_abiding_but_losing_descriptions_pass_exercise_2(description):
    verdict = evaluate("ex07-broken", description)
    assert verdict.passed, verdict.message


def test_a_description_that_keeps_the_requests_fails_exercise_2():
    verdict = evaluate("ex07-broken", lesson07.GOOD_DESCRIPTION)
    assert not verdict.passed and "agree here" in verdict.message


def test_own_requests_in_other_words_and_order_pass():
    a = {"Has 10051 paid the May invoice yet?": "customer_get_credit_exposure", "Where is my parcel?": None}
    b = dict(reversed(list(a.items())))
    assert evaluate("ex06-own-requests", a).passed and evaluate("ex06-own-requests", b).passed


def test_the_design_note_is_left_to_a_person():
    exercise = next(e for e in lesson07.EXERCISES if e.grade_id == "ex07-design-note")
    assert exercise.kind == "manual" and exercise.points == 3
