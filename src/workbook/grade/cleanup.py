"""Removing a kernel's work folder, whatever the learner's code left in it.

``shutil.rmtree`` on Python 3.11 recurses once per folder level, so a notebook that builds 5,000
nested folders makes it raise RecursionError (``ignore_errors`` does not catch that), and a folder
set to mode 000 stops it. This remover walks with a stack of open folder descriptors instead of
recursion: depth costs memory, not stack frames, and no path is ever longer than one name (a tree
far deeper than PATH_MAX is removed too). It never follows a link (a link to the course or to a
loop is removed as the link it is), works on names as bytes (a name that is not UTF-8 is removed
like any other), gives itself back the rights on a folder it cannot read or write, and never
raises: what it could not remove comes back as one sentence for the row's notes.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_MAX_STEPS = 50_000_000  # entries visited in all: a bound, so even a folder refilled while we work ends


def remove_tree(path: Path | str) -> str | None:
    """Remove ``path`` and everything under it. None when it is gone, else why it is not (one line)."""
    try:
        return _remove(os.fsencode(path))
    except BaseException as error:  # the clean-up of one folder must never end a batch
        if isinstance(error, KeyboardInterrupt):
            raise
        return f"the work folder could not be removed ({type(error).__name__}: {error})"


def _remove(path: bytes) -> str | None:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        os.unlink(path)
        return None
    parent, name = os.path.split(path.rstrip(b"/") or b"/")
    top_parent = os.open(parent or b".", _DIR_FLAGS)
    failures: list[str] = []
    try:
        _empty_and_remove(top_parent, name, failures)
    finally:
        os.close(top_parent)
    if failures:
        shown = ", ".join(failures[:3]) + (f" and {len(failures) - 3} more" if len(failures) > 3 else "")
        return f"{len(failures)} entries of the work folder could not be removed ({shown})"
    return None


def _open_dir(parent_fd: int, name: bytes) -> int:
    """Open a folder under ``parent_fd`` without following a link, giving ourselves the rights if need be."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
    except PermissionError:
        # Linux cannot chmod a link itself; the caller saw a folder (lstat), and O_NOFOLLOW checks again.
        os.chmod(name, stat.S_IRWXU, dir_fd=parent_fd)
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)


def _empty_and_remove(top_parent: int, top_name: bytes, failures: list[str]) -> None:
    """Depth first with ONE open folder at a time: going down opens the child and closes the parent,
    coming back up opens ".." (a tree 5,000 deep would need 5,000 descriptors otherwise)."""
    names: list[tuple[bytes, list[bytes]]] = []  # per level: the folder's name, the names still to look at
    fd = _open_dir(top_parent, top_name)
    _writable(fd)
    names.append((top_name, [os.fsencode(n) for n in os.listdir(fd)]))
    steps = 0
    try:
        while names:
            steps += 1
            if steps > _MAX_STEPS:
                failures.append("the folder kept growing while it was removed")
                return
            name, todo = names[-1]
            if todo:
                entry = todo.pop()
                try:
                    info = os.stat(entry, dir_fd=fd, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                except OSError as error:
                    failures.append(_why(entry, error))
                    continue
                if not stat.S_ISDIR(info.st_mode):
                    _unlink_or_note(fd, entry, failures)
                    continue
                try:
                    child = _open_dir(fd, entry)
                except OSError as error:
                    _rmdir_or_note(fd, entry, failures, error)
                    continue
                os.close(fd)
                fd = child
                _writable(fd)
                try:
                    listed = [os.fsencode(n) for n in os.listdir(fd)]
                except OSError as error:
                    failures.append(_why(entry, error))
                    listed = []
                names.append((entry, listed))
                continue
            names.pop()
            if not names:
                break
            parent = os.open(b"..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            _rmdir_or_note(fd, name, failures)
    finally:
        os.close(fd)
    _rmdir_or_note(top_parent, top_name, failures)


def _unlink_or_note(fd: int, name: bytes, failures: list[str]) -> None:
    try:
        os.unlink(name, dir_fd=fd)
    except FileNotFoundError:
        pass
    except OSError as error:
        failures.append(_why(name, error))


def _writable(fd: int) -> None:
    """A folder we cannot write into keeps its entries: give ourselves the rights (it is ours)."""
    try:
        mode = os.fstat(fd).st_mode
        if mode & stat.S_IRWXU != stat.S_IRWXU:
            os.fchmod(fd, stat.S_IMODE(mode) | stat.S_IRWXU)
    except OSError:
        pass


def _rmdir_or_note(parent_fd: int, name: bytes, failures: list[str], cause: OSError | None = None) -> None:
    try:
        os.rmdir(name, dir_fd=parent_fd)
    except FileNotFoundError:
        pass
    except OSError as error:
        if error.errno == errno.ENOTDIR:
            try:
                os.unlink(name, dir_fd=parent_fd)
                return
            except OSError as again:
                error = again
        failures.append(_why(name, cause or error))


def _why(name: bytes, error: OSError) -> str:
    shown = name.decode("utf-8", "backslashreplace")[:40]
    return f"{shown!r}: {error.strerror or type(error).__name__}"
