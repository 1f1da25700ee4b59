"""The boundary clause: two search tools, ambiguous requests, descriptions with and without clauses."""
from __future__ import annotations

from tooldesign.dispatch.boundary import (CLAUSES, CUSTOMERS, ORDERS, PLAIN, REQUESTS, decide, read_boundaries, score,
                                          scores, table, tools, try_clause, with_clauses)
from tooldesign.dispatch import Dispatcher, ToolCall


def test_clauses_decide_the_ambiguous_requests_when_read_as_redirects():
    assert score(PLAIN) == 1
    assert score(with_clauses()) == 8
    assert score(with_clauses(), redirects=False) == score(PLAIN, redirects=False)  # invisible as is


def test_the_clause_moves_words_to_the_tool_it_names():
    read = read_boundaries(tools(with_clauses()))
    assert "everything on or about a customer" in read[CUSTOMERS].description
    assert "on hold or stuck" in read[ORDERS].description
    assert "search_" not in read[CUSTOMERS].description + read[ORDERS].description


def test_two_requests_stay_open():
    wrong = [d.request for d in decide(with_clauses()) if not d.right]
    assert wrong == ["Give me the full picture on 10023.", "Look up 4711."]


def test_try_clause_both_ways():
    target = "Give me the full picture on 10023."
    good = CLAUSES[ORDERS].replace("the account", "the full picture, the account")
    assert try_clause(ORDERS, good, target) == {"fixed": True, "broke": [], "right": 9, "of": 10}
    positive = try_clause(ORDERS, "Use it for the full picture on a customer.", target)
    assert not positive["fixed"] and positive["broke"]


def test_bm25_cannot_separate_two_tools():
    # every word sits in one of two documents: BM25's IDF is log(1.5 / 1.5) = 0
    assert {row["right"] for row in scores() if row["picker"] == "bm25"} == {0}


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
