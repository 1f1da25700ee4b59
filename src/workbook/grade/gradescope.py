"""A Gradescope autograder for this course: ``workbook gradescope OUT.zip [--lesson NN ...]``.

Gradescope's specification (https://gradescope-autograders.readthedocs.io/en/latest/specs/, read
2 December 2026): a zip with ``setup.sh`` and ``run_autograder`` at its root; the zip is unpacked into
``/autograder/source``, setup.sh runs once when the image is built (Ubuntu), and for each submission a
fresh container runs ``run_autograder`` with the learner's files in ``/autograder/submission``; it must
write ``/autograder/results/results.json`` (score, output, tests with score, max_score, name, output,
visibility ...).

The zip holds ``course/``: the grader (``src/`` in full, with the exercise definitions and references),
the chosen lessons' solution notebooks (the grader rebuilds each released notebook from them), ``data/``,
the learner pin list the student edition installs, and a prebuilt student edition (``course/edition``)
for the kernels. ``run_autograder`` calls :func:`run`, which grades with ``workbook.grade.grade``: the
same plan, merge, drawn inputs, quotas and judges as ``workbook grade``. Gradescope's container has no
bubblewrap, so it grades with ``sandbox=False`` unless bubblewrap works there (see docs/instructor.md, Gradescope).

The root is ``$AUTOGRADER_ROOT`` (``/autograder`` when unset) and the Python is ``$WORKBOOK_PYTHON``
(the one setup.sh made when unset), so the tests run the real script in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooldesign.wording import count as plural_count
from workbook import DATA_DIR, REPO_ROOT, SOLUTIONS_DIR

COURSE = "course"  # the folder of the zip (and of /autograder/source) that holds the course
CONFIG = "gradescope.json"
HIDDEN = "hidden_checks.py"
VENV = "/opt/workbook-venv"
ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed, so the same course gives the same zip
PACKAGES = ("tooldesign", "workbook")

SETUP_SH = f"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (Ubuntu). Python comes from
# apt: Ubuntu 22.04's python3 is 3.10, the oldest version the course's pins install on.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv python3-pip
python3 -m venv {VENV}
{VENV}/bin/python -m pip install --no-cache-dir --upgrade pip
# Exactly the learner pin list the student edition installs (requirements.txt of `workbook handout`).
{VENV}/bin/python -m pip install --no-cache-dir -r /autograder/source/{COURSE}/requirements.txt
# Fonts and kernel start-up caches are built now, not once per submission.
{VENV}/bin/python -c "import matplotlib.pyplot"
"""

RUN_AUTOGRADER = f"""#!/usr/bin/env bash
# Gradescope runs this for each submission, in a fresh container. It grades
# $ROOT/submission/*.ipynb with the course's grader and writes $ROOT/results/results.json.
set -u
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PYTHON="${{WORKBOOK_PYTHON:-{VENV}/bin/python}}"
export PYTHONPATH="$ROOT/source/{COURSE}/src"
export PYTHONNOUSERSITE=1
cd "$ROOT"
exec "$PYTHON" -m workbook.grade.gradescope --root "$ROOT"
"""


class GradescopeError(RuntimeError):
    """The package cannot be written as asked; the message says what to do."""


@dataclass(frozen=True)
class Package:
    path: Path
    lessons: tuple[str, ...]
    hidden_checks: bool


def lesson_stems(wanted: list[str] | None, solutions: Path = SOLUTIONS_DIR) -> tuple[str, ...]:
    """The notebooks named by ``--lesson`` (a number or a full name); all of them when none is named."""
    from workbook.grade.plan import known_notebooks

    known = known_notebooks(solutions)
    if not wanted:
        return tuple(known)
    found = []
    for item in wanted:
        match = [stem for stem in known if stem == item or (item.isdigit() and stem[:2] == item.zfill(2)[:2])]
        if len(match) != 1:
            raise GradescopeError(
                f"--lesson {item}: no such lesson; give a number from {known[0][:2]} to {known[-1][:2]}"
            )
        if match[0] not in found:
            found.append(match[0])
    return tuple(found)


