"""Seconds in a real browser: Run All per learner notebook, and each widget's change until settled.

Run: .venv/bin/python benchmarks/bench_browser.py [NN ...]     (or `make bench`)
Needs Debian's chromium and Playwright (requirements-browser.txt), like `make test-browser`.
Each notebook is opened and run three times in JupyterLab in headless Chromium; each explorer,
workbench, tester and panel is moved through its states each time. The figures are medians of
three; "text ahead" is how long the text was drawn before the chart during one change (0 when both
arrive together). This prints figures; it asserts nothing.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
import browserlab as lab  # noqa: E402

REPEATS = 3


def measure(context, server, notebook: str) -> tuple[list[float], dict[str, list[float]], dict[str, list[float]]]:
    """Run All seconds per repeat; per widget, settle seconds and text-ahead milliseconds over all repeats."""
    run_all: list[float] = []
    settle: dict[str, list[float]] = {}
    ahead: dict[str, list[float]] = {}
    for _ in range(REPEATS):
        try:
            page = lab.NotebookPage.open(context, server, notebook)
        except TimeoutError as error:  # said, and the other repeats still count
            print(f"  a repeat of {notebook} did not start: {error}", flush=True)
            continue
        try:
            run_all.append(page.run_all())
            _, others = lab.interactive_cells(page, page.outputs())
            for index in others:
                result = lab.interaction_problems(page, index)
                name = f"cell {index}: {result.control}"
                settle.setdefault(name, []).extend(result.seconds)
                ahead.setdefault(name, []).extend(result.text_first_ms)
        finally:
            page.close()
    return run_all, settle, ahead


def main(names: list[str]) -> int:
    try:
        lab.chromium_path()
        import playwright  # noqa: F401
    except (lab.BrowserSetupError, ImportError) as missing:
        print(f"skipped: {missing}")
        return 0
    notebooks = [p for p in lab.learner_notebooks() if not names or p.name[:2] in names]
    slowest = (0.0, "")
    print(f"{'notebook':<28} {'Run All s':>9}   widget: change->settled s (median), text ahead of chart ms (max)")
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp, lab.lab_server(Path(tmp)) as server, \
            lab.open_browser() as context:
        for path in notebooks:
            notebook = path.relative_to(lab.ROOT).as_posix()
            run_all, settle, ahead = measure(context, server, notebook)
            widgets = [f"{name} {statistics.median(times):.2f} s, ahead {max(ahead[name] or [0]):.0f} ms"
                       for name, times in settle.items() if times]
            if not run_all:
                continue
            print(f"{path.stem:<28} {statistics.median(run_all):>9.1f}   " + ("; ".join(widgets) or "no widget with controls"),
                  flush=True)
            for name, times in settle.items():
                if times and statistics.median(times) > slowest[0]:
                    slowest = (statistics.median(times), f"{path.stem} {name}")
    if slowest[1]:
        print(f"slowest widget update (median of {REPEATS} runs): {slowest[0]:.2f} s, {slowest[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
