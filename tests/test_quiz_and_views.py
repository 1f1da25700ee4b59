import pytest

from tooldesign.data import coldchain, sap, views, widgets
from workbook.quiz import Choice, Question, Quiz

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


def test_quiz_widget_reveals_the_explanation_after_a_choice():
    widget = Quiz((Q, Q, Q)).widget()
    first = widget.children[0]
    options, explanation = first.children[1], first.children[2]
    assert explanation.value == ""
    options.value = "5"
    assert "One too many" in explanation.value
    assert "0 of 3 right" in widget.children[-1].value


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
    assert 'alt="temperature curve of SHP-2052"' in seen[0] and "<b>SHP-2052: longest breach" in seen[0]


def test_backticks_show_as_code_never_raw():
    from workbook.quiz import Choice, Question, Quiz

    quiz = Quiz((Question("Is `x` set?", (Choice("`...` stays", "The stub is `...` or `raise X()`; <b> stays text.",
                                                  correct=True), Choice("no", "no"))),
                 Question("b", (Choice("y", "y", correct=True), Choice("n", "n"))),
                 Question("c", (Choice("y", "y", correct=True), Choice("n", "n")))))
    box = quiz.widget()
    first = box.children[0]
    title, options, explanation = first.children
    assert "<code>x</code>" in title.value and "`" not in title.value
    assert options.options[0] == "... stays"
    options.value = options.options[0]
    assert "<code>...</code>" in explanation.value and "<code>raise X()</code>" in explanation.value
    assert "`" not in explanation.value and "&lt;b&gt;" in explanation.value
