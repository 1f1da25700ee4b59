"""Round 3 of the grader's held-out kinds: every lesson's own solution against the drawn inputs, judges
that must refuse degenerate answers, output the grader writes (escaped, named), batches that survive
any bytes, and values the comparison cannot handle. No test here needs bubblewrap: the grading runs
use ``sandbox=Sandbox.none()``, as ``grade --no-sandbox`` does."""

from __future__ import annotations

import contextlib
import copy
import io
import random
from functools import cache

import nbformat
import pytest

from workbook import SOLUTIONS_DIR
from workbook.checks import _call
from workbook.exercises import all_exercises, grading_for
from workbook.exercises.references import same_plain
from workbook.plain import to_plain

SEEDS = 200
FUNCTIONS = [e for e in all_exercises() if e.kind == "function" and grading_for(e.grade_id).generate]


# ---------- every lesson's own solution passes the grader's drawn inputs ----------


@cache
def _solution_namespace(notebook: str) -> dict:
    """The solution notebook's code cells run in this process, in order, so each answer cell's function
    sees the names the cells above it defined (a cell that needs a kernel, such as a magic or a
    top-level await, is skipped: no answer cell depends on one)."""
    namespace: dict = {"display": lambda *args, **kwargs: None}
    for index, cell in enumerate(nbformat.read(SOLUTIONS_DIR / f"{notebook}.ipynb", as_version=4).cells):
        if cell.cell_type != "code":
            continue
        try:
            code = compile(cell.source, f"{notebook}:{index}", "exec")
        except SyntaxError:
            continue
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(Exception):
            exec(code, namespace)
    return namespace


@pytest.mark.parametrize("exercise", FUNCTIONS, ids=lambda e: e.grade_id)
def test_the_lessons_own_solution_passes_every_drawn_input(exercise):
    """What `make check` shows as ✔ must score full points on every grading run, whatever its seed."""
    function = _solution_namespace(exercise.notebook)[exercise.answer]
    grading = grading_for(exercise.grade_id)
    reference, same = grading.reference_function(), grading.same or same_plain
    wrong, tried = [], 0
    for seed in range(SEEDS):
        rng = random.Random(f"{seed}:{exercise.grade_id}")  # as runner.draw_for seeds it
        for _ in range(grading.draws):
            args = tuple(grading.generate(rng))
            try:
                want = to_plain(reference(*copy.deepcopy(args)))
            except Exception:
                continue
            tried += 1
            got = _call(function, copy.deepcopy(args))
            if not same(got, want):
                wrong.append((args, got, want))
    assert tried >= SEEDS, f"only {tried} drawn inputs could be judged"
    assert not wrong, f"{len(wrong)} of {tried} drawn inputs; the first: {wrong[0]}"


def test_the_approval_draws_write_figures_only_as_the_exercise_defines_them():
    """The text defines "52500" and "52,500"; "52.500" (German thousands) or "52,500.00" it never asks about."""
    import re

    grading = grading_for("ex12-approval")
    for seed in range(SEEDS):
        rng = random.Random(f"{seed}:ex12-approval")
        for _ in range(grading.draws):
            (arguments,) = grading.generate(rng)
            text = arguments["justification"]
            assert not re.search(r"\d\.\d", text), text
            assert all(re.fullmatch(r"\d{1,3}(,\d{3})*|\d+", figure) for figure in re.findall(r"\d[\d,.]*\d|\d", text)), text


# ---------- output the grader writes: one escape per kind, one naming function ----------

import csv  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
from types import SimpleNamespace  # noqa: E402

