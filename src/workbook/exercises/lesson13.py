"""Notebook 13: tool set size. Where accuracy drops, k under a token budget, the catch-all rule."""

from __future__ import annotations

from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed

NOTEBOOK = "13_tool_set_size"


# ---------- exercise 1: what one more tool costs, by growth order ----------

ORDER_KEYS = ("neighbours first", "unrelated first")
FROM_SIZE, TO_SIZE = 5, 25  # the designed five, then twenty added tools


def _loss(points: Any, picker: str = "bm25", per: int = TO_SIZE - FROM_SIZE, scale: float = 100.0) -> float:
    by_size = {p.tools: p.accuracy[picker] for p in points}
    return (by_size[FROM_SIZE] - by_size[TO_SIZE]) * scale / per


def _curves(picker: str = "bm25") -> dict[str, Any]:
    from tooldesign.scale.growth import measure  # the measured curves are the answer key

    return {
        order: measure(sizes=(FROM_SIZE, TO_SIZE), order=order, pickers=(picker,)) for order in ORDER_KEYS
    }


def loss_key(picker: str = "bm25", **kwargs: Any) -> dict[str, float]:
    """Percentage points of accuracy lost per added tool, 5 -> 25 tools, in each growth order."""
    return {order: _loss(points, picker, **kwargs) for order, points in _curves(picker).items()}


def _close(got: dict[str, float], want: dict[str, float], tolerance: float = 0.01) -> bool:
    return all(abs(got[k] - want[k]) <= tolerance for k in ORDER_KEYS)


def _judge_loss_per_tool(answer: Any) -> object:
    if type(answer) is not dict or set(answer) != set(ORDER_KEYS):
        return failed(
            "loss_per_tool should be a dict with the two growth orders as keys: "
            "'neighbours first' (points) and 'unrelated first' (neighbours_last)"
        )
    if any(type(v) not in (int, float) for v in answer.values()):
        return failed("each value is a number: percentage points lost per added tool")
    want = loss_key()
    if _close(answer, want):
        ratio = want["neighbours first"] / want["unrelated first"]
        return passed(
            f"{want['neighbours first']:.2f} points per tool when the neighbours join, "
            f"{want['unrelated first']:.2f} when unrelated tools do: a near neighbour costs about "
            f"{ratio:.1f}x the accuracy of an unrelated tool."
        )
    if _close(answer, {k: -v for k, v in want.items()}):
        return failed("a loss is positive: accuracy with 5 tools minus accuracy with 25")
    if _close(
        answer, {"neighbours first": want["unrelated first"], "unrelated first": want["neighbours first"]}
    ):
        return failed(
            "the two values are swapped: points grew neighbours first, neighbours_last unrelated first"
        )
    if _close(answer, {k: v / 100 for k, v in want.items()}, 0.0001):
        return failed("those are shares; give percentage points (multiply by 100)")
    if _close(answer, loss_key(per=TO_SIZE), 0.01):
        return failed("divide by the tools ADDED (20), not by the size of the catalog (25)")
    if _close(answer, loss_key(per=1), 0.2):
        return failed("that is the whole drop from 5 to 25 tools; divide it by the 20 tools added")
    if _close(answer, loss_key("words"), 0.01):
        return failed("those are the word-matching stand-in's figures; use the bm25 accuracy")
    if _close(answer, _from_table(), 0.005):
        return failed(
            "the table rounds each accuracy to a whole percent: compute from the curves, "
            "p.accuracy['bm25'] at 5 and at 25 tools"
        )
    return failed("for each order: (bm25 accuracy at 5 tools - at 25 tools) x 100 / 20 added tools")


def _from_table(picker: str = "bm25") -> dict[str, float]:
    """The loss worked out from accuracies rounded to whole percents, as the notebook's table prints them."""
    out = {}
    for order, points in _curves(picker).items():
        at = {p.tools: round(100 * p.accuracy[picker]) for p in points}
        out[order] = (at[FROM_SIZE] - at[TO_SIZE]) / (TO_SIZE - FROM_SIZE)
    return out


# ---------- exercise 2: k under a token budget ----------

ROWS = [
    {"k": 1, "accuracy": 0.71, "tokens": 498},
    {"k": 2, "accuracy": 0.74, "tokens": 632},
    {"k": 3, "accuracy": 0.74, "tokens": 759},
    {"k": 5, "accuracy": 0.77, "tokens": 1003},
    {"k": 10, "accuracy": 0.74, "tokens": 1623},
]
SHUFFLED = [
    {"k": 4, "accuracy": 0.8, "tokens": 900},
    {"k": 2, "accuracy": 0.8, "tokens": 600},
    {"k": 6, "accuracy": 0.9, "tokens": 1200},
]
K_PROBES = ((ROWS, 700), (ROWS, 1700), (ROWS, 800), (ROWS, 5000), (ROWS, 400), (ROWS, 1003), (SHUFFLED, 1000))
K_EXPECTED = (2, 5, 2, 5, None, 5, 2)


