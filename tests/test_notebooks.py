"""Every learner notebook runs top to bottom with its stubs, and every check says 'not done yet'.

nbval (run by `make test` over solutions/) proves the other direction: the complete notebooks
re-run with the same outputs, and their check cells print a pass. Each copy runs as `make check` runs
it, its plots built but not drawn; nbval and the browser tests draw every one.
"""
import pytest

from workbook import NOTEBOOKS_DIR
from workbook.execute import errors, run_notebook, verdict_lines
from workbook.exercises import exercises_for
from workbook.release import read_notebook

LEARNER_COPIES = sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", LEARNER_COPIES, ids=lambda p: p.stem)
def test_learner_copy_runs_and_every_check_says_not_done(path):
    notebook = run_notebook(read_notebook(path), path.parent, timeout=300, allow_errors=True, pictures=False)
    assert errors(notebook) == [], f"{path.name} must run top to bottom with its stubs"
    lines = {line.grade_id: line for line in verdict_lines(notebook)}
    for exercise in exercises_for(path.stem):
        if exercise.kind == "manual":
            continue
        assert exercise.grade_id in lines, f"{exercise.grade_id}: its check did not print"
        assert "not done yet" in lines[exercise.grade_id].message


def test_a_check_builds_plots_without_drawing_them_and_a_plain_run_draws_them():
    """`make check` (and the copies above) run with COURSE_PICTURES=off in the kernel; a plain run has it unset."""
    import nbformat

    from tooldesign.figures import PICTURES

    def said(**options) -> str:
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
            f"import os\nprint(os.environ.get({PICTURES!r}, 'drawn'))")])
        return run_notebook(notebook, NOTEBOOKS_DIR, **options).cells[0].outputs[0]["text"].strip()

    assert said(pictures=False) == "off"
    assert said() == "drawn"


def test_make_check_asks_for_no_pictures(monkeypatch, capsys):
    import workbook.execute
    from workbook.cli import main

    asked = []
    monkeypatch.setattr(workbook.execute, "run_notebook", lambda notebook, *args, **kwargs: asked.append(kwargs) or notebook)
    main(["check", "02"])
    assert asked and asked[0].get("pictures") is False
