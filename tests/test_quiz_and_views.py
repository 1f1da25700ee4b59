import json
import re
from pathlib import Path

import pytest

from tooldesign.data import sap, views, widgets
from workbook.quiz import Choice, Question, Quiz, lesson_quiz, rich

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
LESSONS = [p.name[:2] for p in SOLUTIONS]

Q = Question("2 + 2?", (Choice("4", "Arithmetic.", correct=True), Choice("5", "One too many.")))


def test_feedback_explains_every_choice():
    assert Q.feedback(0) == (True, "Right. Arithmetic.")
    assert Q.feedback(1) == (False, "Not quite. One too many.")


def test_a_question_needs_exactly_one_right_choice():
    with pytest.raises(ValueError):
        Question("?", (Choice("a", "x"), Choice("b", "y")))


def test_quiz_size_and_score():
    with pytest.raises(ValueError):
        Quiz((Q, Q))
    quiz = Quiz((Q, Q, Q))
    assert quiz.score({0: 0, 1: 1, 2: 0}) == 2


def _row(box, number):
    """(radio buttons, Check button, explanation) of question ``number`` in a quiz's widget."""
    return tuple(box.children[number].children[1:4])


def test_quiz_widget_reveals_the_explanation_after_a_check():
    widget = Quiz((Q, Q, Q)).widget()
    options, button, explanation = _row(widget, 0)
    assert explanation.value == ""
    options.value = "5"
    assert explanation.value == "", "picking a choice grades nothing: the Check button does"
    button.click()
    assert "One too many" in explanation.value
    assert "0 of 3 right" in widget.children[-2].value and "(1 answered" in widget.children[-2].value


def test_arrowing_through_the_choices_grades_nothing():
    """Arrow keys move a radio group's value through every choice: no value may be graded on its own."""
    quiz = lesson_quiz("00")
    box = quiz.widget()
    for number in range(len(quiz.questions)):
        options, _, explanation = _row(box, number)
        for shown in range(len(options.options)):
            options.index = shown
        assert explanation.value == ""
    assert "0 of" in box.children[-2].value and "(0 answered" in box.children[-2].value


@pytest.mark.parametrize("lesson", LESSONS)
def test_trying_every_choice_scores_the_first_answer_only(lesson):
    """Checking a wrong choice first and then every other one leaves that question scored wrong."""
    quiz = lesson_quiz(lesson)
    box = quiz.widget()
    for number, (question, order) in enumerate(zip(quiz.questions, quiz.order())):
        options, button, explanation = _row(box, number)
        wrong_first = next(p for p, i in enumerate(order) if not question.choices[i].correct)
        for shown in [wrong_first, *range(len(order))]:
            options.index = shown
            button.click()
            choice = question.choices[order[shown]]
            assert rich(choice.why) in explanation.value, "every choice's explanation can still be read"
    assert f"0 of {len(quiz.questions)} right" in box.children[-2].value
    assert f"({len(quiz.questions)} answered" in box.children[-2].value


def test_a_retry_is_shown_as_a_retry_beside_the_first_answer():
    widget = Quiz((Q, Q, Q)).widget()
    options, button, explanation = _row(widget, 0)
    options.value = "5"
    button.click()
    options.value = "4"
    button.click()
    text = explanation.value
    assert "Your first answer: 5 (wrong" in text and "Retry: Right. Arithmetic." in text
    assert "0 of 3 right" in widget.children[-2].value


def test_a_right_first_answer_stays_scored_after_a_wrong_retry():
    widget = Quiz((Q, Q, Q)).widget()
    options, button, explanation = _row(widget, 1)
    options.value = "4"
    button.click()
    options.value = "5"
    button.click()
    assert "Your first answer: 4 (right" in explanation.value and "Retry: Not quite." in explanation.value
    assert "1 of 3 right" in widget.children[-2].value


def test_check_with_nothing_picked_says_what_to_do_and_counts_nothing():
    widget = Quiz((Q, Q, Q)).widget()
    _, button, explanation = _row(widget, 2)
    button.click()
    assert "Pick one of the choices first" in explanation.value
    assert "(0 answered" in widget.children[-2].value


def test_each_check_button_is_labelled_by_its_question():
    box = lesson_quiz("04").widget()
    for number in range(len(box.children) - 2):
        _, button, _ = _row(box, number)
        assert button.description == f"Check answer {number + 1}"
        assert button.tooltip == f"Check your answer to question {number + 1}"
        assert not button.disabled, "a retry stays possible"


