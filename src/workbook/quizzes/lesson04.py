"""The "check yourself" questions of lesson 04 · Designed tools (its quiz cell shows them with ``quiz("04")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Which sentence of a description matters most when two tools sit close together?",
            (
                Choice(
                    "The boundary clause",
                    "It says which requests belong to the neighbour, and names it, "
                    "which is exactly what the choice turns on.",
                    correct=True,
                ),
                Choice(
                    "The first sentence, which says what the tool does",
                    "It says what the tool does, but not where its neighbour's job begins.",
                ),
                Choice(
                    "The returns sentence",
                    "It says what comes back, but not where the neighbour's job begins.",
                ),
            ),
        ),
        Question(
            "A search tool's limit is optional. What keeps its schema acceptable to OpenAI's strict mode?",
            (
                Choice(
                    "Type limit as integer or null, keep it required",
                    "OpenAI's function-calling guide says strict "
                    "mode needs every field in required; null carries 'not given'. Other providers document their "
                    "own subsets.",
                    correct=True,
                ),
                Choice(
                    "Leave limit out of required, as JSON Schema allows for optional fields",
                    "Then OpenAI's strict mode refuses the schema: its guide asks for "
                    "every field in required.",
                ),
                Choice(
                    "Give limit a default of 5 in the schema and leave it optional",
                    "The model still has to know whether it may leave it out; null says it plainly.",
                ),
            ),
        ),
        Question(
            "Why does customer_get_credit_exposure return the approver instead of the policy text?",
            (
                Choice(
                    "A rule in code holds every time, edges included",
                    "The model explains a decision it did not have to compute.",
                    correct=True,
                ),
                Choice("To save tokens", "It does, a little, but that is not the reason."),
                Choice("Models cannot read policies", "They can, and they can also misapply them."),
            ),
        ),
        Question(
            "An order exists but belongs to a customer the user may not see. What should the error say?",
            (
                Choice(
                    "The same as for an order that does not exist",
                    "Then the error helps the model without telling anyone that the order exists.",
                    correct=True,
                ),
                Choice(
                    "'Access denied to order 4725', so the user knows to ask for rights",
                    "That confirms the order exists.",
                ),
                Choice("'404'", "It hides the fact, but gives the model nothing to act on."),
            ),
        ),
        Question(
            "The agent calls release_request_create twice for 4711. What happens?",
            (
                Choice(
                    "The second call returns the same draft",
                    "The tool is idempotent: one draft per order, and a person decides.",
                    correct=True,
                ),
                Choice(
                    "Two drafts wait for approval, one for each call", "That is what idempotency prevents."
                ),
                Choice(
                    "Order 4711 is released, since the second call confirms the first",
                    "No designed tool releases anything.",
                ),
            ),
            reads="A draft for this order already exists and is returned unchanged",
        ),
        Question(
            "sales_order_search for customer 10023 answered total 7, showing 5, and a note. What does the note let the model do?",
            (
                Choice(
                    "Call again with blocked_only or a higher limit, knowing 2 older orders are missing",
                    "The note says how many are left out and which arguments reach them, so 5 is not taken for all.",
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
            "customer_get_credit_exposure for 10023 and order 4711 returned an exposure of 52,500 EUR, 5.0 % over the limit. Which approver did it name?",
            (
                Choice(
                    "CREDIT_MANAGER",
                    "Up to 5 % over the limit, exactly 5 % included, goes to the credit manager; the rule is in code.",
                    correct=True,
                ),
                Choice(
                    "HEAD_OF_FINANCE, since the order takes the customer past the limit",
                    "Past the limit by more than 5 % goes to the head of finance; 5.0 % is the edge, and it stays with the credit manager.",
                ),
                Choice(
                    "none: the order's own 1,800 EUR is well under the 50,000 EUR limit",
                    "Exposure adds the open items (50,700 EUR) to the order; it is the sum that is compared with the limit.",
                ),
            ),
            reads='"approver": "CREDIT_MANAGER"',
        ),
    )
)
