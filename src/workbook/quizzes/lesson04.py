"""The "check yourself" questions of lesson 04 · Designed tools (its quiz cell shows them with ``quiz("04")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A clerk asks for all orders of 10023. Which sentence of the block summary's description says "
            "that this request belongs to another tool?",
            (
                Choice(
                    "The fourth: 'Not for a customer's list of orders (use sales_order_search)...'",
                    "The boundary clause says which requests belong elsewhere, and which neighbour "
                    "takes them.",
                    correct=True,
                ),
                Choice(
                    "The third: 'Use it when the user names an order...', which says when to use it",
                    "It says when this tool fits, not which tool serves the rest. Only the boundary clause "
                    "names one.",
                ),
                Choice(
                    "The first: 'Explains why one sales order is blocked...', whose 'one' rules out lists",
                    "'One' hints at it, but only the boundary clause names the request and the tool to use "
                    "instead.",
                ),
            ),
            reads="the boundary clause: Not for a customer's list of orders (use sales_order_search)",
        ),
        Question(
            "The designed definitions come to about 995 tokens, 3.4 times the mirror's 296. "
            "What does the lesson make of that?",
            (
                Choice(
                    "It is paid on every call, and worth it if it saves wrong calls",
                    "The definitions are sent with every model call. The extra text has to earn its place.",
                    correct=True,
                ),
                Choice(
                    "It is paid once, when the set is first sent to the model",
                    "The definitions are sent with every model call, so the 995 tokens come back each time.",
                ),
                Choice(
                    "Longer is safer, so a fifth sentence per tool would help more",
                    "The course stops at four sentences and 80 words: a cue late in a long description "
                    "competes with every sentence before it.",
                ),
            ),
            reads="designed / mirror: 3.4 times",
        ),
        Question(
            "The strict-mode checker reports of the mirror's query: 'not in required: filter'. "
            "What makes query's schema strict-ready?",
            (
                Choice(
                    "List filter in required, type it string or null, and close the object",
                    "OpenAI's function-calling guide asks for every field in required, null for 'not given' "
                    "and additionalProperties false. The checker flagged the missing field and the open object.",
                    correct=True,
                ),
                Choice(
                    'Give filter a default of "" and leave it out of required',
                    "Strict mode wants every field in required. Null, not a default, says 'not given'.",
                ),
                Choice(
                    "Nothing: it is valid JSON Schema, and strict mode takes any valid schema",
                    "Strict mode takes a documented subset: closed objects and every field required, as "
                    "the checker reports.",
                ),
            ),
            reads="[strict-required] (top level): not in required: filter",
        ),
        Question(
            "Why does customer_get_credit_exposure return the approver instead of leaving the policy to "
            "the prompt?",
            (
                Choice(
                    "Code applies the rule the same way every time, edges included",
                    "Written in a prompt, a model may apply the rule. Written in code, it holds at the edges "
                    "too, such as exactly 5 % over.",
                    correct=True,
                ),
                Choice(
                    "A model cannot add 50,700 and 1,800, so the sum must come from code",
                    "The lesson does not say that. It says a rule in a prompt may be applied, and go wrong "
                    "at the edges.",
                ),
                Choice(
                    "The policy text is too long to fit in the model's context",
                    "Size is not the reason. A rule in code holds every time, at the edges too.",
                ),
            ),
        ),
        Question(
            "customer_get_credit_exposure for 10023 and order 4711 returned an exposure of 52,500 EUR, 5.0 % over the limit. Which approver did it name?",
            (
                Choice(
                    "CREDIT_MANAGER",
                    "Up to 5 % over the limit, exactly 5 % included, goes to the credit manager; the rule is "
                    "in code.",
                    correct=True,
                ),
                Choice(
                    "HEAD_OF_FINANCE",
                    "Only more than 5 % over the limit goes to the head of finance. 5.0 % is the edge, and "
                    "it stays with the credit manager.",
                ),
                Choice(
                    "none",
                    "The order's own 1,800 EUR is under the 50,000 EUR limit, but exposure adds the open "
                    "items (50,700 EUR), and it is the sum that is compared.",
                ),
            ),
            reads='"approver": "CREDIT_MANAGER"',
        ),
        Question(
            "For a clerk who may not see customer 10077, the block summary was asked for 4725 (10077's "
            "order) and 4799 (no such order). How did the two errors differ?",
            (
                Choice(
                    "Only in the number: both say the order is missing or hidden from this clerk",
                    "Word for word the same, so nobody learns that 4725 exists, and the model can still act.",
                    correct=True,
                ),
                Choice(
                    "4725's said access denied, so the model could tell the user to ask for rights",
                    "That would tell the clerk that 4725 exists. The designed error is the one given for "
                    "4799.",
                ),
                Choice(
                    "4799's was a bare '404', since a missing order has nothing to protect",
                    "Designed errors are never bare: both say what to do next, confirm the number or call "
                    "sales_order_search.",
                ),
            ),
            reads="4725 -> Sales order 4725 does not exist",
        ),
        Question(
            "sales_order_search for customer 10023 answered total 7, showing 5, and a note. What does the note let the model do?",
            (
                Choice(
                    "Call again with blocked_only or a higher limit, knowing 2 older orders are missing",
                    "The note says how many are left out and which arguments reach them, so 5 is not taken "
                    "for all.",
                    correct=True,
                ),
                Choice(
                    "Nothing: a model reads only the orders array; the note is for the developer",
                    "The whole result reaches the model, note included; that is why the note is written to it.",
                ),
                Choice(
                    "Page on with a cursor until all 7 have come",
                    "This tool has no cursor; the note names blocked_only and limit (up to 20).",
                ),
            ),
            reads="2 older orders are not shown. Set blocked_only to true to see only blocked ones, or raise limit (up to 20).",
        ),
        Question(
            "release_request_create declares readOnlyHint false, destructiveHint false and idempotentHint "
            "true. What keeps it from releasing order 4711?",
            (
                Choice(
                    "Its code: it only drafts a request, and no designed tool releases anything",
                    "The control is the code. A person approves or rejects the draft.",
                    correct=True,
                ),
                Choice(
                    "The hints: a client enforces them, so the tool cannot do more than draft",
                    "Hints describe a tool; they enforce nothing. The MCP specification tells clients to "
                    "distrust them unless they trust the server.",
                ),
                Choice(
                    "The model, which reads the hints and so leaves orders alone",
                    "The hints are written for the client. The definitions this course sends a model leave "
                    "them out.",
                ),
            ),
            reads="release_request_create False False True",
        ),
    )
)
