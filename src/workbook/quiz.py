"""The "check yourself" quiz at the end of every notebook.

Each question shows its choices and a Check button; checking a choice reveals whether it is right
and why, for every choice, not just the right one. Picking a choice grades nothing (arrow keys move
through a radio group, so grading on a change would grade every choice passed over): the Check
button does, and the score counts each question's first checked answer. Later checks show their
explanation as a retry, beside the first answer. The logic is plain Python (``Question.feedback``) so the tests
can drive it without a browser; ``Quiz.widget()`` is the thin ipywidgets shell.

The questions live in ``workbook.quizzes.lessonNN`` (``QUIZ = Quiz(...)``), never in the notebook:
a quiz cell is ``quiz("NN")``, so its source shows no answer. Choices are written with the right
one anywhere (usually first); ``Quiz.order`` decides what the page shows. Each question's other
choices are shuffled with a seed drawn from its own text (stable for nbval and the browser tests),
and the right answer goes to a place the quiz has used least so far, the first place last among
ties: no place holds the answer more often than its share, so choosing the first answer
everywhere scores no more than chance.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import re
from collections import Counter
from dataclasses import dataclass
from html import escape

from tooldesign import access, palette


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
        """Right answers among ``answers`` (question index -> choice index, as written)."""
        return sum(self.questions[q].feedback(a)[0] for q, a in answers.items())

    def order(self) -> tuple[tuple[int, ...], ...]:
        """For each question, the indices of its choices (as written) in the order the page shows them.

        The questions take their places in an order shuffled by the quiz's own seed, so the
        places the answers fill are spread over the quiz instead of repeating a round.
        """
        used: Counter[int] = Counter()
        shown: dict[int, tuple[int, ...]] = {}
        turns = list(range(len(self.questions)))
        random.Random(_seed("".join(q.text for q in self.questions))).shuffle(turns)
        for number in turns:
            question = self.questions[number]
            count = len(question.choices)
            right = next(i for i, c in enumerate(question.choices) if c.correct)
            rng = random.Random(_seed(question.text))
            others = [i for i in range(count) if i != right]
            rng.shuffle(others)
            least = min(used[p] for p in range(count))
            places = [p for p in range(count) if used[p] == least]
            if len(places) > 1 and 0 in places:
                places.remove(0)  # the first place last: a first-answer guesser gets no more than chance
            place = rng.choice(places)
            used[place] += 1
            shown[number] = (*others[:place], right, *others[place:])
        return tuple(shown[n] for n in range(len(self.questions)))

    def right_places(self) -> tuple[int, ...]:
        """Where the right answer is shown, question by question (0 = first)."""
        return tuple(
            next(p for p, i in enumerate(order) if q.choices[i].correct)
            for q, order in zip(self.questions, self.order())
        )

    def widget(self):
        import ipywidgets as widgets

        attempts = QuizAttempts(self)
        total = widgets.HTML()
        key = _seed("".join(q.text for q in self.questions)) % 10**8

        def update_total() -> None:
            total.value = (
                f"<b>{attempts.score()} of {len(self.questions)} right</b> "
                f"({len(attempts.first)} answered; your first answer to each question counts)"
            )

        rows = []
        for number, (question, order) in enumerate(zip(self.questions, self.order())):
            options = widgets.RadioButtons(
                options=[plain(question.choices[i].text) for i in order],
                value=None,
                layout=widgets.Layout(width="auto"),
            )
            # Picking (a click, or an arrow key moving through the group) only selects; the answer is
            # given with this button, so moving through the choices grades nothing.
            button = widgets.Button(
                description=f"Check answer {number + 1}",
                tooltip=f"Check your answer to question {number + 1}",
                layout=widgets.Layout(width="max-content"),
            )
            explanation = widgets.HTML()

            def on_check(
                _button, number=number, order=order, options=options, explanation=explanation
            ) -> None:
                picked = None if options.index is None else order[options.index]
                verdict = attempts.check(number, picked)
                colour = palette.TEXT_GOOD if verdict.right else palette.TEXT_BAD
                # The verdict is in words ("Right." / "Not quite."), the colour only repeats it.
                explanation.value = f"<span style='color:{colour}'>{rich(verdict.text)}</span>"
                update_total()

            button.on_click(on_check)
            title = widgets.HTML(
                f"<b id='quiz-{key}-{number + 1}' data-course-label='1'>{number + 1}. {rich(question.text)}</b>"
            )
            row = widgets.VBox([title, options, button, explanation])
            row.add_class(access.GROUP_CLASS)
            rows.append(row)
        update_total()
        helper = widgets.HTML(access.page_helpers_html())
        helper.add_class(access.MARK_CLASS)
        box = widgets.VBox([*rows, total, helper])
        box.add_class(access.QUIZ_CLASS)
        return box

    def show(self) -> None:
        """Display the quiz. Returns nothing, so the cell's text output stays short and stable."""
        from IPython.display import display

        display(self.widget())


@dataclass(frozen=True)
class Checked:
    """What one press of a question's Check button says."""

    right: bool  # whether the answer checked this time is right
    text: str  # the explanation shown, with the first answer named on a retry
    first: bool  # whether this was the question's first answer (the one the score counts)


class QuizAttempts:
    """The answers checked in one quiz: the first per question is scored, later ones are retries.

    A learner can read every explanation by checking other choices afterwards; the score keeps what
    they answered first, so trying every choice in turn does not raise it.
    """

    def __init__(self, quiz: Quiz) -> None:
        self.quiz = quiz
        self.first: dict[int, int] = {}  # question index -> choice index (as written) first checked

    def check(self, number: int, index: int | None) -> Checked:
        """Check choice ``index`` (as written; None when nothing is picked) of question ``number``."""
        question = self.quiz.questions[number]
        if index is None:
            return Checked(False, "Pick one of the choices first, then press its Check button.", False)
        right, text = question.feedback(index)
        if number not in self.first:
            self.first[number] = index
            return Checked(right, text, True)
        earlier = self.first[number]
        was = "right" if question.choices[earlier].correct else "wrong"
        told = f"Your first answer: {plain(question.choices[earlier].text)} ({was}; it is the one scored). Retry: "
        return Checked(right, told + text, False)

    def score(self) -> int:
        return self.quiz.score(self.first)


def _seed(text: str) -> int:
    """A seed drawn from a question's own text: the same order on every run and every machine."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def lesson_quiz(lesson: str) -> Quiz:
    """The quiz of lesson ``lesson`` ("06"), from ``workbook.quizzes.lesson06``."""
    if not re.fullmatch(r"\d\d", lesson):
        raise ValueError(f'quiz({lesson!r}): give the lesson\'s two-digit number, e.g. quiz("06")')
    try:
        module = importlib.import_module(f"workbook.quizzes.lesson{lesson}")
    except ModuleNotFoundError:
        raise ValueError(f"no quiz for lesson {lesson}: add src/workbook/quizzes/lesson{lesson}.py") from None
    return module.QUIZ


def quiz(lesson: str) -> None:
    """Show lesson ``lesson``'s quiz: the one call a notebook's quiz cell makes."""
    lesson_quiz(lesson).show()
