"""What serving the tools over MCP costs: definition size, per-call latency, and import time.

Run: .venv/bin/python benchmarks/bench_mcp.py [calls]
Prints, for the designed and mirrored sets, the definitions' tokens (estimate: characters / 4) sent
directly beside the served listing; then the per-call latency of one tools/call in memory, over stdio
(a subprocess) and over HTTP on 127.0.0.1; then how long `import tooldesign` and `import tooldesign.mcp`
take in a fresh interpreter. Figures depend on the machine; no test reads them.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tooldesign.mcp import serve, size_table, sizes
from tooldesign.tokens import ESTIMATE_LABEL
from tooldesign.tools import tool_set

ROOT = Path(__file__).resolve().parents[1]
CALL = ("sales_order_get_block_summary", {"sales_order": "4711", "detail": "concise"})


async def _listing(set_name):
    async with Client(serve(tool_set(set_name)).server) as client:
        return await client.list_tools()


async def _latencies(target, calls: int) -> list[float]:
    async with Client(target) as client:
        await client.list_tools()
        await client.call_tool(*CALL)  # warm up
        out = []
        for _ in range(calls):
            start = time.perf_counter()
            result = await client.call_tool(*CALL)
            out.append((time.perf_counter() - start) * 1000)
            assert not result.is_error
        return out


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _http(calls: int) -> list[float]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tooldesign", "serve", "--transport", "http", "--port", str(port)],
        cwd=ROOT,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        return anyio.run(_latencies, f"http://127.0.0.1:{port}/mcp", calls)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)


def _import_ms(module: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True, cwd=ROOT)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _line(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"  {label:<10} median {statistics.median(values):7.2f} ms   p90 {p90:7.2f} ms   ({len(values)} calls)"


def main(calls: int = 200) -> None:
    print(f"Definition size (tokens, {ESTIMATE_LABEL})")
    rows = [sizes(tool_set(name), anyio.run(_listing, name)) for name in ("mirror", "designed")]
    for row in size_table(rows):
        print("  " + "   ".join(f"{k}: {v}" for k, v in row.items()))
    print(f"\nPer-call latency of {CALL[0]}")
    print(_line("in memory", anyio.run(_latencies, serve(tool_set("designed")).server, calls)))
    stdio = StdioServerParameters(
        command=sys.executable, args=["-m", "tooldesign", "serve"], cwd=str(ROOT), env=dict(os.environ)
    )
    with open(os.devnull, "w") as quiet:  # the server's start-up note goes to stderr; keep the table clean
        print(_line("stdio", anyio.run(_latencies, stdio_client(stdio, errlog=quiet), calls)))
    print(_line("HTTP", _http(calls)))
    print("\nImport time in a fresh interpreter (median of 5, including interpreter start)")
    for module in ("tooldesign", "tooldesign.cli", "tooldesign.tools.designed", "mcp", "tooldesign.mcp"):
        print(f"  import {module:<26} {_import_ms(module):7.0f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
