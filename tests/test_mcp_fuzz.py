"""Arbitrary arguments through the MCP client: the server never crashes, and every failure is either an
``isError`` result or a protocol error. Successful results always fit the tool's output schema, which the
client itself checks."""
import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError

from tooldesign.mcp import serve
from tooldesign.tools import tool_set
from tooldesign.tools.designed import DESIGNED_NAMES
from tooldesign.tools.mirror import MIRROR_NAMES

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
FIELDS = st.sampled_from(["sales_order", "customer", "detail", "blocked_only", "limit", "justification", "id",
                          "entity", "filter", "fields"])
PLAUSIBLE = st.sampled_from(["4711", "4725", "4730", "10023", "10051", "concise", "detailed", "", " 4711", "٤٧١١",
                             "A_SalesOrder", "SoldToParty eq '10023'", "Exposure is five percent over the limit "
                             "and the customer pays on time"])
ARGUMENTS = st.none() | st.dictionaries(st.text(max_size=8), JSON, max_size=3) | st.dictionaries(
    FIELDS, JSON | PLAUSIBLE | st.booleans(), max_size=4)


def _calls(names):
    return st.lists(st.tuples(st.sampled_from(names) | st.text(max_size=20), ARGUMENTS), min_size=1, max_size=12)


def _outcomes(set_name, calls):
    async def body():
        served = serve(tool_set(set_name))
        outcomes = []
        with anyio.fail_after(60):
            async with Client(served.server) as client:
                await client.list_tools()
                for name, arguments in calls:
                    try:
                        result = await client.call_tool(name, arguments)
                    except MCPError as error:
                        outcomes.append(("protocol error", name, error.error.code))
                        continue
                    outcomes.append(("tool error" if result.is_error else "ok", name, result))
        return outcomes, served.crashes
    return anyio.run(body)


def _check(outcomes, crashes, names):
    assert crashes == []
    for kind, name, detail in outcomes:
        if kind == "protocol error":
            assert name not in names and detail == -32602
        elif kind == "tool error":
            assert name in names and detail.structured_content is None and detail.content[0].text.strip()
        else:
            assert name in names and isinstance(detail.structured_content, dict)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=_calls(list(DESIGNED_NAMES)))
def test_designed_server_survives_any_arguments(calls):
    _check(*_outcomes("designed", calls), DESIGNED_NAMES)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=_calls(list(MIRROR_NAMES)))
def test_mirror_server_survives_any_arguments(calls):
    _check(*_outcomes("mirror", calls), MIRROR_NAMES)
