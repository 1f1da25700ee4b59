"""The Gradescope package as Gradescope's image runs it: without bubblewrap (a PATH that holds only bash
and env, so the grader finds no bwrap whether or not this machine has one; CI also runs the grading
tests under .ci/without-bwrap). Lessons 00 and 07 (07 has a hand-graded design note): each lesson's
maximum is the same whether its notebook was submitted or not, a notebook inside a zip is graded, and
an export alone scores 0 with a message that says what to upload."""

from __future__ import annotations

import io
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
from test_gradescope import RESULTS_SCHEMA, _layout, solved

from workbook.grade.gradescope import build_package

NB00, NB07 = "00_start_here", "07_selection_test_a_new_tool"


def _run_without_bwrap(package: Path, root: Path, files: dict[str, bytes]) -> dict:
    tools = path_without_bwrap(root.parent / f"{root.name}-bin")
    _layout(package, root)
    for name, data in files.items():
        (root / "submission" / name).write_bytes(data)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(AUTOGRADER_ROOT=str(root), WORKBOOK_PYTHON=sys.executable, PATH=tools)
    done = subprocess.run([str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, RESULTS_SCHEMA)
    return results


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gradescope-nobwrap")
    package = build_package(folder / "autograder.zip", ["00", "07"]).path
    nb00 = nbformat.writes(solved(NB00)).encode()
    nb07 = nbformat.writes(solved(NB07)).encode()
    submissions = {
        "export-only": {f"{NB00}.pdf": b"%PDF-1.4"},
        "only07": {f"{NB07}.ipynb": nb07, f"{NB07}.html": b"<html></html>"},
        "zip00": {"lab.zip": _zip({f"lab/{NB00}.ipynb": nb00, f"lab/{NB00}.pdf": b"%PDF-1.4"})},
    }
    return {name: _run_without_bwrap(package, folder / name, files) for name, files in submissions.items()}


def _maxima(results: dict) -> dict[str, float]:
    out: dict[str, float] = {}
    for test in results["tests"]:
        notebook = test["extra_data"]["notebook"]
        out[notebook] = out.get(notebook, 0) + test["max_score"]
    return out


def test_a_lessons_maximum_is_the_same_submitted_or_missing(runs):
    maxima = {name: _maxima(results) for name, results in runs.items()}
    assert maxima["export-only"] == maxima["only07"] == maxima["zip00"], maxima
    assert set(maxima["zip00"]) == {NB00, NB07}


def test_the_hand_graded_note_is_left_to_gradescope_and_said(runs):
    results = runs["only07"]
    assert "ex07-design-note is graded by hand" in results["output"]
    assert not any(t["extra_data"]["grade_id"] == "ex07-design-note" for t in results["tests"])
    scored = [t for t in results["tests"] if t["extra_data"]["notebook"] == NB07]
    assert scored and all(t["score"] == t["max_score"] for t in scored), scored


def test_a_notebook_in_a_zip_is_graded_and_the_export_beside_it_is_not(runs):
    results = runs["zip00"]
    tests = [t for t in results["tests"] if t["extra_data"]["notebook"] == NB00]
    assert tests and all(t["status"] == "passed" for t in tests), tests
    assert "no bubblewrap there" in results["output"]


def test_an_export_alone_scores_zero_and_says_what_to_upload(runs):
    results = runs["export-only"]
    assert results["score"] == 0 and "No .ipynb file" in results["output"] and "PDF" in results["output"]
    assert all(t["output"] for t in results["tests"])
