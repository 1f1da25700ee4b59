"""The student edition: ``.venv/bin/workbook handout OUT`` (``make handout``).

What an instructor hands out for a graded class, and the only course a grading kernel sees:

* ``notebooks/``: the learner copies (stubs in exercise cells, no outputs), worded for this edition
  (``workbook.edition``); ``originals/`` the same, for ``make notebooks``; no ``solutions/``.
* ``Makefile`` (the learner's targets: lab, check, doctor, notebooks), ``scripts/setup_env.py`` (the
  course's own set-up), ``requirements.txt`` (the course's pins without the test and lint tools),
  ``pyproject.toml``, ``data/``, a README written for the learner, and the guides a learner needs
  (``docs/``: real models, the MCP server, glossary, references).
* ``src/tooldesign``: the subject package, with every graded function named in
  ``workbook.exercises.references`` stubbed by release's own AST stubber. A stub still answers the
  calls the package itself makes on the course data (so the lessons' plots and stand-ins work),
  and nothing else.
* ``src/workbook``: the machinery without the grader, without the registry of references, and
  with each lesson module rebuilt: salted digests for value answers and for the results of the
  public examples (``workbook.exercises.public``), and only those judges that hold no answer key.

The build is deterministic: the same course gives the same bytes. The grader builds one more
edition per run for its kernels, without even the digests (``self_checks=False``): a grading
kernel never runs a check cell, so it gets nothing to try answers against.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib
import inspect
import json
import pkgutil
import pprint
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tooldesign.wording import count as plural_count
from workbook import DATA_DIR, REPO_ROOT, SOLUTIONS_DIR

LEFT_OUT = ("grade", "handout.py", "handout_files", "references.py", "__pycache__")
# tooldesign modules that are an exercise's answer as a whole (not one function to stub): left out.
TOOLDESIGN_LEFT_OUT = ("capstone/reference.py",)
TOP_FILES = ("pyproject.toml", "environment.yml")
TEMPLATES = Path(__file__).parent / "handout_files"
# requirements.txt's own line: what follows it is for the course's tests and style checks only.
COURSE_ONLY = "# ---- course only:"
ORIGINALS = "originals"
# The course README's sections a learner needs too, and the guides in docs/ the edition ships (the
# notebooks link to the references and the glossary), each with what it is for.
README_SECTIONS = ("The course map",)
GUIDES = (
    ("real-models.md", "a hosted model or a free local one in place of the offline stand-ins"),
    ("mcp-server.md", "serve the course's tools to an MCP host"),
    ("glossary.md", "the course's terms, with the lessons that teach them"),
    ("references.md", "every source the lessons cite"),
)


@dataclass(frozen=True)
class Handout:
    folder: Path
    notebooks: int
    stubbed: tuple[str, ...]  # "module:name" of the graded functions stubbed in tooldesign
    warnings: tuple[str, ...]  # exercises the student edition cannot self-check (not registered)


class HandoutError(RuntimeError):
    """The student edition cannot be written; the message says what to do."""


# Folders the build reads: an edition written inside one would be copied into itself.
READ_FROM = ("src", "data", "notebooks", "solutions", "scripts", ORIGINALS)


def build(out: Path, *, notebooks: bool = True, self_checks: bool = True) -> Handout:
    """Write the student edition into ``out`` (which must be empty or absent).

    ``tooldesign.atomic.write_folder`` does the writing: a new folder is built hidden beside ``out``
    and renamed into place when complete; an existing empty folder is filled and kept (it may be a
    mount, or the shell's current folder). A build that fails, or is stopped by Ctrl+C, SIGTERM or
    SIGHUP, leaves no half edition and nothing that makes the next run refuse; a second build into
    the same folder while one runs is refused in one line.
    ``self_checks=False`` leaves out even the digests (the edition a grading kernel gets: its check
    cells never run, so there is nothing in it to try answers against)."""
    from tooldesign.atomic import FolderRefused, write_folder

    out = Path(out)
    _refuse_place(out)
    needed = edition_bytes()
    try:
        with write_folder(out, command="workbook handout", what="the student edition") as where:
            _room_for(where, out, needed)
            made = _fill(where, notebooks, self_checks)
    except FolderRefused as error:
        raise HandoutError(str(error)) from None
    except OSError as error:
        raise _write_failed(error, out, needed) from None
    return replace(made, folder=out)


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else text[:79] + "…"


def _refuse_place(out: Path) -> None:
    """Refuse, before anything is written, a place no student edition should go."""
    text = str(out)
    odd = next((c for c in text if ord(c) < 32 or ord(c) == 127), None)
    if odd is not None:  # a pasted line break or tab makes a folder no one can type again
        raise HandoutError(
            f"the folder name {text[:60]!r} holds a control character ({odd!r}); give a plain folder "
            "name, such as student-edition"
        )
    target = out.resolve()
    for name in READ_FROM:
        inside = (REPO_ROOT / name).resolve()
        if target.is_relative_to(inside):
            raise HandoutError(
                f"{_shown(out)} is inside the course's {name}/, which the student edition is built "
                "from; write it somewhere else, such as student-edition"
            )


def edition_bytes() -> int:
    """About what a student edition takes on disk: the data, the packages and two copies of each
    learner notebook (notebooks/ and originals/). For this course on 5 December 2026 the estimate was
    2,510,588 bytes for an edition of 2,461,816 (``du -sb``)."""
    from tooldesign.disk import tree_bytes

    learner = REPO_ROOT / "notebooks"
    copies = learner if learner.is_dir() else SOLUTIONS_DIR  # solutions/ hold outputs: more than enough
    return tree_bytes(DATA_DIR, REPO_ROOT / "src") + 2 * tree_bytes(copies)


def _room_for(where: Path, out: Path, needed: int) -> None:
    """A disk without room for the edition is named before anything is copied, with what is needed."""
    from tooldesign.disk import WriteProblem, free_space, write_advice

    room = free_space(where, needed)
    if not room.enough:
        raise HandoutError(
            f"cannot write the student edition to {_shown(out)}: "
            + write_advice(WriteProblem.FULL, where, _shown(out.resolve().parent), needed)
        )


def _write_failed(error: OSError, out: Path, needed: int) -> Exception:
    """The one line for a write that failed on the way: a full disk, a read-only one, permissions."""
    from tooldesign.disk import WriteProblem, problem_of, write_advice

    parent = out.resolve().parent
    problem = problem_of(error, parent)
    if problem is WriteProblem.OTHER:
        if isinstance(error, (FileNotFoundError, NotADirectoryError, FileExistsError)) and error.filename:
            return HandoutError(
                f"cannot create {_shown(out)}: {error.strerror or error}; give a folder you can write"
            )
        return error  # not a write the learner can fix; the command line names it
    return HandoutError(
        f"cannot write the student edition to {_shown(out)} ({error.strerror}); "
        + write_advice(problem, parent, _shown(parent), needed)
    )


def _fill(out: Path, notebooks: bool, self_checks: bool) -> Handout:
    from workbook.exercises import all_exercises

    warnings: list[str] = []
    count = _write_notebooks(out / "notebooks", out / ORIGINALS) if notebooks else 0
    if DATA_DIR.is_dir():
        shutil.copytree(DATA_DIR, out / "data", ignore=shutil.ignore_patterns("__pycache__"))
    for name in TOP_FILES:
        if (REPO_ROOT / name).is_file():
            shutil.copy2(REPO_ROOT / name, out / name)
    _write_setup(out)
    stubbed = _write_tooldesign(out / "src" / "tooldesign")
    _write_workbook(out / "src" / "workbook", warnings, self_checks)
    (out / "README.md").write_text(readme(), encoding="utf-8")
    _write_guides(out / "docs")
    del all_exercises
    return Handout(out, count, tuple(stubbed), tuple(warnings))


# ---------- notebooks ----------


def _write_notebooks(folder: Path, originals: Path) -> int:
    """The learner copies in this edition's wording, twice: to work in, and to copy afresh from."""
    from workbook.edition import Edition, missing_phrases
    from workbook.notebook_files import notebook_text
    from workbook.release import MANIFEST, _digest, learner_copy, read_notebook

    sources = sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))
    read = {p: read_notebook(p) for p in sources}
    stale = missing_phrases({p.name[:2]: "\n\n".join(c.source for c in nb.cells) for p, nb in read.items()})
    if stale:
        raise HandoutError(
            f"workbook.edition's wording is not in the notebooks any more ({', '.join(stale)}); "
            "put the notebook's new sentence into workbook.edition.PHRASES"
        )
    folder.mkdir(parents=True)
    originals.mkdir(parents=True)
    manifest = {}
    for source in sources:
        text = notebook_text(learner_copy(read[source], Edition.STUDENT, source.name[:2]))
        for where in (folder, originals):
            (where / source.name).write_text(text, encoding="utf-8")
        manifest[source.name] = _digest(text)
    # release's own record of what it wrote, so make notebooks knows these copies are untouched
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return len(sources)


