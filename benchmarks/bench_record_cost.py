"""What one `tooldesign record` costs: model calls and input tokens, measured against a scripted server.

The record command is run once (``--repeat 1``) against the tests' fake model server on 127.0.0.1,
so no model is asked and nothing is paid. The server answers with scripted picks; what this script
counts is what the command *sends*: how many requests, and their size by the course's estimate
(characters / 4 of the request body). Those sizes times the dated input prices in
``tooldesign.loop.caching.PRICES`` give the input cost of a record with a key. Output tokens are
left out (the course's price table holds input prices only) and a real model's answers may lead
the capstone loop to more or fewer calls than the scripted one (the clerk tasks to at most
``tooldesign.record.TASK_CALLS_AT_MOST`` per repeat, their step budget times their runs).

Each request is also put down to the part of the record that sent it, read from the request itself:
the loop's runs carry the loop's own system prompt, and a clerk task's run starts with that task's
request. So the clerk tasks' share (``tooldesign.record.RECORD_COST.task_calls`` and
``task_input_tokens``) is counted, not guessed.

    .venv/bin/python benchmarks/bench_record_cost.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_model_server import FakeModelServer  # noqa: E402

from tooldesign.capstone.agent import SYSTEM_PROMPT as LOOP_PROMPT  # noqa: E402
from tooldesign.capstone.tasks import TASKS  # noqa: E402
from tooldesign.cli import main  # noqa: E402
from tooldesign.loop.caching import price_of  # noqa: E402
from tooldesign.selection import config  # noqa: E402
from tooldesign.tokens import estimate_tokens  # noqa: E402

TASK_REQUESTS = {task.request for task in TASKS}


def _chooser(request, names):
    return names[len(str(request)) % len(names)]


def is_clerk_task(body: dict) -> bool:
    """A request of a clerk task's run: the loop's system prompt, and a task's request first."""
    messages = body.get("messages") or []
    first = messages[0]["content"] if messages else None
    return body.get("system") == LOOP_PROMPT and first in TASK_REQUESTS


def bodies(model: str = "claude-haiku-5-5") -> list[dict]:
    """Every request body one `record --repeat 1` sends, in order."""
    with FakeModelServer(_chooser) as server, tempfile.TemporaryDirectory() as out:
        os.environ[config.KEY_ENV["anthropic"]] = "measuring-only"
        os.environ[config.BASE_URL_ENV["anthropic"]] = server.url
        code = main(["record", "--provider", "anthropic", "--model", model, "--repeat", "1", "--out", out])
        if code != 0:
            raise SystemExit(f"record failed with exit code {code}")
        return [r["body"] for r in server.requests if r["body"] is not None]


def measure_parts(model: str = "claude-haiku-5-5") -> dict[str, tuple[int, int]]:
    """(requests, input tokens by the estimate) for one `record --repeat 1`: "all", and "clerk tasks"."""
    sent = bodies(model)
    tasks = [b for b in sent if is_clerk_task(b)]
    return {
        "all": (len(sent), sum(estimate_tokens(b) for b in sent)),
        "clerk tasks": (len(tasks), sum(estimate_tokens(b) for b in tasks)),
    }


def measure(model: str = "claude-haiku-5-5") -> tuple[int, int]:
    """(requests sent, input tokens by the estimate) for one `record --repeat 1`."""
    return measure_parts(model)["all"]


if __name__ == "__main__":
    model = "claude-haiku-5-5"
    parts = measure_parts(model)
    price = price_of(model)
    for name, (calls, tokens) in parts.items():
        print(
            f"{name:<12} one record (--repeat 1): {calls:,} model calls, {tokens:,} input tokens "
            f"(estimate: characters / 4); input cost at {model}'s ${price.input:.2f} per million input "
            f"tokens (read {price.read_on}): ${tokens * price.input / 1e6:.4f}"
        )
