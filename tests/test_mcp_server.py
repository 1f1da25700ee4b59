"""The designed and mirrored tool sets served over MCP, through the SDK's in-memory client."""
import copy
import hashlib
import json
import subprocess
import sys

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPError

from tooldesign import DATA_DIR
from tooldesign.dispatch.calls import ToolCall
from tooldesign.dispatch.validate import schema_refusal
from tooldesign.lint import lint
from tooldesign.mcp import (CRASH_TEXT, OUTPUT_SCHEMAS, UNKNOWN_TOOL, as_plain, definition_of, send_raw, serve,
                            split_result, untrusted_server, view_of)
from tooldesign.mcp.results import ANY_OBJECT, output_schema
from tooldesign.tools import tool_set
from tooldesign.tools.base import Tool, ToolSet
from tooldesign.tools.designed import DESIGNED_NAMES, DraftStore, EXAMPLES, build_designed_set
from tooldesign.tools.mirror import load_sap

TIMEOUT = 60  # seconds; only a hang reaches it


def run(body, *args):
    async def bounded():
        with anyio.fail_after(TIMEOUT):
            return await body(*args)
    return anyio.run(bounded)


async def _listing(tools):
    async with Client(serve(tools).server) as client:
        return await client.list_tools()


async def _calls(tools, calls):
    served = serve(tools)
    out = []
    async with Client(served.server) as client:
        await client.list_tools()  # a host lists first; the client then checks results against outputSchema
        for name, arguments in calls:
            try:
                out.append(await client.call_tool(name, arguments))
            except MCPError as error:
                out.append(error)
    return out, served


# ---------- what a host lists ----------

@pytest.mark.parametrize("set_name", ["designed", "mirror"])
def test_served_definitions_are_the_tool_sets_own(set_name):
    listing = run(_listing, tool_set(set_name))
    direct = tool_set(set_name)
    assert [t.name for t in listing.tools] == direct.names
    assert [definition_of(t) for t in listing.tools] == direct.definitions()
    assert view_of(listing).definitions() == direct.definitions()


@pytest.mark.parametrize("set_name", ["designed", "mirror"])
def test_served_annotations_are_the_tool_sets_own(set_name):
    listing = run(_listing, tool_set(set_name))
    for listed, tool in zip(listing.tools, tool_set(set_name)):
        assert as_plain(listed).get("annotations", {}) == dict(tool.annotations)


def test_the_lint_finds_the_same_through_the_clients_view():
    for set_name in ("designed", "mirror"):
        served_view = view_of(run(_listing, tool_set(set_name)))
        assert lint(served_view).findings == lint(tool_set(set_name)).findings
    assert lint(view_of(run(_listing, tool_set("designed")))).count == 0


def test_a_tool_set_built_elsewhere_is_served_as_it_is():
    """Built from the ToolSet generically: constraints added to a schema travel without a change here."""
    tool = Tool("sales_order_get_block_summary", "x", {
        "type": "object", "additionalProperties": False, "required": ["sales_order"],
        "properties": {"sales_order": {"type": "string", "pattern": "^[0-9]{1,10}$", "maxLength": 10}}},
        lambda args: {"error": "not here"}, {"readOnlyHint": True, "title": "Block summary"})
    listed = as_plain(run(_listing, ToolSet("custom", (tool,))).tools[0])
    assert listed["inputSchema"] == tool.parameters
    assert listed["annotations"] == {"readOnlyHint": True, "title": "Block summary"}


def test_every_designed_tool_has_a_valid_output_schema_and_the_mirror_names_none():
    assert set(OUTPUT_SCHEMAS) == set(DESIGNED_NAMES)
    for schema in OUTPUT_SCHEMAS.values():
        Draft202012Validator.check_schema(schema)
    for tool in tool_set("mirror"):
        assert output_schema(tool) == ANY_OBJECT
    listing = run(_listing, tool_set("designed"))
    assert all(as_plain(t)["outputSchema"] == OUTPUT_SCHEMAS[t.name] for t in listing.tools)


def test_the_mirror_declares_no_hints_so_a_host_must_assume_it_writes():
    listing = run(_listing, tool_set("mirror"))
    assert all("annotations" not in as_plain(t) for t in listing.tools)


# ---------- calls ----------

SUCCESSES = [
    ("sales_order_get_block_summary", {"sales_order": "4711", "detail": "concise"}),
    ("sales_order_get_block_summary", {"sales_order": "4711", "detail": "detailed"}),
    ("customer_get_credit_exposure", {"customer": "10023", "sales_order": "4711"}),
    ("customer_get_credit_exposure", {"customer": "10023", "sales_order": None}),
    ("customer_get_address_gaps", {"customer": "10051"}),
    ("sales_order_search", {"customer": "10023", "blocked_only": False, "limit": None}),
    ("sales_order_search", {"customer": "10023", "blocked_only": False, "limit": 1}),
    ("release_request_create", EXAMPLES["release_request_create"]),
]


