"""Grade one submission: a pipeline of named steps, each returning values (see ``STEPS``).

1. ``read``: only the cells that carry a grade_id (``submissions.read_answers``); a link or a
   special file is refused before anything reads it.
2. ``identify``: the notebook it is, from its name or, failing that, its exercise cells.
3. ``plan``: the released notebook and its graded slots (``plan.build_plan``).
4. ``merge``: the released sources with the learner's answer cells put in, matched by grade_id.
   Every other cell, check cells included, is the course's own.
5. ``draw``: for each function exercise, inputs drawn from this run's secret seed, and their right
   results computed here by the reference (``workbook.exercises.references``); the kernel never
   holds a reference or a right result.
6. ``run``: the rebuilt notebook in a fresh kernel over the student edition (in bubblewrap when
   there is one), under quotas. Check cells are not run: where each one stands, the grader takes
   that exercise's answer out instead: a claim of a value, nothing more.
7. ``judge``: the plain data judged in this process: the lesson's judge on its fixed probes, and
   the reference's results on the drawn ones.

The result is one :class:`~workbook.grade.results.Row`.
"""

from __future__ import annotations

import copy
import random
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from workbook.checks import NOT_DONE_VERDICT, Verdict, failed, judge_plain, probe_error
from workbook.exercises import Exercise, grading_for
from workbook.grade.borrowed import borrowed
from workbook.grade.cleanup import remove_tree
from workbook.grade.kernel import MAX_MESSAGE, Extraction, KernelSession, Limits, work_folder
from workbook.grade.plan import Plan, PlanError, Slot, answer_owner, build_plan, load_hidden_checks
from workbook.grade.results import SEVERITY, Claim, ExerciseResult, GradeVerdict, Row, Status, number
from workbook.grade.sandbox import Sandbox
from workbook.grade.submissions import LearnerCells, NotANotebook, Refused, Submission, read_answers
from workbook.plain import NotPlainData, to_plain

OUTPUT_LIMIT = 10_000_000  # characters of output per notebook before it is flagged
WALL_LIMIT = 1800  # seconds one notebook may take in all, whatever each cell does
# Request outcomes after which the kernel cannot be trusted or used: the row's status, and what happened.
STOPPED = {
    Claim.stuck: (Status.TIMEOUT, "hung"),
    Claim.dead: (Status.CRASHED, "died"),
    Claim.disk: (Status.DISK_LIMIT, "wrote more into its folder than the disk quota allows and was stopped"),
    Claim.broken: (
        Status.CRASHED,
        "stopped speaking the Jupyter protocol (a module it relies on was replaced?)",
    ),
}

# Things an answer cell of this course never needs. A match changes no score; it tells the
# instructor where to look (only what the released cell did not already contain counts).
REVIEW = (
    (
        r"get_ipython|input_transformers|ast_transformers|display_formatter|register_magic",
        "IPython internals",
    ),
    (r"\bbuiltins\b|__builtins__", "builtins"),
    (
        r"sys\.modules|_getframe|\bgc\.|__closure__|__globals__|__code__|\bglobals\(\)|_workbook_grade",
        "interpreter internals",
    ),
    (r"\bworkbook\b", "the course's check machinery"),
    (r"^\s*def\s+check\b|^\s*check\s*=", "its own check"),
    (r"__eq__|metaclass", "a custom equality"),
    (r"\bctypes\b|os\._exit|os\.kill|\bfork\b|setsid|subprocess", "process control"),
    (r"\bimportlib\b|__import__|\bgc\b\.get_objects", "imports by name or the garbage collector"),
    (r"✔", "a printed check mark"),
)


@dataclass(frozen=True)
class Settings:
    timeout: float
    sandbox: Sandbox
    hidden_checks: str | None = None  # the file, resolved
    output_limit: int = OUTPUT_LIMIT
    limits: Limits = Limits()
    seed: str = "0"  # secret per run: the drawn inputs follow from it
    edition: str | None = None  # the student edition the kernels get (None: built on first use)
    wall: float = WALL_LIMIT


@dataclass(frozen=True)
class FileProblem:
    """One thing wrong with a submitted file: the gradebook status it earns and why."""

    status: Status
    reason: str