def build_package(out: Path, lessons: list[str] | None = None, hidden_checks: Path | None = None) -> Package:
    """Write the autograder zip ``out`` (which must not exist) for ``lessons`` (every lesson when None)."""
    from workbook.grade.plan import build_plan, load_hidden_checks
    from workbook.handout import build, learner_requirements

    if out.suffix != ".zip":
        raise GradescopeError(f"{out}: Gradescope takes a .zip; name the output file OUT.zip")
    if out.exists():
        raise GradescopeError(
            f"{out} already exists; remove it or name another file (it is never overwritten)"
        )
    if not out.parent.is_dir():
        raise GradescopeError(f"{out.parent} does not exist; make the folder first")
    stems = lesson_stems(lessons)
    hidden = load_hidden_checks(hidden_checks.resolve() if hidden_checks else None)
    for stem in stems:
        build_plan(stem, hidden)  # a lesson the grader cannot plan stops here, not in Gradescope
    with tempfile.TemporaryDirectory(prefix="workbook-gradescope-") as folder:
        edition = Path(folder) / "edition"
        build(edition, notebooks=False, self_checks=False)
        files: list[tuple[str, Path | str]] = [
            ("setup.sh", SETUP_SH),
            ("run_autograder", RUN_AUTOGRADER),
        ]
        config = {"lessons": list(stems), "hidden_checks": HIDDEN if hidden_checks else None}
        files.append((f"{COURSE}/{CONFIG}", json.dumps(config, indent=1) + "\n"))
        requirements = (REPO_ROOT / "requirements.txt").read_text(encoding="utf-8")
        files.append((f"{COURSE}/requirements.txt", learner_requirements(requirements)))
        if hidden_checks:
            files.append((f"{COURSE}/{HIDDEN}", hidden_checks))
        for package in PACKAGES:
            files += _tree(REPO_ROOT / "src" / package, f"{COURSE}/src/{package}")
        files += _tree(DATA_DIR, f"{COURSE}/data")
        files += [(f"{COURSE}/solutions/{stem}.ipynb", SOLUTIONS_DIR / f"{stem}.ipynb") for stem in stems]
        files += _tree(edition, f"{COURSE}/edition")
        partial = out.with_name(f".{out.name}.partial")
        try:
            with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
                for name, content in sorted(files, key=lambda item: item[0]):
                    info = zipfile.ZipInfo(name, ZIP_DATE)
                    executable = name in ("setup.sh", "run_autograder")
                    info.external_attr = (0o100755 if executable else 0o100644) << 16
                    info.compress_type = zipfile.ZIP_DEFLATED
                    data = content.encode("utf-8") if isinstance(content, str) else content.read_bytes()
                    archive.writestr(info, data)
            os.replace(partial, out)
        finally:
            partial.unlink(missing_ok=True)
    return Package(out, stems, hidden_checks is not None)


def _tree(root: Path, prefix: str) -> list[tuple[str, Path | str]]:
    return [
        (f"{prefix}/{path.relative_to(root).as_posix()}", path)
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    ]


# ---------- inside Gradescope's container ----------


