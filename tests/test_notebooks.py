"""Every learner notebook runs top to bottom with its stubs, and every check says 'not done yet'.

nbval (run by `make test` over solutions/) proves the other direction: the complete notebooks
re-run with the same outputs, and their check cells print a pass.
"""
import pytest

from workbook import NOTEBOOKS_DIR
from workbook.execute import errors, run_notebook, verdict_lines
from workbook.exercises import exercises_for
from workbook.release import read_notebook

LEARNER_COPIES = sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", LEARNER_COPIES, ids=lambda p: p.stem)
def test_learner_copy_runs_and_every_check_says_not_done(path):
    notebook = run_notebook(read_notebook(path), path.parent, timeout=300, allow_errors=True)
    assert errors(notebook) == [], f"{path.name} must run top to bottom with its stubs"
    lines = {line.grade_id: line for line in verdict_lines(notebook)}
    for exercise in exercises_for(path.stem):
        if exercise.kind == "manual":
            continue
        assert exercise.grade_id in lines, f"{exercise.grade_id}: its check did not print"
        assert "not done yet" in lines[exercise.grade_id].message
