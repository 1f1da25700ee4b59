"""Release: learner copies are exactly what release writes, and a learner's work is never lost."""
import json
import shutil
import subprocess
import sys

import nbformat
import pytest

from workbook import NOTEBOOKS_DIR, REPO_ROOT, SOLUTIONS_DIR
from workbook.notebook_files import notebook_text
from workbook.release import MANIFEST, ReleaseError, learner_copy, read_notebook, release, resolve, stub_source

SOLUTIONS = sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_notebooks_folder_is_exactly_what_release_writes(path):
    expected = notebook_text(learner_copy(read_notebook(path)))
    target = NOTEBOOKS_DIR / path.name
    assert target.exists(), f"run `make notebooks`: {target.name} is missing"
    assert target.read_text(encoding="utf-8") == expected, f"run `make notebooks`: {target.name} is stale"


def test_every_learner_copy_has_a_solution():
    assert {p.name for p in NOTEBOOKS_DIR.glob("*.ipynb")} == {p.name for p in SOLUTIONS}


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_learner_copies_hold_no_solution_and_no_output(path):
    notebook = nbformat.read(NOTEBOOKS_DIR / path.name, as_version=4)
    for cell in notebook.cells:
        assert "### BEGIN SOLUTION" not in cell.source
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_stub_keeps_names_signatures_and_docstrings():
    source = ('x = 1\n### BEGIN SOLUTION\nanswer = compute(x)\ntotal: int = 3\n\n'
              'def f(a, b=2):\n    """Say why."""\n    return a + b\n### END SOLUTION\nprint(answer)')
    assert stub_source(source) == ('x = 1\nanswer = ...  # YOUR CODE HERE\ntotal: int = ...  # YOUR CODE HERE\n'
                                   'def f(a, b=2):\n    """Say why."""\n    # YOUR CODE HERE\n'
                                   '    raise NotImplementedError()\nprint(answer)')


def test_stub_inside_a_block_follows_nbgrader():
    source = "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"
    assert stub_source(source) == "def f():\n    # YOUR CODE HERE\n    raise NotImplementedError()"


def test_markdown_stub():
    assert stub_source("Q?\n### BEGIN SOLUTION\nmy answer\n### END SOLUTION", "markdown") == "Q?\n_YOUR ANSWER HERE_"


@pytest.fixture
def workspace(tmp_path):
    source, target = tmp_path / "solutions", tmp_path / "notebooks"
    source.mkdir()
    shutil.copy(SOLUTIONS_DIR / "01_sap_orders_data.ipynb", source)
    shutil.copy(SOLUTIONS_DIR / "02_coldchain_data.ipynb", source)
    release(source_dir=source, target_dir=target)
    return source, target


def test_release_is_idempotent(workspace):
    source, target = workspace
    results = release(source_dir=source, target_dir=target)
    assert [r.action for r in results] == ["unchanged", "unchanged"]


def test_release_refuses_to_overwrite_a_learners_work_and_names_the_file(workspace):
    source, target = workspace
    mine = target / "02_coldchain_data.ipynb"
    notebook = nbformat.read(mine, as_version=4)
    notebook.cells[0].source += "\nmy notes"
    nbformat.write(notebook, mine)
    # The course changes too, so release would want to write a new copy.
    solution = nbformat.read(source / "02_coldchain_data.ipynb", as_version=4)
    solution.cells[1].source += " (updated)"
    nbformat.write(solution, source / "02_coldchain_data.ipynb")
    before = mine.read_bytes()
    with pytest.raises(ReleaseError) as error:
        release(source_dir=source, target_dir=target)
    assert "02_coldchain_data.ipynb" in str(error.value) and "--force" in str(error.value)
    assert "\n" not in str(error.value)
    assert mine.read_bytes() == before, "nothing may be written when release refuses"


def test_force_keeps_the_learners_copy_as_a_backup(workspace):
    source, target = workspace
    mine = target / "01_sap_orders_data.ipynb"
    mine.write_text(mine.read_text().replace("Exercise 1", "Exercise 1 (my edit)"))
    mine_text = mine.read_text()
    results = release(force=True, source_dir=source, target_dir=target)
    backups = list(target.glob("01_sap_orders_data.ipynb.bak-*"))
    assert len(backups) == 1 and backups[0].read_text() == mine_text
    assert "kept as" in results[0].action
    assert "(my edit)" not in mine.read_text()


def test_an_unchanged_copy_is_updated_when_the_course_changes(workspace):
    source, target = workspace
    solution = nbformat.read(source / "01_sap_orders_data.ipynb", as_version=4)
    solution.cells[1].source += " (updated)"
    nbformat.write(solution, source / "01_sap_orders_data.ipynb")
    results = release(source_dir=source, target_dir=target)
    assert results[0].action == "written"
    assert "(updated)" in (target / "01_sap_orders_data.ipynb").read_text()
    assert set(json.loads((target / MANIFEST).read_text())) == {"01_sap_orders_data.ipynb", "02_coldchain_data.ipynb"}


def test_resolve_by_number_and_name():
    assert resolve("02").name == "02_coldchain_data.ipynb"
    assert resolve("01_sap_orders_data").name == "01_sap_orders_data.ipynb"
    with pytest.raises(ReleaseError, match="no notebook '42'"):
        resolve("42")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "workbook", *args], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=120)


def test_cli_unknown_notebook_is_one_line():
    done = _cli("check", "42")
    assert done.returncode == 2
    assert done.stderr.startswith("error: no notebook '42'") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_cli_a_file_that_is_not_a_notebook_is_one_line(tmp_path):
    broken = tmp_path / "02_coldchain_data.ipynb"
    broken.write_text("this is not json")
    done = _cli("check", str(broken))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "not a notebook" in done.stderr and "Traceback" not in done.stderr


def test_the_committed_manifest_matches_the_learner_copies():
    """Otherwise `make notebooks` would take an untouched copy for a learner's work and refuse."""
    from workbook.release import _digest
    manifest = json.loads((NOTEBOOKS_DIR / MANIFEST).read_text())
    for path in SOLUTIONS:
        text = (NOTEBOOKS_DIR / path.name).read_text(encoding="utf-8")
        assert manifest.get(path.name) == _digest(text), f"run `make notebooks`: the manifest is stale for {path.name}"