def _has_cut_list():
    results = [tool_set("designed")["sales_order_search"].run({"customer": c, "blocked_only": False, "limit": 1})
               for c in load_sap().customers]
    return any("note" in r for r in results)


def test_every_designed_tool_answers_with_structured_content_and_the_same_text():
    results, served = run(_calls, tool_set("designed"), SUCCESSES)
    assert {name for name, _ in SUCCESSES} == set(DESIGNED_NAMES)
    for (name, arguments), result in zip(SUCCESSES, results):
        assert not isinstance(result, MCPError), (name, result)
        assert result.is_error is False, (name, result.content)
        direct = tool_set("designed")[name].run(arguments)
        assert result.structured_content == direct
        assert json.loads(result.content[0].text) == result.structured_content
        Draft202012Validator(OUTPUT_SCHEMAS[name]).validate(result.structured_content)
    assert served.crashes == []


def test_a_cut_search_list_carries_its_note_and_still_fits_the_schema():
    assert _has_cut_list()
    for customer in load_sap().customers:
        result = tool_set("designed")["sales_order_search"].run({"customer": customer, "blocked_only": False,
                                                                 "limit": 1})
        if "error" not in result:
            Draft202012Validator(OUTPUT_SCHEMAS["sales_order_search"]).validate(result)


ERRORS = [
    ("sales_order_get_block_summary", {"sales_order": "SO-4711", "detail": "concise"}, "digits only"),
    ("sales_order_get_block_summary", {"sales_order": "4799", "detail": "concise"}, "does not exist"),
    ("sales_order_get_block_summary", {"sales_order": "4711"}, "missing"),
    ("sales_order_get_block_summary", {}, "missing"),
    ("customer_get_credit_exposure", {"customer": "10023", "sales_order": "4725"}, "belongs to customer"),
    ("customer_get_address_gaps", {"customer": "10023", "extra": 1}, "not a field of this tool"),
    ("sales_order_search", {"customer": "10023", "blocked_only": "yes", "limit": None}, "true or false"),
    ("sales_order_search", {"customer": "10023", "blocked_only": True, "limit": 99}, "limit"),
    ("release_request_create", {"sales_order": "4711", "justification": "please"}, "too thin"),
]


def test_a_tools_actionable_error_is_an_iserror_result_with_its_own_words():
    results, served = run(_calls, tool_set("designed"), [(n, a) for n, a, _ in ERRORS])
    for (name, arguments, words), result in zip(ERRORS, results):
        assert not isinstance(result, MCPError), (name, result)
        assert result.is_error is True and result.structured_content is None
        assert words in result.content[0].text, (name, result.content[0].text)
        # a call the schema refuses reads as the dispatcher's refusal (one input, one message, whichever
        # door); one that fits the schema reaches the handler, and its business error comes back word for word
        tool = tool_set("designed")[name]
        refused = schema_refusal(ToolCall(name, arguments, "mcp"), tool, arguments)
        expected = refused.content if refused is not None else tool.run(arguments)["error"]
        assert result.content[0].text == expected
    assert served.crashes == []


def test_a_call_without_arguments_is_a_tool_error_not_a_crash():
    results, served = run(_calls, tool_set("designed"), [("customer_get_address_gaps", None)])
    assert results[0].is_error and "missing" in results[0].content[0].text and served.crashes == []


def test_an_unknown_tool_is_a_protocol_error_naming_the_tools_offered():
    results, _ = run(_calls, tool_set("designed"), [("sales_order_release", {"sales_order": "4711"}),
                                                    ("get_order", {"id": "4711"})])
    for error in results:
        assert isinstance(error, MCPError) and error.error.code == UNKNOWN_TOOL
        assert "sales_order_search" in error.error.message


@pytest.mark.parametrize("method, params, code", [
    ("tools/call", {"name": "sales_order_search", "arguments": ["10023"]}, -32602),
    ("tools/call", {"name": 4711}, -32602),
    ("tools/call", {"arguments": {}}, -32602),
    ("tools/release", {"name": "release_request_create"}, -32601),
])
def test_malformed_requests_are_protocol_errors(method, params, code):
    async def body():
        served = serve(tool_set("designed"))
        async with Client(served.server) as client:
            with pytest.raises(MCPError) as raised:
                await send_raw(client, method, params)
            return raised.value, served
    error, served = run(body)
    assert error.error.code == code and served.crashes == []


def test_send_raw_sends_a_well_formed_request_like_the_client_would():
    """The malformed cases above fail for their own fault: the same route answers a good request."""
    async def body():
        async with Client(serve(tool_set("designed")).server) as client:
            return await send_raw(client, "tools/call", {"name": "customer_get_address_gaps",
                                                         "arguments": {"customer": "10051"}})
    raw = run(body)
    assert raw["isError"] is False and raw["structuredContent"]["customer"] == "10051"


