"""``python -m tooldesign serve`` answers a real mcp client over stdio and over HTTP on 127.0.0.1.

Each test starts the server itself and stops it; every wait is bounded, and the bounds are far beyond
what a working server needs, so only a hang can reach them.
"""
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import anyio
import urllib.error
import urllib.request
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tooldesign.mcp import definition_of
from tooldesign.tools import tool_set

from mcp_http_server import serve_over_http

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 90  # seconds, for start-up plus the round trip on a busy machine


async def _round_trip(target):
    with anyio.fail_after(TIMEOUT):
        async with Client(target) as client:
            listing = await client.list_tools()
            ok = await client.call_tool("sales_order_get_block_summary", {"sales_order": "4711", "detail": "concise"})
            error = await client.call_tool("sales_order_get_block_summary", {"sales_order": "SO-4711",
                                                                             "detail": "concise"})
            try:
                await client.call_tool("no_such_tool", {})
                unknown = None
            except MCPError as raised:
                unknown = raised.error.code
            return listing, ok, error, unknown


def _assert_round_trip(listing, ok, error, unknown):
    assert [definition_of(t) for t in listing.tools] == tool_set("designed").definitions()
    assert ok.is_error is False and ok.structured_content["block_reason"] == "Blocked by the credit check."
    assert json.loads(ok.content[0].text) == ok.structured_content
    assert error.is_error is True and "digits only" in error.content[0].text
    assert unknown == -32602


def test_stdio_round_trip_with_a_subprocess():
    params = StdioServerParameters(command=sys.executable, args=["-m", "tooldesign", "serve", "--set", "designed"],
                                   cwd=str(ROOT), env={**os.environ, "PYTHONUNBUFFERED": "1"})
    _assert_round_trip(*anyio.run(_round_trip, params))


@pytest.fixture(scope="module")
def http_server():
    """One server for the tests that only talk to it; each start costs seconds on a busy machine."""
    yield from serve_over_http()


@pytest.fixture
def own_http_server():
    """A server of the test's own, for a test that stops it."""
    yield from serve_over_http()


def test_http_round_trip_on_localhost(http_server):
    port, _ = http_server
    _assert_round_trip(*anyio.run(_round_trip, f"http://127.0.0.1:{port}/mcp"))


def test_http_answers_a_malformed_request_with_a_json_rpc_error(http_server):
    """Over the wire as in memory: arguments that are not an object get -32602, and the server lives on."""
    port, process = http_server

    async def body():
        from tooldesign.mcp import send_raw
        with anyio.fail_after(TIMEOUT):
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await client.list_tools()
                with pytest.raises(MCPError) as raised:
                    await send_raw(client, "tools/call", {"name": "sales_order_search", "arguments": ["10023"]})
                after = await client.call_tool("customer_get_address_gaps", {"customer": "10051"})
                return raised.value.error.code, after
    code, after = anyio.run(body)
    assert code == -32602 and after.is_error is False and process.poll() is None


def test_the_mirror_is_served_over_stdio_too():
    async def body():
        params = StdioServerParameters(command=sys.executable, args=["-m", "tooldesign", "serve", "--set", "mirror"],
                                       cwd=str(ROOT))
        with anyio.fail_after(TIMEOUT):
            async with Client(params) as client:
                listing = await client.list_tools()
                bare = await client.call_tool("get_order", {"id": "SO-4711"})
                return listing, bare
    listing, bare = anyio.run(body)
    assert [definition_of(t) for t in listing.tools] == tool_set("mirror").definitions()
    assert bare.is_error and bare.content[0].text == "400 Bad Request"


def test_http_refuses_a_request_for_another_host(http_server):
    """DNS-rebinding protection: a page on another site cannot reach the local server through its name."""
    port, _ = http_server
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp", method="POST",
        data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
        headers={"Host": "evil.example", "Content-Type": "application/json",
                 "Accept": "application/json, text/event-stream"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=TIMEOUT)
    assert refused.value.code in (400, 403, 421)


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGINT for a child process on Windows")
def test_http_stops_cleanly_on_ctrl_c(own_http_server):
    port, process = own_http_server
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=TIMEOUT) == 0
    assert "server stopped" in process.stderr.read()


def test_the_http_server_binds_localhost_only():
    from tooldesign.mcp import run
    assert run.HOST == "127.0.0.1" and run.url(8123) == "http://127.0.0.1:8123/mcp"


@pytest.mark.parametrize("argv, says", [
    (["serve", "--port", "9000"], "--port only applies"),
    (["serve", "--transport", "http", "--port", "70000"], "from 1 to 65535"),
    (["serve", "--transport", "http", "--host", "0.0.0.0"], "unrecognized arguments"),  # 127.0.0.1 only
    (["serve", "--set", "both"], "invalid choice"),
])
def test_bad_serve_options_end_in_one_line(argv, says, capsys):
    from tooldesign.cli import main
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    err = capsys.readouterr().err
    assert code != 0 and says in err and len(err.strip().splitlines()) == 1, err


def test_a_port_in_use_is_refused_with_the_fix(capsys):
    from tooldesign.cli import main
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code = main(["serve", "--transport", "http", "--port", str(taken.getsockname()[1])])
    err = capsys.readouterr().err
    assert code == 1 and "in use" in err and "--port" in err


def test_the_guides_host_configuration_starts_a_working_server():
    """The JSON a learner pastes into a host (docs/mcp-server.md), with this folder's path filled in, serves the designed set."""
    readme = (ROOT / "docs" / "mcp-server.md").read_text(encoding="utf-8")
    section = readme.split("## Serve the tools over MCP", 1)[1]
    config = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    entry = config["mcpServers"]["tooldesign"]
    command = entry["command"].replace("/path/to/this/folder", str(ROOT))
    assert Path(command).exists(), command
    params = StdioServerParameters(command=command, args=entry["args"], cwd=str(ROOT))
    _assert_round_trip(*anyio.run(_round_trip, params))


def test_the_stdio_server_writes_nothing_but_protocol_to_stdout():
    """A host parses stdout as JSON-RPC; one stray print would break the connection."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}
    done = subprocess.run([sys.executable, "-m", "tooldesign", "serve"], cwd=ROOT, input=json.dumps(request) + "\n",
                          capture_output=True, text=True, timeout=TIMEOUT)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert lines and all(json.loads(line)["jsonrpc"] == "2.0" for line in lines)
    assert json.loads(lines[0])["result"]["serverInfo"]["name"] == "tooldesign-designed"
    assert "serving the designed set over stdio" in done.stderr
