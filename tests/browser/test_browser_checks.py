"""A test of the tests: a notebook of widgets broken on purpose must fail every browser check."""
from __future__ import annotations

import pytest

import browserlab as lab

FIXTURE = "tests/browser/fixtures/broken_widgets.ipynb"


@pytest.fixture(scope="module")
def broken(browser, lab_server):
    page = lab.NotebookPage.open(browser, lab_server, FIXTURE)
    page.run_all()
    yield page
    page.close()


def cell_with(page: lab.NotebookPage, text: str) -> int:
    return next(c.index for c in page.outputs() if text in c.source)


def test_an_error_in_a_cell_is_found(broken):
    assert any("ValueError" in p for p in lab.error_outputs(broken.outputs()))


def test_a_widget_drawn_as_text_is_found(broken):
    problems = lab.widget_problems(broken, broken.outputs())
    index = cell_with(broken, '"0" * 32')
    assert any(p.startswith(f"cell {index}:") for p in problems), problems


def test_a_chart_one_step_behind_is_found(broken):
    result = lab.interaction_problems(broken, cell_with(broken, "lagging_pick ="))
    assert any("do not agree" in p for p in result.problems), result


def test_a_chart_that_never_changes_is_found(broken):
    result = lab.interaction_problems(broken, cell_with(broken, "stuck_pick ="))
    assert any("chart never changed" in p for p in result.problems), result


def test_an_output_that_never_follows_is_found(broken):
    result = lab.interaction_problems(broken, cell_with(broken, "failing_box ="))
    assert any("no control changed the output" in p for p in result.problems), result


def test_a_quiz_without_explanations_or_score_is_found(broken):
    index = cell_with(broken, "def broken_quiz")
    quizzes, _ = lab.interactive_cells(broken, broken.outputs())
    assert index in quizzes
    problems = lab.quiz_problems(broken, index)
    assert any("no explanation" in p for p in problems), problems
    assert any("the score says" in p for p in problems), problems


@pytest.mark.parametrize("marker", ["working_slider =", "working_box ="])
def test_a_working_widget_passes(broken, marker):
    """The other direction: a slider at its maximum, and a box that sends on Enter, raise no problem."""
    result = lab.interaction_problems(broken, cell_with(broken, marker))
    assert result.problems == [] and result.control != "none", result


def test_a_label_cut_off_is_found(broken):
    index = cell_with(broken, "far too long")
    problems = lab.layout_problems(broken, broken.outputs())
    assert any(p.startswith(f"cell {index}:") and "cut off" in p for p in problems), problems
    assert not [p for p in problems if not p.startswith(f"cell {index}:")], "only the narrow label is cut off"