class Stop(Exception):
    """A step found that the file cannot go further; its problems (and a plan, to score 0) travel with it."""

    def __init__(
        self, *problems: FileProblem, plan: Plan | None = None, notebook: str = "", message: str = ""
    ) -> None:
        super().__init__(problems)
        self.problems, self.plan, self.notebook, self.message = problems, plan, notebook, message


# ---------- plans, cached per notebook AND hidden-checks file ----------

_plans: dict[tuple[str, str | None], Plan | PlanError] = {}
_hidden_checks: dict[str | None, tuple] = {}


def _hidden_checks_for(settings: Settings) -> tuple:
    path = settings.hidden_checks
    if path not in _hidden_checks:
        _hidden_checks[path] = load_hidden_checks(Path(path) if path else None)
    return _hidden_checks[path]


def plan_for(notebook: str, settings: Settings) -> Plan:
    """Plans are built once per process for each (notebook, hidden-checks file): a plan holds the hidden
    checks, so a cache keyed by the notebook alone would grade a second run with the first one's."""
    key = (notebook, settings.hidden_checks)
    if key not in _plans:
        try:
            _plans[key] = build_plan(notebook, _hidden_checks_for(settings))
        except PlanError as error:
            _plans[key] = error
        except Exception as error:  # a damaged solution notebook: a grader error on each row, never a crash
            _plans[key] = PlanError(f"{type(error).__name__}: {error}")
    found = _plans[key]
    if isinstance(found, PlanError):
        raise found
    return found


# ---------- the steps ----------


def read_step(submission: Submission) -> LearnerCells:
    try:
        return read_answers(submission.path, submission.member)
    except Refused as error:
        raise Stop(FileProblem(Status.REFUSED, str(error))) from None
    except NotANotebook as error:
        raise Stop(
            FileProblem(Status.NOT_A_NOTEBOOK, str(error)),
            notebook=submission.notebook or "",
            message="the file could not be read",
        ) from None


def identify_step(
    submission: Submission, cells: LearnerCells, settings: Settings
) -> tuple[str, tuple[str, ...]]:
    """(notebook, notes): the notebook the file is, by its name or by its exercise cells."""
    owners = answer_owner(_hidden_checks_for(settings))
    lessons = sorted({owners[gid] for gid in cells.cells if gid in owners})
    if submission.notebook:
        return submission.notebook, ()
    if len(lessons) != 1:
        raise Stop(
            FileProblem(
                Status.WRONG_NOTEBOOK,
                "cannot tell which notebook this is: name the file after it, "
                "for example 02_coldchain_data.ipynb",
            )
        )
    return lessons[0], (
        f"the file name does not name a notebook; it was recognised as {lessons[0]} by its exercise cells",
    )


def plan_step(notebook: str, cells: LearnerCells, settings: Settings) -> Plan:
    plan = plan_for(notebook, settings)
    owners = answer_owner(_hidden_checks_for(settings))
    lessons = sorted({owners[gid] for gid in cells.cells if gid in owners})
    if not any(gid in plan.answer_cells for gid in cells.cells) and lessons:
        raise Stop(
            FileProblem(
                Status.WRONG_NOTEBOOK,
                f"the file is named {notebook} but holds the exercises of "
                f"{', '.join(lessons)}; was the wrong file submitted?",
            ),
            plan=plan,
            notebook=notebook,
            message="this file is another notebook",
        )
    return plan


@dataclass(frozen=True)
class Merged:
    sources: tuple[str, ...]
    void: dict[str, str]  # grade_id -> why that answer scores 0
    problems: tuple[FileProblem, ...]
    review: tuple[str, ...]
    swapped: dict[str, str] = field(default_factory=dict)  # grade_id -> what was swapped, for its hint
    notes: tuple[str, ...] = ()


