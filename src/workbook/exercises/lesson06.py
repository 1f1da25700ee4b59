"""Notebook 06: the selection test. A sixth tool for pricing disputes, proven with the linter and
the test; the same tool broken on purpose; and a design note graded by a person."""
from __future__ import annotations

from typing import Any

from workbook.checks import failed, passed
from workbook.exercises import Exercise, WrongAnswer

NOTEBOOK = "06_selection_test"
PRICE_TOOL = "sales_order_get_price_conditions"
BROKEN_DESCRIPTION = "Get prices."
# The schema the broken run uses: the description is what the exercise breaks, nothing else.
PRICE_PARAMETERS = {"type": "object", "required": ["sales_order"], "additionalProperties": False,
                    "properties": {"sales_order": {"description": "Sales order number, digits only, e.g. '4725'.",
                                                   "type": "string"}}}


def _tool(definition: dict) -> Any:
    from tooldesign.tools import Tool
    return Tool(definition["name"], definition["description"], definition["parameters"],
                lambda arguments: {}, definition.get("annotations") or {})


def _run(definition: dict, requests: list[str]) -> tuple[Any, Any]:
    """Lint the designed set plus this tool, and run the stand-in over every case plus ``requests``."""
    from tooldesign.lint import lint
    from tooldesign.selection import ALL_CASES, Case, WordMatchPicker, run_selection
    from tooldesign.tools import tool_set

    six = tool_set("designed").with_tools([_tool(definition)])
    cases = tuple(ALL_CASES) + tuple(Case(r, {"designed": (PRICE_TOOL,)}) for r in requests)
    return lint(six), run_selection(WordMatchPicker(), six, cases)


def _requests(value: Any) -> str | None:
    """What is wrong with the two requests, or None."""
    if type(value) is not list or len(value) != 2 or any(type(r) is not str or not r.strip() for r in value):
        return "requests should be a list of two clerk requests (strings) about prices"
    if value[0].strip().lower() == value[1].strip().lower():
        return "write two different requests, the way two clerks would ask"
    long = [r for r in value if len(r.split()) > 25]
    if long:
        return f"{long[0][:40]!r}... has {len(long[0].split())} words; a clerk asks in one short sentence"
    return None


# ---------- exercise 1: the sixth tool ----------

def _judge_price_tool(answer: Any) -> object:
    if type(answer) is not dict or set(answer) != {"definition", "requests"}:
        return failed("price_tool should be a dict with exactly two keys: 'definition' and 'requests'")
    definition, requests = answer["definition"], answer["requests"]
    if type(definition) is not dict or not {"name", "description", "parameters"} <= set(definition):
        return failed("the definition needs name, description, parameters (and annotations)")
    if definition["name"] != PRICE_TOOL:
        return failed(f"name the tool {PRICE_TOOL!r}: object, verb, detail, like its neighbours")
    problem = _requests(requests)
    if problem:
        return failed(problem)
    if any(r.strip().lower() in str(definition["description"]).lower() for r in requests):
        return failed("a request copied from the description proves nothing; write what a clerk would type")
    from tooldesign.tools.schema import check_definition

    invalid = check_definition(_tool(definition))
    if invalid:
        return failed(f"the definition is not valid: {invalid[0]}")
    report, result = _run(definition, requests)
    if report.count:
        first = report.findings[0]
        return failed(f"{report.count} lint finding(s) in the six-tool set, for example [{first.rule}] "
                      f"{first.tool or 'set'}: {first.message}")
    misses = [row for row in result.rows if not row.right]
    if misses:
        row = misses[0]
        if row.case.request in requests:
            return failed(f"your request {row.case.request!r} picks {row.chosen}: the description and the request "
                          "should share the clerk's words for the job")
        if row.chosen == PRICE_TOOL:
            return failed(f"your tool now takes {row.case.request!r}, which belongs to "
                          f"{', '.join(row.expected or ())}: say in the description what the tool is NOT for")
        return failed(f"{len(misses)} request(s) wrong, for example {row.case.request!r} picks {row.chosen}")
    declined, asked = result.declined
    return passed(f"6 tools, 0 findings, {result.right}/{result.total} right and {declined}/{asked} no-call "
                  f"requests declined; definitions about {report.tokens} tokens (estimate).")


# ---------- exercise 2: break it on purpose, record what you see ----------

