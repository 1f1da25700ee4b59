"""Notebook 07: adding a tool and testing it. A sixth tool for pricing disputes, judged on its design
(the stand-ins' routing is feedback, never the pass condition); a description that follows every lint
rule and still loses requests; and a design note graded by a person."""

from __future__ import annotations

import re
from typing import Any

from tooldesign.wording import count
from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.exercises.lesson06 import _request_problem
from workbook.verdicts import failed, passed

NOTEBOOK = "07_selection_test_a_new_tool"
PRICE_TOOL = "sales_order_get_price_conditions"
BROKEN_DESCRIPTION = "Get prices."
# The schema the exercises use: the description is what they change, nothing else.
PRICE_PARAMETERS = {
    "type": "object",
    "required": ["sales_order"],
    "additionalProperties": False,
    "properties": {
        "sales_order": {"description": "Sales order number, digits only, e.g. '4725'.", "type": "string"}
    },
}
# Development requests for the price tool: what a description may be revised against.
PRICE_DEVELOPMENT = (
    "What discount did order 4725 get?",
    "Which price did we agree with the customer for order 4725?",
    "The customer disputes the price on 4725: what are the conditions?",
    "Show list price and net price of sales order 4725.",
)


def _tool(definition: dict) -> Any:
    from tooldesign.tools import Tool

    return Tool(
        definition["name"],
        definition["description"],
        definition["parameters"],
        lambda arguments: {},
        definition.get("annotations") or {},
    )


# ---------- exercise 1: the sixth tool ----------


def _six(definition: dict) -> Any:
    from tooldesign.tools import tool_set

    return tool_set("designed").with_tools([_tool(definition)])


def _revision_cases() -> tuple:
    """Tuning and development cases plus the price development requests: what a revision may look at."""
    from tooldesign.selection import Case
    from tooldesign.selection.cases import case_set

    old = case_set("tuning").cases + case_set("development").cases
    return old, tuple(Case(r, {"designed": (PRICE_TOOL,)}) for r in PRICE_DEVELOPMENT)


# The neighbour the price tool must not take from: order 4725 is blocked over a price dispute, and the
# block summary is the tool that explains why an order is held.
PRICE_NEIGHBOUR = "sales_order_get_block_summary"
# The returned fields the returns sentence must name, each in its words or as its field name.
PRICE_FIELDS = {"list price": r"list[ _]price", "discount": r"discount", "net price": r"net[ _]price"}


def _rule_problem(description: str) -> str | None:
    """Where a description breaks the course's one rule for descriptions (notebook 04), or None.

    The order is fixed: what it does, what it returns (naming the price fields), when to use it, and
    last the boundary clause naming the block summary. The linter checks the count, the length and
    synonym lists; this checks the parts the price tool needs, in their places.
    """
    from tooldesign.lint import BOUNDARY_WORDS, WHEN_CLAUSE, sentences

    parts = sentences(description)
    returns = next((i for i, s in enumerate(parts) if re.match(r"\s*(it\s+)?returns\b", s, re.I)), None)
    if returns is None:
        return (
            "no sentence says what the tool returns: write one that starts 'Returns' and names the "
            "price fields (list price, discount, net price)"
        )
    missing = [name for name, pattern in PRICE_FIELDS.items() if not re.search(pattern, parts[returns], re.I)]
    if missing:
        return (
            f"the returns sentence does not name {', '.join(missing)}: say which price fields come back, so "
            "a model knows the answer will be there"
        )
    boundary = parts[-1]
    if not BOUNDARY_WORDS.search(boundary) or PRICE_NEIGHBOUR not in boundary:
        return (
            f"end with the boundary clause that names the neighbour your tool must not take from: 'Not for "
            f"why an order is blocked (use {PRICE_NEIGHBOUR}).'"
        )
    when = next((i for i, s in enumerate(parts) if WHEN_CLAUSE.search(s)), None)
    if when is None or not returns <= when < len(parts) - 1:
        return (
            "keep the order of the rule: what it does, what it returns, when to use it, and the boundary "
            "clause last"
        )
    return None


def _routing_feedback(six: Any) -> str:
    """What the stand-ins do with the new tool: shown to the learner, never a pass condition."""
    from tooldesign.selection import BM25Picker, WordMatchPicker, run_selection
    from tooldesign.tools import tool_set

    old, price = _revision_cases()
    parts = []
    for name, picker in (("words", WordMatchPicker()), ("BM25", BM25Picker())):
        right = run_selection(picker, six, price, "designed").right
        before = run_selection(picker, tool_set("designed"), old, "designed")
        after = run_selection(picker, six, old, "designed")
        moved = sum(b.right and a.chosen == PRICE_TOOL for b, a in zip(before.rows, after.rows))
        parts.append(
            f"{name} sends it {right}/{len(price)} price requests and takes {count(moved, 'earlier one')}"
        )
    return (
        "Feedback only, not the pass condition: "
        + "; ".join(parts)
        + ". A stand-in counts shared words and cannot see whether a reader understands the description."
    )


