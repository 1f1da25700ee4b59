"""The "check yourself" questions of lesson 00 · Start here (its quiz cell shows them with ``quiz("00")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Your check cell says 'not done yet'. What does that mean?",
            (
                Choice(
                    "The exercise cell still holds its stub",
                    "The stub is `...` or `raise NotImplementedError()`; "
                    "replace it, run the cell, then run the check.",
                    correct=True,
                ),
                Choice(
                    "Your answer ran and gave a wrong result on the check's inputs",
                    "A wrong answer gets a hint about what is wrong, not 'not done yet'.",
                ),
                Choice(
                    "The course is broken: the check could not find your notebook",
                    "It is the expected message before you have answered.",
                ),
            ),
        ),
        Question(
            "Where do you look when you are stuck on an exercise?",
            (
                Choice(
                    "In solutions/, the same notebook complete",
                    "Every lesson's solution is there, already run.",
                    correct=True,
                ),
                Choice(
                    "In data/, where the generated tables hold the expected answers",
                    "data/ holds the fictional data, not the answers.",
                ),
                Choice(
                    "Nowhere: the answers are hidden",
                    "They are not hidden: this is a course, not an exam. "
                    "Your instructor grades with separate checks.",
                ),
            ),
        ),
        Question(
            "A tool's handler converts every amount to EUR, and only a comment in the handler says so. "
            "What does a model offered the tool know about the currency?",
            (
                Choice(
                    "Nothing: it is sent the name, the description and the argument schema, not the code",
                    "Say it where the model reads it: in the description, or in the result's field names.",
                    correct=True,
                ),
                Choice(
                    "That amounts are in EUR, because the comment sits in the function",
                    "Comments and docstrings stay with your code; the model never receives them.",
                ),
                Choice(
                    "That amounts are in EUR, but only after its first call",
                    "A result says EUR only if a field or a note in it says so; the comment still "
                    "travels nowhere.",
                ),
            ),
            reads="Get one sales order by its number: status, customer and net value.",
        ),
        Question(
            "Why does a check call your function on its own inputs?",
            (
                Choice(
                    "To judge what the function does, not what it printed once",
                    "A function that only works for the example in the text is not done.",
                    correct=True,
                ),
                Choice(
                    "To make the exercise harder than the example shown in the cell",
                    "The inputs are ordinary; they are simply not the example.",
                ),
                Choice(
                    "Because the example was wrong", "The example is fine; a check wants more than one case."
                ),
            ),
        ),
        Question(
            "The cell printed sales_order_get's definition as the model is sent it. Which fact about the tool is in that printout?",
            (
                Choice(
                    "Orders are looked up by a number such as 4711",
                    "The parameter's description says so, and the definition is what the model receives.",
                    correct=True,
                ),
                Choice(
                    "Only orders of company code 1010 are found",
                    "That sentence is the handler's docstring; the printed definition leaves it out, so the model never reads it.",
                ),
                Choice(
                    "Net values are in EUR, converted at the month's rate, as the handler's comment says",
                    "A comment lives in the code; the printout holds the name, the description and the parameters only.",
                ),
            ),
            reads="The sales order number, e.g. 4711.",
        ),
    )
)
