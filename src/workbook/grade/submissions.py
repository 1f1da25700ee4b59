"""Finding the submissions, telling whose and which notebook each one is, reading its answer cells.

Layout (documented in docs/instructor.md):

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

What learners upload beside the notebook never replaces it: a PDF, HTML or .py export of it (Canvas
and Moodle learners often send both), a copy ("NN_x-Copy1.ipynb") after its original, a loose file
next to a notebook. Such files are set aside and named in the notebook's feedback (:func:`keep_latest`);
an export alone is a row that says to submit the .ipynb. A .zip is read in place, never extracted:
each notebook inside is a submission, the archive's other files are named as not graded. A
notebook in an older format (3, or 4.0-4.4 without cell ids) is upgraded as Jupyter does on
opening (:func:`current_format`).

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

import io
import json
import os
import re
import stat
import unicodedata
import zipfile
from dataclasses import dataclass, field, replace
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
    member: str = ""  # the notebook's path inside a submitted .zip ("" for a file of its own)
    ignored: tuple[str, ...] = ()  # files set aside for this one (exports of it, a zip's other files)

    @property
    def is_notebook(self) -> bool:
        return (self.member or self.path.name).lower().endswith(".ipynb")


@dataclass
class LearnerCells:
    """The cells of a submission that carry a grade_id: grade_id -> [(cell_type, source), ...]."""

    cells: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    ids: dict[str, list[str]] = field(default_factory=dict)  # grade_id -> the nbformat ids of its cells


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
# Canvas writes the name as the learner's sortable name lowercased, without spaces or punctuation;
# letters outside ASCII stay ("müllerjürgen"), and some exports keep an underscore between the parts.
CANVAS = re.compile(r"(?P<name>[^\W_]\w*?)_(?:LATE_)?(?P<user>\d+)_(?P<submission>\d+)_(?P<rest>.+)")
RESUBMITTED = re.compile(r"-(\d+)$")
# Moodle's assignment "Download all submissions", in folders: one folder per participant,
# "<Full name>_<participant id>_assignsubmission_file_" (Moodle mod/assign, string
# downloadasfolders_help: "Each submission is then put in a separate folder ... files are not renamed",
# https://github.com/moodle/moodle/blob/main/mod/assign/lang/en/assign.php, read 2026-12-02).
MOODLE = re.compile(r"(?P<name>.+)_(?P<user>\d+)_assignsubmission_(?:file|onlinetext)_?")
# Without "download submissions in folders" Moodle writes flat files: "<Full name>_<id>_assignsubmission_file_<file>".
MOODLE_FLAT = re.compile(r"(?P<name>.+?)_(?P<user>\d+)_assignsubmission_file_(?P<rest>.+)")


def _slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "learner"


def same_text(name: str) -> str:
    """A name as one key however it was written: Unicode NFKC (so NFD from a Mac zip and NFC agree),
    casefolded (Canvas lowercases), punctuation, spaces and underscores dropped (Canvas strips them)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(c for c in unicodedata.normalize("NFKC", folded) if c.isalnum())


def ascii_text(name: str) -> str:
    """:func:`same_text` with accents dropped ("müller" -> "muller"), as Moodle's and other ASCII keys write it."""
    return same_text(unicodedata.normalize("NFKD", same_text(name)).encode("ascii", "ignore").decode("ascii"))


def lms_identity(relative: Path) -> tuple[str, str, str, tuple[int, ...]] | None:
    """(lms, learner key, the file name the learner gave, attempt) for a file in an LMS download's
    layout, else None. The key holds the LMS's user id, so two learners of one name stay two."""
    if len(relative.parts) == 1:
        name = unicodedata.normalize("NFC", relative.name)
        flat = MOODLE_FLAT.fullmatch(name)
        if flat is not None:
            return "moodle", f"{_slug(flat['name'])}_{flat['user']}", flat["rest"], ()
        found = CANVAS.fullmatch(name)
        if found is None:
            return None
        stem, dot, _suffix = found["rest"].rpartition(".")
        stem = stem if dot else found["rest"]
        again = RESUBMITTED.search(stem)
        attempt = (int(found["submission"]), int(again.group(1)) if again else 0)
        return "canvas", f"{found['name'].casefold()}_{found['user']}", found["rest"], attempt
    folder = MOODLE.fullmatch(unicodedata.normalize("NFC", relative.parts[0]))
    if folder is None:
        return None
    return "moodle", f"{_slug(folder['name'])}_{folder['user']}", relative.name, ()


COPY = re.compile(
    r"(?:-Copy\d+|\s*\(\d+\)|^Copy of )", re.IGNORECASE
)  # Jupyter's, a browser's, a drive's copies


def _preference(submission: Submission) -> tuple:
    """How a file ranks among one learner's files for one notebook: a notebook before any export of
    it, then the latest LMS attempt, then the original before a copy ("-Copy1"), then by name."""
    name = Path(submission.member or submission.path.name).stem
    return (submission.is_notebook, submission.attempt, not COPY.search(name), submission.file)


