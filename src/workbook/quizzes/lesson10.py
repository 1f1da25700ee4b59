"""The "check yourself" questions of lesson 10 · Definition levels (its quiz cell shows them with ``quiz("10")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Levels three and four have the same calls, errors and steps. What differs?",
            (
                Choice(
                    "Task success",
                    "The swapped indexes pass the schema and raise no error; only the answer "
                    "shows the difference.",
                    correct=True,
                ),
                Choice(
                    "Nothing that matters: same calls, errors and steps mean the same run",
                    "Four more tasks succeed at level four, from the same choices.",
                ),
                Choice("The number of tool errors", "Both levels have 8 tool errors over 74 calls."),
            ),
        ),
        Question(
            "Why can a schema not prevent the onceki/simdiki swap?",
            (
                Choice(
                    "It names the fields but not which value each carries",
                    "Both are integers; only an example shows the smaller index goes to onceki.",
                    correct=True,
                ),
                Choice(
                    "The schema is filtered at the call boundary, so its field rules are lost",
                    "The boundary drops undeclared fields; the declared ones pass.",
                ),
                Choice(
                    "The tool checks the order and fails",
                    "The tool cannot tell a swap from a meter rollover: it returns 99948 with no error.",
                ),
            ),
        ),
        Question(
            "Level four spends 1212 tokens per correct answer where level three spent 1126. Why?",
            (
                Choice(
                    "The catalog is 67 tokens bigger and is paid at every step",
                    "The steps are the same, "
                    "so the bigger catalog adds tokens faster than the four extra answers divide them.",
                    correct=True,
                ),
                Choice("Level four takes more steps", "Both levels take 97 steps."),
                Choice("Level four makes more errors", "Both make 8."),
            ),
            reads="schema + example call 27,886 tokens / 23 correct = 1212",
        ),
        Question(
            "Paired over 500 seeds, level four beats level three by about 0.19. What does that show?",
            (
                Choice(
                    "What the assumed swap shares are worth, not how a real model behaves",
                    "The gap comes from "
                    "the simulation's own input (swap share 0.30 against 0); with equal shares it is exactly "
                    "zero. A real model has to be measured.",
                    correct=True,
                ),
                Choice(
                    "That example calls make real models about 19 points better at this task",
                    "The simulation was told that; it cannot confirm it.",
                ),
                Choice(
                    "Nothing: the gap is inside the run-to-run band",
                    "Inside the band means one run per level "
                    "cannot show it; many paired runs can, for the simulation.",
                ),
            ),
            reads="mean gap 0.1938",
        ),
        Question(
            "8 of 66 valid calls at level four go to a tool outside the task's sequence. What does it say?",
            (
                Choice(
                    "A definition says what can be called, not what should be",
                    "The calls are valid and ran correctly; they were just not needed.",
                    correct=True,
                ),
                Choice("The tools are broken", "Every one of those calls returned a result without error."),
                Choice(
                    "The schema is incomplete: it should forbid tools outside the sequence",
                    "The schema was complete; choosing a tool is not its job.",
                ),
            ),
            reads="8 of 66 valid calls called a tool outside the task's sequence",
        ),
    )
)
