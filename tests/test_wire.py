"""Lesson 18's package: dialects, turns, the capture server, the cache model, the cited cache prices."""

from __future__ import annotations

import json

import pytest
from fake_model_server import FakeModelServer

from tooldesign.dispatch.calls import ToolResult
from tooldesign.dispatch.validate import Dispatcher
from tooldesign.loop.caching import ANTHROPIC_CACHE, CACHE_PRICES, CacheSplit, cache_row
from tooldesign.mcp.server import listed_tool
from tooldesign.selection.config import DEFAULT_MODELS
from tooldesign.tools.designed import EXAMPLES, build_designed_set
from tooldesign.tools.schema import is_strict_ready
from tooldesign.wire import cache, capture, dialects, examples, turns
from tooldesign.wire.cache import Segment, cache_verdict

TOOLS = build_designed_set()


# ---------- dialects ----------


@pytest.mark.parametrize("name", TOOLS.names)
def test_every_dialect_carries_the_same_schema_under_its_own_key(name):
    tool = TOOLS[name]
    found = dialects.in_every_dialect(tool)
    schemas = [
        found["Anthropic Messages"]["input_schema"],
        found["OpenAI Chat Completions"]["function"]["parameters"],
        found["OpenAI Responses"]["parameters"],
        found["MCP tools/list"]["inputSchema"],
    ]
    assert all(schema == dict(tool.parameters) for schema in schemas)
    assert {found[api].get("name") or found[api]["function"]["name"] for api in found} == {name}
    assert found["OpenAI Responses"]["strict"] is is_strict_ready(tool.parameters)
    for api in found:
        assert dialects.schema_key(api)


def test_mcp_dialect_is_what_the_mcp_server_lists():
    tool = TOOLS["sales_order_search"]
    assert dialects.mcp_tool(tool)["inputSchema"] == listed_tool(tool).model_dump(by_alias=True)["inputSchema"]
    assert set(dialects.mcp_tool(tool)) == {"name", "description", "inputSchema"}


def test_a_loose_schema_is_not_sent_as_strict():
    from tooldesign.tools.base import Tool

    loose = Tool("t", "Does one thing.", {"type": "object", "properties": {"a": {"type": "string"}}}, lambda a: a)
    assert "strict" not in dialects.anthropic_tool(loose)
    assert dialects.responses_tool(loose)["strict"] is False


def test_tool_choice_table_names_any_and_required():
    rows = {row["intention"]: row for row in dialects.TOOL_CHOICE}
    must = rows["some tool must be called"]
    assert must["Anthropic"] == {"type": "any"}
    assert must["OpenAI Chat Completions"] == must["OpenAI Responses"] == "required"
    forced = [r["intention"] for r in dialects.TOOL_CHOICE if r["with extended thinking (Anthropic)"] == "refused"]
    assert forced == ["some tool must be called", "this tool must be called"]


@pytest.mark.parametrize("access, callers", [("direct", ["direct"]), ("code", ["code_execution_20250825"]),
                                             ("both", ["direct", "code_execution_20250825"])])
def test_allowed_callers_follow_the_code_mode_access_setting(access, callers):
    assert dialects.allowed_callers(access) == callers


def test_allowed_callers_refuse_an_unknown_access_in_one_line():
    with pytest.raises(ValueError, match="direct, code, both"):
        dialects.allowed_callers("model")


# ---------- turns ----------


def test_answer_pairs_every_call_and_flags_the_error():
    turn, results = turns.answer_tool_uses(Dispatcher(TOOLS, examples=EXAMPLES),
                                           examples.anthropic_tool_use_reply()["content"])
    assert turn["role"] == "user"
    assert [b["tool_use_id"] for b in turn["content"]] == ["toolu_01", "toolu_02"]
    assert [b.get("is_error", False) for b in turn["content"]] == [False, True]
    assert all(b["type"] == "tool_result" for b in turn["content"])
    assert len(results) == 2


def test_a_write_without_a_decision_comes_back_as_an_error_result():
    content = [{"type": "tool_use", "id": "w1", "name": "release_request_create",
                "input": EXAMPLES["release_request_create"]},
               {"type": "tool_use", "id": "u1", "name": "no_such_tool", "input": {}}]
    turn, _ = turns.answer_tool_uses(Dispatcher(TOOLS, examples=EXAMPLES), content)
    assert [(b["tool_use_id"], b.get("is_error")) for b in turn["content"]] == [("w1", True), ("u1", True)]


def test_text_blocks_are_not_answered():
    content = [{"type": "text", "text": "hi"}]
    turn, results = turns.answer_tool_uses(Dispatcher(TOOLS), content)
    assert turn["content"] == [] and results == []


