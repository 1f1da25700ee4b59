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
                    "The choice is made on the descriptions; the clause names the disputed requests and the "
                    "tool that serves them.",
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
                Choice(
                    "Longer descriptions, listing everything each tool returns",
                    "Both descriptions already say accurately what they return; neither says which one serves "
                    "this request. The guidance keeps a description to three or four sentences: longer is not "
                    "safer.",
                ),
            ),
        ),
        Question(
            "A customer search requires name, customer and city, and the request is 'Find the customer Donau "
            "Retail'. What does the table say follows?",
            (
                Choice(
                    "The model must invent a customer number and a city",
                    "Required fields have to be filled, and the request gives only a name. Mark a field "
                    "required only when the operation means nothing without it.",
                    correct=True,
                ),
                Choice(
                    "The call is safer: every field the handler could use arrives",
                    "They arrive, but the table lists customer and city under values the model must invent.",
                ),
                Choice(
                    "The model leaves them out and the handler fills in defaults",
                    "A required field left out fails the schema; and a default answers for something nobody "
                    "said, as the under-marked case shows.",
                ),
            ),
            reads="over-marked name, customer, city customer, city",
        ),
        Question(
            "With customer left out of required, the call {} passed and came back with customer 10023's orders. "
            "What went wrong?",
            (
                Choice(
                    "The schema let {} through, and a default named the customer",
                    "With customer optional, {} is valid, and the handler's default answered for an account "
                    "nobody asked about.",
                    correct=True,
                ),
                Choice(
                    "The schema was too strict: the model could not send the customer",
                    "The call sent no customer at all and the loose schema let it pass; the right schema "
                    "rejects it: customer is required.",
                ),
                Choice(
                    "Nothing: 10023 is the first customer, a sensible default",
                    "A quietly chosen customer gives a confident answer about the wrong account.",
                ),
            ),
            reads="under-marked {} True {'customer': '10023'",
        ),
        Question(
            "The model writes detail 'full'. A free string passes it; the handler understands only 'concise' "
            "and 'detailed'. What does an enum change?",
            (
                Choice(
                    "Dispatch refuses 'full' and names the two values to send",
                    "The enum fails 'full' at validation, and the error quotes the allowed values, so the "
                    "model can pick one on its next turn.",
                    correct=True,
                ),
                Choice(
                    "Nothing: the handler reads 'full' as 'detailed' anyway",
                    "The table's last column says False for 'full': a free string lets through a value "
                    "nothing acts on.",
                ),
                Choice(
                    "The model can no longer write 'full' at all, whatever the settings",
                    "Keeping the sampling inside the schema is strict mode's job (R4, R1); the enum alone "
                    "lets the dispatcher refuse 'full' and name the allowed values.",
                ),
            ),
            reads="full True False False",
        ),
        Question(
            "A call fails its schema. What should the dispatcher do?",
            (
                Choice(
                    "Return is_error with what was wrong, what is expected and an example",
                    "Nothing reaches the service, and the model can correct the call on its next turn.",
                    correct=True,
                ),
                Choice(
                    "Log it and run the call anyway",
                    "The fault was caught and forwarded regardless; the service answered a bare "
                    "400 Bad Request.",
                ),
                Choice(
                    "Retry the same call up to three times",
                    "The table shows 3 calls reaching the service and the same 400 Bad Request each time: "
                    "the same input fails the same way.",
                ),
                Choice(
                    "Loosen the schema and let the service behind the tool judge it",
                    "Then the remote service is the first validator, and its bare status tells the model "
                    "nothing it can fix.",
                ),
            ),
            reads='retry unchanged (3x) 3 {"error": "400 Bad Request"}',
        ),
        Question(
            "Both offline pickers score the same with and without the boundary clauses (words 1 of 10, BM25 0 "
            "of 10). What do you conclude?",
            (
                Choice(
                    "Nothing about the clauses: the stand-ins never read one",
                    "A word matcher cannot read 'not' and would count the neighbour's words as its own, so the "
                    "stand-ins leave out every sentence naming another tool; only a real model can show the effect.",
                    correct=True,
                ),
                Choice(
                    "Clauses do not change which tool is chosen",
                    "An instrument that cannot see a sentence cannot measure what the sentence does.",
                ),
                Choice(
                    "Write the clauses as keyword lists, so the stand-ins see them",
                    "Keywords would teach a word matcher, not a reader; the clause check refuses them.",
                ),
                Choice(
                    "The plain descriptions fail almost every request, clause or not",
                    "BM25's 0 is its own limit: with two documents every word weighs log(1.5 / 1.5) = 0. "
                    "Neither score judges the text a model reads.",
                ),
            ),
            reads="words with clauses 1 10",
        ),
        Question(
            "OpenAI's strict mode would refuse the loose limit schema. What makes it strict-ready?",
            (
                Choice(
                    "Close the object and list limit in required, with null for 'not given'",
                    "The check printed exactly these two problems; the strict-ready schema has none, and it "
                    "refuses '5' for an integer.",
                    correct=True,
                ),
                Choice(
                    "Make limit optional, so the model may leave it out",
                    "OpenAI's strict mode wants every field required (R1); 'not given' is a null the model "
                    "sends, not a field left out.",
                ),
                Choice(
                    "Nothing: strict mode takes any valid JSON Schema",
                    "Strict mode accepts a documented subset of JSON Schema (R1, R2), and the check printed two "
                    "problems for the loose schema.",
                ),
            ),
            reads="loose: ['(top level): set additionalProperties to false'",
        ),
    )
)
