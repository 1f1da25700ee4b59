"""The Gradescope package (`workbook gradescope OUT.zip`): built once, unpacked into folders laid out like
Gradescope's /autograder (source/, submission/, results/), its real run_autograder run on ten submissions
of three lessons (01, 04, 05) with this worktree's Python instead of setup.sh's (setup.sh needs the
network), and every results.json validated against a schema written from Gradescope's specification:
https://gradescope-autograders.readthedocs.io/en/latest/specs/ ("Output format", read 2 December 2026).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import nbformat
import pytest
from grading_run import path_without_bwrap

from workbook import REPO_ROOT, SOLUTIONS_DIR
from workbook.cli import main
from workbook.grade.gradescope import COURSE, RUN_AUTOGRADER, SETUP_SH, build_package
from workbook.handout import learner_requirements
from workbook.notebook_files import write_notebook
from workbook.release import learner_copy, read_notebook

NB01, NB04, NB05 = "01_sap_orders_data", "04_designed_tools", "05_lint"
HIDDEN = REPO_ROOT / "tests" / "submissions" / "hidden_checks.py"  # one hidden check of lesson 01, 1 point

VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
FORMAT = {"enum": ["text", "html", "simple_format", "md", "ansi"]}
# The fields of results.json as the specification lists them (types as its example gives them).
RESULTS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number"},
        "output": {"type": "string"},
        "output_format": FORMAT,
        "test_output_format": FORMAT,
        "test_name_format": FORMAT,
        "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY,
        "extra_data": {"type": "object"},
        "tests": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "score": {"type": "number"},
                    "max_score": {"type": "number"},
                    "status": {"enum": ["passed", "failed"]},
                    "name": {"type": "string"},
                    "name_format": FORMAT,
                    "number": {"type": "string"},
                    "output": {"type": "string"},
                    "output_format": FORMAT,
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "visibility": VISIBILITY,
                    "extra_data": {"type": "object"},
                },
            },
        },
        "leaderboard": {"type": "array"},
    },
    # "score: optional, but required if not on each test case"
    "anyOf": [
        {"required": ["score"]},
        {"properties": {"tests": {"items": {"required": ["score"]}}}, "required": ["tests"]},
    ],
}


def _cells(notebook):
    return {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in notebook.cells}


def released(stem):
    return learner_copy(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))


def solved(stem, keep_stub: int | None = None):
    """The released notebook with the solution's answers; ``keep_stub``: that answer (by order) left blank."""
    notebook, solution = released(stem), _cells(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))
    answers = [(gid, c) for gid, c in _cells(notebook).items() if c.metadata.get("nbgrader", {}).get("solution")]
    for index, (grade_id, cell) in enumerate(answers):
        if index != keep_stub:
            cell.source = solution[grade_id].source
    return notebook


def tampered(notebook):
    """Everything a learner controls outside the answer cells: check cells replaced by a printed tick,
    points raised, outputs forged, a new cell that claims a grade_id of its own."""
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade"):
            meta["points"] = 100
            if cell.cell_type == "code" and not meta.get("solution"):
                cell.source = "print('✔ all checks passed')"
                cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="✔ all checks passed\n")]
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "print('✔ 100 of 100')",
            metadata={"nbgrader": {"grade": True, "grade_id": "bonus-check", "points": 50}},
        )
    )
    return notebook


# name -> (file name, what to write: a notebook or raw bytes)
SUBMISSIONS = {
    "correct01": (f"{NB01}.ipynb", lambda: solved(NB01)),
    "correct04": (f"{NB04}.ipynb", lambda: solved(NB04)),
    "correct05": (f"{NB05}.ipynb", lambda: solved(NB05)),
    "partial01": (f"{NB01}.ipynb", lambda: solved(NB01, keep_stub=0)),
    # 05's first answer is a prediction, worth nothing: 04 has two scored answers to leave one of blank
    "partial04": (f"{NB04}.ipynb", lambda: solved(NB04, keep_stub=1)),
    "blank04": (f"{NB04}.ipynb", lambda: released(NB04)),
    "invalid_json01": (f"{NB01}.ipynb", lambda: b'{"cells": [ this is not JSON'),
    "not_a_notebook05": (f"{NB05}.ipynb", lambda: b"%PDF-1.4 a file saved under the wrong name\n"),
    "tampered01": (f"{NB01}.ipynb", lambda: tampered(solved(NB01))),
    "tampered04": (f"{NB04}.ipynb", lambda: tampered(released(NB04))),
}


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gradescope")
    built = build_package(folder / "autograder.zip", ["01", "4", NB05], HIDDEN)
    return built


