"""A capture server on 127.0.0.1: what the official SDKs really send, and an example answer.

The notebook builds each request with the anthropic or openai client and points the client at
this server instead of the provider. The server keeps the exact JSON body it received and answers
with the next reply it was given: a documented-format EXAMPLE written for the lesson, never a
model's output. A request that breaks one of the documented constraints in ``refusals`` is answered
with HTTP 400 in the provider's error shape instead, so the SDK raises its ``BadRequestError`` as it
would against the service. Nothing leaves the machine and no key is needed.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

from tooldesign.wire.refusals import Refusal, error_body, refusal

_Server = TypeVar("_Server", bound="LoopbackServer")


class LoopbackServer:
    """An HTTP server on 127.0.0.1 at a free port, served from a thread while used as a context manager.

    The one home of that lifecycle: the capture server below and the tests' fake model servers are
    both one of these with a handler of their own (``_handler``).
    """

    def __init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        # serve_forever checks for shutdown every poll_interval: its default, half a second, was a
        # half-second wait at the end of every `with` (lesson 18 has five, the tests hundreds).
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self: _Server) -> _Server:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class CaptureServer(LoopbackServer):
    """Use as a context manager. ``replies`` are answered in order; ``captured`` holds (path, body).

    ``refused`` holds the requests answered with 400 (they use no reply); ``check=False`` turns the
    course's checks off, to show what a request looks like before a rule is applied.
    """

    def __init__(self, replies: Iterable[dict[str, Any]] = (), check: bool = True) -> None:
        self.replies = list(replies)
        self.check = check
        self.captured: list[tuple[str, dict[str, Any]]] = []
        self.refused: list[Refusal] = []
        self._lock = threading.Lock()
        super().__init__()

    def last(self) -> dict[str, Any]:
        """The body of the last request received."""
        return self.captured[-1][1]

    def _next(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.captured.append((path, body))
            refused = refusal(path, body) if self.check else None
            if refused is not None:
                self.refused.append(refused)
                return 400, error_body(refused)
            if not self.replies:
                return 500, {
                    "type": "error",
                    "error": {"type": "api_error", "message": "no example reply left"},
                }
            return 200, self.replies.pop(0)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # the notebook's output stays the lesson's
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                status, payload = server._next(self.path, body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def anthropic_client(server: CaptureServer) -> Any:
    """The official Anthropic client, pointed at the capture server (no key, no retries)."""
    import anthropic

    return anthropic.Anthropic(api_key="not-a-key", base_url=server.url, max_retries=0)


def openai_client(server: CaptureServer) -> Any:
    """The official OpenAI client, pointed at the capture server (no key, no retries)."""
    import openai

    return openai.OpenAI(api_key="not-a-key", base_url=server.url + "/v1", max_retries=0)
