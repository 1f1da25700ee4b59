"""The "check yourself" questions of lesson 19 · Build the agent loop (its quiz cell shows them with ``quiz("19")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A reply proposes two calls and the first one fails. What does the next user turn hold?",
            (
                Choice(
                    "Two tool_result blocks, one per tool_use_id, the failed one with is_error",
                    "Every call is answered, and the failure is marked so the model can fix it.",
                    correct=True,
                ),
                Choice("Only the result that worked", "An unanswered call leaves the turn incomplete."),
                Choice(
                    "A text saying something went wrong", "Results come first, one per id; text is optional."
                ),
            ),
        ),
        Question(
            "The model proposes release_request_create and nobody can approve it now. What does the loop do?",
            (
                Choice(
                    "Does not run it, answers it with is_error and stops with the call reported pending",
                    "A write waits for a person; the report says what waits.",
                    correct=True,
                ),
                Choice(
                    "Runs it, since the arguments are valid",
                    "Valid is not approved: lesson 12's gate decides.",
                ),
                Choice("Drops the call silently", "The model and the user would not know it was not done."),
            ),
        ),
        Question(
            "Why does the loop have a step budget?",
            (
                Choice(
                    "A model can keep proposing calls forever; the budget ends the run and says so",
                    "The never_stops script shows it.",
                    correct=True,
                ),
                Choice("The API refuses long conversations", "The limit is yours to set, not the API's."),
            ),
        ),
        Question(
            "The model repeats a call that already ran. What is the loop's answer?",
            (
                Choice(
                    "Not run again; its result says it repeats an earlier call",
                    "The earlier result is still in the conversation.",
                    correct=True,
                ),
                Choice("Run it again", "It costs a second run and teaches the model nothing."),
            ),
        ),
        Question(
            "What are the scripted models of this lesson?",
            (
                Choice(
                    "Scripts that replay drawn replies, to test a loop; not models",
                    "They ignore what you send; a real model is the test of a real task.",
                    correct=True,
                ),
                Choice("Small language models", "They hold no model at all."),
            ),
        ),
    )
)