def learner_requirements(text: str) -> str:
    """requirements.txt down to its course-only section: the pins stay in that one file."""
    lines = text.splitlines(keepends=True)
    cut = next((i for i, line in enumerate(lines) if line.startswith(COURSE_ONLY)), None)
    if cut is None:
        raise HandoutError(f"requirements.txt has no line starting {COURSE_ONLY!r} before the test tools")
    return "".join(lines[:cut])


def _write_setup(out: Path) -> None:
    """What the notebooks tell a learner to run: the Makefile's learner targets and the set-up script."""
    requirements = (REPO_ROOT / "requirements.txt").read_text(encoding="utf-8")
    (out / "requirements.txt").write_text(learner_requirements(requirements), encoding="utf-8")
    (out / "scripts").mkdir()
    shutil.copy2(REPO_ROOT / "scripts" / "setup_env.py", out / "scripts" / "setup_env.py")
    shutil.copy2(TEMPLATES / "Makefile", out / "Makefile")


# ---------- tooldesign with its graded functions stubbed ----------


def graded_functions() -> dict[str, tuple[str, Callable | None]]:
    """ "module:name" of each graded function in tooldesign -> (grade_id, the package's own uses)."""
    from workbook.exercises.references import REFERENCES

    found: dict[str, tuple[str, Callable | None]] = {}
    for grade_id, grading in REFERENCES.items():
        targets = list(grading.stubs)
        if isinstance(grading.reference, str) and ":" in grading.reference:
            targets.insert(0, grading.reference)
        for target in targets:
            found.setdefault(target, (grade_id, grading.package_uses))
    return found


