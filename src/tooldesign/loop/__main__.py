"""``python -m tooldesign.loop``: the lesson-12 tables, printed.

Tokens per model call for each design, then tokens saved against facts lost per technique.
Token figures are estimates (characters / 4).
"""

from __future__ import annotations

import sys

from tooldesign.cli import text_table
from tooldesign.loop.facts import FACTS
from tooldesign.loop.measure import per_call, technique_rows
from tooldesign.tokens import ESTIMATE_RULE


def main(argv: list[str] | None = None) -> int:
    if argv:
        print("error: python -m tooldesign.loop takes no arguments", file=sys.stderr)
        return 2
    print(f"1. The four-step task: what each model call sends (tokens are estimates: {ESTIMATE_RULE})\n")
    for run in per_call():
        print(text_table(run.rows()))
        print(f"   total over the task: {run.total_tokens:,} tokens\n")
    print("2. Carrying less of the mirrored results: tokens saved against facts lost\n")
    print(text_table(technique_rows()))
    print("\nFacts asked at the end: " + "; ".join(f"{f.id} = {f.question}" for f in FACTS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
