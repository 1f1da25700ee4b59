"""The capture server refuses what the providers document as invalid, as the official SDKs see it.

Each case sends a request through the real client (anthropic or openai) at the 127.0.0.1 capture
server and expects the SDK's typed BadRequestError: status 400, the provider's error shape, and a
message naming what to change. Each refused request has a twin that differs in the one broken rule
and goes through, so no rule refuses more than it should.
"""

from __future__ import annotations

import anthropic
import openai
import pytest

from tooldesign.tools.designed import build_designed_set
from tooldesign.wire import capture, dialects, examples
from tooldesign.wire.refusals import RULES, Dialect, error_body, refusal

TOOLS = build_designed_set()
A_TOOLS = [dialects.anthropic_tool(t) for t in TOOLS]
R_TOOLS = [dialects.responses_tool(t) for t in TOOLS]
C_TOOLS = [dialects.chat_tool(t) for t in TOOLS]
ASK = [{"role": "user", "content": examples.REQUEST}]
CALL = {"type": "tool_use", "id": "toolu_01", "name": "sales_order_search", "input": {"customer": "10023"}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_01", "content": "[]"}
EXEC = {"type": "code_execution_20250825", "name": "code_execution"}
FINDER = {"name": "tool_search", "description": "Finds tools.", "input_schema": {"type": "object"}}


def _deferred(names: set[str]) -> list[dict]:
    return [FINDER] + [{**t, "defer_loading": t["name"] in names} for t in A_TOOLS]


def _reference(name: str) -> list[dict]:
    search = {"type": "tool_use", "id": "toolu_s", "name": "tool_search", "input": {}}
    ref = {"type": "tool_reference", "tool_name": name}
    return ASK + [
        {"role": "assistant", "content": [search]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_s", "content": [ref]}]},
    ]


def _turns(answer: list[dict]) -> list[dict]:
    return ASK + [{"role": "assistant", "content": [CALL]}, {"role": "user", "content": answer}]


# (rule, bad request, good twin, words the message must carry)
ANTHROPIC_CASES = [
    (
        "invalid_tool_name",
        {"tools": [{**A_TOOLS[0], "name": "sales order search"}]},
        {"tools": A_TOOLS[:1]},
        "does not match",
    ),
    (
        "invalid_tool_name",
        {"tools": [{**A_TOOLS[0], "name": "x" * 65}]},
        {"tools": [{**A_TOOLS[0], "name": "x" * 64}]},
        "at most 64",
    ),
    ("duplicate_tool_name", {"tools": A_TOOLS + A_TOOLS[:1]}, {"tools": A_TOOLS}, "must be unique"),
    (
        "unknown_tool_choice",
        {"tools": A_TOOLS, "tool_choice": {"type": "tool", "name": "order_lookup"}},
        {"tools": A_TOOLS, "tool_choice": {"type": "tool", "name": "sales_order_search"}},
        "'order_lookup'",
    ),
    (
        "forced_choice_with_thinking",
        {
            "tools": A_TOOLS,
            "tool_choice": {"type": "any"},
            "thinking": {"type": "enabled", "budget_tokens": 1024},
        },
        {
            "tools": A_TOOLS,
            "tool_choice": {"type": "auto"},
            "thinking": {"type": "enabled", "budget_tokens": 1024},
        },
        "extended thinking",
    ),
    (
        "allowed_callers_without_code_execution",
        {"tools": [{**A_TOOLS[0], "allowed_callers": ["direct", "code_execution_20250825"]}]},
        {"tools": [{**A_TOOLS[0], "allowed_callers": ["direct", "code_execution_20250825"]}, EXEC]},
        "not in tools",
    ),
    (
        "allowed_callers_without_code_execution",
        {"tools": [{**A_TOOLS[0], "allowed_callers": ["code_execution_20260120"]}, EXEC]},
        {"tools": [{**A_TOOLS[0], "allowed_callers": ["direct"]}, EXEC]},
        "code_execution_20260120",
    ),
    (
        "all_tools_deferred",
        {"tools": [{**t, "defer_loading": True} for t in A_TOOLS]},
        {"tools": _deferred({t["name"] for t in A_TOOLS})},
        "at least one tool",
    ),
    (
        "unmatched_tool_result",
        {"tools": A_TOOLS, "messages": _turns([{**RESULT, "tool_use_id": "toolu_99"}])},
        {"tools": A_TOOLS, "messages": _turns([RESULT])},
        "'toolu_99'",
    ),
    (
        "tool_result_not_first",
        {"tools": A_TOOLS, "messages": _turns([{"type": "text", "text": "here"}, RESULT])},
        {"tools": A_TOOLS, "messages": _turns([RESULT, {"type": "text", "text": "here"}])},
        "must come first",
    ),
    (
        "unanswered_tool_use",
        {"tools": A_TOOLS, "messages": _turns([{"type": "text", "text": "no results"}])},
        {"tools": A_TOOLS, "messages": _turns([RESULT])},
        "toolu_01",
    ),
    (
        "tool_reference_not_deferred",
        {"tools": _deferred({"customer_get_credit_exposure"}), "messages": _reference("sales_order_search")},
        {
            "tools": _deferred({"customer_get_credit_exposure"}),
            "messages": _reference("customer_get_credit_exposure"),
        },
        "not deferred",
    ),
    (
        "tool_reference_not_deferred",
        {"tools": _deferred({"customer_get_credit_exposure"}), "messages": _reference("credit_limit_get")},
        {
            "tools": _deferred({"customer_get_credit_exposure"}),
            "messages": _reference("customer_get_credit_exposure"),
        },
        "not in tools",
    ),
]


@pytest.mark.parametrize("rule,bad,good,words", ANTHROPIC_CASES, ids=[c[0] for c in ANTHROPIC_CASES])
def test_anthropic_sdk_meets_the_refusal(rule, bad, good, words):
    with capture.CaptureServer([examples.anthropic_final_reply("ok")]) as server:
        client = capture.anthropic_client(server)
        base = {"model": "m", "max_tokens": 64, "messages": ASK}
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.create(**{**base, **bad})
        assert caught.value.status_code == 400
        assert (
            caught.value.body["type"] == "error"
            and caught.value.body["error"]["type"] == "invalid_request_error"
        )
        assert words in caught.value.message and server.refused[-1].rule == rule
        reply = client.messages.create(**{**base, **good})  # the twin goes through
        assert reply.stop_reason == "end_turn" and len(server.refused) == 1


def _fc(call_id: str) -> dict:
    return {"type": "function_call", "call_id": call_id, "name": "sales_order_search", "arguments": "{}"}


NAMESPACE = {
    "type": "namespace",
    "name": "sap",
    "description": "SAP order tools.",
    "tools": [{**t, "defer_loading": True} for t in R_TOOLS],
}
RESPONSES_CASES = [
    ("duplicate_function_name", {"tools": R_TOOLS + R_TOOLS[:1]}, {"tools": R_TOOLS}, "more than once"),
    (
        "duplicate_function_name",
        {"tools": [NAMESPACE, R_TOOLS[0], {"type": "tool_search"}]},
        {"tools": [NAMESPACE, {"type": "tool_search"}]},
        R_TOOLS[0]["name"],
    ),
    (
        "unknown_allowed_tool",
        {
            "tools": R_TOOLS,
            "tool_choice": {
                "type": "allowed_tools",
                "mode": "auto",
                "tools": [{"type": "function", "name": "order_lookup"}],
            },
        },
        {
            "tools": R_TOOLS,
            "tool_choice": {
                "type": "allowed_tools",
                "mode": "auto",
                "tools": [{"type": "function", "name": "sales_order_search"}],
            },
        },
        "allowed_tools can only narrow",
    ),
    (
        "unknown_allowed_tool",
        {"tools": R_TOOLS, "tool_choice": {"type": "function", "name": "order_lookup"}},
        {"tools": R_TOOLS, "tool_choice": {"type": "function", "name": "sales_order_search"}},
        "not in tools",
    ),
    (
        "deferred_without_tool_search",
        {"tools": [NAMESPACE]},
        {"tools": [NAMESPACE, {"type": "tool_search"}]},
        "tool_search",
    ),
    (
        "deferred_without_tool_search",
        {"tools": [{**NAMESPACE, "defer_loading": True}, {"type": "tool_search"}]},
        {"tools": [NAMESPACE, {"type": "tool_search"}]},
        "not on the namespace",
    ),
    (
        "unmatched_function_call_output",
        {
            "tools": R_TOOLS,
            "input": [_fc("call_1"), {"type": "function_call_output", "call_id": "call_2", "output": "[]"}],
        },
        {
            "tools": R_TOOLS,
            "input": [_fc("call_1"), {"type": "function_call_output", "call_id": "call_1", "output": "[]"}],
        },
        "call_2",
    ),
    (
        "parallel_without_tools",
        {"parallel_tool_calls": False},
        {"parallel_tool_calls": False, "tools": R_TOOLS},
        "only allowed when",
    ),
]


@pytest.mark.parametrize("rule,bad,good,words", RESPONSES_CASES, ids=[c[0] for c in RESPONSES_CASES])
def test_openai_responses_sdk_meets_the_refusal(rule, bad, good, words):
    with capture.CaptureServer([examples.responses_function_calls_reply()]) as server:
        client = capture.openai_client(server)
        base = {"model": "m", "input": examples.REQUEST}
        with pytest.raises(openai.BadRequestError) as caught:
            client.responses.create(**{**base, **bad})
        error = caught.value.body
        assert caught.value.status_code == 400 and caught.value.code == rule
        assert set(error) >= {"message", "type", "param", "code"} and error["type"] == "invalid_request_error"
        assert words in error["message"] and server.refused[-1].rule == rule
        assert client.responses.create(**{**base, **good}).status == "completed"


CHAT_CALLS = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "sales_order_search", "arguments": "{}"}},
        {
            "id": "call_2",
            "type": "function",
            "function": {"name": "customer_get_credit_exposure", "arguments": "{}"},
        },
    ],
}
CHAT_ASK = [{"role": "user", "content": examples.REQUEST}]
CHAT_CASES = [
    ("duplicate_function_name", {"tools": C_TOOLS + C_TOOLS[-1:]}, {"tools": C_TOOLS}, "more than once"),
    (
        "unanswered_tool_call",
        {
            "tools": C_TOOLS,
            "messages": CHAT_ASK + [CHAT_CALLS, {"role": "tool", "tool_call_id": "call_1", "content": "[]"}],
        },
        {
            "tools": C_TOOLS,
            "messages": CHAT_ASK
            + [
                CHAT_CALLS,
                {"role": "tool", "tool_call_id": "call_1", "content": "[]"},
                {"role": "tool", "tool_call_id": "call_2", "content": "{}"},
            ],
        },
        "call_2",
    ),
    (
        "unanswered_tool_call",
        {
            "tools": C_TOOLS,
            "messages": CHAT_ASK + [{"role": "tool", "tool_call_id": "call_1", "content": "[]"}],
        },
        {"tools": C_TOOLS, "messages": CHAT_ASK},
        "must be a response",
    ),
    (
        "parallel_without_tools",
        {"parallel_tool_calls": True, "messages": CHAT_ASK},
        {"parallel_tool_calls": True, "messages": CHAT_ASK, "tools": C_TOOLS},
        "only allowed when",
    ),
]