def _layout(zip_path: Path, root: Path) -> Path:
    (root / "source").mkdir(parents=True)
    (root / "submission").mkdir()
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(root / "source")
    for name in ("run_autograder", "setup.sh"):  # unzip keeps the modes; extractall does not
        os.chmod(root / "source" / name, 0o755)
    return root


def _run(root: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(AUTOGRADER_ROOT=str(root), WORKBOOK_PYTHON=sys.executable)
    done = subprocess.run(
        [str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def graded(package, tmp_path_factory):
    """name -> results.json, one emulated Gradescope container per submission (as Gradescope runs them)."""
    out = {}
    for name, (file, make) in SUBMISSIONS.items():
        root = _layout(package.path, tmp_path_factory.mktemp(name))
        content = make()
        if isinstance(content, bytes):
            (root / "submission" / file).write_bytes(content)
        else:
            write_notebook(root / "submission" / file, content)
        out[name] = _run(root)
    out["empty"] = _run(_layout(package.path, tmp_path_factory.mktemp("empty")))
    return out


def _tests(results, notebook):
    return [t for t in results["tests"] if t["extra_data"]["notebook"] == notebook]


def _score(results, notebook):
    return sum(t["score"] for t in _tests(results, notebook))


def test_the_zip_has_setup_and_run_autograder_at_its_root_executable(package):
    with zipfile.ZipFile(package.path) as archive:
        infos = {i.filename: i for i in archive.infolist()}
        assert {"setup.sh", "run_autograder"} <= set(infos)
        for name in ("setup.sh", "run_autograder"):
            assert (infos[name].external_attr >> 16) & 0o111, f"{name} is not executable"
            assert archive.read(name).startswith(b"#!/usr/bin/env bash\n")
        assert f"{COURSE}/solutions/{NB01}.ipynb" in infos
        assert f"{COURSE}/solutions/02_coldchain_data.ipynb" not in infos  # only the lessons asked for
        assert f"{COURSE}/edition/src/tooldesign/__init__.py" in infos
        assert not any(n.startswith(f"{COURSE}/edition/src/workbook/grade/") for n in infos)  # no grader in the kernel's copy
        pins = archive.read(f"{COURSE}/requirements.txt").decode()
        config = json.loads(archive.read(f"{COURSE}/gradescope.json"))
    assert config["lessons"] == [NB01, NB04, NB05]
    assert pins == learner_requirements((REPO_ROOT / "requirements.txt").read_text(encoding="utf-8"))
    assert "pytest" not in pins and "ruff" not in pins


def test_setup_installs_exactly_the_learner_pins_and_nothing_else():
    installs = [line for line in SETUP_SH.splitlines() if "pip install" in line]
    assert len(installs) == 2
    assert "--upgrade pip" in installs[0]
    assert installs[1].endswith(f"-r /autograder/source/{COURSE}/requirements.txt")
    assert "apt-get install -y --no-install-recommends python3 python3-venv python3-pip" in SETUP_SH
    assert SETUP_SH.splitlines()[1].startswith("#") and "set -euo pipefail" in SETUP_SH


def test_run_autograder_takes_its_root_and_python_from_the_environment():
    assert 'ROOT="${AUTOGRADER_ROOT:-/autograder}"' in RUN_AUTOGRADER
    assert "-m workbook.grade.gradescope" in RUN_AUTOGRADER


def test_the_same_course_gives_the_same_zip(package, tmp_path):
    again = build_package(tmp_path / "again.zip", [NB01, NB04, NB05], HIDDEN)
    assert again.path.read_bytes() == package.path.read_bytes()


def test_every_results_json_follows_the_specification(graded):
    assert len(graded) == 11
    for name, results in graded.items():
        jsonschema.validate(results, RESULTS_SCHEMA)
        assert results["score"] == sum(t["score"] for t in results["tests"]), name
        assert results["stdout_visibility"] == "hidden"
        for test in results["tests"]:
            assert 0 <= test["score"] <= test["max_score"], (name, test)


def test_a_correct_notebook_scores_full_marks_with_one_test_per_exercise(graded):
    for name, stem in (("correct01", NB01), ("correct04", NB04), ("correct05", NB05)):
        tests = _tests(graded[name], stem)
        assert tests and all(t["status"] == "passed" and t["score"] == t["max_score"] for t in tests), tests
        assert len({t["extra_data"]["grade_id"] for t in tests}) == len(tests)
    ids = [t["extra_data"]["grade_id"] for t in _tests(graded["correct01"], NB01)]
    assert ids == ["ex01-blocked-orders", "ex01-credit-exposure", "ex01-credit-exposure-hidden"]


def test_the_hidden_check_is_shown_only_after_the_due_date(graded):
    for name in ("correct01", "partial01", "tampered01"):
        tests = {t["extra_data"]["grade_id"]: t for t in _tests(graded[name], NB01)}
        assert tests["ex01-credit-exposure-hidden"]["visibility"] == "after_due_date"
        assert tests["ex01-blocked-orders"]["visibility"] == "visible"


def test_the_lessons_not_submitted_score_zero_of_their_points(graded):
    results = graded["correct01"]
    missing = [t for t in results["tests"] if t["name"].endswith("not submitted")]
    assert {t["extra_data"]["notebook"] for t in missing} == {NB04, NB05}
    assert all(t["score"] == 0 and t["max_score"] > 0 for t in missing)
    assert results["score"] == _score(results, NB01) == 4  # 1 + 2 + the hidden check's 1


def test_partial_and_blank_notebooks_score_what_they_answered_with_the_hint(graded):
    partial = _tests(graded["partial01"], NB01)
    assert [t["status"] for t in partial[:2]] == ["failed", "passed"]
    assert partial[0]["score"] == 0 and partial[0]["output"]  # the hint says what is missing
    assert 0 < _score(graded["partial04"], NB04) < _score(graded["correct04"], NB04)
    blank = _tests(graded["blank04"], NB04)
    assert blank and all(t["score"] == 0 and t["status"] == "failed" and t["output"] for t in blank)


@pytest.mark.parametrize("name, stem", [("invalid_json01", NB01), ("not_a_notebook05", NB05)])
def test_a_file_that_is_no_notebook_scores_zero_and_says_so(graded, name, stem):
    results = graded[name]
    assert results["score"] == 0
    assert "not-a-notebook" in results["output"]
    assert all(t["score"] == 0 for t in _tests(results, stem)) and _tests(results, stem)


def test_a_tampered_notebook_scores_what_its_answers_honestly_earn(graded):
    for tampered_name, honest in (("tampered01", "correct01"), ("tampered04", "blank04")):
        assert graded[tampered_name]["score"] == graded[honest]["score"]
        pairs = zip(graded[tampered_name]["tests"], graded[honest]["tests"])
        assert all(a["score"] == b["score"] and a["max_score"] == b["max_score"] for a, b in pairs)
    assert "bonus-check" not in json.dumps(graded["tampered01"]["tests"])


def test_an_empty_submission_still_gets_a_results_json_that_says_what_to_upload(graded):
    results = graded["empty"]
    assert results["score"] == 0 and "No .ipynb file" in results["output"]
    assert {t["extra_data"]["notebook"] for t in results["tests"]} == {NB01, NB04, NB05}


def test_bad_input_is_one_line(package, tmp_path, capsys):
    assert main(["gradescope", str(package.path), "--lesson", "01"]) != 0
    assert "already exists" in capsys.readouterr().err
    assert main(["gradescope", str(tmp_path / "x.zip"), "--lesson", "99"]) != 0
    err = capsys.readouterr().err
    assert "--lesson 99: no such lesson" in err and len(err.strip().splitlines()) == 1
    assert main(["gradescope", str(tmp_path / "x.tar"), "--lesson", "01"]) != 0
    assert ".zip" in capsys.readouterr().err
    assert not (tmp_path / "x.zip").exists()


def test_without_bubblewrap_as_in_gradescope_a_tampered_notebook_still_scores_honestly(package, graded, tmp_path):
    """Gradescope's image has no bubblewrap: a PATH without it makes the grader run as it would there."""
    tools = path_without_bwrap(tmp_path / "bin")
    root = _layout(package.path, tmp_path / "container")
    write_notebook(root / "submission" / f"{NB01}.ipynb", tampered(solved(NB01)))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(AUTOGRADER_ROOT=str(root), WORKBOOK_PYTHON=sys.executable, PATH=tools)
    done = subprocess.run([str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, RESULTS_SCHEMA)
    assert "no bubblewrap there" in results["output"]
    assert "sandbox is turned off" in done.stdout or "not installed" in done.stdout
    assert results["score"] == graded["correct01"]["score"] == 4
