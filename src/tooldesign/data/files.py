"""Writing data files so that a rebuild is byte-identical on every platform, and checking them on load.

Every folder the builder writes gets a ``MANIFEST.json``: each file's size, SHA-256, columns and row
count. Loaders check a file against it before reading, so a truncated CSV, an empty row or a
half-written JSON file is reported as "data/... is damaged; run make data" instead of quietly
answering "order 4711 does not exist". The check is memoised per process and file state (mtime,
size), so a notebook that loads the same table a hundred times hashes it once.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from tooldesign import DATA_DIR, REPO_ROOT
from tooldesign.atomic import write_atomic

MANIFEST = "MANIFEST.json"
REBUILD = "run make data (or: .venv/bin/tooldesign data)"


class DataDirError(RuntimeError):
    """The data folder cannot be written; the message says what to do."""


class DataError(RuntimeError):
    """A data file is missing or damaged; the message is one line with the fix."""


class DataMissing(DataError, FileNotFoundError):
    """A data file (or its folder's manifest) is not there."""


class DataDamaged(DataError, ValueError):
    """A data file is there but not what the builder wrote."""


def shown_path(path: Path) -> str:
    """A path as the learner knows it: relative to the course folder when it is inside."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


# ---------- writing ----------


def read_only_mount(folder: Path) -> bool:
    """True when ``folder`` (or the nearest existing parent) sits on a file system mounted read-only."""
    from tooldesign import disk

    return disk.read_only_mount(folder)


def writable_advice(folder: Path, read_only: bool = False) -> str:
    """What can actually fix an unwritable folder: on a read-only mount no chmod helps, a copy does.

    ``read_only`` says the caller already knows (an EROFS error) without asking the file system again.
    """
    from tooldesign.disk import WriteProblem, write_advice

    read_only = read_only or read_only_mount(folder)
    problem = WriteProblem.READ_ONLY if read_only else WriteProblem.PERMISSION
    return write_advice(problem, folder, shown_path(folder))


# What the data needs on disk, rounded up: the built tables are 60,394 bytes (5 December 2026), and a
# file being replaced is on disk twice for a moment.
DATA_BYTES = 256 * 1024


def _write_failed(error: OSError, path: Path, doing: str) -> DataDirError:
    """One line for a write under data/ that failed: a full disk is named with what it needs; a
    read-only one and a permission refused each get the advice that can fix them, never both."""
    from tooldesign.disk import WriteProblem, problem_of, write_advice

    folder = path if path.is_dir() else path.parent
    problem = problem_of(error, folder)
    if problem is WriteProblem.OTHER:
        problem = WriteProblem.READ_ONLY if read_only_mount(folder) else WriteProblem.PERMISSION
    advice = write_advice(problem, folder, shown_path(folder), DATA_BYTES)
    if problem in (WriteProblem.FULL, WriteProblem.QUOTA):
        advice += f" ({REBUILD})"
    return DataDirError(f"cannot {doing} {shown_path(path)} ({error.strerror or error}); {advice}")


def ensure_writable(folder: Path) -> None:
    """Create ``folder`` or explain in one line why it cannot be used."""
    blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise DataDirError(
            f"{shown_path(blocker)} is a file where a folder should be; move it away, then {REBUILD}"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _write_failed(error, folder, "create") from None
    if not os.access(folder, os.W_OK) or read_only_mount(folder):
        raise DataDirError(f"{shown_path(folder)} is not writable; {writable_advice(folder)}")


def write_text(path: Path, text: str) -> Path:
    """Write a data file atomically (``tooldesign.atomic``), or say in one line what stops it.

    A notebook reading the data while another rebuilds it never sees half a file.
    """
    ensure_writable(path.parent)
    if path.is_dir():  # no permission fixes this: the name is taken by a folder
        raise DataDirError(
            f"{shown_path(path)} is a folder where a file should be; move it away, then {REBUILD}"
        )
    try:
        return write_atomic(path, text)
    except OSError as error:
        raise _write_failed(error, path, "write") from None


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    """Write a CSV whose cells are already formatted strings, so no library decides how floats look."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
    return write_text(path, buffer.getvalue())


def money(value: float) -> str:
    """Amounts as SAP's OData API writes them: a string with two decimals."""
    return f"{value:.2f}"


# ---------- the manifest ----------


def _content(path: Path) -> bytes:
    # A Windows checkout may turn \n into \r\n; the data is the same, so the check ignores it.
    return path.read_bytes().replace(b"\r\n", b"\n")


def _shape(path: Path, data: bytes) -> dict[str, Any]:
    """Columns and rows of a CSV, or rows of a JSON list: what a reader expects to find."""
    text = data.decode("utf-8")
    if path.suffix == ".csv":
        table = list(csv.reader(io.StringIO(text)))
        return {"columns": table[0] if table else [], "rows": max(len(table) - 1, 0)}
    value = json.loads(text)
    return {"rows": len(value) if isinstance(value, list) else 1}


def write_manifest(folder: Path, paths: Sequence[Path]) -> Path:
    """Record what the builder just wrote in ``folder``: the reference every later load is checked against."""
    files = {}
    for path in sorted(paths, key=lambda p: p.name):
        data = _content(path)
        files[path.name] = {
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            **_shape(path, data),
        }
    about = "Written by the data builder (make data); every loader checks its file against this record."
    # One line per file, so a rebuild that changes one file changes one line of the diff.
    lines = [f" {json.dumps(name)}: {json.dumps(entry, ensure_ascii=False)}" for name, entry in files.items()]
    text = (
        "{\n"
        + f' "about": {json.dumps(about)},\n "files": {{\n'
        + ",\n".join(" " + line for line in lines)
        + "\n }\n}\n"
    )
    return write_text(Path(folder) / MANIFEST, text)


def _state(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


_VERIFIED: dict[tuple, dict[str, Any]] = {}


def verified(path: Path, columns: Sequence[str] | None = None) -> Path:
    """``path`` if it is what the builder wrote; otherwise DataMissing or DataDamaged, one line with the fix.

    Memoised on (path, its mtime and size, the manifest's mtime and size): an unchanged file is
    hashed once per process, a rewritten one again.
    """
    path = Path(path)
    manifest = path.parent / MANIFEST
    state, manifest_state = _state(path), _state(manifest)
    if state is None:
        raise DataMissing(f"{shown_path(path)} is missing; {REBUILD}")
    if manifest_state is None:
        raise DataMissing(
            f"{shown_path(manifest)} is missing, so {shown_path(path)} cannot be checked; {REBUILD}"
        )
    key = (str(path), state, manifest_state)
    if key not in _VERIFIED:
        _VERIFIED[key] = _check(path, manifest)
    expected = _VERIFIED[key]
    if columns is not None and list(expected.get("columns", columns)) != list(columns):
        raise DataDamaged(
            f"{shown_path(path)} has other columns than this version of the course reads; {REBUILD}"
        )
    return path


def _entry(path: Path, manifest: Path) -> dict[str, Any]:
    """The manifest's record of ``path``, checked for shape: a manifest is a file that can be damaged too."""
    try:
        entry = json.loads(manifest.read_text(encoding="utf-8"))["files"][path.name]
        sound = (
            isinstance(entry, dict)
            and type(entry.get("bytes")) is int
            and entry["bytes"] >= 0
            and isinstance(entry.get("sha256"), str)
            and len(entry["sha256"]) == 64
            and isinstance(entry.get("columns", []), list)
            and all(isinstance(c, str) for c in entry.get("columns", []))
            and type(entry.get("rows", 0)) is int
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        sound = False
    if not sound:
        raise DataDamaged(f"{shown_path(manifest)} is damaged or does not list {path.name}; {REBUILD}")
    return entry


def _readable(path: Path) -> bytes:
    """The file's bytes, or one line saying why they cannot be read (a folder in its place, no permission)."""
    if path.is_dir():
        raise DataDamaged(
            f"{shown_path(path)} is a folder where a data file should be; move it away, then {REBUILD}"
        )
    try:
        return _content(path)
    except PermissionError:
        raise DataDamaged(
            f"{shown_path(path)} cannot be read (permission denied); fix its permissions "
            f"(chmod u+r {shown_path(path)}) or {REBUILD}"
        ) from None
    except OSError as error:
        raise DataDamaged(
            f"{shown_path(path)} cannot be read ({error.strerror or type(error).__name__}); {REBUILD}"
        ) from None


def _check(path: Path, manifest: Path) -> dict[str, Any]:
    entry = _entry(path, manifest)
    want_bytes, want_sha = entry["bytes"], entry["sha256"]
    data = _readable(path)
    if len(data) != want_bytes:
        raise DataDamaged(
            f"{shown_path(path)} is damaged ({len(data):,} bytes, the builder wrote "
            f"{want_bytes:,}); {REBUILD}"
        )
    if hashlib.sha256(data).hexdigest() != want_sha:
        raise DataDamaged(
            f"{shown_path(path)} is damaged (its contents differ from what the builder wrote); {REBUILD}"
        )
    return entry


def problems(folder: Path, names: Sequence[str]) -> list[str]:
    """One line per listed file of ``folder`` that is missing or damaged; empty when all are sound."""
    found = []
    for name in names:
        try:
            verified(Path(folder) / name)
        except DataError as error:
            found.append(str(error))
    return found


# ---------- a data error that escapes a command line is one line, not a traceback ----------


def _missing_course_file(value: BaseException) -> str | None:
    """The one-line message for a file under data/ that a loader without its own check could not open."""
    if not isinstance(value, FileNotFoundError) or not value.filename:
        return None
    try:
        inside = Path(value.filename).resolve().is_relative_to(DATA_DIR.resolve())
    except (OSError, ValueError, TypeError):
        return None
    if not inside:
        return None
    # The built tables report themselves (DataMissing); what reaches here is a recorded file, kept in git.
    shown = shown_path(Path(value.filename))
    return f"{shown} is missing; restore it from git (git checkout -- {shown}), or {REBUILD} for the tables"


def data_error_line(value: BaseException) -> str | None:
    """The one-line message for an error about the course's data, or None for any other error.

    The course's command lines (tooldesign.command_line.run) and the hook below both say it this way.
    """
    if isinstance(value, (DataError, DataDirError)):
        return str(value)
    return _missing_course_file(value)


def _one_line(previous: Any) -> Any:
    def hook(kind: type[BaseException], value: BaseException, trace: Any) -> None:
        line = data_error_line(value)
        if line is None:
            previous(kind, value, trace)
        else:
            print(f"error: {line}", file=sys.stderr)

    hook.course_one_line = True  # type: ignore[attr-defined]
    return hook


# Any script that loads course data (python -m tooldesign.codemode, the scale modules, your own) gets
# the fix in one line; notebooks and pytest show errors their own way and never reach this hook.
if not getattr(sys.excepthook, "course_one_line", False):
    sys.excepthook = _one_line(sys.excepthook)
