"""How long one description-workbench update takes: lint the set and re-score the selection test.

The workbench redraws on every keystroke, so an update must stay well under 50 ms to feel live.
Run: python benchmarks/bench_workbench.py
"""
from __future__ import annotations

import statistics
import time

from tooldesign.lint.widgets import workbench_update
from tooldesign.selection import BM25Picker, WordMatchPicker
from tooldesign.tools import tool_set

TARGET_MS = 50.0
ROUNDS = 200


def measure(picker, tools, tool_name: str, base: str) -> list[float]:
    """Milliseconds per update, each with a different description (as typing would produce)."""
    times = []
    for i in range(ROUNDS):
        text = base[: len(base) - (i % 40)]  # a description being edited, one character at a time
        start = time.perf_counter()
        workbench_update(tools, tool_name, text, picker)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    tools = tool_set("designed")
    name = "sales_order_get_block_summary"
    print(f"One workbench update = lint {len(tools)} tools + selection test, {ROUNDS} edits each")
    for picker in (WordMatchPicker(), BM25Picker()):
        times = measure(picker, tools, name, tools[name].description)
        median, p95 = statistics.median(times), sorted(times)[int(0.95 * len(times))]
        verdict = "under" if p95 < TARGET_MS else "OVER"
        print(f"  {picker.label:<45} median {median:6.2f} ms, 95th percentile {p95:6.2f} ms "
              f"({verdict} the {TARGET_MS:.0f} ms target)")


if __name__ == "__main__":
    main()
