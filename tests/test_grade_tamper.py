"""Tamper suite: each way a learner's kernel might reach an answer, proven to score 0, next to a control
with the true answers that scores full marks in the same run.

Classes: answer keys (split module names, importlib, reading the package's files, the instructor's
repository by path), references (the package's graded functions, the registry), secrets in kernel
memory and forged claims, memorised probes, links and special files, daemons that outlive their
kernel and go for the journal and gradebook, kernels that kill their parent with --jobs 2, and
memory, disk and output hogs. No verdict here depends on how fast the machine is: every wait is for
a state (a file written, a process gone), bounded only by limits a hang would reach.
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
import textwrap
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

import lessons
from workbook import REPO_ROOT, SOLUTIONS_DIR
from workbook.cli import main
from workbook.exercises.lesson02 import BREACH_EXPECTED, BREACH_PROBES, CLAIM_PROBES, reference_claims
from workbook.grade import GradeOptions, grade
from workbook.grade.batch import GRADEBOOK, JOURNAL
from workbook.grade.kernel import Limits
from workbook.grade.results import Status
from workbook.grade.sandbox import NoSandbox, Sandbox, detect
from workbook.notebook_files import write_notebook
from workbook.release import learner_copy, read_notebook

NB02, NB00, NB04 = "02_coldchain_data", "00_start_here", "04_designed_tools"
LIMITS = Limits(memory=1024 << 20, disk=64 << 20)
TIMEOUT = 60  # per cell: far above what any cell here needs, so only a hang reaches it

needs_bwrap = pytest.mark.skipif(not detect().isolated, reason="bubblewrap is not installed or cannot run here")


def released(stem: str) -> nbformat.NotebookNode:
    return learner_copy(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))


def _cells(notebook: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode]:
    return {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in notebook.cells}


def solved(stem: str) -> nbformat.NotebookNode:
    notebook, solution = released(stem), _cells(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))
    for grade_id, cell in _cells(notebook).items():
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = solution[grade_id].source
    return notebook


def with_answers(stem: str, **sources: str) -> nbformat.NotebookNode:
    """The released notebook with these answer cells (grade_id with _ for -) replaced."""
    notebook = released(stem)
    cells = _cells(notebook)
    for key, source in sources.items():
        cells[key.replace("_", "-")].source = textwrap.dedent(source).strip("\n")
    return notebook


def save(folder: Path, learner: str, notebook: nbformat.NotebookNode, name: str = f"{NB02}.ipynb") -> Path:
    path = folder / learner / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_notebook(path, notebook)


# ---------- the tampering answers (both answer cells of notebook 02, so a row's total must be 0) ----------

SPLIT_IMPORT = dict(
    ex02_longest_breach='''
        import importlib
        lesson = importlib.import_module("workbook.exercises." + "lesson" + "02")
        table = dict(zip(map(repr, getattr(lesson, "BREACH_PROBES", ())), getattr(lesson, "BREACH_EXPECTED", ())))
        def longest_breach_minutes(temps, max_temp_c, sample_minutes):
            return table[repr((temps, max_temp_c, sample_minutes))]
        ''',
    ex02_claims='''
        import importlib
        keys = importlib.import_module("workbook.exercises.lesson02")
        rule = getattr(keys, "reference_claims", lambda shipments, readings, limits: {})
        try:
            registry = importlib.import_module("workbook.exercises.references").REFERENCES
            rule = registry["ex02-claims"].reference_function()
        except ImportError:
            pass
        def claims_for(shipments, readings, limits):
            return rule(shipments, readings, limits)
        ''')

READ_FILES = dict(
    ex02_longest_breach=f'''
        import ast, pathlib, re, workbook, tooldesign
        texts = [p.read_text(errors="replace") for root in (workbook.__file__, tooldesign.__file__)
                 for p in pathlib.Path(root).parent.rglob("*.py")]
        for guess in ({str(REPO_ROOT / "src")!r}, {str(REPO_ROOT / "solutions")!r}):
            if pathlib.Path(guess).exists():
                texts += [p.read_text(errors="replace") for p in pathlib.Path(guess).rglob("*.py*")]
        found = [re.search(r"BREACH_EXPECTED = (\\[[^\\]]*\\])", t) for t in texts]
        answers = next((ast.literal_eval(m.group(1)) for m in found if m), [])
        def longest_breach_minutes(temps, max_temp_c, sample_minutes):
            return answers.pop(0) if answers else 0
        ''',
    ex02_claims=f'''
        import ast, pathlib, re, workbook
        texts = [p.read_text(errors="replace") for p in pathlib.Path(workbook.__file__).parent.rglob("*.py")]
        if pathlib.Path({str(REPO_ROOT / "src" / "workbook" / "exercises" / "lesson02.py")!r}).exists():
            texts.append(pathlib.Path({str(REPO_ROOT / "src" / "workbook" / "exercises" / "lesson02.py")!r}).read_text())
        namespace = {{}}
        for text in texts:
            if "def reference_claims" in text:
                exec(text, namespace)  # the key's own module, run from its source
        def claims_for(shipments, readings, limits):
            rule = namespace.get("reference_claims")
            return rule(shipments, readings, limits) if rule else {{}}
        ''')

PACKAGE_REFERENCE = dict(
    ex02_longest_breach='''
        from tooldesign.data.coldchain import longest_breach_minutes
        ''',
    ex02_claims='''
        from tooldesign.data import coldchain
        def claims_for(shipments, readings, limits):
            try:
                table = coldchain.claims()
                return {r.shipment_number: int(r.claim_eur) for r in table.itertuples() if r.claim_eur > 0}
            except NotImplementedError:
                return {}
        ''')

MEMORY_SECRETS = dict(
    ex02_longest_breach='''
        import gc
        name = next(k for k in list(globals()) if k.startswith("_workbook_grade_"))
        fixed = [60, 90, 0, 0, 75, 30]
        def forged(answer, kind, probes):
            # A forged claim: the public examples' results, and nothing known about any other input.
            if kind == "function":
                return ascii({"status": "ok", "data": [fixed[i] if i < 6 else 0 for i in range(len(probes))]})
            return ascii({"status": "ok", "data": {"SHP-2047": 720}})
        globals()[name] = forged
        def longest_breach_minutes(temps, max_temp_c, sample_minutes):
            return 0
        ''',
    ex02_claims='''
        import gc
        def looks_like_key(o):
            try:
                return isinstance(o, dict) and "SHP-2061" in o and o is not globals()
            except Exception:
                return False
        keys = [o for o in gc.get_objects() if looks_like_key(o)]
        cells = [c.cell_contents for f in gc.get_objects() if callable(f) and getattr(f, "__closure__", None)
                 for c in f.__closure__ if isinstance(getattr(c, "cell_contents", None), (bytes, str))]
        def claims_for(shipments, readings, limits):
            return dict(keys[0]) if keys else {}
        ''')

APPROVER_FROM_PACKAGE = dict(
    ex04_approver='''
        from tooldesign.tools.designed import approver_for
        def approver(exposure, credit_limit):
            return approver_for(round(exposure * 100), round(credit_limit * 100))
        ''')

MEMORISED = dict(
    ex02_longest_breach=f'''
        SEEN = dict(zip(map(repr, {BREACH_PROBES!r}), {BREACH_EXPECTED!r}))
        def longest_breach_minutes(temps, max_temp_c, sample_minutes):
            return SEEN.get(repr((temps, max_temp_c, sample_minutes)), 0)
        ''',
    ex02_claims=f'''
        SEEN = dict(zip(map(repr, {CLAIM_PROBES!r}), {[reference_claims(*a) for a in CLAIM_PROBES]!r}))
        def claims_for(shipments, readings, limits):
            return SEEN.get(repr((shipments, readings, limits)), {{}})
        ''')

# The lessons 14-17 functions: each answer memorises its lesson's fixed probes, or imports the package's
# own reference (stubbed in a grading kernel). A whole notebook of them must score 0.
def _memorised_calls(name: str, params: str, calls: dict) -> str:
    return f'''
        SEEN = {calls!r}
        def {name}({params}):
            return SEEN.get(repr(({params},)), None)
        '''


def _lesson(module: str):
    import importlib
    return importlib.import_module(f"workbook.exercises.{module}")


SERVING, TRUSTING = lessons.stem("serving_tools_over_mcp"), lessons.stem("trusting_mcp_servers")
ACROSS_LOOP, CARRY = lessons.stem("results_across_the_loop"), lessons.stem("results_that_carry_instructions")
L_SERVING, L_TRUSTING = lessons.module("serving_tools_over_mcp"), lessons.module("trusting_mcp_servers")
L_ACROSS_LOOP = lessons.module("results_across_the_loop")
LATER_LESSONS = {
    SERVING: {
        lessons.answer_key("serving_tools_over_mcp", "hint-defaults"): _memorised_calls("with_defaults", "tool", {repr((t,)): w for (t,), w in
                                                                     zip(L_SERVING.HINT_PROBES, L_SERVING.HINT_EXPECTED)}),
        lessons.answer_key("serving_tools_over_mcp", "outcome"): _memorised_calls("outcome", "message", {repr((m,)): w for (m,), w in
                                                             zip(L_SERVING.OUTCOME_PROBES, L_SERVING.OUTCOME_EXPECTED)})},
    TRUSTING: {
        lessons.answer_key("trusting_mcp_servers", "approval"): _memorised_calls("needs_approval", "tool, server_trusted",
                                       {repr(a): w for a, w in zip(L_TRUSTING.APPROVAL_PROBES, L_TRUSTING.APPROVAL_EXPECTED)})},
    ACROSS_LOOP: {
        lessons.answer_key("results_across_the_loop", "keep-fields"): _memorised_calls("keep_fields", "questions",
                                          {repr(a): L_ACROSS_LOOP._keep_fields(*a) for a in L_ACROSS_LOOP.KEEP_PROBES}),
        lessons.answer_key("results_across_the_loop", "cut-records"): _memorised_calls("cut", "rows, limit", {repr(a): L_ACROSS_LOOP._cut(*a) for a in L_ACROSS_LOOP.CUT_PROBES}),
        lessons.answer_key("results_across_the_loop", "page"): _memorised_calls("page", "rows, cursor, size", {repr(a): L_ACROSS_LOOP._page(*a) for a in L_ACROSS_LOOP.PAGE_PROBES})},
    CARRY: {
        lessons.answer_key("results_that_carry_instructions", "as-data"): '''
            from tooldesign.injection.results import quoted
            def as_data(text, source):
                return quoted(text, source)
            ''',
        lessons.answer_key("results_that_carry_instructions", "flag-free-text"): '''
            from tooldesign.injection.lint_rule import free_text_paths
            def flag_free_text(result, marker, path=""):
                return free_text_paths(result, marker)
            '''},
}

# Notebook 00: what the student edition ships and prints is the lesson's nine cases (the check's
# hints say, case by case, whether the model is told); answers memorised from them pass the check in
# the notebook and fail the tools drawn at grade time. Notebook 13: the package's catch-all lint rule
# is used all through the package, so it cannot be stubbed; the exercise asks for what the package
# does not hold (the names of the catch-all fields), and these answers built on the package fail.
SIZE = lessons.stem("tool_set_size")
CATCH_ALL = lessons.grade_id("tool_set_size", "catch-all")
CATCH_ALL_KEY = lessons.answer_key("tool_set_size", "catch-all")
_TOLD_TABLE = """
        TOLD = {("sales_order_get", "by its number"): True, ("sales_order_get", "company code 1010"): False,
                ("sales_order_get", "e.g. 4711"): True, ("sales_order_get", "with items"): True,
                ("sales_order_get", "detail"): True, ("sales_order_get", "converted at the month's rate"): False,
                ("sales_order_get", "delivery block"): False, ("customer_find", "customer_find"): True,
                ("customer_find", "at most 5 customers"): False}
