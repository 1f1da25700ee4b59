"""The linter: every rule shown firing on a bad tool and quiet on a good one."""
from dataclasses import replace

import pytest

from tooldesign.lint import RULES, Finding, Rule, lint, lint_tool, rule_table, sentences, tool_rule
from tooldesign.tools import Tool, ToolSet, tool_set

GOOD = tool_set("designed")["customer_get_address_gaps"]


def ids(findings):
    return {f.rule for f in findings}


def test_rule_ids_are_unique_and_documented():
    assert len({r.id for r in RULES}) == len(RULES)
    for row in rule_table():
        assert row["id"] and row["checks"] and row["why"] and row["scope"] in ("tool", "set")


def test_mirror_has_dozens_of_findings_including_the_order_overlap():
    report = lint(tool_set("mirror"))
    assert report.count >= 24
    twins = [f.message for f in report.findings if f.rule == "set-twins"]
    assert any("'get_order' and 'get_order_details'" in m for m in twins)
    assert any("'get_order' and 'get_order_status'" in m for m in twins)
    assert any("'get_order_details' and 'get_order_status'" in m for m in twins)
    assert report.by_tool()["update_order"] and "safety-approval" in ids(report.by_tool()["update_order"])


def test_designed_set_is_clean_and_costs_three_to_five_times_the_tokens():
    designed, mirror = lint(tool_set("designed")), lint(tool_set("mirror"))
    assert designed.ok and designed.count == 0
    assert 2.5 <= designed.tokens / mirror.tokens <= 4.5
    assert "estimate" in designed.summary()


def bad(**changes) -> Tool:
    return replace(GOOD, **changes)


def schema(**props):
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


DESCRIBED = {"type": "string", "description": "Customer number, digits only."}


@pytest.mark.parametrize("tool, rule", [
    (bad(name="customer get address gaps"), "name-pattern"),
    (bad(name="get_gaps"), "name-shape"),
    (bad(name="get_customer_gaps_x"), "name-shape"),
    (bad(description="Lists gaps. Use it when data is missing."), "desc-sentences"),
    (bad(description=GOOD.description.replace("Use it when", "Good when")), "desc-when"),
    (bad(description=GOOD.description.replace("(use sales_order_get_block_summary)", "")), "desc-boundary"),
    (bad(parameters=schema(customer={"type": "string"})), "param-described"),
    (bad(parameters=schema(id=DESCRIBED)), "param-generic"),
    (bad(parameters=schema(customer=DESCRIBED, address={"type": "object", "description": "x"})), "param-free-form"),
    (bad(parameters={**schema(customer=DESCRIBED), "additionalProperties": True}), "strict-closed"),
    (bad(parameters={**schema(customer=DESCRIBED), "required": []}), "strict-required"),
    (bad(parameters=schema(customer={**DESCRIBED, "pattern": r"\d+(?=x)"})), "strict-syntax"),
    (bad(annotations={}), "safety-read-only-hint"),
    (bad(annotations={"readOnlyHint": False}), "safety-approval"),
    (bad(name="customer_address_update"), "safety-approval"),
])
def test_each_tool_rule_fires_on_a_bad_tool(tool, rule):
    tools = [tool if t.name == GOOD.name else t for t in tool_set("designed")]
    assert rule in ids(lint_tool(tool, tools))


def test_a_good_tool_has_no_findings():
    assert lint_tool(GOOD, list(tool_set("designed"))) == []


def test_boundary_rule_needs_a_neighbour_and_a_negation():
    alone = lint_tool(GOOD, [GOOD])
    assert "desc-boundary" not in ids(alone)
    mention_only = GOOD.description.replace("Not for the order's block reason", "See also")
    assert "desc-boundary" in ids(lint_tool(bad(description=mention_only), list(tool_set("designed"))))


def test_set_size_rule():
    many = ToolSet("many", tuple(replace(GOOD, name=f"customer_get_gap_{i}") for i in range(21)))
    report = lint(many)
    assert "set-size" in ids(report.findings)
    assert "set-size" not in ids(lint(ToolSet("few", many.tools[:20])).findings)


def test_twin_descriptions_are_caught_even_with_different_names():
    a = bad(name="customer_get_address_gaps", description="Finds missing address fields of a customer.")
    b = bad(name="partner_check_location", description="Finds missing address fields of a customer record.")
    report = lint([a, b])
    assert any(f.rule == "set-twins" and "descriptions" in f.message for f in report.findings)


def test_your_own_rule_runs_alongside():
    @tool_rule("desc-returns", "description says what the tool returns")
    def returns_clause(tool, tools):
        return [] if "Returns" in tool.description else ["say what it returns"]

    assert isinstance(returns_clause, Rule)
    assert lint(tool_set("designed"), extra=[returns_clause]).ok
    mirror = lint(tool_set("mirror"), extra=[returns_clause])
    assert mirror.by_rule()["desc-returns"] == 7


def test_sentences_and_report_format():
    assert len(sentences("One. Two? Three! 4.5 stays.")) == 4
    text = lint(tool_set("mirror")).format()
    assert "[set-twins]" in text and "tokens (estimate" in text
    assert str(Finding("x", None, "m")) == "[x] m"


# ---------- the strict-mode subset (OpenAI's documented list) ----------

def test_strict_subset_finds_composition_keywords_where_they_are():
    from tooldesign.strict_subset import in_strict_subset, subset_problems

    schema = {"type": "object", "additionalProperties": False, "required": ["a", "b"],
              "properties": {"a": {"type": "string"},
                             "b": {"type": "object", "additionalProperties": False, "required": ["c"],
                                   "properties": {"c": {"not": {"const": "x"}}}}},
              "allOf": [{"if": {"properties": {"a": {"const": "y"}}}, "then": {"required": ["b"]}}]}
    found = {(p.keyword, p.path) for p in subset_problems(schema)}
    assert found == {("allOf", "(top level)"), ("if", "allOf/0"), ("then", "allOf/0"),
                     ("not", "properties/b/properties/c")}
    assert not in_strict_subset(schema)
    assert in_strict_subset({"type": "object", "properties": {"x": {"anyOf": [{"type": "string"},
                                                                              {"type": "null"}]}}})
    assert [p.keyword for p in subset_problems({"anyOf": [{"type": "object"}]})] == ["anyOf"]


def test_designed_and_mirror_sets_have_no_strict_subset_findings():
    from tooldesign.tools import tool_set

    for name in ("mirror", "designed"):
        assert "strict-subset" not in lint(tool_set(name)).by_rule()
    assert lint(tool_set("designed")).count == 0 and lint(tool_set("mirror")).count == 67
