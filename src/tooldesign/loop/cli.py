"""The lesson-16 tables, printed: ``tooldesign loop``, or ``python -m tooldesign.loop``.

Tokens per model call for each design, then tokens saved against facts lost per technique.
Token figures are estimates (characters / 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from tooldesign.cli import text_table
from tooldesign.command_line import run_report
from tooldesign.loop.facts import FACTS
from tooldesign.loop.measure import per_call, technique_rows
from tooldesign.tokens import ESTIMATE_RULE


def main(argv: Sequence[str] | None = None, prog: str = "python -m tooldesign.loop") -> int:
    """Print both tables; an argument, or missing data, ends in one line."""
    description = "The lesson-16 tables: tokens per model call, tokens saved against facts lost."
    return run_report(_report, argv, prog=prog, description=description)


def _report() -> None:
    print(f"1. The four-step task: what each model call sends (tokens are estimates: {ESTIMATE_RULE})\n")
    for run in per_call():
        print(text_table(run.rows()))
        print(f"   total over the task: {run.total_tokens:,} tokens\n")
    print("2. Carrying less of the mirrored results: tokens saved against facts lost\n")
    print(text_table(technique_rows()))
    print("\nFacts asked at the end: " + "; ".join(f"{f.id} = {f.question}" for f in FACTS))
