"""The revision the lessons teach is the one the pinned SDK speaks, and the server serves both eras.

* Lessons 14 and 15 must cite, in their prose, the newest revision the installed ``mcp`` SDK speaks
  (``mcp_types.version.LATEST_PROTOCOL_VERSION``): move the pin in requirements.txt to an SDK with a
  newer revision and this fails until the lessons are brought up to date.
* A 2026-07-28 client (no handshake, ``_meta`` on every request) and a 2025-11-25 client (the
  ``initialize`` handshake) both list and call the designed tools, over stdio and over HTTP.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import nbformat
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, LATEST_PROTOCOL_VERSION

from tooldesign.mcp import LISTING_CACHE, definition_of
from tooldesign.tools import tool_set

from mcp_http_server import serve_url

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 90  # seconds; only a hang reaches it
LESSONS = ("14_serving_tools_over_mcp", "15_trusting_mcp_servers")
PREVIOUS = "2025-11-25"  # the revision the lessons compare with


def _prose(name: str, folder: str = "solutions") -> str:
    notebook = nbformat.read(ROOT / folder / f"{name}.ipynb", as_version=4)
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def _pinned_sdk() -> str:
    pins = [line for line in (ROOT / "requirements.txt").read_text().splitlines() if line.startswith("mcp==")]
    assert len(pins) == 1, "requirements.txt must pin the mcp SDK exactly once (mcp==X.Y.Z)"
    return pins[0].split("==", 1)[1].strip()


def test_the_installed_sdk_is_the_pinned_one():
    from importlib.metadata import version
    assert version("mcp") == _pinned_sdk(), "reinstall: make setup (the .venv does not match requirements.txt)"


@pytest.mark.parametrize("name", LESSONS)
@pytest.mark.parametrize("folder", ["solutions", "notebooks"])
def test_the_lessons_cite_the_revision_the_pinned_sdk_speaks(name, folder):
    prose = _prose(name, folder)
    assert LATEST_PROTOCOL_VERSION in prose, (
        f"{folder}/{name}.ipynb does not cite revision {LATEST_PROTOCOL_VERSION}, the newest one the pinned "
        f"mcp {_pinned_sdk()} speaks: update the lesson's revision and its section on what changed")
    assert f"https://modelcontextprotocol.io/specification/{LATEST_PROTOCOL_VERSION}/" in prose


def test_the_mcp_serving_lesson_says_what_changed_since_the_previous_revision():
    prose = _prose(LESSONS[0])
    assert f"What changed since {PREVIOUS}" in prose
    assert PREVIOUS in HANDSHAKE_PROTOCOL_VERSIONS  # still served through the handshake (tests below)


# ---------- both eras, both transports ----------

async def _use(target, mode: str):
    with anyio.fail_after(TIMEOUT):
        async with Client(target, mode=mode) as client:
            listing = await client.list_tools()
            result = await client.call_tool("sales_order_search", {"customer": "10023", "blocked_only": True,
                                                                    "limit": None})
            try:
                await client.call_tool("sales_order_release", {"sales_order": "4711"})
                unknown = None
            except MCPError as error:
                unknown = error.error.code
            return client.protocol_version, listing, result, unknown


def _check(version, listing, result, unknown, expected):
    assert version == expected
    assert [definition_of(t) for t in listing.tools] == tool_set("designed").definitions()
    assert result.is_error is False and result.structured_content["total"] >= 1
    assert unknown == -32602


def _stdio():
    return StdioServerParameters(command=sys.executable, args=["-m", "tooldesign", "serve"], cwd=str(ROOT),
                                 env={**os.environ, "PYTHONUNBUFFERED": "1"})


@pytest.mark.parametrize("mode, expected", [("auto", LATEST_PROTOCOL_VERSION), ("legacy", LATEST_HANDSHAKE_VERSION)])
def test_stdio_serves_both_eras(mode, expected):
    _check(*anyio.run(_use, _stdio(), mode), expected)


@pytest.fixture(scope="module")
def http_url():
    yield from serve_url()


@pytest.mark.parametrize("mode, expected", [("auto", LATEST_PROTOCOL_VERSION), ("legacy", LATEST_HANDSHAKE_VERSION)])
def test_http_serves_both_eras(http_url, mode, expected):
    _check(*anyio.run(_use, http_url, mode), expected)


def _converse(turns: list[list[dict]]) -> dict:
    """Send each turn's lines to one stdio server and wait for one reply per turn, as a host does."""
    process = subprocess.Popen([sys.executable, "-m", "tooldesign", "serve"], cwd=ROOT, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    replies = {}
    try:
        for turn in turns:
            process.stdin.write("".join(json.dumps(line) + "\n" for line in turn))
            process.stdin.flush()
            reply = json.loads(process.stdout.readline())  # the server answers every request it is sent
            replies[reply["id"]] = reply
    finally:
        process.stdin.close()
        process.wait(timeout=TIMEOUT)
    return replies


def test_a_2025_11_25_client_asking_by_name_gets_that_revision_on_stdio():
    """The raw handshake, as an older host sends it: the server answers with the version asked for."""
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": PREVIOUS, "capabilities": {}, "clientInfo": {"name": "old-host", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    replies = _converse([[lines[0]], lines[1:]])
    assert replies[1]["result"]["protocolVersion"] == PREVIOUS
    assert len(replies[2]["result"]["tools"]) == len(tool_set("designed"))
    assert "ttlMs" not in replies[2]["result"]  # a 2026-07-28 field; the older revision has no cache hints


def test_a_2026_07_28_listing_carries_the_cache_hints():
    meta = {"io.modelcontextprotocol/protocolVersion": LATEST_PROTOCOL_VERSION,
            "io.modelcontextprotocol/clientCapabilities": {}}
    line = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
    done = subprocess.run([sys.executable, "-m", "tooldesign", "serve"], cwd=ROOT, timeout=TIMEOUT, capture_output=True,
                          input=json.dumps(line) + "\n", text=True)
    result = json.loads(done.stdout.splitlines()[0])["result"]
    assert result["ttlMs"] == LISTING_CACHE.ttl_ms and result["cacheScope"] == LISTING_CACHE.scope
    assert result["resultType"] == "complete" and "nextCursor" not in result
