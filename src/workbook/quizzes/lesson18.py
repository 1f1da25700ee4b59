"""The "check yourself" questions of lesson 18 · Tool calls on the wire (its quiz cell shows them with ``quiz("18")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A reply holds two tool_use blocks. What do you send back?",
            (
                Choice(
                    "One user turn with two tool_result blocks, one per tool_use_id",
                    "Both results, paired by id, in one turn.",
                    correct=True,
                ),
                Choice(
                    "Two user turns, one result each",
                    "The API expects every result of a reply in the next user turn.",
                ),
                Choice(
                    "Only the result of the call that worked",
                    "A failure goes back too, marked is_error, so the model can fix it.",
                ),
            ),
        ),
        Question(
            "Which field ends or continues the loop?",
            (
                Choice("stop_reason", "tool_use continues it; end_turn ends it.", correct=True),
                Choice(
                    "The number of content blocks",
                    "A reply can hold text and calls; stop_reason says what it wants.",
                ),
            ),
        ),
        Question(
            "Anthropic's tool_choice any is called what in OpenAI's APIs?",
            (
                Choice("required", "Both oblige some call.", correct=True),
                Choice("any", "OpenAI spells it required."),
                Choice("auto", "auto lets the model decide, which may mean no call."),
            ),
        ),
        Question(
            "Which change leaves nothing of the prefix cached?",
            (
                Choice(
                    "Reordering the tools array",
                    "Tools come first in the prefix; another order is another prefix.",
                    correct=True,
                ),
                Choice("Appending the tool_result turn", "A new turn at the end changes nothing before it."),
                Choice(
                    "Switching tool_choice", "Tools and system stay cached; only the messages are re-read."
                ),
            ),
        ),
        Question(
            "Why does deferred loading keep the cache when a search finds a tool?",
            (
                Choice(
                    "The tool was declared up front; the search returns a tool_reference in the messages",
                    "The tools array does not change.",
                    correct=True,
                ),
                Choice(
                    "Deferred tools are never sent", "They are declared with defer_loading: true in tools."
                ),
            ),
        ),
        Question(
            "allowed_callers corresponds to which earlier idea?",
            (
                Choice(
                    "Lesson 09's code_mode_access",
                    "Who may call a tool: the model, a program, or both.",
                    correct=True,
                ),
                Choice("Lesson 10's example call", "That one is input_examples."),
            ),
        ),
    )
)
