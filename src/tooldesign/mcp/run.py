"""Run a served tool set over a real transport: stdio for a host that starts it, HTTP on 127.0.0.1.

stdio is what a desktop MCP host uses: it starts ``.venv/bin/tooldesign serve`` itself and talks over
the process's stdin and stdout, so nothing but protocol messages may be printed to stdout. HTTP
(MCP's Streamable HTTP transport, at ``/mcp``) binds to 127.0.0.1 only, so no other machine can reach
the server, and keeps the SDK's DNS-rebinding protection, which refuses requests for other hosts.

On both transports every incoming message passes ``tooldesign.mcp.wire.judge`` first, so a malformed
one gets the JSON-RPC error the specification names instead of silence: on stdio through
``GuardedLines`` (the SDK's stdio transport drops what it cannot parse), on HTTP through ``WireGuard``
(an ASGI layer in front of the SDK's app). Both transports serve clients of either era: a request
carrying the 2026-07-28 ``_meta`` is served on its own, an ``initialize`` starts a 2025-11-25 session.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any, BinaryIO

import anyio
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, JSONRPCError

from tooldesign.mcp.server import ServedSet, serve
from tooldesign.mcp.wire import MAX_MESSAGE_BYTES, Kind, WireVerdict, error_reply, judge, too_large
from tooldesign.tools import tool_set

__all__ = [
    "HOST",
    "PATH",
    "DEFAULT_PORT",
    "SECURITY",
    "GuardedLines",
    "WireGuard",
    "served_set",
    "http_app",
    "run_stdio",
    "run_http",
    "check_port",
    "url",
]

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


# The SDK's own defaults for a server on 127.0.0.1, stated once so WireGuard checks the same hosts first.
SECURITY = TransportSecuritySettings(
    enable_dns_rebinding_protection=True,
    allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
    allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
)


def _note(verdict: WireVerdict) -> None:
    print(f"refused a message: {verdict.reason}", file=sys.stderr, flush=True)


class GuardedLines:
    """stdin for the SDK's stdio transport: it yields only the lines ``judge`` passes and answers the rest.

    The replies go into the transport's own write stream, so they leave through the same writer as
    every other message and never tear a line. ``answer_through`` hands that stream over once the
    transport exists; reading waits for it.
    """

    def __init__(self, source: BinaryIO):
        self._source = source
        self._replies: Any = None
        self._ready = anyio.Event()

    def answer_through(self, write_stream: Any) -> None:
        self._replies = write_stream
        self._ready.set()

    async def _readline(self, limit: int) -> bytes:
        return await anyio.to_thread.run_sync(self._source.readline, limit, abandon_on_cancel=True)

    async def _next_verdict(self) -> tuple[bytes, WireVerdict] | None:
        line = await self._readline(MAX_MESSAGE_BYTES + 1)
        if not line:
            return None
        if len(line) > MAX_MESSAGE_BYTES and not line.endswith(b"\n"):
            while (rest := await self._readline(MAX_MESSAGE_BYTES)) and not rest.endswith(b"\n"):
                pass  # skip the rest of the oversized line: the next line is the next message
            return line, too_large()
        raw = line[:-1] if line.endswith(b"\n") else line
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        return raw, judge(raw)

    async def __aiter__(self):
        await self._ready.wait()
        while (read := await self._next_verdict()) is not None:
            raw, verdict = read
            if verdict.passes:
                yield raw
                continue
            _note(verdict)
            if verdict.kind is Kind.REFUSED:  # a dropped notification is never answered
                await self._replies.send(SessionMessage(JSONRPCError.model_validate(verdict.reply)))


async def _stdio(served: ServedSet) -> None:
    from mcp.server.stdio import stdio_server

    lines = GuardedLines(sys.stdin.buffer)
    async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
        lines.answer_through(write_stream)
        await served.server.run(read_stream, write_stream, served.server.create_initialization_options())


class WireGuard:
    """ASGI layer in front of the SDK's HTTP app: every POST body to ``path`` is judged before the SDK.

    A request for another host or origin goes straight to the SDK, which refuses it as before (the
    DNS-rebinding check comes first). A body that is not JSON (wrong Content-Type), too large, or
    refused by ``judge`` gets its JSON-RPC error with an HTTP status; anything else reaches the SDK
    unchanged.
    """

    def __init__(self, app: Any, path: str = PATH, security: TransportSecuritySettings = SECURITY):
        self.app = app
        self.path = path
        self._hosts = TransportSecurityMiddleware(security)

    async def _answer(self, send: Any, status: int, reply: dict[str, Any]) -> None:
        body = json.dumps(reply).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _body(self, receive: Any) -> bytes | None:
        """The whole body, or None once it passes the limit."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_MESSAGE_BYTES:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        from starlette.requests import Request

        request = Request(scope)
        if await self._hosts.validate_request(request, is_post=False) is not None:
            await self.app(scope, receive, send)
            return
        content_type = request.headers.get("content-type", "")
        if not content_type.lower().startswith("application/json"):
            message = f"Content-Type must be application/json, not {content_type or 'none'}."
            await self._answer(send, 415, error_reply(INVALID_REQUEST, message))
            return
        body = await self._body(receive)
        verdict = too_large() if body is None else judge(body)
        if not verdict.passes:
            assert verdict.reply is not None
            status = 413 if body is None else ERROR_CODE_HTTP_STATUS.get(verdict.reply["error"]["code"], 400)
            await self._answer(send, status, verdict.reply)
            return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def http_app(served: ServedSet) -> Any:
    """The server's ASGI app: the SDK's Streamable HTTP app at ``/mcp``, behind ``WireGuard``."""
    app = served.server.streamable_http_app(streamable_http_path=PATH, host=HOST, transport_security=SECURITY)
    return WireGuard(app)


def run_stdio(served: ServedSet) -> None:
    """Serve over stdin/stdout until the host closes stdin. Notes go to stderr, never stdout."""
    print(f"serving the {served.tools.name} set over stdio ({len(served.tools)} tools)", file=sys.stderr)
    anyio.run(_stdio, served)


def run_http(served: ServedSet, port: int = DEFAULT_PORT) -> None:
    """Serve over Streamable HTTP on 127.0.0.1 until interrupted (Ctrl+C)."""
    import uvicorn

    check_port(port)
    app = http_app(served)
    print(
        f"serving the {served.tools.name} set at {url(port)} ({len(served.tools)} tools); Ctrl+C stops it",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_level="warning")).run()