def test_openai_answers_use_their_own_id_fields():
    results = [ToolResult("call_1", {"a": 1}), ToolResult("call_2", "bad", is_error=True)]
    assert turns.chat_tool_messages(results) == [
        {"role": "tool", "tool_call_id": "call_1", "content": '{"a": 1}'},
        {"role": "tool", "tool_call_id": "call_2", "content": "bad"}]
    assert [o["call_id"] for o in turns.responses_outputs(results)] == ["call_1", "call_2"]
    calls = turns.as_function_calls(examples.PARALLEL_CALLS)
    assert json.loads(calls[0]["arguments"]) == examples.PARALLEL_CALLS[0]["input"]


# ---------- capture server with the official clients ----------


def test_the_sdk_sends_typed_tools_and_the_results_turn():
    with capture.CaptureServer([examples.anthropic_tool_use_reply(), examples.anthropic_final_reply("done")]) as srv:
        client = capture.anthropic_client(srv)
        tools = [dialects.anthropic_tool(t) for t in TOOLS]
        messages = [{"role": "user", "content": examples.REQUEST}]
        reply = client.messages.create(model=DEFAULT_MODELS["anthropic"], max_tokens=64, tools=tools, messages=messages)
        assert reply.stop_reason == "tool_use"
        answer, _ = turns.answer_tool_uses(Dispatcher(TOOLS, examples=EXAMPLES), reply.content)
        messages += [{"role": "assistant", "content": reply.content}, answer]
        final = client.messages.create(model=DEFAULT_MODELS["anthropic"], max_tokens=64, tools=tools, messages=messages)
    assert final.stop_reason == "end_turn"
    paths = [path for path, _ in srv.captured]
    assert paths == ["/v1/messages", "/v1/messages"]
    second = srv.captured[1][1]
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "user"]
    assert [b["type"] for b in second["messages"][1]["content"]] == ["text", "tool_use", "tool_use"]
    assert [b["tool_use_id"] for b in second["messages"][2]["content"]] == ["toolu_01", "toolu_02"]
    assert second["tools"] == tools


def test_openai_clients_parse_the_example_replies():
    with capture.CaptureServer([examples.chat_tool_calls_reply(), examples.responses_function_calls_reply()]) as srv:
        client = capture.openai_client(srv)
        chat = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}],
                                              tools=[dialects.chat_tool(t) for t in TOOLS])
        resp = client.responses.create(model="m", input="x", tools=[dialects.responses_tool(t) for t in TOOLS])
    assert [c.function.name for c in chat.choices[0].message.tool_calls] == [b["name"] for b in examples.PARALLEL_CALLS]
    assert [i.type for i in resp.output] == ["function_call", "function_call"]
    assert srv.captured[1][1]["tools"][0]["parameters"] == dict(TOOLS.tools[0].parameters)


def test_a_server_without_replies_answers_an_error_the_client_raises():
    import anthropic

    with capture.CaptureServer([]) as srv, pytest.raises(anthropic.InternalServerError):
        capture.anthropic_client(srv).messages.create(model="m", max_tokens=1, messages=[{"role": "user", "content": "x"}])


def test_the_course_fake_server_accepts_the_lesson_dialects():
    """The independent fake server of the real-model tests checks the strict flags the dialects set."""
    with FakeModelServer() as fake:
        capture.anthropic_client(fake).messages.create(  # type: ignore[arg-type]
            model="m", max_tokens=8, tools=[dialects.anthropic_tool(t) for t in TOOLS],
            tool_choice={"type": "auto"}, messages=[{"role": "user", "content": "x"}])
        capture.openai_client(fake).chat.completions.create(  # type: ignore[arg-type]
            model="m", tools=[dialects.chat_tool(t) for t in TOOLS], tool_choice="auto",
            messages=[{"role": "user", "content": "x"}])
    assert fake.problems == []


# ---------- the cache model ----------

BASE = {"tools": [{"name": "a"}, {"name": "b"}], "system": "sys", "tool_choice": {"type": "auto"},
        "messages": [{"role": "user", "content": "q"}]}


