"""Writing a text file so that no reader ever sees half of it: the course's one atomic writer.

The text goes to a hidden file beside the target, which is then renamed over it (``os.replace`` is
atomic on every platform Python runs on). A notebook that loads data while ``make data`` rebuilds
it, a spreadsheet that opens the gradebook while the grader finishes, JupyterLab reloading a
notebook that ``workbook execute`` is storing: each reads the old file or the new one, never a
mixture. Lines end in ``\\n`` on every platform, so a rebuild gives the same bytes everywhere.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: Path, text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line endings) to ``path`` by renaming a finished copy over it.

    The folder must exist. On failure the partial copy is removed and the OSError is raised, for
    the caller to turn into a message that says what to do.
    """
    path = Path(path)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with open(partial, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(partial, path)
    except OSError:
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass
        raise
    return path
