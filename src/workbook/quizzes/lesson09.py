"""The "check yourself" questions of lesson 09 · Code mode: the sandbox, each tool's access and the catalog's budget (its quiz cell shows them with ``quiz("09")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A deployment script calls merge_tool without code_mode_access on a tool set to 'code'. Result?",
            (
                Choice(
                    "It stays 'code'",
                    "Without an access value, merge_tool leaves the old one in place: pass it every time.",
                    correct=True,
                ),
                Choice(
                    "It goes back to 'both'", "That is what create_tool does for a new tool, not merge_tool."
                ),
                Choice(
                    "The call fails, because code_mode_access has no default and must be given",
                    "Nothing fails, which is what makes it a trap; a new tool starts at 'both'.",
                ),
            ),
            reads="('CC_GET_READINGS', 'code', 1)",
        ),
        Question(
            "In this notebook's measured runs, which step removes most of the characters that reach the model?",
            (
                Choice(
                    "run_code: the program makes the calls, so the readings stay in the program",
                    "The savings table "
                    "shows it: that step removes most of the classic run's characters. In UC AI's reported run with a "
                    "real model, code access saved more, a split the scripted stand-in cannot reproduce.",
                    correct=True,
                ),
                Choice(
                    "Setting the bulk tools to 'code'",
                    "It saves something, the definitions and the stand-in's looks at "
                    "the data, but far less here than run_code itself. It is the bigger step in UC AI's reported run.",
                ),
                Choice(
                    "Shorter descriptions",
                    "The descriptions got longer, not shorter, and the answer became right.",
                ),
            ),
            reads="run_code: the program makes the calls 60241 12020",
        ),
        Question(
            "What does the V8 isolate not protect you from?",
            (
                Choice(
                    "What the program's tools can do",
                    "A program can call every tool in its catalog, as often as its "
                    "budget allows. A tool that writes belongs to 'direct'.",
                    correct=True,
                ),
                Choice(
                    "A loop that never ends, since the isolate sets no time limit",
                    "The engine stops it at the time limit.",
                ),
                Choice(
                    "A program that reads your files on disk",
                    "There are no files, no require and no network in the isolate.",
                ),
            ),
            reads="ReferenceError: require is not defined",
        ),
        Question(
            "Twelve tools are code-callable; UC AI's catalog holds ten. What does the model see?",
            (
                Choice(
                    "Nothing unusual: no error, two tools a program cannot call",
                    "The only trace is one warning in the log.",
                    correct=True,
                ),
                Choice("An error naming the two tools", "The catalog is built without failing."),
                Choice(
                    "All twelve, with the two extra ones cut down to their names",
                    "A tool that does not fit is skipped whole.",
                ),
            ),
        ),
        Question(
            "Two registries with the same tools drop different pairs. Why?",
            (
                Choice(
                    "Which tools are dropped follows the order the store returns them in",
                    "How many follows from the sizes; which ones is not promised.",
                    correct=True,
                ),
                Choice(
                    "The budget differs between the two registries, so fewer tools fit in one",
                    "Both use UC AI's 31,855 bytes.",
                ),
                Choice("SQLite is random", "It is deterministic, but the catalog's query asks for no order."),
            ),
        ),
    )
)
