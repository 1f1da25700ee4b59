"""Consolidation: an action enum keeps the choice in the schema; the catch-all is flagged."""
from __future__ import annotations

from tooldesign.dispatch import Dispatcher, ToolCall
from tooldesign.lint import lint
from tooldesign.scale.consolidate import (CATCH_ALL_RULE, MIXED_ACTION_RULE, RULES, catch_all, compare, consolidated,
                                          route, table)
from tooldesign.tools.base import Tool


def test_catch_all_rule_flags_free_text_choice_only():
    assert [f.rule for f in lint(catch_all(), extra=RULES).findings].count(CATCH_ALL_RULE.id) == 1
    assert not [f for f in lint(consolidated(), extra=RULES).findings if f.rule in (CATCH_ALL_RULE.id,
                                                                                     MIXED_ACTION_RULE.id)]
    enum_action = Tool("x_do_it", "d", {"type": "object", "properties": {
        "action": {"type": "string", "enum": ["get_summary", "create_release"]}}}, lambda a: a)
    assert [m for m in MIXED_ACTION_RULE.check(enum_action, [enum_action])]
    assert not list(CATCH_ALL_RULE.check(enum_action, [enum_action]))


def test_consolidated_tool_runs_both_actions_and_rejects_bad_ones():
    d = Dispatcher(consolidated())
    gaps = d.dispatch(ToolCall("customer_check_account", {"action": "address_gaps", "customer": "10051",
                                                          "sales_order": None}))
    assert gaps.content["missing_fields"] == ["postal_code"]
    exposure = d.dispatch(ToolCall("customer_check_account", {"action": "credit_exposure", "customer": "10023",
                                                              "sales_order": "4711"}))
    assert exposure.content["exposure"] == 52500.0
    bad = d.dispatch(ToolCall("customer_check_account", {"action": "address_gaps", "customer": "10051",
                                                         "sales_order": "4723"}))
    assert bad.is_error and not bad.ran


def test_comparison():
    rows = {s.label: s for s in compare()}
    assert (rows["designed"].tools, rows["consolidated"].tools, rows["catch-all"].tools) == (5, 4, 1)
    # The merged tool's if/then rule validates, but lies outside OpenAI's strict-mode subset.
    assert rows["designed"].lint_findings == 0 and rows["consolidated"].lint_findings == 1
    assert rows["catch-all"].catch_all_flagged == 1
    assert rows["consolidated"].bad_rejected == 3 and rows["catch-all"].bad_rejected == 0
    assert rows["catch-all"].right_tool is None and rows["catch-all"].gated > rows["designed"].gated == 5
    assert len(table(list(rows.values()))) == 3


def test_router_moves_the_choice_into_text():
    assert route("Release order 4711") == "release_request_create"
    assert route("Is order 4711 over the credit limit?") == "customer_get_credit_exposure"
    assert route("hello") is None


def test_the_same_set_scores_the_same_as_in_the_growth_table():
    from tooldesign.scale.growth import measure

    rows = {s.label: s for s in compare()}
    assert rows["designed"].right_tool == measure(sizes=(5,), pickers=("words",))[0].accuracy["words"]


def test_the_merged_rule_is_flagged_by_the_strict_subset_rule():
    from tooldesign.lint import lint
    from tooldesign.scale.consolidate import consolidated

    findings = lint(consolidated()).findings
    assert [(f.rule, f.tool) for f in findings] == [("strict-subset", "customer_check_account")]
    assert "'allOf' at (top level)" in findings[0].message and "'if' at allOf/0" in findings[0].message
