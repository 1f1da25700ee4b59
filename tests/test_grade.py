"""The grader on a whole test class: exact gradebook, every trick worth nothing, every fault survived.

The class (tests/submissions/class, written by make_submissions.py) is graded once per session,
with two workers and the hidden checks, and the first run is interrupted after five files to prove
that a second run resumes without losing or double-counting a row. The tests then read the result.

It is graded in bubblewrap where bubblewrap runs, and with ``--no-sandbox`` where it does not (every
laptop without it, macOS and Windows). Each mode has its own expectations, written out below: a
sandboxed run trusts its journal and resumes from it; an unsandboxed run trusts nothing in it and
grades every file again, and every row says ``unsandboxed``. CI runs this file in both modes.
"""
from __future__ import annotations

import csv
import difflib
import io
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from workbook.grade import GradeOptions, grade
from workbook.grade.batch import FEEDBACK, GRADEBOOK, JOURNAL
from workbook.grade.kernel import Limits
from workbook.grade.sandbox import detect

HERE = Path(__file__).parent / "submissions"
CLASS, HIDDEN_CHECKS, EXPECTED = HERE / "class", HERE / "hidden_checks.py", HERE / "expected_gradebook.csv"
# Seconds per cell; the expected reasons name it. The slowest cell of these notebooks takes under half a
# second (pictures off, as the grader runs them): ten is over twenty times that, and each of the two
# loops of fault-infinite-loop waits it out while the rest of the class is already graded.
TIMEOUT = 10
STOP_AFTER = 5      # files graded before the first run is interrupted
# An interrupted cell gets this long to stop before the kernel counts as stuck (the grader allows 30 s).
# Stopping takes a fraction of a second; the one cell that ignores the interrupt then costs 10 s, not 30.
LIMITS = Limits(grace=10)
FILES = sum(1 for p in CLASS.rglob("*") if p.is_file())
SANDBOXED = detect().isolated
MODE = "bwrap" if SANDBOXED else "unsandboxed"  # what the sandbox column of every row says
needs_bwrap = pytest.mark.skipif(not SANDBOXED, reason="needs bubblewrap (bwrap): only a sandboxed run trusts its journal")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    out = tmp_path_factory.mktemp("grading")
    said: list[str] = []
    first: list[str] = []

    def interrupt(result: dict) -> None:
        first.append(result.file)
        if len(first) == STOP_AFTER:
            raise KeyboardInterrupt  # as if the instructor pressed Ctrl-C

    options = dict(jobs=2, timeout=TIMEOUT, hidden_checks=HIDDEN_CHECKS, progress=False, context="test-class",
                   say=said.append, sandbox=None if SANDBOXED else False, limits=LIMITS)
    with pytest.raises(KeyboardInterrupt):
        grade(GradeOptions(CLASS, out, on_result=interrupt, **options))
    assert not (out / GRADEBOOK).exists(), "an interrupted run writes no gradebook"
    report = grade(GradeOptions(CLASS, out, **options))
    # Unsandboxed, a third run would grade the whole class once more (nothing in the journal is trusted);
    # test_grade_tamper proves that on a small class, so the costly third run is made only where it is cheap.
    again = grade(GradeOptions(CLASS, out, **options)) if SANDBOXED else None
    return SimpleNamespace(out=out, said=said, first=first, report=report, again=again,
                           rows={row.file: row for row in report.rows})


def _expected_gradebook() -> str:
    """expected_gradebook.csv, with the sandbox column this machine's run writes (bwrap or unsandboxed)."""
    rows = list(csv.reader(io.StringIO(EXPECTED.read_text(encoding="utf-8"))))
    column = rows[0].index("sandbox")
    assert {row[column] for row in rows[1:]} == {"bwrap"}, "the expected gradebook is written for a sandboxed run"
    for row in rows[1:]:
        row[column] = MODE
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue()


