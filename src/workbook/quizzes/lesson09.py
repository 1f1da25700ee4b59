"""The "check yourself" questions of lesson 09 · Dispatch and errors (its quiz cell shows them with ``quiz("09")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Two tools could both serve 'pull up everything on Nordhafen'. Where does the fix go?",
            (
                Choice(
                    "A boundary clause in the descriptions",
                    "The choice is made on the descriptions; the clause "
                    "names the disputed requests and the tool that serves them.",
                    correct=True,
                ),
                Choice(
                    "A lower temperature",
                    "Temperature changes sampling, not the information the choice is made on.",
                ),
                Choice(
                    "Reordering the tools array",
                    "Position is not priority; the descriptions still do not decide.",
                ),
            ),
        ),
        Question(
            "Calls to a search tool keep arriving without the customer number. What do you change?",
            (
                Choice(
                    "Mark customer as required in the schema",
                    "A missing field is a schema problem; required "
                    "means the operation is meaningless without it.",
                    correct=True,
                ),
                Choice(
                    "Add 'always pass the customer' to the description", "That is advice; the schema binds."
                ),
                Choice(
                    "Default to the first customer in the handler",
                    "That answers for a customer nobody named.",
                ),
            ),
        ),
        Question(
            "A call fails its schema. What should the dispatcher do?",
            (
                Choice(
                    "Return is_error with what was wrong, what is expected and an example",
                    "The model can correct the call on its next turn.",
                    correct=True,
                ),
                Choice("Log it and run the call anyway", "You caught the fault and forwarded it regardless."),
                Choice(
                    "Retry the same call three times", "The same input fails the same way; nothing changes."
                ),
            ),
        ),
        Question(
            "A release is proposed for sales_order 'SO-4711'. Where should that be caught?",
            (
                Choice(
                    "In the schema, before any approver is asked",
                    "The pattern names the rule and the error tells the "
                    "model what to change; a person's attention is kept for what only a person can judge.",
                    correct=True,
                ),
                Choice(
                    "By the approver, who corrects it",
                    "The dispatcher asks an approver only about proposals that "
                    "passed the schema; this one never reaches them.",
                ),
                Choice(
                    "By the service behind the tool",
                    "Then the remote service is your first validator, and its answer is often a bare status.",
                ),
            ),
        ),
        Question(
            "An approver rejects a release. What should the model receive?",
            (
                Choice(
                    "A denial with the reason",
                    "With the reason, the model can change its request or tell the user.",
                    correct=True,
                ),
                Choice(
                    "Nothing: the call silently does not happen", "Silence is a gap the model reasons across."
                ),
                Choice(
                    "A success, so the run continues", "A false success travels onward as a wrong answer."
                ),
            ),
        ),
        Question(
            "Your code checks that the model sent the same arguments twice. How?",
            (
                Choice(
                    "Parse both and compare the values",
                    "Escaping, key order and whitespace differ between encoders; values do not.",
                    correct=True,
                ),
                Choice(
                    "Compare the JSON strings",
                    "A '\\/' or a '\\u00e8' makes equal arguments unequal strings.",
                ),
                Choice("Compare the strings after removing spaces", "Escapes and key order still differ."),
            ),
        ),
        Question(
            "Reading the order's block must come before drafting its release. How do you make sure?",
            (
                Choice(
                    "Name the tool in tool_choice for the first request",
                    "Configuration binds on every run.",
                    correct=True,
                ),
                Choice(
                    "Write it in capitals in the instructions",
                    "Wording is advice: whether capitals help depends on "
                    "the model, and this lesson did not measure it. Only configuration is enforced on every run.",
                ),
                Choice("Set tool_choice to any", "Any obliges a call, not this call."),
            ),
        ),
    )
)