def unswap(plan: Plan, learner: LearnerCells) -> tuple[LearnerCells, dict[str, str]]:
    """Answer cells whose grade_ids were swapped (each cell carries another exercise's id, after a
    copy and paste of cells or of their metadata).

    When the learner's cells still carry the released cells' own nbformat ids and the grade_ids they
    carry are only a permutation of those answer cells, each answer is taken from the cell whose id
    is its exercise's: the course's own identity of the cell, which the learner could have used to
    put any answer anywhere anyway, so nothing is gained by it. Otherwise, when each cell defines the
    other's answer name and not its own, the cells stay where the ids say and the hint says why."""
    released = {gid: plan.cells[i].cell_id for gid, i in plan.answer_cells.items() if plan.cells[i].cell_id}
    carried: dict[str, tuple[str, str, str]] = {}  # learner cell id -> (grade_id, kind, source)
    for gid, cells in learner.cells.items():
        for (kind, source), cell_id in zip(cells, learner.ids.get(gid, [])):
            if cell_id:
                carried.setdefault(cell_id, (gid, kind, source))
    moved = {
        gid: carried[cid][0]
        for gid, cid in released.items()
        if cid in carried and carried[cid][0] != gid and carried[cid][0] in plan.answer_cells
    }
    why: dict[str, str] = {}
    if moved and set(moved.values()) == set(moved) and all(len(learner.cells.get(g, [])) == 1 for g in moved):
        by_id: dict[str, list[tuple[str, str]]] = dict(learner.cells)
        for gid in moved:
            cell_gid, kind, source = carried[released[gid]]
            by_id[gid] = [(kind, source)]
            why[gid] = (
                f"the answer cell of {gid} carried the grade_id {cell_gid} (the cells' grade_ids were swapped); "
                f"it was graded as {gid}, by the cell's own identity. Put each grade_id back on its own cell"
            )
        return LearnerCells(by_id, learner.ids), why
    answers = {
        slot.grade_id: slot.exercise.answer for slot in plan.slots if slot.grade_id in plan.answer_cells
    }
    defined = {
        gid: _defined_names(found[-1][1]) for gid, found in learner.cells.items() if gid in answers and found
    }
    for gid, names in defined.items():
        if answers[gid] in names:
            continue
        for other, other_names in defined.items():
            crossed = answers[other] in names and answers[gid] in other_names
            if other != gid and crossed and answers[other] not in other_names:
                why[gid] = (
                    f"the cell with grade_id {gid} defines {answers[other]} (the answer of {other}) and "
                    f"the cell with grade_id {other} defines {answers[gid]}: their grade_ids were swapped. "
                    "Put each grade_id back on its own cell (View > Cell metadata) and submit again"
                )
    return learner, why


def _defined_names(source: str) -> set[str]:
    """The names a cell defines at its top level (functions, classes, assignments, imports)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def merge_step(plan: Plan, learner: LearnerCells) -> Merged:
    """The released sources with the learner's answer cells put in; ``void`` says which answers score 0."""
    learner, swapped = unswap(plan, learner)
    sources = [cell.source for cell in plan.cells]
    void: dict[str, str] = {}
    missing, duplicated, review = [], [], []
    for grade_id, index in plan.answer_cells.items():
        found = learner.cells.get(grade_id, [])
        kind = plan.cells[index].kind
        usable = [source for cell_kind, source in found if cell_kind == kind]
        if not found:
            missing.append(grade_id)
            void[grade_id] = (
                f"there is no cell with grade_id {grade_id} in the notebook (deleted, or the answer "
                "was typed into a new cell?); put the answer in the exercise's own cell"
            )
            continue
        if not usable:
            missing.append(grade_id)
            void[grade_id] = (
                f"the exercise cell of {grade_id} was turned into a {found[0][0]} cell; make it {kind} again"
            )
            continue
        if len(set(usable)) > 1:
            duplicated.append(grade_id)
            void[grade_id] = (
                f"{len(usable)} different cells carry grade_id {grade_id} (a copied cell?); keep one "
                "and submit again"
            )
        sources[index] = usable[-1]  # run the last, as Run All would leave it, so later cells still work
        review += _flags(grade_id, plan.cells[index].source, usable[-1])
        if (lifted := borrowed(grade_id, usable[-1], plan.cells[index].source)) is not None:
            void.setdefault(grade_id, lifted.reason)  # the package's answer earns nothing; a person looks
            review.append(lifted.note)
    for grade_id, index in plan.predictions.items():
        usable = [source for cell_kind, source in learner.cells.get(grade_id, []) if cell_kind == "code"]
        if usable:  # the learner's own prediction, so cells waiting for its check run as they did for them
            sources[index] = usable[-1]
    problems = []
    if missing:
        problems.append(FileProblem(Status.MISSING_ANSWERS, f"no answer cell for {', '.join(missing)}"))
    if duplicated:
        problems.append(
            FileProblem(Status.DUPLICATE_ANSWERS, f"several different cells for {', '.join(duplicated)}")
        )
    notes = tuple(swapped[gid] for gid in sorted(swapped))
    return Merged(tuple(sources), void, tuple(problems), tuple(review), swapped, notes)


