"""Run a served tool set over a real transport: stdio for a host that starts it, HTTP on 127.0.0.1.

stdio is what a desktop MCP host uses: it starts ``.venv/bin/tooldesign serve`` itself and talks over
the process's stdin and stdout, so nothing but protocol messages may be printed to stdout. HTTP
(MCP's Streamable HTTP transport, at ``/mcp``) binds to 127.0.0.1 only, so no other machine can reach
the server, and keeps the SDK's DNS-rebinding protection, which refuses requests for other hosts.
"""

from __future__ import annotations

import socket
import sys

import anyio

from tooldesign.mcp.server import ServedSet, serve
from tooldesign.tools import tool_set

__all__ = ["HOST", "PATH", "DEFAULT_PORT", "served_set", "run_stdio", "run_http", "check_port", "url"]

HOST = "127.0.0.1"
PATH = "/mcp"
DEFAULT_PORT = 8000


def served_set(set_name: str) -> ServedSet:
    """The server for a course tool set by name ("designed" or "mirror")."""
    return serve(tool_set(set_name))


def url(port: int) -> str:
    return f"http://{HOST}:{port}{PATH}"


def check_port(port: int) -> None:
    """Refuse a port that cannot be used, with the fix, before the server starts."""
    if not 1 <= port <= 65535:
        raise ValueError(f"--port must be from 1 to 65535, not {port}")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            raise ValueError(f"port {port} on {HOST} is in use; pick another with --port N") from None


async def _stdio(served: ServedSet) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await served.server.run(read_stream, write_stream, served.server.create_initialization_options())


def run_stdio(served: ServedSet) -> None:
    """Serve over stdin/stdout until the host closes stdin. Notes go to stderr, never stdout."""
    print(f"serving the {served.tools.name} set over stdio ({len(served.tools)} tools)", file=sys.stderr)
    anyio.run(_stdio, served)


def run_http(served: ServedSet, port: int = DEFAULT_PORT) -> None:
    """Serve over Streamable HTTP on 127.0.0.1 until interrupted (Ctrl+C)."""
    import uvicorn

    check_port(port)
    app = served.server.streamable_http_app(streamable_http_path=PATH, host=HOST)
    print(
        f"serving the {served.tools.name} set at {url(port)} ({len(served.tools)} tools); Ctrl+C stops it",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_level="warning")).run()
