"""The "check yourself" questions of lesson 01 · The SAP order data (its quiz cell shows them with ``quiz("01")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            'A mirrored tool returns TotalCreditCheckStatus: "B". What does a model know from that?',
            (
                Choice(
                    "Only what it guesses",
                    "What a code means is configured per system; without the configured "
                    "text a model can only guess.",
                    correct=True,
                ),
                Choice(
                    "That the order is blocked by credit", "Here it is, but the code alone does not say so."
                ),
                Choice("That the customer is bankrupt", "Nothing in the record says that."),
            ),
        ),
        Question(
            'Order 4723 has DeliveryBlockReason "01" and nothing else. Is it blocked?',
            (
                Choice(
                    "Yes",
                    "Any of the three block fields holding a code makes an order blocked.",
                    correct=True,
                ),
                Choice("No, only a credit block counts", "Delivery and billing blocks count too."),
                Choice(
                    "Only if the customer is over the limit",
                    "The blocked rule looks at the block fields only.",
                ),
            ),
        ),
        Question(
            "Why must the data rebuild byte-identical?",
            (
                Choice(
                    "So every learner and every test sees the same figures",
                    "A lab, a grader and nbval all compare numbers; they must not depend on luck.",
                    correct=True,
                ),
                Choice(
                    "So the files compress well and the repository stays small on disk",
                    "Size has nothing to do with it.",
                ),
                Choice("Because pandas requires it", "pandas does not care; the course does."),
            ),
        ),
        Question(
            "Customer 10023 owes 50,700 EUR and order 4711 is worth 1,800 EUR. What is the exposure?",
            (
                Choice("52,500 EUR", "Open items plus the order's value.", correct=True),
                Choice("50,700 EUR", "That leaves out the order that is waiting for release."),
                Choice(
                    "1,800 EUR, the order alone", "That is the order alone; the customer already owes more."
                ),
            ),
            reads="10023 Nordhafen Tools GmbH Hauptstrasse 5 69190 Walldorf",
        ),
        Question(
            "The customers table shows one empty postal_code. Whose is it, and what does the orders table show for them?",
            (
                Choice(
                    "Donau Retail AG (10051): its order 4723 has DeliveryBlockReason 01",
                    "The empty postal code and block 01, 'Incomplete: delivery address data missing.', are one gap seen from two tables.",
                    correct=True,
                ),
                Choice(
                    "Lac Leman Instruments SA (10077): its order 4725 has DeliveryBlockReason 02",
                    "Geneva's postal code 1204 is there; block 02 on 4725 is about pricing, as the price conditions show.",
                ),
                Choice(
                    "Nordhafen Tools GmbH (10023): it is over its credit limit, so TotalCreditCheckStatus is B",
                    "Nordhafen's address is whole; being over the limit is a credit matter, not a missing postal code.",
                ),
            ),
            reads="10051 Donau Retail AG Vienna",
        ),
    )
)