def _normal(value: Any) -> Any:
    """Arguments in one form, whether the package passes numpy numbers, tuples or lists; a dataclass
    (a ToolCall, a Tool) by its fields, a function by its name (its address changes every run)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
        return [
            type(value).__name__,
            {f: _normal(getattr(value, f)) for f in sorted(value.__dataclass_fields__)},
        ]
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{getattr(value, '__module__', '')}.{value.__qualname__}"
    if hasattr(value, "item") and getattr(value, "shape", None) == ():
        value = value.item()
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict):
        return {str(k): _normal(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    return repr(value)


def call_key(name: str, arguments: list) -> str:
    return hashlib.sha256(json.dumps([name, _normal(arguments)], sort_keys=True).encode()).hexdigest()


# What an edition is built from: a change to any of these makes a new edition (and new known calls).
EDITION_SOURCES = ("src", "data", "requirements.txt", "pyproject.toml")


def tree_digest(root: Path, paths: list[Path], content: bool) -> str:
    """A digest of the files under ``paths``: their bytes, or (cheaper) their size and modification time."""
    digest = hashlib.sha256()
    for top in paths:
        files = (
            [top]
            if top.is_file()
            else sorted(p for p in top.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        )
        for path in files:
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            if content:
                digest.update(hashlib.sha256(path.read_bytes()).digest())
            else:
                state = path.stat()
                digest.update(f"{state.st_size}:{state.st_mtime_ns}".encode())
    return digest.hexdigest()


def source_state() -> str:
    """The state of the sources an edition is built from (sizes and modification times)."""
    return tree_digest(
        REPO_ROOT, [REPO_ROOT / name for name in EDITION_SOURCES if (REPO_ROOT / name).exists()], False
    )


_KNOWN: dict[str, dict[str, dict[str, Any]]] = {}


def _known_calls_once(targets: dict[str, tuple[str, Callable | None]]) -> dict[str, dict[str, Any]]:
    """:func:`_known_calls`, replayed once per process for one state of the sources.

    The replay runs the package's own uses of every graded function, most of a build's time. Its
    result depends on the sources alone, so a process that builds several editions (the tests, a
    grading run after a handout) reuses it until a source file changes; each build gets its own copy.
    """
    key = source_state() + repr(sorted(targets))
    if key not in _KNOWN:
        _KNOWN.clear()
        _KNOWN[key] = _known_calls(targets)
    return copy.deepcopy(_KNOWN[key])


def _known_calls(targets: dict[str, tuple[str, Callable | None]]) -> dict[str, dict[str, Any]]:
    """Run the package's own uses of each graded function, recording every call and its result."""
    tables: dict[str, dict[str, Any]] = {target: {} for target in targets}
    originals = {}
    reexports: list[tuple[Any, str, Any]] = []
    for target in targets:
        module_name, _, name = target.partition(":")
        module = importlib.import_module(module_name)
        original = getattr(module, name)
        originals[target] = (module, name, original)
        signature = inspect.signature(original)

        def recorder(
            *args: Any,
            _original=original,
            _signature=signature,
            _table=tables[target],
            _name=name,
            **kwargs: Any,
        ) -> Any:
            bound = _signature.bind(*args, **kwargs)
            bound.apply_defaults()
            result = _original(*args, **kwargs)
            plain = _normal(result) if not hasattr(result, "to_dict") else None
            if plain is not None:
                _table[call_key(_name, list(bound.arguments.values()))] = _as_literal(result)
            return result

        setattr(module, name, recorder)
        # a package that re-exports it (tooldesign.dispatch.release_policy) hands out the same recorder
        for other in list(sys.modules.values()):
            if (
                getattr(other, "__name__", "").startswith("tooldesign")
                and getattr(other, name, None) is original
            ):
                setattr(other, name, recorder)
                reexports.append((other, name, original))
    try:
        for _, uses in targets.values():
            if uses is not None:
                uses()
    finally:
        for module, name, original in [*originals.values(), *reexports]:
            setattr(module, name, original)
    return tables


