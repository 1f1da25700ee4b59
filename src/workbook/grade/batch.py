"""Grade a class: find the files, skip what the journal holds, grade the rest, write the results.

Workers are separate processes (``--jobs N``), each grading one file at a time with its own
kernel; only this process writes the journal, the gradebook and the feedback. A fault in one file
is that file's row (see ``runner``); a fault in a worker process costs only the files it held,
which get a "grader-error" row and are graded again on the next run.
"""
from __future__ import annotations

import multiprocessing
import os
from contextlib import closing
import signal
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from workbook.grade.feedback import write_feedback
from workbook.grade.gradebook import note_duplicates, sort_rows, write_gradebook
from workbook.grade.kernel import close_all
from workbook.grade.journal import Journal, entry_key, file_sha
from workbook.grade.plan import context_fingerprint, known_notebooks, load_extra
from workbook.grade.runner import OUTPUT_LIMIT, Settings, grade_one
from workbook.grade.sandbox import Sandbox, detect
from workbook.grade.submissions import Submission, discover

GRADEBOOK, FEEDBACK, JOURNAL = "gradebook.csv", "feedback", "journal.sqlite"


@dataclass
class Report:
    rows: list[dict[str, Any]]
    graded_now: int
    from_journal: int
    sandbox: Sandbox
    gradebook: Path | None = None
    feedback: list[Path] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for row in self.rows:
            found[row["status"]] = found.get(row["status"], 0) + 1
        return dict(sorted(found.items()))


def grade(submissions: Path, out: Path, *, jobs: int = 1, timeout: float = 120,
          extra_checks: Path | None = None, sandbox: bool | None = None, progress: bool = True,
          on_result: Callable[[dict], None] | None = None, context: str | None = None,
          say: Callable[[str], None] = lambda text: print(text, file=sys.stderr)) -> Report:
    """Grade every submission under ``submissions`` into ``out``; see the module docstring.

    ``on_result`` is called after each newly graded file is in the journal (the tests use it to
    interrupt a run); ``context`` replaces the grading-context fingerprint (tests pin it).
    """
    if not submissions.exists():
        raise FileNotFoundError(f"{submissions} does not exist; give the folder that holds the submissions")
    extra_file = extra_checks.resolve() if extra_checks else None
    load_extra(extra_file)  # a broken hidden-checks file stops here, before any kernel starts
    box = detect(sandbox)
    say(f"note: {box.note}" if not box.isolated else box.note)
    settings = Settings(timeout=timeout, sandbox=box, extra_file=str(extra_file) if extra_file else None)
    found = discover(submissions, known_notebooks(), out)
    keys = _keys(found, extra_file, settings, context)
    journal = Journal(out / JOURNAL)
    try:
        todo = [s for s in found if not journal.done(keys[s.file])]
        graded_now = 0
        results = _results(todo, settings, jobs)
        with _bar(len(found), len(found) - len(todo), progress) as bar, closing(results):
            for submission, result in results:
                journal.record(keys[submission.file], result)
                graded_now += 1
                bar.set_postfix_str(f"{result['learner']} {result['notebook'] or result['file']}"[:40])
                bar.update()
                if on_result is not None:
                    on_result(result)
        rows = note_duplicates(sort_rows([journal.get(keys[s.file]) for s in found]))
    finally:
        journal.close()
    report = Report(rows, graded_now, len(found) - len(todo), box)
    report.gradebook = write_gradebook(rows, out / GRADEBOOK)
    report.feedback = write_feedback(rows, out / FEEDBACK)
    return report


def _keys(found: list[Submission], extra_file: Path | None, settings: Settings,
          context: str | None) -> dict[str, str]:
    settings_text = f"timeout={settings.timeout};output={OUTPUT_LIMIT}"
    contexts: dict[str | None, str] = {}
    keys = {}
    for submission in found:
        if submission.notebook not in contexts:
            contexts[submission.notebook] = context or context_fingerprint(submission.notebook, extra_file,
                                                                           settings_text)
        keys[submission.file] = entry_key(submission.file, file_sha(submission.path), contexts[submission.notebook])
    return keys


def _bar(total: int, initial: int, enabled: bool) -> Any:
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, desc="grading", unit="file", disable=not enabled,
                dynamic_ncols=True)


def _results(todo: list[Submission], settings: Settings, jobs: int) -> Iterator[tuple[Submission, dict]]:
    if jobs <= 1 or len(todo) <= 1:
        for submission in todo:
            yield submission, grade_one(submission, settings)
        return
    # spawn, not fork: a worker must not inherit this process's ZeroMQ sockets or threads.
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_start)
    pending: dict[Future, Submission] = {}
    queue = list(reversed(todo))
    finished_all = False
    try:
        while queue or pending:
            # Keep only a few files in flight, so an interruption leaves little half done.
            while queue and len(pending) < jobs:
                submission = queue.pop()
                pending[pool.submit(grade_one, submission, settings)] = submission
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                submission = pending.pop(future)
                yield submission, _result_of(future, submission)
        finished_all = True
    finally:
        if finished_all:
            pool.shutdown(wait=True)
        else:  # interrupted: stop the workers now rather than let them finish their files
            _stop(pool)


def _result_of(future: Future, submission: Submission) -> dict:
    try:
        return future.result()
    except Exception as error:  # the worker process died: this file is retried on the next run
        return {"learner": submission.learner, "notebook": submission.notebook or "", "file": submission.file,
                "status": "grader-error", "reason": f"the grading process failed ({type(error).__name__})",
                "total": 0, "max": 0, "exercises": [], "notes": []}


def _worker_start() -> None:
    # Ctrl-C goes to the whole process group: only the main process should react to it. It then
    # stops the workers with SIGTERM; a worker closes its kernel and removes its folder, and ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(*_: Any) -> None:
    close_all()
    os._exit(1)  # not sys.exit: the pool's worker loop would catch SystemExit and wait for more work


def _stop(pool: ProcessPoolExecutor) -> None:
    processes = list(getattr(pool, "_processes", {}).values())  # no public way before Python 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=30)
