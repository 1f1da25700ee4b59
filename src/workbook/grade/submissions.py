"""Finding the submissions, telling whose and which notebook each one is, reading its answer cells.

Layout (documented in the README's instructor section):

    SUBMISSIONS/<learner>/<notebook>.ipynb          one folder per learner (any depth below it, so
    SUBMISSIONS/<learner>/<assignment>/<nb>.ipynb   nbgrader's submitted/ folder works as it is)
    SUBMISSIONS/<learner>_<notebook>.ipynb          flat: the learner is what comes before the name
    SUBMISSIONS/<lastfirst>_[LATE_]<user id>_<submission id>_<file>[-N].ipynb
                                                    Canvas's "Download Submissions" zip, unpacked
    SUBMISSIONS/<Full Name>_<id>_assignsubmission_file_/<file>.ipynb
                                                    Moodle's "Download all submissions" (in folders)

Canvas and Moodle downloads are recognised by their names (see :func:`lms_identity`), and each
learner gets one key (``lastfirst_123456``, ``firstname-lastname_1234``: the LMS's own id makes
it unique, and it is its own feedback file name), so a resubmission is never a second learner. Of
several files of one learner for one notebook from an LMS download, only the latest is graded
(:func:`keep_latest`); the others are reported as superseded.

The notebook is named by the file: its stem ("02_coldchain_data"), a name that contains it
("02_coldchain_data (1)", "alice_02_coldchain_data") or its number ("02", "lab-02"). A name that
says nothing is recognised by the exercise cells inside. Every other file in a learner's folder
is a submission too (it gets a row "not a notebook"); hidden files, ``.ipynb_checkpoints`` and
the output folder are skipped.

From a submission the grader reads only one thing: the source of each cell that carries an
nbgrader ``grade_id``. Outputs, metadata, kernelspec and every other cell are never used.

Only regular files are read. A symbolic link (to solutions/, say), a device, a fifo or a socket
inside the submissions folder is refused with a row that says so: it is never followed or opened,
and a linked folder is not walked into. The file is opened without following links and checked
again on the open handle, so swapping it for a link at the last moment changes nothing.
"""

from __future__ import annotations

import json
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

MAX_BYTES = 64 << 20  # a notebook is a few hundred KB; anything this big is not a course notebook
SKIP = (".ipynb_checkpoints", "__MACOSX", "__pycache__")


class NotANotebook(ValueError):
    """The file cannot be read as a Jupyter notebook; the message says why and what to do."""


class Refused(ValueError):
    """Not a regular file (a link, a device, a fifo): never followed, never opened."""


def kind_of(mode: int) -> str | None:
    """None for a regular file, else what it is, in words."""
    if stat.S_ISREG(mode):
        return None
    for test, name in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a fifo"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def refusal(kind: str) -> str:
    return (
        f"the submission is {kind}, not a regular file; it was not followed or read. Submit the "
        "notebook file itself"
    )


@dataclass(frozen=True)
class Submission:
    path: Path  # where the file is
    file: str  # its path relative to SUBMISSIONS, with "/": the row's identity
    learner: str
    notebook: str | None  # the notebook its name points to, or None when the name says nothing
    lms: str = ""  # "canvas" or "moodle" when the name follows that LMS's download layout
    attempt: tuple[int, ...] = ()  # how late this submission is within its LMS (larger is later)


@dataclass
class LearnerCells:
    """The cells of a submission that carry a grade_id: grade_id -> [(cell_type, source), ...]."""

    cells: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def notebook_from_name(stem: str, known: list[str]) -> tuple[str | None, str]:
    """The notebook a file name points to, and what comes before it (the learner, in a flat layout)."""
    lowered = stem.lower()
    for name in sorted(known, key=len, reverse=True):
        at = lowered.find(name.lower())
        if at >= 0:
            return name, stem[:at]
    by_number = {name[:2]: name for name in known}
    for match in reversed(list(re.finditer(r"(?<!\d)(\d{2})(?!\d)", stem))):
        if match.group(1) in by_number:
            return by_number[match.group(1)], stem[: match.start()]
    return None, stem


