"""A lint rule for results: free text that reaches the model unlabelled.

The course's linter (``tooldesign.lint``) reads definitions; free text shows only in results. So
this rule makes sample calls, on a tool set built over *canary* data: every free-text field
(order note, customer remark) holds a marker instead of its text. Any result string that carries
the marker outside a labelled-data object is a free-text field the model reads as if the tool had
said it. Run it on a copy over canary data, never against a live system: it calls the tools.

Only tools with a sample call are run, and never one that declares it writes. A tool set that
reads no free-text field has nothing to find, which is why the designed and mirrored sets pass
it with the findings they already had.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tooldesign.data.notes import NOTES, Note
from tooldesign.injection.results import FREE_TEXT_KIND
from tooldesign.lint import RULES, Rule
from tooldesign.tools import Tool
from tooldesign.tools.designed import EXAMPLES

__all__ = [
    "CANARY",
    "MIRROR_EXAMPLES",
    "SAMPLE_CALLS",
    "free_text_paths",
    "canary_notes",
    "result_free_text_rule",
    "FREE_TEXT_RULE",
    "RULES_WITH_RESULTS",
]

CANARY = "FREE-TEXT-CANARY"
# Read calls for the mirrored set; update_order has none, so it is never run.
MIRROR_EXAMPLES: dict[str, dict[str, Any]] = {
    "get_order": {"id": "4711"},
    "get_order_details": {"id": "4711"},
    "get_order_status": {"id": "4711"},
    "get_bp": {"id": "10023"},
    "get_credit": {"id": "10023"},
    "query": {"entity": "A_SalesOrder", "filter": "SoldToParty eq '10023'"},
}
SAMPLE_CALLS: dict[str, dict[str, Any]] = {**EXAMPLES, **MIRROR_EXAMPLES}


def free_text_paths(value: Any, marker: str = CANARY, path: str = "") -> list[str]:
    """Paths ("order_notes.0") of strings holding ``marker`` that are not inside a labelled-data object."""
    if isinstance(value, str):
        return [path or "(result)"] if marker in value else []
    if isinstance(value, dict):
        if value.get("kind") == FREE_TEXT_KIND:
            return []
        return [
            p for key, item in value.items() for p in free_text_paths(item, marker, _join(path, str(key)))
        ]
    if isinstance(value, list):
        return [p for n, item in enumerate(value) for p in free_text_paths(item, marker, _join(path, str(n)))]
    return []


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def canary_notes(notes: Sequence[Note] = NOTES) -> tuple[Note, ...]:
    """The notes with each text replaced by the marker and its id, for the rule's sample calls."""
    return tuple(
        Note(n.note_id, n.sales_order, n.customer, n.field, n.author, f"{CANARY} {n.note_id}") for n in notes
    )


def _fields(paths: list[str]) -> list[str]:
    """order_notes.0, order_notes.1 -> order_notes[]: one entry per field, not per note."""
    return sorted({re.sub(r"\.(\d+)(?=\.|$)", "[]", p) for p in paths})


def result_free_text_rule(samples: Mapping[str, Mapping[str, Any]] = SAMPLE_CALLS) -> Rule:
    """The rule, with the sample call to make for each tool name."""

    def check(tool: Tool, tools: Sequence[Tool]) -> list[str]:
        if tool.name not in samples or tool.annotations.get("readOnlyHint") is False:
            return []
        fields = _fields(free_text_paths(tool.run(dict(samples[tool.name]))))
        if not fields:
            return []
        return [
            f"result field {', '.join(fields)} carries free text as plain strings; leave it out unless the "
            "job needs it, or quote it and label it as data"
        ]

    return Rule(
        "result-free-text",
        "results carry no unlabelled free text",
        "any text a tool returns can carry instructions; the model cannot tell who wrote it",
        check,
    )


FREE_TEXT_RULE = result_free_text_rule()
RULES_WITH_RESULTS: tuple[Rule, ...] = (*RULES, FREE_TEXT_RULE)
