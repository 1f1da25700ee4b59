"""How often the installed kernel leaves a request unanswered when requests arrive while it replies.

Run: .venv/bin/python benchmarks/bench_kernel_requests.py [trials]
Each trial starts a kernel of this environment, sends 30 execute requests (and a kernel_info request
after every tenth) 0 to 3 ms apart, the way JupyterLab's Run All sends one request per cell, and waits
up to 60 s for every reply. Prints the ipykernel version, the trials with a reply missing, and the
median time from the first request to the last reply. tests/test_kernel_requests.py is the same
pattern as a test; ipykernel 7.2 wedged in most trials here, 7.4 (pinned) in none.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import ipykernel
from jupyter_client import KernelManager

REQUESTS = 30
GAPS_S = (0.0, 0.0005, 0.001, 0.002, 0.003)
REPLY_BOUND_S = 60


def trial(number: int) -> tuple[bool, float]:
    """(every reply came, seconds from the first request to the last reply)."""
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(stderr=subprocess.DEVNULL)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=REPLY_BOUND_S)
        started, waiting = time.perf_counter(), set()
        for index in range(REQUESTS):
            waiting.add(client.execute(f"cell_{index} = {index}"))
            if index % 10 == 9:
                waiting.add(client.kernel_info())
            time.sleep(GAPS_S[(index + number) % len(GAPS_S)])
        deadline = time.monotonic() + REPLY_BOUND_S
        while waiting and time.monotonic() < deadline:
            try:
                waiting.discard(client.get_shell_msg(timeout=1)["parent_header"].get("msg_id"))
            except Exception:  # queue.Empty: nothing yet
                continue
        return not waiting, time.perf_counter() - started
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    results = [trial(number) for number in range(trials)]
    answered = [seconds for complete, seconds in results if complete]
    print(f"ipykernel {ipykernel.__version__}: {trials - len(answered)} of {trials} trials left a request unanswered")
    if answered:
        print(f"median, first request to last reply (trials that completed): {statistics.median(answered) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
