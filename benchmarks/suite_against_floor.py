"""How long `make test` takes beside its floor: every solution notebook executed once.

Run: .venv/bin/python benchmarks/suite_against_floor.py [--floor-only] [--log FILE]     (or `make bench-suite`)

Executing each solution notebook once is the part of a test run nothing can remove (nbval must run
every cell); everything above it is what the rest of the suite costs. This measures both in one run,
on the same machine under the same load, and prints the ratio with the seconds each area of the suite
spent (the sum of its tests' set-up, call and tear-down, from pytest's --durations=0: with two
workers the areas add up to about twice the wall-clock time). It also prints the processor time the
run kept the cores busy (every process it started, kernels and sandboxes included; on Linux read from
/proc/stat, so run it on a quiet machine) and the lowest wall-clock time that work allows on this
machine's cores, whatever the schedule. It prints figures and asserts nothing, so a slow machine never
fails a test. `make bench` leaves it out: it runs the whole suite.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from workbook import SOLUTIONS_DIR
from workbook.execute import run_notebook
from workbook.release import read_notebook

ROOT = Path(__file__).resolve().parent.parent
DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(setup|call|teardown)\s+(\S+?)(?:::|\s|$)")


def floor_seconds() -> dict[str, float]:
    """Seconds to execute each solution notebook once, one after the other, as nbval's kernel would."""
    seconds = {}
    for path in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb")):
        started = time.perf_counter()
        run_notebook(read_notebook(path), path.parent, timeout=900)
        seconds[path.stem] = time.perf_counter() - started
    return seconds


def area(test_file: str) -> str:
    """solutions/*.ipynb is nbval; tests/test_grade_units.py is 'grade'; test_notebooks.py runs the learner copies."""
    if test_file.startswith("solutions/"):
        return "nbval: solution notebooks"
    stem = Path(test_file).stem
    if stem == "test_notebooks":
        return "learner copies executed"
    if test_file.startswith("tests/browser/"):
        return "browser"
    return stem.removeprefix("test_").split("_")[0]


def workers() -> str:
    """How many pytest workers the README's `make test` asks for, read from the Makefile it runs."""
    found = re.search(r"pytest[^\n]*?-n (\S+)", (ROOT / "Makefile").read_text(encoding="utf-8"))
    return found.group(1) if found else "1 (no -n)"


def processor_seconds() -> float:
    """User and system seconds of every process this one has waited for so far (and of theirs)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def machine_busy_seconds() -> float | None:
    """Seconds the machine's cores have been busy since boot, every process counted (Linux /proc/stat), or None.

    Processes no one waits for (a kernel killed with its sandbox, an orphan) are missing from
    processor_seconds(); here they count, as does anything else the machine runs, so run it on a quiet one.
    """
    try:
        fields = Path("/proc/stat").read_text(encoding="ascii").splitlines()[0].split()[1:]
    except OSError:
        return None
    ticks = [int(value) for value in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and waiting on the disk
    guest = sum(ticks[8:10])  # already counted in user and nice
    return (sum(ticks) - guest - idle) / os.sysconf("SC_CLK_TCK")


def suite(log: Path | None) -> tuple[float, float, int, dict[str, float], str]:
    """Run the README's `make test` once; return its wall-clock and processor seconds (the larger of what
    it waited for and what the machine's cores did meanwhile), exit code, seconds by area, last line."""
    env = dict(os.environ, PYTEST_ADDOPTS=(os.environ.get("PYTEST_ADDOPTS", "") + " --durations=0").strip())
    started, used, busy = time.perf_counter(), processor_seconds(), machine_busy_seconds()
    done = subprocess.run(["make", "test"], cwd=ROOT, env=env, capture_output=True, text=True)
    wall, processor = time.perf_counter() - started, processor_seconds() - used
    after = machine_busy_seconds()
    if busy is not None and after is not None:
        processor = max(processor, after - busy)
    if log is not None:
        log.write_text(done.stdout + done.stderr, encoding="utf-8")
    for line in done.stdout.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            print(line)
    by_area: dict[str, float] = defaultdict(float)
    for line in done.stdout.splitlines():
        match = DURATION.match(line)
        if match:
            by_area[area(match.group(3))] += float(match.group(1))
    summary = next((line for line in reversed(done.stdout.splitlines()) if " in " in line and "=" in line), "")
    return wall, processor, done.returncode, dict(by_area), summary.strip("= ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floor-only", action="store_true", help="only execute the solution notebooks")
    parser.add_argument("--log", type=Path, help="write make test's whole output to this file")
    options = parser.parse_args(argv)
    floor = floor_seconds()
    total_floor = sum(floor.values())
    print(f"{'solution notebook':<36} {'seconds':>8}")
    for name, seconds in floor.items():
        print(f"{name:<36} {seconds:>8.1f}")
    print(f"{'floor: every notebook once':<36} {total_floor:>8.1f}")
    if options.floor_only:
        return 0
    wall, processor, code, by_area, summary = suite(options.log)
    print(f"\n{'area of the suite':<36} {'seconds':>8}   (sum over its tests, both workers)")
    for name, seconds in sorted(by_area.items(), key=lambda kv: -kv[1]):
        print(f"{name:<36} {seconds:>8.1f}")
    print(f"\nmake test: {wall:.0f} s wall-clock, exit {code} ({summary})")
    print(f"floor:     {total_floor:.0f} s   ratio make test / floor: {wall / total_floor:.2f}")
    print(f"(make test runs {workers()} pytest workers; the floor runs one notebook at a time)")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    print(f"processor: {processor:.0f} s busy; on {cores} cores no schedule of that work "
          f"finishes in under {processor / cores:.0f} s (the cores were {100 * processor / (cores * wall):.0f} % busy)")
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