def test_readable_order_uses_names_and_texts():
    card = views.readable_order("4711", sap.orders(), sap.customers(), sap.block_reasons())
    assert card["customer"] == "Nordhafen Tools GmbH (10023)"
    assert card["why"] == "Blocked by the credit check." and card["blocked"] is True


def test_breach_spans():
    assert views.breach_spans([1, 9, 9, 2, 9], 8) == [(1, 2), (4, 4)]
    assert views.breach_spans([8, 8], 8) == []


def test_explorers_draw_their_first_state():
    assert widgets.order_explorer().children[0].value == "4711"
    assert widgets.shipment_explorer().children[0].value == "SHP-2047"


def test_shipment_explorer_changes_curve_and_summary_in_one_value():
    """A page draws each widget value as it arrives: two widgets would show one shipment's curve under another's line."""
    box = widgets.shipment_explorer()
    picker, view = box.children
    seen = []
    view.observe(lambda change: seen.append(change["new"]), names="value")
    picker.value = "SHP-2052"
    assert len(seen) == 1
    assert 'alt="The curve shows the temperature of SHP-2052"' in seen[0] and "<b>SHP-2052: longest breach" in seen[0]


def test_backticks_show_as_code_never_raw():
    from workbook.quiz import Choice, Question, Quiz

    quiz = Quiz((Question("Is `x` set?", (Choice("`...` stays", "The stub is `...` or `raise X()`; <b> stays text.",
                                                  correct=True), Choice("no", "no"))),
                 Question("b", (Choice("y", "y", correct=True), Choice("n", "n"))),
                 Question("c", (Choice("y", "y", correct=True), Choice("n", "n")))))
    box = quiz.widget()
    first = box.children[0]
    title, options, button, explanation = first.children
    assert "<code>x</code>" in title.value and "`" not in title.value
    assert "... stays" in options.options
    options.value = "... stays"
    button.click()
    assert "<code>...</code>" in explanation.value and "<code>raise X()</code>" in explanation.value
    assert "`" not in explanation.value and "&lt;b&gt;" in explanation.value


# ---------------------------------------------------------------- the course's quizzes

