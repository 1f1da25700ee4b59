"""Time the sweep of the four definition levels: 500 seeds x 4 levels.

Run: .venv/bin/python benchmarks/bench_levels.py [n_seeds]
Target: under 10 s on a 2-core laptop. Prints the time and the verdict.
"""

from __future__ import annotations

import sys
import time

from tooldesign.levels import sweep


def main(n_seeds: int = 500) -> float:
    start, cpu = time.perf_counter(), time.process_time()
    result = sweep(n_seeds, progress=False)
    seconds = time.perf_counter() - start
    # CPU time too: on a shared machine the wall clock also counts other work
    print(f"sweep: {n_seeds} seeds x {len(result.levels)} levels in {seconds:.2f} s "
          f"(CPU {time.process_time() - cpu:.2f} s)")
    print(result.compare(3, 4))
    return seconds


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
