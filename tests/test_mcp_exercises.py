"""Notebooks 14 and 15: answers in a learner's own words pass, and the answer keys agree with the real server.
(Every exercise is proven both ways in test_exercises.py.)"""
import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from tooldesign.mcp import as_plain, definition_of, send_raw, serve, untrusted_server
from tooldesign.tools import tool_set
from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises.lesson14 import HINT_DEFAULTS, HINT_EXPECTED, HINT_PROBES, OUTCOME_EXPECTED, OUTCOME_PROBES
from workbook.exercises.lesson15 import APPROVAL_EXPECTED, APPROVAL_PROBES


def with_defaults(tool):
    defaults = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
    declared = tool.get("annotations", {})
    return {hint: declared.get(hint, default) for hint, default in defaults.items()}


def with_defaults_by_updating(tool):
    hints = {"openWorldHint": True, "idempotentHint": False, "destructiveHint": True, "readOnlyHint": False}
    for key, value in (tool.get("annotations") or {}).items():
        if key in hints:
            hints[key] = value
    return hints


def outcome(message):
    if "error" in message:
        return "protocol error"
    return "tool error" if message["result"].get("isError", False) else "result"


def outcome_by_result(message):
    result = message.get("result")
    if result is None:
        return "protocol error"
    return ["result", "tool error"][bool(result.get("isError"))]


def needs_approval(tool, server_trusted):
    if not server_trusted:
        return True
    return tool.get("annotations", {}).get("readOnlyHint") is not True


def needs_approval_in_one_line(tool, server_trusted):
    return not (server_trusted and (tool.get("annotations") or {}).get("readOnlyHint", False) == True)  # noqa: E712


CORRECT = [("ex14-hint-defaults", with_defaults), ("ex14-hint-defaults", with_defaults_by_updating),
           ("ex14-outcome", outcome), ("ex14-outcome", outcome_by_result),
           ("ex15-approval", needs_approval), ("ex15-approval", needs_approval_in_one_line)]


@pytest.mark.parametrize("grade_id, answer", CORRECT, ids=lambda value: getattr(value, "__name__", value))
def test_a_correct_answer_in_a_learners_own_words_passes(grade_id, answer):
    verdict = evaluate(grade_id, answer)
    assert verdict.status == PASS, verdict.message


def test_the_hint_defaults_are_the_published_ones():
    """readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true (MCP blog, 2026-03-16)."""
    assert HINT_DEFAULTS == {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
                             "openWorldHint": True}
    assert [with_defaults(*probe) for probe in HINT_PROBES] == list(HINT_EXPECTED)


def test_the_hint_key_on_what_the_servers_list():
    async def body():
        out = {}
        for name in ("designed", "mirror"):
            async with Client(serve(tool_set(name)).server) as client:
                out[name] = [as_plain(t) for t in (await client.list_tools()).tools]
        return out
    listed = anyio.run(body)
    assert all(with_defaults(t) == HINT_DEFAULTS for t in listed["mirror"])
    release = with_defaults(listed["designed"][-1])
    assert release == {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}


def test_the_served_definitions_are_the_model_part_of_the_listing():
    async def body():
        async with Client(serve(tool_set("designed")).server) as client:
            return await client.list_tools()
    assert [definition_of(t) for t in anyio.run(body).tools] == tool_set("designed").definitions()


def test_the_outcome_key_matches_real_responses():
    async def wire(client, number, params):
        try:
            return {"jsonrpc": "2.0", "id": number, "result": await send_raw(client, "tools/call", params)}
        except MCPError as error:
            return {"jsonrpc": "2.0", "id": number, "error": error.error.model_dump(exclude_none=True)}

    async def body():
        async with Client(serve(tool_set("designed")).server) as client:
            await client.list_tools()
            return [await wire(client, 1, {"name": "customer_get_address_gaps", "arguments": {"customer": "10051"}}),
                    await wire(client, 2, {"name": "customer_get_address_gaps", "arguments": {"customer": "x"}}),
                    await wire(client, 3, {"name": "customer_get_gaps", "arguments": {}}),
                    await wire(client, 4, {"name": "customer_get_address_gaps", "arguments": [1]})]
    assert [outcome(m) for m in anyio.run(body)] == ["result", "tool error", "protocol error", "protocol error"]
    assert [outcome(m) for (m,) in OUTCOME_PROBES] == list(OUTCOME_EXPECTED)


def test_the_approval_key_asks_for_the_liar_and_only_for_the_designed_write():
    async def listing_of(server):
        async with Client(server) as client:
            return [as_plain(t) for t in (await client.list_tools()).tools]
    liar, _ = untrusted_server()
    third_party = anyio.run(listing_of, liar.server)
    designed = anyio.run(listing_of, serve(tool_set("designed")).server)
    assert [t["name"] for t in third_party if needs_approval(t, False)] == ["list_items", "delete_items"]
    assert [t["name"] for t in designed if needs_approval(t, True)] == ["release_request_create"]
    assert [needs_approval(*probe) for probe in APPROVAL_PROBES] == list(APPROVAL_EXPECTED)


def test_trusting_the_server_does_not_excuse_a_missing_hint():
    verdict = evaluate("ex15-approval", lambda tool, trusted: not trusted or "readOnlyHint" not in
                       tool.get("annotations", {}))
    assert verdict.status == FAIL