def _code_cells(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_a_quiz_cell_shows_only_the_quiz(path):
    """The questions live in workbook.quizzes.lessonNN: no cell prints a choice or says which one is right."""
    number = path.name[:2]
    cells = [c for c in _code_cells(path) if re.search(r"\bquiz\(", c, re.IGNORECASE)]
    assert cells == [f'from workbook.quiz import quiz\n\nquiz("{number}")'], cells
    for source in _code_cells(path):
        assert "correct=True" not in source and "Choice(" not in source, source[:200]
    assert lesson_quiz(number).questions


def _places(number: str) -> tuple[int, ...]:
    return lesson_quiz(number).right_places()


@pytest.mark.parametrize("number", LESSONS)
def test_the_right_answer_moves_within_each_quiz(number):
    places = _places(number)
    assert len(set(places)) > 1, f"lesson {number}: every right answer is shown at place {places[0]}"


def test_one_place_everywhere_scores_no_more_than_chance():
    """Choosing the first answer (or any one place) everywhere, course-wide, scores at most what chance would."""
    quizzes = [lesson_quiz(n) for n in LESSONS]
    questions = [q for quiz in quizzes for q in quiz.questions]
    places = [p for quiz in quizzes for p in quiz.right_places()]
    chance = sum(1 / len(q.choices) for q in questions)
    assert sum(p == 0 for p in places) <= chance
    for place in range(1, max(len(q.choices) for q in questions)):
        # any other fixed place: at most chance, give or take one answer per quiz
        assert sum(p == place for p in places) <= chance + len(quizzes)


def test_the_order_is_fixed_and_a_shuffle():
    for number in LESSONS:
        quiz = lesson_quiz(number)
        assert quiz.order() == lesson_quiz(number).order()
        for question, order in zip(quiz.questions, quiz.order()):
            assert sorted(order) == list(range(len(question.choices)))


def test_the_order_moves_even_when_every_right_answer_is_written_first():
    questions = tuple(Question(f"q{i}?", (Choice("yes", "y", correct=True), Choice("no", "n"), Choice("maybe", "m")))
                      for i in range(6))
    places = Quiz(questions).right_places()
    assert sum(p == 0 for p in places) <= 2 and len(set(places)) == 3, places


def test_a_shuffled_choice_gets_its_own_explanation():
    """The page's order is not the written order: the verdict follows the choice checked, not its place."""
    quiz = lesson_quiz("06")
    box = quiz.widget()
    for number, (question, order) in enumerate(zip(quiz.questions, quiz.order())):
        options, button, explanation = _row(box, number)
        for shown, written in enumerate(order):
            options.index = shown
            button.click()
            choice = question.choices[written]
            verdict = "Right." if choice.correct else "Not quite."
            assert explanation.value.endswith(f"{rich(verdict + ' ' + choice.why)}</span>"), explanation.value
    assert f"{len(quiz.questions)} of {len(quiz.questions)} right" not in box.children[-2].value


def test_a_quiz_carries_its_keyboard_and_label_helper():
    box = lesson_quiz("00").widget()
    assert "course-quiz" in box._dom_classes
    helper = box.children[-1]
    assert "course-access" in helper._dom_classes and "radiogroup" in helper.value and "ArrowDown" in helper.value
    for row in box.children[:-2]:
        title = row.children[0].value
        assert "course-choice" in row._dom_classes and re.search(r"id='quiz-\d+-\d+' data-course-label", title)


@pytest.mark.parametrize("bad", ["6", "006", "ab", "99"])
def test_a_quiz_asked_for_wrongly_says_what_to_give(bad):
    with pytest.raises(ValueError, match=r"two-digit|no quiz for lesson"):
        lesson_quiz(bad)


# ---------------------------------------------------------------- plots that speak

def plot_problems(notebook: dict) -> list[str]:
    """Every image output followed by one sentence saying what it shows, and carrying it as alt text.

    The sentence is printed after the image in the same cell (``tooldesign.figures.show``), or
    opens the next markdown cell.
    """
    from tooldesign.figures import says_what_it_shows

    problems = []
    cells = notebook["cells"]
    for index, cell in enumerate(cells):
        outputs = cell.get("outputs", [])
        for at, output in enumerate(outputs):
            if "image/png" not in output.get("data", {}):
                continue
            after = "".join("".join(o.get("text", "")) for o in outputs[at + 1:] if o.get("output_type") == "stream")
            following = cells[index + 1] if index + 1 < len(cells) else None
            opening = "".join(following["source"]) if following and following["cell_type"] == "markdown" else ""
            if not (says_what_it_shows(after) or says_what_it_shows(opening)):
                problems.append(f"cell {index}: a plot with no sentence saying what it shows after it")
            alt = output.get("metadata", {}).get("image/png", {}).get("alt", "")
            if not says_what_it_shows(alt):
                problems.append(f"cell {index}: a plot without alt text")
    return problems


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_every_plot_says_what_it_shows(path):
    problems = plot_problems(json.loads(path.read_text()))
    assert not problems, "\n".join(problems)


def _png_output(text: str = "", alt: str = "") -> dict:
    meta = {"image/png": {"alt": alt}} if alt else {}
    outputs = [{"output_type": "display_data", "data": {"image/png": "iVBOR", "text/plain": "<Image>"}, "metadata": meta}]
    if text:
        outputs.append({"output_type": "stream", "name": "stdout", "text": text})
    return {"cell_type": "code", "source": "show(fig, ...)", "outputs": outputs, "metadata": {}}


@pytest.mark.parametrize("cells, fails", [
    ([_png_output()], True),                                                       # a bare plot
    ([_png_output(alt="The chart shows x.")], True),                               # alt, but nothing printed
    ([_png_output("Figure 1\n", alt="The chart shows x.")], True),                 # a caption that says nothing
    ([_png_output("The chart shows the tokens per call.\n")], True),               # a sentence, no alt text
    ([_png_output("The chart shows the tokens per call.\n", alt="The chart shows the tokens per call.")], False),
    ([_png_output(alt="The chart shows x."), {"cell_type": "markdown", "source": "The curve shows each reading.",
                                                "metadata": {}}], False),
    ([_png_output(alt="The chart shows x."), {"cell_type": "markdown", "source": "## Exercise 2", "metadata": {}}], True),
])
def test_the_plot_rule_fails_on_a_plot_without_its_sentence(cells, fails):
    assert bool(plot_problems({"cells": cells})) is fails


def test_figures_refuse_a_sentence_that_says_nothing():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tooldesign.figures import show

    fig, _ = plt.subplots()
    with pytest.raises(ValueError, match="say what the plot shows"):
        show(fig, "Figure 2.")
    plt.close(fig)


def _figure():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 1))
    ax.plot([0, 1], [1, 0])
    return fig


def test_a_figure_is_drawn_as_png_and_closed(capsys):
    import matplotlib.pyplot as plt

    from tooldesign.figures import png, show

    fig = _figure()
    assert png(fig, dpi=40).startswith(b"\x89PNG") and not plt.fignum_exists(fig.number)
    fig = _figure()
    show(fig, "The line shows one value falling.")
    out = capsys.readouterr().out
    assert not plt.fignum_exists(fig.number) and "Image object" in out and out.endswith("value falling.\n")


