"""The "check yourself" questions of lesson 11 · Boundaries and validation at dispatch (its quiz cell shows them with ``quiz("11")``).

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
                    "A lower temperature, so the model picks the same tool every time",
                    "Temperature changes sampling, not the information the choice is made on.",
                ),
                Choice(
                    "Reordering the tools array so the better tool comes first",
                    "Order can tilt a choice: some models prefer tools listed earlier "
                    "(Blankenstein et al., BiasBusters, 2025, https://arxiv.org/abs/2510.00307), and this course's "
                    "word matcher gives a tie to the first tool listed. But nobody can read or rely on an order; the "
                    "descriptions still do not settle the request.",
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
                    "Retry the same call up to three times before telling the model it failed",
                    "The same input fails the same way; nothing changes.",
                ),
            ),
        ),
        Question(
            "Both offline pickers score the same with and without the boundary clauses. What do you conclude?",
            (
                Choice(
                    "Nothing about the clauses: the stand-ins skip them",
                    "A word matcher cannot read 'not' and would count the neighbour's words as its own, so the "
                    "stand-ins leave out every sentence naming another tool; only a real model can show the effect.",
                    correct=True,
                ),
                Choice(
                    "Clauses do not change which tool is chosen",
                    "An instrument that cannot see a sentence cannot measure what the sentence does.",
                ),
                Choice(
                    "The clauses should be lists of keywords instead, so the pickers see them",
                    "Keywords would teach a word matcher, not a reader; the clause check refuses them.",
                ),
            ),
            reads="words with clauses 1 10",
        ),
        Question(
            "With customer left out of required, the call {} passed and came back with customer 10023's orders. What went wrong?",
            (
                Choice(
                    "The handler answered for a customer nobody named, because the schema let {} through",
                    "With customer optional, {} is valid and the handler's default answered for an account nobody asked about.",
                    correct=True,
                ),
                Choice(
                    "The schema was too strict: the model could not send the customer",
                    "The call sent no customer at all and the loose schema let it pass; the right schema rejects it: customer is required.",
                ),
                Choice(
                    "Nothing: 10023 is the first customer, a sensible default",
                    "A quietly chosen customer gives a confident answer about the wrong account.",
                ),
            ),
            reads="under-marked {} True {'customer': '10023'",
        ),
    )
)
