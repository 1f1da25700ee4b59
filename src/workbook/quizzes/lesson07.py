"""The "check yourself" questions of lesson 07 · Adding a tool and testing it (its quiz cell shows them with ``quiz("07")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Why does the price tool's description end with a boundary clause naming "
            "sales_order_get_block_summary?",
            (
                Choice(
                    "A request about 4725, held over a price dispute, could go to either tool",
                    "The clause names the neighbour that explains why an order is blocked, the one a reader could "
                    "confuse with the new tool.",
                    correct=True,
                ),
                Choice(
                    "desc-boundary passes only when that tool is the one named",
                    "The lint rule accepts any neighbouring tool; it is the exercise's check that asks for this "
                    "one, because of 4725.",
                ),
                Choice(
                    "To win ties for the word stand-in, which gives them to the tool listed first",
                    "The stand-in skips every sentence that names another tool, so the clause gives it no words "
                    "at all.",
                ),
            ),
        ),
        Question(
            "The check's feedback says BM25 'takes 2 earlier ones'. What does that mean?",
            (
                Choice(
                    "Two earlier requests BM25 had right now go to the price tool",
                    "A new tool can take requests from its neighbours; the check shows it as feedback, not as the "
                    "pass condition.",
                    correct=True,
                ),
                Choice(
                    "BM25 sent two of the four price requests to tools listed earlier",
                    "The same line says BM25 sends the price tool 4/4 price requests; the two are other tools' "
                    "requests.",
                ),
                Choice(
                    "Your own two requests reached the price tool with BM25",
                    "Your own requests are held out: they are scored after the check, in the next cell, never by "
                    "it.",
                ),
            ),
            reads="BM25 sends it 4/4 price requests and takes 2 earlier ones",
        ),
        Question(
            "The word stand-in sends one of your own two price requests to another tool. What do you do?",
            (
                Choice(
                    "Report the miss; leave the description as it is",
                    "Read the shared words, but do not reword: your own requests are held out, and rewording "
                    "the description to win that tie would tune it to your test.",
                    correct=True,
                ),
                Choice(
                    "Add the request's words to the description",
                    "Then the request only measures what you copied into the description.",
                ),
                Choice(
                    "Replace the request with one that reaches the tool, so the test stays green",
                    "Dropping a case that misses is how a test stops measuring anything.",
                ),
            ),
        ),
        Question(
            "With the description cut to 'Get prices.', the linter printed three findings. How many of the 4 "
            "price requests did the stand-in still get right?",
            (
                Choice(
                    "1 of 4",
                    "The line under the findings reads 'designed 1/4 right': the few words left still draw one "
                    "request.",
                    correct=True,
                ),
                Choice(
                    "4 of 4: the name sales_order_get_price_conditions still carries the words",
                    "The name shares words with some requests only; the printout says 1/4 right.",
                ),
                Choice(
                    "0 of 4: a tool the linter faults is never picked",
                    "The stand-in counts shared words, not findings; one request still reaches the tool.",
                ),
            ),
            reads="designed 1/4 right",
        ),
        Question(
            "The lesson's exercise 2 description gets 0 lint findings, yet 3 of 4 price requests go elsewhere. "
            "What does that show?",
            (
                Choice(
                    "The linter checks a description's shape, not whether its words are the clerks' words",
                    "Sentences, a when-to-use clause and a boundary clause can all be there while the job is "
                    "described in words no clerk uses; the selection test shows that.",
                    correct=True,
                ),
                Choice(
                    "desc-when should have caught it: 'when the terms are needed' is no trigger",
                    "desc-when finds that a when-to-use clause is there; whether the clause is useful no rule can "
                    "judge.",
                ),
                Choice(
                    "The selection test is wrong: a description that lints clean is picked correctly",
                    "The cases say which tool is right; the description did not carry the words for it.",
                ),
            ),
            reads="0 findings, yet 3 of 4 price requests go elsewhere",
        ),
        Question(
            "The six-tool set lints clean at about 1,127 tokens, against 995 for the five. What does the "
            "difference mean?",
            (
                Choice(
                    "About 132 more tokens on every model call, the price tool used or not",
                    "Every definition in the set is sent with every call, whichever tool the model then picks.",
                    correct=True,
                ),
                Choice(
                    "About 132 more tokens, paid only on calls that pick the price tool",
                    "The definitions go with every call, before any tool is picked; the cost does not wait for "
                    "a pick.",
                ),
                Choice(
                    "A warning: set-size fires once a set's definitions pass 1,000 tokens",
                    "set-size counts tools (fewer than 20), not tokens; the set has 0 findings.",
                ),
            ),
            reads="designed: 6 tools, 0 findings, definitions about 1,127 tokens",
        ),
        Question(
            "You improve one description before go-live. What comes next?",
            (
                Choice(
                    "Lint the set and re-run the selection test on every request",
                    "A description change is a behaviour change: it can move requests of other tools too, as the "
                    "price tool took two with BM25.",
                    correct=True,
                ),
                Choice(
                    "Re-run only that tool's requests, since the others did not change",
                    "The other descriptions did not change, but the picks among them can: every pick compares all "
                    "the tools.",
                ),
                Choice(
                    "Nothing more: a better description cannot make any pick worse",
                    "Exercise 1's feedback shows a new description taking requests a neighbour had right.",
                ),
            ),
        ),
    )
)
