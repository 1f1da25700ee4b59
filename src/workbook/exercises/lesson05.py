"""Notebook 05: the linter. Predict what it finds, then write a rule of your own."""

from __future__ import annotations

import re
from typing import Any

from tooldesign.lint import VAGUE_WORDS as VAGUE  # the list the notebook prints
from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, placeholder_problem, probe_error, readable

NOTEBOOK = "05_lint"

# ---------- exercise 1: predict the findings ----------

# A first draft someone wants to add to the designed set; the notebook shows it, the check lints it.
DRAFT: dict[str, Any] = {
    "name": "credit_check",
    "description": "Checks credit. Use it for credit questions.",
    "parameters": {
        "type": "object",
        "required": ["customer"],
        "properties": {
            "customer": {"type": "string", "description": "Customer number."},
            "order": {"type": "string"},
        },
    },
    "annotations": {},
}


def draft_rules() -> list[str]:
    """The rule ids the course's linter reports for DRAFT inside the designed set (the answer key)."""
    from tooldesign.lint import lint
    from tooldesign.tools import Tool, tool_set

    draft = Tool(
        DRAFT["name"], DRAFT["description"], DRAFT["parameters"], lambda arguments: {}, DRAFT["annotations"]
    )
    report = lint(tool_set("designed").with_tools([draft]))
    return sorted({f.rule for f in report.findings if f.tool == draft.name or draft.name in f.message})


HINTS = {
    "name-shape": "two words and no object_verb_detail shape",
    "desc-sentences": "count the sentences of the description",
    "desc-boundary": "nothing says what it is not for, or which neighbour to use instead",
    "param-described": "one parameter has no description",
    "safety-read-only-hint": "look at the annotations",
    "strict-closed": "is the parameter object closed?",
    "strict-required": "is every parameter required?",
}


def _judge_predicted(answer: Any) -> object:
    if type(answer) is not list or any(type(item) is not str for item in answer):
        return failed("predicted_rules should be a list of rule ids (strings), such as 'desc-when'")
    if answer != sorted(set(answer)):
        return failed("list each rule id once, sorted: sorted(set(...))")
    from tooldesign.lint import RULES

    unknown = [rule for rule in answer if rule not in {r.id for r in RULES}]
    if unknown:
        return failed(f"{unknown[0]!r} is not a rule id; the table above lists them all")
    want = draft_rules()
    # The hints name no rule: a hint that said which rule was wrong would let a learner find the answer
    # by adding and removing ids one at a time, without reading the draft.
    if any(rule not in want for rule in answer):
        return failed(
            "at least one rule you listed does not fire for this draft: read each one's check against the "
            "draft again (a vague clause is still a clause)"
        )
    if any(rule not in answer for rule in want):
        return failed(
            "some rules are missing: go through the draft part by part (the name, each sentence, each "
            "parameter, whether the object is closed and every field required, the annotations)"
        )
    return passed(f"all {len(want)} findings predicted, before running the linter.")


# ---------- exercise 2: a rule of your own ----------

RETURN_WORDS = ("return", "returns", "returned")


def _words(sentence: str) -> list[str]:
    # Underscores and letters stay together, so a tool name such as return_order_search is one word.
    return re.findall(r"[a-z0-9_']+", sentence.lower())


def reference_returns_clause(description: str) -> list[str]:
    """The answer key: flag unless a sentence uses the verb as a word and names what comes back."""
    from tooldesign.lint import sentences

    for sentence in sentences(description):
        words = _words(sentence)
        if any(w in RETURN_WORDS for w in words) and any(
            w not in VAGUE and w not in RETURN_WORDS for w in words
        ):
            return []
    return ["say what the tool returns, so the model knows whether the answer will be there"]


# Descriptions from tool sets the notebook never shows; True: the rule must flag it. The hint is
# what a rule that misses a flagged one has got wrong.
RETURNS_CASES = (
    (
        "Looks up a carrier's lanes. It returns each lane with its transit days. Use it when a clerk asks how "
        "long a delivery takes.",
        False,
        "",
    ),
    ("Get credit.", True, "that description never says what the tool returns"),
    (
        "Lists the open invoices of one customer. Use it when the user asks what is still owed. Not for "
        "payments (use payment_search).",
        True,
        "that description never says what the tool returns",
    ),
    ("Returns the weather.", False, ""),
    ("", True, "an empty description says nothing at all"),
    ("Creates a draft credit note for a person to approve. RETURNS the draft id and its status.", False, ""),
    (
        "Finds a warehouse bin by its label. Use it before moving stock. It only reads.",
        True,
        "that description never says what the tool returns",
    ),
    ("Explains a delivery block. The result is returned as text a clerk reads.", False, ""),
    (
        "Marks an item as nonreturnable. Use it before a sale is final. Not for refunds (use return_order_search).",
        True,
        "'return' appears there only inside another word and a tool name: match return, returns or "
        "returned as whole words",
    ),
    (
        "Looks up one sales order by its number. Returns data.",
        True,
        "'Returns data.' says that something comes back, not what: require a word besides the verb and the "
        "vague words in VAGUE_WORDS",
    ),
    (
        "Checks a customer's credit. Use it before a release. It returns the result.",
        True,
        "'It returns the result.' names nothing the model could look for: require a word outside VAGUE_WORDS",
    ),
    ("Reads one meter. Returned: the previous and the current index, as whole numbers.", False, ""),
    (
        "Finds returning customers of a sales office. Use it for loyalty questions.",
        True,
        "'returning' is not the verb that says what comes back: match return, returns or returned as whole words",
    ),
)
RETURNS_PROBES = tuple((description,) for description, _, _ in RETURNS_CASES)
RETURNS_EXPECTED = [flag for _, flag, _ in RETURNS_CASES]  # True: the rule must flag it


