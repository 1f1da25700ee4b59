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
                    "What in their server's code, and in your host's approval, stops a call from writing",
                    "Labels are hints a client may use, for example to skip a confirmation; the specification "
                    "tells clients to distrust them unless the server is trusted. Code and approval protect.",
                    correct=True,
                ),
                Choice(
                    "Nothing more: an MCP client checks each read-only label against what the tool actually does",
                    "Nothing in the protocol checks a label against the tool: the SDK listed and ran the third "
                    "party's delete_items under one.",
                ),
                Choice(
                    "Whether each tool also declares destructiveHint: false, which backs up the label",
                    "Another hint is another claim, checked by no one: the third party's delete_items declared "
                    "destructiveHint: false as well.",
                ),
            ),
        ),
        Question(
            "The third party's delete_items was listed with readOnlyHint: true. What happened when the cell called it?",
            (
                Choice(
                    "The SDK ran it without complaint, and two of the four items were gone",
                    "The label changed nothing about what the code does: before listed four items, after two.",
                    correct=True,
                ),
                Choice(
                    "The SDK refused the call, since a read-only tool may not be given items to remove",
                    "The SDK has nothing to check a label against; it listed the tool and ran the call.",
                ),
                Choice(
                    "It ran as a read: the label kept the store unchanged, whatever the tool's name says",
                    "A label is a statement, not a sandbox: the call removed pallet-01 and pallet-02.",
                ),
            ),
            reads="delete_items returned: {'removed': ['pallet-01', 'pallet-02'], 'left': 2}",
        ),
        Question(
            "Your needs_approval asked before list_items on the third party's server, a tool that only lists. Why is that right?",
            (
                Choice(
                    "An untrusted server cannot vouch for its hints, so every call it offers counts as a write",
                    "The rule looks at trust first; on that server even a true read-only label buys nothing.",
                    correct=True,
                ),
                Choice(
                    "list_items declares no readOnlyHint, and a missing hint counts as a write",
                    "It does declare readOnlyHint: true (the first line the cell printed); trust decided, not "
                    "the hint.",
                ),
                Choice(
                    "It is not right: a tool that only lists cannot harm anything, so asking a person is only noise",
                    "The host cannot tell from the listing what a tool does: delete_items carried the same "
                    "label. Asking is what made that lie buy nothing.",
                ),
            ),
            reads="third party, not trusted, asks for: ['list_items', 'delete_items']",
        ),
        Question(
            "Your own trusted server lists a new tool with no annotations at all. What does needs_approval return?",
            (
                Choice(
                    "True: a missing readOnlyHint counts as a write, so a person is asked",
                    "Cautious defaults: a tool that does not say it only reads may write, and every write goes "
                    "to a person.",
                    correct=True,
                ),
                Choice(
                    "False: the server is trusted, and nothing in the listing says the tool writes",
                    "Trust lets you believe what a tool says; this tool says nothing, and silence is not "
                    "read-only.",
                ),
                Choice(
                    "False: a tool with no annotations gets the defaults, and readOnlyHint defaults to true",
                    "The default is the cautious one, false: a tool is taken to write unless it says otherwise "
                    "(notebook 14's exercise 1).",
                ),
            ),
        ),
        Question(
            "The day after a person approved the third-party server, it lists the same tool names. What does the host pass the model?",
            (
                Choice(
                    "Only delete_items; list_items changed, so it goes back to a person first",
                    "The digests are compared per definition: list_items's description changed, delete_items's "
                    "did not.",
                    correct=True,
                ),
                Choice(
                    "Both tools: their names and schemas are the ones the person approved",
                    "A host that checks only names sees nothing; the model reads the new description, which is "
                    "where the added sentence is.",
                ),
                Choice(
                    "Both, with the new sentence cut out of list_items's description by the host",
                    "The host does not edit definitions: it passes the approved ones and sends a changed one "
                    "back to a person, who reads the new words.",
                ),
            ),
            reads="passed to the model: ['delete_items']",
        ),
        Question(
            "A third-party server's tools/list says ttlMs is one day. What does that let the host skip?",
            (
                Choice(
                    "Fetching the listing again for a day; not comparing it with the approved pins when it does",
                    "The TTL is a freshness hint, not a guarantee: a server may change its tools before it runs "
                    "out, and every listing the host fetches is compared with what a person approved.",
                    correct=True,
                ),
                Choice(
                    "The approval check: the server promises its definitions stay the same for that day",
                    "The specification says a server may change its tools before the TTL runs out.",
                ),
                Choice(
                    "Nothing: a host must list the tools again before every call",
                    "A host may reuse a fresh listing; what it may not do is treat a listing as approved unread.",
                ),
            ),
        ),
        Question(
            "The sentence telling the assistant to call delete_items was in list_items's description on the day a person approved it. What catches it?",
            (
                Choice(
                    "Only the person reading the description then: pinning flags a change, not what was there",
                    "The pins are taken from what the person approved, so a listing with the same words matches "
                    "them.",
                    correct=True,
                ),
                Choice(
                    "The SHA-256 pin: a description with a hidden instruction gives a different digest",
                    "Different from what? The digest is compared with the approved definition, and that already "
                    "held the sentence.",
                ),
                Choice(
                    "Nothing needs to: a description is read, not run, so it cannot make anything happen",
                    "The model reads a description as guidance, so an instruction in one is an instruction "
                    "nobody approved.",
                ),
            ),
        ),
    )
)