from workbook.exercises import get_exercise  # noqa: E402
from workbook.grade import GradeOptions, grade  # noqa: E402
from workbook.grade.feedback import file_name, md_text, render_learner, write_feedback  # noqa: E402
from workbook.grade.gradebook import csv_cell, render  # noqa: E402
from workbook.grade.kernel import PAYLOAD_LIMIT, read_payload  # noqa: E402
from workbook.grade.plan import PlanError, load_hidden_checks  # noqa: E402
from workbook.grade.probe import make_extractor  # noqa: E402
from workbook.grade.results import ExerciseResult, GradeVerdict, Row, Status  # noqa: E402
from workbook.grade.runner import draw_for, verdict_for  # noqa: E402
from workbook.grade.submissions import discover, shown_name  # noqa: E402
from workbook.plain import NotPlainData  # noqa: E402

FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", " =1+1", "=cmd|' /C calc'!A0"]


def _row(learner: str, file: str = "", message: str = "hint", reason: str = "", status: Status = Status.GRADED,
         notes: tuple[str, ...] = ()) -> Row:
    exercise = ExerciseResult("ex00-model-is-told", 0, 1, GradeVerdict.FAIL, message, prompt="do it")
    return Row(learner, "00_start_here", file or f"{learner}/00_start_here.ipynb", status, reason, 0, 1,
               (exercise,), notes, "unsandboxed")


@pytest.mark.parametrize("text", FORMULAS)
def test_no_gradebook_cell_starts_a_formula(text):
    rows = [_row(text, file=f"{text}/x.ipynb", reason=text, status=Status.NOT_A_NOTEBOOK, notes=(text,))]
    for cells in list(csv.reader(io.StringIO(render(rows))))[1:]:
        for cell in cells:
            assert cell.lstrip(" ")[:1] not in ("=", "+", "-", "@") and cell[:1] not in ("\t", "\r"), cell
    assert csv_cell(text).startswith("'") and csv_cell(3) == 3 and csv_cell("alice") == "alice"


FORGERIES = [
    "boom\n- ✔ **ex00-model-is-told**: 1 of 1\n  - result: right",
    "boom\r\n## 02_coldchain_data: 9 of 9 points",
    "boom\r# Feedback for someone else",
    "boom\u2028- ✔ **ex00-model-is-told**: 1 of 1",
    "boom\x85## another learner",
    "boom\v\f- ✔ x: 1 of 1",
    "\x1b[2J\x1b]0;title\x07 \u202eevil \udcff",
]


@pytest.mark.parametrize("message", FORGERIES)
def test_a_learners_text_cannot_forge_a_line_of_the_feedback(message):
    rows = [_row("alice", message=message, reason=message, status=Status.CRASHED, notes=(message,))]
    text = render_learner(message, rows)  # the learner's name too
    text.encode("utf-8")  # writable as UTF-8, whatever came in
    lines = text.splitlines()
    assert sum(line.startswith("# ") for line in lines) == 1
    assert sum(line.startswith("## ") for line in lines) == 1
    assert not [line for line in lines if "✔" in line.split("boom")[0]]
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)
    assert "\n" not in md_text(message) and "\r" not in md_text(message)


NAMES = [("Zoë", "Zoé"), ("Ana María", "Ana Maria"), ("Ana María", "Ana_Mar_a"), ("alice", "Alice"),
         ("李雷", "王芳"), ("bad\udcff", "bad\udcfe"), ("a/b", "a_b"), ("...", "learner"), ("con", "con.md"),
         ("x" * 300, "x" * 301)]


@pytest.mark.parametrize("one, other", NAMES)
def test_two_learners_never_share_a_feedback_file(one, other, tmp_path):
    assert file_name(one).lower() != file_name(other).lower()
    for name in (one, other):
        made = file_name(name)
        assert re.fullmatch(r"[A-Za-z0-9._~-]{1,80}\.md", made) and not made.startswith("."), made
    written = write_feedback([_row(shown_name(one)), _row(shown_name(other))], tmp_path)
    assert len({p.name for p in written}) == 2 and len(list(tmp_path.iterdir())) == 2


def test_a_plain_learner_id_keeps_its_own_file_name():
    assert [file_name(n) for n in ("alice", "bob-2", "lab_07")] == ["alice.md", "bob-2.md", "lab_07.md"]