def _judge_price_tool(answer: Any) -> object:
    from tooldesign.lint import lint
    from tooldesign.strict_subset import subset_problems
    from tooldesign.tools.schema import check_definition

    if type(answer) is not dict or set(answer) != {"definition", "requests"}:
        return failed("price_tool should be a dict with exactly two keys: 'definition' and 'requests'")
    definition, requests = answer["definition"], answer["requests"]
    if type(definition) is not dict or not {"name", "description", "parameters"} <= set(definition):
        return failed("the definition needs name, description, parameters (and annotations)")
    if definition["name"] != PRICE_TOOL:
        return failed(f"name the tool {PRICE_TOOL!r}: object, verb, detail, like its neighbours")
    if type(definition["description"]) is not str or type(definition["parameters"]) is not dict:
        return failed("the description is a string and the parameters a JSON Schema (a dict)")
    if type(requests) is not list or len(requests) != 2:
        return failed("requests should be a list of two price requests of your own")
    if " ".join(str(requests[0]).lower().split()) == " ".join(str(requests[1]).lower().split()):
        return failed("write two different requests, the way two clerks would ask")
    for request in requests:
        problem = _request_problem(request, [str(definition["description"])])
        if problem:
            return failed(problem)
    invalid = check_definition(_tool(definition))
    if invalid:
        return failed(f"the definition is not valid: {invalid[0]}")
    outside = subset_problems(definition["parameters"])
    if outside:
        return failed(
            f"'{outside[0].keyword}' is outside OpenAI's strict-mode subset, so a strict request is refused; "
            "keep the schema to closed objects, required fields and plain types"
        )
    six = _six(definition)
    report = lint(six)
    rules = report.by_rule()
    if "desc-alternatives" in rules:
        return failed(
            "the description lists alternatives, several words for one job: a synonym list raises a word "
            "matcher's score and tells a reader nothing more. Name the job once, in plain words"
        )
    if "desc-long" in rules:
        return failed(
            "the description is longer than four sentences or 80 words: longer is not safer, a trigger "
            "buried in a long text is not read. Keep what, returns, when and the boundary clause"
        )
    if report.count:
        first = report.findings[0]
        return failed(
            f"{count(report.count, 'lint finding')} in the six-tool set, for example [{first.rule}] "
            f"{first.tool or 'set'}: {first.message}"
        )
    problem = _rule_problem(definition["description"])
    if problem:
        return failed(problem)
    return passed(
        f"6 tools, 0 findings, the description follows the rule (what, returns naming the price fields, "
        f"when, boundary naming {PRICE_NEIGHBOUR}); about {report.tokens} tokens (estimate). "
        f"{_routing_feedback(six)} Your own two requests are scored below."
    )


# ---------- exercise 2: follows every rule, still loses requests ----------


def _judge_rule_abiding(answer: Any) -> object:
    from tooldesign.lint import lint
    from tooldesign.selection import WordMatchPicker, run_selection

    if type(answer) is not str or not answer.strip():
        return failed("broken should be a description (a string) for the price tool")
    definition = {
        "name": PRICE_TOOL,
        "description": answer,
        "parameters": PRICE_PARAMETERS,
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    }
    six = _six(definition)
    findings = [f for f in lint(six).findings if f.tool == PRICE_TOOL]
    if findings:
        return failed(
            f"the linter still objects: [{findings[0].rule}] {findings[0].message}. The point is a "
            "description the linter passes"
        )
    _, price = _revision_cases()
    lost = [row for row in run_selection(WordMatchPicker(), six, price, "designed").rows if not row.right]
    if not lost:
        return failed(
            "every price request still reaches the tool, so linter and test agree here. Keep every "
            "rule, but describe the job in words no clerk would use for it"
        )
    return passed(
        f"0 findings, yet {len(lost)} of {len(price)} price requests go elsewhere: the rules check a "
        "description's shape, only the selection test checks whether it says the job in the clerks' words."
    )


