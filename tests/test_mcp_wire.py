"""Every message on the raw wire gets the reply JSON-RPC 2.0 and MCP name for it, on stdio and on HTTP.

The cases are bytes a buggy or hostile client could send. Each names the error code it must get and
the id the reply must carry (None: ``"id": null``), or no reply at all (a notification). One table
drives the rules (``tooldesign.mcp.wire.judge``), a real stdio subprocess and a real HTTP server, so
the two transports cannot drift apart. Every wait is bounded far beyond what a working server needs.
"""

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from tooldesign.mcp.wire import MAX_MESSAGE_BYTES, Kind, judge

from mcp_http_server import serve_url

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 90  # seconds; only a hang reaches it
MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "wire-test", "version": "0"}}
NO_REPLY = "no reply"


def _request(id_, method, params=None, **extra):
    message = {"jsonrpc": "2.0", "id": id_, "method": method, "params": {**(params or {}), "_meta": META}}
    return json.dumps({**message, **extra}).encode()


# name, raw bytes, expected error code (or NO_REPLY), expected reply id
CASES = [
    ("malformed JSON", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"', -32700, None),
    ("not JSON at all", b"hello", -32700, None),
    ("empty message", b"", -32700, None),
    ("whitespace only", b"   ", -32700, None),
    ("not UTF-8", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"\xff\xfe"}}', -32700, None),
    ("NaN is not JSON", b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":NaN}}', -32700, None),
    ("batch of requests", b'[' + _request(2, "tools/list") + b']', -32600, None),
    ("batch of notifications", b'[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}]',
     -32600, None),
    ("empty batch", b"[]", -32600, None),
    ("a number", b"42", -32600, None),
    ("a string", b'"tools/list"', -32600, None),
    ("null id", _request(None, "tools/list"), -32600, None),
    ("object id", _request({"a": 1}, "tools/list"), -32600, None),
    ("array id", _request([1], "tools/list"), -32600, None),
    ("fractional id", _request(1.5, "tools/list"), -32600, None),
    ("boolean id", _request(True, "tools/list"), -32600, None),
    ("wrong jsonrpc version", _request(3, "tools/list", jsonrpc="1.0"), -32600, 3),
    ("jsonrpc missing", json.dumps({"id": 4, "method": "tools/list", "params": {"_meta": META}}).encode(), -32600, 4),
    ("method missing", b'{"jsonrpc":"2.0","id":5,"params":{}}', -32600, 5),
    ("method not a string", b'{"jsonrpc":"2.0","id":6,"method":42}', -32600, 6),
    ("params a string", b'{"jsonrpc":"2.0","id":7,"method":"tools/list","params":"x"}', -32600, 7),
    ("params null", b'{"jsonrpc":"2.0","id":8,"method":"tools/list","params":null}', -32600, 8),
    ("params an array", b'{"jsonrpc":"2.0","id":9,"method":"tools/list","params":[1]}', -32602, 9),
    ("a member twice", b'{"jsonrpc":"2.0","id":10,"method":"tools/list","method":"tools/call"}', -32600, 10),
    ("the id twice", b'{"jsonrpc":"2.0","id":11,"id":12,"method":"tools/list"}', -32600, None),
    ("an argument twice", b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"customer_get_address_gaps",'
     b'"arguments":{"customer":"10051","customer":"10023"}}}', -32602, 13),
    ("unknown method", _request(14, "tools/destroy"), -32601, 14),
    ("unknown tool", _request(15, "tools/call", {"name": "sales_order_release", "arguments": {}}), -32602, 15),
    ("arguments not an object", _request(16, "tools/call", {"name": "sales_order_search", "arguments": ["10023"]}),
     -32602, 16),
    ("a cursor never issued", _request(17, "tools/list", {"cursor": "bogus"}), -32602, 17),
    ("an empty cursor", _request(18, "tools/list", {"cursor": ""}), -32602, 18),
    ("string ids are fine too", _request("q-19", "tools/destroy"), -32601, "q-19"),
    ("a notification", b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}', NO_REPLY, None),
    ("an unknown notification", b'{"jsonrpc":"2.0","method":"notifications/whatever"}', NO_REPLY, None),
]
# a request the server answers normally: sent after a case that expects no reply, to prove the silence
PROBE_ID = "after-silence"
PROBE = _request(PROBE_ID, "tools/list")


# ---------- the rules ----------

@pytest.mark.parametrize("name, raw, code, reply_id", CASES, ids=[c[0] for c in CASES])
def test_the_rules_name_the_reply(name, raw, code, reply_id):
    verdict = judge(raw)
    if code == NO_REPLY or code == -32601 or (code == -32602 and b'"_meta"' in raw and b"[1]" not in raw):
        # well formed: the SDK or the server's handlers answer (or, for a notification, nobody)
        assert verdict.passes, verdict
        return
    assert verdict.kind is Kind.REFUSED, verdict
    assert verdict.reply == {"jsonrpc": "2.0", "id": reply_id, "error": {"code": code, "message": verdict.reason}}
    assert verdict.reason and "\n" not in verdict.reason


def test_a_notification_with_array_params_is_never_answered():
    verdict = judge(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}')
    assert verdict.kind is Kind.DROPPED and not verdict.passes


def test_a_clients_response_passes_and_is_never_answered():
    assert judge(b'{"jsonrpc":"2.0","id":7,"result":{}}').kind is Kind.RESPONSE
    assert judge(b'{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}').kind is Kind.RESPONSE


def test_an_oversized_message_is_refused_without_parsing_it():
    verdict = judge(b" " * (MAX_MESSAGE_BYTES + 1))
    assert verdict.kind is Kind.REFUSED and verdict.reply["error"]["code"] == -32600


def test_nesting_deeper_than_the_parser_follows_is_a_parse_error():
    verdict = judge(b"[" * 100_000 + b"]" * 100_000)
    assert verdict.reply["error"]["code"] in (-32700, -32600)


# ---------- stdio: one server process, one case at a time ----------

class _Stdio:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "tooldesign", "serve"], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, raw: bytes) -> None:
        self.process.stdin.write(raw + b"\n")
        self.process.stdin.flush()

    def reply(self) -> dict:
        line = self.lines.get(timeout=TIMEOUT)
        assert line is not None, "the server closed stdout"
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=TIMEOUT)
        return self.process.stderr.read().decode()