def keep_latest(found: list[Submission]) -> tuple[list[Submission], list[Submission]]:
    """The submissions to grade, and the superseded ones.

    * An export uploaded beside its notebook (a PDF, HTML or .py of it, which Canvas and Moodle
      learners often send too) never replaces the notebook: it is set aside, and the notebook's
      ``ignored`` names it, so the feedback says which files were not graded. A loose file whose
      name points to no notebook is set aside the same way when its learner sent a notebook.
    * Of several notebooks of one learner for one notebook from an LMS download, the latest is kept
      (Canvas: the largest id, then the largest resubmission suffix; Moodle keeps one attempt per
      participant, so an original is kept before its copy, then by file name); the others are
      reported as superseded. Files of the folder-per-learner layout are all kept, as before (each
      row names the other)."""
    groups: dict[tuple[str, str], list[Submission]] = {}
    for submission in found:
        if submission.notebook is not None:
            groups.setdefault((submission.learner, submission.notebook), []).append(submission)
    with_notebook = {learner for (learner, _), group in groups.items() if any(s.is_notebook for s in group)}
    aside: dict[tuple[str, str], list[Submission]] = {}
    kept_for: dict[tuple[str, str], Submission] = {}
    superseded: list[Submission] = []
    for key, group in groups.items():
        best = max(group, key=_preference)
        kept_for[key] = best
        if best.is_notebook:
            aside[key] = [s for s in group if not s.is_notebook]
        superseded += [s for s in group if s.lms and s is not best and s.is_notebook == best.is_notebook]
    loose = [s for s in found if s.notebook is None and not s.is_notebook and s.learner in with_notebook]
    dropped = {id(s) for group in aside.values() for s in group} | {id(s) for s in superseded}
    dropped |= {id(s) for s in loose}
    first_of: dict[str, tuple[str, str]] = {}
    for key in sorted(kept_for):
        if kept_for[key].is_notebook:
            first_of.setdefault(key[0], key)
    extra: dict[tuple[str, str], list[str]] = {k: [s.file for s in v] for k, v in aside.items()}
    for submission in loose:
        extra.setdefault(first_of[submission.learner], []).append(submission.file)
    kept = []
    for submission in found:
        if id(submission) in dropped:
            continue
        key = (submission.learner, submission.notebook or "")
        names = extra.get(key, []) if kept_for.get(key) is submission else []
        if names:
            submission = replace(submission, ignored=(*submission.ignored, *sorted(names)))
        kept.append(submission)
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
            learner = shown_name(unicodedata.normalize("NFC", relative.parts[0]))
        else:
            learner = shown_name(unicodedata.normalize("NFC", _learner_name(prefix) or root.name))
            if (
                len(relative.parts) == 1
                and target.is_dir()
                and path.suffix != ".ipynb"
                and not path.is_symlink()
            ):
                continue  # a loose file next to the learners' folders (a class list, a README): not a submission
        found.append(Submission(path, shown_name(relative.as_posix()), learner, notebook))
    return [unpacked for submission in found for unpacked in _zip_members(submission, known)]


ZIP_SKIP = (".ipynb_checkpoints", "__MACOSX", "__pycache__")


def _zip_members(submission: Submission, known: list[str]) -> list[Submission]:
    """A .zip is unpacked in name only: one submission per notebook inside (read from the archive
    when graded, never extracted to disk), the archive's other files named as ignored. A zip with no
    notebook, or one that cannot be read, stays one submission, whose row says why."""
    if submission.path.suffix.lower() != ".zip" or submission.member:
        return [submission]
    try:
        if not stat.S_ISREG(os.lstat(submission.path).st_mode):
            return [submission]  # refused when read
        with zipfile.ZipFile(submission.path) as archive:
            names = [i.filename for i in archive.infolist() if not i.is_dir()]
    except (OSError, zipfile.BadZipFile, ValueError, RuntimeError, NotImplementedError):
        return [submission]
    shown = [n for n in names if not any(p.startswith(".") or p in ZIP_SKIP for p in Path(n).parts)]
    notebooks = [n for n in shown if n.lower().endswith(".ipynb")]
    if not notebooks:
        return [submission]
    others = tuple(f"{submission.file}/{shown_name(n)}" for n in shown if n not in notebooks)
    out = []
    for index, member in enumerate(sorted(notebooks)):
        name = notebook_from_name(Path(member).stem, known)[0] or submission.notebook
        out.append(
            replace(
                submission,
                file=f"{submission.file}/{shown_name(member)}",
                notebook=name,
                member=member,
                ignored=others if index == 0 else (),
            )
        )
    return out


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


EXPORTS = {
    ".pdf": "a PDF",
    ".html": "an HTML page",
    ".htm": "an HTML page",
    ".py": "a Python script",
    ".md": "a Markdown file",
    ".txt": "a text file",
    ".docx": "a Word document",
    ".zip": "a zip archive with no notebook inside",
}


