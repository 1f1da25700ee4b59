"""Notebook 11: serving tools over MCP. The model's part of a listing, three outcomes, a host's approval rule."""
from __future__ import annotations

from typing import Any

from workbook.checks import failed, passed
from workbook.exercises import Exercise, WrongAnswer

NOTEBOOK = "11_serving_tools_over_mcp"


def _raised(got: Any) -> str | None:
    """The error text when the learner's function raised (checks turn it into {"error": ...})."""
    if isinstance(got, dict) and set(got) == {"error"} and isinstance(got["error"], str):
        return got["error"]
    return None


# ---------- exercise 1: the part of a listed tool the model is sent ----------

ORDER = {"type": "object", "additionalProperties": False, "required": ["sales_order"],
         "properties": {"sales_order": {"type": "string", "description": "Sales order number, digits only."}}}
LISTED = (
    {"name": "sales_order_get_status_text", "title": "Order status",
     "description": "Explains an order's status in words. Use it when the user asks where an order stands.",
     "inputSchema": ORDER, "outputSchema": {"type": "object", "properties": {"status": {"type": "string"}}},
     "annotations": {"readOnlyHint": True, "openWorldHint": False}},
    {"name": "get_order", "description": "Get an order.",
     "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
     "outputSchema": {"type": "object"}},
    {"name": "list_items", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "release_request_create", "description": "Drafts a release request; a person approves it.",
     "inputSchema": ORDER, "annotations": {"readOnlyHint": False, "destructiveHint": False},
     "icons": [{"src": "https://example.com/icon.png"}], "_meta": {"vendor/build": "7"}},
)
DEFINITION_PROBES = tuple((tool,) for tool in LISTED)
DEFINITION_EXPECTED = tuple({"name": t["name"], "description": t.get("description", ""),
                             "parameters": t["inputSchema"]} for t in LISTED)


def _judge_definition(results: Any) -> object:
    for (listed,), got, want in zip(DEFINITION_PROBES, results, DEFINITION_EXPECTED):
        call = f"to_definition(<listed {listed['name']}>)"
        error = _raised(got)
        if error is not None:
            if "description" in error:
                return failed(f"{call} raised {error}: description is optional in MCP; use \"\" when it is missing")
            return failed(f"{call} raised {error}")
        if not isinstance(got, dict):
            return failed(f"{call} returned {type(got).__name__}; return a dict with name, description, parameters")
        if got == want:
            continue
        if "inputSchema" in got:
            return failed(f"{call}: the course's definitions call the schema 'parameters'; rename inputSchema")
        extra = sorted(set(got) - set(want))
        if extra:
            return failed(f"{call} keeps {', '.join(extra)}: the model is sent name, description and parameters; "
                          "annotations and the output schema are for the host")
        missing = sorted(set(want) - set(got))
        if missing:
            return failed(f"{call} has no {', '.join(missing)}; a definition has name, description, parameters")
        wrong = next(k for k in want if got.get(k) != want[k])
        return failed(f"{call}: {wrong} should be {want[wrong]!r} as listed, not {got.get(wrong)!r}")
    return passed("the model's part of each listed tool: name, description and input schema, nothing the host keeps.")


def _keeps_everything(listed):
    return {"parameters": listed["inputSchema"], **{k: v for k, v in listed.items() if k != "inputSchema"}}


def _keeps_input_schema(listed):
    return {"name": listed["name"], "description": listed.get("description", ""), "inputSchema": listed["inputSchema"]}


def _needs_description(listed):
    return {"name": listed["name"], "description": listed["description"], "parameters": listed["inputSchema"]}


def _keeps_annotations(listed):
    out = {"name": listed["name"], "description": listed.get("description", ""), "parameters": listed["inputSchema"]}
    if "annotations" in listed:
        out["annotations"] = listed["annotations"]
    return out


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
    _response(1, {"content": _text('{"sales_order": "4711", "blocked": true}'),
                  "structuredContent": {"sales_order": "4711", "blocked": True}, "isError": False}),
    _response(2, {"content": _text("sales_order takes digits only, like '4711'; you sent \"SO-4711\"."),
                  "isError": True}),
    _response(3, error={"code": -32602, "message": "Unknown tool: sales_order_release"}),
    _response(4, {"content": _text('{"customer": "10051", "missing_fields": []}'),
                  "structuredContent": {"customer": "10051", "missing_fields": []}}),
    _response(5, {"content": _text("Customer 19999 does not exist or you may not see it."), "isError": True}),
    _response(6, {"content": _text('{"errors_found": 0, "note": "no error in the address"}'),
                  "structuredContent": {"errors_found": 0, "note": "no error in the address"}, "isError": False}),
    _response(7, error={"code": -32601, "message": "Method not found", "data": "tools/release"}),
)
OUTCOME_PROBES = tuple((message,) for message in RESPONSES)
OUTCOME_EXPECTED = ("result", "tool error", "protocol error", "result", "tool error", "result", "protocol error")
OUTCOMES = ("result", "tool error", "protocol error")


