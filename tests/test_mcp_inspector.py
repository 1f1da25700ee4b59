"""Every served tool can be filled in and called from the MCP Inspector.

Two checks. The first needs nothing but Python: the Inspector's form rules, as its source states
them (modelcontextprotocol/inspector 2.3.0, ``core/json/nullableUnion.ts`` ``normalizeNullableUnion``
and ``admitsNull``; ``clients/web/src/components/groups/SchemaForm/SchemaForm.tsx``, the widget for
each collapsed type; ``clients/web/src/utils/jsonUtils.ts`` ``hasMissingRequiredFields``), written
as a list of the shapes that get a widget. A field of any other shape falls to the raw-JSON editor,
the path that left nullable fields unfillable before the collapse existed (inspector issue #1928).
Every field of every served tool must have a widget, and the values those widgets can produce must
build a call the tool's own schema accepts. The rules are an instrument: they are tested on shapes
the builder cannot fill as well.

The second drives the real Inspector's command line (``npx @modelcontextprotocol/inspector --cli``)
against the stdio server, and skips with one reason when Node.js or the package is not available.
npx fetches the package once; each call starts the package's own ``mcp-inspector`` command.
"""

import json
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client

from tooldesign.mcp import as_plain, serve
from tooldesign.tools import tool_set

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 300  # seconds: npx may fetch the package on first use

# ---------- the form rules ----------

RENDERABLE = ("string", "number", "integer", "boolean", "array", "object")
ANNOTATIONS = {"title", "description", "default", "enumNames", "examples", "deprecated", "readOnly", "writeOnly",
               "$comment", "$schema", "$id"}
OPAQUE = ("not", "allOf", "oneOf", "$ref")  # applicators the collapse does not evaluate
FALLBACK = "raw JSON editor"


def _composes(schema: dict) -> bool:
    return "anyOf" in schema or any(key in schema for key in OPAQUE)


def collapse(schema: dict) -> dict | None:
    """``normalizeNullableUnion``: a nullable union as one renderable type, or None when it is not one."""
    branches = schema.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2:
        nulls = [b for b in branches if isinstance(b, dict) and b.get("type") == "null"]
        others = [b for b in branches if isinstance(b, dict) and b.get("type") != "null"]
        wrapper_constrains = any(key != "anyOf" and key not in ANNOTATIONS for key in schema)
        if nulls and others and not wrapper_constrains and not _composes(others[0]):
            kind = others[0].get("type") or ("string" if _string_enum(others[0].get("enum")) else None)
            if kind in RENDERABLE:
                return {**{k: v for k, v in schema.items() if k != "anyOf"}, **others[0], "type": kind,
                        "nullable": True}
    kinds = schema.get("type")
    if isinstance(kinds, list) and len(kinds) == 2 and "null" in kinds and not _composes(schema):
        kind = next(k for k in kinds if k != "null")
        if kind in RENDERABLE:
            return {**schema, "type": kind, "nullable": True}
    return None


def _string_enum(values) -> bool:
    return isinstance(values, list) and bool(values) and all(isinstance(v, str) for v in values)


def widget(schema: dict) -> str:
    """The widget ``SchemaForm.renderField`` builds for one property."""
    field = collapse(schema) or schema
    kind = field.get("type")
    if kind == "string" and _string_enum(field.get("enum")):
        return "select"
    if kind in ("string", "number", "integer", "boolean") and not isinstance(field.get("enum"), list):
        return {"string": "text", "number": "number", "integer": "number", "boolean": "checkbox"}[kind]
    if kind == "array" and _string_enum((field.get("items") or {}).get("enum")):
        return "multi-select"
    if kind == "object" and "properties" in field:
        return "nested form"
    return FALLBACK


