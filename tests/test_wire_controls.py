"""The per-request controls of lesson 18, as the official SDKs send them to the capture server."""

from __future__ import annotations

from tooldesign.tools.designed import build_designed_set
from tooldesign.wire import capture, controls, dialects, examples

TOOLS = build_designed_set()
A_TOOLS = [dialects.anthropic_tool(t) for t in TOOLS]
R_TOOLS = [dialects.responses_tool(t) for t in TOOLS]
ASK = [{"role": "user", "content": examples.REQUEST}]


def test_allowed_tools_narrows_the_turn_and_leaves_tools_alone():
    with capture.CaptureServer([examples.responses_function_calls_reply()] * 2) as server:
        client = capture.openai_client(server)
        client.responses.create(model="m", input=examples.REQUEST, tools=R_TOOLS)
        client.responses.create(
            model="m",
            input=examples.REQUEST,
            tools=R_TOOLS,
            parallel_tool_calls=False,
            tool_choice=controls.allowed_tools(["sales_order_search"], mode="required"),
        )
    (_, plain), (_, narrowed) = server.captured
    assert plain["tools"] == narrowed["tools"] and "tool_choice" not in plain
    assert narrowed["tool_choice"] == {
        "type": "allowed_tools",
        "mode": "required",
        "tools": [{"type": "function", "name": "sales_order_search"}],
    }
    assert narrowed["parallel_tool_calls"] is False


def test_anthropic_parallel_switch_sits_on_tool_choice():
    assert controls.anthropic_choice() == {"type": "auto"}
    assert controls.anthropic_choice("any", parallel=False) == {
        "type": "any",
        "disable_parallel_tool_use": True,
    }


def test_tool_search_in_both_forms_is_accepted():
    deferred = controls.deferred(A_TOOLS, keep={"sales_order_search"})
    assert [t["defer_loading"] for t in deferred].count(False) == 1
    sap = controls.namespace("sap", "SAP order tools.", R_TOOLS)
    assert "defer_loading" not in sap and all(f["defer_loading"] for f in sap["tools"])
    with capture.CaptureServer([examples.anthropic_final_reply("ok")]) as server:
        capture.anthropic_client(server).messages.create(
            model="m",
            max_tokens=8,
            messages=ASK,
            tools=[controls.ANTHROPIC_TOOL_SEARCH, *controls.deferred(A_TOOLS)],
        )
    with capture.CaptureServer([examples.responses_function_calls_reply()]) as oai:
        capture.openai_client(oai).responses.create(
            model="m", input="x", tools=[sap, controls.OPENAI_TOOL_SEARCH]
        )
    assert server.refused == [] and oai.refused == []


def test_a_paused_turn_resumes_with_the_assistant_content_and_no_user_message():
    replies = [examples.anthropic_pause_turn_reply(), examples.anthropic_final_reply("done")]
    with capture.CaptureServer(replies) as server:
        client = capture.anthropic_client(server)
        tools = [controls.WEB_SEARCH, *A_TOOLS]
        paused = client.messages.create(model="m", max_tokens=8, messages=ASK, tools=tools)
        assert paused.stop_reason == "pause_turn"
        final = client.messages.create(
            model="m", max_tokens=8, messages=controls.continue_paused(ASK, paused.content), tools=tools
        )
    sent = server.last()["messages"]
    assert final.stop_reason == "end_turn" and [m["role"] for m in sent] == ["user", "assistant"]
    assert [b["type"] for b in sent[-1]["content"]] == ["text", "server_tool_use"]
    assert server.captured[0][1]["tools"] == server.captured[1][1]["tools"]


def test_tool_removal_travels_as_a_system_message_in_the_beta_client():
    with capture.CaptureServer([examples.anthropic_final_reply("ok")]) as server:
        capture.anthropic_client(server).beta.messages.create(
            model="m",
            max_tokens=8,
            tools=A_TOOLS,
            messages=[*ASK, controls.tool_removal("sales_order_search")],
        )
    path, body = server.captured[0]
    assert path.startswith("/v1/messages") and body["tools"] == A_TOOLS
    assert body["messages"][-1] == {
        "role": "system",
        "content": [
            {"type": "tool_removal", "tool": {"type": "tool_reference", "name": "sales_order_search"}}
        ],
    }


def test_the_panel_logic_follows_each_toggle():
    from tooldesign.wire.widgets import request_for, summary

    plain = request_for(TOOLS)
    assert plain["parallel_tool_calls"] is True and "tool_choice" not in plain
    narrowed = request_for(TOOLS, ["sales_order_search"], parallel=False)
    assert narrowed["tools"] == plain["tools"] and narrowed["parallel_tool_calls"] is False
    assert narrowed["tool_choice"]["tools"] == [{"type": "function", "name": "sales_order_search"}]
    hidden = request_for(TOOLS, defer=True)
    assert [t["type"] for t in hidden["tools"]] == ["namespace", "tool_search"]
    assert '"defer_loading": true' in summary(hidden)
