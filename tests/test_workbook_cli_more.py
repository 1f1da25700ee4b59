"""The course command line's own rules for odd arguments, tested in-process where no kernel is needed."""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from workbook import NOTEBOOKS_DIR
from workbook import cli
from workbook.release import ReleaseError, read_notebook


@pytest.mark.parametrize("name, lesson", [("02_coldchain_data.ipynb", "02_coldchain_data"),
                                          ("02_coldchain_data-Copy1.ipynb", "02_coldchain_data"),
                                          ("05 my try.ipynb", "05_lint")])
def test_a_copy_keeps_its_lessons_checks_by_number(name, lesson):
    assert cli._lesson_of(Path("somewhere") / name, name) == lesson


@pytest.mark.parametrize("name", ["notes.ipynb", "99_nothing.ipynb", "x2_lint.ipynb", "-1.ipynb"])
def test_a_file_without_a_lesson_number_is_refused(name):
    with pytest.raises(ReleaseError, match="not named after a course notebook"):
        cli._lesson_of(Path(name), name)


def test_a_notebook_holding_another_lessons_checks_is_refused():
    other = read_notebook(NOTEBOOKS_DIR / "05_lint.ipynb")
    with pytest.raises(ReleaseError, match="holds the checks of lesson 05, not of 02_coldchain_data"):
        cli._same_lesson(other, "02_coldchain_data", "x.ipynb")
    cli._same_lesson(other, "05_lint", "x.ipynb")  # its own lesson: fine
    cli._same_lesson(nbformat.v4.new_notebook(), "02_coldchain_data", "x.ipynb")  # no checks at all: fine


@pytest.mark.parametrize("cells, words", [
    ([{"cell_type": "code", "metadata": {}, "outputs": []}], "cell 1 has no source text"),
    ([{"cell_type": "markdown", "source": "a"}, {"cell_type": "code", "source": 5}], "cell 2 has no source text"),
    ([{"cell_type": "code", "source": ["a", 1]}], "cell 1 has no source text"),
    ([{"cell_type": "picture", "source": ""}], "cell 1 has no known cell_type"),
    ([None], "cell 1 is not a cell but null"),
    (["x" * 500], "cell 1 is not a cell"),
])
def test_a_cell_no_notebook_program_writes_is_named(tmp_path, cells, words):
    path = tmp_path / "02_coldchain_data.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    with pytest.raises(ReleaseError) as error:
        read_notebook(path)
    assert words in str(error.value) and len(str(error.value)) < 300


def test_an_old_format_notebook_says_how_to_convert_it(tmp_path):
    path = tmp_path / "02_coldchain_data.ipynb"
    path.write_text(json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": []}))
    with pytest.raises(ReleaseError, match="old notebook format 3; open it in JupyterLab and save it"):
        read_notebook(path)


def test_author_replaces_a_file_only_with_force(tmp_path, capsys):
    script, target = tmp_path / "lesson.py", tmp_path / "out.ipynb"
    script.write_text("# %%\nprint(1)\n")
    target.write_text("mine")
    assert cli.main(["author", str(script), str(target)]) == 2
    assert target.read_text() == "mine" and "add --force" in capsys.readouterr().err
    assert cli.main(["author", str(script), str(target), "--force"]) == 0
    assert nbformat.reads(target.read_text(), as_version=4).cells[0].source.strip() == "print(1)"


def test_grade_refuses_an_out_folder_inside_the_submissions_before_grading(tmp_path, capsys):
    (tmp_path / "in" / "ada").mkdir(parents=True)
    assert cli.main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "in" / "results")]) == 2
    assert "inside the submissions" in capsys.readouterr().err
    assert not (tmp_path / "in" / "results").exists()