def _judge_outcome(results: Any) -> object:
    for (message,), got, want in zip(OUTCOME_PROBES, results, OUTCOME_EXPECTED):
        call = f"outcome(<response {message['id']}>)"
        error = _raised(got)
        if error is not None:
            if "isError" in error:
                return failed(f"{call} raised {error}: isError may be missing, and then it is false")
            if "result" in error:
                return failed(f"{call} raised {error}: a protocol error has an 'error' member and no 'result'")
            return failed(f"{call} raised {error}")
        if got not in OUTCOMES:
            return failed(f"{call} returned {got!r}; return one of {', '.join(repr(o) for o in OUTCOMES)}")
        if got == want:
            continue
        if want == "protocol error":
            return failed(f"{call}: a JSON-RPC 'error' member means the request failed as a whole, before any "
                          "tool ran: a protocol error")
        if got == "protocol error":
            return failed(f"{call}: the response has a 'result', so the request went through; look at isError")
        return failed(f"{call} should be {want!r}: judge by isError (missing means false), not by the words "
                      "in the text")
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


# ---------- exercise 3: when a host asks a person first ----------

def _listed(name: str, annotations: dict | None) -> dict:
    tool: dict[str, Any] = {"name": name, "description": f"The {name} tool.", "inputSchema": {"type": "object"}}
    if annotations is not None:
        tool["annotations"] = annotations
    return tool


APPROVAL_PROBES = (
    (_listed("release_request_create", {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True}),
     True),
    (_listed("sales_order_get_block_summary", {"readOnlyHint": True, "openWorldHint": False}), True),
    (_listed("delete_items", {"readOnlyHint": True, "destructiveHint": False}), False),
    (_listed("list_items", {"readOnlyHint": True}), False),
    (_listed("get_order", None), True),
    (_listed("customer_get_notes", {}), True),
    (_listed("customer_note_add", {"destructiveHint": False, "idempotentHint": True}), True),
    (_listed("customer_get_address_gaps", {"readOnlyHint": True, "title": "Address gaps"}), True),
)
APPROVAL_EXPECTED = (True, False, True, True, True, True, True, False)


def _judge_approval(results: Any) -> object:
    for (tool, trusted), got, want in zip(APPROVAL_PROBES, results, APPROVAL_EXPECTED):
        hints = tool.get("annotations")
        call = f"needs_approval(<{tool['name']} {hints if hints is not None else 'without annotations'}>, " \
               f"server_trusted={trusted})"
        error = _raised(got)
        if error is not None:
            if hints is None or "readOnlyHint" not in (hints or {}):
                return failed(f"{call} raised {error}: annotations, and each hint, may be missing")
            return failed(f"{call} raised {error}")
        if type(got) is not bool:
            return failed(f"{call} returned {got!r}; return True or False")
        if got == want:
            continue
        if not trusted:
            return failed(f"{call} should be True: from a server you do not trust, a read-only label proves "
                          "nothing, so ask")
        if want and (hints is None or "readOnlyHint" not in hints):
            return failed(f"{call} should be True: a missing readOnlyHint means the tool may write")
        if want:
            return failed(f"{call} should be True: destructiveHint false still writes; only readOnlyHint true "
                          "lets a trusted tool run unasked")
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
    Exercise("ex11-definition", NOTEBOOK, "to_definition", 2, _judge_definition, kind="function",
             probes=DEFINITION_PROBES,
             prompt="Write to_definition(listed): the name, description and parameters a model is sent.",
             wrong_answers=(WrongAnswer(_keeps_everything, "are for the host"),
                            WrongAnswer(_keeps_input_schema, "rename inputSchema"),
                            WrongAnswer(_needs_description, "description is optional"),
                            WrongAnswer(_keeps_annotations, "annotations and the output schema"))),
    Exercise("ex11-outcome", NOTEBOOK, "outcome", 2, _judge_outcome, kind="function", probes=OUTCOME_PROBES,
             prompt="Write outcome(message): 'result', 'tool error' or 'protocol error' for a JSON-RPC response.",
             wrong_answers=(WrongAnswer(_by_words, "judge by isError"),
                            WrongAnswer(_is_error_required, "isError may be missing"),
                            WrongAnswer(_every_error_alike, "failed as a whole"))),
    Exercise("ex11-approval", NOTEBOOK, "needs_approval", 2, _judge_approval, kind="function",
             probes=APPROVAL_PROBES,
             prompt="Write needs_approval(tool, server_trusted): must the host ask a person before this call?",
             wrong_answers=(WrongAnswer(_trusts_labels, "proves nothing"),
                            WrongAnswer(_missing_is_read_only, "missing readOnlyHint"),
                            WrongAnswer(_asks_only_before_destroying, "destructiveHint false still writes"),
                            WrongAnswer(_indexes_hints, "may be missing"))),
]
