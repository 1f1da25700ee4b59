"""Grade a class: find the files, skip what the journal holds, grade the rest, write the results.

Files are graded in worker processes (``--jobs N``, at least one, even for ``--jobs 1``), each
grading one file at a time with its own kernel; only this process writes the journal, the
gradebook and the feedback, in the output folder, which no kernel's sandbox can see. A fault in
one file is that file's row (see ``runner``). A worker that dies (a notebook that kills its parent,
say) costs only the file it held, which gets a "crashed" row: a fresh worker takes its place, the
kernel it left is killed (this process is a child subreaper), its work folder is removed, and the
batch goes on. The gradebook is always written at the end of a run that was not interrupted.

Without a working sandbox the grader refuses to start unless told ``--no-sandbox``
(``sandbox=False``); then every row says ``unsandboxed``.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import signal
from collections import Counter
from collections.abc import Callable, Generator
from contextlib import closing
from dataclasses import dataclass, field, replace
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, cast

from tooldesign.atomic import write_atomic
from workbook.grade.classbook import (
    HandGrade,
    Marks,
    Roster,
    apply_hand_grades,
    load_hand_grades,
    load_roster,
    missing_rows,
    problem_line,
    summary_line,
)
from workbook.grade.cleanup import remove_tree
from workbook.grade.exports import NEEDS_ROSTER, TARGETS, ExportError, write_exports
from workbook.grade.feedback import write_feedback
from workbook.grade.gradebook import note_duplicates, sort_rows, write_gradebook, write_stamp
from workbook.grade.journal import Journal, entry_key, file_sha
from workbook.grade.kernel import children, close_all, kill_strays, reaper_on, work_folder
from workbook.grade.options import GradeOptions
from workbook.grade.plan import context_fingerprint, known_notebooks, load_hidden_checks, manual_points
from workbook.grade.results import Row, Status
from workbook.grade.runner import OUTPUT_LIMIT, Settings, grade_one
from workbook.grade.sandbox import NoSandbox, Sandbox, detect, student_edition
from workbook.grade.submissions import Submission, discover, keep_latest

GRADEBOOK, FEEDBACK, JOURNAL = "gradebook.csv", "feedback", "journal.sqlite"
SUPERSEDED, ROSTER_REPORT, STAMP = "superseded.txt", "roster-report.txt", "gradebook.json"

# The batch's steps in the order grade() runs them, each a function ``<step>_step`` below.
STEPS = ("check", "collect", "sandbox", "grade_each", "hand_grades", "gradebook", "feedback", "exports")


@dataclass
class Report:
    rows: list[Row]
    graded_now: int
    from_journal: int
    sandbox: Sandbox
    gradebook: Path | None = None
    feedback: list[Path] = field(default_factory=list)
    superseded: list[Submission] = field(default_factory=list)  # older LMS submissions, not graded
    marks: Marks | None = None  # roster and hand grades as applied
    exports: list[Path] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)  # one line each, for the instructor

    def counts(self) -> dict[str, int]:
        return dict(sorted(Counter(row.status.value for row in self.rows).items()))


@dataclass(frozen=True)
class _Checked:
    """What the first step read and checked before any kernel starts."""

    hidden_checks: Path | None
    roster: Roster | None
    hand_grades: list[HandGrade]
    grade_problems: list[str]


def grade(options: GradeOptions) -> Report:
    """Grade every submission under ``options.submissions`` into ``options.out``; see the module docstring.

    The run is a sequence of named steps, each reading what the ones before it made; a new export or
    LMS layout is a target in ``workbook.grade.exports``, and changes none of them.
    """
    checked = check_step(options)
    found, superseded = collect_step(options)
    box = sandbox_step(options)
    settings = kernel_settings(options, checked, box)
    rows, graded_now = grade_each_step(
        options, found, settings, _keys(found, checked.hidden_checks, settings, options.context)
    )
    rows, marks = hand_grades_step(rows, checked)
    report = Report(rows, graded_now, len(found) - graded_now, box, superseded=superseded, marks=marks)
    gradebook_step(report, options.out)
    feedback_step(report, options.out)
    report.summary = _summary(report, options.out)
    exports_step(report, checked, options)
    return report


def check_step(options: GradeOptions) -> _Checked:
    """A broken hidden-checks file, roster, hand-grades file or export stops here, before any kernel starts."""
    if not options.submissions.exists():
        raise FileNotFoundError(
            f"{options.submissions} does not exist; give the folder that holds the submissions"
        )
    hidden_checks = options.hidden_checks.resolve() if options.hidden_checks else None
    load_hidden_checks(hidden_checks)
    roster = load_roster(options.roster) if options.roster is not None else None
    grades, problems = (
        load_hand_grades(options.hand_grades, manual_points()) if options.hand_grades else ([], [])
    )
    bad = [t for t in options.exports if t not in TARGETS]
    if bad:
        raise ExportError(f"--export {bad[0]}: unknown target; choose from {', '.join(TARGETS)}")
    if roster is None and any(t in NEEDS_ROSTER for t in options.exports):
        raise ExportError(
            f"--export {next(t for t in options.exports if t in NEEDS_ROSTER)} needs --roster FILE.csv: the LMS "
            "matches learners by its own ids, which only the roster holds"
        )
    return _Checked(hidden_checks, roster, grades, problems)


def collect_step(options: GradeOptions) -> tuple[list[Submission], list[Submission]]:
    """Every submission found, then the latest of each learner's notebook kept (the rest superseded)."""
    found, superseded = keep_latest(discover(options.submissions, known_notebooks(), options.out))
    if not found and options.submissions.is_dir():
        raise FileNotFoundError(
            f"{options.submissions} holds no submissions; give the folder the LMS download was unpacked into"
        )
    return found, superseded