def test_where_pictures_are_off_nothing_is_drawn_and_the_sentence_stays(monkeypatch, capsys, tmp_path):
    """In the grader's kernels and under make check (COURSE_PICTURES=off) a plot costs no drawing; its
    sentence is still printed, and a widget's picture is empty bytes rather than an error."""
    import matplotlib.pyplot as plt

    from tooldesign import figures
    from tooldesign.data import coldchain
    from workbook.grade.sandbox import kernel_env

    monkeypatch.setenv(figures.PICTURES, figures.OFF)
    fig = _figure()
    drawn = []
    fig.canvas.mpl_connect("draw_event", drawn.append)
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda *args, **kwargs: shown.append(args))
    figures.show(fig, "The line shows one value falling.")
    assert not drawn and not shown and not plt.fignum_exists(fig.number)
    assert capsys.readouterr().out == "The line shows one value falling.\n"
    number = coldchain.shipments()["shipment_number"].iloc[0]
    open_before = set(plt.get_fignums())
    assert views.shipment_png(number, coldchain.shipments(), coldchain.readings(), coldchain.limits()) == b""
    assert set(plt.get_fignums()) <= open_before, "the widget's figure was left open"
    monkeypatch.delenv(figures.PICTURES)
    assert figures.pictures_on()
    env = kernel_env(tmp_path)
    assert env[figures.PICTURES] == figures.OFF, "the grader's kernels draw no pictures"


def _shipment_png():
    from tooldesign.data import coldchain

    shipments = coldchain.shipments()
    return views.shipment_png(shipments["shipment_number"].iloc[3], shipments, coldchain.readings(),
                              coldchain.limits())


def _catalog_png():
    from tooldesign.codemode.widgets import catalog_png, explorer_view

    return catalog_png(explorer_view().catalog)


def _levels_png():
    from tooldesign.levels.plots import cost_success_png
    from tooldesign.levels.widgets import explore

    return cost_success_png(explore().table, success="success")


def _facts_line_png():
    import base64

    from tooldesign.loop.widgets import facts_line_png

    return base64.b64decode(facts_line_png(2000))


WIDGET_PICTURES = {"shipment explorer": _shipment_png, "catalog explorer": _catalog_png,
                   "level explorer": _levels_png, "truncation slider": _facts_line_png}


@pytest.mark.parametrize("draw", WIDGET_PICTURES.values(), ids=WIDGET_PICTURES.keys())
def test_every_widget_picture_is_drawn_only_where_pictures_are_on(draw, monkeypatch):
    import matplotlib.pyplot as plt  # off screen: tests/conftest.py chose the Agg backend

    from tooldesign.figures import OFF, PICTURES

    open_before = set(plt.get_fignums())
    assert draw().startswith(b"\x89PNG")
    monkeypatch.setenv(PICTURES, OFF)
    assert draw() == b""
    assert set(plt.get_fignums()) <= open_before, "a widget's figure was left open"


def test_one_palette_in_every_plot_and_widget():
    """Colours come from tooldesign.palette: no hex colour or named matplotlib colour elsewhere."""
    pattern = re.compile(r"""["']#[0-9a-fA-F]{6}["']|color=["'](tab:)?(red|green|blue)["']""")
    offenders = []
    for path in sorted((ROOT / "src" / "tooldesign").rglob("*.py")):
        if path.name != "palette.py" and pattern.search(path.read_text(encoding="utf-8")):
            offenders.append(str(path.relative_to(ROOT)))
    for path in SOLUTIONS:
        for source in _code_cells(path):
            if pattern.search(source):
                offenders.append(f"{path.name}: {source[:60]!r}")
    assert not offenders, offenders


# ---------------------------------------------------------------- widgets anyone can use

def test_readouts_never_split_an_identifier():
    from tooldesign import access

    html = access.readout_html("drafted with no decision: P20, P21")
    assert "overflow-wrap: normal" in html and "word-break: normal" in html and "P20, P21" in html


def test_the_defence_toggle_label_is_whole():
    from tooldesign.injection.widgets import defence_toggle

    box = defence_toggle()
    gate = box.children[2]
    assert gate.description == "approval gate (a person decides every write)"
    assert gate.layout.width == "max-content" and gate.indent is False


def test_the_catalog_slider_takes_one_byte_away():
    from tooldesign.codemode.widgets import catalog_explorer

    budget = catalog_explorer().children[0]
    assert budget.description == "budget (bytes)" and budget.step == 1


