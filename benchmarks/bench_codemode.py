"""What the code-mode machinery costs in time: the runner's line tracing, the catalog, the registry.

Run: python benchmarks/bench_codemode.py
Prints medians of repeated runs on this machine; the figures vary between machines, the ratios less.
"""
from __future__ import annotations

import statistics
import time
from typing import Callable

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import runs, sizelimit
from tooldesign.codemode.catalog import catalog_for
from tooldesign.codemode.runner import run_program


def median_ms(action: Callable[[], object], repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def plain_exec(program: str) -> None:
    """The same program with no checks, no tracing and no budget: the baseline."""
    exec(compile(program, "<plain>", "exec"), {"callTool": lambda code, args=None: cc.HANDLERS[code](args or {}),
                                                "print": lambda *a, **k: None})


def main() -> None:
    program = runs.recorded_program(with_label=False)
    cc.list_shipments({})  # warm the data caches so file reading is not timed
    cc.get_readings({"shipment_id": 101})
    cc.get_limits({})
    spin = "n = 0\nfor i in range(200000):\n    n += i"
    rows = [
        ("corrected program, plain exec (baseline)", median_ms(lambda: plain_exec(program))),
        ("corrected program, in the runner", median_ms(lambda: run_program(program, cc.HANDLERS))),
        ("200,000-step loop, plain exec", median_ms(lambda: plain_exec(spin), 5)),
        ("200,000-step loop, in the runner (traced)", median_ms(lambda: run_program(spin, cc.HANDLERS), 5)),
        ("registry with 12 tools, in memory", median_ms(lambda: sizelimit.demo_registry().close())),
    ]
    with sizelimit.demo_registry() as registry:
        rows.append(("catalog of 12 tools within 31,855 bytes", median_ms(lambda: catalog_for(registry, logger=None))))
    width = max(len(name) for name, _ in rows)
    for name, ms in rows:
        print(f"{name:<{width}}  {ms:8.2f} ms")
    print("\nLine tracing (the time limit) slows a tight loop several times over, and every result is"
          "\ncopied through JSON on its way to the program. Both stay in milliseconds, while one model"
          "\nround trip takes seconds.")


if __name__ == "__main__":
    main()