GOOD_REQUESTS = ["Customer says 4725 was overcharged - what did we agree?", "How much discount is on 4725?"]
# The reference answer, written to the course's rule for descriptions: plain words, four sentences.
GOOD_DESCRIPTION = (
    "Shows the prices agreed for one sales order. Returns the list price, discount, net price and currency. "
    "Use it when the customer disputes a price or asks what discount was agreed. Not for why an order is "
    "blocked (use sales_order_get_block_summary)."
)
# The same job written for the word matcher: what the course's own descriptions once looked like.
KEYWORD_STUFFED = (
    "Shows the prices, discounts, conditions, surcharges or rebates of one sales order, whether overcharged, "
    "disputed, wrong or too high. Returns the list price, discount, net price and currency. Use it when the "
    "customer disputes, questions, queries or challenges a price. Not for why an order is blocked (use "
    "sales_order_get_block_summary)."
)
RULE_ABIDING = (
    "Reads commercial terms of one document. Returns the stored figures. Use it when the terms of a "
    "document are needed. Not for block reasons (use sales_order_get_block_summary)."
)


def _definition(description: str) -> dict:
    return {
        "name": PRICE_TOOL,
        "description": description,
        "parameters": PRICE_PARAMETERS,
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    }


EXERCISES = [
    Exercise(
        "ex07-price-tool",
        NOTEBOOK,
        "price_tool",
        3,
        _judge_price_tool,
        prompt=f"Add {PRICE_TOOL} to the designed set with two requests of your own: a valid strict schema, "
        "0 lint findings, and a description that follows the course's rule (what, returns naming the price "
        "fields, when, the boundary naming the block summary).",
        wrong_answers=(
            WrongAnswer(
                {
                    "definition": _definition(
                        "Shows list price, discount and net price of one order. "
                        "Use it when a price is disputed. Read-only."
                    ),
                    "requests": GOOD_REQUESTS,
                },
                "desc-boundary",
            ),
            WrongAnswer(
                {"definition": _definition(KEYWORD_STUFFED), "requests": GOOD_REQUESTS},
                "a synonym list raises",
            ),
            WrongAnswer(
                {"definition": _definition(GOOD_DESCRIPTION + " Read-only."), "requests": GOOD_REQUESTS},
                "longer is not safer",
            ),
            WrongAnswer(
                {"definition": _definition(RULE_ABIDING), "requests": GOOD_REQUESTS}, "does not name"
            ),
            WrongAnswer(
                {
                    "definition": _definition(
                        GOOD_DESCRIPTION.replace(
                            "Not for why an order is blocked (use sales_order_get_block_summary).",
                            "Not for a customer's list of orders (use sales_order_search).",
                        )
                    ),
                    "requests": GOOD_REQUESTS,
                },
                "must not take from",
            ),
            WrongAnswer(
                {
                    "definition": _definition(
                        "Not for why an order is blocked (use sales_order_get_block_summary). Shows the prices "
                        "agreed for one sales order. Returns the list price, discount, net price and currency. "
                        "Use it when the customer disputes a price."
                    ),
                    "requests": GOOD_REQUESTS,
                },
                "boundary clause",
            ),
            WrongAnswer(
                {
                    "definition": {
                        **_definition(GOOD_DESCRIPTION),
                        "parameters": {**PRICE_PARAMETERS, "allOf": [{"required": ["sales_order"]}]},
                    },
                    "requests": GOOD_REQUESTS,
                },
                "strict-mode subset",
            ),
            WrongAnswer(
                {
                    "definition": {"name": "get_prices", "description": "x", "parameters": PRICE_PARAMETERS},
                    "requests": GOOD_REQUESTS,
                },
                "object, verb, detail",
            ),
            WrongAnswer(
                {"definition": _definition("x"), "requests": ["price?", "price?"]}, "two different requests"
            ),
            WrongAnswer(
                {
                    "definition": {"name": PRICE_TOOL, "description": "x", "parameters": {"type": "array"}},
                    "requests": GOOD_REQUESTS,
                },
                "not valid",
            ),
            WrongAnswer(
                {
                    "definition": _definition(GOOD_DESCRIPTION),
                    "requests": [
                        "Returns the list price, discount, net price and currency of the order",
                        GOOD_REQUESTS[1],
                    ],
                },
                "repeats a description's own words",
            ),
            WrongAnswer({"tool": {}}, "exactly two keys"),
        ),
    ),
    Exercise(
        "ex07-broken",
        NOTEBOOK,
        "broken",
        2,
        _judge_rule_abiding,
        prompt="Write a price-tool description the linter passes that still loses price requests.",
        wrong_answers=(
            WrongAnswer(BROKEN_DESCRIPTION, "the linter still objects"),
            WrongAnswer(GOOD_DESCRIPTION, "every price request still reaches the tool"),
            WrongAnswer(
                "Reads commercial terms. Use it when terms are needed. Read-only.", "the linter still objects"
            ),
            WrongAnswer(["Get prices."], "a description (a string)"),
        ),
    ),
    Exercise(
        "ex07-design-note",
        NOTEBOOK,
        "design_note",
        3,
        lambda plain: failed("graded by your instructor"),
        kind="manual",
        prompt="Write the design note: scores, the broken description, results, writes, open questions.",
    ),
]
