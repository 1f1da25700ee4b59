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
import json
import os
import random
import re
from collections import Counter
from dataclasses import dataclass
from html import escape
from pathlib import Path

from tooldesign import access, palette
from tooldesign.atomic import write_atomic


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
    # For a question about what the notebook computed: a passage of the lesson's saved output that the
    # right answer rests on. The tests find it there, so a re-run that changes the figure fails them.
    reads: str = ""

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
        if not 3 <= len(self.questions) <= 10:
            raise ValueError("a quiz has three to ten questions")

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

    def widget(self, lesson: str | None = None):
        import ipywidgets as widgets

        attempts = QuizAttempts(self, lesson)
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

    def printed(self, answers: bool = False, lesson: str = "NN") -> tuple[str, str]:
        """The quiz as (plain text, HTML) in the order the page shows it: what a reader sees where
        widgets do not run (GitHub, nbviewer, an exported page, a terminal, a screen reader).

        Without ``answers`` neither form says which choice is right; the HTML closes with a collapsed
        section pointing to ``quiz("NN", answers=True)``, which adds the key and every explanation.
        """
        lines: list[str] = []
        html = ["<div class='course-quiz-printed'>"]
        for number, (question, order) in enumerate(zip(self.questions, self.order()), start=1):
            lines.append(f"{number}. {plain(question.text)}")
            html.append(f"<p><b>{number}. {rich(question.text)}</b></p><ol type='A'>")
            for shown, written in enumerate(order):
                choice = question.choices[written]
                letter = "ABCDEFGH"[shown]
                mark = (" (right)" if choice.correct else " (wrong)") if answers else ""
                lines.append(f"   {letter}. {plain(choice.text)}{mark}")
                item = rich(choice.text) + (f"<b>{escape(mark)}</b>" if answers else "")
                if answers:
                    lines.append(f"      {plain(choice.why)}")
                    item += f"<br><i>{rich(choice.why)}</i>"
                html.append(f"<li>{item}</li>")
            lines.append("")
            html.append("</ol>")
        if not answers:
            lines.append(f'The key and the explanations: quiz("{lesson}", answers=True), after answering.')
            html.append(
                "<details><summary>Key and explanations (open after answering)</summary>"
                f'<p>Run <code>quiz("{lesson}", answers=True)</code> in a cell to see which choice is right '
                "and why every choice is right or wrong.</p></details>"
            )
        html.append("</div>")
        return "\n".join(lines).rstrip() + "\n", "\n".join(html)

    def show(self, lesson: str | None = None, answers: bool = False) -> None:
        """Display the quiz: the live widget, and beside it in the same output its printed form, so a
        saved notebook shows the questions (never ``VBox(...)``) wherever widgets do not run."""
        from IPython.display import display

        text, html = self.printed(answers=answers, lesson=lesson or "NN")
        if answers:
            display({"text/plain": text, "text/html": html}, raw=True)
            return
        box = self.widget(lesson)
        display(
            {
                "text/plain": text,
                "text/html": html,
                "application/vnd.jupyter.widget-view+json": {
                    "version_major": 2,
                    "version_minor": 0,
                    "model_id": box.model_id,
                },
            },
            raw=True,
        )


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

    def __init__(self, quiz: Quiz, lesson: str | None = None) -> None:
        self.quiz = quiz
        self.lesson = lesson  # when given, first answers are kept in the learner's progress file
        self.first: dict[int, int] = {}  # question index -> choice index (as written) first checked

    def check(self, number: int, index: int | None) -> Checked:
        """Check choice ``index`` (as written; None when nothing is picked) of question ``number``."""
        question = self.quiz.questions[number]
        if index is None:
            return Checked(False, "Pick one of the choices first, then press its Check button.", False)
        right, text = question.feedback(index)
        if number not in self.first:
            self.first[number] = index
            if self.lesson is not None:
                record_answer(self.lesson, question, right)
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


def quiz(lesson: str, answers: bool = False) -> None:
    """Show lesson ``lesson``'s quiz: the one call a notebook's quiz cell makes.

    ``answers=True`` prints the key and every choice's explanation instead: for after answering.
    """
    lesson_quiz(lesson).show(lesson, answers=answers)


# ---------------------------------------------------------------- the figures of the course's quizzes


@dataclass(frozen=True)
class LessonFigures:
    """How far a lesson's quiz can be answered without reading: where its right answers stand."""

    lesson: str
    questions: int
    longest: int  # right answer is (one of) the longest choice(s)
    shortest: int  # right answer is (one of) the shortest choice(s)
    fewest_choices: int
    places: tuple[int, ...]  # right answers shown at place 0, 1, 2, ...
    chance: float  # right answers a blind guesser expects
    reads: int = 0  # questions about the lesson's own outputs
    both: int = 0  # right answer both longest and shortest (every choice the same length)