def _flags(grade_id: str, released: str, answer: str) -> list[str]:
    used = [
        what
        for pattern, what in REVIEW
        if re.search(pattern, answer, re.MULTILINE) and not re.search(pattern, released, re.MULTILINE)
    ]
    return [f"review {grade_id}: its answer uses {', '.join(used)}"] if used else []


@dataclass(frozen=True)
class Drawn:
    """The inputs a function exercise is called on: its fixed probes, then the drawn ones with their right results."""

    fixed: tuple[tuple, ...]
    drawn: tuple[tuple, ...] = ()
    expected: tuple[Any, ...] = ()

    @property
    def probes(self) -> tuple[tuple, ...]:
        return self.fixed + self.drawn


_draws: dict[tuple[str, str], Drawn] = {}


def draw_step(plan: Plan, settings: Settings) -> dict[str, Drawn]:
    return {
        slot.grade_id: draw_for(slot.exercise, settings.seed)
        for slot in plan.slots
        if slot.exercise.kind == "function"
    }


def draw_for(exercise: Exercise, seed: str) -> Drawn:
    """Inputs drawn for this run (the same for every file of the run), right results from the reference."""
    key = (exercise.grade_id, seed)
    if key not in _draws:
        grading = grading_for(exercise.grade_id)
        reference = grading.reference_function()
        drawn, expected = [], []
        if grading.generate is not None and reference is not None:
            rng = random.Random(f"{seed}:{exercise.grade_id}")
            for _ in range(grading.draws):
                args = tuple(grading.generate(rng))
                try:
                    want = to_plain(reference(*copy.deepcopy(args)))
                except Exception:  # an input the reference itself cannot take is no fair question
                    continue
                drawn.append(tuple(to_plain(list(args))))
                expected.append(want)
        _draws[key] = Drawn(tuple(exercise.probes), tuple(drawn), tuple(expected))
    return _draws[key]


@dataclass(frozen=True)
class Ran:
    taken: dict[str, Extraction]
    problems: tuple[FileProblem, ...]
    notes: tuple[str, ...]


def _label(plan: Plan, index: int) -> str:
    cell = plan.cells[index]
    return f"the answer cell of {cell.grade_id}" if cell.role == "answer" else f"cell {index + 1}"


def _void_answers(plan: Plan, void: dict[str, str]) -> set[str]:
    """Answer names whose cell is missing or ambiguous: their extraction is skipped (hidden twins too)."""
    return {slot.exercise.answer for slot in plan.slots if slot.grade_id in void and not slot.hidden}