def values_a_widget_can_produce(schema: dict, samples: list) -> list:
    """What a person can make the widget send. A cleared text box sends "" and a cleared number box
    nothing, so only a nullable select (its clear button) sends null."""
    field = collapse(schema) or schema
    kind = widget(schema)
    if kind == "select":
        return list(field["enum"]) + ([None] if field.get("nullable") else [])
    if kind == "checkbox":
        return [True, False]
    if kind == "number":
        return [v for v in samples if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if kind == "text":
        return [v for v in samples if isinstance(v, str)]
    return []


# what a person would type into a text or number box
TYPED = ["4711", "10023", "10051", "Exposure 52,500 EUR is 5% over the 50,000 EUR limit and the customer pays on "
         "time", 1, 5, 20]


def _listing(set_name: str) -> list[dict]:
    async def body():
        with anyio.fail_after(60):
            async with Client(serve(tool_set(set_name)).server) as client:
                return [as_plain(t) for t in (await client.list_tools()).tools]
    return anyio.run(body)


def test_every_designed_field_gets_a_widget():
    for tool in _listing("designed"):
        for name, schema in tool["inputSchema"].get("properties", {}).items():
            assert widget(schema) != FALLBACK, f"{tool['name']}.{name}: {schema} has no widget in the Inspector's form"


def test_the_mirror_leaves_only_its_free_form_object_to_the_json_editor():
    """update_order's ``fields`` is an object with no named properties: typed JSON is its honest widget."""
    fallbacks = [(tool["name"], name) for tool in _listing("mirror")
                 for name, schema in tool["inputSchema"].get("properties", {}).items() if widget(schema) == FALLBACK]
    assert fallbacks == [("update_order", "fields")]


def test_every_designed_tool_can_be_called_from_the_form():
    """Some combination of values the widgets produce passes the tool's own input schema."""
    for tool in _listing("designed"):
        schema = tool["inputSchema"]
        validator = Draft202012Validator(schema)
        call = {}
        for name, field in schema["properties"].items():
            accepted = [v for v in values_a_widget_can_produce(field, TYPED)
                        if not list(Draft202012Validator(field).iter_errors(v))]
            assert accepted, f"{tool['name']}.{name}: no value the form can produce fits {field}"
            call[name] = accepted[0]
        assert not list(validator.iter_errors(call)), (tool["name"], call)


def test_a_nullable_field_collapses_to_its_own_type_with_its_constraints():
    limit = tool_set("designed")["sales_order_search"].parameters["properties"]["limit"]
    folded = collapse(limit)
    assert folded["type"] == "integer" and folded["nullable"] and folded["minimum"] == 1 and folded["maximum"] == 20
    assert widget(limit) == "number"


@pytest.mark.parametrize("shape", [
    {"type": ["string", "integer"]},  # two real types: no single widget
    {"type": ["string", "integer", "null"]},
    {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
    {"anyOf": [{"type": "integer"}, {"type": "null"}], "minimum": 1},  # a constraint on the wrapper
    {"type": ["string", "null"], "anyOf": [{"const": "a"}]},
    {"oneOf": [{"type": "string"}, {"type": "null"}]},
    {"type": "array", "items": {"type": "integer"}},
    {"enum": [1, 2]},
])
def test_shapes_the_builder_cannot_fill_are_recognised(shape):
    assert widget(shape) == FALLBACK


@pytest.mark.parametrize("shape, expected", [
    ({"type": ["string", "null"]}, "text"),
    ({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "description": "d"}, "number"),
    ({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]}, "select"),
    ({"type": ["boolean", "null"]}, "checkbox"),
    ({"type": "array", "items": {"enum": ["x", "y"]}}, "multi-select"),
])
def test_shapes_the_builder_fills(shape, expected):
    assert widget(shape) == expected


# ---------- the real Inspector, command-line mode ----------

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"  # the version whose command-line code was read


@cache
def _launcher() -> str:
    """The Inspector's own command (``mcp-inspector``), fetched by npx once for the whole module.

    npx costs nearly a second of processor time on each start even when the package is cached, so it
    runs once, to fetch the package and say where its command is; each call then starts that command,
    the same launcher ``npx @modelcontextprotocol/inspector`` starts.
    """
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("needs Node.js (npx) for the MCP Inspector")
    command = [npx, "-y", f"--package={INSPECTOR}", "--", "node", "-p", "process.env.PATH"]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.skip("the MCP Inspector package could not be fetched in time (npm registry unreachable?)")
    if done.returncode != 0 and ("npm ERR" in done.stderr or "ENOTFOUND" in done.stderr or "E404" in done.stderr):
        pytest.skip("the MCP Inspector package is not available from npm")
    assert done.returncode == 0, done.stderr[-800:]  # any other failure of npx is a failure, not a skip
    found = shutil.which("mcp-inspector", path=done.stdout.strip())
    assert found, f"npx fetched {INSPECTOR} but its PATH holds no mcp-inspector: {done.stdout.strip()[:300]}"
    return found


def _inspector(*args: str) -> subprocess.CompletedProcess:
    command = [_launcher(), "--cli", *args, "--", sys.executable, "-m", "tooldesign", "serve"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)


def _call(tool: str, arguments: dict) -> dict:
    done = _inspector("--method", "tools/call", "--tool-name", tool, "--tool-args-json", json.dumps(arguments))
    assert done.returncode == 0, done.stdout[-800:] + done.stderr[-800:]
    return json.loads(done.stdout[done.stdout.index("{"):])


def test_the_inspector_lists_the_tools_without_an_error_finding():
    done = _inspector("--method", "tools/list", "--strict")
    assert done.returncode == 0, done.stderr[-1500:]  # exit 6 would mean an error-severity schema problem
    listed = json.loads(done.stdout)
    assert [t["name"] for t in listed["tools"]] == tool_set("designed").names


@pytest.mark.parametrize("tool, arguments", [
    ("customer_get_credit_exposure", {"customer": "10023", "sales_order": None}),
    ("customer_get_credit_exposure", {"customer": "10023", "sales_order": "4711"}),
    ("sales_order_search", {"customer": "10023", "blocked_only": False, "limit": None}),
    ("sales_order_search", {"customer": "10023", "blocked_only": True, "limit": 3}),
    ("sales_order_get_block_summary", {"sales_order": "4711", "detail": "concise"}),
    ("customer_get_address_gaps", {"customer": "10051"}),
    ("release_request_create", {"sales_order": "4711", "justification": "Exposure 52,500 EUR is 5% over the "
                                "50,000 EUR limit and the customer has paid on time for years."}),
])
def test_the_inspector_calls_every_designed_tool(tool, arguments):
    result = _call(tool, arguments)
    assert result.get("isError") is not True, result
    assert isinstance(result["structuredContent"], dict)