def broken_run(requests: list[str]) -> dict:
    """The answer key: the price tool with description "Get prices.", linted and tested."""
    definition = {"name": PRICE_TOOL, "description": BROKEN_DESCRIPTION, "parameters": PRICE_PARAMETERS,
                  "annotations": {"readOnlyHint": True, "openWorldHint": False}}
    report, result = _run(definition, requests)
    return {"rules": sorted({f.rule for f in report.findings if f.tool == PRICE_TOOL}),
            "misses": sorted(row.case.request for row in result.rows if not row.right)}


def _judge_broken(answer: Any) -> object:
    if type(answer) is not dict or set(answer) != {"requests", "rules", "misses"}:
        return failed("broken should be a dict with three keys: 'requests', 'rules' and 'misses'")
    problem = _requests(answer["requests"])
    if problem:
        return failed(problem)
    for key in ("rules", "misses"):
        if type(answer[key]) is not list or any(type(v) is not str for v in answer[key]):
            return failed(f"{key} should be a list of strings")
    want = broken_run(answer["requests"])
    if sorted(set(answer["rules"])) != want["rules"]:
        missing = sorted(set(want["rules"]) - set(answer["rules"]))
        if missing:
            return failed(f"the linter reports more for 'Get prices.': {missing[0]} is missing from rules (take the "
                          "rule ids of the price tool's findings)")
        return failed("rules lists a rule the linter does not report for the price tool")
    if sorted(answer["misses"]) != want["misses"]:
        if not answer["misses"]:
            return failed(f"misses is empty, but {len(want['misses'])} request(s) go wrong with 'Get prices.': run "
                          "the selection test on the broken set and list the requests it gets wrong")
        return failed("misses does not match what the selection test reports for the broken set; list every "
                      "request whose row is not right")
    return passed(f"'Get prices.' costs {len(want['rules'])} lint findings and {len(want['misses'])} request(s): "
                  "the linter and the test both notice.")


GOOD_REQUESTS = ["What discount did order 4725 get?", "The customer disputes the price of order 4725: what was agreed?"]

EXERCISES = [
    Exercise("ex06-price-tool", NOTEBOOK, "price_tool", 3, _judge_price_tool,
             prompt=f"Add {PRICE_TOOL} to the designed set with two requests: 6 tools, 0 findings, every request "
                    "right.",
             wrong_answers=(
                 WrongAnswer({"definition": {"name": PRICE_TOOL, "description": "Shows list price, discount and "
                                             "net price of one order. Use it when a price is disputed. Read-only.",
                                             "parameters": PRICE_PARAMETERS,
                                             "annotations": {"readOnlyHint": True}},
                              "requests": GOOD_REQUESTS}, "desc-boundary"),
                 WrongAnswer({"definition": {"name": "get_prices", "description": "x", "parameters": PRICE_PARAMETERS},
                              "requests": GOOD_REQUESTS}, "object, verb, detail"),
                 WrongAnswer({"definition": {"name": PRICE_TOOL, "description": "x", "parameters": PRICE_PARAMETERS},
                              "requests": ["price?", "price?"]}, "two different requests"),
                 WrongAnswer({"definition": {"name": PRICE_TOOL, "description": "x", "parameters": {"type": "array"}},
                              "requests": GOOD_REQUESTS}, "not valid"),
                 WrongAnswer({"tool": {}}, "exactly two keys"))),
    Exercise("ex06-broken", NOTEBOOK, "broken", 2, _judge_broken,
             prompt="Set the price tool's description to 'Get prices.' and record the lint rules and the missed "
                    "requests.",
             wrong_answers=(
                 WrongAnswer({"requests": GOOD_REQUESTS, "rules": ["desc-sentences", "desc-when"],
                              "misses": broken_run(GOOD_REQUESTS)["misses"]}, "desc-boundary is missing"),
                 WrongAnswer({"requests": GOOD_REQUESTS, "rules": broken_run(GOOD_REQUESTS)["rules"], "misses": []},
                             "misses is empty"),
                 WrongAnswer({"requests": GOOD_REQUESTS, "rules": ["desc-boundary"]}, "three keys"))),
    Exercise("ex06-design-note", NOTEBOOK, "design_note", 3, lambda plain: failed("graded by your instructor"),
             kind="manual",
             prompt="Write the design note: scores, the broken description, results, writes, open questions."),
]
