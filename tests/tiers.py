"""Which tier a test module belongs to: `make test-quick` runs the quick one, `make test` both."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

# A test module that starts a kernel, a grading run, a course command in a subprocess, a whole
# recording run (`record --provider`, hundreds of requests to a fake model server), the student
# edition or the linters belongs to the slow tier; `make test-quick` runs the rest (-m "not slow"),
# `make test` runs both. The rule reads the module's source, so a new kernel test joins the slow tier
# without anyone listing it.
SLOW_SOURCE = re.compile(
    r"run_notebook|GradeOptions|nbclient|KernelManager|make_copy|NotebookClient|grade_unsandboxed"
    r"|subprocess|student_edition|handout import build|--nbval|\"record\", \"--provider\""
)


@cache
def is_slow_module(path: Path) -> bool:
    """Whether the test module at ``path`` is in the slow tier (a solution notebook under nbval always is)."""
    if path.suffix == ".ipynb":
        return True
    try:
        return bool(SLOW_SOURCE.search(path.read_text(encoding="utf-8")))
    except OSError:
        return True


def slow_first(items: list) -> None:
    """Put the slow tier's tests first, in place; each module stays whole and in its own order.

    With `-n 2 --dist loadfile` the workers start on the long modules and the many short ones fill
    the gaps at the end, instead of one worker finishing a grading run alone while the other waits.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
