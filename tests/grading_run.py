"""One real grading run without the sandbox, for the tamper tests that must see what the grader itself
concludes: its scratch folders go to a private temporary folder, removed afterwards."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from workbook.grade import GradeOptions, grade
from workbook.grade.kernel import Limits


@contextmanager
def private_grade_tmp(prefix: str = "wbg") -> Iterator[Path]:
    """WORKBOOK_GRADE_TMP set to a fresh folder for the block, restored and the folder removed after."""
    work = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    old = os.environ.get("WORKBOOK_GRADE_TMP")
    os.environ["WORKBOOK_GRADE_TMP"] = str(work)
    try:
        yield work
    finally:
        if old is None:
            os.environ.pop("WORKBOOK_GRADE_TMP")
        else:
            os.environ["WORKBOOK_GRADE_TMP"] = old
        shutil.rmtree(work, ignore_errors=True)


def path_without_bwrap(folder: Path) -> str:
    """A PATH holding bash and env alone, so the grader finds no bubblewrap (as on most laptops)."""
    folder.mkdir()
    for name in ("bash", "env"):
        found = next(Path(d) / name for d in os.environ["PATH"].split(os.pathsep) if (Path(d) / name).exists())
        (folder / name).symlink_to(found)
    return str(folder)


def grade_unsandboxed(submissions: Path, out: Path, prefix: str = "wbg"):
    """The grader's report on ``submissions`` (one job, no sandbox), its gradebook written to ``out``."""
    with private_grade_tmp(prefix):
        return grade(GradeOptions(submissions, out, jobs=1, timeout=120, progress=False, sandbox=False,
                     limits=Limits(memory=1024 << 20, disk=64 << 20), say=lambda text: None))
