"""Every learner notebook in a real JupyterLab, in headless Chromium: what a learner sees, checked.

The notebooks are found in notebooks/, so a new lesson is covered without a change here, and the
widgets are found by what they are on the page (quizzes by their radio buttons and score line,
explorers, workbenches, testers and panels by their controls), not by a list of names.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import browserlab as lab
from conftest import RESULTS


def _record(page: lab.NotebookPage) -> dict:
    return RESULTS.setdefault(Path(page.notebook).stem, {})


def test_run_all_shows_no_error(notebook, on_failure):
    on_failure(notebook)
    problems = lab.error_outputs(notebook.outputs())
    assert not problems, "errors after Run All:\n" + "\n".join(problems)
    state = notebook.page.evaluate(lab.JS_RUN_STATE)
    assert state["total"] and state["done"] == state["total"], f"only {state['done']} of {state['total']} code cells ran"


def test_every_widget_is_a_live_view(notebook, on_failure):
    on_failure(notebook)
    cells = notebook.outputs()
    _record(notebook)["widgets"] = len(lab.widget_cells(cells))
    problems = lab.widget_problems(notebook, cells)
    assert not problems, "\n".join(problems)


# Drawn cut off today; the fix belongs in the widget's own code (src/). Remove an entry once fixed:
# the test then guards it. Anything not listed fails.
KNOWN_LAYOUT: dict[str, set[str]] = {}  # notebook stem -> layout problems accepted for now (none)


def test_widget_labels_are_readable(notebook, on_failure):
    on_failure(notebook)
    problems = set(lab.layout_problems(notebook, notebook.outputs()))
    known = KNOWN_LAYOUT.get(Path(notebook.notebook).stem, set())
    _record(notebook)["layout"] = sorted(problems)
    assert not problems - known, "\n".join(sorted(problems - known))


def test_each_quiz_explains_and_scores(notebook, on_failure):
    on_failure(notebook)
    quizzes, _ = lab.interactive_cells(notebook, notebook.outputs())
    _record(notebook)["quizzes"] = len(quizzes)
    assert quizzes, "no 'check yourself' quiz found (radio buttons with an 'N of M right' line)"
    problems = [p for index in quizzes for p in lab.quiz_problems(notebook, index)]
    assert not problems, "\n".join(problems)


def test_each_explorer_follows_a_change_with_text_and_chart_agreeing(notebook, on_failure):
    on_failure(notebook)
    _, others = lab.interactive_cells(notebook, notebook.outputs())
    record = _record(notebook)
    record["interactive"] = len(others)
    problems = []
    for index in others:
        result = lab.interaction_problems(notebook, index)
        record.setdefault("settle_s", []).extend(result.seconds)
        record.setdefault("text_first_ms", []).extend(t for t in result.text_first_ms if t > 0)
        record.setdefault("controls", []).append(f"cell {index}: {result.control}")
        problems += result.problems
    assert not problems, "\n".join(problems)


def _first_notebook_with_an_exercise() -> tuple[Path, int, str]:
    for path in sorted((lab.ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        found = lab.first_exercise(path)
        if found:
            return (path, *found)
    raise AssertionError("no learner notebook has an exercise cell")


def test_an_exercise_typed_in_the_browser_and_saved_passes_make_check(browser, lab_server, on_failure):
    """The course's first exercise, typed into the page and run there, saved, then judged by `make check`."""
    path, index, grade_id = _first_notebook_with_an_exercise()
    answer = lab.solution_of(path.name, grade_id)
    assert answer, f"no solution for {grade_id} in solutions/{path.name}"
    page = lab.NotebookPage.open(browser, lab_server, f"notebooks/{path.name}")
    on_failure(page)
    try:
        lab.type_into_cell(page, index, answer)
        check_cell = lab.run_cell_and_next(page, index)
        shown = lab.cell_locator(page, check_cell).locator(".jp-Cell-outputArea").inner_text()
        assert "✔" in shown and lab.NOT_DONE not in shown, f"the check cell in the page says: {shown!r}"
        page.save()
        saved = json.loads((lab_server.course / "notebooks" / path.name).read_text())
        assert "".join(saved["cells"][index]["source"]).strip() == answer.strip(), "the saved file lacks the answer"
        number = re.match(r"(\d+)_", path.name).group(1)
        done = lab.make_check(lab_server.course, number)
        verdicts = [line for line in done.stdout.splitlines() if f" {grade_id}:" in line]
        assert done.returncode == 0 and verdicts and verdicts[0].startswith("✔"), (
            f"make check NB={number} in the copy said:\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    finally:
        page.close()