@pytest.mark.parametrize("builder", [
    "tooldesign.codemode.widgets:catalog_explorer", "tooldesign.injection.widgets:defence_toggle",
    "tooldesign.loop.widgets:truncation_slider", "tooldesign.scale.widgets:size_slider",
    "tooldesign.data.widgets:order_explorer", "tooldesign.data.widgets:shipment_explorer",
])
def test_every_control_has_a_name_and_the_page_helpers(builder):
    import importlib

    import ipywidgets

    module, name = builder.split(":")
    box = getattr(importlib.import_module(module), name)()
    seen, values = [box], []
    while seen:
        widget = seen.pop()
        seen.extend(getattr(widget, "children", ()))
        if isinstance(widget, (ipywidgets.HTML,)):
            values.append(widget.value)
        elif isinstance(widget, ipywidgets.ValueWidget) and not isinstance(widget, ipywidgets.HTML):
            assert widget.description.strip(), f"{builder}: a {type(widget).__name__} without a description"
    assert any("__courseAccess" in v for v in values), f"{builder}: no page helper (focus ring, names)"


def test_the_truncation_slider_says_when_nothing_was_cut():
    from tooldesign.loop.widgets import LIMITS, readout_html, readout_text

    top = readout_text(LIMITS[1])
    assert "nothing was cut" in top and "missing" not in top
    assert "the model is told what was cut" in readout_text(1000)
    assert "nothing tells the model" in readout_text(1000, note=False)
    assert "<img src='data:image/png;base64," in readout_html(1000)


def test_an_unchanged_edit_is_recorded_as_allow():
    from tooldesign.dispatch.gate import Decision
    from tooldesign.dispatch.widgets import decision_from

    original = {"sales_order": "4711", "reason": "paid"}
    assert decision_from("edit", '{"reason": "paid", "sales_order": "4711"}', original=original) == Decision.allow()
    assert decision_from("edit", '{"sales_order": "4711", "reason": "paid"}', original=json.dumps(original)) == Decision.allow()
    changed = decision_from("edit", '{"sales_order": "4723", "reason": "paid"}', original=original)
    assert changed.updated_input == {"sales_order": "4723", "reason": "paid"}


@pytest.mark.parametrize("value, unit, shown", [(1, "tool", "1 tool"), (2, "tool", "2 tools"), (0, "tool", "0 tools"),
                                               (31855, "byte", "31,855 bytes"), (1, "tool call", "1 tool call"),
                                               (3, "code-callable tool", "3 code-callable tools"), (2, "match", "2 matches"),
                                               (2, "entry", "2 entries"), (2, "day", "2 days")])
def test_one_style_for_counts(value, unit, shown):
    from tooldesign.wording import count

    assert count(value, unit) == shown


def test_a_stub_is_named_as_a_stub_not_a_ellipsis():
    from tooldesign.wording import a_kind

    assert a_kind(...) == "the stub `...` (not an answer yet)"
    assert a_kind(3) == "an int" and a_kind({}) == "a dict"


def test_the_catalog_warning_uses_the_one_style():
    from tooldesign.codemode.catalog import _warning

    assert _warning(1, 31855).startswith("code-mode catalog budget of 31,855 bytes reached: 1 code-callable tool left")


def test_no_answer_before_the_attempt():
    """The package's versions wait behind a button, and 06's scores wait for "Before you look"."""
    import contextlib
    import io

    from workbook import checks
    from workbook.reveal import after, reveal

    box = reveal("show the package's version", lambda: "def f(): return 1")
    button, shown = box.children[:2]
    assert shown.value == "" and button.description == "show the package's version"
    button.click()
    assert "def f(): return 1" in shown.value and button.disabled
    checks._PASSED.discard("ex06-own-requests")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        assert after("ex06-own-requests", "The scores") is False
    assert "own_requests" in said.getvalue()
    with contextlib.redirect_stdout(io.StringIO()):
        checks.check("ex06-own-requests", ...)
        assert not checks.passed_here("ex06-own-requests")
    for path, marker in [("04", "show the package's version"), ("08", "show the package's tool lines"),
                         ("17", "show the package's version")]:
        source = "\n".join(_code_cells(next(p for p in SOLUTIONS if p.name.startswith(path))))
        assert f'reveal("{marker}"' in source
    four = "\n".join(_code_cells(next(p for p in SOLUTIONS if p.name.startswith("04"))))
    assert "print(inspect.getsource(designed_module.approver_for))" not in four
    six = "\n".join(_code_cells(next(p for p in SOLUTIONS if p.name.startswith("06"))))
    assert six.count('after("ex06-own-requests"') >= 4