def _judge_returns(results: Any) -> object:
    for (description, flag, hint), got in zip(RETURNS_CASES, results):
        shown = repr(description)  # whole: the learner needs the very text their rule misread
        if (raised := probe_error(got)) is not None:
            return failed(f"returns_clause({shown}) raised {raised}")
        if type(got) is not list or any(type(m) is not str or not m.strip() for m in got):
            return failed(
                f"returns_clause({shown}) returned {got!r}; a rule returns a list of messages "
                "([] when the description is fine)"
            )
        if flag and not got:
            return failed(f"returns_clause({shown}) flags nothing, but {hint}")
        if not flag and got:
            return failed(
                f"returns_clause({shown}) flags it, but it does say what it returns: match the word "
                "in any case and in any sentence ('returns', 'RETURNS', 'returned'), and "
                "count any word outside VAGUE_WORDS as naming something"
            )
    # Only once every verdict is right: a message that holds a place tells the author nothing.
    for got in results:
        held = next((h for m in got if (h := placeholder_problem(m, f"the message {readable(m, 40)}"))), None)
        if held:
            return failed(f"returns_clause: {held}, so the author knows what to fix")
    return passed(
        f"right on {len(RETURNS_CASES)} descriptions from tool sets it had not seen: whole words, "
        "and a clause that names what comes back."
    )


def _starts_with_returns(description: str) -> list[str]:
    return [] if description.startswith("Returns") else ["say what the tool returns"]


def _case_sensitive(description: str) -> list[str]:
    return [] if "returns" in description or "Returns" in description else ["say what the tool returns"]


def _letters_anywhere(description: str) -> list[str]:
    return [] if "return" in description.lower() else ["say what the tool returns"]


def _whole_word_only(description: str) -> list[str]:
    return [] if re.search(r"\breturn(s|ed)?\b(?!_)", description, re.I) else ["say what the tool returns"]


EXERCISES = [
    Exercise(
        "ex05-predict",
        NOTEBOOK,
        "predicted_rules",
        0,
        _judge_predicted,
        kind="prediction",
        prompt="Predict the rule ids the linter reports for the draft credit_check tool.",
        wrong_answers=(
            WrongAnswer(["desc-sentences", "desc-when", "name-shape"], "does not fire"),
            WrongAnswer(["desc-boundary", "desc-sentences", "name-shape"], "some rules are missing"),
            WrongAnswer(
                sorted(
                    [
                        "name-shape",
                        "desc-sentences",
                        "desc-boundary",
                        "param-described",
                        "strict-closed",
                        "strict-required",
                        "safety-read-only-hint",
                        "desc-when",
                    ]
                ),
                "does not fire",
            ),
            WrongAnswer(["name-shape", "desc-boundary"], "sorted"),
            WrongAnswer(["desc-short"], "not a rule id"),
        ),
    ),
    Exercise(
        "ex05-returns-rule",
        NOTEBOOK,
        "returns_clause",
        2,
        _judge_returns,
        kind="function",
        probes=RETURNS_PROBES,
        prompt="Write the lint rule returns_clause(description): flag a description with no sentence that "
        "uses return/returns/returned as a word and names what comes back.",
        wrong_answers=(
            WrongAnswer(lambda description: [], "flags nothing"),
            WrongAnswer(_letters_anywhere, "whole words"),
            WrongAnswer(_whole_word_only, "not what"),
            WrongAnswer(_starts_with_returns, "in any case and in any sentence"),
            WrongAnswer(_case_sensitive, "in any case and in any sentence"),
            WrongAnswer(
                lambda description: "" if reference_returns_clause(description) == [] else "no returns",
                "list of messages",
            ),
            WrongAnswer(
                lambda description: ["x"] if reference_returns_clause(description) else [], "in words"
            ),
            WrongAnswer(
                lambda description: (
                    ["TODO: fix this message"] if reference_returns_clause(description) else []
                ),
                "placeholder words",
            ),
            WrongAnswer(
                lambda description: (
                    ["lorem ipsum dolor amet"] if reference_returns_clause(description) else []
                ),
                "placeholder words",
            ),
        ),
    ),
]
