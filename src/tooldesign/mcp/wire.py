"""One raw message off the wire, judged before the SDK sees it: pass it on, answer it, or drop it.

The SDK's stdio transport drops every line it cannot parse into a message, so a client that sends
malformed JSON, a batch, a null id or ``"jsonrpc": "1.0"`` waits for an answer that never comes; its
handshake-era HTTP path answers some of them with the wrong code and accepts a request with a null
id as a notification (202). JSON-RPC 2.0 (https://www.jsonrpc.org/specification, sections 4 and 5)
and MCP (revision 2026-07-28, *Overview*, "Messages") name a reply for each of these, so the course's
server judges every message here, with the same rules on both transports:

* bytes that are not UTF-8 JSON (and an empty message): -32700 parse error, id null;
* JSON that is not one request object (a batch: MCP has none; a number, a string): -32600, id null;
* an object whose ``jsonrpc`` is not "2.0", whose ``method`` is missing or not a string, whose
  ``params`` is neither an object nor an array, or with a member given twice: -32600;
* an ``id`` that is null, fractional, boolean, an object or an array: -32600 with id null (MCP:
  "Requests MUST include a string or integer ID", "the ID MUST NOT be null");
* ``params`` as an array (JSON-RPC allows it, MCP requests take an object): -32602 invalid params;
* a well-formed notification is passed on and never answered, whatever it says; a well-formed
  request goes to the SDK, which answers an unknown method with -32601;
* a message larger than ``MAX_MESSAGE_BYTES``: -32600, id null.

An error reply carries the request's id whenever it could be read (MCP: "except in error cases where
the ID could not be read due a malformed request"), and null otherwise.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp_types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, jsonrpc_message_adapter
from pydantic import ValidationError

__all__ = ["MAX_MESSAGE_BYTES", "Kind", "WireVerdict", "judge", "error_reply", "too_large"]

# The SDK's own limit for an HTTP body (4 MiB), applied to a stdio line as well: one limit, one home.
MAX_MESSAGE_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE


class Kind(Enum):
    REQUEST = "request"  # well formed, has an id: the SDK answers it
    NOTIFICATION = "notification"  # well formed, no id: the SDK may act on it; nobody answers it
    RESPONSE = "response"  # a client's reply to a server request: never answered
    REFUSED = "refused"  # answer with ``WireVerdict.reply``
    DROPPED = "dropped"  # a notification whose params are wrong: JSON-RPC forbids any reply


@dataclass(frozen=True)
class WireVerdict:
    kind: Kind
    reason: str = ""  # one line: what was wrong, for the reply and the log
    reply: dict[str, Any] | None = None  # the JSON-RPC error response, for REFUSED (and DROPPED over HTTP)

    @property
    def passes(self) -> bool:
        return self.kind in (Kind.REQUEST, Kind.NOTIFICATION, Kind.RESPONSE)


def error_reply(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _refused(code: int, message: str, request_id: Any = None) -> WireVerdict:
    return WireVerdict(Kind.REFUSED, message, error_reply(code, message, request_id))


def too_large() -> WireVerdict:
    return _refused(
        INVALID_REQUEST, f"Message larger than {MAX_MESSAGE_BYTES} bytes; send a smaller request."
    )


class _Duplicate(ValueError):
    def __init__(self, keys: list[str], top: dict[str, Any]):
        super().__init__(", ".join(keys))
        self.keys = keys
        self.top = top


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # Python's json accepts NaN and Infinity; JSON does not


def _parse(text: str) -> Any:
    """``json.loads`` that refuses NaN/Infinity and remembers members given twice, at any depth."""
    repeated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in items:
            if key in seen:
                repeated.append(key)
            seen[key] = value
        return seen

    value = json.loads(text, object_pairs_hook=pairs, parse_constant=_no_constants)
    if repeated:
        raise _Duplicate(repeated, value if isinstance(value, dict) else {})
    return value


def _readable_id(message: dict[str, Any]) -> Any:
    """The request id if it is one MCP allows (a string or an integer, not a bool), else None."""
    value = message.get("id")
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return None


def _judge_object(message: dict[str, Any]) -> WireVerdict:
    has_id = "id" in message
    request_id = _readable_id(message)
    if has_id and request_id is None:
        return _refused(
            INVALID_REQUEST, f"id must be a string or an integer, not {json.dumps(message['id'])[:40]}."
        )
    if message.get("jsonrpc") != "2.0":
        return _refused(INVALID_REQUEST, 'Every message needs "jsonrpc": "2.0".', request_id)
    if "method" not in message:
        if has_id and ("result" in message) != ("error" in message):
            return WireVerdict(Kind.RESPONSE)
        return _refused(INVALID_REQUEST, "A request needs a method (a string).", request_id)
    if not isinstance(message["method"], str):
        return _refused(INVALID_REQUEST, 'method must be a string, such as "tools/list".', request_id)
    params = message.get("params", {})
    if not isinstance(params, (dict, list)):
        return _refused(INVALID_REQUEST, "params must be an object.", request_id)
    if isinstance(params, list):
        if not has_id:
            reason = "Notification params must be an object; nothing was done."
            return WireVerdict(Kind.DROPPED, reason, error_reply(INVALID_PARAMS, reason))
        return _refused(INVALID_PARAMS, "params must be an object, not an array.", request_id)
    return WireVerdict(Kind.REQUEST if has_id else Kind.NOTIFICATION)


def _sdk_reads(raw: bytes, verdict: WireVerdict, message: dict[str, Any]) -> WireVerdict:
    """A message these rules pass must also be one the SDK can read, or it would vanish unanswered."""
    try:
        jsonrpc_message_adapter.validate_json(raw, by_name=False)
    except ValidationError:
        if verdict.kind is Kind.REQUEST:
            return _refused(INVALID_REQUEST, "The request does not fit JSON-RPC 2.0.", _readable_id(message))
        return WireVerdict(Kind.DROPPED, "unreadable notification or response; nothing was done")
    return verdict


def judge(raw: bytes) -> WireVerdict:
    """The verdict on one raw message (a stdio line without its newline, or an HTTP body)."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return too_large()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _refused(PARSE_ERROR, "Parse error: the message is not UTF-8 text.")
    if not text.strip():
        return _refused(PARSE_ERROR, "Parse error: the message is empty; send one JSON object.")
    try:
        message = _parse(text)
    except _Duplicate as twice:
        top = twice.top
        request_id = _readable_id(top) if "id" not in twice.keys else None
        code = INVALID_REQUEST if set(twice.keys) & set(top) else INVALID_PARAMS
        where = "" if code == INVALID_REQUEST else " inside params"
        return _refused(code, f"Member given twice{where}: {twice}; send each once.", request_id)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser can follow
        return _refused(PARSE_ERROR, "Parse error: the message is not valid JSON.")
    if isinstance(message, list):
        return _refused(INVALID_REQUEST, "MCP has no batches: send one JSON-RPC message at a time.")
    if not isinstance(message, dict):
        return _refused(INVALID_REQUEST, "A message must be a JSON object.")
    verdict = _judge_object(message)
    return _sdk_reads(raw, verdict, message) if verdict.passes else verdict
