"""A course quiz answered with the keyboard alone, as a learner without a mouse (or with a screen reader) would.

From the first choice of question 1: an arrow key picks a choice, Tab reaches that question's Check
button, Enter checks, and the next Tab goes on to the next question's choices. Every question then
shows its explanation and the score counts every answer. Only the start is a focus call: a learner
reaches the quiz by tabbing through the page, which depends on what else the page holds.
"""
from __future__ import annotations

import re

import browserlab as lab
import pytest

NOTEBOOK = "tests/browser/fixtures/keyboard_quiz.ipynb"

JS_FOCUSED = """() => {
  const e = document.activeElement;
  return {tag: e ? e.tagName.toLowerCase() : '', type: e ? (e.type || '') : '', text: e ? (e.innerText || '').trim() : ''};
}"""


@pytest.fixture(scope="module")
def quiz_page(browser, lab_server):
    page = lab.NotebookPage.open(browser, lab_server, NOTEBOOK)
    page.run_all()
    yield page
    page.close()


def test_a_quiz_is_answered_by_keyboard_alone(quiz_page):
    page = quiz_page
    index = next(c.index for c in page.outputs() if "# keyboard_quiz" in c.source)
    cell = lab.cell_locator(page, index)
    area = cell.locator(".jp-Cell-outputArea")
    groups = cell.locator(".widget-radio-box")
    count = groups.count()
    assert count >= 3, f"expected a quiz, found {count} radio groups"
    groups.nth(0).locator("input[type=radio]").first.focus()
    for number in range(count):
        group = groups.nth(number)
        assert group.evaluate("g => g.contains(document.activeElement)"), f"question {number + 1}: focus is not on its choices"
        page.page.keyboard.press("ArrowDown")
        picked = group.evaluate("g => Array.from(g.querySelectorAll('input')).findIndex(r => r.checked)")
        assert picked >= 0, f"question {number + 1}: ArrowDown picked nothing"
        page.page.keyboard.press("Tab")
        focused = page.page.evaluate(JS_FOCUSED)
        assert focused["tag"] == "button" and f"Check answer {number + 1}" in focused["text"], (
            f"question {number + 1}: Tab from the choices reached {focused}, not its Check button")
        busy = page.busy_count()
        page.page.keyboard.press("Enter")
        page.wait_settled(busy, area)
        explanation = group.locator("xpath=../following-sibling::*[2]").inner_text().strip()
        assert re.match(r"^(Right|Not quite)\.\s+\S", explanation), f"question {number + 1}: shows {explanation[:60]!r}"
        if number + 1 < count:
            page.page.keyboard.press("Tab")
    score = lab.SCORE.search(area.inner_text())
    assert score and int(score.group(3)) == count, area.inner_text()[-200:]
