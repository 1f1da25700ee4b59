"""Write the learner notebooks in notebooks/ from the source notebooks in solutions/.

Each solution region (between ``### BEGIN SOLUTION`` and ``### END SOLUTION``) becomes a stub and
every output is cleared. A learner's copy is never overwritten by surprise: release remembers what
it last wrote (notebooks/.released.json) and refuses, naming the file, to replace a copy that
someone has changed since, unless forced; even then the changed copy is kept as a backup.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import textwrap
import warnings
from dataclasses import dataclass
from datetime import datetime
from glob import escape as glob_escape
from pathlib import Path

import nbformat

from tooldesign.atomic import write_atomic
from tooldesign.input_files import InputFileError, read_input
from workbook import NOTEBOOKS_DIR, REPO_ROOT, SOLUTIONS_DIR
from workbook.edition import Edition, worded
from workbook.edition import current as current_edition
from workbook.notebook_files import notebook_text

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
CODE_STUB = "# YOUR CODE HERE"
MARKDOWN_STUB = "_YOUR ANSWER HERE_"
MANIFEST = ".released.json"
# nbval's cell markers (# NBVAL_IGNORE_OUTPUT, # NBVAL_SKIP, ...): test machinery for solutions/, where
# nbval runs. A learner copy is never run under nbval, so release leaves the marker lines out of it.
_TEST_MARKER = re.compile(r"^[ \t]*#[ \t]*NBVAL_[A-Z_]+[ \t]*(?:\n|$)", re.MULTILINE)
# The student edition has no solutions/: its learner copies as handed out are kept here, and release
# writes a fresh copy from them (make notebooks).
ORIGINALS_DIR = REPO_ROOT / "originals"
_REGION = re.compile(
    rf"^([ \t]*){re.escape(BEGIN)}[^\n]*\n(.*?)^[ \t]*{re.escape(END)}[^\n]*(\n|$)", re.MULTILINE | re.DOTALL
)


MAX_NOTEBOOK_BYTES = 256 * 1024 * 1024  # a notebook with large outputs is tens of MB; this stops a wrong file


class ReleaseError(RuntimeError):
    """Release cannot go on; the message names the file and what to do."""


def _stub_for_top_level(code: str) -> str:
    """Keep what a learner needs to start (names, signatures, docstrings) and drop the rest."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return CODE_STUB + "\n"
    lines = code.splitlines()
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            body0 = node.body[0]
            has_doc = (
                isinstance(body0, ast.Expr)
                and isinstance(body0.value, ast.Constant)
                and isinstance(body0.value.value, str)
            )
            last = body0.end_lineno if has_doc else body0.lineno - 1
            out.extend(lines[first - 1 : last])
            indent = " " * (body0.col_offset)
            out += [f"{indent}{CODE_STUB}", f"{indent}raise NotImplementedError()"]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        written = (
                            ast.get_source_segment(code, node.annotation)
                            if isinstance(node, ast.AnnAssign)
                            else None
                        )
                        annotation = f": {written}" if written is not None else ""
                        out.append(f"{name.id}{annotation} = ...  {CODE_STUB}")
    return ("\n".join(out) if out else CODE_STUB) + "\n"


def _stub_region(match: re.Match) -> str:
    indent, body = match.group(1), match.group(2)
    if indent:  # inside a function body or a block: nbgrader's own stub keeps the code valid
        return f"{indent}{CODE_STUB}\n{indent}raise NotImplementedError()\n"
    return _stub_for_top_level(textwrap.dedent(body))


def stub_source(source: str, cell_type: str = "code") -> str:
    """Replace every solution region in one cell's source with its stub."""
    if cell_type == "markdown":
        stubbed = _REGION.sub(lambda m: MARKDOWN_STUB + "\n", source)
    else:
        stubbed = _REGION.sub(_stub_region, source)
    return stubbed.rstrip("\n")


def without_test_markers(source: str) -> str:
    """A code cell's source without nbval's marker lines."""
    kept = _TEST_MARKER.sub("", source)
    return kept if kept == source else kept.rstrip("\n")