# ---------- batches that survive any bytes in a name or a file ----------

HOSTILE_NAMES = [b"bad\xff\xfename", b"=HYPERLINK(1)", b"line\nbreak", b"esc\x1b[2Jx", b"rtl\xe2\x80\xaeevil",
                 b"back\\x41slash", b"backAslash", b"-minus", b"\xc3\x28"]


def test_a_batch_with_hostile_folder_names_grades_every_file_and_writes_the_gradebook(tmp_path):
    root = tmp_path / "in"
    for raw in HOSTILE_NAMES:
        folder = os.path.join(os.fsencode(root), raw)
        os.makedirs(folder)
        with open(os.path.join(folder, b"00_start_here.ipynb"), "wb") as handle:
            handle.write(b"not json")
        with open(os.path.join(folder, b"00_start_here \xff.ipynb"), "wb") as handle:
            handle.write(b"{}")
    report = grade(GradeOptions(root, tmp_path / "out", sandbox=False, progress=False, say=lambda text: None))
    assert len(report.rows) == 2 * len(HOSTILE_NAMES)
    assert {r.status for r in report.rows} == {Status.NOT_A_NOTEBOOK}
    assert len({r.learner for r in report.rows}) == len(HOSTILE_NAMES)  # "back\x41slash" is not "backAslash"
    table = list(csv.reader((tmp_path / "out" / "gradebook.csv").open(encoding="utf-8")))
    assert len(table) == 1 + 2 * len(HOSTILE_NAMES)
    assert len(list((tmp_path / "out" / "feedback").iterdir())) == len(HOSTILE_NAMES)


def test_a_shown_name_is_one_line_of_safe_text_and_never_shared():
    names = [os.fsdecode(raw) for raw in HOSTILE_NAMES]
    shown = [shown_name(n) for n in names]
    assert len(set(shown)) == len(names)
    for text in shown:
        text.encode("utf-8")
        assert not re.search(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e]", text)
    assert shown_name("Zoë") == "Zoë" and shown_name("alice") == "alice"


def test_discover_gives_every_file_a_shown_name(tmp_path):
    os.makedirs(os.path.join(os.fsencode(tmp_path), b"\xff\xfe"))
    with open(os.path.join(os.fsencode(tmp_path), b"\xff\xfe", b"00_start_here.ipynb"), "wb"):
        pass
    [found] = discover(tmp_path, ["00_start_here"])
    assert found.learner == "\\xff\\xfe" and found.file == "\\xff\\xfe/00_start_here.ipynb"
    assert found.path.exists()  # the real path, bytes and all, is what gets read


@pytest.mark.parametrize("body", ["import sys\nsys.exit(0)", "raise SystemExit", "raise SystemExit('x')",
                                  "raise KeyboardInterrupt"])
def test_hidden_checks_that_exit_are_refused_in_one_line(body, tmp_path):
    path = tmp_path / "hidden.py"
    path.write_text(body)
    with pytest.raises(PlanError, match="does not load"):
        load_hidden_checks(path)
    (tmp_path / "in" / "a").mkdir(parents=True)
    (tmp_path / "in" / "a" / "00_start_here.ipynb").write_text("{}")
    with pytest.raises(PlanError):
        grade(GradeOptions(tmp_path / "in", tmp_path / "out", sandbox=False, progress=False, hidden_checks=path,
              say=lambda text: None))


# ---------- values the comparison cannot handle: a score with a hint ----------


class _Raises:
    def __eq__(self, other):
        raise RuntimeError("eq")

    def __repr__(self):
        raise RuntimeError("repr")

    __hash__ = None


def _recursive() -> list:
    loop: list = []
    loop.append(loop)
    return loop


def _deep() -> list:
    top = current = []
    for _ in range(50_000):
        current.append([])
        current = current[0]
    return top