def shown_name(name: str) -> str:
    """A name the learner controls (a folder, a file) as text every later stage can store and show.

    A file system name may hold any bytes: the ones that are not UTF-8 (Python hands them over as
    surrogate escapes) become ``\\xNN``, and control, formatting and bidi characters (a newline, an
    escape sequence, a right-to-left override) become ``\\uNNNN``. A backslash is doubled, so two
    different names never share a shown name. Ordinary names, accents included, are unchanged.
    """
    if "\\" not in name and all(_plain_char(c) for c in name):
        return name
    out = []
    for char in name:
        code = ord(char)
        if char == "\\":
            out.append("\\\\")
        elif 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's escape of the byte code - 0xDC00
            out.append(f"\\x{code - 0xDC00:02x}")
        elif not _plain_char(char):
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    return "".join(out)


def _plain_char(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")


def _learner_name(prefix: str) -> str:
    return prefix.strip(" _-.")


def _skipped(relative: Path) -> bool:
    return any(part.startswith(".") or part in SKIP for part in relative.parts)


# Canvas's "Download Submissions": <lastfirst>_[LATE_]<user id>_<submission id>_<the learner's file
# name>, a resubmission of the same file getting "-1", "-2"... before the extension (Instructure,
# "How do I download all student submissions for an assignment?", Canvas Instructor Guide,
# https://community.canvaslms.com/t5/Instructor-Guide/tkb-p/Instructor, read 2026-12-02).
CANVAS = re.compile(r"(?P<name>[a-z0-9]+)_(?:LATE_)?(?P<user>\d+)_(?P<submission>\d+)_(?P<rest>.+)")
RESUBMITTED = re.compile(r"-(\d+)$")
# Moodle's assignment "Download all submissions", in folders: one folder per participant,
# "<Full name>_<participant id>_assignsubmission_file_" (Moodle mod/assign, string
# downloadasfolders_help: "Each submission is then put in a separate folder ... files are not renamed",
# https://github.com/moodle/moodle/blob/main/mod/assign/lang/en/assign.php, read 2026-12-02).
MOODLE = re.compile(r"(?P<name>.+)_(?P<user>\d+)_assignsubmission_(?:file|onlinetext)_?")


def _slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "learner"


def lms_identity(relative: Path) -> tuple[str, str, str, tuple[int, ...]] | None:
    """(lms, learner key, the file name the learner gave, attempt) for a file in an LMS download's
    layout, else None. The key holds the LMS's user id, so two learners of one name stay two."""
    if len(relative.parts) == 1:
        found = CANVAS.fullmatch(relative.name)
        if found is None:
            return None
        stem, dot, _suffix = found["rest"].rpartition(".")
        stem = stem if dot else found["rest"]
        again = RESUBMITTED.search(stem)
        attempt = (int(found["submission"]), int(again.group(1)) if again else 0)
        return "canvas", f"{found['name']}_{found['user']}", found["rest"], attempt
    folder = MOODLE.fullmatch(relative.parts[0])
    if folder is None:
        return None
    return "moodle", f"{_slug(folder['name'])}_{folder['user']}", relative.name, ()


def keep_latest(found: list[Submission]) -> tuple[list[Submission], list[Submission]]:
    """The submissions to grade, and the superseded ones: of several files from an LMS download for
    one learner and notebook, the latest is kept (Canvas: the largest submission id, then the largest
    resubmission suffix; Moodle keeps one attempt per participant, so a tie is kept by file name).
    Files of the folder-per-learner layout are all kept, as before (each row names the other)."""
    latest: dict[tuple[str, str], Submission] = {}
    for submission in found:
        if not submission.lms or submission.notebook is None:
            continue
        key = (submission.learner, submission.notebook)
        held = latest.get(key)
        if held is None or (submission.attempt, submission.file) > (held.attempt, held.file):
            latest[key] = submission
    kept = [s for s in found if not s.lms or s.notebook is None or latest[(s.learner, s.notebook)] is s]
    superseded = [s for s in found if s not in kept]
    return kept, superseded


def discover(target: Path, known: list[str], out_dir: Path | None = None) -> list[Submission]:
    """Every submission under ``target`` (a folder, or one file), sorted by file."""
    target = target.resolve()
    if target.is_file():
        root, files = target.parent, [target]
    else:
        root = target
        files = sorted(_entries(target))
    out = out_dir.resolve() if out_dir is not None else None
    found = []
    for path in files:
        relative = path.relative_to(root)
        if _skipped(relative) or (out is not None and path.is_relative_to(out)):
            continue
        notebook, prefix = notebook_from_name(path.stem, known)
        lms = lms_identity(relative) if target.is_dir() else None
        if lms is not None:
            kind, key, given, attempt = lms
            notebook = notebook_from_name(Path(given).stem, known)[0]
            found.append(Submission(path, shown_name(relative.as_posix()), key, notebook, kind, attempt))
            continue
        if len(relative.parts) > 1:
            learner = shown_name(relative.parts[0])
        else:
            learner = shown_name(_learner_name(prefix) or root.name)
            if (
                len(relative.parts) == 1
                and target.is_dir()
                and path.suffix != ".ipynb"
                and not path.is_symlink()
            ):
                continue  # a loose file next to the learners' folders (a class list, a README): not a submission
        found.append(Submission(path, shown_name(relative.as_posix()), learner, notebook))
    return found


def _entries(folder: Path) -> list[Path]:
    """Every entry under ``folder`` that is not a folder, links included; linked folders are not entered."""
    found = []
    for where, folders, names in os.walk(folder, followlinks=False):
        base = Path(where)
        for name in list(folders):
            if (base / name).is_symlink():
                found.append(base / name)  # a linked folder is one refused entry, never walked into
        found += [base / name for name in names]
    return found


def read_answers(path: Path) -> LearnerCells:
    """The grade_id'd cells of a notebook file, or NotANotebook / Refused with a reason a person can act on."""
    try:
        kind = kind_of(os.lstat(path).st_mode)
    except OSError as error:
        raise NotANotebook(
            f"the file cannot be read ({error.strerror or error}); check its permissions"
        ) from None
    if kind is not None:
        raise Refused(refusal(kind))
    if path.suffix != ".ipynb":
        raise NotANotebook(f"{path.name} is not a notebook (.ipynb); submit the notebook file itself")
    try:
        data, size = _read_regular(path)
    except Refused:
        raise
    except OSError as error:
        raise NotANotebook(
            f"the file cannot be read ({error.strerror or error}); check its permissions"
        ) from None
    if size > MAX_BYTES:
        raise NotANotebook(
            f"the file is {size >> 20} MB, far too big for a course notebook; clear the outputs "
            "(Edit > Clear Outputs of All Cells), save and submit again"
        )
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise NotANotebook(
            "the file is not notebook JSON (saved in another format, or damaged); "
            "open it in JupyterLab, save it as .ipynb and submit again"
        ) from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotANotebook("the file is JSON but not a Jupyter notebook (no list of cells)")
    if notebook.get("nbformat") != 4:
        raise NotANotebook(
            f"notebook format {notebook.get('nbformat')!r} is not supported; open and save it "
            "in a current JupyterLab (format 4)"
        )
    found = LearnerCells()
    for cell in notebook["cells"]:
        grade_id = _grade_id(cell)
        if grade_id is None:
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(part for part in source if isinstance(part, str))
        if not isinstance(source, str):
            source = ""
        kind = cell.get("cell_type") if isinstance(cell.get("cell_type"), str) else "?"
        found.cells.setdefault(grade_id, []).append((kind, source))
    return found


def _read_regular(path: Path) -> tuple[bytes, int]:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags)
    except OSError as error:
        if error.errno in (getattr(__import__("errno"), "ELOOP", -1),):
            raise Refused(refusal("a symbolic link")) from None
        raise
    try:
        info = os.fstat(handle)
        kind = kind_of(info.st_mode)
        if kind is not None:
            raise Refused(refusal(kind))
        if info.st_size > MAX_BYTES:
            return b"", info.st_size
        chunks = []
        while True:
            chunk = os.read(handle, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), info.st_size
    finally:
        os.close(handle)


def _grade_id(cell: object) -> str | None:
    if not isinstance(cell, dict):
        return None
    metadata = cell.get("metadata")
    nbgrader = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
    return grade_id if isinstance(grade_id, str) else None
