"""The "check yourself" questions of lesson 16 · Results across the loop (its quiz cell shows them with ``quiz("16")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A tool result of 6,000 characters arrives at step 1 of a five-call task. How often is it paid for?",
            (
                Choice(
                    "On every later model call: four times here",
                    "The API keeps no state; each call re-sends the conversation, this result included.",
                    correct=True,
                ),
                Choice(
                    "Once, when it arrives; later calls reuse what the model already read",
                    "It is sent once to your code, then again with every model call after it.",
                ),
                Choice(
                    "Never: results are free, only definitions cost",
                    "Results are input tokens like any other text.",
                ),
            ),
        ),
        Question(
            "You cut results at 1,000 characters without a note. What is the risk?",
            (
                Choice(
                    "The model answers from a partial list as if it were complete",
                    "Nothing in the text says that "
                    "more exists, so 'how many orders' gets a confident wrong answer.",
                    correct=True,
                ),
                Choice(
                    "The model cannot parse the cut JSON, so it calls the tool again and again",
                    "It may or may not; it has no way to know what is missing or how to get it.",
                ),
                Choice(
                    "None: the first 1,000 characters are the important ones",
                    "Order in the result is not importance; here the newest orders sat at the end.",
                ),
            ),
            reads="truncate at 1,000, no note",
        ),
        Question(
            "Reading every page of a paginated list cost more than carrying the list whole. Why?",
            (
                Choice(
                    "Each page is another round trip, and every later call re-sends all earlier pages",
                    "Pagination pays off when the model stops after the page it needs.",
                    correct=True,
                ),
                Choice(
                    "The cursor is very long, and each page's cursor token is counted again on every call",
                    "The cursor is a few characters.",
                ),
                Choice("Pages repeat rows", "They do not; the cost is the extra calls."),
            ),
        ),
        Question(
            "A summary kept the blocked order and dropped the items. What decided that?",
            (
                Choice(
                    "The rule (or model) that wrote the summary, before anyone asked about items",
                    "A summary keeps "
                    "what its writer thought mattered; a later question may need something else.",
                    correct=True,
                ),
                Choice("The items were wrong", "They were correct; they were not in the summary."),
                Choice("The token estimate", "The estimate measures; it decides nothing."),
            ),
        ),
        Question(
            "Which change keeps the follow-up facts available without carrying them on every step?",
            (
                Choice(
                    "A concise default plus a detail switch and filters the model can use when it needs more",
                    "The definitions say how to get more, so it is fetched only when asked.",
                    correct=True,
                ),
                Choice(
                    "Always return the detailed record",
                    "Then every step re-sends the details nobody asked for.",
                ),
                Choice(
                    "A bigger host cap on tool output, so the full record always fits and nothing is cut off",
                    "A cap limits one result; it does not make results smaller.",
                ),
            ),
            reads="detailed is 2.8 times the concise size",
        ),
        Question(
            "You price the same loop for a new model. Where do the cache write and cache read figures come from?",
            (
                Choice(
                    "From that model's row on its provider's pricing page, with the date you read it",
                    "Prices and cache multipliers differ from model to model within one provider, and they change.",
                    correct=True,
                ),
                Choice(
                    "From the provider's general cache discount: one rate that holds for all of its models",
                    "One provider's models differ: older ones read the cache at a larger share of the input price.",
                ),
                Choice(
                    "From last term's table: prices only fall",
                    "Some fall, some rise, models retire; a figure without a date cannot tell you which.",
                ),
            ),
        ),
        Question(
            "For one order, concise returned 190 characters and detailed 525. What do detailed's extra fields hold?",
            (
                Choice(
                    "Dates, the customer's PO number and the items: facts a follow-up may need",
                    "They answer later questions; the default leaves them out until the model asks with detail.",
                    correct=True,
                ),
                Choice(
                    "The concise fields again, written out at greater length",
                    "The printout lists fields concise does not have, such as created_on and requested_delivery_date.",
                ),
                Choice(
                    "The raw SAP record: all 26 fields get_order returns",
                    "detailed adds a few named fields; the raw record is the mirror's, at 843 characters.",
                ),
            ),
            reads="concise 190 characters, fields: sales_order, customer, customer_name, net_value, currency, blocked, block_reason",
        ),
    )
)