def run_step(
    plan: Plan, merged: Merged, draws: dict[str, Drawn], settings: Settings, folder: Path | None = None
) -> Ran:
    """Run the rebuilt notebook; take each answer out where its check cell stands."""
    taken: dict[str, Extraction] = {}
    problems: list[FileProblem] = []
    notes: list[str] = []
    due: dict[int, list[Slot]] = {}
    voided = _void_answers(plan, merged.void)
    for slot in plan.slots:
        if slot.exercise.kind != "manual" and slot.exercise.answer not in voided:
            due.setdefault(slot.extract_at, []).append(slot)
    folder = folder or work_folder()
    edition = Path(settings.edition) if settings.edition else None
    started = time.monotonic()
    try:
        with KernelSession(folder, settings.sandbox, settings.timeout, settings.limits, edition) as session:
            for index in range(len(plan.cells) + 1):
                stopped = False
                for slot in due.get(index, []):
                    probes = (
                        draws[slot.grade_id].probes if slot.grade_id in draws else tuple(slot.exercise.probes)
                    )
                    taken[slot.grade_id] = extraction = session.extract(
                        slot.exercise.answer, slot.exercise.kind, probes
                    )
                    if extraction.status in STOPPED:
                        status, what = STOPPED[extraction.status]
                        problems.append(
                            FileProblem(
                                status,
                                f"the kernel {what} while the grader read "
                                f"{slot.exercise.answer}; the rest of the notebook was not run",
                            )
                        )
                        stopped = True
                        break
                if stopped or index == len(plan.cells):
                    break
                cell = plan.cells[index]
                if cell.kind != "code" or cell.role == "check":
                    continue
                if time.monotonic() - started > settings.wall:
                    problems.append(
                        FileProblem(
                            Status.TIMEOUT,
                            f"the notebook ran longer than {settings.wall:g} s in "
                            f"all; it was stopped before {_label(plan, index)}",
                        )
                    )
                    break
                if _run_cell(session, merged.sources[index], _label(plan, index), settings, problems, notes):
                    break
            session.finish_output()
            problems += _output_problems(session, settings)
    finally:
        if (left := remove_tree(folder)) is not None:
            notes.append(left)
    return Ran(taken, tuple(problems), tuple(notes))


def _output_problems(session: KernelSession, settings: Settings) -> list[FileProblem]:
    limit = f"limit {settings.output_limit / 1e6:.0f} MB"
    totals = session.output_by_label()
    found = [
        FileProblem(
            Status.OUTPUT_LIMIT,
            f"{label} printed {size / 1e6:.0f} MB of output ({limit}); it was thrown away",
        )
        for label, size in totals.items()
        if size > settings.output_limit and label not in session.oversized
    ]
    found += [
        FileProblem(
            Status.OUTPUT_LIMIT,
            f"{label} printed one output of more than {MAX_MESSAGE >> 20} MB ({limit}); it was thrown away",
        )
        for label in sorted(session.oversized)
    ]
    found += [
        FileProblem(
            Status.OUTPUT_LIMIT,
            f"{label} printed more output than the kernel could send ({limit}); it was thrown away",
        )
        for label in sorted(session.unsent - session.oversized)
        if totals.get(label, 0) <= settings.output_limit  # else it is named above
    ]
    return found


def _run_cell(
    session: KernelSession,
    source: str,
    label: str,
    settings: Settings,
    problems: list[FileProblem],
    notes: list[str],
) -> bool:
    """Run one cell, record what went wrong; True when the notebook cannot go on."""
    outcome = session.run_cell(source, label)
    timeout = settings.timeout
    if outcome.status is Claim.error:
        if outcome.error.startswith("MemoryError"):
            problems.append(
                FileProblem(
                    Status.MEMORY_LIMIT,
                    f"{label} ran out of memory (the limit is "
                    f"{settings.limits.memory >> 20} MB per notebook)",
                )
            )
        elif "File too large" in outcome.error:
            problems.append(
                FileProblem(
                    Status.DISK_LIMIT,
                    f"{label} wrote a file bigger than the disk quota ({settings.limits.disk >> 20} MB)",
                )
            )
        notes.append(f"{label} raised {_short(outcome.error)}")
    elif outcome.status is Claim.timeout:
        problems.append(FileProblem(Status.TIMEOUT, f"{label} ran longer than {timeout:g} s and was stopped"))
    elif outcome.status is Claim.stuck:
        problems.append(
            FileProblem(
                Status.TIMEOUT,
                f"{label} ran longer than {timeout:g} s and did not stop when "
                "interrupted; the rest of the notebook was not run",
            )
        )
        return True
    elif outcome.status in STOPPED:
        status, what = STOPPED[outcome.status]
        problems.append(
            FileProblem(status, f"the kernel {what} in {label}; the rest of the notebook was not run")
        )
        return True
    return False


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def judge_step(
    plan: Plan, merged: Merged, ran: Ran, draws: dict[str, Drawn], learner: LearnerCells, settings: Settings
) -> tuple[tuple[ExerciseResult, ...], tuple[FileProblem, ...], tuple[str, ...]]:
    """(results, problems, review notes) for every slot of the plan."""
    results, problems, review = [], [], []
    voided = _void_answers(plan, merged.void)
    for slot in plan.slots:
        if slot.exercise.kind == "manual":
            found = learner.cells.get(slot.grade_id, [])
            results.append(_result(slot, failed("graded by your instructor"), found[-1][1] if found else ""))
            review.append(f"to grade by hand: {slot.grade_id} (its text is in the feedback file)")
            continue
        if slot.grade_id in merged.void:
            verdict = failed(merged.void[slot.grade_id])
        elif slot.hidden and slot.exercise.answer in voided:
            verdict = failed("not graded: the exercise cell this check reads is missing or ambiguous")
        else:
            try:
                verdict = verdict_for(
                    slot,
                    ran.taken.get(slot.grade_id, Extraction(Claim.not_reached)),
                    draws.get(slot.grade_id),
                    settings,
                )
            # A judge that returns no Verdict, or a hidden check's judge that calls sys.exit() or raises
            # KeyboardInterrupt (workers ignore Ctrl-C, so it is never a person's), is the course's bug:
            # that exercise's row is a grader error, retried next run; the batch goes on.
            except (Exception, SystemExit, KeyboardInterrupt) as error:
                problems.append(
                    FileProblem(
                        Status.GRADER_ERROR,
                        f"the check of {slot.grade_id} is broken ({type(error).__name__}: {error})",
                    )
                )
                verdict = failed("not graded: the check itself failed; your instructor has been told")
        if slot.grade_id in merged.swapped and not verdict.passed:
            verdict = failed(f"{merged.swapped[slot.grade_id]} ({verdict.message or 'not passed'})")
        results.append(_result(slot, verdict))
    return tuple(results), tuple(problems), tuple(review)


