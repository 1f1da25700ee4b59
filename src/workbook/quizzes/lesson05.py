"""The "check yourself" questions of lesson 05 · Lint: design rules as checks (its quiz cell shows them with ``quiz("05")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "The designed set's report reads 0 findings, about 995 tokens; the mirror's 67 findings, about 296. "
            "What do the two lines show together?",
            (
                Choice(
                    "Clean definitions cost more: about 3.4 times the mirror's tokens, on every call",
                    "Each designed description says what, returns, when and what not; that text is sent with every "
                    "model call.",
                    correct=True,
                ),
                Choice(
                    "The designed set is too long: desc-long should have flagged its size",
                    "Size is reported, not judged; desc-long fires only past four sentences or 80 words in one "
                    "description, and no designed description goes past them.",
                ),
                Choice(
                    "The mirror is the better set for a long loop, since it sends fewer tokens",
                    "It is cheaper per call, but its 67 findings remain: near twins, generic names, a write with no "
                    "approval. The extra tokens are the price of fixing them.",
                ),
                Choice(
                    "The 995 tokens are paid once, when the session first loads the tools",
                    "The report says it: the definitions are sent with every model call, so the size is paid on "
                    "every step.",
                ),
            ),
            reads="== designed: 5 tools, 0 findings, definitions about 995 tokens",
        ),
        Question(
            "The draft credit_check says 'Use it for credit questions.', and desc-when does not fire on it. "
            "What does that show?",
            (
                Choice(
                    "A rule checks that the clause is there, not that it is useful",
                    "The clause matches the rule's pattern; whether it tells the tool apart from its neighbour is "
                    "for the selection test to show.",
                    correct=True,
                ),
                Choice(
                    "desc-when is broken: it should have rejected such a vague clause",
                    "It does what its row in the rule table says: it finds a when-to-use clause. No pattern can "
                    "judge whether a clause is useful.",
                ),
                Choice(
                    "The clause is good enough, since a rule the draft passes is met",
                    "A rule met says only that the clause is there; 'credit questions' does not say which ones, or "
                    "how this tool differs from its neighbour.",
                ),
            ),
            reads="[desc-boundary] credit_check: no boundary clause",
        ),
        Question(
            "The draft lists customer in required but not order, an argument a clerk may leave out. What does "
            "the linter say about it?",
            (
                Choice(
                    "strict-required: list order as required, with a null type for 'not given'",
                    "OpenAI's strict mode needs every field required; an argument that may be missing says so "
                    "with null.",
                    correct=True,
                ),
                Choice(
                    "Nothing: leaving order out of required is how a schema marks it optional",
                    "That is plain JSON Schema, but strict mode refuses it, and the linter reports strict-required "
                    "for order.",
                ),
                Choice(
                    "param-generic: 'order' is a generic name, like 'id' or 'fields'",
                    "'order' is not on the rule's list of generic names; the draft's findings hold no "
                    "param-generic.",
                ),
            ),
            reads="[strict-required] credit_check: (top level): not in required: order; list them and use a null "
            "type for 'not given'",
        ),
        Question(
            "The draft credit tool only reads data, yet the linter reports safety-read-only-hint for it. Why?",
            (
                Choice(
                    "Its annotations are empty, and MCP's default for a missing hint is 'may write'",
                    "So a client must treat it as a tool that may write and ask every time, until its annotations "
                    "declare readOnlyHint.",
                    correct=True,
                ),
                Choice(
                    "The linter guesses from its name, credit_check, that the tool might change credit data",
                    "The rule never reads the name; it looks for a readOnlyHint in the annotations and finds none.",
                ),
                Choice(
                    "OpenAI's strict mode refuses a definition whose annotations are empty",
                    "Strict mode is about the schema (closed objects, every field required); annotations are MCP's "
                    "hints.",
                ),
            ),
            reads="declare readOnlyHint; without it MCP's default",
        ),
        Question(
            "Among update_order's findings, strict-closed fires twice. Why twice?",
            (
                Choice(
                    "Once for the top level and once for the nested 'fields' object",
                    "Every object must set additionalProperties false, nested ones too, and this linter checks "
                    "them all.",
                    correct=True,
                ),
                Choice(
                    "Once for each of its two parameters, 'id' and 'fields'",
                    "'id' is a string, not an object; the two findings name '(top level)' and 'properties/fields'.",
                ),
                Choice(
                    "Because update_order writes, so its findings are counted double",
                    "No rule weighs a finding by what the tool does; writing adds findings of its own, such as "
                    "safety-approval.",
                ),
            ),
            reads="[strict-closed] update_order: properties/fields: set additionalProperties to false",
        ),
        Question(
            "Which of these descriptions should the returns_clause of exercise 2 accept?",
            (
                Choice(
                    "Returns the block reason and net value.",
                    "'returns' is a word of its own, and 'block', 'reason' and 'net' are not vague words.",
                    correct=True,
                ),
                Choice(
                    "Returns data.",
                    "'data' is one of the VAGUE_WORDS: the sentence says something comes back, not what.",
                ),
                Choice(
                    "Not for refunds (use return_order_search).",
                    "The tool name counts as one word, so this sentence never uses 'return' as a word of its own.",
                ),
                Choice(
                    "Lists nonreturnable items.",
                    "'return' inside 'nonreturnable' is not a word of its own; the rule needs the whole word.",
                ),
            ),
        ),
        Question(
            "Your team agrees on a new design rule. Where should it live?",
            (
                Choice(
                    "In the linter, as a rule with an id and a reason",
                    "Then it runs on every change, on every tool, and each finding says what to fix, as your "
                    "desc-returns rule did.",
                    correct=True,
                ),
                Choice(
                    "In a page of team conventions that every tool author reads",
                    "A page is read once and then forgotten; a rule in the linter is checked on every change.",
                ),
                Choice(
                    "In the agent's system prompt, so the model keeps to it",
                    "The rule is about the tool definitions, which people write; the model cannot fix them while "
                    "it runs.",
                ),
            ),
        ),
    )
)
