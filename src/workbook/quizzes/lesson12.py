"""The "check yourself" questions of lesson 12 · Writes, errors and tool_choice (its quiz cell shows them with ``quiz("12")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "A release is proposed for sales_order 'SO-4711'. Where should that be caught?",
            (
                Choice(
                    "In the schema, before any policy check or person is asked",
                    "The pattern names the rule and the "
                    "error tells the model what to change; a person's attention is kept for what only a person can "
                    "judge.",
                    correct=True,
                ),
                Choice(
                    "By the policy check, which corrects it",
                    "The dispatcher asks a decider only about proposals that "
                    "passed the schema; this one never reaches it.",
                ),
                Choice(
                    "By the service behind the tool",
                    "Then the remote service is your first validator, and its answer is often a bare status.",
                ),
            ),
            reads="policy check asked: 0 times",
        ),
        Question(
            "A person refuses to file a claim. What should the model receive?",
            (
                Choice(
                    "A refusal that says a person refused, with their reason",
                    "With the reason, the model can change its request or tell the user.",
                    correct=True,
                ),
                Choice(
                    "Nothing: the call silently does not happen, so the model is not tempted to retry",
                    "Silence is a gap the model reasons across.",
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
                    "Compare the JSON strings exactly as the model sent them",
                    "A '\\/' or a '\\u00e8' makes equal arguments unequal strings.",
                ),
                Choice(
                    "Compare the strings after removing spaces and line breaks from both",
                    "Escapes and key order still differ.",
                ),
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
                    "Write it in capitals in the instructions, where the model reads it first",
                    "Wording is advice: whether capitals help depends on "
                    "the model, and this lesson did not measure it. Only configuration is enforced on every run.",
                ),
                Choice("Set tool_choice to any", "Any obliges a call, not this call."),
            ),
            reads="sales_order_get_block_summary 0 68 95 100",
        ),
        Question(
            "No person is set up to decide CC_FILE_CLAIM, and a policy check allows it. What happens?",
            (
                Choice(
                    "It is not run, and the model reads that nothing was queued",
                    "A claim cannot be taken back: code "
                    "may refuse it, only a person may allow it, and the model is told what really happened.",
                    correct=True,
                ),
                Choice(
                    "It is filed, because the policy check allowed it and no person objected",
                    "A rule in code cannot allow, on a person's "
                    "behalf, a write that reaches the carrier and cannot be called back.",
                ),
                Choice(
                    "The model reads that it is waiting for approval",
                    "Nothing is waiting: nobody was asked. The user "
                    "would wait for a decision no one will make.",
                ),
            ),
            reads="a policy check allows, no person (ran: False):",
        ),
    )
)