def _judge_choose_k(results: Any) -> object:
    for (rows, budget), got, want in zip(K_PROBES, results, K_EXPECTED):
        call = f"choose_k(rows, budget={budget})"
        if isinstance(got, dict):
            return failed(f"{call} raised {got.get('error')}")
        if want is None:
            if got is not None:
                return failed(f"{call} returned {got!r}, but no k fits {budget} tokens: return None")
            continue
        if type(got) is not int:
            return failed(f"{call} returned {got!r}; return the k itself, an int")
        if got == want:
            continue
        row = next((r for r in rows if r["k"] == got), None)
        if row is not None and row["tokens"] > budget:
            return failed(
                f"{call} returned k={got}, which costs {row['tokens']} tokens: stay within the budget"
            )
        best = next(r for r in rows if r["k"] == want)
        if best["tokens"] == budget:
            return failed(f"{call}: k={want} costs exactly the budget, and that fits (tokens <= budget)")
        if row is not None and row["accuracy"] < best["accuracy"]:
            return failed(
                f"{call} returned k={got}; k={want} fits too and is more accurate: pick on accuracy"
            )
        if row is not None and row["accuracy"] == best["accuracy"] and got > want:
            return failed(
                f"{call} returned k={got}; on a tie in accuracy take the smaller k, which costs less"
            )
        return failed(f"{call} returned {got!r}, expected {want}")
    return passed("the most accurate k within the budget, the cheaper one on a tie, None when nothing fits.")


def _largest_fitting(rows, budget):
    fitting = [r["k"] for r in rows if r["tokens"] <= budget]
    return max(fitting) if fitting else None


def _ignores_budget(rows, budget):
    return max(rows, key=lambda r: (r["accuracy"], -r["k"]))["k"]


def _larger_on_tie(rows, budget):
    fitting = [r for r in rows if r["tokens"] <= budget]
    return max(fitting, key=lambda r: (r["accuracy"], r["k"]))["k"] if fitting else None


def _strict_budget(rows, budget):
    fitting = [r for r in rows if r["tokens"] < budget]
    return max(fitting, key=lambda r: (r["accuracy"], -r["k"]))["k"] if fitting else None


# ---------- exercise 3: the catch-all fields ----------


def _tool(name: str, props: dict) -> dict:
    return {"name": name, "description": "A tool.", "parameters": {"type": "object", "properties": props}}


FREE = {"type": "string", "description": "What to do, in words."}
CATCH_PROBES = (
    (_tool("sap_assistant_run", {"instruction": FREE}),),
    (
        _tool(
            "customer_check_account",
            {
                "action": {"type": "string", "enum": ["credit_exposure", "address_gaps"]},
                "customer": {"type": "string"},
            },
        ),
    ),
    (_tool("erp_task_execute", {"customer": {"type": "string"}, "task": FREE, "prompt": FREE}),),
    (_tool("sales_order_search", {"customer": {"type": "string"}, "limit": {"type": ["integer", "null"]}}),),
    (_tool("billing_run", {"Command": FREE}),),
    (_tool("delivery_block_list_reasons", {}),),
    (_tool("job_run_named", {"operation": {"type": "string", "pattern": "^[a-z_]+$"}, "query": FREE}),),
    (_tool("assistant_ask", {"prompt": {"type": ["string", "null"]}}),),
)
CATCH_EXPECTED: tuple[list[str], ...] = (
    ["instruction"],
    [],
    ["task", "prompt"],
    [],
    ["Command"],
    [],
    ["query"],
    ["prompt"],
)


def _judge_catch_all(results: Any) -> object:
    for (definition,), got, want in zip(CATCH_PROBES, results, CATCH_EXPECTED):
        props = definition["parameters"]["properties"]
        params = list(props)
        call = f"catch_all_fields(<{definition['name']} with parameters {params}>)"
        if isinstance(got, dict):
            return failed(f"{call} raised {got.get('error')}; a tool may have no parameters at all")
        if type(got) is bool:
            return failed(f"{call} returned {got}; return the list of field names, not a verdict")
        if type(got) is not list or not all(type(name) is str for name in got):
            return failed(f"{call} returned {got!r}; return a list of field names (strings)")
        if sorted(got) == sorted(want) and len(got) == len(set(got)):
            continue
        if len(got) != len(set(got)):
            return failed(f"{call} returned {got!r}: name each field once")
        if sorted(name.lower() for name in got) == sorted(name.lower() for name in want):
            return failed(
                f"{call} returned {got!r}, expected {want!r}: return the names as the definition "
                "spells them, and compare them in lower case"
            )
        strangers = [n for n in got if n not in props]
        if strangers:
            return failed(
                f"{call} lists {strangers[0][:60]!r}, which is no parameter of this tool; return the "
                "parameter names themselves"
            )
        missing, extra = [n for n in want if n not in got], [n for n in got if n not in want]
        if missing:
            name = missing[0]
            if isinstance(props[name].get("type"), list):
                return failed(f"{call} misses '{name}': a type of ['string', 'null'] is free text too")
            if name != name.lower():
                return failed(f"{call} misses '{name}': compare parameter names in lower case")
            if got and set(got) < set(want):
                return failed(f"{call} misses '{name}': list every such field, not only the first")
            return failed(f"{call} misses '{name}': any name in CHOICE_WORDS counts, not only 'instruction'")
        name = extra[0]
        if name in props and ("enum" in props[name] or "pattern" in props[name]):
            return failed(
                f"{call} lists '{name}', which has an enum or a pattern: that constrains the choice, so "
                "it is no free text"
            )
        return failed(f"{call} lists '{name}': only a free-text string named like a choice counts")
    return passed(
        "the free-text fields that pick the operation are named; enums, patterns and ordinary fields are not."
    )


