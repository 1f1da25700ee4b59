"""Each lesson's Time line is its measured walk, and the README's total is the sum of them.

The walk is ``scripts/notebook_time.py``: words, code lines, printed output, charts, cells,
exercises, widgets and quiz questions, each at a careful learner's rate (docs/AUTHORING.md). A
stated time may differ from the measured one by less than one rounding step (five minutes), so a
few words more do not flip it; anything more means the lesson grew or shrank and its Time line,
and the README's total, must follow: ``.venv/bin/python scripts/notebook_time.py --write``.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import notebook_time  # noqa: E402

SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_the_time_line_is_the_measured_walk(path):
    stated, walk = notebook_time.stated(path), notebook_time.walk(path)
    assert stated is not None, f"{path.name}: no '**Time:** about N minutes' line in its first cell"
    assert stated % 5 == 0, f"{path.name}: state the time to the nearest five minutes"
    assert abs(stated - walk.minutes) < 5, (
        f"{path.name} states {stated} minutes, its walk measures {walk.minutes:.0f}: run "
        f".venv/bin/python scripts/notebook_time.py --write, then update the README's total")


def test_the_readme_gives_the_total_and_the_prerequisites():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    total = sum(notebook_time.stated(p) or 0 for p in SOLUTIONS)
    match = re.search(r"about (\d[\d,]*) minutes in all", readme, re.I)
    assert match, "the README states the course's total time ('about N minutes in all')"
    assert int(match[1].replace(",", "")) == total, f"the lessons' Time lines add up to {total} minutes"
    section = readme.split("## Before you start", 1)[1].split("\n## ", 1)[0]
    for needed in ("Python", "JSON Schema", "async", "JavaScript"):
        assert needed in section, f"the prerequisites name {needed}"


def test_the_walk_counts_what_a_learner_does():
    notebook = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "# 99 · T\n\n**Time:** about 5 minutes.\n\n" + "word " * 200},
        {"cell_type": "code", "metadata": {}, "source": "x = 1\nprint(x)", "outputs": [{"text": "1 2 3 4\n"}]},
        {"cell_type": "code", "metadata": {"nbgrader": {"solution": True}}, "source": "def f():\n    return 1",
         "outputs": []},
        {"cell_type": "code", "metadata": {"nbgrader": {"solution": True}}, "source": "answer = 3", "outputs": []},
        {"cell_type": "markdown", "metadata": {"nbgrader": {"solution": True}}, "source": "my note " * 100},
        {"cell_type": "code", "metadata": {}, "source": "Quiz((Question('a', ()), Question('b', ())))",
         "outputs": [{"data": {"application/vnd.jupyter.widget-view+json": {}, "text/plain": "VBox"}}]},
        {"cell_type": "code", "metadata": {}, "source": "slider()",
         "outputs": [{"data": {"application/vnd.jupyter.widget-view+json": {}, "text/plain": "VBox"}}]},
        {"cell_type": "code", "metadata": {}, "source": "plot()", "outputs": [{"data": {"image/png": "", "text/plain": "F"}}]},
    ]}
    import json
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "99_t.ipynb"
        path.write_text(json.dumps(notebook), encoding="utf-8")
        counts = notebook_time.walk(path).counts
        assert notebook_time.stated(path) == 5
    assert counts["function exercise"] == 1 and counts["value exercise"] == 1 and counts["written exercise"] == 1
    assert counts["quiz question"] == 2 and counts["widget"] == 1 and counts["chart"] == 1
    assert counts["code line"] == 4, "shown code is read; an exercise's solution and the quiz are not"
    assert counts["prose word"] >= 200 and counts["output word"] == 4
    assert counts["code cell"] == 6
