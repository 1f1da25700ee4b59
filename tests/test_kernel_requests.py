"""The pinned kernel answers requests that arrive while it is sending replies.

Run All in JupyterLab sends one execute request per cell, one after another, while the kernel is
already answering the first ones. Under ipykernel 7.2 a request that arrived while a reply was
being sent could sit unread on the shell socket (ipykernel PR #1529): the kernel stayed idle, every
cell stayed queued, and the notebook never ran. This sends requests the same way, straight to a
kernel of the course's environment, and requires every reply. With ipykernel 7.2 installed, 2 of
these 4 trials failed (and 44 of 60 in a longer run of the same kind); with 7.4, none of either.
benchmarks/bench_kernel_requests.py counts the same thing over more trials.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from jupyter_client import KernelManager

TRIALS = 4
REQUESTS = 30
GAPS_S = (0.0, 0.0005, 0.001, 0.002, 0.003)  # between requests: some arrive while a reply goes out
REPLY_BOUND_S = 60  # only a stuck kernel reaches it


@contextmanager
def started_kernel() -> Iterator:
    """A client of a fresh kernel of this environment's Python, ready; stopped afterwards."""
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(stderr=subprocess.DEVNULL)  # ipykernel's start-up warnings are not the subject
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=REPLY_BOUND_S)
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def requests_left_unanswered(client, trial: int) -> tuple[int, int]:
    """Send the Run All pattern once; (requests with no reply within the bound, requests sent)."""
    waiting = set()
    for number in range(REQUESTS):
        waiting.add(client.execute(f"cell_{number} = {number}"))
        if number % 10 == 9:
            waiting.add(client.kernel_info())
        time.sleep(GAPS_S[(number + trial) % len(GAPS_S)])
    sent = len(waiting)
    deadline = time.monotonic() + REPLY_BOUND_S
    while waiting and time.monotonic() < deadline:
        try:
            reply = client.get_shell_msg(timeout=1)
        except Exception:  # queue.Empty: nothing yet
            continue
        waiting.discard(reply["parent_header"].get("msg_id"))
    return len(waiting), sent


@pytest.mark.parametrize("trial", range(TRIALS))
def test_every_request_sent_during_replies_is_answered(trial):
    with started_kernel() as client:
        missing, sent = requests_left_unanswered(client, trial)
    assert not missing, (
        f"{missing} of {sent} requests got no reply within {REPLY_BOUND_S} s: the kernel left them "
        "unread (the shell-socket wedge of ipykernel 7.2; requirements.txt pins a version with the fix)"
    )