"""
TOLD_FROM_EDITION = {
    "memorised-else-description": '''
        from workbook.checks import check
        ''' + _TOLD_TABLE + '''
        def model_is_told(tool, fact):
            return TOLD.get((tool["name"], fact), fact in tool["description"])
        ''',
    "memorised-else-everything": '''
        import json
        from workbook.checks import check
        ''' + _TOLD_TABLE + '''
        def model_is_told(tool, fact):
            return TOLD.get((tool["name"], fact), fact in json.dumps(tool))
        ''',
    "memorised-else-the-packages-tool-with-its-handler": '''
        from workbook.checks import check
        from tooldesign.tools.base import Tool
        ''' + _TOLD_TABLE + '''
        def model_is_told(tool, fact):
            if (tool["name"], fact) in TOLD:
                return TOLD[tool["name"], fact]
            shown = Tool(tool["name"], tool["description"], tool["parameters"], lambda args: args)
            return fact in str(shown.definition()) or fact in tool["handler"]
        '''}
# Correct answers in other words, beside them: they must pass the same grading.
TOLD_IN_OTHER_WORDS = {
    "the-packages-definition": '''
        from workbook.checks import check
        from tooldesign.tools.base import Tool
        def model_is_told(tool, fact):
            shown = Tool(tool["name"], tool["description"], tool["parameters"], lambda args: args)
            return fact in str(shown.definition())
        ''',
    "walk-the-schema": '''
        from workbook.checks import check
        def texts(value):
            if isinstance(value, dict):
                for key, item in value.items():
                    yield key
                    yield from texts(item)
            elif isinstance(value, list):
                for item in value:
                    yield from texts(item)
            elif isinstance(value, str):
                yield value
        def model_is_told(tool, fact):
            return any(fact in text for text in texts([tool["name"], tool["description"], tool["parameters"]]))
        ''',
    "drop-the-handler": '''
        import json
        from workbook.checks import check
        def model_is_told(tool, fact):
            sent = dict(tool)
            del sent["handler"]
            return fact in json.dumps(sent)
        '''}
CATCH_ALL_FROM_PACKAGE = {
    "lint-messages": '''
        from tooldesign.lint import lint
        from tooldesign.scale import consolidate
        from tooldesign.tools.base import Tool
        def catch_all_fields(definition):
            tool = Tool(definition["name"], definition["description"], definition["parameters"], lambda a: a)
            report = lint([tool], extra=consolidate.RULES)
            return [f.message for f in report.findings if f.rule == "param-catch-all"]
        ''',
    "rule-verdict": '''
        from tooldesign.scale.consolidate import _catch_all
        from tooldesign.tools.base import Tool
        def catch_all_fields(definition):
            tool = Tool(definition["name"], definition["description"], definition["parameters"], lambda a: a)
            return bool(_catch_all(tool, [tool]))
        ''',
    "rule-messages": '''
        from tooldesign.scale.consolidate import CATCH_ALL_RULE
        from tooldesign.tools.base import Tool
        def catch_all_fields(definition):
            tool = Tool(definition["name"], definition["description"], definition["parameters"], lambda a: a)
            return list(CATCH_ALL_RULE.check(tool, [tool]))
        '''}


def solved_except(stem: str, **sources: str) -> nbformat.NotebookNode:
    """The solved notebook with these answer cells replaced: the untouched exercises are the control."""
    notebook = solved(stem)
    cells = _cells(notebook)
    for key, source in sources.items():
        cells[key.replace("_", "-")].source = textwrap.dedent(source).strip("\n")
    return notebook


PARENT_KILLER = dict(
    ex02_longest_breach='''
        import os, signal
        os.kill(os.getppid(), signal.SIGKILL)
        ''')

MEMORY_HOG = dict(ex02_longest_breach='''
        hog = bytearray(3 << 30)
        def longest_breach_minutes(temps, max_temp_c, sample_minutes):
            return 0
        ''')

DISK_HOG_ONE_FILE = dict(ex02_longest_breach='''
        with open("hog.bin", "wb") as handle:
            for _ in range(200):
                handle.write(b"x" * (1 << 20))
        ''')

DISK_HOG_MANY_FILES = dict(ex02_longest_breach='''
        for i in range(100):
            with open(f"/tmp/hog{i}.bin", "wb") as handle:
                handle.write(b"x" * (1 << 20))
        ''')

OUTPUT_HOG = dict(ex02_longest_breach='''
        for _ in range(30):
            print("x" * 1_000_000)
        ''')


def daemon(out: Path, pids: Path) -> dict[str, str]:
    """A double-forked daemon in its own session that keeps rewriting the journal and gradebook."""
    return dict(ex02_longest_breach=f'''
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                try:
                    os.makedirs({str(pids)!r}, exist_ok=True)
                    with open(os.path.join({str(pids)!r}, str(os.getpid())), "w") as handle:
                        handle.write("alive")
                except OSError:
                    pass
                for _ in range(600):
                    for name in ("gradebook.csv", "journal.sqlite"):
                        try:
                            with open(os.path.join({str(out)!r}, name), "w") as handle:
                                handle.write("learner,total\\ndaemon,999\\n")
                        except OSError:
                            pass
                    time.sleep(0.1)
                os._exit(0)
            os._exit(0)
        time.sleep(0.5)
        def longest_breach_minutes(temps, max_temp_c, sample_minutes):
            return 0
        ''')


TAMPERS = {"keys-split-import": SPLIT_IMPORT, "keys-read-files": READ_FILES, "reference-package": PACKAGE_REFERENCE,
           "secrets-and-forged-claims": MEMORY_SECRETS, "memorised-probes": MEMORISED}
HOGS = {"hog-memory": (MEMORY_HOG, Status.MEMORY_LIMIT), "hog-disk-one-file": (DISK_HOG_ONE_FILE, Status.DISK_LIMIT),
        "hog-disk-many-files": (DISK_HOG_MANY_FILES, Status.DISK_LIMIT),
        "hog-output": (OUTPUT_HOG, Status.OUTPUT_LIMIT)}


def _kernels_under(folder: Path) -> list[int]:
    """Processes whose command line names ``folder``: every kernel's connection file lives in it."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                text = Path(f"/proc/{name}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if str(folder) in text:
                found.append(int(name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture(scope="module")
def sandboxed(tmp_path_factory):
    if not detect().isolated:
        pytest.skip("bubblewrap is not installed or cannot run here")
    base = tmp_path_factory.mktemp("tamper")
    subs, out = base / "in", base / "out"
    save(subs, "control", solved(NB02))
    save(subs, "control", solved(NB00), f"{NB00}.ipynb")
    save(subs, "control", solved(NB04), f"{NB04}.ipynb")
    save(subs, "reference-approver", with_answers(NB04, **APPROVER_FROM_PACKAGE), f"{NB04}.ipynb")
    for learner, answers in TAMPERS.items():
        save(subs, learner, with_answers(NB02, **answers))
    for learner, (answers, _) in HOGS.items():
        save(subs, learner, with_answers(NB02, **answers))
    for stem, answers in LATER_LESSONS.items():
        save(subs, "later-lessons", with_answers(stem, **answers), f"{stem}.ipynb")
    save(subs, "memorised-told", with_answers(NB00, ex00_model_is_told=TOLD_FROM_EDITION["memorised-else-description"]),
         f"{NB00}.ipynb")
    save(subs, "told-in-other-words", with_answers(NB00, ex00_model_is_told=TOLD_IN_OTHER_WORDS["drop-the-handler"]),
         f"{NB00}.ipynb")
    save(subs, "package-catch-all", solved_except(SIZE, **{CATCH_ALL_KEY: CATCH_ALL_FROM_PACKAGE["lint-messages"]}),
         f"{SIZE}.ipynb")
    save(subs, "daemon", with_answers(NB02, **daemon(out, base / "pids")))
    save(subs, "parent-killer", with_answers(NB02, **PARENT_KILLER))
    (subs / "link").mkdir()
    (subs / "link" / f"{NB02}.ipynb").symlink_to(SOLUTIONS_DIR / f"{NB02}.ipynb")
    (subs / "linked-folder").symlink_to(SOLUTIONS_DIR, target_is_directory=True)
    (subs / "fifo").mkdir()
    os.mkfifo(subs / "fifo" / f"{NB02}.ipynb")
    work = Path(tempfile.mkdtemp(prefix="wbt", dir="/tmp"))  # short: kernel sockets live in it
    old = os.environ.get("WORKBOOK_GRADE_TMP")
    os.environ["WORKBOOK_GRADE_TMP"] = str(work)
    try:
        report = grade(GradeOptions(subs, out, jobs=2, timeout=TIMEOUT, progress=False, limits=LIMITS, say=lambda text: None))
    finally:
        if old is None:
            os.environ.pop("WORKBOOK_GRADE_TMP")
        else:
            os.environ["WORKBOOK_GRADE_TMP"] = old
    yield SimpleNamespace(report=report, rows={r.file: r for r in report.rows}, out=out, work=work,
                          gradebook=(out / GRADEBOOK).read_bytes())
    shutil.rmtree(work, ignore_errors=True)


def _row(graded, learner: str, name: str = f"{NB02}.ipynb"):
    return graded.rows[f"{learner}/{name}"]


@needs_bwrap
def test_the_controls_score_full_marks(sandboxed):
    for name in (f"{NB02}.ipynb", f"{NB00}.ipynb", f"{NB04}.ipynb"):
        row = _row(sandboxed, "control", name)
        assert row.status is Status.GRADED and row.total == row.max > 0, row
        assert row.sandbox == "bwrap"


@needs_bwrap
@pytest.mark.parametrize("learner", sorted(TAMPERS))
def test_no_way_to_an_answer_earns_a_point(sandboxed, learner):
    row = _row(sandboxed, learner)
    assert row.total == 0 and row.max == 4, [(e.grade_id, e.points, e.message) for e in row.exercises]


@needs_bwrap
def test_a_memorised_function_is_told_which_drawn_input_it_missed(sandboxed):
    hint = _row(sandboxed, "memorised-probes").exercises[0].message
    assert "drawn for this grading run" in hint


@needs_bwrap
def test_the_packages_approval_rule_is_no_answer_either(sandboxed):
    row = _row(sandboxed, "reference-approver", f"{NB04}.ipynb")
    points = {e.grade_id: e.points for e in row.exercises}
    assert points["ex04-approver"] == 0 and row.total == 0


@needs_bwrap
@pytest.mark.parametrize("stem", sorted(LATER_LESSONS))
def test_memorised_probes_and_the_packages_references_score_0_in_the_later_lessons(sandboxed, stem):
    row = _row(sandboxed, "later-lessons", f"{stem}.ipynb")
    cheated = {key.replace("_", "-") for key in LATER_LESSONS[stem]}
    points = {e.grade_id: e.points for e in row.exercises if e.grade_id in cheated}
    assert set(points) == cheated and not any(points.values()), [(e.grade_id, e.points, e.message)
                                                                 for e in row.exercises]


@needs_bwrap
def test_answers_memorised_from_what_the_edition_prints_score_0_in_lesson_00(sandboxed):
    row = _row(sandboxed, "memorised-told", f"{NB00}.ipynb")
    assert row.status is Status.GRADED and row.total == 0 and row.max == 1, row
    assert "drawn for this grading run" in row.exercises[0].message
    other = _row(sandboxed, "told-in-other-words", f"{NB00}.ipynb")  # beside it, a right answer in other words
    assert other.status is Status.GRADED and other.total == other.max == 1, other


@needs_bwrap
def test_the_packages_lint_rule_is_no_answer_to_the_catch_all_fields(sandboxed):
    row = _row(sandboxed, "package-catch-all", f"{SIZE}.ipynb")
    points = {e.grade_id: (e.points, e.max) for e in row.exercises}
    assert points[CATCH_ALL] == (0, 2), [(e.grade_id, e.points, e.message) for e in row.exercises]
    # The other two exercises keep the solution: the same submission is their control.
    assert all(got == most > 0 for gid, (got, most) in points.items() if gid != CATCH_ALL), points


def _graded_in_process(grade_id: str, answer, seed: str) -> bool:
    """The grader's two verdicts without a kernel: the lesson's probes, then inputs drawn for ``seed``."""
    import copy

    from workbook.checks import PASS, evaluate, get_exercise
    from workbook.grade.runner import _judge_drawn, draw_for
    from workbook.plain import to_plain

    exercise = get_exercise(grade_id)
    if evaluate(grade_id, answer).status != PASS:
        return False
    drawn = draw_for(exercise, seed)
    assert len(drawn.drawn) >= 5, "too few drawn inputs to judge"
    results = []
    for args in drawn.drawn:
        try:
            results.append(to_plain(answer(*copy.deepcopy(list(args)))))
        except Exception as error:  # noqa: BLE001 - a raising answer is a wrong answer here
            results.append({"error": repr(error)})
    return _judge_drawn(exercise, drawn, results) is None


def _defined(source: str, name: str):
    space: dict = {}
    exec(textwrap.dedent(source), space)  # noqa: S102 - the tamper answers above, written in this file
    return space[name]


@pytest.mark.parametrize("seed", ["run-a", "run-b", "run-c"])
@pytest.mark.parametrize("how", sorted(TOLD_FROM_EDITION))
def test_an_answer_memorised_from_the_lessons_cases_fails_ex00(how, seed):
    answer = _defined(TOLD_FROM_EDITION[how], "model_is_told")
    from workbook.checks import PASS, evaluate
    assert evaluate("ex00-model-is-told", answer).status == PASS  # the notebook's own check is fooled
    assert not _graded_in_process("ex00-model-is-told", answer, seed)  # the drawn tools are not


@pytest.mark.parametrize("seed", ["run-a", "run-b", "run-c"])
@pytest.mark.parametrize("how", sorted(TOLD_IN_OTHER_WORDS))
def test_a_right_answer_in_other_words_passes_ex00(how, seed):
    assert _graded_in_process("ex00-model-is-told", _defined(TOLD_IN_OTHER_WORDS[how], "model_is_told"), seed)


@pytest.mark.parametrize("seed", ["run-a", "run-b", "run-c"])
@pytest.mark.parametrize("how", sorted(CATCH_ALL_FROM_PACKAGE))
def test_an_answer_built_on_the_packages_lint_rule_fails_ex10(how, seed):
    answer = _defined(CATCH_ALL_FROM_PACKAGE[how], "catch_all_fields")
    assert not _graded_in_process(CATCH_ALL, answer, seed)


@pytest.mark.parametrize("seed", ["run-a", "run-b", "run-c"])
@pytest.mark.parametrize("grade_id, stem, name", [("ex00-model-is-told", NB00, "model_is_told"),
                                                   (CATCH_ALL, SIZE, "catch_all_fields")])
def test_the_solutions_pass_the_same_in_process_grading(grade_id, stem, name, seed):
    source = _cells(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))[grade_id].source
    namespace: dict = {}
    if stem == SIZE:
        from tooldesign.scale import consolidate
        namespace["consolidate"] = consolidate
    exec(source, namespace)  # noqa: S102 - the course's own solution cell
    assert _graded_in_process(grade_id, namespace[name], seed)


@needs_bwrap
def test_a_graded_function_of_the_package_is_a_stub_in_the_kernel(sandboxed):
    row = _row(sandboxed, "reference-package")
    # The stub alone would make it "not done"; the grader sees the package's function in the answer
    # cell first (workbook.grade.borrowed), so it scores 0 with a reason and a note for review.
    assert row.exercises[0].points == 0 and row.exercises[0].verdict.value in ("not_done", "fail")
    assert "the package's longest_breach_minutes" in row.exercises[0].message
    assert "review ex02-longest-breach" in row.reason


@needs_bwrap
@pytest.mark.parametrize("learner", ["link", "fifo"])
def test_links_and_special_files_are_refused_not_followed(sandboxed, learner):
    row = _row(sandboxed, learner)
    assert row.status is Status.REFUSED and row.total == 0 and "not a regular file" in row.reason


@needs_bwrap
def test_a_linked_folder_is_one_refused_row_and_never_walked_into(sandboxed):
    rows = [r for r in sandboxed.report.rows if r.file.startswith("linked-folder")]
    assert [(r.file, r.status) for r in rows] == [("linked-folder", Status.REFUSED)]


@needs_bwrap
@pytest.mark.parametrize("learner", sorted(HOGS))
def test_a_hog_gets_its_status_and_costs_only_its_row(sandboxed, learner):
    row = _row(sandboxed, learner)
    assert row.status is HOGS[learner][1] and row.total == 0 and row.reason, row


@needs_bwrap
def test_a_daemon_cannot_reach_the_journal_or_gradebook_and_is_gone(sandboxed):
    assert _row(sandboxed, "daemon").total == 0
    assert (sandboxed.out / GRADEBOOK).read_bytes() == sandboxed.gradebook
    assert b"daemon,999" not in sandboxed.gradebook
    assert _kernels_under(sandboxed.work) == [], "no process of any kernel outlives its submission"
    assert list(sandboxed.work.iterdir()) == [], "every kernel's work folder is removed"


@needs_bwrap
def test_a_kernel_that_kills_its_parent_costs_only_its_row(sandboxed):
    row = _row(sandboxed, "parent-killer")  # inside the sandbox its parent is the namespace's init
    assert row.total == 0
    assert sandboxed.report.counts()["graded"] >= 2  # the controls, graded in the same run


# ---------- without a sandbox: refused unless told, and then every row says so ----------

def _none(*_: object) -> Sandbox:
    return Sandbox("none", "bubblewrap (bwrap) is not installed, so learner code runs unsandboxed")


def test_without_a_sandbox_the_grader_refuses_unless_told(tmp_path, monkeypatch, capsys):
    import workbook.grade.batch as batch
    save(tmp_path / "in", "ann", solved(NB00), f"{NB00}.ipynb")
    monkeypatch.setattr(batch, "detect", lambda prefer=None: _none() if prefer is not False else detect(False))
    with pytest.raises(NoSandbox, match="--no-sandbox"):
        grade(GradeOptions(tmp_path / "in", tmp_path / "out", progress=False, say=lambda text: None))
    assert not (tmp_path / "out").exists(), "nothing was graded, nothing written"
    assert main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out")]) == 2
    assert "--no-sandbox" in capsys.readouterr().err


@pytest.fixture(scope="module")
def unsandboxed(tmp_path_factory):
    base = tmp_path_factory.mktemp("unsandboxed")
    subs, out, pids = base / "in", base / "out", base / "pids"
    save(subs, "control", solved(NB02))
    save(subs, "daemon", with_answers(NB02, **daemon(out, pids)))
    save(subs, "parent-killer", with_answers(NB02, **PARENT_KILLER))
    save(subs, "late", solved(NB00), f"{NB00}.ipynb")
    work = Path(tempfile.mkdtemp(prefix="wbu", dir="/tmp"))
    old = os.environ.get("WORKBOOK_GRADE_TMP")
    os.environ["WORKBOOK_GRADE_TMP"] = str(work)
    try:
        report = grade(GradeOptions(subs, out, jobs=2, timeout=TIMEOUT, progress=False, sandbox=False, limits=LIMITS,
                       say=lambda text: None))
    finally:
        if old is None:
            os.environ.pop("WORKBOOK_GRADE_TMP")
        else:
            os.environ["WORKBOOK_GRADE_TMP"] = old
    yield SimpleNamespace(report=report, out=out, pids=pids, work=work, gradebook=(out / GRADEBOOK).read_bytes())
    shutil.rmtree(work, ignore_errors=True)


def test_unsandboxed_rows_say_so(unsandboxed):
    rows = list(csv.DictReader(io.StringIO(unsandboxed.gradebook.decode())))
    assert {r["sandbox"] for r in rows} == {"unsandboxed"} and len(rows) == 4
    control = next(r for r in unsandboxed.report.rows if r.learner == "control")
    assert control.total == control.max == 4


def test_unsandboxed_a_double_forked_daemon_dies_with_its_submission(unsandboxed):
    pids = [int(p.name) for p in unsandboxed.pids.iterdir()]
    assert len(pids) == 1, "the daemon started (it wrote its pid before its kernel went on)"
    assert not _alive(pids[0]), "the daemon was killed when its submission was done"
    assert (unsandboxed.out / GRADEBOOK).read_bytes() == unsandboxed.gradebook
    assert _kernels_under(unsandboxed.work) == [] and list(unsandboxed.work.iterdir()) == []


def test_unsandboxed_a_parent_killer_with_two_jobs_ends_no_batch(unsandboxed):
    rows = {r.learner: r for r in unsandboxed.report.rows}
    assert rows["parent-killer"].status is Status.CRASHED and rows["parent-killer"].total == 0
    assert "grading process was killed" in rows["parent-killer"].reason
    assert rows["late"].status is Status.GRADED and rows["late"].total == 1  # graded after, by a fresh worker
    assert (unsandboxed.out / JOURNAL).exists()


def test_unsandboxed_nothing_in_the_journal_is_taken_as_graded(unsandboxed):
    """A kernel without a sandbox could have written into the journal: the next run grades again."""
    again = grade(GradeOptions(unsandboxed.out.parent / "in", unsandboxed.out, jobs=2, timeout=TIMEOUT, progress=False,
                  sandbox=False, limits=LIMITS, say=lambda text: None))
    assert again.graded_now == 4 and again.from_journal == 0
