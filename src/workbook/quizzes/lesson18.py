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
                    "Only the result of the call that worked; a failed call is left out of the turn",
                    "A failure goes back too, marked is_error, so the model can fix it.",
                ),
            ),
            reads="one user turn, one tool_result per tool_use_id",
        ),
        Question(
            "Which field ends or continues the loop?",
            (
                Choice("stop_reason", "tool_use continues it; end_turn ends it.", correct=True),
                Choice(
                    "The number of content blocks",
                    "A reply can hold text and calls; stop_reason says what it wants.",
                ),
                Choice(
                    "Whether the reply's last block is text or a tool_use",
                    "A reply can end on a tool_use and still be cut off by max_tokens; stop_reason says why it ended.",
                ),
            ),
        ),
        Question(
            "Anthropic's tool_choice any is called what in OpenAI's APIs?",
            (
                Choice("required", "Both oblige some call.", correct=True),
                Choice("any, the same word in both APIs", "OpenAI spells it required."),
                Choice(
                    "auto: in both APIs it makes the model call a tool",
                    "auto lets the model decide, which may mean no call.",
                ),
            ),
            reads="some tool must be called required",
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
                    "Switching tool_choice between two requests",
                    "Tools and system stay cached; only the messages are re-read.",
                ),
            ),
            reads="tools sorted by name tools",
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
                Choice(
                    "The search adds the found tool's definition to the end of tools, and appending to tools never breaks the cache",
                    "A change to tools changes the cached prefix; the found tool arrives as a tool_reference in the messages instead.",
                ),
            ),
        ),
        Question(
            "A step should only read. How do you stop it calling the write tool without losing the cache?",
            (
                Choice(
                    "OpenAI: tool_choice allowed_tools naming the read tools; tools stays as it was",
                    "allowed_tools narrows one turn; the tools array, the start of the cached prefix, is untouched.",
                    correct=True,
                ),
                Choice(
                    "Drop the write tool from tools for that step; the cache keeps the rest of the prefix",
                    "Any change to the tools array leaves nothing cached.",
                ),
                Choice(
                    "Set parallel_tool_calls to false",
                    "That limits how many calls come at once, not which tools.",
                ),
            ),
        ),
        Question(
            "A reply stops with pause_turn after a server-side web search. What does your code send?",
            (
                Choice(
                    "The same request with the assistant content appended, and no new user message",
                    "The provider resumes the turn it paused; there is no tool_result to write.",
                    correct=True,
                ),
                Choice(
                    "A tool_result for the server_tool_use block, as for any tool call the model makes",
                    "Server tools run on the provider's side; your code answers only client tool_use blocks.",
                ),
                Choice("Nothing: the turn is over", "A paused turn is not finished; end_turn says that."),
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
                Choice("Lesson 10's example call, shown to the model", "That one is input_examples."),
                Choice(
                    "Lesson 12's approval gate, which decides who may run a call",
                    "The gate asks a person whether a proposed call runs; allowed_callers says whether the model or code may call the tool, as code_mode_access did.",
                ),
            ),
        ),
    )
)
