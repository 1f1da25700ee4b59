"""The course's MCP server as a subprocess on 127.0.0.1, for the tests that talk HTTP to it."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 90  # seconds; only a hang reaches it


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited early: {process.stderr.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listened on 127.0.0.1:{port} within {TIMEOUT} s")


def serve_over_http() -> Iterator[tuple[int, subprocess.Popen]]:
    """Start ``tooldesign serve --transport http``; yield its port and process; stop it as Ctrl+C would."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tooldesign", "serve", "--transport", "http", "--port",
                                str(port)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_port(port, process)
        yield port, process
    finally:
        if process.poll() is None:
            # Ctrl+C where the platform has it; Windows has no SIGINT for a child process
            process.terminate() if sys.platform == "win32" else process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=TIMEOUT)


def serve_url() -> Iterator[str]:
    """The server's MCP endpoint, for a module-scoped fixture."""
    for port, _ in serve_over_http():
        yield f"http://127.0.0.1:{port}/mcp"
