"""The "check yourself" quiz at the end of every notebook.

Each question shows its choices; picking one reveals whether it is right and why, for every
choice, not just the right one. The logic is plain Python (``Question.feedback``) so the tests
can drive it without a browser; ``Quiz.widget()`` is the thin ipywidgets shell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape


def rich(text: str) -> str:
    """Text as safe HTML, with `code` spans shown as code instead of raw backticks."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(text))


def plain(text: str) -> str:
    """Text for a plain-text label (a radio button): the backticks dropped."""
    return re.sub(r"`([^`]+)`", r"\1", text)


@dataclass(frozen=True)
class Choice:
    text: str
    why: str
    correct: bool = False


@dataclass(frozen=True)
class Question:
    text: str
    choices: tuple[Choice, ...]

    def __post_init__(self) -> None:
        if sum(c.correct for c in self.choices) != 1:
            raise ValueError(f"question {self.text!r} needs exactly one correct choice")

    def feedback(self, index: int) -> tuple[bool, str]:
        """Whether choice ``index`` is right, and the explanation to show."""
        choice = self.choices[index]
        verdict = "Right." if choice.correct else "Not quite."
        return choice.correct, f"{verdict} {choice.why}"


@dataclass(frozen=True)
class Quiz:
    questions: tuple[Question, ...]

    def __post_init__(self) -> None:
        if not 3 <= len(self.questions) <= 8:
            raise ValueError("a quiz has three to eight questions")

    def score(self, answers: dict[int, int]) -> int:
        return sum(self.questions[q].feedback(a)[0] for q, a in answers.items())

    def widget(self):
        import ipywidgets as widgets

        answers: dict[int, int] = {}
        total = widgets.HTML()

        def update_total() -> None:
            total.value = (
                f"<b>{self.score(answers)} of {len(self.questions)} right</b> ({len(answers)} answered)"
            )

        rows = []
        for number, question in enumerate(self.questions):
            options = widgets.RadioButtons(
                options=[plain(c.text) for c in question.choices],
                value=None,
                layout=widgets.Layout(width="auto"),
            )
            explanation = widgets.HTML()

            def on_pick(change, number=number, question=question, explanation=explanation) -> None:
                if change["new"] is None:
                    return
                index = [plain(c.text) for c in question.choices].index(change["new"])
                right, text = question.feedback(index)
                colour = "#1a7f37" if right else "#b3261e"
                explanation.value = f"<span style='color:{colour}'>{rich(text)}</span>"
                answers[number] = index
                update_total()

            options.observe(on_pick, names="value")
            rows.append(
                widgets.VBox(
                    [widgets.HTML(f"<b>{number + 1}. {rich(question.text)}</b>"), options, explanation]
                )
            )
        update_total()
        return widgets.VBox([*rows, total])

    def show(self) -> None:
        """Display the quiz. Returns nothing, so the cell's text output stays short and stable."""
        from IPython.display import display

        display(self.widget())
