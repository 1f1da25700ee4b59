"""Notebook 14: serving tools over MCP. Hint defaults, and three outcomes on the wire."""

from __future__ import annotations

from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, probe_error

NOTEBOOK = "14_serving_tools_over_mcp"


# ---------- exercise 1: what a host assumes where a hint is missing ----------

HINT_DEFAULTS = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}


def _with(name: str, annotations: dict | None) -> dict:
    """A listed tool as plain JSON, with or without annotations."""
    tool: dict[str, Any] = {
        "name": name,
        "description": f"The {name} tool.",
        "inputSchema": {"type": "object"},
    }
    if annotations is not None:
        tool["annotations"] = annotations
    return tool


HINT_PROBES = (
    (_with("get_order", None),),
    (_with("sales_order_get_block_summary", {"readOnlyHint": True, "openWorldHint": False}),),
    (
        _with(
            "release_request_create",
            {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
        ),
    ),
    (_with("customer_get_notes", {}),),
    (_with("customer_note_add", {"title": "Add a note", "destructiveHint": False}),),
    (_with("web_page_fetch", {"readOnlyHint": True}),),
)
HINT_EXPECTED = tuple(
    {**HINT_DEFAULTS, **{k: v for k, v in (tool.get("annotations") or {}).items() if k in HINT_DEFAULTS}}
    for (tool,) in HINT_PROBES
)


def _judge_hints(results: Any) -> object:
    for (tool,), got, want in zip(HINT_PROBES, results, HINT_EXPECTED):
        declared = tool.get("annotations")
        call = (
            f"with_defaults(<{tool['name']} {declared if declared is not None else 'without annotations'}>)"
        )
        error = probe_error(got)
        if error is not None:
            if declared is None:
                return failed(f"{call} raised {error}: a tool may have no annotations at all")
            return failed(f"{call} raised {error}")
        if not isinstance(got, dict):
            return failed(f"{call} returned {type(got).__name__}; return a dict of the four hints")
        if got == want:
            continue
        extra = sorted(set(got) - set(HINT_DEFAULTS))
        if extra:
            return failed(f"{call} has {', '.join(extra)}: return only the four hints")
        missing = sorted(set(HINT_DEFAULTS) - set(got))
        if missing:
            return failed(f"{call} leaves out {', '.join(missing)}: fill in every hint, declared or not")
        if any(type(v) is not bool for v in got.values()):
            return failed(f"{call}: every hint is true or false")
        wrong = next(h for h in HINT_DEFAULTS if got[h] != want[h])
        if wrong in (declared or {}):
            return failed(f"{call}: {wrong} is declared as {want[wrong]}; a declared hint stands as it is")
        if want[wrong]:
            return failed(
                f"{call}: a missing {wrong} is true; destructiveHint and openWorldHint default to true, "
                "assume the worst"
            )
        return failed(
            f"{call}: a missing {wrong} is false; readOnlyHint and idempotentHint default to false, "
            "assume the worst"
        )
    return passed(
        "every missing hint filled with MCP's default, which assumes the worst; declared hints kept."
    )


_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def _all_false(tool):
    declared = tool.get("annotations") or {}
    return {h: declared.get(h, False) for h in _HINTS}


def _all_true(tool):
    declared = tool.get("annotations") or {}
    return {h: declared.get(h, True) for h in _HINTS}


def _indexes_annotations(tool):
    defaults = {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": True,
    }
    return {h: tool["annotations"].get(h, defaults[h]) for h in _HINTS}


def _keeps_title(tool):
    defaults = {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": True,
    }
    return {**defaults, **(tool.get("annotations") or {})}


def _declared_only(tool):
    return dict(tool.get("annotations") or {})


# ---------- exercise 2: result, tool error or protocol error ----------


def _response(number: int, result: dict | None = None, error: dict | None = None) -> dict:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": number}
    if error is not None:
        message["error"] = error
    else:
        message["result"] = result
    return message


def _text(value: str) -> list[dict]:
    return [{"type": "text", "text": value}]


RESPONSES = (
    _response(
        1,
        {
            "content": _text('{"sales_order": "4711", "blocked": true}'),
            "structuredContent": {"sales_order": "4711", "blocked": True},
            "isError": False,
        },
    ),
    _response(
        2,
        {
            "content": _text("sales_order takes digits only, like '4711'; you sent \"SO-4711\"."),
            "isError": True,
        },
    ),
    _response(3, error={"code": -32602, "message": "Unknown tool: sales_order_release"}),
    _response(
        4,
        {
            "content": _text('{"customer": "10051", "missing_fields": []}'),
            "structuredContent": {"customer": "10051", "missing_fields": []},
        },
    ),
    _response(5, {"content": _text("Customer 19999 does not exist or you may not see it."), "isError": True}),
    _response(
        6,
        {
            "content": _text('{"errors_found": 0, "note": "no error in the address"}'),
            "structuredContent": {"errors_found": 0, "note": "no error in the address"},
            "isError": False,
        },
    ),
    _response(7, error={"code": -32601, "message": "Method not found", "data": "tools/release"}),
)
OUTCOME_PROBES = tuple((message,) for message in RESPONSES)
OUTCOME_EXPECTED = (
    "result",
    "tool error",
    "protocol error",
    "result",
    "tool error",
    "result",
    "protocol error",
)
OUTCOMES = ("result", "tool error", "protocol error")


def _judge_outcome(results: Any) -> object:
    for (message,), got, want in zip(OUTCOME_PROBES, results, OUTCOME_EXPECTED):
        call = f"outcome(<response {message['id']}>)"
        error = probe_error(got)
        if error is not None:
            if "isError" in error:
                return failed(f"{call} raised {error}: isError may be missing, and then it is false")
            if "result" in error:
                return failed(
                    f"{call} raised {error}: a protocol error has an 'error' member and no 'result'"
                )
            return failed(f"{call} raised {error}")
        if got not in OUTCOMES:
            return failed(f"{call} returned {got!r}; return one of {', '.join(repr(o) for o in OUTCOMES)}")
        if got == want:
            continue
        if want == "protocol error":
            return failed(
                f"{call}: a JSON-RPC 'error' member means the request failed as a whole, before any "
                "tool ran: a protocol error"
            )
        if got == "protocol error":
            return failed(
                f"{call}: the response has a 'result', so the request went through; look at isError"
            )
        return failed(
            f"{call} should be {want!r}: judge by isError (missing means false), not by the words in the text"
        )
    return passed("a result, a tool error the model reads, and a protocol error that never reached a tool.")


def _by_words(message):
    if "error" in message:
        return "protocol error"
    text = " ".join(c.get("text", "") for c in message["result"].get("content", []))
    return "tool error" if "error" in text.lower() or "not" in text.lower() else "result"


def _is_error_required(message):
    if "error" in message:
        return "protocol error"
    return "tool error" if message["result"]["isError"] else "result"


def _every_error_alike(message):
    if "error" in message:
        return "tool error"
    return "tool error" if message["result"].get("isError") else "result"


EXERCISES = [
    Exercise(
        "ex14-hint-defaults",
        NOTEBOOK,
        "with_defaults",
        2,
        _judge_hints,
        kind="function",
        probes=HINT_PROBES,
        prompt="Write with_defaults(tool): the four hints a host assumes, MCP's default wherever one is missing.",
        wrong_answers=(
            WrongAnswer(_all_false, "default to true"),
            WrongAnswer(_all_true, "default to false"),
            WrongAnswer(_indexes_annotations, "no annotations at all"),
            WrongAnswer(_keeps_title, "only the four hints"),
            WrongAnswer(_declared_only, "fill in every hint"),
        ),
    ),
    Exercise(
        "ex14-outcome",
        NOTEBOOK,
        "outcome",
        2,
        _judge_outcome,
        kind="function",
        probes=OUTCOME_PROBES,
        prompt="Write outcome(message): 'result', 'tool error' or 'protocol error' for a JSON-RPC response.",
        wrong_answers=(
            WrongAnswer(_by_words, "judge by isError"),
            WrongAnswer(_is_error_required, "isError may be missing"),
            WrongAnswer(_every_error_alike, "failed as a whole"),
        ),
    ),
]
