"""What one `tooldesign record` costs: model calls and input tokens, measured against a scripted server.

The record command is run once (``--repeat 1``) against the tests' fake model server on 127.0.0.1,
so no model is asked and nothing is paid. The server answers with scripted picks; what this script
counts is what the command *sends*: how many requests, and their size by the course's estimate
(characters / 4 of the request body). Those sizes times the dated input prices in
``tooldesign.loop.caching.PRICES`` give the input cost of a record with a key. Output tokens are
left out (the course's price table holds input prices only) and a real model's answers may lead
the capstone loop to more or fewer calls than the scripted one.

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

from tooldesign.cli import main  # noqa: E402
from tooldesign.loop.caching import price_of  # noqa: E402
from tooldesign.selection import config  # noqa: E402
from tooldesign.tokens import estimate_tokens  # noqa: E402


def _chooser(request, names):
    return names[len(str(request)) % len(names)]


def measure(model: str = "claude-haiku-5-5") -> tuple[int, int]:
    """(requests sent, input tokens by the estimate) for one `record --repeat 1`."""
    with FakeModelServer(_chooser) as server, tempfile.TemporaryDirectory() as out:
        os.environ[config.KEY_ENV["anthropic"]] = "measuring-only"
        os.environ[config.BASE_URL_ENV["anthropic"]] = server.url
        code = main(["record", "--provider", "anthropic", "--model", model, "--repeat", "1", "--out", out])
        if code != 0:
            raise SystemExit(f"record failed with exit code {code}")
        bodies = [r["body"] for r in server.requests if r["body"] is not None]
    return len(bodies), sum(estimate_tokens(b) for b in bodies)


if __name__ == "__main__":
    model = "claude-haiku-5-5"
    calls, tokens = measure(model)
    price = price_of(model)
    print(
        f"one record (--repeat 1): {calls:,} model calls, {tokens:,} input tokens (estimate: characters / 4)"
    )
    print(
        f"input cost at {model}'s ${price.input:.2f} per million input tokens (read {price.read_on}): "
        f"${tokens * price.input / 1e6:.4f}"
    )