@pytest.fixture(scope="module")
def stdio():
    server = _Stdio()
    yield server
    server.close()


@pytest.mark.parametrize("name, raw, code, reply_id", CASES, ids=[c[0] for c in CASES])
def test_stdio_answers_each_case_as_named(stdio, name, raw, code, reply_id):
    stdio.send(raw)
    if code == NO_REPLY:
        stdio.send(PROBE)
        reply = stdio.reply()
        assert reply["id"] == PROBE_ID and "result" in reply, reply  # nothing came back for the notification
        return
    reply = stdio.reply()
    assert reply["jsonrpc"] == "2.0" and reply["id"] == reply_id and reply["error"]["code"] == code, reply
    assert "result" not in reply


def test_stdio_never_answers_a_notification_with_array_params(stdio):
    stdio.send(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}')
    stdio.send(PROBE)
    assert stdio.reply()["id"] == PROBE_ID


def test_stdio_skips_an_oversized_line_and_serves_the_next(stdio):
    stdio.send(b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":"' + b"x" * (MAX_MESSAGE_BYTES + 10) + b'"}}')
    reply = stdio.reply()
    assert reply["id"] is None and reply["error"]["code"] == -32600
    stdio.send(PROBE)
    assert stdio.reply()["id"] == PROBE_ID


def test_stdio_lives_on_after_every_case_and_notes_refusals_on_stderr():
    server = _Stdio()
    for _, raw, _, _ in CASES:
        server.send(raw)
    server.send(PROBE)
    replies = [server.reply() for _ in range(sum(code != NO_REPLY for _, _, code, _ in CASES) + 1)]
    assert any(r["id"] == PROBE_ID and "result" in r for r in replies)
    assert all(json.dumps(r) for r in replies)
    stderr = server.close()
    assert server.process.returncode == 0 and "refused a message: MCP has no batches" in stderr


# ---------- HTTP ----------

@pytest.fixture(scope="module")
def http_url():
    yield from serve_url()


def _headers(raw: bytes) -> dict:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": MODERN}
    try:
        message = json.loads(raw)
        headers["Mcp-Method"] = str(message["method"])
        if message["method"] == "tools/call":
            headers["Mcp-Name"] = message["params"]["name"]
    except Exception:  # a malformed body has no method to mirror
        pass
    return headers


def _post(url: str, raw: bytes, headers: dict | None = None) -> httpx.Response:
    return httpx.post(url, content=raw, headers=headers or _headers(raw), timeout=TIMEOUT)


@pytest.mark.parametrize("name, raw, code, reply_id", CASES, ids=[c[0] for c in CASES])
def test_http_answers_each_case_as_named(http_url, name, raw, code, reply_id):
    response = _post(http_url, raw)
    if code == NO_REPLY:
        assert response.status_code == 202 and response.content == b""
        return
    assert response.headers["content-type"].startswith("application/json")
    reply = response.json()
    assert reply["jsonrpc"] == "2.0" and reply["id"] == reply_id and reply["error"]["code"] == code, reply
    assert response.status_code == (404 if code == -32601 else 400)


def test_http_refuses_a_wrong_content_type_with_a_json_rpc_error(http_url):
    raw = _request(1, "tools/list")
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {**_headers(raw)}
        headers.pop("Content-Type")
        if content_type:
            headers["Content-Type"] = content_type
        response = _post(http_url, raw, headers)
        assert response.status_code == 415
        assert response.json()["error"]["code"] == -32600 and "application/json" in response.json()["error"]["message"]


def test_http_refuses_an_oversized_body_with_413(http_url):
    response = _post(http_url, b" " * (MAX_MESSAGE_BYTES + 1), {"Content-Type": "application/json",
                                                                 "Accept": "application/json, text/event-stream"})
    assert response.status_code == 413 and response.json()["error"]["code"] == -32600


def test_http_still_refuses_another_host_before_reading_the_body(http_url):
    response = _post(http_url, b"{not json", {**_headers(b""), "Host": "evil.example"})
    assert response.status_code in (403, 421)


def test_http_handshake_era_sessions_get_the_same_rules(http_url):
    """A 2025-11-25 client's session: the SDK's own path there takes a null id for a notification."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "wire-test", "version": "0"}}}
    opened = httpx.post(http_url, json=init, headers=headers, timeout=TIMEOUT)
    session = {**headers, "Mcp-Session-Id": opened.headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
    httpx.post(http_url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session,
               timeout=TIMEOUT)
    for raw, code, reply_id in [(b'{"jsonrpc":"2.0","id":null,"method":"tools/list"}', -32600, None),
                                (b'{"jsonrpc":"2.0","id":2.5,"method":"tools/list"}', -32600, None),
                                (b'{"jsonrpc":"1.0","id":3,"method":"tools/list"}', -32600, 3),
                                (b'[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]', -32600, None)]:
        response = _post(http_url, raw, session)
        assert response.status_code == 400 and response.json()["error"]["code"] == code
        assert response.json()["id"] == reply_id
    cursor = _post(http_url, b'{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":"x"}}', session)
    assert '"code":-32602' in cursor.text.replace(" ", "") and '"id":5' in cursor.text.replace(" ", "")


# ---------- any bytes at all ----------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from mcp_types import JSONRPCError, jsonrpc_message_adapter  # noqa: E402

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                     max_leaves=10)
_ENVELOPES = st.fixed_dictionaries({}, optional={"jsonrpc": st.sampled_from(["2.0", "1.0", 2]) | _JSON,
                                                 "id": st.integers() | st.text(max_size=4) | _JSON,
                                                 "method": st.sampled_from(["tools/list", "tools/call"]) | _JSON,
                                                 "params": st.dictionaries(st.text(max_size=6), _JSON) | _JSON,
                                                 "result": _JSON, "error": _JSON})


def _consistent(raw: bytes) -> None:
    verdict = judge(raw)
    if verdict.kind is Kind.REFUSED:
        JSONRPCError.model_validate(verdict.reply)  # every refusal is a JSON-RPC error the SDK could send
        assert verdict.reply["error"]["code"] in (-32700, -32600, -32602)
    elif verdict.passes:
        jsonrpc_message_adapter.validate_json(raw, by_name=False)  # what passes, the SDK can read


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120))
def test_any_bytes_get_a_verdict(raw):
    _consistent(raw)


@settings(max_examples=300, deadline=None)
@given(_ENVELOPES)
def test_any_envelope_gets_a_verdict_the_sdk_agrees_with(envelope):
    _consistent(json.dumps(envelope).encode())


def test_http_refuses_a_notification_it_cannot_accept_with_400_and_no_request_id(http_url):
    """Streamable HTTP: a notification the server cannot accept gets an HTTP error status, never 202."""
    response = _post(http_url, b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}')
    assert response.status_code == 400
    assert response.json()["id"] is None and response.json()["error"]["code"] == -32602
