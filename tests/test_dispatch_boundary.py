"""The boundary clause: two search tools, ambiguous requests, and a clause judged by its structure.

No picker may read a clause by a rule of its own: the offline stand-ins skip every sentence that names
another tool, so they score the same with and without clauses, and the lesson says so. A clause's effect
is measured only with a real model; here a scripted picker stands in for one to test the plumbing.
"""
from __future__ import annotations

import inspect

import pytest

from tooldesign.dispatch import Dispatcher, ToolCall, boundary
from tooldesign.dispatch.boundary import (CLAUSES, CUSTOMERS, GUIDANCE, MAX_CLAUSE_WORDS, ORDERS, PLAIN, REQUESTS,
                                          clause_verdict, decide, model_scores, score, scores, table, tools,
                                          with_clauses)
from tooldesign.selection import PickedTool, offline_picker
from tooldesign.selection import pickers as picker_module

GOOD = [
    CLAUSES[ORDERS],
    "Not for a customer as a whole: everything on or about a customer, the full picture, the account, or who is "
    "behind a name or number (use search_customers).",
    "Requests about the customer as a party, such as who they are, their account or the full picture, go to "
    "search_customers.",
    "For questions about the customer itself rather than its orders, use search_customers instead.",
    "search_customers handles questions about who a customer is and the full picture of their account.",
    "Not for profile questions like who a customer is or what we know about them overall (use search_customers).",
    "Not for a customer's name, address, country, credit limit or open items (use `search_customers`).",
    # Short noun phrases and sentences joined by a preposition, a pronoun or a verb are sentences too.
    "Not for customer profiles (use search_customers).",
    "Not for customer-level questions (use search_customers).",
    "Not for anything concerning customer accounts (use search_customers).",
    "Not for who the customer is or how their account stands (use search_customers).",
    "Not for the customer as a whole (use search_customers).",
    "When the user asks who a customer is or how their account stands overall, use search_customers instead.",
    "Not for requests about the customer themselves, such as their contact details; use search_customers.",
    "Questions about the customer rather than one order (who they are, their account) belong to "
    "search_customers.",
]
STUFFED = [
    "Not for customer, account, profile, full picture, everything, details, who, behind (use search_customers).",
    "Not for customer account profile picture everything details (use search_customers).",
    "Not for customer or account or profile or picture or details (use search_customers).",
    "Not for customer and account and profile and picture (use search_customers).",
    "Not for a customer as a whole (use search_customers): customer account profile picture everything name.",
    "Not for customers, the customer, any customer's customer data (use search_customers).",
    "Not for the full picture on 10023, everything on Nordhafen, Donau Retail, Lac Leman, 10051, "
    "accounts, profiles (use search_customers).",
    # Keyword lists whatever separates their words: spaces, slashes, dots, dashes, ampersands, plus signs,
    # line breaks, quotes, a colon; and short ones, of three words or of two between commas.
    "Not for customer account profile everything: use search_customers.",
    "Not for customer account profile (use search_customers).",
    "Not for customer/account/profile (use search_customers).",
    "Not for customer · account · profile (use search_customers).",
    "Not for customer - account - profile - overview (use search_customers).",
    "Not for customer & account & profile (use search_customers).",
    "Not for customer+account+profile queries (use search_customers).",
    "Not for customer\naccount\nprofile (use search_customers).",
    "Not for 'customer' 'account' 'profile' (use search_customers).",
    "Use search_customers for: customer; account; profile.",
    "Not for customer account, profile overview (use search_customers).",
    "Not for customer, account (use search_customers).",
]


def test_no_redirect_reader_is_left():
    assert not hasattr(boundary, "read_boundaries") and not hasattr(boundary, "try_clause")
    source = inspect.getsource(picker_module)
    assert "read_boundaries" not in source and "redirect" not in source.lower() and "not for|" not in source


@pytest.mark.parametrize("picker", ["words", "bm25"])
def test_offline_stand_ins_cannot_see_a_clause(picker):
    assert score(with_clauses(), picker) == score(PLAIN, picker)
    assert [d.chosen for d in decide(with_clauses(), picker)] == [d.chosen for d in decide(PLAIN, picker)]


@pytest.mark.parametrize("clause", GOOD + STUFFED)
def test_no_clause_of_any_kind_moves_an_offline_pick(clause):
    changed = dict(PLAIN, **{ORDERS: f"{PLAIN[ORDERS]} {clause}"})
    for picker in ("words", "bm25"):
        assert [d.chosen for d in decide(changed, picker)] == [d.chosen for d in decide(PLAIN, picker)]


