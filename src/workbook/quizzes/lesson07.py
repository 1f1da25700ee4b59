"""The "check yourself" questions of lesson 07 · Adding a tool and testing it (its quiz cell shows them with ``quiz("07")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Why does the price tool's description end with a boundary clause naming "
            "sales_order_get_block_summary?",
            (
                Choice(
                    "Order 4725 is held over a price dispute, so a request about it could go to either tool",
                    "The clause names the neighbour that explains why an order is blocked, the one the new "
                    "tool must not take requests from.",
                    correct=True,
                ),
                Choice(
                    "Because lesson 05's lint rules require every description to name the block summary tool",
                    "A boundary clause names the neighbour a tool is most easily confused with; for other "
                    "tools that is another tool.",
                ),
                Choice(
                    "To raise the stand-in's score",
                    "The check judges the design; the stand-ins' routing is shown as feedback, never as the "
                    "pass condition.",
                ),
            ),
        ),
        Question(
            "Your price tool passes its check, and the word stand-in sends one of your own two requests to "
            "another tool. What do you do?",
            (
                Choice(
                    "Read the shared words and report the miss; leave the description as it is",
                    "Your own requests are held out: rewording the description to win that tie would tune it "
                    "to your test.",
                    correct=True,
                ),
                Choice(
                    "Add the request's words to the description",
                    "Then the request only measures what you copied into the description.",
                ),
                Choice(
                    "Replace the request with one that reaches the tool, so the test stays green",
                    "Dropping a case that misses is how a test stops measuring anything.",
                ),
            ),
        ),
        Question(
            "A description gets 0 lint findings and still sends price requests to other tools. What does "
            "that show?",
            (
                Choice(
                    "The linter checks a description's shape, not whether its words are the clerks' words",
                    "Sentences, a when-to-use clause and a boundary clause can all be there while the job is "
                    "described in words no clerk uses; the selection test shows that.",
                    correct=True,
                ),
                Choice(
                    "The linter has a bug", "It did its job: it checks the rules for a description's shape."
                ),
                Choice(
                    "The selection test is wrong: a description with no lint findings must be picked correctly",
                    "The cases say which tool is right; the description did not carry the words for it.",
                ),
            ),
            reads="0 findings, yet 3 of 4 price requests go elsewhere",
        ),
        Question(
            "You improve one description before go-live. What comes next?",
            (
                Choice(
                    "Lint and re-run the selection test on held-out cases",
                    "A description change is a behaviour "
                    "change; the test shows what it did to every request, not only the one you had in mind.",
                    correct=True,
                ),
                Choice(
                    "Nothing; better words cannot hurt",
                    "Exercise 1 shows a new description can take requests from a neighbour.",
                ),
                Choice("Ask the model whether it likes it", "Measure instead: that is what the test is for."),
            ),
        ),
        Question(
            "With the price tool's description cut to 'Get prices.', the linter printed three findings. How many of the 4 price requests did the stand-in still get right?",
            (
                Choice(
                    "1 of 4",
                    "The line under the findings reads 'designed 1/4 right': the name alone still draws one request.",
                    correct=True,
                ),
                Choice(
                    "4 of 4: the name sales_order_get_price_conditions still carries the words",
                    "The name shares words with some requests only; the printout says 1/4 right.",
                ),
                Choice(
                    "0 of 4: a tool the linter faults is never picked",
                    "The stand-in counts shared words, not findings; one request still reaches the tool.",
                ),
            ),
            reads="designed 1/4 right",
        ),
    )
)
