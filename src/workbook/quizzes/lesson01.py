"""The "check yourself" questions of lesson 01 · The SAP order data (its quiz cell shows them with ``quiz("01")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            'Order 4711\'s header holds TotalCreditCheckStatus "B". Where does the text "Blocked by the '
            'credit check." come from?',
            (
                Choice(
                    "From the configured texts; the header carries only the code",
                    "The block_reasons table holds the text for each code. What a code means is configured "
                    "per system.",
                    correct=True,
                ),
                Choice(
                    "From the header, which spells out each code it holds",
                    'The printed header holds "B" and nothing more; the text is in another table.',
                ),
                Choice(
                    "From the model, which knows SAP's codes from its training data",
                    'What a code means is configured per system. A model that reads "B" has to guess.',
                ),
            ),
            reads="Blocked by the credit check.",
        ),
        Question(
            "A header leaves out HeaderBillingBlockReason, and pandas reads the gap as NaN. "
            "Does that field make the order blocked?",
            (
                Choice(
                    'No: an empty field is no code, whether it is "", None or NaN',
                    "The rule counts a field only when it holds a code, a non-empty string.",
                    correct=True,
                ),
                Choice(
                    "Yes: the field holds NaN, and Python counts NaN as true",
                    "Python does count NaN as true, which is why a bare truth test gets this wrong. "
                    "NaN is no code.",
                ),
                Choice(
                    "Yes: a field the API leaves out may hide a block, so count it",
                    "The course's rule looks for a code. A field that is missing holds none.",
                ),
            ),
        ),
        Question(
            "The fingerprint cell printed `0ddb86128243a5f8 0ddb86128243a5f8 identical`. What does that show?",
            (
                Choice(
                    "A second build wrote the very same bytes as the first",
                    "Both digests come from your machine, before and after a second sap.write(). A lab, a "
                    "grader and nbval all rely on that.",
                    correct=True,
                ),
                Choice(
                    "Your files match the copies the course shipped, so your build is right",
                    "Both digests come from your own machine: one before and one after a second build.",
                ),
                Choice(
                    "The two builds have the same rows, though their bytes may differ",
                    "A SHA-256 digest of the bytes matches only when every byte does.",
                ),
            ),
            reads="0ddb86128243a5f8 0ddb86128243a5f8 identical",
        ),
        Question(
            "Customer 10023 owes 50,700 EUR in open items, and order 4711 is worth 1,800 EUR. "
            "What is the exposure with that order?",
            (
                Choice("52,500 EUR", "Open items plus the order's value: 50,700 + 1,800.", correct=True),
                Choice(
                    "50,700 EUR", "That is the open items alone. It leaves out the order waiting for release."
                ),
                Choice(
                    "2,500 EUR",
                    "That is how far 52,500 EUR is over the 50,000 EUR limit, not the exposure itself.",
                ),
                Choice("1,800 EUR", "That is the order alone; the customer already owes more."),
            ),
            reads="10023 Nordhafen Tools GmbH Hauptstrasse 5 69190 Walldorf",
        ),
        Question(
            "The customers table shows one empty postal_code. Whose is it, and what does the orders table show for them?",
            (
                Choice(
                    "Donau Retail AG (10051), Vienna: its order 4723 has DeliveryBlockReason 01",
                    "The empty postal code and block 01, 'Incomplete: delivery address data missing.', are "
                    "one gap seen from two tables.",
                    correct=True,
                ),
                Choice(
                    "Lac Leman Instruments SA (10077): its order 4725 has DeliveryBlockReason 02",
                    "Geneva's postal code 1204 is there. Block 02 on 4725 is about pricing, as the price "
                    "conditions show.",
                ),
                Choice(
                    "Nordhafen Tools GmbH (10023): it is over its limit, so its credit status is B",
                    "Nordhafen's address is whole. Being over the limit is a credit matter, not a missing "
                    "postal code.",
                ),
            ),
            reads="10051 Donau Retail AG Vienna",
        ),
        Question(
            "The count printed `9 orders: 10023: 7, 10051: 1, 10077: 1`, and 10023 is over its credit "
            "limit. How many of its seven orders are blocked?",
            (
                Choice(
                    "One, 4711: only its credit status holds a code",
                    "The rule reads each order's own block fields. 4730 to 4735 hold no code.",
                    correct=True,
                ),
                Choice(
                    "All seven: a customer over its limit has every order blocked",
                    "The blocked rule looks at each order's block fields, not at the customer.",
                ),
                Choice(
                    "Two, 4711 and 4723, the two with a block code",
                    "4723 belongs to 10051, Donau Retail AG. Of 10023's orders only 4711 holds a code.",
                ),
            ),
            reads="9 orders: 10023: 7, 10051: 1, 10077: 1",
        ),
        Question(
            'The header printed `"TotalNetAmount": "1800.00"`. What must credit_exposure do with it?',
            (
                Choice(
                    "Turn it into a number with float() before adding it to the open items",
                    "The API sends every value as a string, amounts included, and the course reads them that "
                    "way.",
                    correct=True,
                ),
                Choice(
                    "Nothing: pandas reads every amount in the CSV as a number",
                    "The course reads the orders with every value as a string, as the API sends them. The "
                    "quotes show it.",
                ),
                Choice(
                    "Strip the EUR from it first, since the amount carries its currency",
                    "The currency is a field of its own, TransactionCurrency. The amount is digits and a "
                    "point.",
                ),
            ),
            reads='"TotalNetAmount": "1800.00"',
        ),
    )
)
