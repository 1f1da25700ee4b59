"""The "check yourself" questions of lesson 03 · Mirrored tools (its quiz cell shows them with ``quiz("03")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "What does the model see of a tool when it chooses one?",
            (
                Choice(
                    "Its name, description and parameter schema",
                    "Those three are sent with every call; the code "
                    "behind them, the annotations and the data stay with you.",
                    correct=True,
                ),
                Choice(
                    "The Python code of the handler",
                    "The model never sees the code; it only reads the definition.",
                ),
                Choice(
                    "A sample of the data", "No data is sent until a tool is called and returns a result."
                ),
            ),
        ),
        Question(
            "get_order, get_order_details and get_order_status differ by one word. What follows?",
            (
                Choice(
                    "The model picks among them by guesswork",
                    "Nothing in the names or the one-line descriptions "
                    "says which job each does, so the choice is close to chance.",
                    correct=True,
                ),
                Choice(
                    "The model calls all three to be safe and merges their results",
                    "Some models might, paying three results instead of one; "
                    "either way the definitions failed.",
                ),
                Choice(
                    "Nothing; models know SAP's APIs from their training data",
                    "A model knows only what the definition tells it.",
                ),
            ),
        ),
        Question(
            "A loop reads a 6,000-character result in step 1 and then makes four more model calls. "
            "How often is that result read?",
            (
                Choice(
                    "Five times",
                    "Once after it arrives and again on each of the four later calls.",
                    correct=True,
                ),
                Choice("Once", "The whole conversation is sent on every call, results included."),
                Choice("Four times, once per later call", "Count the call right after it arrived, too."),
            ),
        ),
        Question(
            "The model sends id 'SO-4711' and gets {'error': '400 Bad Request'}. What can it learn?",
            (
                Choice(
                    "Almost nothing",
                    "A status says that something failed, not what was wrong or what to send instead.",
                    correct=True,
                ),
                Choice("That the prefix must go", "Only if it guesses; the error does not say so."),
                Choice(
                    "That the order does not exist",
                    "A 400 is about the request, and it does not even say that.",
                ),
            ),
        ),
        Question(
            "The reread cell counts what the model reads over three calls: 8,521 characters in one order, 18,679 in the other. What made the difference?",
            (
                Choice(
                    "The 5,922-character query result came first, so both later calls carried it again",
                    "Results stay in the conversation; the biggest one read first is paid for on every call after it.",
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
            "For order 4711, get_order_status returned 194 characters and get_order_details 1,310. What in their definitions tells a model which one explains why 4711 is stuck?",
            (
                Choice(
                    "Nothing: the descriptions say only 'Get order status.' and 'Get order details.'",
                    "The printed definitions say no more than the names do, so the model has to guess.",
                    correct=True,
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
    )
)
