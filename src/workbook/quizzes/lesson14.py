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
                    "An unknown tool is a protocol error in the specification; the call never reached a tool, "
                    "and the host's code reads the error.",
                    correct=True,
                ),
                Choice(
                    "A result with isError: true, as the SDK's MCPServer sends",
                    "MCPServer does answer so in SDK 2.3.0, but the specification (revision 2026-07-28) asks "
                    "for a protocol error; that is why the lesson serves with the low-level Server.",
                ),
                Choice(
                    "An empty result, since no tool ran",
                    "An empty result would look like a success that found nothing.",
                ),
            ),
            reads="unknown tool -> -32602 Unknown tool: sales_order_release",
        ),
        Question(
            "A call's arguments leave out a field the tool's input schema requires. What comes back, by "
            "revision 2026-07-28?",
            (
                Choice(
                    "A result with isError: true, which the model reads",
                    "Input validation has been a tool execution error since revision 2025-11-25, and "
                    "2026-07-28 keeps it so the model can correct the call.",
                    correct=True,
                ),
                Choice(
                    "A JSON-RPC error the model never sees, as for an unknown tool",
                    "Revision 2025-06-18 listed invalid arguments among protocol errors; since 2025-11-25 "
                    "those are for unknown tools and malformed requests.",
                ),
                Choice(
                    "Nothing: the host drops the call",
                    "Dropping it leaves the model guessing what happened.",
                ),
            ),
            reads="isError: True | sales_order_search was not run: blocked_only missing; limit missing.",
        ),
        Question(
            "The mirrored get_order declares no annotations at all. What should a host assume?",
            (
                Choice(
                    "It may write, may destroy, is not safe to repeat and reaches outside systems",
                    "Every missing hint takes MCP's cautious default: readOnlyHint false, destructiveHint "
                    "true, idempotentHint false, openWorldHint true.",
                    correct=True,
                ),
                Choice(
                    "It is read-only, since its name says it gets an order",
                    "A host reads hints, not names; a missing readOnlyHint means false: it may write.",
                ),
                Choice(
                    "The server is broken and its tools must not be listed",
                    "Annotations are optional; the mirrored set declares none and is served like any other.",
                ),
            ),
            reads="get_order {'readOnlyHint': False, 'destructiveHint': True, 'idempotentHint': False, 'openWorldHint': True}",
        ),
        Question(
            "A tool lists an output schema, then returns a result without the 'complete' field the schema "
            "requires. What happens?",
            (
                Choice(
                    "The client refuses the result",
                    "Once it has listed a tool, the SDK's client checks every successful result against the "
                    "output schema and refuses one that does not fit.",
                    correct=True,
                ),
                Choice(
                    "The model gets the result and reads the missing field as false",
                    "The result never reached a model: the client refused it first. A named field is a promise "
                    "the host can check.",
                ),
                Choice(
                    "Nothing: an output schema is documentation for people",
                    "The client holds each structuredContent to it; here it refused the sloppy tool's result.",
                ),
            ),
            reads="Invalid structured content returned by tool customer_get_address_gaps: 'complete' is a required property",
        ),
        Question(
            "Served, the designed set's whole listing is about 1800 tokens, while the model's part is 995. What "
            "makes the difference?",
            (
                Choice(
                    "The output schemas and the annotations, which go to the host",
                    "The host receives more than a model needs; whether it passes output schemas on is its "
                    "choice, so the whole listing is the upper bound.",
                    correct=True,
                ),
                Choice(
                    "Serving rewrites the descriptions at greater length",
                    "The model's part is byte for byte the direct definitions (995 both ways), and the lint "
                    "finds the same through the client.",
                ),
                Choice(
                    "The JSON-RPC envelope that every call pays again",
                    "The table measures the listing, not the calls; what it adds is the output schemas and "
                    "the annotations.",
                ),
            ),
            reads="designed 5 995 995 1800",
        ),
        Question(
            "Under revision 2026-07-28, a tool must relate one call to the next (a draft, a basket). Where does "
            "that state live?",
            (
                Choice(
                    "On the server, under a handle the model passes back in each call",
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
        Question(
            "The server's listing carries ttlMs: 300000 and cacheScope: public. What follows when you change a "
            "description?",
            (
                Choice(
                    "Hosts may show the old one for up to five minutes",
                    "A changed definition can reach a host late. The TTL is a freshness hint, so a host that "
                    "approved a definition compares every listing it fetches (notebook 15).",
                    correct=True,
                ),
                Choice(
                    "Nothing: the server may not change its tools before 300 seconds pass",
                    "The TTL is a hint, not a promise: a server may change a definition before it runs out.",
                ),
                Choice(
                    "Each user keeps a private copy of the old listing",
                    "public means the listing is the same for every caller: it holds nothing per user.",
                ),
            ),
            reads="ttlMs: 300000 | cacheScope: public",
        ),
        Question(
            "Under revision 2026-07-28, a tool needs an answer from a person before it can go on. How does it "
            "ask?",
            (
                Choice(
                    "It returns resultType input_required with its questions; the client retries with the answers",
                    "The server's state travels in the retried request, not in memory (R38).",
                    correct=True,
                ),
                Choice(
                    "It sends the client an elicitation request and waits on the open connection",
                    "That is the older way: since revision 2026-07-28 a server no longer sends its own requests "
                    "(elicitation, sampling, roots); its questions come back as a result, and the client "
                    "retries the call.",
                ),
                Choice(
                    "It keeps the question in the session and asks it on the next call",
                    "Revision 2026-07-28 has no sessions, and a server must not rely on earlier requests.",
                ),
            ),
        ),
    )
)
