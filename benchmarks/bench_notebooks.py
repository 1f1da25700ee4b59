"""Seconds to execute each solution notebook with nbclient, beside a bare kernel's start-up.

Run: .venv/bin/python benchmarks/bench_notebooks.py [NN ...]     (or `make bench`)
The course's target is under 10 s per notebook on a 2-core machine. This prints figures; it
asserts nothing, so a slow machine never fails a test.
"""
from __future__ import annotations

import statistics
import sys
import time

import nbformat

from workbook import SOLUTIONS_DIR
from workbook.execute import run_notebook
from workbook.release import read_notebook, resolve

REPEATS = 2
KERNEL_REPEATS = 5  # the floor is short and noisy: take more samples


def bare_kernel_seconds() -> float:
    """Start a kernel, run one empty cell, shut it down: the floor under every notebook."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("pass")])
    start = time.perf_counter()
    run_notebook(notebook, SOLUTIONS_DIR)
    return time.perf_counter() - start


def notebook_seconds(path) -> float:
    start = time.perf_counter()
    run_notebook(read_notebook(path), path.parent, timeout=600)
    return time.perf_counter() - start


def main(names: list[str]) -> None:
    paths = [resolve(n) for n in names] or sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))
    kernel = statistics.median(bare_kernel_seconds() for _ in range(KERNEL_REPEATS))
    print(f"{'notebook':<30} {'seconds':>8} {'minus kernel':>13}   (median of {REPEATS})")
    print(f"{'bare kernel start-up':<30} {kernel:>8.2f}               (median of {KERNEL_REPEATS})")
    for path in paths:
        seconds = statistics.median(notebook_seconds(path) for _ in range(REPEATS))
        flag = "" if seconds < 10 else "  over the 10 s target"
        print(f"{path.stem:<30} {seconds:>8.2f} {seconds - kernel:>13.2f}{flag}")


if __name__ == "__main__":
    main(sys.argv[1:])
