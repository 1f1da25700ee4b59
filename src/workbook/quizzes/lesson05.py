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
                Choice(
                    "That the handlers are correct, since lint runs on every tool",
                    "The linter never runs a handler.",
                ),
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
                Choice(
                    "Models reject tool definitions longer than 1,000 tokens", "No such limit applies here."
                ),
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
                Choice(
                    "desc-when is broken: it should have rejected that sentence",
                    "It does what it says: it finds a when-to-use clause.",
                ),
                Choice(
                    "The draft is fine: a clean rule means a useful description",
                    "It still has seven findings.",
                ),
            ),
            reads="ex05-predict: all 7 findings predicted",
        ),
        Question(
            "Where should a new design rule of your team live?",
            (
                Choice(
                    "In the linter, as a rule with an id and a reason",
                    "Then it runs on every change, on every tool, and a finding says what to fix.",
                    correct=True,
                ),
                Choice(
                    "In a wiki page of team conventions that every tool author reads first",
                    "A page is read once; a rule runs every time.",
                ),
                Choice(
                    "In the agent's system prompt, so the model applies it to its tools",
                    "The model cannot fix its own tool definitions.",
                ),
            ),
        ),
        Question(
            "The designed set's report reads 0 findings, about 995 tokens; the mirror's 67 findings, about 296. What do the two lines show together?",
            (
                Choice(
                    "Clean definitions cost more: about 3.4 times the mirror's tokens, on every call",
                    "Each designed description says what, returns, when and what not; that text is sent with every call.",
                    correct=True,
                ),
                Choice(
                    "The designed set is too long: the linter should have flagged its size",
                    "Size is reported, not judged; desc-long fires only past four sentences or 80 words, and no designed description is.",
                ),
                Choice(
                    "The mirror is better value: fewer tokens carry fewer mistakes per call",
                    "Its 67 findings are mistakes a model pays for in wrong picks; the tokens are the price of the cure.",
                ),
            ),
            reads="== designed: 5 tools, 0 findings, definitions about 995 tokens",
        ),
    )
)
