"""The "check yourself" questions of lesson 13 · Tool set size (its quiz cell shows them with ``quiz("13")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Your agent has 60 tools and picks wrong more often than it did with 15. What hurts most?",
            (
                Choice(
                    "Tools whose descriptions overlap",
                    "Two tools that both fit a request force a guess, however many tools there are. This "
                    "notebook's stand-ins cannot tell overlap from count (a neighbour cost BM25 as much as an "
                    "unrelated tool); a real model's choices, on your own set, are what can.",
                    correct=True,
                ),
                Choice(
                    "The number 60 itself, past what a model can keep apart",
                    "Count matters too, and with this notebook's stand-ins the two are hard to "
                    "separate; but two tools that fit one request force a guess at any size.",
                ),
                Choice(
                    "The order of the tools array",
                    "Order can tilt a choice (some models prefer tools listed earlier: "
                    "Blankenstein et al., BiasBusters, 2025, https://arxiv.org/abs/2510.00307; this course's word "
                    "matcher breaks ties by position), but no order stops two tools that fit one request from competing.",
                ),
            ),
        ),
        Question(
            "Which tokens does a tool you never call cost you?",
            (
                Choice(
                    "Its definition, on every request",
                    "Definitions are sent whether or not a tool is called.",
                    correct=True,
                ),
                Choice(
                    "None, as long as the tool is never called",
                    "The model reads every definition it is sent.",
                ),
                Choice(
                    "Only the first time, until the definitions are cached",
                    "A cache makes repeated definitions cheaper to read, not free: they are sent with every request.",
                ),
            ),
        ),
        Question(
            "When does tool search pay off, by Anthropic's guidance?",
            (
                Choice(
                    "Above roughly twenty tools, most of them idle",
                    "Then the saved tokens outweigh the extra round trip.",
                    correct=True,
                ),
                Choice(
                    "Always: fewer definitions in the request always means better choices",
                    "Below about ten tools, Anthropic reports, sending everything is typically faster.",
                ),
                Choice(
                    "Never: it adds a round trip that costs more than the definitions it saves",
                    "The round trip buys a large cut in tokens.",
                ),
            ),
        ),
        Question(
            "Your search tool found two tools for the job. What does it send back?",
            (
                Choice(
                    "A tool_reference naming each one; the API loads their deferred definitions",
                    "The tools were declared up front with defer_loading: true, so the references expand "
                    "after the cached prefix and the tools array never changes.",
                    correct=True,
                ),
                Choice(
                    "Their full definitions, which the model can call right away",
                    "A model calls only tools declared in the request; definitions pasted into a result "
                    "are text, not tools.",
                ),
                Choice(
                    "Nothing: the client adds the two tools to the tools array for the next request",
                    "That works, but it changes the tools array and so throws away the whole cached prefix.",
                ),
            ),
            reads='"type": "tool_reference"',
        ),
        Question(
            "With tool search, what caps accuracy?",
            (
                Choice(
                    "Whether the right tool is among the k found",
                    "The model can only choose among what it was shown.",
                    correct=True,
                ),
                Choice("The number of tools in the catalog", "The catalog is searched, not loaded."),
                Choice(
                    "Nothing: fewer tools always means better choices", "Not if the right one was left out."
                ),
            ),
            reads="search, k=1 58% 65%",
        ),
        Question(
            "Which merge keeps the choice in the schema?",
            (
                Choice(
                    "customer_check_account with an action enum",
                    "Each action is a listed value with its own rule.",
                    correct=True,
                ),
                Choice(
                    "sap_assistant_run with a free-text instruction",
                    "The choice moves into a string nothing checks.",
                ),
                Choice(
                    "Merging the release tool into a read tool, so one call does both",
                    "Writes need their own tool, approval and audit.",
                ),
            ),
        ),
        Question(
            "With 95 tools added, the linter printed 709 findings for 100 tools. Which rule raised 613 of them?",
            (
                Choice(
                    "set-twins: pairs of near-twin names",
                    "Every pair of near-twin names is a finding, and pairs grow far faster than tools.",
                    correct=True,
                ),
                Choice(
                    "desc-boundary: the added tools name no tool to use instead",
                    "desc-boundary raised 95, one per added tool; the 613 are pairs of near-twin names.",
                ),
                Choice(
                    "set-size: one finding for every tool past the limit",
                    "set-size raised a single finding, for the set as a whole.",
                ),
            ),
            reads="{'desc-boundary': 95, 'set-size': 1, 'set-twins': 613}",
        ),
    )
)