def learner_copy(
    solution: nbformat.NotebookNode, edition: Edition | None = None, where: str = ""
) -> nbformat.NotebookNode:
    """The learner's version of a solution notebook: stubs in solution regions, no outputs, and the
    wording of ``edition`` (this one when not given) wherever ``workbook.edition`` says it differs;
    ``where`` is the notebook's number ("00")."""
    notebook = nbformat.from_dict(json.loads(json.dumps(solution)))
    edition = edition or current_edition()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if BEGIN in cell.source:
            cell.source = stub_source(cell.source, cell.cell_type)
        if where:
            cell.source = worded(cell.source, where, edition)
        if cell.cell_type == "code":
            cell.source = without_test_markers(cell.source)
            cell.outputs = []
            cell.execution_count = None
    notebook.metadata.pop("widgets", None)
    return notebook


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Released:
    path: Path
    action: str  # "written", "unchanged", "replaced (backup: ...)"


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read a notebook or explain in one line why it cannot be read.

    Each way a file can fail to be a notebook gets its own sentence: missing, not text, not JSON,
    JSON that is not a notebook (``{}``, ``[1, 2]``, a string), or a notebook nbformat refuses.
    """
    shown = _clip(str(path))
    # Restoring from git replaces the file with the blank copy, so that advice comes with a way to
    # keep the work: the learner's answers are in the damaged file, and usually can be got back.
    restore = f"keep a copy of it first (it holds your answers), then restore it: git checkout -- {_clip(path.name)}"
    try:
        raw = read_input(path, what="a notebook (.ipynb)", limit=MAX_NOTEBOOK_BYTES)
    except InputFileError as error:
        if not Path(path).exists() and not Path(path).is_symlink():
            raise ReleaseError(
                f"{shown} does not exist; list the notebooks with: .venv/bin/workbook list"
            ) from None
        if Path(path).is_dir():
            raise ReleaseError(
                f"{shown} is a folder, not a notebook; name a .ipynb file or a number like 02"
            ) from None
        raise ReleaseError(str(error)) from None
    try:
        # utf-8-sig: an editor that saves with a byte-order mark still wrote a notebook
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ReleaseError(
            f"{shown} is not a notebook (not even text: byte {error.start} is not UTF-8); {restore}"
        ) from None
    try:
        value = json.loads(text)
    except RecursionError:
        raise ReleaseError(f"{shown} is not a notebook (its JSON is nested too deep); {restore}") from None
    except ValueError as error:
        where = (
            f" at line {error.lineno}, column {error.colno}"
            if isinstance(error, json.JSONDecodeError)
            else ""
        )
        raise ReleaseError(
            f"{shown} is not a notebook (not valid JSON{where}: an editor may have cut it short, "
            f"which can be mended there); {restore}"
        ) from None
    if isinstance(value, dict) and type(value.get("nbformat")) is int and value["nbformat"] < 4:
        raise ReleaseError(
            f"{shown} is in the old notebook format {value['nbformat']}; open it in JupyterLab and "
            f"save it (that writes format 4), or {restore}"
        )
    if not isinstance(value, dict) or not isinstance(value.get("cells"), list) or "nbformat" not in value:
        kinds = {
            dict: "an object without cells",
            list: "a list",
            str: "a string",
            int: "a number",
            float: "a number",
            bool: "true or false",
            type(None): "null",
        }
        kind = kinds.get(type(value), type(value).__name__)
        raise ReleaseError(f"{shown} holds valid JSON but not a notebook ({kind}); {restore}")
    broken = _broken_cell(value["cells"])
    if broken:
        raise ReleaseError(f"{shown} is damaged: {broken}; {restore}")
    try:
        # nbformat warns on stderr about what it repairs; the line below says enough
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return nbformat.reads(text, as_version=4)
    except Exception as error:  # nbformat raises many kinds for a malformed notebook; all mean the same
        raise ReleaseError(
            f"{shown} is not a notebook nbformat can read ({type(error).__name__}); {restore}"
        ) from None


def _broken_cell(cells: list) -> str:
    """What is wrong with the first cell that no notebook program wrote that way, or "" when all are sound."""
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            return f"cell {number} is not a cell but {_clip(json.dumps(cell), 40)}"
        if cell.get("cell_type") not in ("code", "markdown", "raw"):
            return f"cell {number} has no known cell_type"
        source = cell.get("source")
        if not (
            isinstance(source, str) or (isinstance(source, list) and all(isinstance(s, str) for s in source))
        ):
            return f"cell {number} has no source text"
    return ""


def _clip(text: str, limit: int = 120) -> str:
    """Names a learner typed are echoed back, but never more than a line of them."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _backup(target: Path, text: str, stamp: str) -> Path:
    """Write ``text`` to a backup beside ``target`` whose name no earlier backup has: never overwrite one."""
    for n in range(1, 10_000):
        backup = target.with_name(f"{target.name}.bak-{stamp}" + (f"-{n}" if n > 1 else ""))
        try:
            with open(backup, "x", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            return backup
        except FileExistsError:
            continue
    raise ReleaseError(f"too many backups of {target.name} in {target.parent}; move some elsewhere")


def release(
    names: list[str] | None = None,
    force: bool = False,
    source_dir: Path | None = None,
    target_dir: Path = NOTEBOOKS_DIR,
) -> list[Released]:
    """Write learner copies for the given notebooks (all when ``names`` is empty), from solutions/ in
    the course and from originals/ in the student edition."""
    if source_dir is None:
        source_dir = SOLUTIONS_DIR if current_edition() is Edition.COURSE else ORIGINALS_DIR
    sources = sorted(source_dir.glob("[0-9][0-9]_*.ipynb"))
    if names:
        sources = [resolve(name, source_dir) for name in names]
    manifest_path = target_dir / MANIFEST
    manifest = _read_manifest(manifest_path)
    planned = [
        (src, target_dir / src.name, notebook_text(learner_copy(read_notebook(src), where=src.name[:2])))
        for src in sources
    ]
    # Look before writing anything: one changed copy stops the whole release, so nothing is half done.
    changed = []
    for _, target, text in planned:
        if target.exists():
            current = target.read_text(encoding="utf-8")
            if current != text and _digest(current) != manifest.get(target.name):
                changed.append(target)
    if changed and not force:
        names_list = ", ".join(
            str(p.relative_to(target_dir.parent)) if p.is_relative_to(target_dir.parent) else str(p)
            for p in changed
        )
        raise ReleaseError(
            f"{names_list} changed since the last release (your work?); nothing was written. "
            "Save your copy elsewhere, or run `make notebooks FORCE=1` (.venv/bin/workbook release "
            "--force) to keep it as a .bak file and write a fresh one."
        )
    results = []
    target_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    for _, target, text in planned:
        action = "written"
        if target.exists():
            current = target.read_text(encoding="utf-8")
            if current == text:
                action = "unchanged"
            elif target in changed:
                backup = _backup(target, current, stamp)
                action = f"replaced (your copy kept as {backup.name})"
        if action != "unchanged":
            write_atomic(target, text)
        manifest[target.name] = _digest(text)
        results.append(Released(target, action))
    write_atomic(manifest_path, json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")
    return results


def _read_manifest(path: Path) -> dict[str, str]:
    """What release last wrote; unreadable counts as nothing known, so every changed copy is protected."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


_LESSON_STEM = re.compile(r"\d\d_[a-z0-9]+(?:_[a-z0-9]+)*")


def lesson_stem(number: str) -> str | None:
    """The one name lesson ``number`` ("02") has in the course, or None when it has none.

    The name comes from the lesson's exercise definitions (the student edition has no solutions/),
    else from the one notebook of that number in solutions/. It never comes from the folder being
    searched: a learner's ``02_coldchain_data_old.ipynb`` or ``02_coldchain_data-Copy1.ipynb``
    beside the real copy must not be taken for the lesson.
    """
    from workbook.exercises import exercises_for_number

    named = {exercise.notebook for exercise in exercises_for_number(number)}
    if len(named) == 1:
        return named.pop()
    stems = sorted(p.stem for p in SOLUTIONS_DIR.glob(f"{number}_*.ipynb") if _LESSON_STEM.fullmatch(p.stem))
    if len(named) > 1:
        stems = [stem for stem in stems if stem in named]
    return stems[0] if len(stems) == 1 else None


def resolve(name: str, folder: Path = SOLUTIONS_DIR) -> Path:
    """Find exactly the notebook ``name`` names: a number ("02"), a lesson's name
    ("02_coldchain_data") or a path. A number or a name means that lesson's own file in ``folder``,
    never another file that starts the same way; a path means that file."""
    try:
        candidate = Path(name)
        found = candidate.suffix == ".ipynb" and (candidate.exists() or candidate.is_symlink())
    except (OSError, ValueError):  # a name too long, or with a NUL byte, names no file
        candidate, found = Path("x"), False
    if found:
        return candidate
    stem = candidate.stem if candidate.suffix == ".ipynb" else name
    if re.fullmatch(r"\d\d", stem):
        lesson = lesson_stem(stem)
        if lesson is None:
            raise ReleaseError(
                f"no notebook {_clip(repr(name), 60)} in {folder.name}/ (the course has no lesson {stem}); "
                f"{_known(folder)}"
            )
        stem = lesson
    exact = folder / f"{stem}.ipynb"
    if len(stem) <= 200 and "/" not in stem and (exact.exists() or exact.is_symlink()):
        return exact
    others = (
        sorted(p.name for p in folder.glob(f"{glob_escape(stem[:2])}*.ipynb")) if stem[:2].isdigit() else []
    )
    if others and _LESSON_STEM.fullmatch(stem):
        raise ReleaseError(
            f"{folder.name}/{stem}.ipynb does not exist (beside it: {_clip(', '.join(others), 120)}); "
            f"to check another file name it by its path, like {folder.name}/{others[0]}"
        )
    raise ReleaseError(f"no notebook {_clip(repr(name), 60)} in {folder.name}/; {_known(folder)}")


def _known(folder: Path) -> str:
    known = ", ".join(
        p.stem for p in sorted(folder.glob("[0-9][0-9]_*.ipynb")) if _LESSON_STEM.fullmatch(p.stem)
    )
    return f"use a number or a name from: {known}"