def sandbox_step(options: GradeOptions) -> Sandbox:
    """The sandbox the kernels run in; without one, the grader refuses unless told ``--no-sandbox``."""
    box = detect(options.sandbox)
    if not box.isolated and options.sandbox is not False:
        raise NoSandbox(
            f"{box.note}. The grader does not run learner code without a sandbox; install "
            "bubblewrap, or pass --no-sandbox to grade anyway (every row then says unsandboxed)"
        )
    options.say(f"note: {box.note}" if not box.isolated else box.note)
    return box


def kernel_settings(options: GradeOptions, checked: _Checked, box: Sandbox) -> Settings:
    """What each worker's kernel is given, with this run's secret seed for drawn inputs."""
    return Settings(
        timeout=options.timeout,
        sandbox=box,
        hidden_checks=str(checked.hidden_checks) if checked.hidden_checks else None,
        limits=options.limits,
        seed=secrets.token_hex(16),
        edition=str(options.edition or student_edition()),
    )


def grade_each_step(
    options: GradeOptions, found: list[Submission], settings: Settings, keys: dict[str, str]
) -> tuple[list[Row], int]:
    """Grade each file the journal does not hold, journalling each row as it is done.

    Returns every row (sorted, duplicates noted, recounted) and how many files were graded now.
    """
    out = options.out
    journal = Journal(out / JOURNAL)
    try:
        # Unsandboxed, a kernel could have written into the journal: nothing in it is taken as graded.
        todo = [s for s in found if not (settings.sandbox.isolated and journal.done(keys[s.file]))]
        # Every row this run reports, kept here too: the journal is a convenience, not the truth,
        # and a journal set aside mid-run must not take the rows of earlier runs with it.
        waiting = {s.file for s in todo}
        kept = {s.file: cast(Row, journal.get(keys[s.file])) for s in found if s.file not in waiting}
        results = _results(todo, settings, options.jobs)
        with _bar(len(found), len(found) - len(todo), options.progress) as bar, closing(results):
            for submission, result in results:
                kept[submission.file] = result
                journal = _record(journal, out / JOURNAL, keys, kept, submission.file, options.say)
                bar.set_postfix_str(f"{result.learner} {result.notebook or result.file}"[:40])
                bar.update()
                if options.on_result is not None:
                    options.on_result(result)
        rows = note_duplicates(sort_rows([_with_ignored(kept[s.file], s) for s in found]))
    finally:
        journal.close()
    return [row.recounted() for row in rows], len(todo)