def verdict_for(slot: Slot, taken: Extraction, drawn: Drawn | None, settings: Settings) -> Verdict:
    """The verdict on a claim from the kernel; only plain data reaches a judge, in this process."""
    exercise = slot.exercise
    name = exercise.answer
    if taken.status is Claim.ok:
        try:
            data = to_plain(taken.data, name)
        except NotPlainData as error:
            return failed(str(error))
        if exercise.kind != "function":
            return judge_plain(exercise, data)
        probes = drawn.probes if drawn else exercise.probes
        if type(data) is not list or len(data) != len(probes):
            return failed(f"the results of {name} could not be read")
        fixed = len(exercise.probes)
        verdict = judge_plain(exercise, data[:fixed])
        if not verdict.passed or drawn is None:
            return verdict
        return _judge_drawn(exercise, drawn, data[fixed:]) or verdict
    if taken.status is Claim.not_done:
        return NOT_DONE_VERDICT
    if taken.status is Claim.missing:
        return failed(
            f"{name} is not defined when its check runs: its cell raised an error before defining "
            "it, or the name was changed"
        )
    if taken.status is Claim.timeout:
        return failed(
            f"reading {name} took longer than {settings.timeout:g} s"
            + (" (did it return for every input the check tried?)" if exercise.kind == "function" else "")
        )
    if taken.status in (Claim.stuck, Claim.dead, Claim.broken, Claim.disk, Claim.not_reached):
        return failed("not graded: the notebook stopped before this exercise was reached (see Why)")
    return failed(taken.message or f"{name} could not be read ({taken.status})")


def _judge_drawn(exercise: Exercise, drawn: Drawn, results: list) -> Verdict | None:
    """None when every drawn input got its right result; else a hint naming the first that did not."""
    from workbook.exercises.references import same_plain

    same = grading_for(exercise.grade_id).same or same_plain
    for args, got, want in zip(drawn.drawn, results, drawn.expected):
        call = f"{exercise.answer}({', '.join(_short(repr(a), 70) for a in args)})"
        try:
            if same(got, want):
                continue
        except (
            Exception
        ) as error:  # plain data the comparison cannot take is a wrong answer, not a grader error
            return failed(
                f"{call} returned {_short(repr(got), 80)}, which cannot be compared with the right result "
                f"({type(error).__name__}); return the kind of value the exercise asks for (an input drawn "
                "for this grading run)"
            )
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised} (an input drawn for this grading run)")
        return failed(
            f"{call} returned {_short(repr(got), 80)}, expected {_short(repr(want), 80)} (an input drawn "
            "for this grading run; the public examples alone do not make a function right)"
        )
    return None