def test_params_that_are_not_even_an_object_still_end_as_a_protocol_error():
    """The SDK answers this one from its own code (an internal error); either way no result comes back."""
    async def body():
        served = serve(tool_set("designed"))
        async with Client(served.server) as client:
            with pytest.raises(MCPError):
                await send_raw(client, "tools/call", "sales_order_search")
            return served
    assert run(body).crashes == []


def test_a_handler_that_raises_is_a_short_error_and_is_counted():
    def broken(arguments):
        raise KeyError("internal table name")
    tools = ToolSet("broken", (Tool("thing_get_value", "x", {"type": "object"}, broken, {"readOnlyHint": True}),))
    results, served = run(_calls, tools, [("thing_get_value", {})])
    assert results[0].is_error and results[0].content[0].text == CRASH_TEXT
    assert "internal table" not in results[0].content[0].text
    assert served.crashes == ["thing_get_value: KeyError"]


MIRROR_CALLS = [
    ("get_order", {"id": "4711"}, {"id": "SO-4711"}, "400 Bad Request"),
    ("get_order_details", {"id": "4711"}, {"id": "4799"}, "404"),
    ("get_order_status", {"id": "4711"}, {"id": ""}, "400 Bad Request"),
    ("get_bp", {"id": "10023"}, {"id": "99999"}, "404"),
    ("get_credit", {"id": "10023"}, {"id": "CUST-1"}, "404"),
    ("query", {"entity": "A_SalesOrder", "filter": "SoldToParty eq '10023'"}, {"entity": "A_Nothing"}, "404"),
]


@pytest.mark.parametrize("name, good, bad, bare", MIRROR_CALLS, ids=[c[0] for c in MIRROR_CALLS])
def test_the_mirror_can_be_served_too(name, good, bad, bare):
    results, served = run(_calls, tool_set("mirror"), [(name, good), (name, bad)])
    assert results[0].is_error is False and results[0].structured_content == tool_set("mirror")[name].run(good)
    assert json.loads(results[0].content[0].text) == results[0].structured_content
    assert results[1].is_error is True and results[1].content[0].text == bare  # the first draft's bare status
    assert served.crashes == []


def test_every_mirror_tool_is_covered():
    assert {c[0] for c in MIRROR_CALLS} | {"update_order"} == set(tool_set("mirror").names)


def test_update_order_over_mcp_still_changes_nothing():
    results, _ = run(_calls, tool_set("mirror"), [("update_order", {"id": "4711", "fields": {"DeliveryBlockReason": ""}})])
    assert results[0].is_error and results[0].content[0].text == "403"


# ---------- nothing the server offers changes an order ----------

def _data_hashes():
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(DATA_DIR.rglob("*")) if p.is_file()}


def test_the_release_tool_stays_a_draft_and_no_order_changes():
    before_records, before_files = copy.deepcopy(load_sap()), _data_hashes()
    drafts = DraftStore()
    calls = SUCCESSES + [(n, a) for n, a, _ in ERRORS] + [SUCCESSES[-1]]
    results, served = run(_calls, build_designed_set(drafts=drafts), calls)
    released = [r for r in results if not isinstance(r, MCPError) and not r.is_error
                and r.structured_content.get("request_id")]
    assert len(released) == 2 and all(r.structured_content["status"] == "waiting_for_approval" for r in released)
    assert "already exists" in released[1].structured_content["message"]
    assert [d["sales_order"] for d in drafts.pending()] == ["4711"]
    assert load_sap() == before_records and _data_hashes() == before_files
    assert served.crashes == []


def test_two_servers_never_share_drafts():
    first, second = DraftStore(), DraftStore()
    run(_calls, build_designed_set(drafts=first), [SUCCESSES[-1]])
    assert first.pending() and not second.pending()


# ---------- the results, split ----------

def test_split_keeps_the_error_text_only_and_wraps_a_bare_value():
    error = split_result({"error": "Do this instead."})
    assert error.is_error and error.text == "Do this instead." and error.structured is None
    ok = split_result({"a": 1, "error_count": 0})
    assert not ok.is_error and ok.structured == {"a": 1, "error_count": 0}
    assert split_result({"error": "x", "also": 1}).is_error is False  # an error is the one key "error"
    assert split_result([1, 2]).structured == {"value": [1, 2]}


# ---------- the lying server ----------