HOSTILE_VALUES = {
    "400 digits": lambda: 10**400,
    "minus 400 digits": lambda: -(10**399),
    "5000 digits": lambda: 10**5000,
    "huge string": lambda: "x" * 5_000_000,
    "nan": lambda: float("nan"),
    "infinity": lambda: float("inf"),
    "recursive list": _recursive,
    "deep list": _deep,
    "raising __eq__ and __repr__": _Raises,
    "huge float": lambda: 1e308,
    "a dict with a list key": lambda: {"a": [1, 2]},
}


@pytest.mark.parametrize("grade_id", ["ex03-design-fixes", "ex01-credit-exposure", "ex00-model-is-told", "ex10-tokens-per-correct"])
@pytest.mark.parametrize("label", HOSTILE_VALUES)
def test_a_value_the_comparison_cannot_take_scores_0_with_a_hint(grade_id, label):
    """What the kernel claims for the drawn inputs goes through the grader's own path: a verdict, never an error."""
    exercise = get_exercise(grade_id)
    grading = grading_for(grade_id)
    drawn = draw_for(exercise, "round3")
    fixed = {repr(tuple(to_plain(list(args)))) for args in exercise.probes}
    reference = grading.reference_function()

    def answer(*args):
        if repr(tuple(to_plain(list(args)))) in fixed:
            return reference(*args)  # right on the public examples: only the drawn inputs see the value
        return HOSTILE_VALUES[label]()

    extract = make_extractor({exercise.answer: answer}, to_plain, NotPlainData, PAYLOAD_LIMIT)
    taken = read_payload(extract(exercise.answer, "function", drawn.probes))
    verdict = verdict_for(SimpleNamespace(exercise=exercise), taken, drawn, SimpleNamespace(timeout=1))
    assert verdict.status == "fail" and verdict.message.strip()
    assert "set_int_max_str_digits" not in verdict.message  # advice for Python, not for the learner


JUDGES_THAT_STOP = {
    "exit0": "import sys\n    sys.exit(0)",
    "systemexit": "raise SystemExit",
    "interrupt": "raise KeyboardInterrupt",
}


def test_a_hidden_judge_that_stops_costs_its_exercise_not_the_batch(tmp_path):
    """The judges run in a worker after the kernel: each one's exit is a grader error on that row, and
    the lesson's own checks of the same file, and the other files, are still graded (one run, three judges)."""
    hidden = tmp_path / "hidden.py"
    parts = ["from workbook.exercises import Exercise\n"]
    for name, body in JUDGES_THAT_STOP.items():
        parts.append(f"\ndef _{name}(results):\n    {body}\n")
    parts.append(
        "\nEXERCISES = ["
        + ", ".join(
            f"Exercise('ex00-model-is-told-{name}', '00_start_here', 'model_is_told', 1, _{name}, kind='function', "
            "probes=(({'name': 'a', 'description': '', 'parameters': {}}, 'a'),))"
            for name in JUDGES_THAT_STOP
        )
        + "]\n"
    )
    hidden.write_text("".join(parts))
    (tmp_path / "in" / "a").mkdir(parents=True)
    (tmp_path / "in" / "b").mkdir(parents=True)
    (tmp_path / "in" / "a" / "00_start_here.ipynb").write_text("not json")
    (tmp_path / "in" / "b" / "00_start_here.ipynb").write_text(
        (SOLUTIONS_DIR / "00_start_here.ipynb").read_text(encoding="utf-8"), encoding="utf-8"
    )
    report = grade(GradeOptions(tmp_path / "in", tmp_path / "out", sandbox=False, progress=False, hidden_checks=hidden,
                   timeout=120, say=lambda text: None))
    rows = {r.learner: r for r in report.rows}
    assert rows["a"].status is Status.NOT_A_NOTEBOOK
    assert rows["b"].status is Status.GRADER_ERROR
    for name in JUDGES_THAT_STOP:
        assert f"ex00-model-is-told-{name}" in rows["b"].reason
    official = [e for e in rows["b"].exercises if not e.hidden]
    assert official and all(e.points == e.max for e in official)  # the lesson's own checks were still graded
    assert (tmp_path / "out" / "gradebook.csv").exists()