def hand_grades_step(rows: list[Row], checked: _Checked) -> tuple[list[Row], Marks]:
    """Hand grades applied, and with a roster, a row for each learner who sent nothing."""
    rows, problems, applied = apply_hand_grades(rows, checked.hand_grades, checked.roster)
    marks = Marks(
        rows,
        checked.roster,
        problems=sorted(checked.grade_problems + problems, key=problem_line),
        hand_graded=applied,
    )
    if checked.roster is not None:
        rows, marks.unmatched, marks.absent = missing_rows(rows, checked.roster)
        marks.rows = rows = sort_rows(rows)
    return rows, marks


def gradebook_step(report: Report, out: Path) -> None:
    """The gradebook and its stamp."""
    report.gradebook = write_gradebook(report.rows, out / GRADEBOOK)
    write_stamp(report.rows, out / STAMP)


def feedback_step(report: Report, out: Path) -> None:
    """One feedback file per learner."""
    report.feedback = write_feedback(report.rows, out / FEEDBACK)


def exports_step(report: Report, checked: _Checked, options: GradeOptions) -> None:
    """The LMS layouts asked for (each a target of ``workbook.grade.exports``)."""
    if options.exports:
        report.exports = write_exports(
            report.rows, checked.roster, list(options.exports), options.out / "exports"
        )


def _with_ignored(row: Row, submission: Submission) -> Row:
    """The files set aside for this one (a PDF or HTML export beside the notebook, a zip's other
    files) named in the row's notes, which the feedback shows; added after the journal, so a file
    sent later is named without grading the notebook again."""
    if not submission.ignored:
        return row
    note = (
        f"only the notebook {submission.file} was graded; not graded (exports or other files, which cannot "
        f"be graded): {', '.join(submission.ignored)}"
    )
    return replace(row, notes=(note, *row.notes))


def _summary(report: Report, out: Path) -> list[str]:
    """One line each (superseded files, roster mismatches, hand-grade problems), the lists in files."""
    lines = []
    if report.superseded:
        names = [s.file for s in report.superseded]
        write_atomic(out / SUPERSEDED, "".join(f"{n}\n" for n in names))
        lines.append(
            summary_line(f"superseded by a later submission (not graded; list in {SUPERSEDED})", names)
        )
    marks = report.marks
    if marks is not None and marks.roster is not None:
        text = "".join(f"no roster row\t{n}\n" for n in marks.unmatched)
        text += "".join(f"no submission\t{n}\n" for n in marks.absent)
        write_atomic(out / ROSTER_REPORT, text)
        lines.append(
            summary_line(f"submissions with no roster row (list in {ROSTER_REPORT})", marks.unmatched)
        )
        lines.append(
            summary_line(
                f"roster learners with no submission, status missing (list in {ROSTER_REPORT})", marks.absent
            )
        )
    if marks is not None:
        lines += marks.problems
        if marks.hand_graded:
            lines.append(f"hand grades applied: {marks.hand_graded}")
    return lines


