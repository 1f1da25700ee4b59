"""Answers a lesson shows only after the learner's own attempt.

A cell that shows a reference answer ("the package's version, compare with yours") or a score the
learner should not see before writing their own cases would hand the answer to anyone who starts
with Run All. Two ways to hold it back, the same in the solutions and in both learner editions:

- ``reveal(label, text)``: a button; the text is computed and shown only when it is pressed, so it
  is in no saved output until then;
- ``after(grade_id)``: True once that exercise's check has passed in this kernel; otherwise it
  prints one line saying which exercise to finish, and the cell shows nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from tooldesign import access
from workbook.checks import passed_here
from workbook.exercises import get_exercise


def after(grade_id: str, what: str = "this cell's output") -> bool:
    """Whether ``grade_id``'s check has passed here; if not, say so in one line."""
    if passed_here(grade_id):
        return True
    exercise = get_exercise(grade_id)
    print(
        f"… {what} appears once {grade_id} passes: answer `{exercise.answer}` first, run its check, "
        "then run this cell again."
    )
    return False


def reveal(label: str, text: Callable[[], str]):
    """A button called ``label`` that shows ``text()`` (as preformatted text) when pressed."""
    import ipywidgets as widgets

    button = widgets.Button(description=label, layout=widgets.Layout(width="max-content"))
    button.tooltip = label
    shown = widgets.HTML()

    def press(_button) -> None:
        shown.value = f"<pre style='white-space: pre-wrap'>{escape(text())}</pre>"
        button.disabled = True

    button.on_click(press)
    helper = widgets.HTML(access.page_helpers_html())
    helper.add_class(access.MARK_CLASS)
    return widgets.VBox([button, shown, helper])
