"""Widgets anyone can use and plots that speak, in a real JupyterLab at a laptop's width.

For each course notebook: every quiz answers arrow keys in place (JupyterLab keeps its focus) and
names each group by its question; no widget label, button or readout is cut at 1280 px; every plot
is followed by a sentence saying what it shows. The fixture notebook has one of each problem, so
each check is also shown to fail.
"""
from __future__ import annotations

import browserlab as lab
import pytest

FIXTURE = "tests/browser/fixtures/inaccessible_widgets.ipynb"
# Alone in its page: once any course widget has loaded the page helpers they serve every radio group there.
BARE_QUIZ = "tests/browser/fixtures/bare_quiz.ipynb"


def _narrow(page: lab.NotebookPage) -> None:
    page.page.set_viewport_size({"width": lab.LAYOUT_WIDTH, "height": 1000})
    page.wait_quiet(page.page.locator(".jp-Notebook"))


def test_every_quiz_answers_the_arrow_keys_in_place(notebook, on_failure):
    on_failure(notebook)
    quizzes, _ = lab.interactive_cells(notebook, notebook.outputs())
    assert quizzes, "no quiz found"
    problems = [p for index in quizzes for p in lab.quiz_keyboard_problems(notebook, index)]
    assert not problems, "\n".join(problems)


def test_no_widget_label_is_cut_at_a_laptops_width(notebook, on_failure):
    on_failure(notebook)
    wide = notebook.page.viewport_size
    _narrow(notebook)
    try:
        problems = lab.label_width_problems(notebook, notebook.outputs())
    finally:  # the page is shared with the other tests of this notebook, which measure at the usual width
        notebook.page.set_viewport_size(wide)
        notebook.wait_quiet(notebook.page.locator(".jp-Notebook"))
    assert not problems, "\n".join(problems)


def test_every_plot_is_followed_by_its_sentence(notebook, on_failure):
    on_failure(notebook)
    problems = lab.plot_sentence_problems(notebook.outputs())
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- the tests of the tests

@pytest.fixture(scope="module")
def broken(browser, lab_server):
    page = lab.NotebookPage.open(browser, lab_server, FIXTURE)
    page.run_all()
    _narrow(page)
    yield page
    page.close()


def cell_with(page: lab.NotebookPage, text: str) -> int:
    return next(c.index for c in page.outputs() if text in c.source)


def test_a_quiz_that_loses_the_arrow_keys_is_found(browser, lab_server):
    page = lab.NotebookPage.open(browser, lab_server, BARE_QUIZ)
    try:
        page.run_all()
        problems = lab.quiz_keyboard_problems(page, cell_with(page, "# bare_quiz"))
    finally:
        page.close()
    assert any("not a radio group named" in p for p in problems), problems
    assert any("ArrowDown did not change the answer" in p for p in problems), problems


def test_the_course_quiz_passes_the_keyboard_check(broken):
    assert lab.quiz_keyboard_problems(broken, cell_with(broken, "# course_quiz")) == []


def test_a_cut_label_is_found_and_a_whole_one_is_not(broken):
    problems = lab.label_width_problems(broken, broken.outputs())
    cut, whole = cell_with(broken, "# cut_label"), cell_with(broken, "# whole_label")
    assert any(p.startswith(f"cell {cut}:") and "is cut" in p for p in problems), problems
    assert not [p for p in problems if p.startswith(f"cell {whole}:")], problems


def test_a_plot_without_its_sentence_is_found(broken):
    problems = lab.plot_sentence_problems(broken.outputs())
    assert any(p.startswith(f"cell {cell_with(broken, '# silent_plot')}:") for p in problems), problems
    assert not [p for p in problems if p.startswith(f"cell {cell_with(broken, '# speaking_plot')}:")], problems
