"""The "check yourself" questions of lesson 03 · Mirrored tools (its quiz cell shows them with ``quiz("03")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "The printed definition of get_credit is 'Get credit.' with one parameter, "
            '`"id": {"type": "string"}`. What does a model know about that id?',
            (
                Choice(
                    "Only that it is a string; nothing says whose number it is",
                    "The name, the one-line description and the schema are all the model is sent, and none "
                    "of them says what goes in.",
                    correct=True,
                ),
                Choice(
                    "That it is a customer number, since credit belongs to customers",
                    "That is a guess from the name. 'Get credit.' and the schema say nothing of it.",
                ),
                Choice(
                    "That it is an order number, like the id of get_order",
                    "Almost every mirrored tool calls its parameter id. The same word says nothing about "
                    "what goes in.",
                ),
            ),
            reads='{"name": "get_credit", "description": "Get credit.", "parameters": {"type": "object", '
            '"properties": {"id": {"type": "string"}}, "required": ["id"]}}',
        ),
        Question(
            "For order 4711, get_order_status returned 194 characters and get_order_details 1,310. What in their definitions tells a model which one explains why 4711 is stuck?",
            (
                Choice(
                    "Nothing: the descriptions say only 'Get order status.' and 'Get order details.'",
                    "The printed definitions say no more than the names do, so the model has to guess.",
                    correct=True,
                ),
                Choice(
                    "The name: the word 'status' tells a model that get_order_status returns the block fields",
                    "'Status' could mean many things. That this tool returns only the code fields shows "
                    "only after a call.",
                ),
                Choice(
                    "The sizes: a model prefers the smaller result",
                    "A model chooses from definitions; a result's size is known only after the call.",
                ),
                Choice(
                    "The schema: only get_order_status takes a status field to filter on",
                    "All three take the same single id string, as the printed definitions show.",
                ),
            ),
            reads="get_order_status Get order status. -> 194 characters, 6 top-level fields",
        ),
        Question(
            "A loop gets a 6,000-character result in step 1 and then makes four more model calls. "
            "How many times is that result read?",
            (
                Choice(
                    "Five: on arrival and on every later call",
                    "The whole conversation, results included, is sent on every call after the result "
                    "arrived.",
                    correct=True,
                ),
                Choice(
                    "Once: later calls send only the new messages",
                    "Each call sends the whole conversation, results included.",
                ),
                Choice(
                    "Four times, once for each of the later calls",
                    "Count the call right after it arrived, too: the model reads it there first.",
                ),
            ),
        ),
        Question(
            "The reread cell counts what the model reads over three calls: 8,521 characters in one order, 18,679 in the other. What made the difference?",
            (
                Choice(
                    "The 5,922-character query result came first, so both later calls carried it again",
                    "Results stay in the conversation. The biggest one read first is paid for on every call "
                    "after it.",
                    correct=True,
                ),
                Choice(
                    "The second order made more calls",
                    "Both orders make the same three calls; only their order differs.",
                ),
                Choice(
                    "The query result is bigger when it is called first, because nothing has filtered it yet",
                    "The three results are the same sizes in both orders: 843, 35 and 5,922 characters.",
                ),
            ),
            reads="results of [5922, 35, 843] characters -> the model reads 18,679 characters",
        ),
        Question(
            "get_order answered `{'error': '400 Bad Request'}` to the id 'SO-4711'. What can the model learn "
            "from it?",
            (
                Choice(
                    "That it failed, but not what was wrong or what to send",
                    "A bare status says that something failed. The model is left to guess the fix.",
                    correct=True,
                ),
                Choice(
                    "That the SO- prefix must go, since a 400 names the bad field",
                    "This 400 names nothing. Dropping the prefix is a guess the error does not back.",
                ),
                Choice(
                    "That order SO-4711 does not exist, so it should stop asking",
                    "The mirror answered a missing order, 4799, with '404'. This one only says the request "
                    "was bad.",
                ),
            ),
            reads="get_order({\"id\": \"SO-4711\"}) -> {'error': '400 Bad Request'}",
        ),
        Question(
            "In this course update_order answered '403' to clearing 4711's credit status. "
            "What would a real mirror of the API have done?",
            (
                Choice(
                    "Cleared the credit block of order 4711, with no person involved",
                    "The lesson says so: only the course's update_order changes nothing and answers '403'. "
                    "Nothing in the mirror asks a person.",
                    correct=True,
                ),
                Choice(
                    "Refused as well: an API keeps agents away from blocks",
                    "The lesson says a real mirror would have cleared the block. The 403 is the course's stub.",
                ),
                Choice(
                    "Asked the user to confirm first, as a tool that writes does",
                    "Nothing in a mirrored tool asks anyone, and nothing marks a tool as read-only, so a "
                    "client must assume each may write.",
                ),
            ),
            reads='update_order({"fields": {"TotalCreditCheckStatus": ""}, "id": "4711"}) -> {\'error\': \'403\'}',
        ),
        Question(
            "The exercise lists the problem 'bare status codes'. Which of its fixes removes it?",
            (
                Choice(
                    "actionable-error: say what was wrong and what is expected, with an example",
                    "The model's next call can only be as good as the error text, so the error must say it.",
                    correct=True,
                ),
                Choice(
                    "retry: call again up to three times until the call works",
                    "The same wrong id gets the same bare '400' each time. Nothing tells the model what to "
                    "change.",
                ),
                Choice(
                    "firmer-prompt: a system prompt telling the model to be careful",
                    "A careful model still cannot learn from '400' what to send instead. The error has to "
                    "say it.",
                ),
            ),
            reads="bare status codes: a wrong order number gets '400 Bad Request', a missing one '404'",
        ),
    )
)
