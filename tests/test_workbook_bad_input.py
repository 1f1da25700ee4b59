"""The course machinery with careless input: backups never overwritten, checks say which file they ran."""
from __future__ import annotations

import errno
import json
import subprocess
import sys
from datetime import datetime

import nbformat
import pytest

from course_copy import ROOT, make_copy, run_in
from workbook import doctor
from workbook.release import ReleaseError, read_notebook, release

from test_release import workspace  # noqa: F401  (the fixture: two solutions released into tmp folders)


def edit(path, marker: str) -> str:
    path.write_text(path.read_text().replace("Exercise 1", f"Exercise 1 ({marker})", 1))
    return path.read_text()


def test_two_forced_releases_in_one_second_keep_both_backups(workspace, monkeypatch):  # noqa: F811
    import workbook.release as module

    frozen = datetime(2026, 12, 1, 10, 0, 0)

    class Clock(datetime):
        @classmethod
        def now(cls, tz=None):
            return frozen
    monkeypatch.setattr(module, "datetime", Clock)
    source, target = workspace
    mine = target / "01_sap_orders_data.ipynb"
    first = edit(mine, "first edit")
    release(force=True, source_dir=source, target_dir=target)
    second = edit(mine, "second edit")
    release(force=True, source_dir=source, target_dir=target)
    backups = sorted(target.glob("01_sap_orders_data.ipynb.bak-*"))
    assert [b.read_text() for b in backups] == [first, second]
    assert len({b.name for b in backups}) == 2 and all("20261201-100000" in b.name for b in backups)


def test_the_refusal_names_the_make_command_that_works(workspace):  # noqa: F811
    source, target = workspace
    edit(target / "02_coldchain_data.ipynb", "mine")
    solution = nbformat.read(source / "02_coldchain_data.ipynb", as_version=4)
    solution.cells[1].source += " (updated)"
    nbformat.write(solution, source / "02_coldchain_data.ipynb")
    with pytest.raises(ReleaseError, match=r"make notebooks FORCE=1"):
        release(source_dir=source, target_dir=target)


def test_a_lost_release_record_still_protects_changed_copies(workspace):  # noqa: F811
    source, target = workspace
    (target / ".released.json").write_text("{not json")
    mine = target / "02_coldchain_data.ipynb"
    before = edit(mine, "mine")
    with pytest.raises(ReleaseError):
        release(source_dir=source, target_dir=target)
    assert mine.read_text() == before


def test_backups_are_ignored_by_git():
    done = subprocess.run(["git", "check-ignore", "-q", "notebooks/02_coldchain_data.ipynb.bak-20261201-100000"],
                          cwd=ROOT, capture_output=True)
    assert done.returncode == 0, ".bak-* files should be in .gitignore"


@pytest.mark.parametrize("text, says", [
    ("{}", "not a notebook (an object without cells)"), ("[1, 2]", "(a list)"), ('"x"', "(a string)"),
    ("null", "(null)"), ("", "not valid JSON"), ('{"nbformat": 4, "cells": 3}', "not a notebook"),
])
def test_read_notebook_names_what_the_file_is(tmp_path, text, says):
    path = tmp_path / "03_mirrored_tools.ipynb"
    path.write_text(text)
    with pytest.raises(ReleaseError) as error:
        read_notebook(path)
    assert says in str(error.value) and "\n" not in str(error.value)


def test_check_says_it_runs_the_saved_file_and_when_it_was_saved(tmp_path):
    course = make_copy(tmp_path / "course")
    done = run_in(course, "-m", "workbook", "check", "07", timeout=300)
    first = done.stdout.splitlines()[0]
    assert done.returncode == 0, done.stderr
    assert first.startswith("Checking the SAVED file notebooks/07_selection_test_a_new_tool.ipynb, last saved ")
    assert "(save first: Ctrl+S)" in first and "ago" in first
    hand = [line for line in done.stdout.splitlines() if "ex07-design-note" in line]
    assert hand and "graded by hand" in hand[0] and "Rubric:" in hand[0] and "did not run" not in hand[0]
    from workbook.exercises.lesson07 import EXERCISES
    checked = sum(e.kind != "manual" for e in EXERCISES)
    assert f"0 of {checked} checked exercises pass; 1 graded by hand." in done.stdout


def test_check_marks_a_prediction_as_unscored_and_counts_it_apart(tmp_path):
    course = make_copy(tmp_path / "course")
    done = run_in(course, "-m", "workbook", "check", "05", timeout=300)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "ex05-predict" in line)
    assert "(a prediction: for you, not scored)" in line and "not done yet" in line
    others = [line for line in done.stdout.splitlines() if "ex05-returns-rule" in line]
    assert others and "prediction" not in others[0]
    assert "0 of 1 checked exercises pass; 0 of 1 prediction right." in done.stdout


def test_execute_failure_is_one_line_and_saves_nothing(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1"),
                                               nbformat.v4.new_code_cell("raise ValueError('broken on purpose')")])
    path = tmp_path / "99_broken.ipynb"
    nbformat.write(notebook, path)
    before = path.read_bytes()
    done = run_in(ROOT, "-m", "workbook", "execute", str(path), timeout=300)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "cell 2" in done.stderr and "broken on purpose" in done.stderr and "nothing was saved" in done.stderr
    assert path.read_bytes() == before


def test_doctor_on_a_read_only_mount_says_what_can_help(monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(doctor.tempfile, "NamedTemporaryFile", refuse)
    finding = doctor.check_data_writable(tmp_path)
    assert not finding.ok and "read-only" in finding.fix and "copy the whole course" in finding.fix
    assert "chmod cannot help" in finding.fix


def test_doctor_fails_on_damaged_data(monkeypatch, tmp_path):
    from tooldesign.data import build_all
    build_all(tmp_path)
    (tmp_path / "sap/sales_orders.csv").write_text("SalesOrder\n4711\n")
    finding = doctor.check_data_files(tmp_path)
    assert not finding.ok and "sales_orders.csv is damaged" in finding.what and "make data" in finding.fix
    build_all(tmp_path)
    assert doctor.check_data_files(tmp_path).ok


def test_execute_without_names_runs_the_solutions_whatever_the_current_folder_holds(tmp_path, monkeypatch):
    """A file named like a lesson in the current folder (a submission, a learner's copy) is not what runs."""
    import workbook.execute
    from workbook import SOLUTIONS_DIR
    from workbook.cli import main as workbook_main

    (tmp_path / "00_start_here.ipynb").write_text("a learner's own file")
    ran: list = []
    monkeypatch.setattr(workbook.execute, "execute_in_place", lambda path, timeout: ran.append(path))
    monkeypatch.chdir(tmp_path)
    assert workbook_main(["execute"]) == 0
    assert ran == sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb")) and len(ran) >= 14
    assert (tmp_path / "00_start_here.ipynb").read_text() == "a learner's own file"
