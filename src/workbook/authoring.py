"""Turn a plain-text lesson script into a solution notebook with nbgrader metadata.

Authors may write a lesson in JupyterLab directly; this is the other route, handy for long
lessons and reviews. The script is split at ``# %%`` lines:

    # %% [markdown]          a markdown cell; each line's leading "# " is removed
    # %%                     a code cell
    # %% answer GRADE_ID     an exercise's answer cell (holds ### BEGIN/END SOLUTION)
    # %% check GRADE_ID      its check cell, locked, worth the exercise's points
    # %% [markdown] manual GRADE_ID   a hand-graded written answer (solution region inside)

Points come from the exercise definitions in ``workbook.exercises``, so they live in one place.
Run ``.venv/bin/workbook author lesson.py solutions/NN_name.ipynb`` and then
``.venv/bin/workbook execute NN`` to store the outputs.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from tooldesign.input_files import InputFileError, read_input_text
from workbook.exercises import get_exercise
from workbook.notebook_files import write_notebook

_HEADER = re.compile(r"^# %%(?: \[(markdown)\])?(?: (answer|check|manual) ([\w.-]+))?\s*$")
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def _nbgrader(grade_id: str, *, grade: bool, solution: bool, locked: bool, points: int | None = None) -> dict:
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def _cell(
    kind: str | None, role: str | None, grade_id: str | None, lines: list[str]
) -> nbformat.NotebookNode:
    text = "\n".join(lines).strip("\n")
    if kind == "markdown":
        text = "\n".join(
            line[2:] if line.startswith("# ") else line.lstrip("#") for line in text.splitlines()
        )
        cell = nbformat.v4.new_markdown_cell(text)
    else:
        cell = nbformat.v4.new_code_cell(text)
    if role is None:
        return cell
    assert grade_id is not None, "_HEADER captures a role together with its id"
    if role == "answer":
        cell.metadata.update(_nbgrader(grade_id, grade=False, solution=True, locked=False))
    elif role == "check":
        exercise = get_exercise(grade_id)
        # a prediction's check is a locked cell worth nothing, not a grade cell
        cell.metadata.update(
            _nbgrader(
                f"{grade_id}-check",
                grade=exercise.scored,
                solution=False,
                locked=True,
                points=exercise.points if exercise.scored else None,
            )
        )
        cell.metadata.update({"editable": False, "deletable": False})
    elif role == "manual":
        cell.metadata.update(
            _nbgrader(grade_id, grade=True, solution=True, locked=False, points=get_exercise(grade_id).points)
        )
    return cell


def notebook_from_script(text: str) -> nbformat.NotebookNode:
    cells: list[nbformat.NotebookNode] = []
    current: tuple[str | None, str | None, str | None] | None = None
    lines: list[str] = []
    for line in text.splitlines():
        match = _HEADER.match(line)
        if match:
            if current is not None:
                cells.append(_cell(*current, lines))
            current, lines = (match[1], match[2], match[3]), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        cells.append(_cell(*current, lines))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata.update({"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    for number, cell in enumerate(notebook.cells, start=1):
        cell.id = f"c{number:03d}"
    return notebook


class ScriptError(ValueError):
    """A file that is not a lesson script; the message says what one looks like."""


def author(script: Path, target: Path) -> Path:
    try:
        text = read_input_text(script, what="a lesson script with # %% cells (UTF-8 text)")
    except InputFileError as error:
        raise ScriptError(str(error)) from None
    if script.suffix == ".ipynb":
        raise ScriptError(
            f"{script} is a notebook already; author turns a lesson script (# %% cells) into one"
        )
    notebook = notebook_from_script(text)
    if not notebook.cells:
        raise ScriptError(
            f"{script} has no '# %%' line, so no cell; start each cell of a lesson script with one "
            "(docs/AUTHORING.md)"
        )
    nbformat.validate(notebook)
    return write_notebook(target, notebook)