@pytest.mark.parametrize("rule,bad,good,words", CHAT_CASES, ids=[c[0] for c in CHAT_CASES])
def test_openai_chat_sdk_meets_the_refusal(rule, bad, good, words):
    with capture.CaptureServer([examples.chat_tool_calls_reply()]) as server:
        client = capture.openai_client(server)
        base = {"model": "m", "messages": CHAT_ASK}
        with pytest.raises(openai.BadRequestError) as caught:
            client.chat.completions.create(**{**base, **bad})
        assert caught.value.status_code == 400 and caught.value.code == rule
        assert words in caught.value.body["message"]
        assert client.chat.completions.create(**{**base, **good}).choices[0].finish_reason == "tool_calls"


def test_every_rule_has_a_case():
    covered = {(Dialect.ANTHROPIC, c[0]) for c in ANTHROPIC_CASES}
    covered |= {(Dialect.RESPONSES, c[0]) for c in RESPONSES_CASES} | {
        (Dialect.CHAT, c[0]) for c in CHAT_CASES
    }
    assert covered == {(d, rule) for d, rules in RULES.items() for rule in rules}
    assert len({rule for _, rule in covered}) >= 10


def test_error_shapes_and_unchecked_paths():
    found = refusal("/v1/messages", {"tools": A_TOOLS + A_TOOLS[:1]})
    assert found is not None and set(error_body(found)) == {"type", "error"}
    assert refusal("/v1/embeddings", {"tools": A_TOOLS + A_TOOLS[:1]}) is None
    with capture.CaptureServer([examples.anthropic_final_reply("ok")], check=False) as server:
        capture.anthropic_client(server).messages.create(
            model="m", max_tokens=8, messages=ASK, tools=A_TOOLS + A_TOOLS[:1]
        )
        assert server.refused == [] and len(server.captured) == 1
