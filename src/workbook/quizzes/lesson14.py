"""The "check yourself" questions of lesson 14 · Serving tools over MCP (its quiz cell shows them with ``quiz("14")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A host calls a tool the server does not have. What comes back?",
            (
                Choice(
                    "A protocol error (JSON-RPC -32602), not a result",
                    "An unknown tool is a protocol error in the "
                    "specification; the call never reached a tool.",
                    correct=True,
                ),
                Choice(
                    "A result with isError: true, as for any failed tool call",
                    "That is for a tool that ran and failed, such as a malformed order number.",
                ),
                Choice("An empty result", "An empty result would look like success."),
            ),
            reads="unknown tool -> -32602 Unknown tool: sales_order_release",
        ),
        Question(
            "Why does a designed tool's 'digits only' error come back as an isError result?",
            (
                Choice(
                    "So the model reads it and can correct the call",
                    "A tool execution error is part of the "
                    "conversation; a protocol error goes to the host's code.",
                    correct=True,
                ),
                Choice(
                    "Because the server turns every exception into isError",
                    "The tool returned its error as data. "
                    "An exception would be a bug: the server reports it with a short generic text and counts it.",
                ),
                Choice(
                    "To hide the failure from the host, which would otherwise stop the run",
                    "The host sees isError too, and may count it.",
                ),
            ),
        ),
        Question(
            "A call's arguments leave out a field the tool's input schema requires. What comes back, by "
            "revision 2026-07-28?",
            (
                Choice(
                    "A result with isError: true, which the model reads",
                    "Input validation has been a tool execution "
                    "error since revision 2025-11-25, and 2026-07-28 keeps it so the model can correct the call.",
                    correct=True,
                ),
                Choice(
                    "A JSON-RPC error the model never sees, as for an unknown tool",
                    "Revision 2025-06-18 listed invalid arguments among "
                    "protocol errors; since 2025-11-25 those are for unknown tools and malformed requests.",
                ),
                Choice(
                    "Nothing: the host drops the call", "Dropping it leaves the model guessing what happened."
                ),
            ),
            reads="isError: True | sales_order_search was not run: blocked_only missing; limit missing.",
        ),
        Question(
            "A served tool declares no annotations at all. What should a host assume?",
            (
                Choice(
                    "It may write, destructively, and a repeat may not be harmless",
                    "The defaults assume the worst: "
                    "readOnlyHint false, destructiveHint true, idempotentHint false.",
                    correct=True,
                ),
                Choice("It is read-only", "A missing readOnlyHint means false: it may write."),
                Choice("The server is broken", "Annotations are optional; the mirrored set declares none."),
            ),
            reads="get_order {'readOnlyHint': False, 'destructiveHint': True, 'idempotentHint': False, 'openWorldHint': True}",
        ),
        Question(
            "What does a tool's outputSchema give the host?",
            (
                Choice(
                    "Named result fields it can check every structuredContent against",
                    "The SDK's client checks each successful result and refuses one that does not fit.",
                    correct=True,
                ),
                Choice(
                    "A guarantee the model reads the fields correctly and quotes them as given",
                    "It describes the data; the model still has to read it.",
                ),
                Choice(
                    "Nothing: it is documentation only",
                    "The client refused the sloppy tool's result in section 4.",
                ),
            ),
        ),
        Question(
            "Under revision 2026-07-28, a tool must relate one call to the next (a draft, a basket). Where does "
            "that state live?",
            (
                Choice(
                    "On the server under an explicit handle the model passes back in each call",
                    "The protocol has no session; state that spans requests is referenced by an identifier "
                    "the client sends, like the release tool's request id.",
                    correct=True,
                ),
                Choice(
                    "In the connection's session, which the server remembers between one call and the next",
                    "Revision 2026-07-28 removed sessions and the Mcp-Session-Id header; a server must not "
                    "rely on earlier requests on the same connection.",
                ),
                Choice(
                    "In the listing's cache, for its ttlMs",
                    "The TTL says how long a host may reuse a listing; it holds no call's state.",
                ),
            ),
        ),
    )
)
