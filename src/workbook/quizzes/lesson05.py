"""The "check yourself" questions of lesson 05 · Lint: design rules as checks (its quiz cell shows them with ``quiz("05")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "The designed set lints clean. What does that prove?",
            (
                Choice(
                    "That the easy mistakes are gone",
                    "Lint reads definitions; whether a model picks the right tool "
                    "is what the selection test measures.",
                    correct=True,
                ),
                Choice(
                    "That a model will pick the right tool", "No rule can check that; the selection test can."
                ),
                Choice("That the handlers are correct, since lint runs on every tool", "The linter never runs a handler."),
            ),
        ),
        Question(
            "Why does the linter report a size in tokens at all?",
            (
                Choice(
                    "Definitions are sent with every model call",
                    "Their size is a cost on every step of every loop, so it belongs in the report.",
                    correct=True,
                ),
                Choice(
                    "Long definitions are wrong",
                    "The designed set is longer than the mirror and clean; only a "
                    "description past four sentences or 80 words gets desc-long.",
                ),
                Choice("Models reject tool definitions longer than 1,000 tokens", "No such limit applies here."),
            ),
        ),
        Question(
            "'Use it for credit questions.' satisfies desc-when. What does that show?",
            (
                Choice(
                    "A rule checks form, not usefulness",
                    "The clause is there; whether it separates the tool from its "
                    "neighbour is for the test to show.",
                    correct=True,
                ),
                Choice("desc-when is broken: it should have rejected that sentence", "It does what it says: it finds a when-to-use clause."),
                Choice("The draft is fine: a clean rule means a useful description", "It still has seven findings."),
            ),
        ),
        Question(
            "Where should a new design rule of your team live?",
            (
                Choice(
                    "In the linter, as a rule with an id and a reason",
                    "Then it runs on every change, on every tool, and a finding says what to fix.",
                    correct=True,
                ),
                Choice("In a wiki page of team conventions that every tool author reads first", "A page is read once; a rule runs every time."),
                Choice("In the agent's system prompt, so the model applies it to its tools", "The model cannot fix its own tool definitions."),
            ),
        ),
    )
)