def read_answers(path: Path, member: str = "") -> LearnerCells:
    """The grade_id'd cells of a notebook file (or of ``member`` inside a zip), or NotANotebook /
    Refused with a reason a person can act on."""
    try:
        kind = kind_of(os.lstat(path).st_mode)
    except OSError as error:
        raise NotANotebook(
            f"the file cannot be read ({error.strerror or error}); check its permissions"
        ) from None
    if kind is not None:
        raise Refused(refusal(kind))
    if member:
        data, size = _read_member(path, member)
        return _cells(data, size)
    if path.suffix.lower() != ".ipynb":
        what = EXPORTS.get(path.suffix.lower())
        raise NotANotebook(
            f"{path.name} is {what}, not a notebook (.ipynb): only the notebook can be graded; submit the "
            ".ipynb file (File > Download in JupyterLab)"
            if what
            else f"{path.name} is not a notebook (.ipynb); submit the notebook file itself"
        )
    try:
        data, size = _read_regular(path)
    except Refused:
        raise
    except OSError as error:
        raise NotANotebook(
            f"the file cannot be read ({error.strerror or error}); check its permissions"
        ) from None
    return _cells(data, size)


def _read_member(path: Path, member: str) -> tuple[bytes, int]:
    """One file inside a zip, read from the archive (never extracted), no bigger than MAX_BYTES."""
    try:
        data, size = _read_regular(path)
        if size > MAX_BYTES:
            return b"", size
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            info = archive.getinfo(member)
            if info.file_size > MAX_BYTES:
                return b"", info.file_size
            with archive.open(info) as handle:
                inner = handle.read(MAX_BYTES + 1)
    except Refused:
        raise
    except (
        OSError,
        KeyError,
        zipfile.BadZipFile,
        RuntimeError,
        ValueError,
        NotImplementedError,
        EOFError,
    ) as error:
        raise NotANotebook(
            f"{member} could not be read from the zip ({type(error).__name__}: {error}); submit the "
            ".ipynb file itself, not in an archive"
        ) from None
    return inner, len(inner)


def _cells(data: bytes, size: int) -> LearnerCells:
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
    notebook = current_format(notebook)
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
        cell_id = cell.get("id")
        found.ids.setdefault(grade_id, []).append(cell_id if isinstance(cell_id, str) else "")
    return found


def current_format(notebook: object) -> dict:
    """The notebook in format 4.5, upgraded as Jupyter upgrades it on opening: an older file (format 3,
    with its worksheets, or 4.0-4.4 without cell ids) is read with ``nbformat.reads(as_version=4)`` and
    normalised by ``nbformat.validator.normalize`` (ids added). Only the cells' grade_ids and sources
    are used afterwards, so an upgrade cannot change an answer."""
    if not isinstance(notebook, dict):
        raise NotANotebook("the file is JSON but not a Jupyter notebook (no list of cells)")
    major, minor = notebook.get("nbformat"), notebook.get("nbformat_minor")
    if major == 4 and isinstance(notebook.get("cells"), list) and isinstance(minor, int) and minor >= 5:
        return notebook
    if major is None and not isinstance(notebook.get("cells"), list) and "worksheets" not in notebook:
        raise NotANotebook("the file is JSON but not a Jupyter notebook (no list of cells)")
    if major not in (3, 4) or type(major) is not int:
        raise NotANotebook(
            f"notebook format {major!r} is not supported: Jupyter reads formats 3 and 4; open the file "
            "in a current JupyterLab, save it (format 4) and submit again"
        )
    import warnings

    import nbformat
    from nbformat.corpus.words import generate_corpus_id
    from nbformat.validator import normalize

    try:
        with warnings.catch_warnings():  # nbformat warns about what it repairs; the upgrade is the point
            warnings.simplefilter("ignore")
            upgraded = nbformat.reads(json.dumps(notebook), as_version=4)
            _changes, upgraded = normalize(upgraded, 4, 5)
            if upgraded.get("nbformat_minor", 0) < 5:
                upgraded["nbformat_minor"] = 5
            for cell in upgraded.get("cells", []):
                if isinstance(cell, dict) and "id" not in cell:
                    cell["id"] = generate_corpus_id()
    except Exception as error:  # nbformat's reader raises many kinds on a damaged file
        if major == 4 and isinstance(notebook.get("cells"), list):
            return notebook  # its cells are readable as they are, and only they are used
        if major == 4:
            raise NotANotebook("the file is JSON but not a Jupyter notebook (no list of cells)") from None
        raise NotANotebook(
            f"the file says notebook format {major}.{minor} but cannot be upgraded to format 4 "
            f"({type(error).__name__}); open it in JupyterLab, save it and submit again"
        ) from None
    if not isinstance(upgraded.get("cells"), list):
        raise NotANotebook("the file is JSON but not a Jupyter notebook (no list of cells)")
    return dict(upgraded)


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