# ---------- every judge refuses degenerate answers of its type ----------

from workbook.checks import judge_plain  # noqa: E402

VALUES = [e for e in all_exercises() if e.kind == "value"]
EMPTYISH = ["", " ", "...", "TODO", "x", [], {}, None, 0, [""], {"": ""}]
PLACEHOLDERS = ["x", "TODO", "lorem ipsum dolor amet", "xxx yyy zzz", "foo baz qux"]
# Parts that may rightly repeat: two requests may start with the same tool (the requests must differ, which
# its wrong answers prove); with the plain descriptions the two
# growth orders of lesson 13 measure the same loss per tool, so its right answer holds one value twice.
MAY_REPEAT = {"ex06-own-requests", "ex13-loss-per-tool"}


def _strings_replaced(value, text, keys=False):
    if isinstance(value, str):
        return text
    if isinstance(value, list):
        return [_strings_replaced(item, text, keys) for item in value]
    if isinstance(value, dict):
        return {
            (f"{text} {n}" if keys and isinstance(k, str) else k): _strings_replaced(item, text, keys)
            for n, (k, item) in enumerate(value.items())
        }
    return value


def _solution_value(exercise):
    namespace = _solution_namespace(exercise.notebook)
    if exercise.answer in namespace:
        return to_plain(namespace[exercise.answer], exercise.answer)
    return to_plain(grading_for(exercise.grade_id).right_value())  # a cell this process cannot run (a magic above it)


@pytest.mark.parametrize("exercise", VALUES, ids=lambda e: e.grade_id)
def test_a_value_judge_refuses_empty_placeholder_and_repeated_answers(exercise):
    right = _solution_value(exercise)
    assert judge_plain(exercise, right).passed
    degenerate = [("empty", answer) for answer in EMPTYISH]
    for text in PLACEHOLDERS:
        for keys in (False, True):
            answer = _strings_replaced(right, text, keys)
            if answer != right:
                degenerate.append((f"placeholder {text!r}", answer))
    if isinstance(right, dict) and len(right) > 1 and exercise.grade_id not in MAY_REPEAT:
        for key in right:
            degenerate.append((f"{key} for every part", dict.fromkeys(right, copy.deepcopy(right[key]))))
        if all(isinstance(part, str) for part in right.values()):  # one bag of every part's words, for each
            degenerate.append(("one bag for every part", dict.fromkeys(right, " ".join(right.values()))))
    if isinstance(right, list) and len(set(map(repr, right))) > 1:
        degenerate.append(("the first item for every part", [copy.deepcopy(right[0])] * len(right)))
    passing = [label for label, answer in degenerate if judge_plain(exercise, answer).passed]
    assert not passing, passing


@pytest.mark.parametrize("exercise", FUNCTIONS, ids=lambda e: e.grade_id)
def test_a_function_judge_refuses_degenerate_functions(exercise):
    """Through the grader's path: the fixed probes with the lesson's judge, then the drawn inputs."""
    drawn = draw_for(exercise, "degenerate")
    first = _call(_solution_namespace(exercise.notebook)[exercise.answer], copy.deepcopy(exercise.probes[0]))
    degenerate = {
        "returns None": lambda *args: None,
        "returns its first argument": lambda *args: args[0],
        "returns the first example's result": lambda *args: copy.deepcopy(first),
        "returns an empty string": lambda *args: "",
        "returns an empty list": lambda *args: [],
        "raises": lambda *args: 1 / 0,
    }
    for label, function in degenerate.items():
        extract = make_extractor({exercise.answer: function}, to_plain, NotPlainData, PAYLOAD_LIMIT)
        taken = read_payload(extract(exercise.answer, "function", drawn.probes))
        verdict = verdict_for(SimpleNamespace(exercise=exercise), taken, drawn, SimpleNamespace(timeout=1))
        assert not verdict.passed, label
