"""The grader's parts, without a batch: names and layout, reading files, the plan, the extractor,
the journal, the gradebook and feedback, the sandbox. Only the last tests start a kernel or a
sandbox, each once."""
from __future__ import annotations

import builtins
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import workbook.plain
from workbook import REPO_ROOT
from workbook.checks import passed
from workbook.cli import main
from workbook.exercises import Exercise
from workbook.grade import GradeOptions, grade
from workbook.grade.feedback import file_name, render_learner
from workbook.grade.gradebook import note_duplicates, render
from workbook.grade.journal import Journal, entry_key, file_sha
from workbook.grade.kernel import boot_code, read_payload
from workbook.grade.plan import PlanError, build_plan, load_hidden_checks
from workbook.grade.probe import make_extractor
from workbook.grade.results import ExerciseResult, Row, Status, GradeVerdict
from workbook.grade.runner import merge_step
from workbook.grade.sandbox import bwrap_args, detect, kernel_env, prepare, python_roots
from workbook.grade.submissions import (LearnerCells, NotANotebook, Submission, discover, notebook_from_name,
                                        read_answers)
from workbook.plain import NotPlainData, to_plain

KNOWN = ["00_start_here", "01_sap_orders_data", "02_coldchain_data"]


# ---------- names and layout ----------

@pytest.mark.parametrize("stem, notebook, prefix", [
    ("02_coldchain_data", "02_coldchain_data", ""),
    ("02_coldchain_data (1)", "02_coldchain_data", ""),
    ("alice_02_coldchain_data", "02_coldchain_data", "alice_"),
    ("Copy of 01_SAP_orders_data", "01_sap_orders_data", "Copy of "),
    ("bob-02", "02_coldchain_data", "bob-"),
    ("lab2024_00", "00_start_here", "lab2024_"),
    ("homework", None, "homework"),
    ("alice_07", None, "alice_07"),
])
def test_the_notebook_is_named_by_the_file(stem, notebook, prefix):
    assert notebook_from_name(stem, KNOWN) == (notebook, prefix)


