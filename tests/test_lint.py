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
    mention_only = GOOD.description.replace("Not for why an order is blocked", "See also")
    assert mention_only != GOOD.description
    assert "desc-boundary" in ids(lint_tool(bad(description=mention_only), list(tool_set("designed"))))


# ---------- one rule for a description: three or four short sentences, no synonym lists ----------

PLAIN = [  # examples of the course's own, not the designed set's: each follows the rule
    "Lists the open invoices of one customer. Returns each invoice's number, due date, amount and currency. "
    "Use it when the user asks what a customer still owes. Not for credit limits (use customer_get_credit_exposure).",
    "Books one delivery slot for a shipment. Returns the slot's date, start time and gate. Use it when the user "
    "asks to schedule a pickup. Not for moving a booked slot (use slot_move).",
    "Explains why one sales order is blocked or not delivered. Returns the block reason as text. Use it when "
    "the user names one order. Not for order lists (use sales_order_search).",
    "Checks whether one customer's address is complete. Returns the missing fields and whether it is complete. "
    "Use it when an order waits for master data.",
]
STUFFED = [  # what a synonym list looks like: many short items joined by commas and "or" (or "and")
    "Explains why an order is blocked, on hold, flagged, stuck or sitting. Returns the reason. Use it when "
    "the user asks. Not for lists (use sales_order_search).",
    "Drafts a release. Returns the draft. Use it when the user wants to release, unblock, free up, push "
    "through or let go of an order. Not for reasons (use sales_order_get_block_summary).",
    "Checks credit. Returns the figures. Use it when the user asks whether a customer is over its limit or "
    "tapped out or good for more or beyond it. Not for blocks (use sales_order_get_block_summary).",
    "Covers the prices, discounts, rebates, surcharges, deals or conditions of an order. Returns the prices. "
    "Use it when asked. Not for blocks (use sales_order_get_block_summary).",
    "Finds orders (backlog, pipeline, history or open book). Returns them. Use it when asked. Not for one "
    "order (use sales_order_get_block_summary).",
]


@pytest.mark.parametrize("text", PLAIN)
def test_a_plain_description_has_no_length_or_alternatives_finding(text):
    found = ids(lint_tool(bad(description=text), list(tool_set("designed"))))
    assert not found & {"desc-long", "desc-alternatives", "desc-sentences"}, found


@pytest.mark.parametrize("text", STUFFED)
def test_a_list_of_alternatives_is_flagged(text):
    found = lint_tool(bad(description=text), list(tool_set("designed")))
    assert "desc-alternatives" in ids(found)
    assert "synonym list" in next(f.message for f in found if f.rule == "desc-alternatives")


def test_a_list_joined_by_and_names_different_things_and_is_left_alone():
    from tooldesign.lint import stuffed_lists

    assert stuffed_lists("Returns the credit limit, open items, order value, exposure and approver.") == []
    assert stuffed_lists("Lists the change log of one order: field, old value, new value, who and when.") == []
    assert stuffed_lists("Reports where a request stands: waiting, approved or rejected, and by whom.") == []
    assert stuffed_lists("Returns the status of a blocked, held, stuck or flagged order.")  # "or" is never exempt
    # six or more short items joined by "and", outside the returns sentence, are a list of alternatives too
    assert stuffed_lists("Use it for blocks, holds, stops, delays, hold-ups and issues.")
    assert stuffed_lists("Returns blocks, holds, stops, delays, hold-ups and issues.") == []
    assert stuffed_lists("Use it for a hold, or a block, or a stop, or a delay.")  # stacked "or"


def test_too_many_sentences_or_words_is_flagged_and_four_short_ones_are_not():
    five = PLAIN[0] + " Read-only."
    assert "desc-long" in ids(lint_tool(bad(description=five), list(tool_set("designed"))))
    wordy = PLAIN[0].replace("Lists the open invoices of one customer.",
                             "Lists the open invoices of one customer " + "in great detail " * 20 + ".")
    found = lint_tool(bad(description=wordy), list(tool_set("designed")))
    assert "desc-long" in ids(found) and "words" in next(f.message for f in found if f.rule == "desc-long")
    from tooldesign.lint import MAX_SENTENCES, MAX_WORDS, word_count

    assert (MAX_SENTENCES, MAX_WORDS) == (4, 80)
    assert word_count("It can't be ship-to, sales_order 4711.") == 6


def test_every_designed_description_follows_the_rule():
    from tooldesign.lint import word_count

    designed = tool_set("designed")
    report = lint(designed)
    assert report.ok and report.tokens <= 1000
    for tool in designed:
        assert 3 <= len(sentences(tool.description)) <= 4, tool.name
        assert word_count(tool.description) <= 80, tool.name
        assert sentences(tool.description)[1].startswith("Returns"), tool.name
        assert sentences(tool.description)[-1].startswith("Not for"), tool.name


def test_the_new_rules_fire_on_the_keyword_stuffed_wording():
    report = lint(tool_set("designed-keyword-stuffed"))
    for name, found in report.by_tool().items():
        assert {"desc-long", "desc-alternatives"} <= ids(found), name
    assert report.tokens > lint(tool_set("designed")).tokens


def test_set_size_rule():
    """OpenAI's guide says fewer than 20 functions: 19 pass, 20 is already one too many."""
    many = ToolSet("many", tuple(replace(GOOD, name=f"customer_get_gap_{i}") for i in range(21)))
    for size, flagged in ((21, True), (20, True), (19, False), (1, False)):
        found = lint(ToolSet(f"{size} tools", many.tools[:size])).findings
        assert ("set-size" in ids(found)) is flagged, size
    (finding,) = [f for f in lint(ToolSet("twenty", many.tools[:20])).findings if f.rule == "set-size"]
    assert "fewer than 20" in finding.message


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
