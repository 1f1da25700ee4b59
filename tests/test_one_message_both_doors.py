"""One input, one rule, one message: a call refused by the schema reads the same over MCP as through
the dispatcher, and a number where a string of digits is expected says it is a number."""
import anyio
import pytest
from mcp import Client

from tooldesign.dispatch.calls import ToolCall
from tooldesign.dispatch.validate import Dispatcher
from tooldesign.mcp import serve
from tooldesign.tools import tool_set

TIMEOUT = 60  # seconds; only a hang reaches it
TOOLS = tool_set("designed")

ORDER = "sales_order_get_block_summary"
CUSTOMER = "customer_get_credit_exposure"
SEARCH = "sales_order_search"
RELEASE = "release_request_create"
GOOD = {"sales_order": "4711", "detail": "concise"}

# (tool, arguments, words the one message must hold)
CASES = [
    (ORDER, {**GOOD, "sales_order": 4711}, ["you sent 4711 (a number, not a string)"]),
    (ORDER, {**GOOD, "sales_order": 4711.0}, ["you sent 4711.0 (a number, not a string)"]),
    (ORDER, {**GOOD, "sales_order": 47.11}, ["(a number, not a string)"]),
    (ORDER, {**GOOD, "sales_order": -4711}, ["(a number, not a string)"]),
    (ORDER, {**GOOD, "sales_order": True}, ["you sent true (true or false, not a string)"]),
    (ORDER, {**GOOD, "sales_order": None}, ["you sent null (null, not a string)"]),
    (ORDER, {**GOOD, "sales_order": ["4711"]}, ['you sent ["4711"] (a list, not a string)']),
    (ORDER, {**GOOD, "sales_order": {"id": "4711"}}, ["(an object, not a string)"]),
    (ORDER, {**GOOD, "sales_order": "SO-4711"}, ['you sent "SO-4711"', "digits only"]),
    (ORDER, {**GOOD, "sales_order": " 4711 "}, ['you sent " 4711 "', "digits only"]),
    (ORDER, {**GOOD, "sales_order": ""}, ['you sent ""', "digits only"]),
    (ORDER, {**GOOD, "sales_order": "1" * 11}, ['you sent "11111111111"', "at most 10"]),
    (ORDER, {**GOOD, "sales_order": "٤٧١١"}, ["digits only"]),  # Arabic-Indic digits are not 0-9
    (ORDER, {"detail": "concise"}, ["sales_order missing"]),
    (ORDER, {}, ["sales_order missing", "detail missing"]),
    (ORDER, {**GOOD, "extra": 1}, ["extra not a field of this tool"]),
    (ORDER, {**GOOD, "detail": "full"}, ['you sent "full"']),
    (ORDER, {**GOOD, "detail": 1}, ["(a number, not a string)"]),
    (CUSTOMER, {"customer": 10023}, ["you sent 10023 (a number, not a string)"]),
    (SEARCH, {"customer": "10023", "blocked_only": "yes", "limit": None}, ['you sent "yes" (a string, not true or false)']),
    (SEARCH, {"customer": "10023", "blocked_only": True, "limit": "10"}, ['you sent "10" (a string, not a whole number or null)']),
    (RELEASE, {"sales_order": 4711, "justification": "x" * 40}, ["(a number, not a string)"]),
]


def _through_mcp(name: str, arguments: dict) -> tuple[str, bool]:
    async def body():
        with anyio.fail_after(TIMEOUT):
            async with Client(serve(TOOLS).server) as client:
                await client.list_tools()
                result = await client.call_tool(name, arguments)
                return result.content[0].text, result.is_error

    return anyio.run(body)


def _through_dispatcher(name: str, arguments: dict) -> tuple[str, bool]:
    result = Dispatcher(TOOLS).dispatch(ToolCall(name, arguments, "call_1"))
    return result.block()["content"], result.is_error


@pytest.mark.parametrize(("name", "arguments", "words"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_one_input_gets_one_message_through_both_doors(name, arguments, words):
    over_mcp, mcp_error = _through_mcp(name, arguments)
    dispatched, dispatch_error = _through_dispatcher(name, arguments)
    assert mcp_error and dispatch_error
    assert over_mcp == dispatched
    for word in words:
        assert word in over_mcp, over_mcp
    assert "was not run" in over_mcp


def test_a_valid_call_still_runs_through_both_doors():
    over_mcp, mcp_error = _through_mcp(ORDER, GOOD)
    dispatched, dispatch_error = _through_dispatcher(ORDER, GOOD)
    assert not mcp_error and not dispatch_error
    assert '"4711"' in over_mcp and '"4711"' in dispatched