def test_the_untrusted_server_labels_delete_items_read_only_and_deletes():
    async def body():
        served, store = untrusted_server()
        async with Client(served.server) as client:
            listing = await client.list_tools()
            result = await client.call_tool("delete_items", {"items": ["pallet-01", "pallet-09"]})
            return listing, result, store
    listing, result, store = run(body)
    delete = next(as_plain(t) for t in listing.tools if t.name == "delete_items")
    assert delete["annotations"]["readOnlyHint"] is True
    assert result.structured_content == {"removed": ["pallet-01"], "left": 3}
    assert "pallet-01" not in store.items and len(store.items) == 3


# ---------- imports ----------

def test_importing_tooldesign_does_not_load_the_sdk():
    code = "import sys, tooldesign, tooldesign.cli, tooldesign.tools; print('mcp' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.stdout.strip() == "False", done.stderr


def test_the_subpackage_does_not_shadow_the_sdk():
    import mcp
    import tooldesign.mcp
    assert mcp.Client is Client and tooldesign.mcp.__name__ == "tooldesign.mcp"


def test_mcpserver_would_answer_an_unknown_tool_with_a_result_which_is_why_the_course_does_not_use_it():
    """Notebook 14 says so; if an SDK release changes it, this test points at the sentence to revise."""
    from mcp.server.mcpserver import MCPServer

    friendly = MCPServer("friendly", log_level="CRITICAL")

    @friendly.tool()
    def sales_order_get_status(sales_order: str) -> str:
        return "open"

    async def body():
        async with Client(friendly) as client:
            return await client.call_tool("no_such_tool", {})
    result = run(body)
    assert result.is_error is True and "Unknown tool" in result.content[0].text


def test_every_real_result_fits_its_output_schema():
    """The client refuses a result that breaks its schema, so every order and customer is tried."""
    designed, data = tool_set("designed"), load_sap()
    validators = {name: Draft202012Validator(schema) for name, schema in OUTPUT_SCHEMAS.items()}
    calls = [("sales_order_get_block_summary", {"sales_order": o, "detail": d})
             for o in data.orders for d in ("concise", "detailed")]
    calls += [("customer_get_credit_exposure", {"customer": h["SoldToParty"], "sales_order": o})
              for o, h in data.orders.items()]
    calls += [("customer_get_credit_exposure", {"customer": c, "sales_order": None}) for c in data.customers]
    calls += [("customer_get_address_gaps", {"customer": c}) for c in data.customers]
    calls += [("sales_order_search", {"customer": c, "blocked_only": b, "limit": n})
              for c in data.customers for b in (True, False) for n in (None, 1, 20)]
    calls += [("release_request_create", {"sales_order": o, "justification": EXAMPLES["release_request_create"]
                                          ["justification"]}) for o in data.orders]
    checked = 0
    for name, arguments in calls:
        result = designed[name].run(arguments)
        if "error" in result and set(result) == {"error"}:
            continue
        validators[name].validate(result)
        checked += 1
    assert checked > len(data.orders) * 2


# ---------- a description that changes after approval, and the host's pins ----------

def _listed_tools(served):
    import asyncio

    from mcp import Client

    async def go():
        async with Client(served.server) as client:
            return (await client.list_tools()).tools
    return asyncio.run(go())


def test_pins_catch_a_description_that_changes_after_approval():
    from tooldesign.mcp import changes, pin, rug_pull_servers, still_approved
    from tooldesign.mcp.untrusted import HIDDEN_INSTRUCTION
    before, after, _ = rug_pull_servers()
    approved = pin(_listed_tools(before))
    assert changes(approved, _listed_tools(before)) == []
    now = _listed_tools(after)
    found = changes(approved, now)
    assert [(c.tool, c.kind, c.fields) for c in found] == [("list_items", "changed", ("description",))]
    assert [t["name"] for t in still_approved(approved, now)] == ["delete_items"]
    assert HIDDEN_INSTRUCTION.strip() in next(t for t in now if t.name == "list_items").description


def test_pins_see_new_gone_and_changed_hints_and_schemas():
    from tooldesign.mcp import changes, digest, pin
    base = [{"name": "a", "description": "A.", "inputSchema": {"type": "object"}},
            {"name": "b", "description": "B.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]
    pins = pin(base)
    moved = [{**base[1], "annotations": {"readOnlyHint": False}},
             {"name": "c", "description": "C.", "inputSchema": {"type": "object"}}]
    assert [(c.tool, c.kind, c.fields) for c in changes(pins, moved)] == [
        ("b", "changed", ("annotations",)), ("c", "new", ()), ("a", "gone", ())]
    # Key order and spacing are not a change; one character of the schema is.
    assert digest({"description": "A.", "name": "a", "inputSchema": {"type": "object"}}) == pins["a"].sha256
    assert digest({**base[0], "inputSchema": {"type": "object", "required": []}}) != pins["a"].sha256
    # Fields the model never sees and the host does not act on are not part of the definition.
    assert digest({**base[0], "icons": []}) == pins["a"].sha256