def _only_instruction(definition):
    return [n for n in definition["parameters"].get("properties", {}) if n == "instruction"]


def _ignores_enum(definition):
    props = definition["parameters"].get("properties", {})
    words = {"instruction", "command", "action", "operation", "task", "prompt", "request", "query"}
    return [name for name in props if name.lower() in words]


def _case_sensitive(definition):
    props = definition["parameters"].get("properties", {})
    words = {"instruction", "command", "action", "operation", "task", "prompt", "request", "query"}
    return [
        name
        for name, spec in props.items()
        if name in words and spec.get("type") == "string" and "enum" not in spec and "pattern" not in spec
    ]


def _first_only(definition):
    found = _right_fields(definition)
    return found[:1]


def _lowered(definition):
    return [name.lower() for name in _right_fields(definition)]


def _verdict_only(definition):
    return bool(_right_fields(definition))


def _lint_messages(definition):
    return [
        f"'{name}' is free text that chooses the operation: a catch-all" for name in _right_fields(definition)
    ]


def _right_fields(definition):
    """The lesson's rule, right (the grader's reference), as the wrong answers above start from it."""
    from workbook.exercises.references import catch_all_fields

    return catch_all_fields(definition)


EXERCISES = [
    Exercise(
        "ex13-loss-per-tool",
        NOTEBOOK,
        "loss_per_tool",
        1,
        _judge_loss_per_tool,
        prompt="BM25 accuracy points lost per added tool from 5 to 25 tools, neighbours first and "
        "unrelated first.",
        wrong_answers=(
            # Figures of the plain designed descriptions (BM25 loses about as much in either order, so a
            # swapped answer cannot be told from a right one here).
            WrongAnswer({"neighbours first": 0.004835, "unrelated first": 0.004835}, "percentage points"),
            WrongAnswer({"neighbours first": 0.3868, "unrelated first": 0.3868}, "ADDED"),
            WrongAnswer({"neighbours first": 9.67, "unrelated first": 9.67}, "whole drop"),
            WrongAnswer({"neighbours first": -0.4835, "unrelated first": -0.4835}, "positive"),
            WrongAnswer({"neighbours first": 0.591, "unrelated first": 0.376}, "word-matching"),
            WrongAnswer({"neighbours first": 1.29}, "two growth orders"),
            WrongAnswer(15, "two growth orders"),
            # read off the table: 74% and 65% at 5 and 25 tools (the prose says the orders agree)
            WrongAnswer({"neighbours first": 0.45, "unrelated first": 0.45}, "rounds each accuracy"),
        ),
    ),
    Exercise(
        "ex13-choose-k",
        NOTEBOOK,
        "choose_k",
        2,
        _judge_choose_k,
        kind="function",
        probes=K_PROBES,
        prompt="Write choose_k(rows, budget): the most accurate k whose tokens fit the budget.",
        wrong_answers=(
            WrongAnswer(_largest_fitting, "pick on accuracy"),
            WrongAnswer(_ignores_budget, "stay within the budget"),
            WrongAnswer(_larger_on_tie, "smaller k"),
            WrongAnswer(_strict_budget, "tokens <= budget"),
        ),
    ),
    Exercise(
        "ex13-catch-all",
        NOTEBOOK,
        "catch_all_fields",
        2,
        _judge_catch_all,
        kind="function",
        probes=CATCH_PROBES,
        prompt="Write catch_all_fields(definition): the free-text fields that choose the operation.",
        wrong_answers=(
            WrongAnswer(_only_instruction, "not only 'instruction'"),
            WrongAnswer(_ignores_enum, "enum or a pattern"),
            WrongAnswer(_case_sensitive, "lower case"),
            WrongAnswer(_first_only, "not only the first"),
            WrongAnswer(_lowered, "as the definition spells them"),
            WrongAnswer(_verdict_only, "not a verdict"),
            WrongAnswer(_lint_messages, "no parameter of this tool"),
        ),
    ),
]
