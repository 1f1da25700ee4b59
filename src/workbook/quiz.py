"""The "check yourself" quiz at the end of every notebook.

Each question shows its choices; picking one reveals whether it is right and why, for every
choice, not just the right one. The logic is plain Python (``Question.feedback``) so the tests
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

        answers: dict[int, int] = {}
        total = widgets.HTML()
        key = _seed("".join(q.text for q in self.questions)) % 10**8

        def update_total() -> None:
            total.value = (
                f"<b>{self.score(answers)} of {len(self.questions)} right</b> ({len(answers)} answered)"
            )

        rows = []
        for number, (question, order) in enumerate(zip(self.questions, self.order())):
            options = widgets.RadioButtons(
                options=[plain(question.choices[i].text) for i in order],
                value=None,
                layout=widgets.Layout(width="auto"),
            )
            explanation = widgets.HTML()

            def on_pick(
                change, number=number, question=question, order=order, explanation=explanation
            ) -> None:
                if change["new"] is None:
                    return
                index = order[change["new"]]
                right, text = question.feedback(index)
                colour = palette.TEXT_GOOD if right else palette.TEXT_BAD
                # The verdict is in words ("Right." / "Not quite."), the colour only repeats it.
                explanation.value = f"<span style='color:{colour}'>{rich(text)}</span>"
                answers[number] = index
                update_total()

            options.observe(on_pick, names="index")
            title = widgets.HTML(
                f"<b id='quiz-{key}-{number + 1}' data-course-label='1'>{number + 1}. {rich(question.text)}</b>"
            )
            row = widgets.VBox([title, options, explanation])
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
