"""Run notebooks with nbclient: to store a solution's outputs, or to check a learner's copy.

Both run in a fresh kernel of this Python, from the notebook's own folder, the way JupyterLab
runs them. A learner's notebook is executed as a copy in memory; the file is never written. A check
prints verdicts, never pictures, so its kernel draws none (``tooldesign.figures``).
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from tooldesign.figures import OFF, PICTURES
from workbook.checks import unwrapped
from workbook.notebook_files import write_notebook
from workbook.release import ReleaseError, read_notebook

KERNEL = "python3"
# A hint goes on over indented lines (workbook.checks.wrapped): they belong to its message.
_VERDICT = re.compile(r"^(✔|✘|…) ([\w.-]+): (.*(?:\n  \S.*)*)$", re.MULTILINE)


def run_notebook(
    notebook: nbformat.NotebookNode,
    folder: Path,
    timeout: int = 120,
    allow_errors: bool = False,
    pictures: bool = True,
) -> nbformat.NotebookNode:
    """Execute ``notebook`` in place from ``folder``; ``pictures=False`` when nobody will look at its
    plots (a check): they are built but not drawn, which is most of some lessons' time."""
    kernel = {} if pictures else {"env": {**os.environ, PICTURES: OFF}}
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name=KERNEL,
        allow_errors=allow_errors,
        resources={"metadata": {"path": str(folder)}},
        # Every output is in hand when the last cell has run: the kernel (and its process group) is
        # stopped at once rather than asked to tidy up, which after the SDKs' imports took up to 0.8 s
        # of every `make check`.
        shutdown_kernel="immediate",
    )
    # The kernel's own stderr would reach the learner's terminal: stopped after a failing cell, ipykernel
    # can log its closed sockets with a traceback. What a cell writes to stderr still arrives as output.
    client.execute(stderr=subprocess.DEVNULL, **kernel)
    return notebook


def execute_in_place(path: Path, timeout: int = 120) -> None:
    """Execute a solution notebook top to bottom and store its outputs (used when authoring)."""
    notebook = read_notebook(path)
    try:
        run_notebook(notebook, path.parent, timeout)
    except CellExecutionError as error:
        where = next(
            (
                f"cell {n}"
                for n, cell in enumerate(notebook.cells, start=1)
                if any(o.get("output_type") == "error" for o in cell.get("outputs", []))
            ),
            "a cell",
        )
        detail = " ".join(f"{error.ename}: {error.evalue}".split())[:200]
        raise ReleaseError(
            f"{path.name} failed while running {where} ({detail}); nothing was saved"
        ) from None
    except Exception as error:  # a timeout or a kernel that died
        detail = " ".join(str(error).split())[:200]
        raise ReleaseError(
            f"{path.name} could not be run ({type(error).__name__}: {detail}); nothing was saved"
        ) from None
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    write_notebook(path, notebook)


@dataclass(frozen=True)
class CheckLine:
    grade_id: str
    symbol: str
    message: str


def verdict_lines(notebook: nbformat.NotebookNode) -> list[CheckLine]:
    """The verdict lines the check cells printed, in notebook order."""
    found = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            text = output.get("text", "") if output.get("output_type") == "stream" else ""
            found += [
                CheckLine(m.group(2), m.group(1), unwrapped(m.group(3))) for m in _VERDICT.finditer(text)
            ]
    return found


def errors(notebook: nbformat.NotebookNode) -> list[str]:
    """One line per cell that raised: where and what."""
    found = []
    for number, cell in enumerate(notebook.cells, start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                found.append(f"cell {number}: {output.get('ename')}: {output.get('evalue')}")
    return found