def _record(
    journal: Journal,
    path: Path,
    keys: dict[str, str],
    kept: dict[str, Row],
    file: str,
    say: Callable[[str], None],
) -> Journal:
    """Write one row. A journal that cannot be written (damaged under the grader by learner code,
    unsandboxed, or locked by another program) is set aside and started again from every row this
    run holds, earlier runs' included, so the batch goes on and loses nothing."""
    import sqlite3

    try:
        journal.record(keys[file], kept[file])
        return journal
    except sqlite3.DatabaseError as error:
        problem = str(error) or type(error).__name__
        journal.close()
    # A daemon left by learner code may still be writing over the file: a few fresh starts, then a
    # journal in memory for the rest of the run (the gradebook holds every row either way).
    for _attempt in range(3):
        aside = path.with_name(f"{path.name}.damaged-{secrets.token_hex(3)}")
        try:
            os.replace(path, aside)
            where = f"kept as {aside.name}"
        except FileNotFoundError:
            where = "the file was gone"
        say(f"note: the journal could not be written while grading ({problem}; {where}); started a new one")
        try:
            return _refilled(Journal(path), keys, kept)
        except sqlite3.DatabaseError as again:
            problem = str(again) or type(again).__name__
    say("note: the journal kept failing; this run keeps it in memory, so the next run grades again")
    return _refilled(Journal(Path(":memory:")), keys, kept)


def _refilled(journal: Journal, keys: dict[str, str], kept: dict[str, Row]) -> Journal:
    """``journal`` holding every kept row; closed again if it cannot take them."""
    try:
        for name, row in kept.items():
            journal.record(keys[name], row)
    except BaseException:
        journal.close()
        raise
    return journal


def _keys(
    found: list[Submission], hidden_checks: Path | None, settings: Settings, context: str | None
) -> dict[str, str]:
    settings_text = f"timeout={settings.timeout};output={OUTPUT_LIMIT}"
    contexts: dict[str | None, str] = {}
    keys = {}
    for submission in found:
        if submission.notebook not in contexts:
            contexts[submission.notebook] = context or context_fingerprint(
                submission.notebook, hidden_checks, settings_text
            )
        keys[submission.file] = entry_key(
            submission.file, file_sha(submission.path), contexts[submission.notebook]
        )
    return keys


def _bar(total: int, initial: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total, initial=initial, desc="grading", unit="file", disable=not enabled, dynamic_ncols=True
    )


def _results(
    todo: list[Submission], settings: Settings, jobs: int
) -> Generator[tuple[Submission, Row], None, None]:
    """Grade ``todo`` in ``jobs`` worker processes, yielding each row as it is done."""
    if not todo:
        return
    reaper_on()  # a kernel whose worker died becomes our child, so it can be killed too
    context = multiprocessing.get_context("spawn")  # not fork: no inherited ZeroMQ sockets or threads
    workers: list[_Worker] = [_Worker(context)]
    keep = set(children())  # what this process had once its first worker ran (the resource tracker too)
    queue = list(reversed(todo))
    retried: set[str] = set()
    try:
        while queue or any(w.job for w in workers):
            while queue and sum(1 for w in workers if w.job) < jobs:
                idle = next((w for w in workers if not w.job), None)
                if idle is None:
                    idle = _Worker(context)
                    workers.append(idle)
                job = queue.pop()
                if (refused := idle.give(job, settings)) is not None:
                    if (
                        not idle.process.is_alive()
                    ):  # a worker gone between files: a fresh one, the file once more
                        idle.bury()
                        workers.remove(idle)
                        workers.append(_Worker(context))
                        if job.file not in retried:
                            retried.add(job.file)
                            queue.append(job)
                            continue
                    yield (
                        job,
                        refused,
                    )  # no temporary folder for it (the disk full?): its row, the batch goes on
            busy = [w for w in workers if w.job]
            if not busy:  # every file left was refused a start: nothing to wait for
                continue
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for worker in busy:
                if worker.conn not in ready and worker.process.sentinel not in ready:
                    continue
                submission, row = worker.take(settings)
                if row is None:  # the worker died: its file becomes a row, a fresh worker takes its place
                    worker.bury()  # joined first: only then is its exit code known
                    row = _lost(submission, settings, worker.process.exitcode)
                    workers.remove(worker)
                    kill_strays(keep | {w.process.pid for w in workers})
                yield submission, row
    finally:
        for worker in workers:
            worker.stop()
        kill_strays(keep)


