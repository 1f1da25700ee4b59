"""What grading costs: submissions per minute, against one plain nbclient run of each submission.

Run: python benchmarks/bench_grade.py [--copies N] [--notebooks 02 ...] [--rounds R]

The class is N learners (8 by default), each handing in the complete notebook 02 (the solution, as
a learner who got everything right would; --notebooks picks others). The grader's time includes
building the student edition once per run, drawing the probes and judging against references. The baseline is what any autograder pays at the least:
nbclient executing each of those notebooks once, in a fresh kernel, from the notebooks/ folder.
The grader is measured over the same files with --jobs 1 (its overhead) and --jobs 2 (its
throughput). Each round runs every measurement once, in turn, so a busy machine slows them alike;
the medians over rounds are printed. Figures vary between machines, the ratios much less.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from workbook import NOTEBOOKS_DIR, SOLUTIONS_DIR
from workbook.grade import GradeOptions, grade
from workbook.grade.sandbox import detect

def make_class(folder: Path, copies: int, notebooks: list[str]) -> list[Path]:
    files = []
    for learner in range(copies):
        for name in notebooks:
            target = folder / f"learner{learner:02d}" / f"{name}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(SOLUTIONS_DIR / f"{name}.ipynb", target)
            files.append(target)
    return files


def nbclient_once(path: Path, backend: str | None) -> float:
    """Seconds to execute one notebook with nbclient, kernel start included (outputs cleared first)."""
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    saved = os.environ.get("MPLBACKEND")
    if backend is None:
        os.environ.pop("MPLBACKEND", None)
    else:
        os.environ["MPLBACKEND"] = backend
    try:
        started = time.perf_counter()
        NotebookClient(notebook, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(NOTEBOOKS_DIR)}}).execute()
        return time.perf_counter() - started
    finally:
        if saved is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = saved


def grader_once(submissions: Path, jobs: int, sandbox: bool | None) -> float:
    """Seconds for the grader to grade every file of the class from scratch (fresh output folder)."""
    with tempfile.TemporaryDirectory(prefix="bench-grade-out-") as out:
        started = time.perf_counter()
        report = grade(GradeOptions(submissions, Path(out), jobs=jobs, timeout=300, sandbox=sandbox, progress=False,
                       say=lambda text: None))
        elapsed = time.perf_counter() - started
    bad = [r for r in report.rows if r.status.value != "graded" or r.total != r.max]
    if bad:
        raise SystemExit(f"the benchmark class did not grade cleanly: {bad[0].file} {bad[0].status} {bad[0].reason}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=8, help="learners in the class (8)")
    parser.add_argument("--notebooks", nargs="*", default=["02"], help="the notebooks each hands in (02)")
    parser.add_argument("--rounds", type=int, default=1, help="repeat every measurement this many times")
    args = parser.parse_args()
    box = detect()
    notebooks = [next(p.stem for p in sorted(SOLUTIONS_DIR.glob(f"{n[:2]}_*.ipynb"))) for n in args.notebooks]
    with tempfile.TemporaryDirectory(prefix="bench-grade-class-") as folder:
        files = make_class(Path(folder), args.copies, notebooks)
        count = len(files)
        times: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            for label, run in (
                ("nbclient, once per file", lambda: sum(nbclient_once(p, None) for p in files)),
                ("nbclient, once per file, MPLBACKEND=Agg", lambda: sum(nbclient_once(p, "Agg") for p in files)),
                (f"grader --jobs 1 ({box.kind})", lambda: grader_once(Path(folder), 1, None if box.isolated else False)),
                (f"grader --jobs 2 ({box.kind})", lambda: grader_once(Path(folder), 2, None if box.isolated else False)),
                ("grader --jobs 1 (no sandbox)", lambda: grader_once(Path(folder), 1, False)),
            ):
                if "no sandbox" in label and not box.isolated:
                    continue
                times.setdefault(label, []).append(run())
    median = {label: statistics.median(values) for label, values in times.items()}
    baseline = median["nbclient, once per file"]
    print(f"class: {count} files ({args.copies} learners x {', '.join(notebooks)}), {args.rounds} round(s), "
          f"{os.cpu_count()} CPUs, sandbox: {box.kind}")
    print(f"{'run':<42} {'seconds':>8} {'s/file':>7} {'files/min':>10} {'vs nbclient':>12}")
    for label, seconds in median.items():
        print(f"{label:<42} {seconds:8.1f} {seconds / count:7.2f} {60 * count / seconds:10.1f} "
              f"{seconds / baseline:11.2f}x")
    graded = median[f"grader --jobs 1 ({box.kind})"]
    overhead = graded / baseline
    print(f"\noverhead of grading over executing each notebook once with nbclient: {overhead:.2f}x "
          f"(target at most 1.3x: {'met' if overhead <= 1.3 else 'NOT met'})")
    # The grader draws plots with Agg and never encodes them; part of its lead is that, so say how much.
    print(f"the same against nbclient with MPLBACKEND=Agg (no PNGs either): "
          f"{graded / median['nbclient, once per file, MPLBACKEND=Agg']:.2f}x")
    print(f"throughput: {60 * count / median[f'grader --jobs 1 ({box.kind})']:.1f} submissions/min with --jobs 1, "
          f"{60 * count / median[f'grader --jobs 2 ({box.kind})']:.1f} with --jobs 2")
    for jobs in (1, 2):
        print(f"throughput against one plain nbclient run per submission, --jobs {jobs}: "
              f"{baseline / median[f'grader --jobs {jobs} ({box.kind})']:.2f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