def _as_literal(value: Any) -> Any:
    if hasattr(value, "item") and getattr(value, "shape", None) == ():
        return value.item()
    return value


STUB_HELPER = '''

def _handout_answer(name, arguments):
    """Stands in for a graded function of the course: it answers only the calls the package itself
    makes on the course data; anything else is the learner's exercise."""
    import hashlib, json

    def normal(value):
        if isinstance(value, bool) or value is None or isinstance(value, str):
            return value
        if hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
            return [type(value).__name__, {f: normal(getattr(value, f)) for f in sorted(value.__dataclass_fields__)}]
        if callable(value) and hasattr(value, "__qualname__"):
            return f"{getattr(value, '__module__', '')}.{value.__qualname__}"
        if hasattr(value, "item") and getattr(value, "shape", None) == ():
            value = value.item()
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, dict):
            return {str(k): normal(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
        if hasattr(value, "tolist"):
            value = value.tolist()
        if isinstance(value, (list, tuple)):
            return [normal(v) for v in value]
        return repr(value)
    key = hashlib.sha256(json.dumps([name, normal(list(arguments.values()))], sort_keys=True).encode()).hexdigest()
    if key in _HANDOUT_KNOWN.get(name, {}):
        return _HANDOUT_KNOWN[name][key]
    raise NotImplementedError(f"{name} is an exercise of this course ({_HANDOUT_EXERCISE[name]}); "
                              "in the student edition the package does not hold its answer: write your own")
'''


