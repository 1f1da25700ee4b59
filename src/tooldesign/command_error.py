"""The one error a course command ends with on purpose: a mistake the person at the keyboard can fix.

It imports nothing of the course, so the modules ``tooldesign.command_line`` runs (atomic writes, the
data files, the selection settings) can raise it without importing the command line back.
"""

from __future__ import annotations

__all__ = ["CommandError"]


class CommandError(Exception):
    """A mistake the person at the keyboard can fix, said in one line; the command ends with ``status``."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status
