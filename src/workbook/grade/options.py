"""How one grading run is asked for: every option in one frozen value.

The command line (``workbook grade``), the Gradescope runner and the tests each build one
:class:`GradeOptions` and hand it to ``workbook.grade.batch.grade``; a new option is a field here with
its default, and every caller that does not name it keeps working.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from workbook.grade.kernel import Limits

if TYPE_CHECKING:
    from workbook.grade.results import Row

__all__ = ["GradeOptions"]


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr)


@dataclass(frozen=True)
class GradeOptions:
    """One grading run: where the submissions are, where the results go, and how to grade.

    ``sandbox``: None uses bubblewrap and refuses to run without it; False runs unsandboxed on
    purpose (``--no-sandbox``). ``on_result`` is called after each newly graded file is in the
    journal (the tests use it to interrupt a run); ``context`` replaces the grading-context
    fingerprint (tests pin it). ``edition`` is a student edition built beforehand (the Gradescope
    package carries one); None builds it. ``exports`` names LMS layouts (``workbook.grade.exports``).
    """

    submissions: Path
    out: Path
    jobs: int = 1
    timeout: float = 120
    hidden_checks: Path | None = None
    sandbox: bool | None = None
    progress: bool = True
    on_result: Callable[[Row], None] | None = None
    context: str | None = None
    limits: Limits = Limits()
    edition: Path | None = None
    say: Callable[[str], None] = _to_stderr
    roster: Path | None = None
    hand_grades: Path | None = None
    exports: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Paths given as text (a test, a script) become paths; a list of exports a tuple, so the value stays frozen.
        object.__setattr__(self, "submissions", Path(self.submissions))
        object.__setattr__(self, "out", Path(self.out))
        for name in ("hidden_checks", "edition", "roster", "hand_grades"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, Path(value))
        object.__setattr__(self, "exports", tuple(self.exports))
