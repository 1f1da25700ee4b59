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
                    "The pattern names the rule and the error tells the model what to change; the policy check "
                    "was asked 0 times, and a person's attention is kept for what only a person can judge.",
                    correct=True,
                ),
                Choice(
                    "By the policy check, which corrects figures in a draft anyway",
                    "The dispatcher asks a decider only about proposals that passed the schema; this one never "
                    "reaches it. The check corrects what the schema cannot know, such as an exposure figure.",
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
                    "With the reason, the model can change its request or tell the user, and it is told not "
                    "to propose the same call again unchanged.",
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
            "Your code checks whether the model sent the same arguments twice. How?",
            (
                Choice(
                    "Parse both JSON texts and compare the values they hold",
                    "Escaping, key order and whitespace differ between encoders; the values do not, and "
                    "'4711' and 4711 stay different values, as they should.",
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
                Choice(
                    "Parse both and compare every value as text, so '4711' matches 4711",
                    "A string and a number are different values; parsing removes differences of spelling, "
                    "not of value.",
                ),
            ),
            reads="same once parsed = False (a string and a number are different values)",
        ),
        Question(
            "Reading the order's block must come before drafting its release. Which setting makes sure of it?",
            (
                Choice(
                    "Name the tool in tool_choice on the first turn, then use auto",
                    "Configuration binds on every run: the API prefills the named call. Afterwards auto lets "
                    "the run go on.",
                    correct=True,
                ),
                Choice(
                    "Write it in capitals in the instructions, where the model reads it first",
                    "Wording is advice: whether capitals help depends on the model, and this lesson did not "
                    "measure it. Only configuration is enforced on every run.",
                ),
                Choice(
                    "Set tool_choice to any",
                    "Any obliges a call, not this call: the model may call the credit tool first.",
                ),
                Choice(
                    "Name the tool in tool_choice on every turn",
                    "Naming a tool on every turn would call it forever; only the first step is required.",
                ),
            ),
        ),
        Question(
            "Under the shouted instruction, 95 of 100 runs read the block first. What is that 95?",
            (
                Choice(
                    "A rate the course set for its stand-in",
                    "The stand-in follows each instruction as often as it was told to; what a real model does "
                    "under these settings is a measurement that tooldesign record can make.",
                    correct=True,
                ),
                Choice(
                    "How often a real model obeys an instruction in capitals",
                    "No model was asked: the offline stand-in produced the table from its own settings.",
                ),
                Choice(
                    "The runs in which the API prefilled the call",
                    "The API prefills the call only under any or a named tool; under auto the first call is "
                    "the stand-in's own choice.",
                ),
            ),
            reads="sales_order_get_block_summary 0 68 95 100",
        ),
        Question(
            "No person is set up to decide CC_FILE_CLAIM, and a policy check allows it. What happens?",
            (
                Choice(
                    "It is not run, and the model reads that nothing was queued",
                    "A claim cannot be taken back: code may refuse it, only a person may allow it, and the "
                    "model is told what really happened.",
                    correct=True,
                ),
                Choice(
                    "It is filed: the policy check allowed it",
                    "A rule in code cannot allow, on a person's behalf, a write that reaches the carrier and "
                    "cannot be called back.",
                ),
                Choice(
                    "The model reads that it is waiting for approval",
                    "Nothing is waiting: nobody was asked. The user would wait for a decision no one will make.",
                ),
            ),
            reads="a policy check allows, no person (ran: False):",
        ),
        Question(
            "The credit service times out for customer 10023. Which report leaves the next step with a true "
            "conclusion?",
            (
                Choice(
                    "An is_error: the check failed, and the exposure is unknown",
                    "The reader concludes the exposure is unknown and says so; the run stops where it should.",
                    correct=True,
                ),
                Choice(
                    "Placeholder figures of 0.00, so the run can go on",
                    "The reader concludes the exposure is 0.00 EUR, well within the limit, and the order can "
                    "be released: false.",
                ),
                Choice(
                    "An empty list of findings, since nothing was found",
                    "The reader concludes the check ran and found no credit issue: false.",
                ),
                Choice(
                    "None: withdraw the credit tool until the service is back",
                    "With the tool gone, the question is answered from the conversation, across the gap: false.",
                ),
            ),
            reads='empty success {"customer": "10023", "findings": []}',
        ),
    )
)
