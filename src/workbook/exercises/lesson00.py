"""Notebook 00: a warm-up that shows how exercises and checks behave.

Its one exercise asks what a tool is to a model: the name, the description and the argument schema
are sent; the code behind the tool (its comments and docstring included) is not. A rule that stands
only in the code cannot help the model choose the tool or fill in its arguments.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, probe_error

# What a model is sent of a tool (tooldesign.tools.base.Tool.definition); everything else stays with the code.
SENT = ("name", "description", "parameters")

ORDER_TOOL: dict = {
    "name": "sales_order_get",
    "description": "Get one sales order by its number: status, customer and net value.",
    "parameters": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "description": "The sales order number, e.g. 4711."},
            "detail": {"type": "string", "enum": ["concise", "with items"]},
        },
        "required": ["order_id"],
    },
    "handler": (
        "def sales_order_get(args):\n"
        '    """Read A_SalesOrder; orders of company code 1010 only."""\n'
        "    # Net value in EUR, converted at the month's rate.\n"
        "    ..."
    ),
}
BARE_TOOL: dict = {
    "name": "customer_find",
    "description": "Find customers whose name contains a text.",
    "parameters": {"type": "object", "properties": {}},
    "handler": "def customer_find(args):\n    # Returns at most 5 customers.\n    ...",
}

# The check's cases for model_is_told(tool, fact), each with where the fact stands, for the hints.
TOLD_PROBES: tuple[tuple[dict, str], ...] = (
    (ORDER_TOOL, "by its number"),
    (ORDER_TOOL, "company code 1010"),
    (ORDER_TOOL, "e.g. 4711"),
    (ORDER_TOOL, "with items"),
    (ORDER_TOOL, "detail"),
    (ORDER_TOOL, "converted at the month's rate"),
    (ORDER_TOOL, "delivery block"),
    (BARE_TOOL, "customer_find"),
    (BARE_TOOL, "at most 5 customers"),
)
TOLD_CASES = (
    "a phrase of the description",
    "a rule in the handler's docstring",
    "an example in an argument's description",
    "a value the schema's enum allows",
    "an optional argument's name",
    "a rule in a comment of the handler",
    "a phrase that stands nowhere",
    "the tool's name",
    "a limit in a comment of the handler",
)
# Why the right answer is what it is, by case: a rule, never the True or False itself.
_SCHEMA = (
    "the argument schema is sent with the name and description: the model reads every property, its "
    "name, its description and its enum values, to fill in a call"
)
_CODE = (
    "the code behind the tool never reaches the model, its docstring and comments included: only the "
    "name, the description and the parameters are sent"
)
TOLD_RULES = (
    "the description is sent on every call",
    _CODE,
    _SCHEMA,
    _SCHEMA,
    _SCHEMA,
    _CODE,
    "a fact that stands in no part of the tool is told to nobody",
    "the name is sent: it is how the model calls the tool",
    _CODE,
)


def _texts(value: Any) -> Iterator[str]:
    """Every text in a JSON value: strings, and the keys of objects (a property's name is read too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def reference_told(tool: dict, fact: str) -> bool:
    """The model is told a fact when it stands in the name, the description or the argument schema."""
    return any(fact in text for part in SENT for text in _texts(tool.get(part)))


def _everywhere(tool, fact):
    return fact in json.dumps(tool, ensure_ascii=False)


def _description_only(tool, fact):
    return fact in tool["description"]


def _name_and_description(tool, fact):
    return fact in tool["name"] or fact in tool["description"]


def _schema_values_only(tool, fact):
    """Reads the schema's texts but not its keys, so an argument's name goes unseen."""

    def values(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from values(item)
        elif isinstance(value, list):
            for item in value:
                yield from values(item)

    return any(fact in text for part in SENT for text in values(tool[part]))


def _call(tool: dict, fact: str) -> str:
    return f"model_is_told(<{tool.get('name', 'a tool')}>, {fact!r})"


def _judge_told(results) -> object:
    for (tool, fact), case, rule, got in zip(TOLD_PROBES, TOLD_CASES, TOLD_RULES, results):
        call = _call(tool, fact)
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}; a tool's schema may have no properties at all")
        if type(got) is not bool:
            return failed(f"{call} returned a {type(got).__name__}; return True or False")
        if got == reference_told(tool, fact):
            continue
        return failed(f"{call} ({case}) returned {got}: {rule}")
    return passed(
        "the model is told what the name, the description and the parameters say, and nothing the "
        "code alone says: right for tools it had not seen."
    )


EXERCISES = [
    Exercise(
        "ex00-model-is-told",
        "00_start_here",
        "model_is_told",
        1,
        _judge_told,
        kind="function",
        probes=TOLD_PROBES,
        prompt=(
            "Write model_is_told(tool, fact): True when the model, offered this tool, is sent the text "
            "fact; False when only the code behind the tool says it."
        ),
        wrong_answers=(
            WrongAnswer(_everywhere, "never reaches the model"),
            WrongAnswer(_description_only, "argument schema is sent"),
            WrongAnswer(_name_and_description, "argument schema is sent"),
            WrongAnswer(_schema_values_only, "its name, its description"),
            WrongAnswer(lambda tool, fact: True, "never reaches the model"),
            WrongAnswer(lambda tool, fact: fact in tool["handler"], "description is sent"),
        ),
    ),
]
