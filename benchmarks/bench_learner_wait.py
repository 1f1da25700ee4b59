"""How long a learner waits on the course's own machinery, per lesson: Run All and `make check`.

Run: .venv/bin/python benchmarks/bench_learner_wait.py [NN ...] [--repeats N]     (or `make bench`)

* Run All: the learner copy (notebooks/NN_*.ipynb) executed with nbclient from a fresh kernel, as
  JupyterLab's "Restart Kernel and Run All Cells" does: kernel start included.
* check: the command itself, ``make check NB=NN``, timed from outside (make, the pin check of
  ``setup``, the notebook's run and the verdicts). Its output is discarded.

The target is 5 s for each on a 2-core machine. This prints figures and the machine's load; it
asserts nothing, so a slow or busy machine never fails a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

from workbook import NOTEBOOKS_DIR, REPO_ROOT
from workbook.execute import run_notebook
from workbook.release import read_notebook

TARGET = 5.0


def run_all_seconds(path: Path) -> float:
    notebook = read_notebook(path)
    start = time.perf_counter()
    run_notebook(notebook, path.parent, timeout=600, allow_errors=True)
    return time.perf_counter() - start


def check_seconds(number: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        ["make", "--no-print-directory", "check", f"NB={number}"],
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,  # a learner copy's unanswered exercises make check report "not done": still a wait
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="two-digit lesson numbers (all when none)")
    parser.add_argument("--repeats", type=int, default=1, help="runs per figure; the median is printed")
    args = parser.parse_args()
    paths = sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
    if args.lessons:
        paths = [p for p in paths if p.name[:2] in set(args.lessons)]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"{'lesson':<40} {'Run All s':>10} {'make check s':>13}   (median of {args.repeats}; target {TARGET:g} s)")
    worst = [0.0, 0.0]
    for path in paths:
        run_all = statistics.median(run_all_seconds(path) for _ in range(args.repeats))
        check = statistics.median(check_seconds(path.name[:2]) for _ in range(args.repeats))
        worst = [max(worst[0], run_all), max(worst[1], check)]
        flag = "" if max(run_all, check) <= TARGET else "   over target"
        print(f"{path.stem:<40} {run_all:>10.1f} {check:>13.1f}{flag}", flush=True)
    print(f"{'slowest':<40} {worst[0]:>10.1f} {worst[1]:>13.1f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
