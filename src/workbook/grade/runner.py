"""Grade one submission: rebuild it from the source, run it in a fresh kernel, judge outside.

1. Read only the cells that carry a grade_id (``submissions.read_answers``).
2. Take the released notebook (``learner_copy`` of solutions/) and put in the learner's answer
   cells, matched by grade_id. Every other cell, check cells included, is the course's own.
3. Run it in a fresh kernel in a temporary folder (in bubblewrap when there is one). Check cells
   are not run: where each one stands, the grader takes that exercise's answer out instead.
4. Judge the plain data in this process with the exercise's judge (``checks.judge_plain``).

The result is one plain dict (a gradebook row plus the per-exercise details for the feedback),
so it can travel from a worker process and be stored in the journal as JSON.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbook.checks import NOT_DONE_VERDICT, Verdict, failed, judge_plain
from workbook.grade.kernel import MAX_MESSAGE, Extraction, KernelSession, work_folder
from workbook.grade.plan import Plan, PlanError, Slot, answer_owner, build_plan, load_extra
from workbook.grade.sandbox import Sandbox
from workbook.grade.submissions import NotANotebook, Submission, read_answers
from workbook.plain import NotPlainData, to_plain

# Most severe first: a row's status is the most severe problem found, its reason lists them all.
SEVERITY = ("grader-error", "not-a-notebook", "wrong-notebook", "crashed", "timeout", "duplicate-answers",
            "missing-answers", "output-limit", "graded")
OUTPUT_LIMIT = 10_000_000  # characters of output per notebook before it is flagged
# Request outcomes after which the kernel cannot be trusted or used: the row's status, and what happened.
STOPPED = {"stuck": ("timeout", "hung"), "dead": ("crashed", "died"),
           "broken": ("crashed", "stopped speaking the Jupyter protocol (a module it relies on was replaced?)")}

# Things an answer cell of this course never needs. A match changes no score; it tells the
# instructor where to look (only what the released cell did not already contain counts).
REVIEW = (
    (r"get_ipython|input_transformers|ast_transformers|display_formatter|register_magic", "IPython internals"),
    (r"\bbuiltins\b|__builtins__", "builtins"),
    (r"sys\.modules|_getframe|\bgc\.|__closure__|__globals__|__code__|\bglobals\(\)|_workbook_grade",
     "interpreter internals"),
    (r"\bworkbook\b", "the course's check machinery"),
    (r"^\s*def\s+check\b|^\s*check\s*=", "its own check"),
    (r"__eq__|metaclass", "a custom equality"),
    (r"\bctypes\b|os\._exit|os\.kill", "process control"),
    (r"✔", "a printed check mark"),
)


@dataclass(frozen=True)
class Settings:
    timeout: float
    sandbox: Sandbox
    extra_file: str | None = None
    output_limit: int = OUTPUT_LIMIT


_plans: dict[str, Plan | PlanError] = {}
_extra: dict[str | None, tuple] = {}


def _extra_for(settings: Settings) -> tuple:
    if settings.extra_file not in _extra:
        _extra[settings.extra_file] = load_extra(Path(settings.extra_file) if settings.extra_file else None)
    return _extra[settings.extra_file]


def plan_for(notebook: str, settings: Settings) -> Plan:
    """Plans are built once per process; a lesson that cannot be planned fails each of its rows alike."""
    if notebook not in _plans:
        try:
            _plans[notebook] = build_plan(notebook, _extra_for(settings))
        except PlanError as error:
            _plans[notebook] = error
        except Exception as error:  # a damaged solution notebook: a grader error on each row, never a crash
            _plans[notebook] = PlanError(f"{type(error).__name__}: {error}")
    found = _plans[notebook]
    if isinstance(found, PlanError):
        raise found
    return found


class _Row:
    """Collects one submission's result; ``done()`` turns it into the plain dict."""

    def __init__(self, submission: Submission) -> None:
        self.submission = submission
        self.notebook = submission.notebook or ""
        self.problems: list[tuple[str, str]] = []
        self.notes: list[str] = []     # for the learner's feedback
        self.review: list[str] = []    # for the instructor only
        self.exercises: list[dict] = []
        self.plan: Plan | None = None

    def problem(self, status: str, reason: str) -> "_Row":
        self.problems.append((status, reason))
        return self

    def zero(self, plan: Plan, message: str) -> "_Row":
        self.plan = plan
        self.exercises = [_exercise(slot, failed(message)) for slot in plan.slots]
        return self

    def done(self) -> dict[str, Any]:
        if self.plan is not None and not self.exercises:
            self.zero(self.plan, "not graded")
        ordered = sorted(self.problems, key=lambda p: SEVERITY.index(p[0]))
        status = ordered[0][0] if ordered else "graded"
        reasons = [reason for _, reason in ordered] + self.review
        scored = [e for e in self.exercises if e["verdict"] != "manual"]
        return {"learner": self.submission.learner, "notebook": self.notebook, "file": self.submission.file,
                "status": status, "reason": "; ".join(reasons),
                "total": _number(sum(e["points"] for e in scored)),
                "max": _number(sum(e["max"] for e in scored)),
                "exercises": self.exercises, "notes": self.notes}


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)


