"""Four ways to report a failure; only the actionable is_error leads a reader to a true conclusion."""
from __future__ import annotations

from tooldesign.dispatch.errors import actionable_message, four_reports, read_downstream, reading_table


def test_four_styles_and_only_one_true():
    rows = reading_table()
    assert [r["style"] for r in rows] == ["placeholder data", "empty success", "tool silently withdrawn",
                                          "actionable is_error"]
    assert [r["true"] for r in rows] == [False, False, False, True]
    assert [r["is_error"] for r in rows] == [False, False, False, True]
    assert [r["run stops"] for r in rows] == [False, False, False, True]


def test_withdrawn_tool_is_really_gone():
    withdrawn = four_reports()[2]
    assert withdrawn.result is None and "customer_get_credit_exposure" not in withdrawn.tools_offered


def test_placeholder_leads_to_a_confident_wrong_conclusion():
    assert "without approval" in read_downstream(four_reports()[0]).conclusion


def test_actionable_message_parts():
    text = actionable_message("sales_order must be digits only", "digits, no prefix", "4711",
                              "List the customer's orders with sales_order_search")
    assert text == ("sales_order must be digits only. Expected: digits, no prefix. Example: 4711. "
                    "List the customer's orders with sales_order_search.")
    assert actionable_message("Nothing to release.") == "Nothing to release."