def _result(slot: Slot, verdict: Verdict, manual_text: str = "") -> ExerciseResult:
    manual = slot.exercise.kind == "manual"
    return ExerciseResult(
        slot.grade_id,
        0 if manual or not verdict.passed else number(slot.points),
        number(slot.points),
        GradeVerdict.MANUAL if manual else GradeVerdict(verdict.status),
        manual_text if manual else verdict.message,
        slot.hidden,
        slot.exercise.prompt,
    )


def make_row(
    submission: Submission,
    notebook: str,
    settings: Settings,
    problems: list[FileProblem],
    results: tuple[ExerciseResult, ...] = (),
    notes: tuple[str, ...] = (),
    review: tuple[str, ...] = (),
) -> Row:
    ordered = sorted(problems, key=lambda p: SEVERITY.index(p.status))
    status = ordered[0].status if ordered else Status.GRADED
    # A hand-graded exercise counts in max (07's design note: 8 points possible, not 5) and is pending.
    scored = [e for e in results if e.verdict is not GradeVerdict.MANUAL]
    return Row(
        submission.learner,
        notebook,
        submission.file,
        status,
        "; ".join([p.reason for p in ordered] + list(review)),
        number(sum(e.points for e in scored)),
        number(sum(e.max for e in results)),
        tuple(results),
        tuple(notes),
        "bwrap" if settings.sandbox.isolated else "unsandboxed",
    )


def zero(plan: Plan, message: str) -> tuple[ExerciseResult, ...]:
    return tuple(_result(slot, failed(message)) for slot in plan.slots)


STEPS = ("read", "identify", "plan", "merge", "draw", "run", "judge")


def grade_one(submission: Submission, settings: Settings, folder: Path | None = None) -> Row:
    """Grade one file through ``STEPS``; every fault becomes a status and a reason, never an exception.
    ``folder`` is the kernel's work folder (new when None); it is removed afterwards, whatever the
    notebook left in it (see ``cleanup``)."""
    try:
        row = _pipeline(submission, settings, folder)
    except (Exception, SystemExit) as error:  # this learner's row, never the end of the batch
        row = make_row(
            submission,
            submission.notebook or "",
            settings,
            [
                FileProblem(
                    Status.GRADER_ERROR,
                    f"the grader failed on this file ({type(error).__name__}: {_short(str(error))})",
                )
            ],
        )
    if folder is not None and (left := remove_tree(folder)) is not None:
        row = replace(row, notes=(*row.notes, left))
    return row


def _pipeline(submission: Submission, settings: Settings, folder: Path | None) -> Row:
    notebook = submission.notebook or ""
    notes: tuple[str, ...] = ()
    try:
        cells = read_step(submission)
        notebook, notes = identify_step(submission, cells, settings)
        plan = plan_step(notebook, cells, settings)
        merged = merge_step(plan, cells)
        draws = draw_step(plan, settings)
        ran = run_step(plan, merged, draws, settings, folder)
        results, judged, review = judge_step(plan, merged, ran, draws, cells, settings)
    except Stop as stop:
        results = ()
        notebook = stop.notebook or notebook
        if stop.plan is None and stop.message and notebook:
            try:
                stop.plan = plan_for(notebook, settings)
            except PlanError:
                pass
        if stop.plan is not None:
            results = zero(stop.plan, stop.message or "not graded")
        return make_row(
            submission,
            notebook,
            settings,
            list(stop.problems),
            results,
            notes,
        )
    except PlanError as error:
        return make_row(
            submission,
            notebook,
            settings,
            [FileProblem(Status.GRADER_ERROR, f"this notebook cannot be graded: {error}")],
            (),
            notes,
        )
    except Exception as error:  # a grader bug must cost one row, not the batch; the row is retried next run
        return make_row(
            submission,
            notebook,
            settings,
            [
                FileProblem(
                    Status.GRADER_ERROR, f"the grader failed on this file ({type(error).__name__}: {error})"
                )
            ],
            (),
            notes,
        )
    return make_row(
        submission,
        notebook,
        settings,
        [*merged.problems, *ran.problems, *judged],
        results,
        notes + merged.notes + ran.notes,
        merged.review + review,
    )