class _Worker:
    """One grading process, one file at a time, talking over a pipe (only public multiprocessing API)."""

    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_work, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.job: Submission | None = None
        self.folder: Path | None = None

    def give(self, submission: Submission, settings: Settings) -> Row | None:
        """Hand one file over; a row saying why when that cannot be done (the temporary folder full,
        say, or the worker gone), so that file gets its reason and the batch goes on."""
        try:
            self.folder = work_folder()
            self.conn.send((submission, settings, str(self.folder)))
        except (OSError, ValueError, EOFError) as error:
            if self.folder is not None:
                remove_tree(self.folder)
                self.folder = None
            return _row(
                submission,
                settings,
                Status.GRADER_ERROR,
                f"the grader could not start on this file ({type(error).__name__}: {error}); the "
                "temporary folder may be full. It is graded again on the next run",
            )
        self.job = submission
        return None

    def take(self, settings: Settings) -> tuple[Submission, Row | None]:
        submission, self.job = self.job, None
        assert submission is not None, "take() is asked only of a worker that was given a job"
        try:
            if self.conn.poll():
                row = self.conn.recv()
                self._clear()
                return submission, row
        except (EOFError, OSError):
            pass
        return submission, None

    def _clear(self) -> None:
        if self.folder is not None:
            remove_tree(self.folder)
            self.folder = None

    def bury(self) -> None:
        self.process.join(timeout=30)
        if self.process.is_alive():  # its pipe is gone but it lingers: it is no use any more
            self.process.kill()
            self.process.join(timeout=30)
        self.conn.close()
        if self.folder is not None:
            remove_tree(self.folder)

    def stop(self) -> None:
        """Ask the worker to stop (it closes its kernel and removes its folder), then make sure."""
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=10)
        self.conn.close()
        if self.folder is not None:
            remove_tree(self.folder)


TERMINATED = 128 + signal.SIGTERM  # how a worker told to stop ends (see _terminated)


def _lost(submission: Submission, settings: Settings, exitcode: int | None) -> Row:
    """The row of a file whose worker died. Killed by a signal, the notebook's code may well have done
    it: "crashed", kept. Ended on its own (an exception in the grader itself): "grader-error", retried."""
    if exitcode is not None and (exitcode < 0 or exitcode == TERMINATED):
        number = -exitcode if exitcode < 0 else signal.SIGTERM
        return _row(
            submission,
            settings,
            Status.CRASHED,
            f"the grading process was killed (signal {number}) while it graded this file: the notebook's "
            "code may have stopped it. Nothing of this file was graded",
        )
    return _row(
        submission,
        settings,
        Status.GRADER_ERROR,
        f"the grading process ended unexpectedly (exit status {exitcode}); this file is graded again on the "
        "next run",
    )


def _row(submission: Submission, settings: Settings, status: Status, reason: str) -> Row:
    """A row with no points for a file the grader could not finish."""
    sandbox = "bwrap" if settings.sandbox.isolated else "unsandboxed"
    return Row(
        submission.learner, submission.notebook or "", submission.file, status, reason, 0, 0, sandbox=sandbox
    )


def _work(conn: Any) -> None:
    """A worker's life: grade what comes down the pipe until it closes."""
    # Ctrl-C goes to the whole process group: only the main process should react to it. It then
    # stops the workers with SIGTERM; a worker closes its kernel and removes its folder, and ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    reaper_on()
    while True:
        try:
            submission, settings, folder = conn.recv()
        except (EOFError, OSError):
            return
        try:
            row = grade_one(submission, settings, Path(folder))
        except BaseException as error:  # grade_one turns faults into rows; this is the last net
            row = _row(
                submission,
                settings,
                Status.GRADER_ERROR,
                f"the grader failed on this file ({type(error).__name__}); it is graded again on the next run",
            )
        conn.send(row)


def _terminated(*_: Any) -> None:
    close_all()
    os._exit(TERMINATED)  # not sys.exit: whatever loop is running must not catch SystemExit and go on