def test_scores_rows_say_the_same_for_both_variants():
    rows = scores()
    assert {(r["picker"], r["descriptions"]) for r in rows} == {(p, v) for p in ("words", "bm25")
                                                                 for v in ("without clauses", "with clauses")}
    for p in ("words", "bm25"):
        assert len({r["right"] for r in rows if r["picker"] == p}) == 1


@pytest.mark.parametrize("clause", GOOD)
def test_a_good_clause_passes_whatever_its_words(clause):
    verdict = clause_verdict(clause, ORDERS)
    assert verdict.ok, verdict.problems
    assert verdict.neighbour == CUSTOMERS and verdict.words <= MAX_CLAUSE_WORDS


def test_the_courses_own_clauses_pass_for_their_tools():
    assert clause_verdict(CLAUSES[CUSTOMERS], CUSTOMERS).ok
    assert clause_verdict(CLAUSES[ORDERS], ORDERS).ok


# A list in a sentence of its own: the stand-ins read that sentence (it names no tool), so it is kept out
# of STUFFED, whose clauses must leave every offline pick alone.
@pytest.mark.parametrize("clause", [*STUFFED, "Keywords: customer account profile. Use search_customers."])
def test_a_keyword_list_fails(clause):
    verdict = clause_verdict(clause, ORDERS)
    assert not verdict.ok
    assert any("keyword list" in p or "particular records" in p for p in verdict.problems), verdict.problems


@pytest.mark.parametrize("clause, hint", [
    ("", "one sentence"),
    (None, "one sentence"),
    ("Use it for the full picture on a customer.", "exactly as it is called"),
    ("It covers the full picture on a customer (use search_customers).", "claims the requests"),
    ("Not for the full picture on a customer (use search_customer).", "not a tool in this set"),
    ("Not for the full picture on a customer (use search_orders).", "itself"),
    ("Not for anything else (use search_customers).", "say which requests"),
    ("The full picture on a customer is search_customers.", "go to search_customers"),
    ("Not for a customer as a whole. Not for their account. Not for who they are (use search_customers).",
     "one sentence of at most"),
    ("Not for a customer as a whole, their account, their profile, who they are, where they are based, what "
     "they are called, how they pay, who their contacts are, what their credit limit is or anything else about "
     "them as a party (use search_customers).", "at most 40 words"),
    ("Not for the full picture on 10023 (use search_customers).", "particular records"),
    ("Not for everything on Nordhafen or Donau Retail (use search_customers).", "particular records"),
])
def test_each_structural_fault_has_its_own_hint(clause, hint):
    verdict = clause_verdict(clause, ORDERS)
    assert not verdict.ok and any(hint in p for p in verdict.problems), verdict.problems


def test_the_guidance_names_its_sources():
    assert len(GUIDANCE) >= 3
    assert all(g.advice and ("https://" in g.source or "Chapter" in g.source) for g in GUIDANCE)


class _ReadsClauses:
    """A scripted 'model' for the plumbing test: sends a request to search_customers when the orders tool's
    description hands over customer questions. It stands in for a real model only in this test."""
    offline = False
    label = "scripted reader (test only)"

    def pick(self, request, tools):
        orders = next(t for t in tools if t.name == ORDERS)
        if "use search_customers" in orders.description and "10023" in request:
            return PickedTool(CUSTOMERS)
        return PickedTool(ORDERS)


def test_model_scores_compares_the_variants_with_the_given_picker():
    rows = model_scores(_ReadsClauses())
    assert [r["descriptions"] for r in rows] == ["without clauses", "with clauses"]
    assert rows[1]["right"] != rows[0]["right"]


def test_model_scores_refuses_an_offline_picker():
    with pytest.raises(ValueError, match="cannot see a clause"):
        model_scores(offline_picker("words"))


def test_table_shape():
    rows = table()
    assert len(rows) == len(REQUESTS) and rows[0]["expected"] == CUSTOMERS
    assert set(rows[0]) == {"request", "expected", "without clauses, words", "with clauses, words"}


def test_the_tools_answer_from_the_sap_data():
    d = Dispatcher(tools())
    found = d.dispatch(ToolCall(CUSTOMERS, {"customer": "nordhafen"})).content
    assert found["customers"][0]["customer"] == "10023"
    orders = d.dispatch(ToolCall(ORDERS, {"customer_or_order": "4725"})).content["orders"]
    assert orders[0]["delivery_state"] == "Pricing: the customer disputes the price."
    assert d.dispatch(ToolCall(ORDERS, {"customer_or_order": "Donau"})).content["orders"][0]["sales_order"] == "4723"
    assert d.dispatch(ToolCall(CUSTOMERS, {"customer": "ACME"})).is_error
