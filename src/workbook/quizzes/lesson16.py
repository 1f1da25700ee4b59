"""The "check yourself" questions of lesson 16 · Results across the loop (its quiz cell shows them with ``quiz("16")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "In the per-call table, the mirror's query result arrives after model call 1: chars sent jump from "
            "1434 to 7482. Which model calls send that result?",
            (
                Choice(
                    "Calls 2, 3, 4 and 5: each one sends the whole conversation again",
                    "The API keeps nothing between calls, so every later call carries the result once more.",
                    correct=True,
                ),
                Choice(
                    "Call 2 only: later calls build on what the model has already read",
                    "A model API keeps no memory between calls; the chars sent stay above 7482 in calls 3 to 5.",
                ),
                Choice(
                    "Call 2; calls 3 to 5 fetch it from the prompt cache instead of sending it",
                    "The cache changes what re-sent tokens cost, not whether they are sent: they are in every "
                    "later call's chars sent.",
                ),
            ),
            reads="mirror 2 query 7482",
        ),
        Question(
            "The cache table prices the mirrored run at 3545 full-price tokens, though it sends 8998. Which "
            "statement holds?",
            (
                Choice(
                    "All 8998 are still sent and fill the context window; most of them are only cheaper",
                    "The cache changes what most re-sent tokens cost, not whether they are sent or how much of "
                    "the window they take.",
                    correct=True,
                ),
                Choice(
                    "Only 2300 are sent; the 6698 read from the cache stay on the provider's side",
                    "Read from cache counts tokens that were sent again in full and read at a lower price.",
                ),
                Choice(
                    "Cached, the mirror costs about what the designed run costs, so result size stops mattering",
                    "The same table prices the designed run at 2268: the mirror still costs more with a cache.",
                ),
            ),
            reads="mirror 8998 6698 2300 3545",
        ),
        Question(
            "Truncating at 1,000 characters with a note sent 4028 tokens, without one 3846; both kept 5 of 8 "
            "facts. What does the note buy?",
            (
                Choice(
                    "No fact back, but the model learns that most of the list is missing and how to ask",
                    "The same three facts are lost either way; only with the note does the text say so.",
                    correct=True,
                ),
                Choice(
                    "Two facts back: the note names the orders it cut, so count and newest survive",
                    "The note says how many characters were cut, not which orders: count, newest and items are "
                    "lost in both rows.",
                ),
                Choice(
                    "Nothing: with the same facts kept, the extra tokens are waste",
                    "Without the note the model reads a cut list as the whole list and answers from it; the note "
                    "is what lets it ask again.",
                ),
            ),
            reads="truncate at 1,000, with note 5 4028 4972 5/8",
        ),
        Question(
            "Reading every page kept all 8 facts but sent 13,532 tokens, more than carrying the list whole. Why?",
            (
                Choice(
                    "Each page is another round trip, and every later call re-sends the pages before it",
                    "Eight model calls instead of five: pagination pays off when the model stops at the page it "
                    "needs.",
                    correct=True,
                ),
                Choice(
                    "Each page carries the rows of the pages before it, so the list is sent several times",
                    "A page holds only its own rows: the first page printed 4711 and 4730, a total and a cursor.",
                ),
                Choice(
                    "The cursor is long, and each page's cursor is counted again on every later call",
                    'The cursor here is one character, "2"; the cost is the three extra model calls.',
                ),
            ),
            reads="pages of 2, every page 8 13532 -4532 8/8",
        ),
        Question(
            'The summary of get_order_details reads "...; 2 items." and the table shows items and date lost. '
            "What decided what it dropped?",
            (
                Choice(
                    "The rule that wrote it, fixed before anyone asked about items or dates",
                    "A summary keeps what its writer judged would matter; a later question may need something "
                    "else.",
                    correct=True,
                ),
                Choice(
                    'Nothing was dropped: "2 items" is the items, so a model can still answer what is on the order',
                    "A count is not the items: TG12 and TG14 are in no message any more, so the fact is lost.",
                ),
                Choice(
                    "Its token budget: a summary keeps as many facts as fit, and dates come last",
                    "The summary rule has no budget; it keeps the fields it was written to keep, whatever their "
                    "size.",
                ),
            ),
            reads="get_order_details: Order 4711 for customer 10023: 1800.00 EUR, blocked: TotalCreditCheckStatus B; 2 items.",
        ),
        Question(
            "Which design keeps the follow-up facts within reach without carrying them on every step?",
            (
                Choice(
                    "A concise default, with a detail switch and filters the model uses when it needs more",
                    "The definitions say how to get more, so the larger result is paid for only on the step "
                    "that needs it.",
                    correct=True,
                ),
                Choice(
                    "Always return the detailed record, so no follow-up needs a second call",
                    "Then every later step re-sends details that are 2.8 times the concise size, asked for or "
                    "not.",
                ),
                Choice(
                    "A bigger host cap on tool output, so no result is ever cut off",
                    "A cap limits one huge result; it does nothing about a modest result re-sent on every step.",
                ),
            ),
            reads="detailed is 2.8 times the concise size",
        ),
        Question(
            "For order 4711, concise returned 190 characters and detailed 525. What do detailed's extra fields hold?",
            (
                Choice(
                    "Dates, the customer's PO number and the items: facts a follow-up may need",
                    "They answer later questions; the default leaves them out until the model asks with detail.",
                    correct=True,
                ),
                Choice(
                    "The concise fields again, written out at greater length",
                    "The printout lists fields concise does not have, such as created_on and "
                    "requested_delivery_date.",
                ),
                Choice(
                    "The mirror's whole order record: all 26 fields of get_order_details",
                    "detailed adds five named fields to concise's seven; the mirror's record, printed for "
                    "exercise 1, is another thing.",
                ),
            ),
            reads="concise 190 characters, fields: sales_order, customer, customer_name, net_value, currency, blocked, block_reason",
        ),
        Question(
            "The price table has two Anthropic rows, claude-haiku-5-5 and claude-haiku-4-5. You price the loop for "
            "a new model. Where do its cache figures come from?",
            (
                Choice(
                    "From that model's own row on its provider's pricing page, with the date you read it",
                    "Prices are per model, not per provider, and they change: a figure needs its page and its "
                    "date.",
                    correct=True,
                ),
                Choice(
                    "From the provider: one price list holds for all of its models",
                    "The two Haiku rows differ in input, cache write and cache read alike.",
                ),
                Choice(
                    "From any row: Anthropic's default and OpenAI's cost the same, so prices match across models",
                    "They match for these two models on the date read; claude-haiku-4-5 shows a model that costs "
                    "far more.",
                ),
                Choice(
                    "From last term's table: model prices only ever fall",
                    "Some fall, some rise, models retire; a figure without a date cannot tell you which.",
                ),
            ),
            reads="claude-haiku-4-5 1.0 1.250 0.10",
        ),
    )
)
