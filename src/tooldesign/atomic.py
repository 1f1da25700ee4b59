"""Writing so that no reader ever sees half of it, one writer at a time: the course's one home for it.

* :func:`write_atomic`: a text file goes to a hidden file beside the target, which is then renamed
  over it (``os.replace`` is atomic on every platform Python runs on). A notebook that loads data
  while ``make data`` rebuilds it, a spreadsheet that opens the gradebook while the grader finishes,
  JupyterLab reloading a notebook that ``workbook execute`` is storing: each reads the old file or
  the new one, never a mixture. Lines end in ``\\n`` on every platform, so a rebuild gives the same
  bytes everywhere. ``overwrite=False`` never replaces an existing file, even one that appears while
  the text is written (a record of a model run is never overwritten).
* :func:`write_lock`: one writer per place. A second ``workbook handout`` into the same folder, a
  second ``release`` of the same notebooks, is refused in one line naming the run that holds it,
  instead of both writing and one ending in a raw OSError. The lock is the operating system's own
  (``fcntl.flock``, ``msvcrt.locking`` on Windows) on a small file holding the holder's process id:
  the system lets go of it when the process ends however it ends, so a lock file left by a killed
  run is stale by construction and the next run takes it over.
* :func:`stop_on_signals`: SIGTERM and SIGHUP (a closed terminal, ``kill``, a scheduler's time
  limit) end a Python process without running any ``finally``; inside this block they raise
  :class:`Stopped` where the program is, like Ctrl+C raises KeyboardInterrupt, so the cleanup of
  whatever was half written runs, and the command ends with exit code 128 + the signal's number.
* :func:`write_folder`: a whole folder (the student edition) built hidden beside its place and
  renamed into place when complete, under the lock and the signal handling above; a build that
  fails or is stopped leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import sys
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from tooldesign.command_error import CommandError

__all__ = [
    "write_atomic",
    "Stopped",
    "stop_on_signals",
    "Busy",
    "write_lock",
    "lock_file",
    "FolderRefused",
    "write_folder",
    "BUSY",
]

BUSY = 75  # exit code of a command refused because another run holds its place (sysexits' EX_TEMPFAIL)
PARTIAL = ".partial-"  # hidden folders being built are named .NAME.partial-XXXXXX beside NAME
LOCK_SUFFIX = ".writing.lock"


def write_atomic(path: Path, text: str, *, overwrite: bool = True) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line endings) to ``path`` by renaming a finished copy over it.

    The folder must exist. With ``overwrite=False`` an existing ``path`` is never replaced
    (FileExistsError): the finished copy is linked into place, which fails rather than replaces.
    On any failure, a signal or Ctrl+C included, the partial copy is removed and the error raised,
    for the caller to turn into a message that says what to do.
    """
    path = Path(path)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with open(partial, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        if overwrite:
            os.replace(partial, path)
        else:
            _link_new(partial, path)
            partial.unlink()
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise
    return path


def _link_new(partial: Path, path: Path) -> None:
    """Put ``partial`` at ``path`` only if no file is there: a hard link is atomic and refuses an
    existing name on every platform."""
    try:
        os.link(partial, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links (FAT, some shares): claim the name, then replace
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        os.replace(partial, path)


# ---------- signals ----------


class Stopped(BaseException):
    """A signal asked the command to stop. A BaseException, like KeyboardInterrupt, so no ``except
    Exception`` swallows it and every ``finally`` on the way out runs."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(f"stopped by {self.name}")

    @property
    def status(self) -> int:
        return 128 + self.signum  # what a shell reports for a process the signal ended


def _stop_signals() -> list[int]:
    wanted = ("SIGINT", "SIGTERM", "SIGHUP")
    return [getattr(signal, name) for name in wanted if hasattr(signal, name)]


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Inside the block SIGTERM and SIGHUP raise :class:`Stopped`, SIGINT KeyboardInterrupt.

    Only the first signal raises: one that arrives while the cleanup runs is let pass, so a second
    Ctrl+C cannot leave half a cleanup. Outside the main thread (where Python cannot set handlers)
    the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping: list[int] = []

    def handler(signum: int, frame: object) -> None:
        if stopping:
            return
        stopping.append(signum)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)

    previous = {number: signal.signal(number, handler) for number in _stop_signals()}
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


# ---------- one writer at a time ----------


class Busy(CommandError):
    """Another run holds the place this command writes; one line naming it. Exit code :data:`BUSY`."""

    def __init__(self, message: str) -> None:
        super().__init__(message, status=BUSY)


def lock_file(place: Path) -> Path:
    """Where the lock of ``place`` lives: inside it when it is a folder that exists, else beside it."""
    place = Path(place)
    if place.is_dir():
        return place / LOCK_SUFFIX
    return place.with_name(f".{place.name}{LOCK_SUFFIX}")


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else text[:79] + "…"


def _try_lock(handle: int) -> bool:
    """Take the system's lock on the open file without waiting; False when another process has it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
        except OSError:  # Windows says a byte locked by another process this way (EACCES, EDEADLOCK)
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks (some network shares): the holder's pid decides
        return not _holder_alive(handle)
    return True


def _holder_alive(handle: int) -> bool:
    """Whether the process whose id the lock file holds still runs (not this one)."""
    try:
        os.lseek(handle, 0, os.SEEK_SET)
        pid = int(json.loads(os.read(handle, 4096).decode("utf-8"))["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return False  # empty or unreadable: no run wrote it whole, so none holds it
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)  # signal 0 asks only whether the process exists
    except ProcessLookupError:
        return False
    except OSError:  # it exists, under another user
        return True
    return True


def _holder(lock: Path) -> str:
    """Who holds ``lock``, from what it wrote there: "`workbook handout` (process 123, since 10:02)"."""
    try:
        about = json.loads(lock.read_text(encoding="utf-8"))
        return f"`{about['command']}` (process {int(about['pid'])}, since {about['since']})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another run"


def _acquire(lock: Path, command: str, shown: str) -> int:
    while True:
        handle = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        try:
            if not _try_lock(handle):
                raise Busy(f"{_holder(lock)} is writing {shown} now; wait until it ends, then run this again")
            try:  # the last holder may have removed the file between our open and our lock: try again
                same = os.stat(lock).st_ino == os.fstat(handle).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(handle)
                continue
            since = datetime.now().strftime("%H:%M:%S")
            about = json.dumps({"pid": os.getpid(), "command": command, "since": since}) + "\n"
            os.ftruncate(handle, 0)
            os.lseek(handle, 0, os.SEEK_SET)
            os.write(handle, about.encode("utf-8"))
            return handle
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(handle)
            raise


@contextlib.contextmanager
def write_lock(place: Path | str, command: str) -> Iterator[Path]:
    """Hold the lock of ``place`` (a folder or a file this command writes) for the block; yield the lock file.

    Raises :class:`Busy` when another process holds it. A lock file nobody holds (its run was killed)
    is taken over. The folder the lock goes in is made if missing.
    """
    place = Path(place)
    lock = lock_file(place)
    lock.parent.mkdir(parents=True, exist_ok=True)
    handle = _acquire(lock, command, _shown(place))
    try:
        yield lock
    finally:
        if sys.platform == "win32":  # Windows removes no open file
            os.close(handle)
            with contextlib.suppress(OSError):
                lock.unlink()
        else:
            with contextlib.suppress(OSError):
                lock.unlink()
            os.close(handle)


# ---------- a whole folder ----------


class FolderRefused(CommandError):
    """The folder given cannot take what the command writes; the message says what to give instead."""


def _empty(folder: Path, keep: Path) -> None:
    for entry in folder.iterdir():
        if entry == keep:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                entry.unlink()


def _remove_stale_builds(target: Path) -> None:
    """Hidden half-built folders of ``target`` that a killed run left; only called under its lock, so
    none of them belongs to a run still going."""
    for stale in target.parent.glob(f".{target.name}{PARTIAL}*"):
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)


@contextlib.contextmanager
def write_folder(target: Path | str, *, command: str, what: str) -> Iterator[Path]:
    """Yield the folder to write ``what`` (e.g. "the student edition") into, for ``target``.

    ``target`` must be absent or an empty folder; anything else is :class:`FolderRefused`. An absent
    one is built hidden beside its place (``.NAME.partial-XXXXXX``) and renamed into place when the
    block ends; an empty one someone made (a mount, the shell's current folder) is filled and kept.
    Either way the block runs under :func:`write_lock` and :func:`stop_on_signals`, and a block that
    raises, or is stopped by a signal or Ctrl+C, leaves ``target`` as it was: absent, or empty.
    """
    given = Path(target)
    target = given.resolve()
    if target.exists() and not target.is_dir():
        raise FolderRefused(f"{_shown(given)} is a file; give a new, empty folder for {what}")
    with stop_on_signals(), write_lock(target, command) as lock:
        fresh = not target.is_dir()
        if not fresh and any(entry != lock for entry in target.iterdir()):
            raise FolderRefused(
                f"{_shown(given)} is not empty; give a new folder, so nothing in it is overwritten"
            )
        where = target
        if fresh:
            _remove_stale_builds(target)
            where = target.with_name(f".{target.name}{PARTIAL}{secrets.token_hex(3)}")
            where.mkdir()
        try:
            yield where
            if fresh:
                where.rename(target)
        except BaseException:
            if fresh:
                shutil.rmtree(where, ignore_errors=True)
            else:
                _empty(target, keep=lock)  # it was empty, so all in it is this build's
            raise