@pytest.mark.parametrize("change, segment", [
    ({"messages": BASE["messages"] + [{"role": "assistant", "content": "x"}]}, Segment.NONE),
    ({}, Segment.NONE),
    ({"tools": [{"name": "b"}, {"name": "a"}]}, Segment.TOOLS),
    ({"tools": BASE["tools"] + [{"name": "c"}]}, Segment.TOOLS),
    ({"tools": BASE["tools"][:1]}, Segment.TOOLS),
    ({"system": "sys!"}, Segment.SYSTEM),
    ({"tool_choice": {"type": "any"}}, Segment.MESSAGES),
    ({"messages": [{"role": "user", "content": "q2"}]}, Segment.MESSAGES),
])
def test_the_first_changed_part_is_what_breaks(change, segment):
    verdict = cache_verdict(BASE, {**BASE, **change})
    assert verdict.broken_at is segment
    assert 0 <= verdict.cached_tokens <= verdict.sent_tokens
    if segment is Segment.TOOLS:
        assert verdict.cached_tokens == 0


def test_more_changes_keep_less():
    kept = [cache_verdict(BASE, {**BASE, **c}).cached_tokens
            for c in ({}, {"tool_choice": {"type": "any"}}, {"system": "other"}, {"tools": []})]
    assert kept == sorted(kept, reverse=True) and kept[-1] == 0


def test_a_dropped_last_message_is_a_change():
    before = {**BASE, "messages": BASE["messages"] + [{"role": "assistant", "content": "x"}]}
    assert cache_verdict(before, BASE).broken_at is Segment.MESSAGES


def test_tool_reference_keeps_the_cache_and_an_added_tool_does_not():
    reference = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "s",
                                              "content": [{"type": "tool_reference", "tool_name": "b"}]}]}
    assert cache_verdict(BASE, {**BASE, "messages": BASE["messages"] + [reference]}).broken_at is Segment.NONE
    assert cache_verdict(BASE, {**BASE, "tools": BASE["tools"] + [{"name": "found"}]}).broken_at is Segment.TOOLS


def test_sdk_blocks_are_counted_as_json():
    from anthropic.types import TextBlock

    block = TextBlock(type="text", text="hello", citations=None)
    after = {**BASE, "messages": BASE["messages"] + [{"role": "assistant", "content": [block]}]}
    assert cache.cache_verdict(BASE, after).sent_tokens > cache.cache_verdict(BASE, BASE).sent_tokens


# ---------- cited cache prices ----------


def test_cache_prices_name_their_sources():
    for prices in CACHE_PRICES:
        assert prices.provider in prices.source and "http" in prices.source and "2026" in prices.source
        assert 0 < prices.read < 1 <= prices.write
    assert (ANTHROPIC_CACHE.read, ANTHROPIC_CACHE.write) == (0.1, 1.25)


def test_a_loop_reads_everything_it_sent_before_from_the_cache():
    from tooldesign.loop import per_call

    for run in per_call():
        splits = run.cache_splits()
        assert splits[0].from_cache == 0
        assert [s.sent for s in splits] == [c.tokens for c in run.calls]
        assert all(later.from_cache <= later.sent for later in splits)
        assert [s.from_cache for s in splits[1:]] == [s.sent for s in splits[:-1]]  # the prefix only grows
        row = cache_row(splits)
        assert row["tokens sent"] == sum(c.tokens for c in run.calls)
        assert row["read from cache"] + row["at full price"] == row["tokens sent"]
        assert row["cost with Anthropic cache (full-price tokens)"] < row["tokens sent"]


def test_a_cache_split_prices_new_tokens_as_writes_and_the_rest_as_reads():
    split = CacheSplit(1600, 1400)
    assert split.full_price == 200
    assert split.cost(ANTHROPIC_CACHE) == pytest.approx(200 * 1.25 + 1400 * 0.1)
    row = cache_row([CacheSplit(1000, 0), split])
    assert row == {"tokens sent": 2600, "read from cache": 1400, "at full price": 1200,
                   "cost with Anthropic cache (full-price tokens)": round(1200 * 1.25 + 1400 * 0.1)}


def test_load_all_against_search_gains_the_cache_columns():
    from tooldesign.scale import search

    rows = search.table(search.compare_cached())
    for row in rows:
        assert row["read from cache (warm)"] + row["at full price"] == pytest.approx(
            row["tokens per request (estimate)"], abs=0.2)
        full, cached = row["at full price"], row["read from cache (warm)"]
        # The columns are rounded one by one, so the sum of rounded parts may be off by a few tokens.
        assert row["cost with Anthropic cache (full-price tokens)"] == pytest.approx(full * 1.25 + cached * 0.1, abs=3)
    # A warm cache makes the big, stable prefix of load-all cheap; search's new tokens pay the write premium.
    assert rows[0]["cost with Anthropic cache (full-price tokens)"] < rows[0]["tokens per request (estimate)"] / 5
    assert rows[0]["loading"] == "load all" and rows[0]["read from cache (warm)"] > rows[1]["read from cache (warm)"]