def stub_function(source: str, name: str, grade_id: str) -> str:
    """``source`` with function ``name`` stubbed (release's stubber), answering only known calls."""
    from workbook.release import CODE_STUB, _stub_for_top_level

    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            segment = "".join(lines[first - 1 : node.end_lineno])
            stub = _stub_for_top_level(segment)
            body_indent = " " * node.body[0].col_offset
            # What inspect.getsource shows in a lesson: why the body is hidden, not a stub to edit.
            stub = stub.replace(
                f"{body_indent}{CODE_STUB}\n{body_indent}raise NotImplementedError()",
                f"{body_indent}# Hidden in the student edition: this function is exercise {grade_id}, which you\n"
                f"{body_indent}# write yourself in your notebook (edit nothing here). So that the lessons run, the\n"
                f"{body_indent}# package answers the calls it makes itself on the course data, and no others.\n"
                f"{body_indent}return _handout_answer({name!r}, dict(locals()))",
            )
            if "_handout_answer" not in stub:
                raise HandoutError(f"cannot stub {name}: release's stub of it has no body to replace")
            return "".join(lines[: first - 1]) + stub + "".join(lines[node.end_lineno :])
    raise HandoutError(f"workbook.exercises.references names {name}, which its module does not define")


def _write_tooldesign(folder: Path) -> list[str]:
    package = REPO_ROOT / "src" / "tooldesign"
    left_out = {(package / part).resolve() for part in TOOLDESIGN_LEFT_OUT}
    missing = [str(p) for p in left_out if not p.is_file()]
    if missing:  # a renamed module would otherwise ship its answer silently
        raise HandoutError(f"TOOLDESIGN_LEFT_OUT names {', '.join(missing)}, which does not exist")

    def ignore(where: str, names: list[str]) -> list[str]:
        return [
            n
            for n in names
            if n == "__pycache__" or n.endswith(".pyc") or Path(where, n).resolve() in left_out
        ]

    shutil.copytree(package, folder, ignore=ignore)
    targets = graded_functions()
    tables = _known_calls_once(targets)
    by_module: dict[str, list[str]] = {}
    for target in targets:
        by_module.setdefault(target.partition(":")[0], []).append(target)
    for module_name, names in sorted(by_module.items()):
        path = folder.parent / Path(*module_name.split("."))
        path = path.with_suffix(".py") if path.with_suffix(".py").is_file() else path / "__init__.py"
        source = path.read_text(encoding="utf-8")
        known: dict[str, dict] = {}
        exercise: dict[str, str] = {}
        for target in sorted(names):
            name = target.partition(":")[2]
            source = stub_function(source, name, targets[target][0])
            known[name] = dict(sorted(tables[target].items()))
            exercise[name] = targets[target][0]
        source += (
            STUB_HELPER + f"\n\n_HANDOUT_EXERCISE = {exercise!r}\n_HANDOUT_KNOWN = {_literal_text(known)}\n"
        )
        ast.parse(source)  # a stub that does not parse must stop the build, not reach a class
        path.write_text(source, encoding="utf-8")
    return sorted(targets)


def _literal_text(value: Any) -> str:
    return pprint.pformat(value, width=110, sort_dicts=True)


# ---------- workbook without the grader and without answers ----------


