"""How the course writes a notebook file: one serialisation, written atomically.

Release, execute, author and the student edition all write notebooks, and the tests compare their
files byte for byte (a learner copy with what release would write now, one handout build with the
next). One serialisation keeps those bytes the same everywhere: nbformat's JSON and a final newline,
as ``nbformat.write`` and JupyterLab save a notebook. Writing through ``tooldesign.atomic`` means
JupyterLab, nbval or the grader reading the file meanwhile sees the old notebook or the new one,
never half of one. Reading stays in ``workbook.release.read_notebook``, whose errors it raises.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

from tooldesign.atomic import write_atomic

__all__ = ["notebook_text", "write_notebook"]


def notebook_text(notebook: nbformat.NotebookNode) -> str:
    """The exact text a notebook file of the course holds."""
    return nbformat.writes(notebook) + "\n"


def write_notebook(path: Path, notebook: nbformat.NotebookNode) -> Path:
    """Write ``notebook`` to ``path`` (whose folder must exist), replacing any file there at once."""
    return write_atomic(Path(path), notebook_text(notebook))