@dataclass(frozen=True)
class CourseFigures:
    lessons: tuple[LessonFigures, ...]

    @property
    def questions(self) -> int:
        return sum(f.questions for f in self.lessons)

    @property
    def longest_share(self) -> float:
        return sum(f.longest for f in self.lessons) / self.questions

    @property
    def shortest_share(self) -> float:
        return sum(f.shortest for f in self.lessons) / self.questions

    @property
    def between_share(self) -> float:
        """Right answers neither longest nor shortest: a quiz that fixed one tell by always hiding
        the answer in the middle would have another."""
        return 1 - (sum(f.longest + f.shortest for f in self.lessons) - self._both) / self.questions

    @property
    def _both(self) -> int:
        return sum(f.both for f in self.lessons)

    @property
    def fewest_choices(self) -> int:
        return min(f.fewest_choices for f in self.lessons)

    @property
    def places(self) -> tuple[int, ...]:
        width = max(len(f.places) for f in self.lessons)
        return tuple(sum(f.places[p] for f in self.lessons if p < len(f.places)) for p in range(width))

    @property
    def chance(self) -> float:
        return sum(f.chance for f in self.lessons)


def lesson_figures(lesson: str) -> LessonFigures:
    quiz = lesson_quiz(lesson)
    longest = shortest = both = 0
    for question in quiz.questions:
        sizes = [len(plain(c.text)) for c in question.choices]
        right = sizes[next(i for i, c in enumerate(question.choices) if c.correct)]
        longest += right == max(sizes)
        shortest += right == min(sizes)
        both += right == max(sizes) == min(sizes)
    width = max(len(q.choices) for q in quiz.questions)
    where = Counter(quiz.right_places())
    return LessonFigures(
        lesson,
        len(quiz.questions),
        longest,
        shortest,
        min(len(q.choices) for q in quiz.questions),
        tuple(where[p] for p in range(width)),
        sum(1 / len(q.choices) for q in quiz.questions),
        sum(bool(q.reads) for q in quiz.questions),
        both,
    )


def course_figures(lessons: list[str] | None = None) -> CourseFigures:
    """The figures of every lesson that has a quiz module (or of ``lessons``)."""
    if lessons is None:
        folder = Path(__file__).resolve().parent / "quizzes"
        lessons = sorted(p.stem[-2:] for p in folder.glob("lesson[0-9][0-9].py"))
    return CourseFigures(tuple(lesson_figures(n) for n in lessons))


# ---------------------------------------------------------------- the learner's progress (this machine only)

PROGRESS_ENV = "COURSE_QUIZ_PROGRESS"


def progress_path() -> Path:
    """Where first answers are kept: a file in the learner's home folder, never sent anywhere.

    ``COURSE_QUIZ_PROGRESS`` names another file (the tests use a temporary one)."""
    return Path(os.environ.get(PROGRESS_ENV) or Path.home() / ".tooldesign-course" / "quiz-progress.json")


def _load_progress() -> dict[str, dict[str, bool]]:
    path = progress_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _question_key(question: Question) -> str:
    """A question's key in the progress file: its text's digest, so a reworded question starts afresh."""
    return hashlib.sha256(question.text.encode("utf-8")).hexdigest()[:16]


def record_answer(lesson: str, question: Question, right: bool) -> None:
    """Keep a question's first answer (right or wrong); a later first answer never replaces it."""
    data = _load_progress()
    answered = data.setdefault(lesson, {})
    key = _question_key(question)
    if key in answered:
        return
    answered[key] = bool(right)
    path = progress_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Renamed into place whole: two kernels answering at once never leave half a file.
        write_atomic(path, json.dumps(data, indent=1, sort_keys=True))
    except OSError:
        pass  # a read-only home: the quiz still works, only the record is not kept


@dataclass(frozen=True)
class LessonProgress:
    lesson: str
    questions: int
    answered: int
    right: int


def progress() -> tuple[LessonProgress, ...]:
    """For each lesson with a quiz: its questions, how many were answered and how many right first time."""
    data = _load_progress()
    rows = []
    for figures in course_figures().lessons:
        keys = {_question_key(q) for q in lesson_quiz(figures.lesson).questions}
        kept = {k: v for k, v in data.get(figures.lesson, {}).items() if k in keys}
        rows.append(
            LessonProgress(figures.lesson, figures.questions, len(kept), sum(bool(v) for v in kept.values()))
        )
    return tuple(rows)


def quiz_progress() -> None:
    """Print the quizzes answered so far on this machine and their first-answer scores."""
    rows = progress()
    lines = ["lesson  answered  right first time"]
    for row in rows:
        if row.answered:
            lines.append(
                f"{row.lesson:>6}  {row.answered:>3} of {row.questions:<3} {row.right:>4} of {row.answered}"
            )
    done = [r for r in rows if r.answered]
    if not done:
        lines.append("no quiz answered yet on this machine")
    else:
        lines.append(
            f"{len(done):,} of {len(rows):,} quizzes begun; {sum(r.right for r in done):,} of "
            f"{sum(r.answered for r in done):,} answers right first time (kept in {progress_path()})"
        )
    print("\n".join(lines))


def reset_quiz_progress() -> None:
    """Forget every recorded answer on this machine (the quizzes themselves are unchanged)."""
    progress_path().unlink(missing_ok=True)