def _write_workbook(folder: Path, warnings: list[str], self_checks: bool = True) -> None:
    import workbook.exercises as exercises_package

    shutil.copytree(
        REPO_ROOT / "src" / "workbook",
        folder,
        ignore=lambda where, names: [
            n for n in names if n in LEFT_OUT or (Path(where).name == "exercises" and n.startswith("lesson"))
        ],
    )
    _word_package_files(folder.parent)
    edition = folder / "edition.py"
    text = edition.read_text(encoding="utf-8").replace('\nNAME = "course"', '\nNAME = "student"', 1)
    if '\nNAME = "student"' not in text:
        raise HandoutError('workbook/edition.py has no line NAME = "course" for the handout to rewrite')
    edition.write_text(text, encoding="utf-8")
    for module in sorted(m.name for m in pkgutil.iter_modules(exercises_package.__path__)):
        if module.startswith("lesson"):
            text = lesson_module(module, warnings, self_checks)
            ast.parse(text)
            (folder / "exercises" / f"{module}.py").write_text(text, encoding="utf-8")


def _word_package_files(src: Path) -> None:
    """A phrase that lives in a package file (a quiz moved out of its notebook, say: where names it as
    "src/workbook/..."), worded for this edition in the edition's copy of that file."""
    from workbook.edition import PHRASES, Edition, worded

    for where in sorted({w for phrase in PHRASES for w in phrase.where if w.startswith("src/")}):
        path = src.parent / where
        if not path.is_file():
            raise HandoutError(f"workbook.edition names {where}, which the edition does not have")
        text = path.read_text(encoding="utf-8")
        if not any(phrase.course in text for phrase in PHRASES if where in phrase.where):
            raise HandoutError(
                f"workbook.edition's wording for {where} is not in it any more; update PHRASES"
            )
        path.write_text(worded(text, where, Edition.STUDENT), encoding="utf-8")


def salt_for(grade_id: str) -> str:
    return hashlib.sha256(f"workbook-handout\0{grade_id}".encode()).hexdigest()[:16]


def lesson_module(name: str, warnings: list[str], self_checks: bool = True) -> str:
    """The student edition of one lesson module: public judges as they are, the rest as digests."""
    from workbook.exercises import grading_for

    module = importlib.import_module(f"workbook.exercises.{name}")
    public: dict[str, str] = {}
    specs = []
    for exercise in module.EXERCISES:
        grading = grading_for(exercise.grade_id)
        judge_name = getattr(exercise.judge, "__name__", "")
        if grading.public and getattr(module, judge_name, None) is exercise.judge:
            public[exercise.grade_id] = judge_name
        specs.append(
            exercise_spec(exercise, grading, exercise.grade_id in public or not self_checks, warnings)
        )
    code = keep_only(inspect.getsource(module), set(public.values()) | shown_names(name))
    judges = "{" + ", ".join(f"{gid!r}: {fn}" for gid, fn in public.items()) + "}"
    head = (
        f'"""{module.__doc__.strip().splitlines()[0] if module.__doc__ else name}\n\n'
        "Student edition: no answer in clear. Written by `.venv/bin/workbook handout`; see workbook.handout.\n"
        '"""\nfrom __future__ import annotations\n\n'
    )
    return (
        head + code + "\n\nfrom workbook.exercises.public import build as _build\n\n"
        f"SPECS = {_literal_text(specs)}\n\nEXERCISES = _build(SPECS, {judges})\n"
    )


def shown_names(lesson: str) -> set[str]:
    """Names the notebooks import from a lesson module themselves (a draft to lint, say): examples the
    lesson shows, so the student edition keeps them."""
    import re

    found: set[str] = set()
    pattern = re.compile(rf"from\s+workbook\.exercises\.{lesson}\s+import\s+\(?([\w\s,]+)\)?")
    for path in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb")):
        for match in pattern.finditer(path.read_text(encoding="utf-8").replace("\\n", "\n")):
            found |= {part.split(" as ")[0].strip() for part in match.group(1).split(",") if part.strip()}
    return found


