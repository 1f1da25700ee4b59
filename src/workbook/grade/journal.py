"""The grading journal: one SQLite row per graded file, written the moment the file is graded.

A run that is interrupted (Ctrl-C, a closed laptop, a killed process) loses at most the files
being graded at that moment; started again, it skips every file the journal already holds. The
key is the file's path, the hash of its bytes and the grading context (course code, data, the
notebook's source, hidden checks, settings), so a file that was resubmitted or a course that
changed is graded again, and a file is never counted twice: the key is the table's primary key.
SQLite commits atomically, so a crash mid-write leaves the previous state, never half a row.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from datetime import datetime, timezone
from pathlib import Path

from workbook.grade.results import RETRY, Row

# Rows with these statuses say nothing about the learner's work: they are shown, and graded again next run.
RETRY_TEXT = tuple(status.value for status in RETRY)


def entry_key(file: str, content_sha: str, context: str) -> str:
    return hashlib.sha256(f"{file}\0{content_sha}\0{context}".encode()).hexdigest()


def file_sha(path: Path) -> str:
    """The hash of a file's bytes; a file that cannot be read gets a key of its own (its row says why)."""
    digest = hashlib.sha256()
    try:
        info = os.lstat(path)
        # A link or a special file is never opened (it may block, or lead out).
        if not stat.S_ISREG(info.st_mode):
            return f"not-regular:{stat.S_IFMT(info.st_mode)}:{os.readlink(path) if stat.S_ISLNK(info.st_mode) else ''}"
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as error:
        return f"unreadable:{error.errno}"
    return digest.hexdigest()


class Journal:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS graded (key TEXT PRIMARY KEY, file TEXT NOT NULL, "
            "status TEXT NOT NULL, result TEXT NOT NULL, recorded_at TEXT NOT NULL)"
        )
        self.db.commit()

    def get(self, key: str) -> Row | None:
        row = self.db.execute("SELECT result FROM graded WHERE key = ?", (key,)).fetchone()
        return Row.from_dict(json.loads(row[0])) if row else None

    def done(self, key: str) -> bool:
        row = self.db.execute("SELECT status FROM graded WHERE key = ?", (key,)).fetchone()
        return row is not None and row[0] not in RETRY_TEXT

    def record(self, key: str, result: Row) -> None:
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        data = result.to_dict()
        with self.db:  # one transaction per file: it is there completely or not at all
            self.db.execute(
                "INSERT OR REPLACE INTO graded VALUES (?, ?, ?, ?, ?)",
                (key, result.file, result.status.value, json.dumps(data, sort_keys=True), stamp),
            )

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM graded").fetchone()[0]

    def close(self) -> None:
        self.db.close()