def test_discover_reads_learners_from_folders_and_flat_names(tmp_path):
    for name in ("alice/02_coldchain_data.ipynb", "alice/notes.txt", "bob/lab/00_start_here.ipynb",
                 "carol_01_sap_orders_data.ipynb", "class-list.csv", ".hidden/x.ipynb",
                 "alice/.ipynb_checkpoints/02_coldchain_data-checkpoint.ipynb", "out/gradebook.csv"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    found = discover(tmp_path, KNOWN, tmp_path / "out")
    assert [(s.file, s.learner, s.notebook) for s in found] == [
        ("alice/02_coldchain_data.ipynb", "alice", "02_coldchain_data"),
        ("alice/notes.txt", "alice", None),
        ("bob/lab/00_start_here.ipynb", "bob", "00_start_here"),
        ("carol_01_sap_orders_data.ipynb", "carol", "01_sap_orders_data"),
    ]
    one = discover(tmp_path / "alice" / "02_coldchain_data.ipynb", KNOWN)
    assert [(s.file, s.learner) for s in one] == [("02_coldchain_data.ipynb", "alice")]


# ---------- reading a submission ----------

def _notebook(cells: list, nbformat: int = 4) -> str:
    return json.dumps({"nbformat": nbformat, "nbformat_minor": 5, "metadata": {}, "cells": cells})


def _cell(source, grade_id=None, kind="code"):
    meta = {"nbgrader": {"grade_id": grade_id, "solution": True, "grade": False}} if grade_id else {}
    return {"cell_type": kind, "metadata": meta, "source": source, "outputs": [], "execution_count": None}


def test_only_cells_with_a_grade_id_are_read(tmp_path):
    path = tmp_path / "x.ipynb"
    path.write_text(_notebook([_cell("print('hi')"), _cell(["a = ", "1"], "ex-a"), _cell("a = 2", "ex-a"),
                               _cell("text", "ex-m", "markdown"), "not a cell", {"metadata": {"nbgrader": 3}}]))
    assert read_answers(path).cells == {"ex-a": [("code", "a = 1"), ("code", "a = 2")],
                                        "ex-m": [("markdown", "text")]}


@pytest.mark.parametrize("content, fragment", [
    (b"def f(): pass\n", "not notebook JSON"),
    (b"\xff\xfe\x00garbage", "not notebook JSON"),
    (b'{"cells": "none"}', "no list of cells"),
    (b"[1, 2]", "no list of cells"),
    (_notebook([], nbformat=3).encode(), "format 3"),
])
def test_a_file_that_is_not_a_notebook_says_why(tmp_path, content, fragment):
    path = tmp_path / "02_coldchain_data.ipynb"
    path.write_bytes(content)
    with pytest.raises(NotANotebook, match=fragment):
        read_answers(path)


def test_other_files_and_huge_files_are_refused(tmp_path, monkeypatch):
    (tmp_path / "a.pdf").write_bytes(b"%PDF")
    with pytest.raises(NotANotebook, match="not a notebook"):
        read_answers(tmp_path / "a.pdf")
    monkeypatch.setattr("workbook.grade.submissions.MAX_BYTES", 10)
    (tmp_path / "b.ipynb").write_text(_notebook([]))
    with pytest.raises(NotANotebook, match="too big"):
        read_answers(tmp_path / "b.ipynb")


# ---------- the plan ----------

def test_plans_take_answers_checks_and_points_from_the_nbgrader_metadata():
    for notebook in KNOWN:
        plan = build_plan(notebook)
        assert plan.problems == ()
        for slot in plan.slots:
            answer, check = plan.cells[slot.answer_cell], plan.cells[slot.extract_at]
            assert answer.role == "answer" and answer.grade_id == slot.grade_id
            assert check.role == "check" and check.grade_id == f"{slot.grade_id}-check"
            assert slot.points == slot.exercise.points
            assert "### BEGIN SOLUTION" not in answer.source  # the released form, never the solution
    assert build_plan("02_coldchain_data").max_points == 4


def _judge_any(plain):
    return passed("ok")


def test_hidden_checks_join_the_plan():
    hidden_checks = (Exercise("ex02-breach-hidden", "02_coldchain_data", "longest_breach_minutes", 3, _judge_any,
                              kind="function", probes=(([1.0], 0.0, 30),)),
                     Exercise("ex02-claims", "02_coldchain_data", "claims", 9, _judge_any),
                     Exercise("ex02-orphan", "02_coldchain_data", "nothing_defines_this", 1, _judge_any),
                     Exercise("ex01-elsewhere", "01_sap_orders_data", "x", 1, _judge_any))
    plan = build_plan("02_coldchain_data", hidden_checks)
    slots = {s.grade_id: s for s in plan.slots}
    assert [s.grade_id for s in plan.slots] == ["ex02-longest-breach", "ex02-breach-hidden", "ex02-claims",
                                                 "ex02-orphan"]
    assert slots["ex02-breach-hidden"].extract_at == slots["ex02-longest-breach"].extract_at
    assert slots["ex02-breach-hidden"].hidden and slots["ex02-breach-hidden"].points == 3
    assert slots["ex02-claims"].hidden and slots["ex02-claims"].points == 2  # replaced judge, same points
    assert slots["ex02-orphan"].extract_at == len(plan.cells)


def test_a_bad_hidden_checks_file_is_refused_before_grading(tmp_path):
    with pytest.raises(PlanError, match="no such file"):
        load_hidden_checks(tmp_path / "missing.py")
    bad = tmp_path / "bad.py"
    for body, fragment in (("x = 1", "must define EXERCISES"), ("raise ValueError('no')", "does not load"),
                           ("from workbook.exercises import Exercise\n"
                            "EXERCISES = [Exercise('a', '00_start_here', 'f', 1, print, kind='function', "
                            "probes=((object(),),))]", "plain literals")):
        bad.write_text(body)
        with pytest.raises(PlanError, match=fragment):
            load_hidden_checks(bad)


def test_missing_duplicated_and_retyped_answer_cells():
    plan = build_plan("01_sap_orders_data")
    learner = LearnerCells({"ex01-blocked-orders": [("code", "a = 1"), ("code", "a = 1")]})
    merged = merge_step(plan, learner)
    sources, void = merged.sources, merged.void
    assert sources[plan.answer_cells["ex01-blocked-orders"]] == "a = 1" and "ex01-blocked-orders" not in void
    assert "no cell with grade_id ex01-credit-exposure" in void["ex01-credit-exposure"]
    assert [(p.status, p.reason) for p in merged.problems] == [
        (Status.MISSING_ANSWERS, "no answer cell for ex01-credit-exposure")]

    learner = LearnerCells({"ex01-blocked-orders": [("code", "a = 1"), ("code", "a = 2")],
                            "ex01-credit-exposure": [("markdown", "def credit_exposure(c, o): ...")]})
    merged = merge_step(plan, learner)
    sources, void = merged.sources, merged.void
    assert sources[plan.answer_cells["ex01-blocked-orders"]] == "a = 2"  # the last copy runs, scores nothing
    assert "2 different cells" in void["ex01-blocked-orders"]
    assert "turned into a markdown cell" in void["ex01-credit-exposure"]
    assert {p.status for p in merged.problems} == {Status.MISSING_ANSWERS, Status.DUPLICATE_ANSWERS}


def test_review_notes_name_only_what_the_released_cell_did_not_have():
    plan = build_plan("00_start_here")
    released = plan.cells[plan.answer_cells["ex00-model-is-told"]].source
    assert "workbook" in released  # the released cell imports check itself
    merged = merge_step(plan, LearnerCells({"ex00-model-is-told": [("code", released + "\nimport builtins\n")]}))
    assert merged.review == ("review ex00-model-is-told: its answer uses builtins",)


# ---------- the extractor, and what comes back: a claim of a value ----------

def _extract(namespace, name, kind="value", probes=()):
    extractor = make_extractor(namespace, to_plain, NotPlainData, 10_000)
    return read_payload(repr(extractor(name, kind, probes)))


class _Meta(type):
    def __eq__(cls, other):
        return True

    def __hash__(cls):
        return hash(list)


class _Liar(metaclass=_Meta):
    def __repr__(self):
        return "['4711', '4723', '4725']"


class _AlwaysEqual:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


def test_plain_answers_come_out_as_exact_types():
    got = _extract({"a": {"x": [1, 2.5, True, None, "s", (3, np.int64(4))], 7: np.float64(0.5)}}, "a")
    assert got.status == "ok" and got.data == {"x": [1, 2.5, True, None, "s", [3, 4]], "7": 0.5}
    assert type(got.data["x"][4]) is str and type(got.data["7"]) is float


def test_nothing_that_only_claims_equality_comes_out():
    with pytest.raises(workbook.plain.NotPlainData):  # neither the plain-data rules let it through...
        workbook.plain.to_plain(_Liar())
    got = _extract({"a": _Liar()}, "a")  # ...nor the extractor
    assert got.status == "not_plain" and "_Liar" in got.message
    assert _extract({"a": [_AlwaysEqual()]}, "a").status == "not_plain"
    assert _extract({"a": float("nan")}, "a").status == "not_plain"
    assert "sorted list" in _extract({"a": {1, 2}}, "a").message


def test_stubs_missing_names_and_oversized_answers():
    assert _extract({"a": ...}, "a").status == "not_done"
    assert _extract({}, "a").status == "missing"
    assert _extract({"a": "x" * 20_000}, "a").status == "too_big"
    loop = []
    loop.append(loop)
    got = _extract({"a": loop}, "a")  # a list inside itself: a reason, not a crash
    # to_plain refuses the cycle by its depth bound (not_plain); older copies hit RecursionError (error)
    assert (got.status, got.message.startswith("RecursionError") or "nested more than" in got.message) in (
        ("error", True), ("not_plain", True))


def test_functions_are_called_on_fresh_copies_of_the_probes():
    def f(items):
        items.append(1)  # changing the input must not change the next probe
        if len(items) > 2:
            raise ValueError("too long")
        return len(items)

    got = _extract({"f": f}, "f", "function", (([],), ([5],), ([5, 6],)))
    assert got.data == [1, 2, {"error": "ValueError: too long"}]
    assert _extract({"f": lambda: _AlwaysEqual()}, "f", "function", ((),)).data[0]["error"].startswith("NotPlainData")
    assert _extract({"f": 3}, "f", "function", ((),)).status == "not_plain"

    def stub(text):
        raise NotImplementedError()

    assert _extract({"f": stub}, "f", "function", (("a",),)).status == "not_done"


def test_what_comes_back_is_parsed_as_a_literal_and_nothing_else():
    extractor = make_extractor({"a": [1]}, to_plain, NotPlainData, 10_000)
    text = extractor("a", "value", ())
    assert read_payload(repr(text)).data == [1] and read_payload(text).data == [1]
    # A forged text is only ever a claim of a plain value, judged like any other answer.
    assert read_payload(repr("{'status': 'ok', 'data': [2]}")).data == [2]
    for junk in (None, 5, "not a literal", repr(["a list"]), "'" + "x" * 10 + "'", "__import__('os').system('x')",
                 repr("{'status': 'ok', 'data': __import__('os')}")):
        assert read_payload(junk).status == "unreadable"


def test_the_booted_extractor_ignores_later_patches(monkeypatch):
    namespace: dict = {}
    exec(boot_code("_grade_x"), namespace)
    namespace["answer"] = ["4711"]
    monkeypatch.setattr(builtins, "ascii", lambda value: "['4711', '4723', '4725']")
    monkeypatch.setattr(workbook.plain, "to_plain", lambda value, where="": ["4711", "4723", "4725"])
    monkeypatch.setattr(hashlib, "sha256", lambda data=b"": hashlib.new("md5", data))
    monkeypatch.setattr(json, "dumps", lambda *a, **k: "[]")
    text = namespace["_grade_x"]("answer", "value", ())
    monkeypatch.undo()
    assert read_payload(repr(text)).data == ["4711"]
    assert "_workbook_grade_boot" not in namespace


# ---------- journal, gradebook, feedback ----------

def _row(learner, notebook, file, points, status="graded", reason="", hidden=False):
    exercises = tuple(ExerciseResult(gid, p, 1, GradeVerdict.PASS if p else GradeVerdict.FAIL, "hint",
                                     hidden and gid.endswith("hidden"), "do it") for gid, p in points)
    return Row(learner, notebook, file, Status(status), reason, sum(p for _, p in points), len(points), exercises)


def test_the_journal_keeps_one_entry_per_key_and_retries_grader_errors(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    key = entry_key("a/x.ipynb", "sha", "ctx")
    assert entry_key("a/x.ipynb", "sha2", "ctx") != key != entry_key("a/x.ipynb", "sha", "ctx2")
    journal.record(key, _row("a", "00", "a/x.ipynb", [], status="grader-error"))
    assert not journal.done(key) and journal.get(key).status is Status.GRADER_ERROR
    journal.record(key, _row("a", "00", "a/x.ipynb", [("e1", 1)]))
    journal.close()
    again = Journal(tmp_path / "j.sqlite")
    assert again.done(key) and again.count() == 1 and again.get(key).total == 1
    assert again.get(key) == _row("a", "00", "a/x.ipynb", [("e1", 1)])  # typed on the way back, equal


def test_the_gradebook_has_a_column_per_exercise_and_blank_cells_elsewhere():
    rows = [_row("b", "01_x", "b/01_x.ipynb", [("ex01-a", 1)]),
            _row("a", "02_y", "a/02_y.ipynb", [("ex02-a", 0), ("ex02-a-hidden", 1)], reason="r, with comma"),
            _row("a", "01_x", "a/01_x.ipynb", [("ex01-a", 0)])]
    assert render(rows) == ("learner,notebook,ex01-a,ex02-a,ex02-a-hidden,total,max,pending,status,reason,file,sandbox\n"
                            "a,01_x,0,,,0,1,0,graded,,a/01_x.ipynb,bwrap\n"
                            'a,02_y,,0,1,1,2,0,graded,"r, with comma",a/02_y.ipynb,bwrap\n'
                            "b,01_x,1,,,1,1,0,graded,,b/01_x.ipynb,bwrap\n")


def test_two_files_for_one_notebook_are_both_kept_and_named():
    rows = note_duplicates([_row("a", "01_x", "a/01_x.ipynb", []), _row("a", "01_x", "a/01_x (1).ipynb", [])])
    assert rows[0].reason == "the same learner submitted this notebook again as a/01_x (1).ipynb"


def test_feedback_shows_hints_but_not_hidden_ones_or_review_notes():
    row = _row("a", "01_x", "a/01_x.ipynb", [("ex01-a", 0), ("ex01-a-hidden", 0)], hidden=True,
               status="timeout", reason="a cell ran too long; review ex01-a: its answer uses builtins")
    text = render_learner("a", [row])
    assert "- ✘ **ex01-a**: 0 of 1\n  - asked: do it\n  - hint: hint" in text
    assert "**ex01-a-hidden**: 0 of 1 (a check your instructor keeps private: not passed)" in text
    assert "Why: a cell ran too long." in text and "review" not in text
    # A name that is not plain lowercase ASCII keeps a readable part and a digest of the exact id.
    assert file_name("Ana María/../x").startswith("Ana_Maria_.._x~") and file_name("...").startswith("learner~")


def test_a_hand_graded_answer_is_quoted_for_the_instructor():
    row = Row("a", "06_x", "a/06_x.ipynb", Status.GRADED, "to grade by hand: ex06-note (its text is in the feedback "
              "file)", 0, 3, (ExerciseResult("ex06-note", 0, 3, GradeVerdict.MANUAL, "Two tools.\nBecause."),))
    text = render_learner("a", [row])
    assert "- ✎ **ex06-note**: 3 points pending your instructor's grade; you wrote:\n  > Two tools.\n  > Because." in text
    assert "to grade by hand" not in text and "0 of 3 points, 3 pending a person's grade" in text
    assert render([row]).splitlines()[1].startswith("a,06_x,pending,0,3,3,graded,to grade by hand: ex06-note")


# ---------- sandbox, command line, and one real kernel without the sandbox ----------

def test_the_kernel_environment_keeps_no_secrets(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    env = kernel_env(tmp_path)
    assert "OPENAI_API_KEY" not in env and "AWS_SECRET_ACCESS_KEY" not in env
    assert env["HOME"] == str(tmp_path / "home") and env["PYTHONNOUSERSITE"] == "1"


def test_the_course_copy_holds_only_what_a_notebook_needs(tmp_path):
    cwd = prepare(tmp_path)
    course = tmp_path / "course"
    assert cwd == course / "notebooks"
    assert sorted(p.name for p in course.iterdir()) == ["data", "notebooks", "requirements.txt", "src"]
    assert sorted(p.name for p in (course / "src").iterdir()) == ["tooldesign", "workbook"]
    assert not (course / "src" / "workbook" / "grade").exists()
    # The student edition: no registry of references, no answer keys in the lesson modules.
    assert not (course / "src" / "workbook" / "exercises" / "references.py").exists()
    lesson02 = (course / "src" / "workbook" / "exercises" / "lesson02.py").read_text()
    assert "CLAIMS" not in lesson02 and "720" not in lesson02 and "BREACH_EXPECTED" not in lesson02
    # The grading kernel's edition has not even the digests: its check cells never run.
    namespace: dict = {}
    exec(compile((course / "src" / "workbook" / "exercises" / "lesson10.py").read_text(), "lesson10", "exec"), namespace)
    assert all(spec["answers"] == [] and spec["examples"] == [] for spec in namespace["SPECS"])


def test_bubblewrap_binds_no_repository_and_no_home(tmp_path):
    args = bwrap_args(tmp_path)
    binds = {args[i + 1] for i, a in enumerate(args) if a in ("--bind", "--ro-bind")}
    assert {"--unshare-all", "--die-with-parent"} <= set(args)
    assert str(tmp_path) in binds and "/usr" in binds
    repo = os.path.realpath(REPO_ROOT)
    assert all(not b.startswith(repo) or b.startswith(os.path.realpath(sys.prefix)) for b in binds)
    assert all(b != os.path.expanduser("~") and b not in ("/", "/home", "/root") for b in binds)


def test_turning_the_sandbox_off_says_so_plainly():
    box = detect(False)
    assert not box.isolated and "unsandboxed" in box.note


SANDBOX_PROBE = r"""
import os, socket
from pathlib import Path
found = {}
for name, path in (("solutions", SOLUTIONS), ("repo", REPO)):
    found[name] = os.path.exists(path)
found["home"] = sorted(os.listdir(HOME)) if os.path.isdir(HOME) else []
try:
    socket.create_connection(("127.0.0.1", 22), timeout=2)
    found["network"] = True
except OSError:
    found["network"] = False
try:
    Path("/usr/wbgrade-test").write_text("x")
    found["system_writable"] = True
except OSError:
    found["system_writable"] = False
Path("../data/written").write_text("ok")
found["data_writable"] = True
print(found)
"""


def test_inside_bubblewrap_nothing_of_the_course_or_home_is_visible(tmp_path):
    if not detect().isolated:
        pytest.skip("bubblewrap is not installed (or cannot run) here; the grader runs unsandboxed")
    prepare(tmp_path)
    home = os.path.realpath(os.path.expanduser("~"))
    # Only the folders that lead to the Python installation may show in the home folder (pyenv lives there).
    needed = sorted({Path(root).relative_to(home).parts[0] for root in python_roots()
                     if Path(root).is_relative_to(home)})
    code = (f"SOLUTIONS = {str(REPO_ROOT / 'solutions')!r}\nREPO = {str(REPO_ROOT / '.git')!r}\n"
            f"HOME = {home!r}\n" + SANDBOX_PROBE)
    done = subprocess.run(bwrap_args(tmp_path) + [sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=kernel_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str({"solutions": False, "repo": False, "home": needed, "network": False,
                                       "system_writable": False, "data_writable": True})
    assert (tmp_path / "course" / "data" / "written").read_text() == "ok"  # the copy, not the course's data/


def test_the_command_writes_a_gradebook_and_feedback(tmp_path, capsys):
    (tmp_path / "in" / "dana").mkdir(parents=True)
    (tmp_path / "in" / "dana" / "02_coldchain_data.ipynb").write_text("not json")
    command = ["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out")] + _sandbox_flag()
    assert main(command) == 0
    printed = capsys.readouterr()
    assert "1 file: 1 graded now, 0 from the journal" in printed.out
    assert "statuses: not-a-notebook 1" in printed.out
    assert ("learner code runs in bubblewrap" if detect().isolated else "runs unsandboxed") in printed.err
    assert (tmp_path / "out" / "gradebook.csv").read_text().splitlines()[1].startswith(
        "dana,02_coldchain_data,0,0,0,4,0,not-a-notebook,")
    assert (tmp_path / "out" / "feedback" / "dana.md").exists()
    # The same file again: nothing to grade where the journal is trusted (sandboxed); unsandboxed, learner
    # code could have written the journal, so the file is graded again. A changed file: graded again.
    assert main(command) == 0
    again = "0 graded now, 1 from the journal" if detect().isolated else "1 graded now, 0 from the journal"
    assert again in capsys.readouterr().out
    (tmp_path / "in" / "dana" / "02_coldchain_data.ipynb").write_text("still not json")
    assert main(command) == 0
    assert "1 graded now, 0 from the journal" in capsys.readouterr().out


@pytest.mark.parametrize("statuses, code", [
    (["graded", "not-a-notebook", "timeout"], 0),  # learners' faults: the run is finished
    (["graded", "grader-error"], 3),
    (["grader-error", "grader-error"], 3),
])
def test_grade_exits_non_zero_only_when_a_file_hit_the_graders_own_fault(tmp_path, monkeypatch, capsys, statuses, code):
    """A script grading a class reads the exit status: a grader error means the run is not finished."""
    import workbook.grade
    from workbook.grade.batch import Report
    from workbook.grade.sandbox import detect

    def fake_grade(options):
        rows = [_row(f"l{i}", "02_coldchain_data", f"l{i}/02.ipynb", [], status=s) for i, s in enumerate(statuses)]
        return Report(rows, len(rows), 0, detect(), gradebook=options.out / "gradebook.csv")

    monkeypatch.setattr(workbook.grade, "grade", fake_grade)
    (tmp_path / "in").mkdir()
    assert main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--no-sandbox"]) == code
    err = capsys.readouterr().err
    faults = statuses.count("grader-error")
    if faults:
        assert f"{faults} file{'s' if faults > 1 else ''} hit a grader error" in err and "run the same command again" in err
    else:
        assert "grader error" not in err


@pytest.mark.parametrize("problem", ["database is locked", "database or disk is full", "file is not a database"])
def test_a_journal_that_fails_mid_run_keeps_the_rows_of_earlier_runs(tmp_path, monkeypatch, capsys, problem):
    """A resumed run takes earlier rows from the journal; setting the journal aside must not drop them."""
    import sqlite3

    if not detect().isolated:
        pytest.skip("unsandboxed, a resumed run takes nothing from the journal, so there are no earlier rows")
    inbox, out = tmp_path / "in", tmp_path / "out"
    for learner in ("ana", "ben"):
        (inbox / learner).mkdir(parents=True)
    (inbox / "ana" / "02_coldchain_data.ipynb").write_text("not json")
    command = ["grade", str(inbox), "--out", str(out)]
    assert main(command) == 0
    (inbox / "ben" / "02_coldchain_data.ipynb").write_text("not json either")
    (inbox / "cy").mkdir()
    (inbox / "cy" / "03_mirrored_tools.ipynb").write_text("nor this")
    real, failed = Journal.record, []

    def fails_once(self, key, row):
        if not failed:
            failed.append(row.learner)
            raise (sqlite3.DatabaseError if "not a database" in problem else sqlite3.OperationalError)(problem)
        return real(self, key, row)
    monkeypatch.setattr(Journal, "record", fails_once)
    capsys.readouterr()
    assert main(command) == 0
    printed = capsys.readouterr()
    assert failed and "2 graded now, 1 from the journal" in printed.out
    assert f"could not be written while grading ({problem}; kept as journal.sqlite.damaged-" in printed.err
    learners = [line.split(",")[0] for line in (out / "gradebook.csv").read_text().splitlines()[1:]]
    assert sorted(learners) == ["ana", "ben", "cy"], learners
    monkeypatch.undo()
    capsys.readouterr()
    assert main(command) == 0  # the fresh journal holds every row, the earlier run's included
    assert "0 graded now, 3 from the journal" in capsys.readouterr().out


def test_the_command_refuses_what_it_cannot_use(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "in").mkdir()
    assert main(["grade", str(tmp_path / "in"), "--hidden-checks", str(tmp_path / "no.py")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_without_the_sandbox_a_real_submission_grades_the_same(tmp_path):
    if not detect().isolated:
        pytest.skip("without bubblewrap the whole test class already runs unsandboxed")
    (tmp_path / "in" / "eve").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "tests" / "submissions" / "class" / "correct" / "00_start_here.ipynb",
                tmp_path / "in" / "eve")
    report = grade(GradeOptions(tmp_path / "in", tmp_path / "out", sandbox=False, progress=False, timeout=60, say=lambda t: None))
    assert report.sandbox.kind == "none"
    assert [(r.status, r.total, r.notes, r.sandbox) for r in report.rows] == [
        (Status.GRADED, 1, (), "unsandboxed")]


def test_ctrl_c_stops_the_workers_and_their_kernels(tmp_path):
    """A real Ctrl-C (SIGINT to the whole process group) with two workers: exit 130, nothing left running."""
    if os.name != "posix":
        pytest.skip("process groups and SIGINT as on Linux and macOS")
    import signal
    import time
    notebook = json.loads((REPO_ROOT / "notebooks" / "00_start_here.ipynb").read_text())
    for cell in notebook["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == "ex00-model-is-told":
            cell["source"] = "import time\ntime.sleep(120)"
    for learner in ("ann", "ben"):
        (tmp_path / "in" / learner).mkdir(parents=True)
        (tmp_path / "in" / learner / "00_start_here.ipynb").write_text(json.dumps(notebook))
    work = Path(tempfile.mkdtemp(prefix="wbg", dir="/tmp"))  # short: kernel sockets live in it
    child = subprocess.Popen([sys.executable, "-m", "workbook", "grade", str(tmp_path / "in"), "--out",
                              str(tmp_path / "out"), "--jobs", "2", *_sandbox_flag()], start_new_session=True,
                             env={**os.environ, "WORKBOOK_GRADE_TMP": str(work)},
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300  # only a hang reaches it
    while time.monotonic() < deadline and len(list(work.glob("wbgrade-*"))) < 2:
        time.sleep(0.2)  # both workers have a kernel folder: they are busy
    time.sleep(1)
    busy = set(work.glob("wbgrade-*"))
    os.killpg(child.pid, signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130 and "run the same command again" in err
    assert len(busy) == 2 and not any(folder.exists() for folder in busy), "each worker removed its folder"
    time.sleep(0.5)
    running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert not any(str(folder) in running for folder in busy), "no kernel outlives the run"
    work.rmdir()


def test_an_unreadable_file_is_a_row_not_a_crash(tmp_path, monkeypatch):
    path = tmp_path / "00_start_here.ipynb"
    path.write_text("{}")

    def refuse(path):
        raise PermissionError(13, "Permission denied")

    import workbook.grade.submissions as submissions_module
    monkeypatch.setattr(submissions_module, "_read_regular", refuse)
    with pytest.raises(NotANotebook, match=r"cannot be read \(Permission denied\)"):
        read_answers(path)
    assert file_sha(tmp_path).startswith("not-regular:")  # a folder is never opened as a file
    assert file_sha(tmp_path / "nothing").startswith("unreadable:")


def test_the_command_checks_its_numbers(tmp_path, capsys):
    assert main(["grade", str(tmp_path), "--jobs", "0"]) == 2
    assert main(["grade", str(tmp_path), "--timeout", "0"]) == 2
    assert "--jobs needs 1 or more" in capsys.readouterr().err


def test_one_kernel_through_errors_a_stopped_loop_an_enormous_print_and_a_debugpy_import():
    from workbook.grade.kernel import KernelSession, work_folder
    folder = work_folder()
    # Generous limits that only a hang reaches: the loop is the one cell meant to run out of time,
    # and an interrupted loop gets GRACE (30 s) to stop before it would count as stuck.
    with KernelSession(folder, detect(), timeout=300) as session:
        assert session.run_cell("1 / 0", "cell 1").error == "ZeroDivisionError: division by zero"
        session.timeout = 2
        assert session.run_cell("while True:\n    pass", "cell 2").status == "timeout"
        session.timeout = 300
        assert session.run_cell("print('x' * 80_000_000)", "cell 3").status == "ok"
        assert session.run_cell("answer = {'k': [1.5, None]}", "cell 4").status == "ok"
        assert session.extract("answer", "value", ()).data == {"k": [1.5, None]}
        # The kernel started without its debugger (no import of debugpy), yet the learner may import it.
        assert session.run_cell("import sys\nunloaded = 'debugpy' not in sys.modules\nimport debugpy", "cell 5").status == "ok"
        assert session.extract("unloaded", "value", ()).data is True
        assert session.oversized == {"cell 3"} and session.deaf  # too big to receive, yet noticed
        assert session.extract("nothing", "value", ()).status == "missing"
    assert not folder.exists()


def test_a_file_named_after_nothing_is_recognised_by_its_exercise_cells(tmp_path):
    (tmp_path / "in" / "gus").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "notebooks" / "00_start_here.ipynb", tmp_path / "in" / "gus" / "homework.ipynb")
    (tmp_path / "in" / "gus" / "scratch.ipynb").write_text(_notebook([_cell("x = 1")]))
    report = grade(GradeOptions(tmp_path / "in", tmp_path / "out", progress=False, timeout=60, say=lambda t: None,
                   sandbox=None if detect().isolated else False))
    rows = {r.file: r for r in report.rows}
    recognised = rows["gus/homework.ipynb"]
    assert (recognised.notebook, recognised.status, recognised.total, recognised.max) == \
        ("00_start_here", Status.GRADED, 0, 1)
    assert "recognised as 00_start_here by its exercise cells" in recognised.notes[0]
    unknown = rows["gus/scratch.ipynb"]
    assert (unknown.notebook, unknown.status) == ("", Status.WRONG_NOTEBOOK)
    assert "cannot tell which notebook this is" in unknown.reason


def _sandbox_flag() -> list[str]:
    """Where bubblewrap cannot run, the grader refuses unless told; the tests then say so on purpose."""
    return [] if detect().isolated else ["--no-sandbox"]


def test_the_plan_cache_knows_the_hidden_checks_file():
    """A plan holds the hidden checks, so it is cached per (notebook, hidden-checks file)."""
    from workbook.grade.runner import Settings, plan_for
    hidden_checks = str(REPO_ROOT / "tests" / "submissions" / "hidden_checks.py")
    with_hidden = plan_for("01_sap_orders_data", Settings(timeout=1, sandbox=detect(False), hidden_checks=hidden_checks))
    without = plan_for("01_sap_orders_data", Settings(timeout=1, sandbox=detect(False)))
    assert "ex01-credit-exposure-hidden" in {s.grade_id for s in with_hidden.slots}
    assert "ex01-credit-exposure-hidden" not in {s.grade_id for s in without.slots}


def test_every_step_of_the_pipeline_is_named_and_typed():
    from workbook.grade import runner
    assert runner.STEPS == ("read", "identify", "plan", "merge", "draw", "run", "judge")
    for step in runner.STEPS:
        assert callable(getattr(runner, f"{step}_step"))
    row = _row("a", "01_x", "a/01_x.ipynb", [("ex01-a", 1)])
    assert Row.from_dict(json.loads(json.dumps(row.to_dict()))) == row
    with pytest.raises(Exception):
        row.total = 5  # frozen: a row is a value, not a record to mutate


def test_the_command_passes_its_quotas_and_the_sandbox_choice(tmp_path, monkeypatch):
    import workbook.grade as grade_package
    seen = {}

    def fake_grade(options):
        seen.update(vars(options))
        raise FileNotFoundError("stop here")

    monkeypatch.setattr(grade_package, "grade", fake_grade)
    assert main(["grade", str(tmp_path), "--memory", "512", "--disk", "64", "--no-sandbox"]) == 2
    assert seen["limits"].memory == 512 << 20 and seen["limits"].disk == 64 << 20 and seen["sandbox"] is False
    assert main(["grade", str(tmp_path)]) == 2 and seen["sandbox"] is None  # None: bubblewrap, or refuse