def _exercise(slot: Slot, verdict: Verdict, manual_text: str = "") -> dict:
    manual = slot.exercise.kind == "manual"
    return {"grade_id": slot.grade_id, "points": 0 if manual or not verdict.passed else _number(slot.points),
            "max": _number(slot.points), "verdict": "manual" if manual else verdict.status,
            "message": manual_text if manual else verdict.message, "hidden": slot.hidden,
            "prompt": slot.exercise.prompt}


def grade_one(submission: Submission, settings: Settings) -> dict[str, Any]:
    """Grade one file; every fault becomes a status and a reason, never an exception."""
    row = _Row(submission)
    try:
        _grade(row, settings)
    except PlanError as error:
        row.problem("grader-error", f"this notebook cannot be graded: {error}")
    except Exception as error:  # a grader bug must cost one row, not the batch; the row is retried next run
        row.problem("grader-error", f"the grader failed on this file ({type(error).__name__}: {error})")
    return row.done()


def _grade(row: _Row, settings: Settings) -> None:
    submission = row.submission
    try:
        learner = read_answers(submission.path)
    except NotANotebook as error:
        row.problem("not-a-notebook", str(error))
        if submission.notebook:
            row.zero(plan_for(submission.notebook, settings), "the file could not be read")
        return
    owners = answer_owner(_extra_for(settings))
    lessons = sorted({owners[gid] for gid in learner.cells if gid in owners})
    if not row.notebook:
        if len(lessons) != 1:
            row.problem("wrong-notebook", "cannot tell which notebook this is: name the file after it, "
                                          "for example 02_coldchain_data.ipynb")
            return
        row.notebook = lessons[0]
        row.notes.append(f"the file name does not name a notebook; it was recognised as {row.notebook} "
                         "by its exercise cells")
    plan = plan_for(row.notebook, settings)
    if not any(gid in plan.answer_cells for gid in learner.cells) and lessons:
        return row.zero(plan, "this file is another notebook").problem(
            "wrong-notebook", f"the file is named {row.notebook} but holds the exercises of {', '.join(lessons)}; "
                              "was the wrong file submitted?")
    sources, void = _merge(row, plan, learner)
    extractions = _run(row, plan, sources, void, settings)
    _judge(row, plan, extractions, void, learner, settings)


def _merge(row: _Row, plan: Plan, learner: Any) -> tuple[list[str], dict[str, str]]:
    """The released sources with the learner's answer cells put in; ``void`` says which answers score 0."""
    sources = [cell.source for cell in plan.cells]
    void: dict[str, str] = {}
    missing, duplicated = [], []
    for grade_id, index in plan.answer_cells.items():
        found = learner.cells.get(grade_id, [])
        kind = plan.cells[index].kind
        usable = [source for cell_kind, source in found if cell_kind == kind]
        if not found:
            missing.append(grade_id)
            void[grade_id] = (f"there is no cell with grade_id {grade_id} in the notebook (deleted, or the answer "
                              "was typed into a new cell?); put the answer in the exercise's own cell")
            continue
        if not usable:
            missing.append(grade_id)
            void[grade_id] = (f"the exercise cell of {grade_id} was turned into a {found[0][0]} cell; "
                              f"make it {kind} again")
            continue
        if len(set(usable)) > 1:
            duplicated.append(grade_id)
            void[grade_id] = (f"{len(usable)} different cells carry grade_id {grade_id} (a copied cell?); keep one "
                              "and submit again")
        sources[index] = usable[-1]  # run the last, as Run All would leave it, so later cells still work
        _flag(row, grade_id, plan.cells[index].source, usable[-1])
    if missing:
        row.problem("missing-answers", f"no answer cell for {', '.join(missing)}")
    if duplicated:
        row.problem("duplicate-answers", f"several different cells for {', '.join(duplicated)}")
    return sources, void


def _flag(row: _Row, grade_id: str, released: str, answer: str) -> None:
    used = [what for pattern, what in REVIEW
            if re.search(pattern, answer, re.MULTILINE) and not re.search(pattern, released, re.MULTILINE)]
    if used:
        row.review.append(f"review {grade_id}: its answer uses {', '.join(used)}")


def _label(plan: Plan, index: int) -> str:
    cell = plan.cells[index]
    return f"the answer cell of {cell.grade_id}" if cell.role == "answer" else f"cell {index + 1}"


