"""The "check yourself" questions of lesson 18 · Tool calls on the wire (its quiz cell shows them with ``quiz("18")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A reply holds two tool_use blocks, and the second call fails validation. What do you send back?",
            (
                Choice(
                    "One user turn with two tool_result blocks, one per tool_use_id, the failed one marked is_error",
                    "Both results, paired by id, in the next user turn; the failure tells the model what to fix.",
                    correct=True,
                ),
                Choice(
                    "Two user turns, one per call, in the order the calls came",
                    "The API expects every result of a reply in the one user turn that follows it.",
                ),
                Choice(
                    "One user turn with the result of the call that worked; the failed call is left out",
                    "A call without a result leaves the turn incomplete, and the model never learns what to fix.",
                ),
            ),
            reads="one user turn, one tool_result per tool_use_id",
        ),
        Question(
            "The example reply opens with a text block, then asks for two calls. What tells your code to run them?",
            (
                Choice(
                    "Its stop_reason: tool_use asks for results",
                    "stop_reason drives the loop: tool_use asks for results, end_turn ends the turn.",
                    correct=True,
                ),
                Choice(
                    "Nothing: a reply that contains text is the model's answer to the user",
                    "A reply can hold text and calls at once; the text here only says what the model will look up.",
                ),
                Choice(
                    "Its last block being a tool_use rather than text",
                    "A reply cut off at max_tokens can end on a tool_use too; stop_reason says why it ended.",
                ),
            ),
            reads="stop_reason: tool_use text: I will look up the blocked orders and the credit figures.",
        ),
        Question(
            "With extended thinking on, you want Anthropic's model to call some tool this turn. What does the tool_choice table allow?",
            (
                Choice(
                    "Neither any nor a named tool: only auto or none",
                    "A forced choice is refused with extended thinking: to get a call, the request must let the model decide.",
                    correct=True,
                ),
                Choice(
                    "required, the word Anthropic takes for a forced call when thinking is on",
                    "required is OpenAI's spelling of Anthropic's any, and Anthropic refuses a forced call with thinking.",
                ),
                Choice(
                    "A named tool: forcing one tool is allowed where any is not",
                    "The table shows 'this tool must be called' refused with extended thinking as well.",
                ),
                Choice(
                    "any, as without thinking: thinking does not change tool_choice",
                    "The table's last column shows any refused once extended thinking is on.",
                ),
            ),
            reads="some tool must be called refused",
        ),
        Question(
            "Between two steps you sort the tools array by name; nothing else changes. What does the cache table say that costs?",
            (
                Choice(
                    "Everything: tools come first in the prefix, so nothing is read from the cache",
                    "Another order is another prefix: the table reads 0 tokens from the cache.",
                    correct=True,
                ),
                Choice(
                    "Nothing: the same tools in another order are the same definitions",
                    "The cache matches the prefix exactly, in order, not as a set of definitions.",
                ),
                Choice(
                    "Only the tools part: the system prompt and messages after it are still read from the cache",
                    "The cache is a prefix: once an early part changes, nothing after it matches either.",
                ),
            ),
            reads="tools sorted by name 0 1323",
        ),
        Question(
            "Why does deferred loading keep the cache when a search finds a tool?",
            (
                Choice(
                    "The tool was declared up front; the search returns a tool_reference in the messages",
                    "The tools array does not change, so the cached prefix stays: the cell prints invalidates: none.",
                    correct=True,
                ),
                Choice(
                    "Deferred tools are never sent, so the tools array holds the search tool alone",
                    "They are declared in tools, with defer_loading: true; the cell counted 4 deferred.",
                ),
                Choice(
                    "The search appends the found tool to the end of tools, and appending never breaks a cache",
                    "A change to tools changes the start of the prefix: the client that added the found tool read 0 "
                    "tokens from the cache.",
                ),
            ),
            reads="found tool added to tools invalidates: tools read from cache (est.): 0",
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
                    "Set parallel_tool_calls to false, so only one tool can be called",
                    "That limits how many calls come at once, not which tools.",
                ),
                Choice(
                    "Anthropic: tool_choice with a list of allowed tool names, like OpenAI's",
                    "Anthropic's tool_choice carries only a type, one tool name and disable_parallel_tool_use; its "
                    "nearest control is a tool_removal tool change.",
                ),
            ),
            reads="tools array unchanged: True",
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
                    "A tool_result for the server_tool_use block, as for any call the model makes",
                    "Server tools run on the provider's side; your code answers only client tool_use blocks.",
                ),
                Choice(
                    "Nothing: the turn is over, and the text so far is the answer",
                    "A paused turn is not finished; end_turn says that.",
                ),
            ),
            reads="roles sent to resume: ['user', 'assistant'] -> end_turn",
        ),
        Question(
            "You send sales_order_search with allowed_callers naming code execution, but no code-execution tool. What comes back?",
            (
                Choice(
                    "A 400: a program calls the tool from inside code execution, so that tool must be sent",
                    "allowed_callers is lesson 09's code_mode_access on the wire, and the caller it names must be "
                    "sent with it.",
                    correct=True,
                ),
                Choice(
                    "A normal reply: allowed_callers is a hint, like MCP's annotations, that nothing checks",
                    "It is a documented constraint, not a hint: the capture server, reading the docs, refuses the request.",
                ),
                Choice(
                    "A normal reply, with the program caller dropped so only the model may call it",
                    "Nothing is dropped quietly: the request is refused with a message that names the missing tool.",
                ),
            ),
            reads="400 tools.0.allowed_callers: 'code_execution_20250825' names a code execution tool that is not in tools",
        ),
    )
)
