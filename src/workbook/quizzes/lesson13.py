"""The "check yourself" questions of lesson 13 · Tool set size (its quiz cell shows them with ``quiz("13")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "From 5 to 25 tools, BM25 lost 0.48 points per added tool with the near neighbours first, and 0.48 "
            "with unrelated tools first. What does that show?",
            (
                Choice(
                    "These stand-ins cannot tell overlap from count",
                    "On the course's plain descriptions both orders cost the same. Whether overlap hurts a "
                    "real model more than count is a measurement to make on your own set, with that model.",
                    correct=True,
                ),
                Choice(
                    "Only the number of tools matters, not whether they overlap",
                    "That is a claim about models, and BM25 is not one: a stand-in that counts words shows what "
                    "word counts do, not what a model does.",
                ),
                Choice(
                    "A near neighbour costs twice what an unrelated tool does",
                    "The check printed about 1.0x: the same loss per added tool in both orders.",
                ),
            ),
            reads="0.48 points per tool when the neighbours join, 0.48 when unrelated tools do",
        ),
        Question(
            "The growth table prints 6466 tokens of definitions at 50 tools. When are they paid?",
            (
                Choice(
                    "On every request, whether or not any of those tools is called",
                    "The definitions are part of every request's input tokens (R8); a tool nobody calls is "
                    "still sent and read.",
                    correct=True,
                ),
                Choice(
                    "Only when the model calls one of the 50 tools",
                    "A tool is sent before the model chooses it: the choice is made on the definitions.",
                ),
                Choice(
                    "Once per conversation, since the model keeps them after the first request",
                    "Every request sends them again. A warm prompt cache makes re-reading them cheaper (a "
                    "tenth of the price, R27), not free.",
                ),
            ),
            reads="50 6466 59% 55%",
        ),
        Question(
            "When does tool search pay off, by Anthropic's guidance?",
            (
                Choice(
                    "From roughly twenty tools, most of them unused on a turn",
                    "Then the saved tokens outweigh the extra round trip (R9, R10).",
                    correct=True,
                ),
                Choice(
                    "Always: fewer definitions mean better choices",
                    "Under about ten tools, Anthropic reports, loading them all is typically faster.",
                ),
                Choice(
                    "Never: its extra round trip costs more than it saves",
                    "The round trip buys a large cut in tokens: from about 13,000 to a few hundred here, for "
                    "a small k.",
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
            "With a budget of 2000 tokens, best_k still picks k=2, though k=10 fits. Why?",
            (
                Choice(
                    "k=2 already reaches the top accuracy, 61 %, and a tie goes to the smaller k",
                    "k=2, 3, 5 and 10 all make the right first call for 61 % of the requests; the rule takes "
                    "the cheapest of them.",
                    correct=True,
                ),
                Choice(
                    "k=2 finds the right tool more often than k=10",
                    "k=10 finds it more often (87 % against 74 %), but finding it caps accuracy without "
                    "raising it: the first call is right for 61 % at both.",
                ),
                Choice(
                    "At 1760.5 tokens per request, k=10 does not fit 2000",
                    "1760.5 is under 2000, so k=10 fits; the tie on accuracy picks the smaller k.",
                ),
            ),
            reads="{400: None, 700: 2, 800: 2, 1200: 2, 2000: 2}",
        ),
        Question(
            "The linter flags customer_check_account, though its action is an enum. Why?",
            (
                Choice(
                    "Its if/then rule is outside OpenAI's strict subset",
                    "With strict mode on, a request carrying this tool is refused; state the rule in the "
                    "description and check it at dispatch, or keep two tools.",
                    correct=True,
                ),
                Choice(
                    "An action enum is a catch-all, as a free-text instruction is",
                    "The catch-all rule flags free text that chooses the operation; an enum lists each value, "
                    "and the consolidated row shows no catch-all flagged.",
                ),
                Choice(
                    "It merges a read with a write in one tool",
                    "Both actions read: the credit exposure and the address gaps. The finding is strict-subset.",
                ),
            ),
            reads="'then' at allOf/0: outside OpenAI's strict-mode subset",
        ),
        Question(
            "The catch-all set holds 27 of the 31 requests for approval, where the designed set holds 5. Why 27?",
            (
                Choice(
                    "Its one tool may write, so every request that calls a tool waits for a person",
                    "27 is every request that calls a tool (four need none); reads now share a tool with the "
                    "write. Reads and writes belong in separate tools.",
                    correct=True,
                ),
                Choice(
                    "27 of the requests ask for a release",
                    "Only 5 ask for one, as the designed row shows; the other 22 are reads held with them.",
                ),
                Choice(
                    "The picker missed 27 requests, and a person must redo them",
                    "The picker cannot miss: with one tool there is nothing to choose. The choice moved into "
                    "a string that no schema checks.",
                ),
            ),
            reads="catch-all 1 125 3 1 one tool: moved into text 0/3",
        ),
        Question(
            "With 95 tools added, the linter printed 709 findings for 100 tools. Which rule raised 613 of them?",
            (
                Choice(
                    "set-twins: one finding per pair of near-twin names",
                    "Every pair of near-twin names is a finding, and pairs grow far faster than tools.",
                    correct=True,
                ),
                Choice(
                    "desc-boundary: the added tools name no tool to use instead",
                    "desc-boundary raised 95, one per added tool; the 613 are pairs of near-twin names.",
                ),
                Choice(
                    "set-size: one finding for each tool past the limit",
                    "set-size raised a single finding, for the set as a whole.",
                ),
            ),
            reads="{'desc-boundary': 95, 'set-size': 1, 'set-twins': 613}",
        ),
    )
)
