"""Messy and hostile submissions, without a kernel: what a notebook leaves in its folder (removed whatever
it is), exports uploaded beside the notebook, zips, copies, older notebook formats, names outside
ASCII as Canvas and Moodle write them, swapped grade_ids, repeated export targets, the formula guard
and the Gradescope maximum. The batch runs that prove the same end to end are in
test_grade_messy_batch.py."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import unicodedata
import zipfile
from pathlib import Path

import nbformat
import pytest

from workbook import SOLUTIONS_DIR
from workbook.grade.cleanup import remove_tree
from workbook.grade.classbook import Roster, RosterEntry
from workbook.grade.plan import build_plan, known_notebooks
from workbook.grade.submissions import (
    LearnerCells,
    NotANotebook,
    current_format,
    discover,
    keep_latest,
    read_answers,
)
from workbook.release import learner_copy, read_notebook

KNOWN = known_notebooks()
NB = "00_start_here"


# ---------- 1. the work folder goes, whatever the notebook left in it ----------


def _deep(root: Path, depth: int) -> None:
    """``depth`` nested folders, made relative to each other (the path is far longer than PATH_MAX)."""
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
        with open(os.open("leaf", os.O_WRONLY | os.O_CREAT, dir_fd=fd), "w") as handle:
            handle.write("x")
    finally:
        os.close(fd)


@pytest.mark.parametrize("depth", [1, 1200, 5000])
def test_a_deep_folder_tree_is_removed_without_recursion(tmp_path, depth):
    work = tmp_path / "work"
    work.mkdir()
    _deep(work, depth)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # far below the depth: recursion would fail here
    try:
        assert remove_tree(work) is None
    finally:
        sys.setrecursionlimit(limit)
    assert not work.exists()


def test_links_are_removed_never_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("the instructor's")
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "to-outside").symlink_to(outside)
    (work / "loop").symlink_to("loop")  # a link to itself
    (work / "sub" / "up").symlink_to("..")  # a loop through a folder
    (work / "dangling").symlink_to("/nonexistent/at/all")
    assert remove_tree(work) is None
    assert not work.exists() and (outside / "keep.txt").read_text() == "the instructor's"


def test_names_that_are_not_utf8_and_special_files_are_removed(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    base = os.fsencode(work)
    os.mkdir(os.path.join(base, b"bad\xff\xfe"))
    with open(os.path.join(base, b"bad\xff\xfe", b"\x80\x81.txt"), "wb") as handle:
        handle.write(b"x")
    os.mkfifo(work / "fifo")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(work / "s"))
    assert remove_tree(work) is None and not work.exists()


def test_a_missing_folder_or_a_plain_file_is_fine(tmp_path):
    assert remove_tree(tmp_path / "never-made") is None
    (tmp_path / "f").write_text("x")
    assert remove_tree(tmp_path / "f") is None and not (tmp_path / "f").exists()


NOT_ROOT = """
import os, sys
sys.path[:0] = {paths!r}
from workbook.grade.cleanup import remove_tree  # imported first: the interpreter may live where nobody reads
os.setgid(65534); os.setuid(65534)
root = sys.argv[1]
os.makedirs(root + "/a/b/c"); open(root + "/a/b/c/f", "w").write("x")
os.chmod(root + "/a/b/c", 0); os.chmod(root + "/a/b", 0o100); os.chmod(root + "/a", 0o400)
os.makedirs(root + "/r/s"); open(root + "/r/s/f", "w").write("x"); os.chmod(root + "/r/s", 0o500)
os.makedirs(root + "/zero"); os.chmod(root + "/zero", 0)
print(remove_tree(root), os.path.exists(root))
"""


def test_folders_without_rights_are_removed_as_their_owner(tmp_path):
    """Permission bits stop only a user who is not root: run as nobody when the tests run as root."""
    import tempfile

    if os.geteuid() == 0:
        base = Path(tempfile.mkdtemp(dir="/tmp"))
        os.chmod(base, 0o777)
        root = str(base / "w")
        code = NOT_ROOT.format(paths=[p for p in sys.path if p])
        done = subprocess.run([sys.executable, "-c", code, root], capture_output=True, text=True, timeout=120)
        remove_tree(base)
        assert done.stdout.split() == ["None", "False"], done.stderr[-2000:]
        return
    work = tmp_path / "w"
    (work / "a" / "b").mkdir(parents=True)
    (work / "a" / "b" / "f").write_text("x")
    os.chmod(work / "a" / "b", 0)
    os.chmod(work / "a", 0o500)
    assert remove_tree(work) is None and not work.exists()


def test_grade_one_turns_any_fault_into_the_learners_row(tmp_path, monkeypatch):
    from workbook.grade import runner
    from workbook.grade.results import Status
    from workbook.grade.sandbox import Sandbox
    from workbook.grade.submissions import Submission

    def boom(*args):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(runner, "_pipeline", boom)
    folder = tmp_path / "work"
    folder.mkdir()
    _deep(folder, 3000)
    row = runner.grade_one(
        Submission(tmp_path / "x.ipynb", "alice/x.ipynb", "alice", NB),
        runner.Settings(timeout=5, sandbox=Sandbox("none", "")),
        folder,
    )
    assert row.status is Status.GRADER_ERROR and "RecursionError" in row.reason and row.learner == "alice"
    assert not folder.exists()


# ---------- 2. exports beside the notebook, zips, copies, LMS layouts ----------


def _touch(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}")


def _kept(root: Path) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    kept, superseded = keep_latest(discover(root, KNOWN))
    return {s.file: s.ignored for s in kept}, sorted(s.file for s in superseded)


@pytest.mark.parametrize(
    "names, graded",
    [
        # Canvas: the PDF was uploaded after the notebook, so its id is larger
        (("mullerjurgen_5_100_00_start_here.ipynb", "mullerjurgen_5_101_00_start_here.pdf"),
         "mullerjurgen_5_100_00_start_here.ipynb"),
        (("ab_1_10_00_start_here.ipynb", "ab_1_11_00_start_here.html", "ab_1_12_00_start_here.py"),
         "ab_1_10_00_start_here.ipynb"),
        # a resubmission of the export only: the notebook is still what can be graded
        (("ab_1_10_00_start_here.ipynb", "ab_1_10_00_start_here-1.pdf"), "ab_1_10_00_start_here.ipynb"),
        # Moodle in folders: a tie, so names decided, and ".pdf" sorts after ".ipynb"
        (("Ada Lovelace_12_assignsubmission_file_/00_start_here.ipynb",
          "Ada Lovelace_12_assignsubmission_file_/00_start_here.pdf"),
         "Ada Lovelace_12_assignsubmission_file_/00_start_here.ipynb"),
        # Moodle without folders
        (("Ada Lovelace_12_assignsubmission_file_00_start_here.ipynb",
          "Ada Lovelace_12_assignsubmission_file_00_start_here.html"),
         "Ada Lovelace_12_assignsubmission_file_00_start_here.ipynb"),
        # one folder per learner
        (("alice/00_start_here.ipynb", "alice/00_start_here.pdf", "alice/00_start_here.html"),
         "alice/00_start_here.ipynb"),
    ],
)
def test_an_export_beside_the_notebook_is_named_never_graded(tmp_path, names, graded):
    _touch(tmp_path, *names)
    kept, superseded = _kept(tmp_path)
    assert list(kept) == [graded] and superseded == []
    assert sorted(kept[graded]) == sorted(set(names) - {graded})


def test_only_an_export_is_still_a_row_that_says_submit_the_notebook(tmp_path):
    _touch(tmp_path, "bob/00_start_here.pdf")
    [found] = keep_latest(discover(tmp_path, KNOWN))[0]
    with pytest.raises(NotANotebook, match="a PDF, not a notebook"):
        read_answers(found.path)


def test_a_loose_file_beside_a_notebook_is_named_with_it(tmp_path):
    _touch(tmp_path, "alice/00_start_here.ipynb", "alice/report.pdf", "alice/.ipynb_checkpoints/00_start_here-checkpoint.ipynb")
    kept, _ = _kept(tmp_path)
    assert kept == {"alice/00_start_here.ipynb": ("alice/report.pdf",)}


@pytest.mark.parametrize(
    "names, graded, superseded",
    [
        (("ab_1_10_00_start_here.ipynb", "ab_1_11_00_start_here-Copy1.ipynb"), "ab_1_11_00_start_here-Copy1.ipynb",
         ["ab_1_10_00_start_here.ipynb"]),
        (("Ada_3_assignsubmission_file_/00_start_here-Copy1.ipynb", "Ada_3_assignsubmission_file_/00_start_here.ipynb"),
         "Ada_3_assignsubmission_file_/00_start_here.ipynb", ["Ada_3_assignsubmission_file_/00_start_here-Copy1.ipynb"]),
        (("Ada_3_assignsubmission_file_/00_start_here-Copy1.ipynb",), "Ada_3_assignsubmission_file_/00_start_here-Copy1.ipynb", []),
    ],
)
def test_copies_follow_the_lms_order_and_an_original_wins_a_tie(tmp_path, names, graded, superseded):
    _touch(tmp_path, *names)
    kept, gone = _kept(tmp_path)
    assert list(kept) == [graded] and gone == superseded


def _zip(path: Path, members: dict[str, bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _answer_notebook(source: str = "x = 1", grade_id: str = "ex00-model-is-told", minor: int = 5) -> bytes:
    cell = nbformat.v4.new_code_cell(source, metadata={"nbgrader": {"grade_id": grade_id}})
    notebook = nbformat.v4.new_notebook(cells=[cell])
    notebook.nbformat_minor = minor
    if minor < 5:
        del cell["id"]
    return json.dumps(notebook).encode()


def test_a_zip_is_read_in_place_for_its_notebooks(tmp_path):
    _zip(
        tmp_path / "carol" / "lab.zip",
        {
            "lab/00_start_here.ipynb": _answer_notebook("model_is_told = 1"),
            "lab/00_start_here.pdf": b"%PDF",
            "lab/.ipynb_checkpoints/00_start_here-checkpoint.ipynb": b"{}",
            "__MACOSX/lab/._00_start_here.ipynb": b"junk",
        },
    )
    kept, _ = keep_latest(discover(tmp_path, KNOWN))
    [found] = kept
    assert found.file == "carol/lab.zip/lab/00_start_here.ipynb" and found.notebook == NB
    assert found.ignored == ("carol/lab.zip/lab/00_start_here.pdf",)
    assert read_answers(found.path, found.member).cells == {"ex00-model-is-told": [("code", "model_is_told = 1")]}
    assert not (tmp_path / "carol" / "lab").exists()  # nothing extracted


@pytest.mark.parametrize(
    "content, fragment",
    [
        ({"notes.txt": b"no notebook here"}, "zip archive with no notebook"),
        (None, "zip archive with no notebook"),  # not a zip at all
    ],
)
def test_a_zip_without_a_notebook_is_one_row_saying_so(tmp_path, content, fragment):
    path = tmp_path / "dave" / "00_start_here.zip"
    if content is None:
        path.parent.mkdir()
        path.write_bytes(b"PK\x03\x04 damaged")
    else:
        _zip(path, content)
    [found] = keep_latest(discover(tmp_path, KNOWN))[0]
    with pytest.raises(NotANotebook, match=fragment):
        read_answers(found.path, found.member)


def test_a_zip_member_too_big_is_refused_without_reading_it(tmp_path, monkeypatch):
    from workbook.grade import submissions

    _zip(tmp_path / "e" / "w.zip", {"00_start_here.ipynb": b" " * 5000})
    monkeypatch.setattr(submissions, "MAX_BYTES", 4000)
    [found] = keep_latest(discover(tmp_path, KNOWN))[0]
    with pytest.raises(NotANotebook, match="far too big"):
        read_answers(found.path, found.member)


# ---------- 3. older notebook formats ----------


def _v3(source: str) -> dict:
    from nbformat.v3 import new_code_cell, new_notebook, new_worksheet

    cell = new_code_cell(input=source, metadata={"nbgrader": {"grade_id": "ex00-model-is-told"}})
    return json.loads(nbformat.v3.nbjson.writes(new_notebook(worksheets=[new_worksheet(cells=[cell])])))


@pytest.mark.parametrize("minor", [0, 1, 2, 3, 4])
def test_a_format_4_notebook_without_cell_ids_is_read(tmp_path, minor):
    path = tmp_path / "00_start_here.ipynb"
    path.write_bytes(_answer_notebook("model_is_told = 2", minor=minor))
    assert read_answers(path).cells == {"ex00-model-is-told": [("code", "model_is_told = 2")]}


def test_a_format_3_notebook_is_upgraded_as_jupyter_does(tmp_path):
    path = tmp_path / "00_start_here.ipynb"
    path.write_text(json.dumps(_v3("model_is_told = 3")))
    assert read_answers(path).cells == {"ex00-model-is-told": [("code", "model_is_told = 3")]}
    upgraded = current_format(_v3("y = 1"))
    assert upgraded["nbformat"] == 4 and upgraded["nbformat_minor"] == 5
    assert all(cell.get("id") for cell in upgraded["cells"])


@pytest.mark.parametrize(
    "notebook, fragment",
    [
        ({"nbformat": 2, "cells": []}, "format 2 is not supported"),
        ({"nbformat": 5, "nbformat_minor": 0, "cells": []}, "format 5 is not supported"),
        ({"nbformat": 3, "nbformat_minor": 0}, "cannot be upgraded"),
        ({"nbformat": 4, "nbformat_minor": 2, "cells": "none"}, "no list of cells"),
        ({"metadata": {}}, "no list of cells"),
    ],
)
def test_a_format_that_cannot_be_upgraded_says_what_to_do(notebook, fragment):
    with pytest.raises(NotANotebook, match=fragment):
        current_format(notebook)


# ---------- 4. names as Canvas and Moodle write them ----------

ROSTER = Roster(
    (
        RosterEntry("jm", name="Müller, Jürgen"),
        RosterEntry("zoe", first_name="Zoë", last_name="Ångström"),
        RosterEntry("lw", name="Li Wei", canvas_id="4242"),
        RosterEntry("Łukasz"),
        RosterEntry("twin-1", name="Sam Lee"),
        RosterEntry("twin-2", name="Sam Lee"),
    )
)


@pytest.mark.parametrize(
    "file, learner",
    [
        ("müllerjürgen_12345_900_00_start_here.ipynb", "jm"),
        ("müller_jürgen_12345_900_00_start_here.ipynb", "jm"),
        (unicodedata.normalize("NFD", "müllerjürgen_12345_900_00_start_here.ipynb"), "jm"),
        ("MÜLLERJÜRGEN_12345_900_00_start_here.ipynb", "jm"),
        ("ångströmzoë_7_8_00_start_here.ipynb", "zoe"),
        ("weili_4242_1_00_start_here.ipynb", "lw"),  # the Canvas id decides
        ("Jürgen Müller_31_assignsubmission_file_/00_start_here.ipynb", "jm"),
        (unicodedata.normalize("NFD", "Zoë Ångström_32_assignsubmission_file_/00_start_here.ipynb"), "zoe"),
        ("Zoë Ångström_32_assignsubmission_file_00_start_here.ipynb", "zoe"),
        (unicodedata.normalize("NFD", "Łukasz/00_start_here.ipynb"), "Łukasz"),
        ("samlee_9_9_00_start_here.ipynb", None),  # two roster rows of that name: never merged
        ("nobody_1_2_00_start_here.ipynb", None),
    ],
)
def test_lms_names_match_the_roster_as_the_lms_writes_them(tmp_path, file, learner):
    (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / file).write_text("{}")
    [found] = discover(tmp_path, KNOWN)
    assert found.notebook == NB
    entry = ROSTER.match(found.learner)
    assert (entry.learner if entry else None) == learner, found.learner


def test_nfd_and_nfc_folders_are_one_learner(tmp_path):
    _touch(tmp_path, unicodedata.normalize("NFD", "Zoë/00_start_here.ipynb"))
    _touch(tmp_path, unicodedata.normalize("NFC", "Zoë/01_sap_orders_data.ipynb"))
    assert {s.learner for s in discover(tmp_path, KNOWN)} == {unicodedata.normalize("NFC", "Zoë")}


# ---------- 5. swapped grade_ids ----------

NB01 = "01_sap_orders_data"


def _solution_answers(stem: str) -> dict[str, tuple[str, str]]:
    """grade_id -> (released cell id, the solution's source)."""
    out = {}
    for cell in read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb").cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and not meta.get("grade"):
            out[meta["grade_id"]] = (cell.get("id", ""), cell.source)
    return out


def test_swapped_grade_ids_with_the_cells_own_ids_are_graded_by_identity():
    from workbook.grade.runner import merge_step

    plan = build_plan(NB01)
    answers = _solution_answers(NB01)
    a, b = "ex01-blocked-orders", "ex01-credit-exposure"
    learner = LearnerCells(
        {a: [("code", answers[b][1])], b: [("code", answers[a][1])]},
        {a: [answers[b][0]], b: [answers[a][0]]},
    )
    merged = merge_step(plan, learner)
    assert merged.sources[plan.answer_cells[a]] == answers[a][1]
    assert merged.sources[plan.answer_cells[b]] == answers[b][1]
    assert set(merged.swapped) == {a, b} and all("swapped" in n for n in merged.notes)
    assert merged.void == {}


def test_swapped_grade_ids_without_ids_get_a_reason_naming_both():
    from workbook.grade.runner import merge_step

    plan = build_plan(NB01)
    answers = _solution_answers(NB01)
    a, b = "ex01-blocked-orders", "ex01-credit-exposure"
    learner = LearnerCells({a: [("code", answers[b][1])], b: [("code", answers[a][1])]}, {a: ["x1"], b: ["x2"]})
    merged = merge_step(plan, learner)
    assert set(merged.swapped) == {a, b}
    assert "blocked_orders" in merged.swapped[b] and "credit_exposure" in merged.swapped[a]
    # the control: the cells where they belong give no such reason
    honest = LearnerCells({a: [("code", answers[a][1])], b: [("code", answers[b][1])]})
    assert merge_step(plan, honest).swapped == {}


def test_a_swapped_answer_that_fails_carries_the_reason():
    from workbook.checks import failed
    from workbook.grade.runner import Merged, Ran, Settings, judge_step
    from workbook.grade.sandbox import Sandbox

    plan = build_plan(NB01)
    merged = Merged(tuple(c.source for c in plan.cells), {}, (), (), {"ex01-blocked-orders": "their grade_ids were swapped"})
    results, _, _ = judge_step(plan, merged, Ran({}, (), ()), {}, LearnerCells(), Settings(5, Sandbox("none", "")))
    first = next(r for r in results if r.grade_id == "ex01-blocked-orders")
    assert first.points == 0 and "swapped" in first.message and first.message != failed("").message


# ---------- 5. exports, the formula guard, Gradescope's maximum, wording ----------


def test_export_to_is_repeatable_in_order_and_once_each(tmp_path, capsys):
    from workbook.cli import main
    from workbook.grade.gradebook import write_stamp
    from workbook.grade.results import ExerciseResult, GradeVerdict, Row, Status

    row = Row("alice", NB, "alice/x.ipynb", Status.GRADED, "", 1, 1,
              (ExerciseResult("ex00-model-is-told", 1, 1, GradeVerdict.PASS, "ok"),))
    write_stamp([row], tmp_path / "gradebook.json")
    code = main(["export", "--out", str(tmp_path), "--to", "nbgrader", "--to", "lesson-csv", "--to", "nbgrader"])
    assert code == 0
    said = capsys.readouterr().out
    assert said.index("nbgrader.csv") < said.index("course.csv") and said.count("nbgrader.csv") == 1
    assert (tmp_path / "exports" / "nbgrader.csv").is_file() and (tmp_path / "exports" / "course.csv").is_file()


@pytest.mark.parametrize("value", ["-1", "-2.5", "+3", "-0", "1e-3"])
def test_the_courses_numbers_are_never_altered_by_the_formula_guard(value):
    from workbook.grade.gradebook import Course, csv_cell

    assert csv_cell(value) == value and csv_cell(Course(value)) == value


@pytest.mark.parametrize("text", ["=1+1", "-2+cmd|' /C calc'!A0", "@SUM(A1)", "+A1", "\t=1"])
def test_learner_text_that_starts_a_formula_is_still_guarded(text):
    from workbook.grade.gradebook import csv_cell

    assert csv_cell(text).startswith("'")


def test_a_negative_section_and_a_negative_score_reach_the_exports_unchanged():
    from workbook.grade.exports import canvas, nbgrader
    from workbook.grade.results import ExerciseResult, GradeVerdict, Row, Status

    roster = Roster((RosterEntry("alice", name="=HYPERLINK(1)", canvas_id="7", section="-3"),))
    row = Row("alice", NB, "f", Status.GRADED, "", -1, 1, (ExerciseResult("ex00-model-is-told", -1, 1, GradeVerdict.HAND, "late"),))
    text = canvas([row], roster)
    assert ",-3," in text and "'=HYPERLINK(1)" in text
    assert ",-1.0,0.0,-1.0,1.0" in nbgrader([row], roster)


def test_gradescope_counts_the_same_maximum_whether_a_notebook_is_there_or_not():
    from workbook.grade.gradescope import autograded_points

    plan = build_plan("07_selection_test_a_new_tool")
    manual = sum(s.points for s in plan.slots if s.exercise.kind == "manual")
    assert manual > 0 and autograded_points(plan) == plan.max_points - manual
    assert autograded_points(build_plan(NB)) == build_plan(NB).max_points


@pytest.mark.parametrize(
    "hint, shown",
    [
        ("Your own two requests are scored below.", "in the notebook, in the cells after this exercise's check."),
        ("scored further down. Then", "scored in the notebook, in the cells after this exercise's check. Then"),
        ("readings above 8 °C count.", "readings above 8 °C count."),  # not a pointer into the notebook
        ("below the 80,000 EUR limit.", "below the 80,000 EUR limit."),
        ("as shown above.", "as shown in the notebook, before this exercise."),
    ],
)
def test_a_hint_read_outside_the_notebook_points_into_the_notebook(hint, shown):
    from workbook.grade.feedback import outside_notebook

    assert outside_notebook(hint).endswith(shown) if shown.startswith("in the") else outside_notebook(hint) == shown


def test_no_room_for_a_work_folder_costs_each_file_its_row_not_the_batch(tmp_path, monkeypatch):
    """A temporary folder that cannot be made (gone, or full after a notebook filled it): each file gets a
    row that says so and the gradebook is still written. No kernel starts, so this runs in seconds."""
    from workbook.grade import GradeOptions, grade
    from workbook.grade.results import Status

    for learner in ("alice", "bob"):
        (tmp_path / "in" / learner).mkdir(parents=True)
        (tmp_path / "in" / learner / f"{NB}.ipynb").write_bytes(_answer_notebook("model_is_told = 1"))
    monkeypatch.setenv("WORKBOOK_GRADE_TMP", str(tmp_path / "no-such-folder"))
    report = grade(GradeOptions(tmp_path / "in", tmp_path / "out", sandbox=False, progress=False, say=lambda text: None))
    assert {r.learner for r in report.rows} == {"alice", "bob"}
    assert all(r.status is Status.GRADER_ERROR and "could not start" in r.reason for r in report.rows)
    assert (tmp_path / "out" / "gradebook.csv").is_file()
