"""The "check yourself" questions of lesson 02 · The cold-chain data (its quiz cell shows them with ``quiz("02")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A chilled load reads exactly 8.0 °C three times in a row; its limit is 8.0 °C. "
            "What does the claim rule make of it?",
            (
                Choice(
                    "No breach: a reading at the limit is not above it",
                    "The rule counts readings strictly above the limit. Touching it makes no run at all.",
                    correct=True,
                ),
                Choice(
                    "A 90-minute breach, longer than the 60 allowed, so 240 EUR",
                    "That counts readings at the limit as above it. Only readings strictly above count.",
                ),
                Choice(
                    "A 90-minute near miss, listed but not paid",
                    "The near-miss table lists runs above the limit that are too short to pay. Readings at "
                    "the limit make a run of 0 minutes, so it leaves them out.",
                ),
            ),
        ),
        Question(
            "A frozen load has two separate breaches of 60 minutes each. What does it claim?",
            (
                Choice(
                    "Nothing: only the longest run counts, and 60 minutes is allowed",
                    "The rule judges the longest run alone, and a run of exactly 60 minutes is allowed.",
                    correct=True,
                ),
                Choice(
                    "480 EUR: 120 minutes above the limit, two started hours",
                    "The runs are not added up. The rule looks at the longest run alone.",
                ),
                Choice(
                    "480 EUR: each run is one started hour at 240 EUR",
                    "Runs are not paid one by one. The longest is judged, and at 60 minutes it pays nothing.",
                ),
            ),
        ),
        Question(
            "A breach lasts 150 minutes on a frozen load, SHP-2047 in the claims table. "
            "What does it claim, and why?",
            (
                Choice(
                    "720 EUR: three started hours at 240 EUR",
                    "150 minutes start three hours, and every started hour is paid at the frozen rate.",
                    correct=True,
                ),
                Choice(
                    "600 EUR: two and a half hours at 240 EUR",
                    "The rule pays every started hour, so 2.5 hours are paid as 3.",
                ),
                Choice(
                    "480 EUR: the 90 minutes past the allowance",
                    "The allowance decides whether a run pays. Once it does, the whole run is paid.",
                ),
                Choice(
                    "360 EUR: three started hours at the 120 EUR rate",
                    "120 EUR an hour is the chilled rate; a frozen load pays 240.",
                ),
            ),
            reads="SHP-2047 FROZEN Meridian Cargo 150 720",
        ),
        Question(
            "A model fetches every shipment's readings with one tool call per shipment. "
            "What enters its context?",
            (
                Choice(
                    "Every result: about 48 KB of readings in all, plus the calls",
                    "Each result joins the conversation. Notebook 08 shows how a program keeps them out.",
                    correct=True,
                ),
                Choice(
                    "Only the latest result, since each new one replaces the last",
                    "Results are added to the conversation and stay there; nothing replaces them.",
                ),
                Choice(
                    "Nothing: tools run outside the model, and so do their results",
                    "The tools run outside, but each result comes back into the context.",
                ),
            ),
            reads="about 48 KB",
        ),
        Question(
            "The near-miss table lists SHP-2044, chilled, with a longest breach of 60 minutes. "
            "Why is there no claim?",
            (
                Choice(
                    "60 minutes is exactly the allowance; only a longer run pays",
                    "A run must last longer than max_minutes_above, which is 60 for chilled loads.",
                    correct=True,
                ),
                Choice(
                    "Its 60 minutes came as two 30-minute runs, which are not added",
                    "The column is the longest single run, so SHP-2044 had one run of 60 minutes.",
                ),
                Choice(
                    "It has a claim; the near-miss table just leaves claims out",
                    "The table lists the shipments with a breach and a claim of 0: none of them pays.",
                ),
            ),
            reads="SHP-2044 CHILLED Iberia Cold Lines 60",
        ),
        Question(
            "A tool takes shipment_id. Which value does it want for SHP-2047?",
            (
                Choice(
                    "108, the number in the shipment_id column",
                    "The shipments table pairs shipment_id 108 with shipment_number SHP-2047.",
                    correct=True,
                ),
                Choice(
                    "SHP-2047, the number the clerk says",
                    "That is the shipment_number people use. The tool's argument is the numeric id.",
                ),
                Choice(
                    "2047, the digits of the shipment number",
                    "The id is not made from the number: SHP-2047's shipment_id is 108.",
                ),
            ),
            reads="108 SHP-2047 Meridian Cargo",
        ),
        Question(
            "What does `longest_breach_minutes([9.0, 9.0, 7.5, 9.0, 9.0, 9.0], 8.0, 30)` return?",
            (
                Choice(
                    "90: the longest run is three readings",
                    "The 7.5 ends the first run of two; the second run has three readings of 30 minutes.",
                    correct=True,
                ),
                Choice(
                    "150: five readings above the limit, 30 minutes each",
                    "The 7.5 breaks the run. Only consecutive readings above the limit form a run.",
                ),
                Choice(
                    "60: the first run, two readings",
                    "The function keeps the longest run, not the first.",
                ),
            ),
        ),
    )
)