def run(root: Path) -> dict[str, Any]:
    """Grade ``root/submission/*.ipynb`` and write ``root/results/results.json``; return what it holds."""
    started = time.monotonic()
    results_dir = root / "results"
    results_dir.mkdir(parents=True, exist_ok=True)
    try:
        results = _grade_submission(root)
    except Exception as error:  # whatever goes wrong, Gradescope gets a results.json that says so
        results = {
            "score": 0,
            "output": f"The autograder failed ({type(error).__name__}: {error}); your instructor can "
            "see the details. Nothing of your submission was graded.",
            "stdout_visibility": "hidden",
            "tests": [],
        }
    results["execution_time"] = round(time.monotonic() - started, 1)
    (results_dir / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    return results


def _grade_submission(root: Path) -> dict[str, Any]:
    from workbook.grade import GradeOptions, grade
    from workbook.grade.feedback import outside_notebook
    from workbook.grade.plan import build_plan, load_hidden_checks
    from workbook.grade.sandbox import detect

    course = root / "source" / COURSE
    config = json.loads((course / CONFIG).read_text(encoding="utf-8"))
    lessons: list[str] = config["lessons"]
    hidden_path = course / config["hidden_checks"] if config.get("hidden_checks") else None
    submitted = root / "submission"
    # A notebook, or a zip of one (the grader reads notebooks inside a zip in place); exports beside
    # them (PDF, HTML) are not graded.
    found = sorted(
        p
        for pattern in ("*.ipynb", "*.zip")
        for p in (submitted.rglob(pattern) if submitted.is_dir() else [])
        if ".ipynb_checkpoints" not in p.parts and not p.name.startswith(".")
    )
    hidden = load_hidden_checks(hidden_path)
    expected = {stem: autograded_points(build_plan(stem, hidden)) for stem in lessons}
    wanted = ", ".join(f"{stem}.ipynb" for stem in lessons)
    if not found:
        return {
            "score": 0,
            "output": f"No .ipynb file in your submission: upload {wanted} (a PDF or HTML export cannot be graded).",
            "stdout_visibility": "hidden",
            "tests": [_missing(stem, points) for stem, points in expected.items()],
        }
    box = detect()
    with tempfile.TemporaryDirectory(prefix="workbook-gradescope-") as folder:
        learner = Path(folder) / "submissions" / "learner"
        learner.mkdir(parents=True)
        for index, path in enumerate(found):
            # Two uploads of one name in different folders must not overwrite each other.
            name = path.name if index == 0 or not (learner / path.name).exists() else f"{index}_{path.name}"
            shutil.copyfile(path, learner / name)
        report = grade(
            GradeOptions(
                learner.parent,
                Path(folder) / "out",
                hidden_checks=hidden_path,
                sandbox=None if box.isolated else False,
                progress=False,
                edition=course / "edition",
                say=lambda text: print(text),
            )
        )
    tests: list[dict[str, Any]] = []
    lines: list[str] = []
    best: dict[str, float] = {}
    for row in report.rows:
        if row.notebook and row.notebook not in lessons:
            lines.append(
                f"{row.file}: this assignment grades {wanted}, not {row.notebook}; it was not counted."
            )
            continue
        if row.status.value != "graded" or row.reason:
            lines.append(f"{row.file}: {row.status.value}" + (f" ({row.reason})" if row.reason else ""))
        if not row.notebook:
            continue
        if row.notebook in best and best[row.notebook] >= row.total:
            lines.append(
                f"{row.file}: another file of {row.notebook} scored at least as much; this one is not counted."
            )
            continue
        tests = [t for t in tests if t["extra_data"]["notebook"] != row.notebook]
        best[row.notebook] = row.total
        for exercise in row.exercises:
            if exercise.verdict.value == "manual":
                lines.append(
                    f"{exercise.grade_id} is graded by hand: your instructor grades it on Gradescope."
                )
                continue
            test: dict[str, Any] = {
                "name": f"{row.notebook}: {exercise.grade_id}"
                + (" (hidden check)" if exercise.hidden else ""),
                "score": exercise.points,
                "max_score": exercise.max,
                "status": "passed" if exercise.verdict.value == "pass" else "failed",
                "output": outside_notebook(exercise.message)
                or ("passed" if exercise.verdict.value == "pass" else "not passed"),
                "visibility": "after_due_date" if exercise.hidden else "visible",
                "extra_data": {"notebook": row.notebook, "grade_id": exercise.grade_id, "file": row.file},
            }
            tests.append(test)
    for stem, points in expected.items():
        if stem not in best:
            tests.append(_missing(stem, points))
            lines.append(f"{stem}.ipynb was not in your submission (or could not be read): it scores 0.")
    sandbox = (
        "Graded in bubblewrap inside Gradescope's container."
        if box.isolated
        else "Graded in this submission's own Gradescope container (no bubblewrap there)."
    )
    return {
        "score": sum(t["score"] for t in tests),
        "output": "\n".join([*lines, sandbox]),
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def autograded_points(plan: Any) -> float:
    """The points this package's tests carry for one lesson: every graded exercise except those a
    person grades (those are Gradescope's manual questions, outside results.json), so a lesson's
    maximum is the same whether its notebook was submitted or is missing."""
    from workbook.grade.results import number

    return number(sum(slot.points for slot in plan.slots if slot.exercise.kind != "manual"))


def _missing(stem: str, points: float) -> dict[str, Any]:
    return {
        "name": f"{stem}: not submitted",
        "score": 0,
        "max_score": points,
        "status": "failed",
        "output": f"No readable {stem}.ipynb in your submission; upload the notebook itself (File > Download).",
        "visibility": "visible",
        "extra_data": {"notebook": stem, "grade_id": "", "file": ""},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="run_autograder")
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("AUTOGRADER_ROOT", "/autograder")))
    args = parser.parse_args(argv)
    results = run(args.root)
    print(f"results.json written: score {results['score']}, {plural_count(len(results['tests']), 'test')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
