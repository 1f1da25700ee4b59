"""The course's command line: ``workbook COMMAND`` (the entry point; also ``python -m workbook``).

doctor, release, execute, check, list, author, new-lesson, grade, handout. Expected mistakes (an unknown
notebook, a file that is not a notebook, an unwritable folder) end with a one-line message that
says what to do, never a traceback: the parser and the runner are tooldesign.command_line's, shared
with every other command line of the course.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from tooldesign.command_line import OneLineParser, program_name, run
from tooldesign.wording import count as plural_count
from workbook import NOTEBOOKS_DIR, REPO_ROOT, SOLUTIONS_DIR


def _doctor(args: argparse.Namespace) -> int:
    from workbook.doctor import main

    return main()


def _release(args: argparse.Namespace) -> int:
    from tooldesign.atomic import stop_on_signals, write_lock
    from workbook.release import release

    # One release at a time: two at once would each back up the other's fresh copy as "changed".
    with stop_on_signals(), write_lock(NOTEBOOKS_DIR, "workbook release"):
        released = release(args.notebooks, force=args.force)
    for item in released:
        print(
            f"{item.action:>9}  notebooks/{item.path.name}"
            if item.action in ("written", "unchanged")
            else f"{item.path.name}: {item.action}"
        )
    return 0


def _execute(args: argparse.Namespace) -> int:
    from workbook.execute import execute_in_place
    from workbook.release import resolve

    _positive_timeout(args.timeout)
    # Every name is checked before any notebook runs; no names means every lesson in solutions/ (by
    # path: a bare file name would first match a file of that name in the current folder).
    if args.notebooks:
        paths = [resolve(name, SOLUTIONS_DIR) for name in args.notebooks]
    else:
        paths = sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))
    for path in paths:
        if _inside(path, NOTEBOOKS_DIR):
            raise _BadArgument(
                f"{_as_typed(path)} is a learner's copy in notebooks/, which execute never rewrites; "
                f"execute stores outputs in solutions/, and `.venv/bin/workbook check {path.stem[:2]}` runs yours"
            )
    from tooldesign.atomic import stop_on_signals, write_lock

    for path in paths:
        print(f"running {_as_typed(path)} ...", flush=True)
        # A notebook is stored whole or not at all, by one run at a time (a second one is refused).
        with stop_on_signals(), write_lock(path, "workbook execute"):
            execute_in_place(path, timeout=args.timeout)
    return 0


class _BadArgument(Exception):
    """An argument argparse accepted but the command cannot use; one line, exit 2."""


MAX_TIMEOUT = 24 * 3600  # seconds a cell may run; more is a typo, and a hung cell would hold the run for it


def _positive_timeout(seconds: float) -> None:
    if not seconds > 0:
        raise _BadArgument(f"--timeout needs a number of seconds above 0, not {seconds}")
    if seconds > MAX_TIMEOUT:
        raise _BadArgument(f"--timeout needs a number of seconds up to {MAX_TIMEOUT} (a day), not {seconds}")


def _saved(path: Path) -> str:
    """When the file was last saved, in local time and as "N minutes ago"."""
    saved = path.stat().st_mtime
    ago = max(time.time() - saved, 0)
    words = (
        f"{ago:.0f} seconds ago"
        if ago < 90
        else f"{ago / 60:.0f} minutes ago"
        if ago < 5400
        else f"{ago / 3600:.0f} hours ago"
        if ago < 129600
        else f"{ago / 86400:.0f} days ago"
    )
    return f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(saved))}, {words}"


def _lesson_of(path: Path, shown: str) -> str:
    """The course notebook a file belongs to, by its number: "02_coldchain_data-Copy1" checks as lesson 02."""
    from workbook.release import ReleaseError, lesson_stem

    lesson = lesson_stem(path.stem[:2]) if path.stem[:2].isdigit() else None
    if lesson is None:
        raise ReleaseError(
            f"{shown} is not named after a course notebook, so no checks belong to it; keep its "
            "lesson number at the front of the name, like 02_coldchain_data.ipynb"
        )
    return lesson


_CHECK_CALL = re.compile(r"""check\(\s*["'](ex(\d\d)-[\w-]+)["']""")


def _same_lesson(notebook: Any, lesson: str, shown: str) -> None:
    """A notebook whose check cells all belong to another lesson was saved under the wrong name."""
    from workbook.release import ReleaseError

    numbers = {
        m.group(2)
        for cell in notebook.cells
        if cell.get("cell_type") == "code"
        for m in _CHECK_CALL.finditer(str(cell.get("source", "")))
    }
    if numbers and lesson[:2] not in numbers:
        other = ", ".join(sorted(numbers))
        raise ReleaseError(
            f"{shown} holds the checks of lesson {other}, not of {lesson}; check it under its own "
            f"name, or restore {lesson}.ipynb with `make notebooks`"
        )


def _check(args: argparse.Namespace) -> int:
    from workbook.checks import for_terminal, wrapped
    from workbook.execute import errors, run_notebook, verdict_lines
    from workbook.exercises import exercises_for
    from workbook.release import ReleaseError, read_notebook, resolve

    _positive_timeout(args.timeout)
    path = resolve(args.notebook, NOTEBOOKS_DIR)
    notebook = read_notebook(path)
    shown = _as_typed(path)
    if not notebook.cells:
        raise ReleaseError(
            f"{shown} has no cells; restore it (git checkout -- {path.name}) or write a fresh copy "
            "with `make notebooks`"
        )
    lesson = _lesson_of(path, shown)
    _same_lesson(notebook, lesson, shown)
    expected = exercises_for(lesson)
    if not expected:  # "0 of 0 pass" would read as success: nothing would be checked, which is a failure
        raise ReleaseError(f"lesson {lesson} has no exercises to check, so {shown} cannot be checked")
    print(
        f"Checking the SAVED file {shown}, last saved {_saved(path)} (save first: Ctrl+S). "
        "It runs as a copy; your file is not changed ...",
        flush=True,
    )
    try:
        run_notebook(notebook, path.parent, timeout=args.timeout, allow_errors=True, pictures=False)
    except Exception as error:  # a timeout or a kernel that died: the learner needs the cause, not the stack
        raise ReleaseError(
            f"{shown} could not be run to the end ({type(error).__name__}: "
            f"{' '.join(str(error).split())[:160]})"
        ) from None
    lines = {line.grade_id: line for line in verdict_lines(notebook)}
    by_hand = [ex for ex in expected if ex.kind == "manual"]
    predictions = [ex for ex in expected if ex.kind == "prediction"]
    checked = [ex for ex in expected if ex.scored and ex.kind != "manual"]
    for exercise in expected:
        line = lines.get(exercise.grade_id)
        tag = " (a prediction: for you, not scored)" if exercise.kind == "prediction" else ""
        if exercise.kind == "manual":
            print(
                f"✎ {exercise.grade_id}: graded by hand, not by a check. Rubric: {exercise.prompt or 'see the notebook'}"
            )
        elif line:
            print(wrapped(f"{line.symbol} {exercise.grade_id}{tag}: {for_terminal(line.message)}"))
        else:
            print(f"? {exercise.grade_id}{tag}: its check cell did not run or was removed")
    done = sum(1 for ex in checked if ex.grade_id in lines and lines[ex.grade_id].symbol == "✔")
    hand = f"; {len(by_hand)} graded by hand" if by_hand else ""
    told = sum(1 for ex in predictions if ex.grade_id in lines and lines[ex.grade_id].symbol == "✔")
    ahead = f"; {told} of {plural_count(len(predictions), 'prediction')} right" if predictions else ""
    print(f"\n{done} of {len(checked)} checked exercises pass{hand}{ahead}.")
    for problem in errors(notebook):
        print(f"note: {problem}")
    return 0


def _list(args: argparse.Namespace) -> int:
    from workbook.exercises import exercises_for

    for path in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb")):
        count = len(exercises_for(path.stem))
        print(f"{path.stem:<28} {plural_count(count, 'exercise')}")
    return 0


def _quizzes(args: argparse.Namespace) -> int:
    from workbook.quiz import progress_path, quiz_progress, reset_quiz_progress

    if args.reset:
        reset_quiz_progress()
        print(f"quiz answers forgotten ({progress_path()} removed)")
        return 0
    quiz_progress()
    return 0


def _author(args: argparse.Namespace) -> int:
    from workbook.authoring import ScriptError, author

    if not args.script.is_file():
        raise _BadArgument(f"{_shown_arg(args.script)} is not a file; give a lesson script with # %% cells")
    if _inside(args.target, NOTEBOOKS_DIR):
        raise _BadArgument(
            f"{_shown_arg(args.target)} is a learner's copy in notebooks/, which author never "
            "writes; write solutions/NN_name.ipynb, then run `make notebooks`"
        )
    if args.target.is_dir():
        raise _BadArgument(f"{_shown_arg(args.target)} is a folder; give the notebook file to write")
    if args.target.exists() and not args.force:
        raise _BadArgument(f"{_shown_arg(args.target)} exists; add --force to replace it")
    from tooldesign.atomic import stop_on_signals, write_lock

    try:
        with stop_on_signals(), write_lock(args.target, "workbook author"):
            print(f"wrote {author(args.script, args.target)}")
    except ScriptError as error:
        raise _BadArgument(str(error)) from None
    return 0


def _new_lesson(args: argparse.Namespace) -> int:
    from tooldesign.atomic import stop_on_signals, write_lock
    from workbook.scaffold import ScaffoldError, new_lesson

    try:
        with stop_on_signals(), write_lock(SOLUTIONS_DIR, "workbook new-lesson"):
            done = new_lesson(args.number, args.name)
    except ScaffoldError as error:
        raise _BadArgument(str(error)) from None
    for change in done.changes:
        print(f"{change.action:>8}  {change.path.relative_to(REPO_ROOT)}")
    print("next:", *done.next_commands, sep="\n  ")
    return 0


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def _grade_paths(args: argparse.Namespace) -> None:
    """Refuse the paths that would grade the wrong thing or write among files someone else owns."""
    if str(args.out).strip() == ".":
        raise _BadArgument("--out needs a folder of its own for the results, not the current folder")
    if args.submissions.is_file() and args.submissions.suffix != ".ipynb":
        raise _BadArgument(
            f"{_shown_arg(args.submissions)} is a file but not a notebook (.ipynb); give a "
            "folder of submissions or one notebook"
        )
    if args.out.exists() and not args.out.is_dir():
        raise _BadArgument(f"--out {_shown_arg(args.out)} is a file; give a folder for the results")
    owned = [(NOTEBOOKS_DIR, "the learner's notebooks/"), (SOLUTIONS_DIR, "solutions/")]
    if args.submissions.is_dir():
        owned.append((args.submissions, "the submissions"))
    for folder, whose in owned:
        if _inside(args.out, folder):
            raise _BadArgument(
                f"--out {_shown_arg(args.out)} is inside {whose}; results go in a folder of their "
                "own, for example --out grading-out"
            )
    hidden_checks = args.hidden_checks
    if hidden_checks is not None and hidden_checks.is_file() and hidden_checks.suffix != ".py":
        raise _BadArgument(
            f"--hidden-checks {_shown_arg(hidden_checks)} is not a Python file (.py) defining EXERCISES"
        )
    _no_special(args.submissions, "SUBMISSIONS", "a folder of submissions or one notebook", folder_ok=True)
    if hidden_checks is not None:
        _no_special(hidden_checks, "--hidden-checks", "a Python file (.py) defining EXERCISES")
    _writable_folder(
        args.out, "--out"
    )  # before any kernel starts: results that cannot be written waste the run


def _no_special(path: Path, option: str, wanted: str, folder_ok: bool = False) -> None:
    """Refuse a fifo, a device, a socket (or a folder where a file is wanted) in one line."""
    from tooldesign.input_files import special_kind

    try:
        mode = path.stat().st_mode
    except OSError:
        return  # missing: the command's own check names it
    kind = special_kind(mode)
    if kind is not None and not (folder_ok and kind == "a folder"):
        raise _BadArgument(f"{option} {_shown_arg(path)} is {kind}; give {wanted}")


def _writable_folder(folder: Path, option: str) -> None:
    from tooldesign.input_files import InputFileError, check_writable_folder

    try:
        check_writable_folder(folder)
    except InputFileError as error:
        raise _BadArgument(f"{option}: {error}") from None


def _as_typed(path: Path) -> str:
    """A path inside the course as relative to it (``solutions/02_...``), any other as it is."""
    inside = path.resolve().is_relative_to(REPO_ROOT.resolve())
    return os.path.relpath(path.resolve(), REPO_ROOT.resolve()) if inside else str(path)


def _shown_arg(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else text[:79] + "…"


GRADER_FAULT = 3  # `grade`'s exit status when some file hit the grader's own fault
MAX_LIMIT_MB = 1 << 20  # 1 TB: far above any machine, far below what the kernel's rlimit can hold


def _grade(args: argparse.Namespace) -> int:
    from workbook.grade import GradeOptions, grade
    from workbook.grade.classbook import ClassbookError
    from workbook.grade.exports import ExportError
    from workbook.grade.plan import PlanError
    from workbook.grade.results import Status

    if args.jobs < 1 or not 0 < args.timeout < float("inf"):
        raise _BadArgument("--jobs needs 1 or more, --timeout a number of seconds above 0")
    if not (0 < args.memory <= MAX_LIMIT_MB and 0 < args.disk <= MAX_LIMIT_MB):
        raise _BadArgument(f"--memory and --disk need a whole number of MB from 1 to {MAX_LIMIT_MB}")
    from workbook.grade.kernel import Limits
    from workbook.grade.sandbox import NoSandbox

    _grade_paths(args)
    try:
        report = grade(
            GradeOptions(
                args.submissions,
                args.out,
                jobs=args.jobs,
                timeout=args.timeout,
                hidden_checks=args.hidden_checks,
                sandbox=False if args.no_sandbox else None,
                limits=Limits(memory=args.memory << 20, disk=args.disk << 20),
                roster=args.roster,
                hand_grades=args.hand_grades,
                exports=tuple(args.export or ()),
            )
        )
    except (FileNotFoundError, PlanError, NoSandbox, ClassbookError, ExportError) as error:
        raise _BadArgument(str(error)) from None  # one line, like every other refusal
    except KeyboardInterrupt:
        print(
            f"stopped. Every file graded so far is in {args.out}/journal.sqlite; run the same command "
            "again to go on from there.",
            file=sys.stderr,
        )
        return 130
    assert report.gradebook is not None  # written at the end of every run that was not interrupted
    counts = ", ".join(f"{status} {n}" for status, n in report.counts().items())
    print(
        f"{plural_count(len(report.rows), 'file')}: {report.graded_now} graded now, {report.from_journal} from the journal"
    )
    print(f"statuses: {counts or 'none'}")
    print(f"gradebook: {report.gradebook}")
    print(
        f"feedback:  {report.gradebook.parent / 'feedback'}/ ({plural_count(len(report.feedback), 'learner')})"
    )
    for line in report.summary:
        print(line)
    if report.exports:
        print(f"exports:   {report.exports[0].parent}/ ({', '.join(p.name for p in report.exports)})")
    faults = sum(1 for row in report.rows if row.status is Status.GRADER_ERROR)
    if faults:
        # A script that grades a class must not take an unfinished run for a finished one.
        print(
            f"{plural_count(faults, 'file')} hit a grader error (not the learners' fault); run the same "
            "command again to grade them, or see the reason column",
            file=sys.stderr,
        )
        return GRADER_FAULT
    return 0


def _export(args: argparse.Namespace) -> int:
    """Exports from a finished grading folder (its gradebook.json), refused if another course wrote it."""
    from workbook.grade.classbook import ClassbookError, load_roster
    from workbook.grade.exports import ExportError, write_exports
    from workbook.grade.gradebook import read_stamp

    try:
        roster = load_roster(args.roster) if args.roster else None
        rows = read_stamp(args.out / "gradebook.json")
        written = write_exports(rows, roster, args.to, args.out / "exports")
    except (ClassbookError, ExportError) as error:
        raise _BadArgument(str(error)) from None
    print(f"exports:   {args.out / 'exports'}/ ({', '.join(p.name for p in written)})")
    return 0


def _path(text: str) -> Path:
    """A path argument; an empty one would quietly mean the current folder, so it is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path names no file or folder")
    return Path(text)


def _handout(args: argparse.Namespace) -> int:
    from workbook.handout import HandoutError, main

    try:  # handout checks its own folder before it builds anything
        return main(args.out)
    except HandoutError as error:
        raise _BadArgument(str(error)) from None


def parser(prog: str = "workbook") -> argparse.ArgumentParser:
    top = OneLineParser(prog=prog, description="The course machinery.")
    sub = top.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    sub.add_parser("doctor", help="check this machine: Python, pinned packages, widgets, data/").set_defaults(
        run=_doctor
    )
    p = sub.add_parser("release", help="write notebooks/ from solutions/ (stubs, no outputs)")
    p.add_argument("notebooks", nargs="*", help="numbers or names; all when omitted")
    p.add_argument(
        "--force", action="store_true", help="replace changed learner copies, keeping them as .bak"
    )
    p.set_defaults(run=_release)
    p = sub.add_parser("execute", help="run solution notebooks and store their outputs (authors)")
    p.add_argument("notebooks", nargs="*")
    p.add_argument("--timeout", type=int, default=300)
    p.set_defaults(run=_execute)
    p = sub.add_parser("check", help="run your notebook's checks, e.g. `.venv/bin/workbook check 02`")
    p.add_argument("notebook", help="a number (02), a name, or a path")
    p.add_argument("--timeout", type=int, default=120)
    p.set_defaults(run=_check)
    sub.add_parser("list", help="the notebooks and their exercises").set_defaults(run=_list)
    p = sub.add_parser(
        "quizzes", help="your quiz answers so far, kept on this machine only (--reset forgets them)"
    )
    p.add_argument("--reset", action="store_true", help="forget every recorded answer")
    p.set_defaults(run=_quizzes)
    p = sub.add_parser("author", help="turn a lesson script (# %%%% cells) into a solution notebook")
    p.add_argument("script", type=_path)
    p.add_argument("target", type=_path)
    p.add_argument("--force", action="store_true", help="replace the target if it exists")
    p.set_defaults(run=_author)
    p = sub.add_parser("new-lesson", help="authors: write every file a new lesson needs (docs/AUTHORING.md)")
    p.add_argument("number", help="the next lesson number, two digits")
    p.add_argument("name", help="lowercase words joined by underscores, e.g. caching_results")
    p.set_defaults(run=_new_lesson)
    p = sub.add_parser("grade", help="instructors: grade a class's notebooks into a gradebook and feedback")
    p.add_argument(
        "submissions",
        type=_path,
        help="a folder with one folder per learner (SUBMISSIONS/<learner>/NN_name.ipynb), or one file",
    )
    p.add_argument(
        "--out", type=_path, default=Path("grading-out"), help="where the results go (grading-out)"
    )
    p.add_argument("--jobs", type=int, default=1, help="notebooks graded at once, one kernel each (1)")
    p.add_argument("--timeout", type=float, default=120, help="seconds any one cell may run (120)")
    p.add_argument(
        "--hidden-checks",
        type=_path,
        metavar="FILE",
        help="your hidden checks: a Python file defining EXERCISES, kept out of the learners' repository",
    )
    p.add_argument(
        "--no-sandbox",
        action="store_true",
        help="grade without bubblewrap: learner code runs with your rights; rows say unsandboxed",
    )
    p.add_argument("--memory", type=int, default=2048, metavar="MB", help="address space per kernel (2048)")
    p.add_argument(
        "--disk", type=int, default=512, metavar="MB", help="bytes a kernel may write in its folder (512)"
    )
    p.add_argument(
        "--roster",
        type=_path,
        metavar="FILE.csv",
        help="learner,name,canvas_id,sis_user_id,...,email,id_number",
    )
    p.add_argument("--hand-grades", type=_path, metavar="FILE.csv", help="learner,exercise,points,comment")
    p.add_argument(
        "--export",
        action="append",
        choices=("canvas", "moodle", "nbgrader", "lesson-csv"),
        help="also write OUT/exports/ in this LMS's import format (repeat for several)",
    )
    p.set_defaults(run=_grade)
    p = sub.add_parser("export", help="instructors: marks from a graded folder in an LMS's import format")
    p.add_argument(
        "--to",
        required=True,
        action="append",
        choices=("canvas", "moodle", "nbgrader", "lesson-csv"),
        help="the LMS format to write (repeat for several: all are written, in the order given)",
    )
    p.add_argument("--out", type=_path, default=Path("grading-out"), help="the graded folder (grading-out)")
    p.add_argument("--roster", type=_path, metavar="FILE.csv")
    p.set_defaults(run=_export)
    p = sub.add_parser(
        "handout",
        help="instructors: write the student edition (notebooks, data, packages "
        "without answers) for a graded class",
    )
    p.add_argument("out", type=_path, help="a new, empty folder")
    p.set_defaults(run=_handout)
    p = sub.add_parser("gradescope", help="instructors: write a Gradescope autograder zip for some lessons")
    p.add_argument("out", type=_path, help="the zip to write (a new file, e.g. autograder.zip)")
    p.add_argument("--lesson", action="append", metavar="NN", help="a lesson to grade (repeat; default all)")
    p.add_argument(
        "--hidden-checks", type=_path, metavar="FILE", help="hidden checks, shown after the due date"
    )
    p.set_defaults(run=_gradescope)
    return top


def _gradescope(args: argparse.Namespace) -> int:
    from workbook.grade.gradescope import GradescopeError, build_package
    from workbook.grade.plan import PlanError

    try:
        package = build_package(args.out, args.lesson, args.hidden_checks)
    except (GradescopeError, PlanError) as error:
        raise _BadArgument(str(error)) from None
    print(f"wrote {package.path}: lessons {', '.join(package.lessons)}; upload it as the autograder")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command; return the exit code. Errors become one line on stderr."""
    from workbook.release import ReleaseError

    top = parser(program_name("workbook", "workbook"))
    return run(
        lambda: _run_command(top.parse_args(argv)),
        expected=(ReleaseError, _BadArgument),
        debug_variable="WORKBOOK_DEBUG",
        stopped="stopped.",
    )


def _run_command(args: argparse.Namespace) -> int:
    return int(args.run(args))
