"""The quizzes have no tells: length and place of the right answer say nothing, and the printed form and
the learner's progress behave."""

import json

import pytest

from workbook import quiz as quizmod
from workbook.quiz import Choice, Question, Quiz, course_figures, lesson_quiz

LIMIT = 0.40


@pytest.fixture(scope="module")
def figures():
    return course_figures()


def test_every_lesson_has_a_quiz_module(figures):
    assert [f.lesson for f in figures.lessons] == [f"{n:02d}" for n in range(20)]


def test_the_longest_choice_is_right_in_at_most_40_percent(figures):
    assert figures.longest_share <= LIMIT, f"{figures.longest_share:.0%}: run scripts/quiz_figures.py"


def test_the_shortest_choice_is_right_in_at_most_40_percent(figures):
    assert figures.shortest_share <= LIMIT, f"{figures.shortest_share:.0%}: run scripts/quiz_figures.py"


def test_the_middle_length_is_no_tell_either(figures):
    """Fixing 'longest' by always padding one wrong choice would put the answer in the middle every time."""
    assert figures.between_share <= 0.55, f"{figures.between_share:.0%}: run scripts/quiz_figures.py"


def test_every_question_has_at_least_three_choices(figures):
    thin = [(f.lesson, q.text) for f in figures.lessons for q in lesson_quiz(f.lesson).questions if len(q.choices) < 3]
    assert not thin, thin


def test_no_place_holds_the_answer_much_more_than_its_share(figures):
    """Among the three places every question has, each holds between a fifth and a half of the answers."""
    n = figures.questions
    for place in range(3):
        assert 0.2 * n <= figures.places[place] <= 0.5 * n, figures.places


def test_a_broken_course_fails_the_limits(monkeypatch):
    """With every choice but the right one cut short, the course-wide share passes the limit."""
    real = quizmod.lesson_quiz

    def tell(lesson):
        q = real(lesson)
        return Quiz(tuple(
            Question(x.text, tuple(Choice(c.text if c.correct else "x", c.why, c.correct) for c in x.choices))
            for x in q.questions
        ))

    monkeypatch.setattr(quizmod, "lesson_quiz", tell)
    assert quizmod.course_figures().longest_share > LIMIT


def test_a_course_that_hides_every_answer_in_the_middle_fails(monkeypatch):
    real = quizmod.lesson_quiz

    def middle(lesson):
        return Quiz(tuple(
            Question(x.text, tuple(Choice("m" * 20 if c.correct else "x" * (5 + 10 * i), c.why, c.correct)
                                   for i, c in enumerate(x.choices)))
            for x in real(lesson).questions
        ))

    monkeypatch.setattr(quizmod, "lesson_quiz", middle)
    figures = quizmod.course_figures()
    assert figures.between_share > 0.55 and figures.longest_share <= LIMIT


# ---------------------------------------------------------------- the printed form


@pytest.mark.parametrize("lesson", [f"{n:02d}" for n in range(20)])
def test_the_printed_form_shows_every_question_and_choice_without_the_key(lesson):
    quiz = lesson_quiz(lesson)
    text, html = quiz.printed(lesson=lesson)
    for question in quiz.questions:
        assert quizmod.plain(question.text) in text and quizmod.rich(question.text) in html
        for choice in question.choices:
            assert quizmod.plain(choice.text) in text and quizmod.rich(choice.text) in html
            assert quizmod.plain(choice.why) not in text and quizmod.rich(choice.why) not in html
    assert "(right)" not in text and "(right)" not in html and "VBox" not in text
    assert f'quiz("{lesson}", answers=True)' in text and "<details>" in html


def test_the_printed_key_marks_the_right_choice_and_explains_every_one():
    quiz = lesson_quiz("05")
    text, html = quiz.printed(answers=True, lesson="05")
    assert text.count("(right)") == len(quiz.questions)
    for question in quiz.questions:
        for choice in question.choices:
            assert quizmod.plain(choice.why) in text and quizmod.rich(choice.why) in html


def test_the_printed_order_is_the_page_order():
    quiz = lesson_quiz("07")
    text, _ = quiz.printed()
    first, order = quiz.questions[0], quiz.order()[0]
    for shown, written in enumerate(order):
        assert f"   {'ABC'[shown]}. {quizmod.plain(first.choices[written].text)}" in text


def test_the_quiz_cell_output_carries_text_html_and_the_widget():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    InteractiveShell.instance()
    with capture_output() as captured:
        quizmod.quiz("03")
    (bundle,) = [o.data for o in captured.outputs]
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("1. ") and "VBox" not in bundle["text/plain"]
    assert "<ol type='A'>" in bundle["text/html"]
    with capture_output() as captured:
        quizmod.quiz("03", answers=True)
    (bundle,) = [o.data for o in captured.outputs]
    assert "application/vnd.jupyter.widget-view+json" not in bundle and "(right)" in bundle["text/plain"]


# ---------------------------------------------------------------- progress, on this machine only


@pytest.fixture
def store(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    monkeypatch.setenv(quizmod.PROGRESS_ENV, str(path))
    return path


def test_progress_keeps_the_first_answer_per_question(store, capsys):
    quiz = lesson_quiz("05")
    box = quiz.widget("05")
    order = quiz.order()[0]
    right = next(p for p, i in enumerate(order) if quiz.questions[0].choices[i].correct)
    options, button = box.children[0].children[1:3]
    options.index = (right + 1) % len(order)  # wrong first
    button.click()
    options.index = right
    button.click()
    rows = {r.lesson: r for r in quizmod.progress()}
    assert (rows["05"].answered, rows["05"].right) == (1, 0)
    assert rows["04"].answered == 0
    quizmod.quiz_progress()
    out = capsys.readouterr().out
    assert "05" in out and f"1 of {len(quiz.questions)}" in out and str(store) in out
    assert json.loads(store.read_text())["05"]


def test_reset_forgets_everything_in_one_call(store, capsys):
    quizmod.record_answer("06", lesson_quiz("06").questions[0], True)
    assert store.exists()
    quizmod.reset_quiz_progress()
    assert not store.exists() and all(r.answered == 0 for r in quizmod.progress())
    quizmod.quiz_progress()
    assert "no quiz answered yet" in capsys.readouterr().out
    quizmod.reset_quiz_progress()  # a second reset is harmless


def test_a_damaged_progress_file_reads_as_empty(store):
    store.write_text("{not json")
    assert all(r.answered == 0 for r in quizmod.progress())


def test_a_widget_without_a_lesson_records_nothing(store):
    box = lesson_quiz("05").widget()
    options, button = box.children[0].children[1:3]
    options.index = 0
    button.click()
    assert not store.exists()


def test_the_command_line_shows_and_resets_progress(store, capsys):
    from workbook.cli import main

    quizmod.record_answer("07", lesson_quiz("07").questions[0], False)
    assert main(["quizzes"]) == 0
    out = capsys.readouterr().out
    assert "07" in out and "0 of 1" in out
    assert main(["quizzes", "--reset"]) == 0 and not store.exists()
    assert main(["quizzes"]) == 0 and "no quiz answered yet" in capsys.readouterr().out
