"""Notebook 15: trusting MCP servers. A host's approval rule."""

from __future__ import annotations

from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.exercises.lesson14 import _with
from workbook.verdicts import failed, passed, probe_error

NOTEBOOK = "15_trusting_mcp_servers"


# ---------- exercise 1: when a host asks a person first ----------

APPROVAL_PROBES = (
    (
        _with(
            "release_request_create",
            {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True},
        ),
        True,
    ),
    (_with("sales_order_get_block_summary", {"readOnlyHint": True, "openWorldHint": False}), True),
    (_with("delete_items", {"readOnlyHint": True, "destructiveHint": False}), False),
    (_with("list_items", {"readOnlyHint": True}), False),
    (_with("get_order", None), True),
    (_with("customer_get_notes", {}), True),
    (_with("customer_note_add", {"destructiveHint": False, "idempotentHint": True}), True),
    (_with("customer_get_address_gaps", {"readOnlyHint": True, "title": "Address gaps"}), True),
)
APPROVAL_EXPECTED = (True, False, True, True, True, True, True, False)


def _judge_approval(results: Any) -> object:
    for (tool, trusted), got, want in zip(APPROVAL_PROBES, results, APPROVAL_EXPECTED):
        hints = tool.get("annotations")
        call = (
            f"needs_approval(<{tool['name']} {hints if hints is not None else 'without annotations'}>, "
            f"server_trusted={trusted})"
        )
        error = probe_error(got)
        if error is not None:
            if hints is None or "readOnlyHint" not in (hints or {}):
                return failed(f"{call} raised {error}: annotations, and each hint, may be missing")
            return failed(f"{call} raised {error}")
        if type(got) is not bool:
            return failed(f"{call} returned {got!r}; return True or False")
        if got == want:
            continue
        if not trusted:
            return failed(
                f"{call} should be True: from a server you do not trust, a read-only label proves "
                "nothing, so ask"
            )
        if want and (hints is None or "readOnlyHint" not in hints):
            return failed(f"{call} should be True: a missing readOnlyHint means the tool may write")
        if want:
            return failed(
                f"{call} should be True: destructiveHint false still writes; only readOnlyHint true "
                "lets a trusted tool run unasked"
            )
        return failed(f"{call} should be False: a trusted server's read-only tool may run without asking")
    return passed("untrusted servers always ask; trusted tools run unasked only when they say read-only.")


def _trusts_labels(tool, server_trusted):
    return not (tool.get("annotations") or {}).get("readOnlyHint", False)


def _missing_is_read_only(tool, server_trusted):
    if not server_trusted:
        return True
    return not (tool.get("annotations") or {}).get("readOnlyHint", True)


def _asks_only_before_destroying(tool, server_trusted):
    if not server_trusted:
        return True
    return bool((tool.get("annotations") or {}).get("destructiveHint", True))


def _indexes_hints(tool, server_trusted):
    return not server_trusted or not tool["annotations"]["readOnlyHint"]


EXERCISES = [
    Exercise(
        "ex15-approval",
        NOTEBOOK,
        "needs_approval",
        2,
        _judge_approval,
        kind="function",
        probes=APPROVAL_PROBES,
        prompt="Write needs_approval(tool, server_trusted): must the host ask a person before this call?",
        wrong_answers=(
            WrongAnswer(_trusts_labels, "proves nothing"),
            WrongAnswer(_missing_is_read_only, "missing readOnlyHint"),
            WrongAnswer(_asks_only_before_destroying, "destructiveHint false still writes"),
            WrongAnswer(_indexes_hints, "may be missing"),
        ),
    ),
]
