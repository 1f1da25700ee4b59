"""The "check yourself" questions of lesson 02 · The cold-chain data (its quiz cell shows them with ``quiz("02")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A chilled shipment reads exactly 8.0 °C for three readings. Limit 8.0 °C. Breach?",
            (
                Choice(
                    "No: a reading at the limit is not above it",
                    "The rule counts readings strictly above the limit; touching it is not a breach.",
                    correct=True,
                ),
                Choice("Yes, 90 minutes", "A reading equal to the limit is not above it."),
                Choice("Yes, 60 minutes", "Neither: none of the readings is above the limit."),
            ),
        ),
        Question(
            "A frozen shipment has two separate 60-minute breaches. Claim?",
            (
                Choice(
                    "None: the longest run, 60 minutes, is allowed",
                    "The rule looks at the longest run (60 minutes), which is allowed.",
                    correct=True,
                ),
                Choice("480 EUR for 120 minutes", "The runs are not added up; the longest one counts."),
                Choice("240 EUR", "Each run is exactly at the allowance, so neither pays."),
            ),
        ),
        Question(
            "A breach lasts 150 minutes on a frozen load (240 EUR an hour). Claim?",
            (
                Choice("720 EUR", "Three started hours times 240.", correct=True),
                Choice("600 EUR, for 2.5 hours", "That pays 2.5 hours; the rule pays every started hour."),
                Choice(
                    "360 EUR",
                    "That would pay only the minutes beyond the allowance, which the rule does not do.",
                ),
            ),
            reads="SHP-2047 FROZEN Meridian Cargo 150 720",
        ),
        Question(
            "A tool returns every shipment's readings, one call per shipment. What reaches the model?",
            (
                Choice(
                    "About 48 KB of readings, plus the calls",
                    "Every result enters the context; notebook 08 shows how a program keeps them out.",
                    correct=True,
                ),
                Choice(
                    "Only the claims, since the tool adds up the breaches for the model",
                    "This tool returns readings, not claims; every reading comes back into the conversation.",
                ),
                Choice(
                    "Nothing, because tools run outside the model's context window",
                    "Tools run outside, but their results come back in.",
                ),
            ),
            reads="about 48 KB",
        ),
    )
)