def exercise_spec(exercise: Any, grading: Any, public: bool, warnings: list[str]) -> dict:
    from workbook.checks import collect, judge_plain
    from workbook.exercises.public import derive, quick, seal
    from workbook.plain import to_plain

    salt = salt_for(exercise.grade_id)
    spec = {
        "grade_id": exercise.grade_id,
        "notebook": exercise.notebook,
        "answer": exercise.answer,
        "points": exercise.points,
        "kind": exercise.kind,
        "prompt": exercise.prompt,
        "probes": tuple(exercise.probes),
        "salt": salt,
        "answers": [],
        "examples": [],
        "fallback": general_hint(exercise),
    }
    if public or exercise.kind == "manual":
        return spec
    if exercise.kind == "function":
        reference = grading.reference_function()
        if reference is None:
            warnings.append(
                f"{exercise.grade_id}: no reference in workbook.exercises.references; "
                "its self-check in the student edition cannot confirm an answer"
            )
            return spec
        right = collect(exercise, reference)
        spec["examples"] = [quick(salt, result) for result in right]
        spec["general"] = general_hints(exercise, right)
    else:
        if grading.reference is None:
            warnings.append(
                f"{exercise.grade_id}: no right value in workbook.exercises.references; "
                "its self-check in the student edition cannot confirm an answer"
            )
            return spec
        right = to_plain(grading.right_value())
    candidates = [right] + [
        collect(exercise, w.answer) if exercise.kind == "function" else to_plain(w.answer)
        for w in exercise.wrong_answers
    ]
    seen = set()
    for plain in candidates:
        verdict = judge_plain(exercise, plain)
        digest, key = derive(salt, plain)
        if digest not in seen:
            seen.add(digest)
            spec["answers"].append((digest, verdict.status, seal(key, verdict.message)))
    if spec["answers"][0][1] != "pass":
        warnings.append(f"{exercise.grade_id}: the registered reference does not pass the lesson's own check")
    return spec