def _run(row: _Row, plan: Plan, sources: list[str], void: dict[str, str],
         settings: Settings) -> dict[str, Extraction]:
    """Run the rebuilt notebook; take each answer out where its check cell stands."""
    taken: dict[str, Extraction] = {}
    due: dict[int, list[Slot]] = {}
    for slot in plan.slots:
        if slot.exercise.kind != "manual" and slot.exercise.answer not in _void_answers(plan, void):
            due.setdefault(slot.extract_at, []).append(slot)
    folder = work_folder()
    try:
        with KernelSession(folder, settings.sandbox, settings.timeout) as session:
            stopped = False
            for index in range(len(plan.cells) + 1):
                for slot in due.get(index, []):
                    taken[slot.grade_id] = extraction = session.extract(
                        slot.exercise.answer, slot.exercise.kind, slot.exercise.probes)
                    if extraction.status in STOPPED:
                        status, what = STOPPED[extraction.status]
                        row.problem(status, f"the kernel {what} while the grader read {slot.exercise.answer}; "
                                            "the rest of the notebook was not run")
                        stopped = True
                        break
                if stopped or index == len(plan.cells):
                    break
                cell = plan.cells[index]
                if cell.kind != "code" or cell.role == "check":
                    continue
                stopped = _run_cell(row, session, sources[index], _label(plan, index), settings.timeout)
                if stopped:
                    break
            session.finish_output()
            limit = f"limit {settings.output_limit / 1e6:.0f} MB"
            for label, size in session.output_by_label().items():
                if size > settings.output_limit and label not in session.oversized:
                    row.problem("output-limit", f"{label} printed {size / 1e6:.0f} MB of output ({limit}); "
                                                "it was thrown away")
            for label in sorted(session.oversized):
                row.problem("output-limit", f"{label} printed one output of more than {MAX_MESSAGE >> 20} MB "
                                            f"({limit}); it was thrown away")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return taken


def _void_answers(plan: Plan, void: dict[str, str]) -> set[str]:
    """Answer names whose cell is missing or ambiguous: their extraction is skipped (hidden twins too)."""
    return {slot.exercise.answer for slot in plan.slots if slot.grade_id in void and not slot.hidden}


def _run_cell(row: _Row, session: KernelSession, source: str, label: str, timeout: float) -> bool:
    """Run one cell, record what went wrong; True when the notebook cannot go on."""
    outcome = session.run_cell(source, label)
    if outcome.status == "error":
        row.notes.append(f"{label} raised {_short(outcome.error)}")
    elif outcome.status == "timeout":
        row.problem("timeout", f"{label} ran longer than {timeout:g} s and was stopped")
    elif outcome.status == "stuck":
        row.problem("timeout", f"{label} ran longer than {timeout:g} s and did not stop when interrupted; "
                               "the rest of the notebook was not run")
        return True
    elif outcome.status in STOPPED:
        status, what = STOPPED[outcome.status]
        row.problem(status, f"the kernel {what} in {label}; the rest of the notebook was not run")
        return True
    return False


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _judge(row: _Row, plan: Plan, taken: dict[str, Extraction], void: dict[str, str], learner: Any,
           settings: Settings) -> None:
    row.plan = plan
    voided_answers = _void_answers(plan, void)
    for slot in plan.slots:
        if slot.exercise.kind == "manual":
            found = learner.cells.get(slot.grade_id, [])
            row.exercises.append(_exercise(slot, failed("graded by your instructor"),
                                           found[-1][1] if found else ""))
            row.review.append(f"to grade by hand: {slot.grade_id} (its text is in the feedback file)")
            continue
        if slot.grade_id in void:
            verdict = failed(void[slot.grade_id])
        elif slot.hidden and slot.exercise.answer in voided_answers:
            verdict = failed("not graded: the exercise cell this check reads is missing or ambiguous")
        else:
            verdict = _verdict(row, slot, taken.get(slot.grade_id, Extraction("not_reached")), settings)
        row.exercises.append(_exercise(slot, verdict))


def _verdict(row: _Row, slot: Slot, taken: Extraction, settings: Settings) -> Verdict:
    """The verdict on what came out of the kernel; only ever plain data reaches the judge."""
    exercise = slot.exercise
    name = exercise.answer
    if taken.status == "ok":
        try:
            data = to_plain(taken.data, name)
        except NotPlainData as error:
            return failed(str(error))
        if exercise.kind == "function" and (type(data) is not list or len(data) != len(exercise.probes)):
            return failed(f"the results of {name} could not be read")
        try:
            return judge_plain(exercise, data)
        except Exception as error:  # a judge that returns no Verdict is the course's bug: retry next run
            row.problem("grader-error", f"the check of {exercise.grade_id} is broken ({error})")
            return failed("not graded: the check itself failed; your instructor has been told")
    if taken.status == "not_done":
        return NOT_DONE_VERDICT
    if taken.status == "missing":
        return failed(f"{name} is not defined when its check runs: its cell raised an error before defining "
                      "it, or the name was changed")
    if taken.status == "timeout":
        return failed(f"reading {name} took longer than {settings.timeout:g} s"
                      + (" (did it return for every input the check tried?)" if exercise.kind == "function" else ""))
    if taken.status in ("stuck", "dead", "broken", "not_reached"):
        return failed("not graded: the notebook stopped before this exercise was reached (see Why)")
    return failed(taken.message or f"{name} could not be read ({taken.status})")
