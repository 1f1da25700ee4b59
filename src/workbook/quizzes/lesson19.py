"""The "check yourself" questions of lesson 19 · Build the agent loop (its quiz cell shows them with ``quiz("19")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "In the run of every behaviour, two_calls_in_one_turn's first reply held three calls, and the run took "
            "2 model calls. Why only 2?",
            (
                Choice(
                    "All three results went back in one user turn, and the next reply was the answer",
                    "One user turn answers every call of a reply, one tool_result per tool_use_id; the outcomes "
                    "show ran, ran, ran.",
                    correct=True,
                ),
                Choice(
                    "The loop ran the first call only and dropped the other two",
                    "The outcomes show all three ran; a call left unanswered would leave the turn incomplete.",
                ),
                Choice(
                    "Each result went back in its own user turn, and those turns are not counted as steps",
                    "Steps count model calls, and every result of a reply goes back in one user turn.",
                ),
            ),
            reads="two_calls_in_one_turn answered steps 2 ran, ran, ran",
        ),
        Question(
            "The model proposes release_request_create and the loop has no person to ask. What does the loop do?",
            (
                Choice(
                    "Runs nothing, answers with is_error that nothing has changed, and stops pending",
                    "Under the course's rule a person decides every write; the report says what waits.",
                    correct=True,
                ),
                Choice(
                    "Runs it: the arguments pass the schema, and a draft changes no order",
                    "Valid arguments are not a decision; with nobody to decide, no write runs.",
                ),
                Choice(
                    "Answers that the release request awaits approval, and lets the model go on to answer",
                    "Lesson 12's false_success check reads 'awaits approval' as done; the result opens "
                    '"Nothing has changed" and the run stops.',
                ),
                Choice(
                    "Drops the call without a result and lets the model answer",
                    "The model and the user would not know it was not done, and the turn would lack a result.",
                ),
            ),
            reads="needs_a_person pending_approval steps 2 ran, pending",
        ),
        Question(
            "never_stops ended at the budget after 4 model calls, each call run. The task table's loop has a budget "
            "of 6 steps. What happens there?",
            (
                Choice(
                    "Six calls run and are paid for, then the same stop: the script never answers",
                    "A budget that counts every model call ends a run that would not end; more steps only cost "
                    "more.",
                    correct=True,
                ),
                Choice(
                    "It answers: with two more steps the model finally gets to finish its work and reply",
                    "The script proposes a call on every step; the table shows 0 of 9 right and 6 calls per task.",
                ),
                Choice(
                    "It stops sooner: the loop ends a run once a model repeats a call",
                    "Its calls are not repeats: each one ran, and a repeat is only answered, not a reason to stop.",
                ),
            ),
            reads="designed never_stops 0 of 9 6.0 6.0 8859",
        ),
        Question(
            "repeated_call asked for a call that had already run. What did the loop answer?",
            (
                Choice(
                    "Not run again: its result points to the earlier one, still above",
                    "The first result is still in the conversation, carried to every later step (lesson 16).",
                    correct=True,
                ),
                Choice(
                    "It refused it with is_error, as the dispatcher refuses an unknown tool",
                    "A repeat is not an error: its outcome is repeated, not refused, and the run went on to answer.",
                ),
                Choice(
                    "It ran it again, since a loop cannot tell a repeat from a new call",
                    "It can: it keeps the calls that ran, by name and arguments, and a write run twice could be "
                    "filed twice.",
                ),
            ),
            reads="repeated_call answered steps 3 ran, repeated",
        ),
        Question(
            "A reply stops with max_tokens, and its last block is a tool_use. What does the loop do?",
            (
                Choice(
                    "Runs nothing from it and asks again with twice the budget, a bounded number of times",
                    "The cut call had only a customer: run as it was, it would search every order, not the "
                    "blocked ones.",
                    correct=True,
                ),
                Choice(
                    "Runs the call, since the tool_use block is in the reply",
                    "A cut call can pass the schema with arguments missing and answer another question.",
                ),
                Choice(
                    "Keeps the cut reply as an assistant turn and asks the model to go on from it, as after pause_turn",
                    "That is the move for a paused turn; of a cut reply nothing is kept and nothing runs.",
                ),
                Choice(
                    "Asks again with the same budget until the reply fits",
                    "The same budget gives the same cut; without a bound the loop never ends.",
                ),
            ),
            reads="max_tokens=2048: tool_use sales_order_search",
        ),
        Question(
            "A reply stops with refusal and holds a tool_use. What does the loop do?",
            (
                Choice(
                    "Runs nothing, stops with StopReason.REFUSED and reports it",
                    "Nothing from a refused turn runs, and the same conversation sent again to the same model is refused again.",
                    correct=True,
                ),
                Choice(
                    "Runs the call, then stops: the tool_use is part of the reply",
                    "The call is part of the refused turn; nothing from it runs.",
                ),
                Choice(
                    "Sends the conversation to another model, as Anthropic advises after a refusal",
                    "That choice belongs to whoever runs the loop, with a second model at hand; the loop itself "
                    "stops and says so.",
                ),
            ),
            reads="refuses model_refused steps 2 ran",
        ),
        Question(
            "In the task table, well_behaved gets 1 of 9 tasks right with the designed set and 1 of 9 with the "
            "mirror. What does that tell you?",
            (
                Choice(
                    "Nothing about either set: each script replays its moves whatever the task",
                    "A task comes out right only where a script happens to match it; the scripts test the loop "
                    "and the checker.",
                    correct=True,
                ),
                Choice(
                    "That the designed descriptions do not help a model finish a task",
                    "Scripts are not models: whether those words buy right tasks is a measurement to make with a "
                    "real model.",
                ),
                Choice(
                    "That the checker is too strict: a well-behaved model should pass all 9",
                    "The script makes the same moves on every task; the checker tells a right end from a wrong one.",
                ),
            ),
            reads="designed well_behaved 1 of 9 2.0 1.0 2231",
        ),
        Question(
            "For every script, a task costs more tokens with the designed set than with the mirror. Why?",
            (
                Choice(
                    "Its definitions are longer, and every model call sends them again",
                    "4,073 characters of definitions against 1,200, on every call of every task.",
                    correct=True,
                ),
                Choice(
                    "Its results are bigger: the designed tools return more fields",
                    "In lesson 16 the designed results were the smaller ones; what differs on every call here is the "
                    "definitions.",
                ),
                Choice(
                    "It makes more tool calls per task than the mirror",
                    "The table shows the same tool calls per task for each script with either set.",
                ),
            ),
            reads="designed set: definitions of 4,073 characters, sent with every model call",
        ),
    )
)
