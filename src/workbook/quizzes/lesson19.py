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
                    "A text saying something went wrong, so the model retries the whole reply's calls",
                    "Results come first, one per id; text is optional.",
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
                    "Runs it, since the arguments are valid and the policy check allows drafting a release",
                    "Valid is not approved: lesson 12's gate decides.",
                ),
                Choice("Drops the call silently", "The model and the user would not know it was not done."),
            ),
            reads="needs_a_person pending_approval steps 2 ran, pending",
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
                Choice(
                    "To cap the token bill: when it is spent, the run goes on in a fresh conversation",
                    "The budget counts steps; when it is spent the run ends and says so, nothing restarts.",
                ),
            ),
            reads="never_stops budget steps 4 ran, ran, ran, ran",
        ),
        Question(
            "The model repeats a call that already ran. What is the loop's answer?",
            (
                Choice(
                    "Not run again; its result says it repeats an earlier call",
                    "The earlier result is still in the conversation.",
                    correct=True,
                ),
                Choice(
                    "Run it again, since the loop cannot tell a repeat from a new call",
                    "The loop can tell: it keeps the calls that ran, and running one again costs a second run and teaches the model nothing.",
                ),
                Choice(
                    "Run it again: a model repeats a call only when the first result was lost",
                    "The first result is in the conversation already; running a write twice could draft it twice.",
                ),
            ),
            reads="repeated_call answered steps 3 ran, repeated",
        ),
        Question(
            "A reply stops with max_tokens, and its last block is a tool_use. What does the loop do?",
            (
                Choice(
                    "Runs nothing from it and asks again with twice the budget, a bounded number of times",
                    "The call was cut off: its input may lack arguments, so running it does something else.",
                    correct=True,
                ),
                Choice(
                    "Runs the call, since the block is there",
                    "A cut call can pass the schema with arguments missing and answer another question.",
                ),
                Choice(
                    "Asks again with the same budget until the reply fits, however many tries that may take",
                    "The same budget gives the same cut; without a bound the loop never ends.",
                ),
            ),
            reads="max_tokens=2048: tool_use sales_order_search",
        ),
        Question(
            "A reply stops with pause_turn. What goes to the model next?",
            (
                Choice(
                    "The paused content, unchanged, as the assistant turn, with no user turn after it",
                    "A server tool paused a long turn; sending it back lets the model go on.",
                    correct=True,
                ),
                Choice("Nothing: the turn is over", "pause_turn is not end_turn; the turn is unfinished."),
                Choice(
                    "The request again, without the paused content, so the server starts the work over cleanly",
                    "The paused work is lost and the turn starts over.",
                ),
            ),
        ),
        Question(
            "A reply stops with refusal and holds a tool_use. What does the loop do?",
            (
                Choice(
                    "Runs nothing, stops with StopReason.REFUSED and reports it",
                    "Nothing from a refused turn runs; whoever runs the loop may try another model.",
                    correct=True,
                ),
                Choice(
                    "Runs the call, then stops, since the tool_use is already in the reply",
                    "The call is part of the refused turn.",
                ),
                Choice(
                    "Asks the same model again",
                    "The same conversation is refused again: the retry only spends calls.",
                ),
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
                Choice(
                    "Real models called with a fixed seed, so their replies repeat on every run",
                    "No model is called in this lesson; the scripts replay replies drawn for the test, which is why they repeat.",
                ),
            ),
        ),
    )
)
