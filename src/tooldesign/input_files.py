"""How every command of the course opens a file it was given, and checks a file it will write.

A path typed on a command line can name anything: a folder, a named pipe (reading one waits for a
writer that may never come), ``/dev/zero`` (reading it never ends, and fills the memory), a
socket, a file of many gigabytes. Each command that takes a file (``tooldesign codemode run``,
``workbook check``/``execute``/``author``, a record, a notebook) reads it through
:func:`read_input`, which opens without waiting, refuses anything that is not a regular file in
one line, and never reads more than a stated number of bytes.

A command that writes its result after expensive work (model calls, a grading run) first asks
:func:`check_writable`, so an unwritable path fails before the work, not after it is all spent.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = [
    "InputFileError",
    "check_writable",
    "check_writable_folder",
    "read_input",
    "read_input_text",
    "special_kind",
]

DEFAULT_LIMIT = 64 * 1024 * 1024  # bytes; far above any notebook or program of the course


class InputFileError(ValueError):
    """A file a command was given cannot be used; the message is the one line to show."""


def special_kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    for test, words in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (fifo)"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return None if stat.S_ISREG(mode) else "not a regular file"


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else text[:79] + "…"


def read_input(path: Path | str, *, what: str, limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them, or one line saying why not.

    ``what`` names what the file should be ("a JavaScript file", "a notebook"), for the message.
    The file is opened without blocking (a fifo then opens at once instead of waiting) and looked at
    through the open handle, so what is read is what was checked.
    """
    path = Path(path)
    shown = _shown(path)
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise InputFileError(f"cannot read {shown}: it does not exist; give the path of {what}") from None
    except IsADirectoryError:
        raise InputFileError(f"{shown} is a folder, not a file; give the path of {what}") from None
    except PermissionError:
        raise InputFileError(f"{shown} cannot be read (permission denied); fix its permissions") from None
    except (OSError, ValueError) as error:  # a name too long, a NUL byte, a loop of links
        reason = getattr(error, "strerror", None) or type(error).__name__
        raise InputFileError(f"cannot open {shown} ({reason}); give the path of {what}") from None
    try:
        info = os.fstat(handle)
        kind = special_kind(info.st_mode)
        if kind is not None:
            raise InputFileError(f"{shown} is {kind}, not a file; give the path of {what}")
        if info.st_size > limit:
            raise InputFileError(
                f"{shown} holds {info.st_size:,} bytes, more than the {limit:,} {what} may have"
            )
        chunks, total = [], 0
        while total <= limit:  # a file that grows while it is read is cut off here all the same
            chunk = os.read(handle, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise InputFileError(f"{shown} holds more than the {limit:,} bytes {what} may have")
        return b"".join(chunks)
    except OSError as error:
        raise InputFileError(f"cannot read {shown} ({error.strerror or type(error).__name__})") from None
    finally:
        os.close(handle)


def read_input_text(path: Path | str, *, what: str, limit: int = DEFAULT_LIMIT) -> str:
    """:func:`read_input` as UTF-8 text; a byte-order mark at the start is dropped (editors add one)."""
    raw = read_input(path, what=what, limit=limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputFileError(
            f"{_shown(Path(path))} is not UTF-8 text (byte {error.start}); give the path of {what}"
        ) from None


def check_writable(path: Path | str, *, what: str = "the result") -> None:
    """Refuse, before any work, a file path the result could not be written to later.

    The path must not be a folder or a special file, nor an existing file that cannot be written;
    its folder (or, where that is still to be made, the nearest folder above it that exists) must
    take a new file. That is tried with a temporary file, removed at once: the only test that
    agrees with what the write will meet (permissions, a read-only disk, a full quota).
    """
    path = Path(path)
    shown = _shown(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise InputFileError(f"cannot write {what} to {shown} ({error.strerror})") from None
    if info is not None:
        kind = special_kind(info.st_mode)
        if kind is not None:
            raise InputFileError(f"{shown} is {kind}; give a file name for {what}")
        if not os.access(path, os.W_OK):
            raise InputFileError(f"{shown} cannot be written (permission denied); choose another file name")
    _try_folder(path.parent if str(path.parent) else Path("."), shown, what)


def check_writable_folder(folder: Path | str, *, what: str = "the results") -> None:
    """Refuse, before any work, a folder the results could not be written into later (see above)."""
    folder = Path(folder)
    shown = _shown(folder)
    if folder.exists() and not folder.is_dir():
        raise InputFileError(f"{shown} is not a folder; give a folder for {what}")
    _try_folder(folder, shown, what)


def _try_folder(folder: Path, shown: str, what: str) -> None:
    existing = folder.absolute()
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent  # a folder still to be made: its nearest existing parent must take it
    if not existing.is_dir():
        raise InputFileError(f"cannot write {what} to {shown}: {_shown(existing)} is not a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".writable-", delete=True):
            pass
    except OSError as error:
        raise InputFileError(
            f"cannot write {what} to {shown} ({error.strerror or type(error).__name__}); "
            "choose a folder you can write to"
        ) from None
