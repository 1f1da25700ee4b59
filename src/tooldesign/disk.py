"""What a failed write means, and the one piece of advice that can fix it.

A write fails for four reasons a learner can act on, and each needs different advice: a full disk
(free space: ``chmod`` does nothing), a used-up quota (the same, on a shared machine), a file system
mounted read-only (no permission change helps: work in a copy elsewhere) and missing permissions
(``chmod`` helps). Every command of the course that writes (``tooldesign data``, ``workbook
handout``, ``release``, ``execute``, the doctor's write test) says it through :func:`write_advice`,
so the same error never gets two different fixes.
"""

from __future__ import annotations

import errno
import os
import shutil
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

__all__ = [
    "WriteProblem",
    "problem_of",
    "free_bytes",
    "existing_folder",
    "size",
    "tree_bytes",
    "read_only_mount",
    "write_advice",
    "FreeSpace",
    "free_space",
]

COPY_ELSEWHERE = (
    "copy the whole course folder to one you can write (for example cp -r COURSE ~/tool-design-course) "
    "and work in the copy"
)


class WriteProblem(str, Enum):
    FULL = "full"  # ENOSPC: no space left on the device
    QUOTA = "quota"  # EDQUOT: this user's share of the disk is used up
    READ_ONLY = "read-only"  # EROFS: the file system is mounted read-only
    PERMISSION = "permission"  # EACCES, EPERM: the folder or file is not this user's to write
    OTHER = "other"


_BY_ERRNO = {
    errno.ENOSPC: WriteProblem.FULL,
    errno.EROFS: WriteProblem.READ_ONLY,
    errno.EACCES: WriteProblem.PERMISSION,
    errno.EPERM: WriteProblem.PERMISSION,
}
if hasattr(errno, "EDQUOT"):  # not on Windows
    _BY_ERRNO[errno.EDQUOT] = WriteProblem.QUOTA


def problem_of(error: OSError, folder: Path | str | None = None) -> WriteProblem:
    """Which of the four problems ``error`` is; a permission error on a read-only mount is that mount's."""
    problem = _BY_ERRNO.get(error.errno or -1, WriteProblem.OTHER)
    if problem is WriteProblem.PERMISSION and folder is not None and read_only_mount(folder):
        return WriteProblem.READ_ONLY
    return problem


def existing_folder(path: Path | str) -> Path:
    """``path`` or its nearest parent that exists: where a folder still to be made would live."""
    probe = Path(path).absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe if probe.is_dir() else probe.parent


def free_bytes(path: Path | str) -> int | None:
    """Bytes this user may still write on the disk holding ``path``; None when it cannot be asked."""
    try:
        return shutil.disk_usage(existing_folder(path)).free
    except OSError:
        return None


def size(count: int | None) -> str:
    """A byte count as a person reads it: 900 bytes, 12 KB, 3.4 MB, 2.1 GB (powers of 1024)."""
    if count is None:
        return "an unknown amount"
    if count < 1024:
        return f"{count} bytes"
    value = float(count)
    for unit in ("KB", "MB", "GB", "TB"):
        value /= 1024
        if value < 1024 or unit == "TB":
            return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    raise AssertionError("unreachable")


def tree_bytes(*paths: Path) -> int:
    """The bytes of the files under ``paths`` (a file counts itself); caches are left out."""
    total = 0
    for top in paths:
        if top.is_file():
            total += top.stat().st_size
            continue
        for root, folders, files in os.walk(top):
            folders[:] = [f for f in folders if f != "__pycache__"]
            for name in files:
                try:
                    total += os.lstat(os.path.join(root, name)).st_size
                except OSError:
                    pass
    return total


def read_only_mount(folder: Path | str) -> bool:
    """True when ``folder`` (or the nearest existing parent) sits on a file system mounted read-only."""
    try:
        return bool(os.statvfs(existing_folder(folder)).f_flag & os.ST_RDONLY)
    except (AttributeError, OSError):  # Windows has no statvfs
        return False


def write_advice(
    problem: WriteProblem, folder: Path | str, shown: str | None = None, needed: int | None = None
) -> str:
    """What can fix ``problem`` for ``folder`` (shown to the learner as ``shown``), as one clause.

    ``needed`` (bytes) is what the write needs in all, when the caller knows it: a full disk is
    named with what is free and what is needed, so the learner knows how much to clear.
    """
    shown = shown or str(folder)
    if problem in (WriteProblem.FULL, WriteProblem.QUOTA):
        free = free_bytes(folder)
        what = "the disk holding" if problem is WriteProblem.FULL else "your disk quota for"
        need = f", and this needs about {size(needed)}" if needed else ""
        clear = (
            "free some space on that disk (empty the trash, delete old copies, caches or runs)"
            if problem is WriteProblem.FULL
            else "delete files you no longer need, or ask for a larger quota"
        )
        return f"{what} {shown} is full ({size(free)} free{need}); {clear}, then run the command again"
    if problem is WriteProblem.READ_ONLY:
        return f"{shown} is on a read-only file system, where chmod cannot help: {COPY_ELSEWHERE}"
    return f"fix its permissions (chmod -R u+w {shown}) or copy the course to a folder you own and work there"


@dataclass(frozen=True)
class FreeSpace:
    """Free space on one disk, against what the course needs there. ``free`` is None when unknown."""

    folder: Path
    free: int | None
    needed: int

    @property
    def enough(self) -> bool:
        return self.free is None or self.free >= self.needed


def free_space(folder: Path | str, needed: int) -> FreeSpace:
    return FreeSpace(Path(folder), free_bytes(folder), needed)
