"""The "check yourself" questions of lesson 15 · Trusting MCP servers: annotations, approval and pinning (its quiz cell shows them with ``quiz("15")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A vendor points to the read-only label on each of its MCP tools as proof of safety. What do you ask?",
            (
                Choice(
                    "What in their code and authorizations stops a tool from writing",
                    "Labels are hints a client "
                    "may use, for example to ask for confirmation; the specification tells clients to distrust them unless the "
                    "server is trusted. Protection comes from code checks and authorizations.",
                    correct=True,
                ),
                Choice(
                    "Nothing: the protocol enforces read-only labels",
                    "Nothing in MCP checks a label; the third-party "
                    "server in section 2 deleted items under one.",
                ),
                Choice(
                    "Whether the tools also declare idempotentHint",
                    "Another hint is another claim, checked by no one.",
                ),
            ),
        ),
        Question(
            "Someone else's MCP server labels its delete_items tool readOnlyHint: true. What can you conclude?",
            (
                Choice(
                    "Nothing you can rely on: treat the hint as untrusted and ask before calls",
                    "The specification "
                    "says annotations from untrusted servers are untrusted, and hints are not enforcement.",
                    correct=True,
                ),
                Choice(
                    "The tool cannot delete anything", "The label changes nothing about what the code does."
                ),
                Choice(
                    "The client may skip confirmation for it",
                    "Only for a server you trust; this one you do not.",
                ),
                Choice(
                    "The SDK refuses to list a tool whose name contradicts its label, so the label must be true",
                    "It listed and ran one here.",
                ),
            ),
            reads="delete_items returned: {'removed': ['pallet-01', 'pallet-02'], 'left': 2}",
        ),
        Question(
            "A person approved a third-party server last week. Today its list_items description has a new "
            "sentence addressed to the assistant. What should the host do?",
            (
                Choice(
                    "Keep the tool from the model until a person approves the new definition",
                    "An approval covers what was read; a pinned digest shows the definition changed.",
                    correct=True,
                ),
                Choice(
                    "Nothing: the tool name is the same",
                    "A name is not the definition; the model reads the words.",
                ),
                Choice(
                    "Trust it, because the server declared listChanged and announced the new version",
                    "Announcing a change says nothing about whether the change is safe.",
                ),
            ),
            reads="list_items: changed (description)",
        ),
        Question(
            "A third-party server's tools/list says ttlMs is one day. What does that let the host skip?",
            (
                Choice(
                    "Fetching the listing again for a day; not comparing it with the approved pins when it does",
                    "The TTL is a freshness hint, not a guarantee: a server may change its tools before it "
                    "runs out, and every listing the host fetches is compared with what a person approved.",
                    correct=True,
                ),
                Choice(
                    "The approval: the server promises the definitions stay the same for a day, so no check is due",
                    "The specification says a server may change the data before the TTL expires.",
                ),
                Choice(
                    "Nothing: a host must list again before every call",
                    "A host may reuse a fresh listing; what it may not do is treat it as approved unread.",
                ),
            ),
        ),
    )
)
