"""Answers a lesson shows only after the learner's own attempt.

A cell that shows a reference answer ("the package's version, compare with yours") or a score the
learner should not see before writing their own cases would hand the answer to anyone who starts
with Run All. Two ways to hold it back, the same in the solutions and in both learner editions:

- ``reveal(label, text)``: a button; the text is computed and shown only when it is pressed, so it
  is in no saved output until then. With ``answer_of=GRADE_ID`` (the text shows that exercise's
  answer) the button shows it only once the exercise's check has passed here; in the student
  edition, whose package holds no answers, such a reveal is not offered at all: one line says so;
- ``after(grade_id)``: True once that exercise's check has passed in this kernel; otherwise it
  prints one line saying which exercise to finish, and the cell shows nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from tooldesign import access
from workbook.checks import passed_here
from workbook.edition import STUB_MARK, Edition, current
from workbook.exercises import get_exercise


def waiting_line(grade_id: str, what: str) -> str:
    """The one line that says ``what`` will show once ``grade_id`` passes."""
    exercise = get_exercise(grade_id)
    return (
        f"… {what} will show once {grade_id} passes: answer `{exercise.answer}` first, run its check, "
        "then run this cell again."
    )


def after(grade_id: str, what: str = "this cell's output") -> bool:
    """Whether ``grade_id``'s check has passed here; if not, say so in one line."""
    if passed_here(grade_id):
        return True
    print(waiting_line(grade_id, what))
    return False


def not_offered_line(grade_id: str) -> str:
    """What the student edition says where the course offers the package's answer to ``grade_id``."""
    return (
        f"(The package's version of {grade_id} stays with your instructor in this edition: "
        "your own answer and its check are the comparison.)"
    )


def shown_text(text: Callable[[], str]) -> str:
    """``text()``, unless it is a function the student edition hid (its stub): then why it is hidden."""
    said = text()
    if STUB_MARK in said:
        return "This edition's package does not hold this answer: your own version is the one to read."
    return said


def reveal(label: str, text: Callable[[], str], *, answer_of: str | None = None):
    """A button called ``label`` that shows ``text()`` (as preformatted text) when pressed.

    ``answer_of``: the exercise whose answer ``text()`` shows; the text then waits for its check."""
    if answer_of is not None and current() is Edition.STUDENT:
        get_exercise(answer_of)  # a misspelt id fails here, in both editions
        print(not_offered_line(answer_of))
        return None
    import ipywidgets as widgets

    button = widgets.Button(description=label, layout=widgets.Layout(width="max-content"))
    button.tooltip = label
    shown = widgets.HTML()
    if answer_of is not None:
        get_exercise(answer_of)

    def press(_button) -> None:
        if answer_of is not None and not passed_here(answer_of):
            wait = waiting_line(answer_of, "it").replace(
                "then run this cell again", "then press this button again"
            )
            shown.value = _pre(wait)
            return
        shown.value = _pre(shown_text(text))
        button.disabled = True

    button.on_click(press)
    helper = widgets.HTML(access.page_helpers_html())
    helper.add_class(access.MARK_CLASS)
    return widgets.VBox([button, shown, helper])


def _pre(text: str) -> str:
    # pre-wrap keeps the text's own lines; overflow-wrap normal breaks a long line between words only.
    return (
        f"<pre style='white-space: pre-wrap; overflow-wrap: normal; word-break: normal'>{escape(text)}</pre>"
    )
