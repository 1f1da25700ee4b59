"""How often the installed kernel leaves a request unanswered when requests arrive while it replies.

Run: .venv/bin/python benchmarks/bench_kernel_requests.py [trials]
Each trial starts a kernel of this environment and sends the pattern of tests/test_kernel_requests.py
(30 execute requests 0 to 3 ms apart, as JupyterLab's Run All sends one per cell, and a kernel_info
request after every tenth), waiting up to 60 s for every reply. Prints the ipykernel version, the
trials with a reply missing, and the median time from the first request to the last reply.
ipykernel 7.2 wedged in most trials here, 7.4 (pinned) in none.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import ipykernel

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_kernel_requests import requests_left_unanswered, started_kernel  # noqa: E402


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    wedged, seconds = 0, []
    for trial in range(trials):
        with started_kernel() as client:
            began = time.perf_counter()
            missing, _ = requests_left_unanswered(client, trial)
            if missing:
                wedged += 1
            else:
                seconds.append(time.perf_counter() - began)
    print(f"ipykernel {ipykernel.__version__}: {wedged} of {trials} trials left a request unanswered")
    if seconds:
        print(f"median, first request to last reply (trials that completed): {statistics.median(seconds) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