def _defined(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def keep_only(source: str, roots: set[str]) -> str:
    """The top-level statements of ``source`` that ``roots`` need, in their order (imports included)."""
    tree = ast.parse(source)
    nodes = [
        n
        for n in tree.body
        if not (isinstance(n, ast.ImportFrom) and n.module == "__future__")
        and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    ]
    needed, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        for node in nodes:
            if name in _defined(node):
                todo.extend(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in needed)
    kept = [node for node in nodes if _defined(node) & needed]
    return "\n\n".join(ast.unparse(node) for node in kept)


def _unlike(value: Any, k: int) -> Any:
    """A wrong result of the right type that no list of known mistakes anticipates, two ways (k=0, 1)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value + (7919, 104729)[k]
    if isinstance(value, float):
        return value * (3.7, 11.3)[k] + 1
    if isinstance(value, str):
        return value + (" zq", " xv")[k]
    if isinstance(value, list):
        return value + ([{"zq": 1}], [{"xv": 2}, {"xv": 3}])[k]
    return None


def general_hints(exercise: Any, right: list) -> list[str | None]:
    """Per public example, the repository's own hint for a wrong result it does not know, with the
    right result taken out: the check's general direction, as good as in the repository.

    The full judge is asked about two unrelated wrong results at that example; when both get the same
    message (so it is the general one, not a known mistake's), and once "expected <right>" is cut, no
    trace of the right result is left in it, the message is kept with ``{got}`` for the learner's result."""
    from workbook.checks import judge_plain

    found: list[str | None] = []
    for index, want in enumerate(right):
        said = []
        for k in (0, 1):
            wrong = _unlike(want, k)
            if wrong is None:
                break
            results = list(right)
            results[index] = wrong
            verdict = judge_plain(exercise, results)
            if verdict.passed:
                break
            said.append(verdict.message.replace(repr(wrong), "{got}").replace(str(wrong), "{got}"))
        template = said[0] if len(said) == 2 and said[0] == said[1] and "{got}" in said[0] else None
        if template is not None:
            for shown in {repr(want), str(want)}:
                template = re.sub(r",? expected " + re.escape(shown), "", template)
            tail = template.split("{got}", 1)[1]
            # Nothing left after the result (only "expected <right>" followed), or the right result
            # named in what follows: the general hint instead.
            if not tail.strip(" .,;:") or any(
                re.search(rf"(?<![\w.]){re.escape(shown)}(?![\w.])", tail)
                for shown in {repr(want), str(want)}
            ):
                template = None
        if template is not None and not template.rstrip().endswith((".", "!", "?")):
            template = template.rstrip() + "."  # a whole sentence, as the edition's other hints are
        found.append(template)
    return found


def general_hint(exercise: Any) -> str:
    """The hint for a wrong answer the edition does not know, from what it may know: the exercise's
    prompt and the mistakes its check recognises, never the right answer. One or two whole sentences,
    following "{call} returned {got}." for a function (what was tried and what came back)."""
    asks = exercise.prompt.strip().rstrip(".") or f"the exercise's `{exercise.answer}`"
    if exercise.kind == "function":
        return (
            f"Expected what the exercise asks for these inputs ({asks}); this edition keeps the right result "
            "with your instructor. Work these inputs through the lesson's rule by hand and compare each "
            "step with what your function does."
        )
    return (
        f"Expected what the exercise asks ({asks}); this edition keeps the right answer with your instructor. "
        "Work it through the lesson's example by hand, then compare with your answer."
    )


def readme() -> str:
    """The learner's README: the template, titled as the course, with the course README's sections a
    learner needs (paragraphs naming what this edition lacks left out)."""
    course = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    title = course.splitlines()[0]
    sections = []
    for part in course.split("\n## ")[1:]:
        heading, _, body = part.partition("\n")
        if heading.strip() in README_SECTIONS:
            kept = [_kept_part(p) for p in body.split("\n\n")]
            sections.append(f"## {heading.strip()}\n" + "\n\n".join(p for p in kept if p).strip("\n") + "\n")
    listed = "\n".join(f"- [{name}](docs/{name}): {what}" for name, what in GUIDES)
    sections.append(f"## Guides\n\n{listed}\n")
    template = (TEMPLATES / "README.md").read_text(encoding="utf-8")
    return template.replace("{title}", title).replace("{sections}", "\n".join(sections)).rstrip("\n") + "\n"


def _write_guides(folder: Path) -> None:
    """The guides a learner needs, in docs/ as in the course, without the paragraphs (or table rows)
    that name what this edition lacks."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, _what in GUIDES:
        text = (REPO_ROOT / "docs" / name).read_text(encoding="utf-8")
        kept = [_kept_part(p) for p in text.split("\n\n")]
        (folder / name).write_text("\n\n".join(p for p in kept if p).strip("\n") + "\n", encoding="utf-8")


# Folders and commands of the repository the student edition does not have (a folder inside an
# address, https://docs.example.com/tests/, is no folder of the course).
LACKING = re.compile(
    r"(?<![\w/.\-])(?:solutions|tests|benchmarks|docs|binder|\.ci)/|scripts/wheelhouse"
    r"|\bmake (?:test|grade|handout|wheelhouse|solutions|data|bench|clean)\b|\bworkbook (?:grade|handout|execute|author)\b"
)


def _kept_part(paragraph: str) -> str:
    """A paragraph as the edition keeps it: whole, or "" when it names what the edition lacks. A table
    keeps its other rows (one glossary row naming `make grade` must not empty the glossary)."""
    lines = paragraph.split("\n")
    if len(lines) > 2 and all(line.startswith("|") for line in lines if line.strip()):
        rows = [
            line for number, line in enumerate(lines) if number < 2 or not _names_what_the_edition_lacks(line)
        ]
        return "\n".join(rows) if len(rows) > 2 else ""
    return "" if _names_what_the_edition_lacks(paragraph) else paragraph


def _names_what_the_edition_lacks(paragraph: str) -> bool:
    return LACKING.search(paragraph) is not None


def main(out: Path) -> int:
    result = build(out)
    print(
        f"student edition written to {result.folder}: {plural_count(result.notebooks, 'notebook')}, "
        f"{plural_count(len(result.stubbed), 'graded function')} stubbed in tooldesign"
    )
    for line in result.warnings:
        print(f"warning: {line}", file=sys.stderr)
    return 0
