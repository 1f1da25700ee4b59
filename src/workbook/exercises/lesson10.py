"""Notebook 10: tool set size. Where accuracy drops, k under a token budget, the catch-all rule."""
from __future__ import annotations

from typing import Any

from workbook.checks import failed, passed
from workbook.exercises import Exercise, WrongAnswer

NOTEBOOK = "10_tool_set_size"


# ---------- exercise 1: where the drop starts ----------

def _first_drop() -> int | None:
    from tooldesign.scale.growth import measure  # the measured curve is the answer key

    points = measure(pickers=("bm25",))
    start = points[0].accuracy["bm25"]
    return next((p.tools for p in points if p.accuracy["bm25"] < start - 0.10), None)


def _judge_first_drop(answer: Any) -> object:
    if answer is None:
        return failed("use the bm25 accuracy: it does fall more than 10 points below its 5-tool value")
    if type(answer) is not int:
        return failed("first_drop should be a number of tools (an int), e.g. points[3].tools")
    want = _first_drop()
    if answer == want:
        return passed(f"from {want} tools on, BM25 picks the right tool more than 10 points less often than with 5.")
    if answer < want:
        return failed(f"at {answer} tools BM25 is within 10 points of its 5-tool accuracy; look for MORE than "
                      "10 points below")
    return failed(f"at {answer} tools the drop has already happened; give the FIRST size where it does")


# ---------- exercise 2: k under a token budget ----------

ROWS = [{"k": 1, "accuracy": 0.71, "tokens": 498}, {"k": 2, "accuracy": 0.74, "tokens": 632},
        {"k": 3, "accuracy": 0.74, "tokens": 759}, {"k": 5, "accuracy": 0.77, "tokens": 1003},
        {"k": 10, "accuracy": 0.74, "tokens": 1623}]
SHUFFLED = [{"k": 4, "accuracy": 0.8, "tokens": 900}, {"k": 2, "accuracy": 0.8, "tokens": 600},
            {"k": 6, "accuracy": 0.9, "tokens": 1200}]
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
            return failed(f"{call} returned k={got}, which costs {row['tokens']} tokens: stay within the budget")
        best = next(r for r in rows if r["k"] == want)
        if best["tokens"] == budget:
            return failed(f"{call}: k={want} costs exactly the budget, and that fits (tokens <= budget)")
        if row is not None and row["accuracy"] < best["accuracy"]:
            return failed(f"{call} returned k={got}; k={want} fits too and is more accurate: pick on accuracy")
        if row is not None and row["accuracy"] == best["accuracy"] and got > want:
            return failed(f"{call} returned k={got}; on a tie in accuracy take the smaller k, which costs less")
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


# ---------- exercise 3: the catch-all rule ----------

def _tool(name: str, props: dict) -> dict:
    return {"name": name, "description": "A tool.", "parameters": {"type": "object", "properties": props}}


FREE = {"type": "string", "description": "What to do, in words."}
CATCH_PROBES = (
    (_tool("sap_assistant_run", {"instruction": FREE}),),
    (_tool("customer_check_account", {"action": {"type": "string", "enum": ["credit_exposure", "address_gaps"]},
                                      "customer": {"type": "string"}}),),
    (_tool("erp_task_execute", {"task": FREE, "customer": {"type": "string"}}),),
    (_tool("sales_order_search", {"customer": {"type": "string"}, "limit": {"type": ["integer", "null"]}}),),
    (_tool("billing_run", {"Command": FREE}),),
    (_tool("delivery_block_list_reasons", {}),),
    (_tool("job_run_named", {"operation": {"type": "string", "pattern": "^[a-z_]+$"}}),),
    (_tool("assistant_ask", {"prompt": {"type": ["string", "null"]}}),),
)
CATCH_EXPECTED = (True, False, True, False, True, False, False, True)


def _judge_catch_all(results: Any) -> object:
    for (definition,), got, want in zip(CATCH_PROBES, results, CATCH_EXPECTED):
        params = list(definition["parameters"]["properties"])
        call = f"is_catch_all(<{definition['name']} with parameters {params}>)"
        if isinstance(got, dict):
            return failed(f"{call} raised {got.get('error')}; a tool may have no parameters at all")
        if type(got) is not bool:
            return failed(f"{call} returned {got!r}; return True or False")
        if got == want:
            continue
        if want:
            if any(isinstance(s.get("type"), list) for s in definition["parameters"]["properties"].values()):
                return failed(f"{call} should be True: a type of ['string', 'null'] is free text too")
            if any(p != p.lower() for p in params):
                return failed(f"{call} should be True: compare parameter names in lower case")
            return failed(f"{call} should be True: any name in CHOICE_WORDS counts, not only 'instruction'")
        if "enum" in str(definition) or "pattern" in str(definition):
            return failed(f"{call} should be False: an enum or a pattern constrains the choice, so it is no "
                          "free text")
        return failed(f"{call} should be False: only a free-text string named like a choice counts")
    return passed("free text that picks the operation is flagged; enums, patterns and ordinary fields are not.")


def _only_instruction(definition):
    return "instruction" in definition["parameters"].get("properties", {})


def _ignores_enum(definition):
    props = definition["parameters"].get("properties", {})
    words = {"instruction", "command", "action", "operation", "task", "prompt", "request", "query"}
    return any(name.lower() in words for name in props)


def _case_sensitive(definition):
    props = definition["parameters"].get("properties", {})
    words = {"instruction", "command", "action", "operation", "task", "prompt", "request", "query"}
    return any(name in words and spec.get("type") == "string" and "enum" not in spec and "pattern" not in spec
               for name, spec in props.items())


EXERCISES = [
    Exercise("ex10-first-drop", NOTEBOOK, "first_drop", 1, _judge_first_drop,
             prompt="The first catalog size where BM25 accuracy is more than 10 points below its 5-tool value.",
             wrong_answers=(WrongAnswer(10, "MORE than"), WrongAnswer(25, "FIRST size"),
                            WrongAnswer(None, "bm25"), WrongAnswer("15", "an int"))),
    Exercise("ex10-choose-k", NOTEBOOK, "choose_k", 2, _judge_choose_k, kind="function", probes=K_PROBES,
             prompt="Write choose_k(rows, budget): the most accurate k whose tokens fit the budget.",
             wrong_answers=(WrongAnswer(_largest_fitting, "pick on accuracy"),
                            WrongAnswer(_ignores_budget, "stay within the budget"),
                            WrongAnswer(_larger_on_tie, "smaller k"),
                            WrongAnswer(_strict_budget, "tokens <= budget"))),
    Exercise("ex10-catch-all", NOTEBOOK, "is_catch_all", 2, _judge_catch_all, kind="function",
             probes=CATCH_PROBES,
             prompt="Write is_catch_all(definition): does free text choose the operation?",
             wrong_answers=(WrongAnswer(_only_instruction, "not only 'instruction'"),
                            WrongAnswer(_ignores_enum, "enum or a pattern"),
                            WrongAnswer(_case_sensitive, "lower case"))),
]