def _table(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_gradebook_is_exactly_the_expected_one(graded):
    got, want = (graded.out / GRADEBOOK).read_text(encoding="utf-8"), _expected_gradebook()
    diff = "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(), "expected", "graded", lineterm=""))
    assert got == want, f"the gradebook differs from {EXPECTED.name}:\n{diff}"


def _one_row_per_file(graded) -> None:
    files = [row.file for row in graded.report.rows]
    assert len(files) == len(set(files)) == FILES
    with sqlite3.connect(graded.out / JOURNAL) as db:
        assert db.execute("SELECT COUNT(*) FROM graded").fetchone()[0] == FILES


@needs_bwrap
def test_an_interrupted_run_resumes_without_losing_or_double_counting(graded):
    assert len(graded.first) == STOP_AFTER
    assert graded.report.from_journal == STOP_AFTER
    assert graded.report.graded_now == FILES - STOP_AFTER
    _one_row_per_file(graded)


@pytest.mark.skipif(SANDBOXED, reason="runs where bubblewrap does not: the unsandboxed expectations of a resumed run")
def test_unsandboxed_an_interrupted_run_is_graded_again_in_full_without_double_counting(graded):
    """Learner code could have written the journal while it ran, so nothing in it is taken as graded."""
    assert len(graded.first) == STOP_AFTER
    assert graded.report.from_journal == 0
    assert graded.report.graded_now == FILES
    _one_row_per_file(graded)
    assert {row.sandbox for row in graded.report.rows} == {"unsandboxed"}


@needs_bwrap
def test_a_third_run_grades_nothing_and_writes_the_same_gradebook(graded):
    assert graded.again.graded_now == 0 and graded.again.from_journal == FILES
    assert graded.again.rows == graded.report.rows


def test_the_sandbox_is_named_once(graded):
    assert len(graded.said) == (3 if SANDBOXED else 2)  # one line per run, never one per file
    assert graded.report.sandbox.isolated == SANDBOXED
    if SANDBOXED:
        assert "bubblewrap" in graded.said[0] and "no network" in graded.said[0]
    else:
        assert graded.said[0].startswith("note:") and "unsandboxed" in graded.said[0]


@pytest.mark.parametrize("learner", ["trick-edited-check", "trick-deleted-checks", "trick-redefined-check",
                                     "trick-monkeypatch", "trick-display-formatter", "trick-always-equal",
                                     "trick-transformer", "trick-fake-success"])
def test_no_trick_earns_a_point(graded, learner):
    rows = [row for row in graded.report.rows if row.learner == learner]
    assert len(rows) == 1
    earned = {e.grade_id: e.points for e in rows[0].exercises if e.points}
    # Deleting check cells changes nothing either way: its one honest answer still counts.
    assert earned == ({"ex01-blocked-orders": 1} if learner == "trick-deleted-checks" else {})


@pytest.mark.parametrize("learner, status", [
    ("fault-infinite-loop", "timeout"), ("fault-crash", "crashed"), ("fault-huge-output", "output-limit"),
    ("fault-not-a-notebook", "not-a-notebook"), ("fault-wrong-lesson", "wrong-notebook"),
    ("fault-missing-answers", "missing-answers"), ("fault-duplicate-ids", "duplicate-answers"),
    ("trick-monkeypatch", "crashed")])
def test_every_fault_gets_its_status_and_a_reason(graded, learner, status):
    row = next(row for row in graded.report.rows if row.learner == learner)
    assert row.status == status and row.reason


def test_work_done_before_a_fault_still_counts(graded):
    points = {(r.learner, e.grade_id): e.points for r in graded.report.rows for e in r.exercises}
    assert points[("fault-infinite-loop", "ex02-longest-breach")] == 2   # defined before its loop was stopped
    assert points[("fault-crash", "ex01-blocked-orders")] == 1            # read before the kernel died
    assert points[("fault-huge-output", "ex00-model-is-told")] == 1
    assert points[("fault-duplicate-ids", "ex01-credit-exposure")] == 2


def test_drawn_inputs_and_hidden_checks_catch_a_memorised_answer(graded):
    row = graded.rows["memorised/01_sap_orders_data.ipynb"]
    points = {e.grade_id: e.points for e in row.exercises}
    # Memorising the public probes passes them, and fails the inputs drawn for the run: no points.
    assert points["ex01-credit-exposure"] == 0 and points["ex01-credit-exposure-hidden"] == 0
    hint = next(e.message for e in row.exercises if e.grade_id == "ex01-credit-exposure")
    assert "drawn for this grading run" in hint
    correct = graded.rows["correct/01_sap_orders_data.ipynb"]
    assert correct.total == correct.max == 4


def test_one_feedback_file_per_learner_readable_by_a_person(graded):
    folder = graded.out / FEEDBACK
    learners = {row.learner for row in graded.report.rows}
    assert {p.stem for p in folder.glob("*.md")} == learners
    text = (folder / "partial.md").read_text(encoding="utf-8")
    assert text.startswith("# Feedback for partial\n")
    assert "## 02_coldchain_data: 2 of 4 points" in text
    assert "✔ **ex02-longest-breach**: 2 of 2" in text
    assert "✘ **ex02-claims**: 0 of 2" in text and "every STARTED hour" in text  # the judge's own hint
    assert "- asked: Write longest_breach_minutes" in text


def test_feedback_keeps_hidden_hints_and_review_notes_private(graded):
    text = (graded.out / FEEDBACK / "memorised.md").read_text(encoding="utf-8")
    assert "ex01-credit-exposure-hidden**: 0 of 1 (a check your instructor keeps private: not passed)" in text
    lines = text.splitlines()
    hidden = next(i for i, line in enumerate(lines) if "ex01-credit-exposure-hidden" in line)
    assert not lines[hidden + 1:hidden + 2] or not lines[hidden + 1].startswith("  - ")  # no hint, no probes
    # The hidden check's prompt and hint stay out. (Not its probe values as such: an input the grader draws
    # for the public check can be one of them by chance, and its own hint may then name it.)
    row = graded.rows["memorised/01_sap_orders_data.ipynb"]
    secret = next(e for e in row.exercises if e.grade_id == "ex01-credit-exposure-hidden")
    assert secret.message and "gave" in secret.message  # the hint the hidden judge wrote, kept in the gradebook row
    assert "inputs kept private" not in text and secret.message not in text
    tricked = (graded.out / FEEDBACK / "trick-transformer.md").read_text(encoding="utf-8")
    assert "review" not in tricked
    assert "review ex01-blocked-orders" in graded.rows["trick-transformer/01_sap_orders_data.ipynb"].reason


def test_faults_are_explained_in_the_feedback(graded):
    text = (graded.out / FEEDBACK / "fault-infinite-loop.md").read_text(encoding="utf-8")
    assert "a cell ran too long and was stopped" in text and "did not stop when interrupted" in text
    text = (graded.out / FEEDBACK / "fault-missing-answers.md").read_text(encoding="utf-8")
    assert "there is no cell with grade_id ex02-claims" in text


def test_the_gradebook_columns(graded):
    rows = _table((graded.out / GRADEBOOK).read_text(encoding="utf-8"))
    assert list(rows[0])[:2] == ["learner", "notebook"]
    assert list(rows[0])[-7:] == ["total", "max", "pending", "status", "reason", "file", "sandbox"]
    correct = [r for r in rows if r["learner"] == "correct"]
    assert [r["notebook"] for r in correct] == ["00_start_here", "01_sap_orders_data", "02_coldchain_data"]
    assert correct[0]["ex02-claims"] == ""  # an exercise of another notebook stays empty
