"""The "check yourself" questions of lesson 00 · Start here (its quiz cell shows them with ``quiz("00")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Your check cell says 'not done yet'. What does that mean?",
            (
                Choice(
                    "Your exercise cell still holds the stub it came with",
                    "Until you replace `...` or `raise NotImplementedError()` and run the cell, the check has "
                    "nothing to call. The message is expected.",
                    correct=True,
                ),
                Choice(
                    "Your function ran, but gave a wrong result on the check's inputs",
                    "A wrong answer gets ✘ and a hint that names the case it failed, not 'not done yet'.",
                ),
                Choice(
                    "You have not saved the notebook, so the check read the old file",
                    "That is true of `make check`, which reads the saved file. The check cell calls your "
                    "function in the running kernel.",
                ),
            ),
        ),
        Question(
            "Where do you look when you are stuck on an exercise?",
            (
                Choice(
                    "In solutions/, where the same notebook stands complete and already run",
                    "Every lesson's solution is there. This is a course, not an exam.",
                    correct=True,
                ),
                Choice(
                    "In data/, where the built tables hold each exercise's expected answer",
                    "data/ holds the fictional data the lessons build, not the answers.",
                ),
                Choice(
                    "Nowhere: the answers stay hidden until your instructor grades",
                    "They are not hidden: solutions/ has every lesson complete. Your instructor grades with "
                    "separate checks.",
                ),
            ),
        ),
        Question(
            "A tool's handler converts every amount to EUR, and only a comment in the handler says so. "
            "What does a model offered the tool know about the currency?",
            (
                Choice(
                    "Nothing: the comment stays in the code, which the model is never sent",
                    "The model is sent the name, the description and the argument schema. Say it there, or in "
                    "the result's field names.",
                    correct=True,
                ),
                Choice(
                    "That amounts are in EUR, since the comment sits inside the tool's function",
                    "Comments and docstrings stay with your code; the model never receives them.",
                ),
                Choice(
                    "That amounts are in EUR, but only once its first call has returned",
                    "A result says EUR only if a field or a note in it says so. The comment still travels "
                    "nowhere.",
                ),
            ),
        ),
        Question(
            "The cell printed sales_order_get's definition as the model is sent it. Which fact about the tool is in that printout?",
            (
                Choice(
                    "Orders are looked up by a number such as 4711",
                    "The parameter's description says so, and the definition is what the model receives.",
                    correct=True,
                ),
                Choice(
                    "Only orders of company code 1010 are found",
                    "That sentence is the handler's docstring. The printed definition leaves it out, so the "
                    "model never reads it.",
                ),
                Choice(
                    "Net values are in EUR, converted at the month's rate, as the handler's comment says",
                    "A comment lives in the code. The printout holds the name, the description and the "
                    "parameters only.",
                ),
            ),
            reads="The sales order number, e.g. 4711.",
        ),
        Question(
            "A tool's description is 400 characters long. By the course's estimate, whose source the lesson "
            "printed, what does it cost?",
            (
                Choice(
                    "About 100 tokens, paid again on every call the tool is offered",
                    "Characters / 4 gives 100, and the definition is sent with every call, so the cost comes "
                    "back each time.",
                    correct=True,
                ),
                Choice(
                    "About 100 tokens, paid once, when the tool is first sent to the model",
                    "The estimate is right, but the definition is sent with every call, not once.",
                ),
                Choice(
                    "About 400 tokens: the estimate counts one token per character",
                    "The course's estimate divides characters by four, as the printed source of "
                    "estimate_tokens says.",
                ),
                Choice(
                    "Nothing until the model calls the tool, then about 100 tokens",
                    "The definition is sent whether the tool is called or not: it is what the model chooses "
                    "from.",
                ),
            ),
            reads="The estimate (characters / 4) of a text",
        ),
        Question(
            "The lesson suggests trying `return fact in str(tool)` on purpose. Why does the check reject it?",
            (
                Choice(
                    "It finds facts that stand only in the handler, which the model is never sent",
                    "str(tool) includes the handler's source text, so a rule only the code states counts as "
                    "told. The check's verdict says why that is wrong.",
                    correct=True,
                ),
                Choice(
                    "It misses facts in a parameter's description, since str() skips nested dicts",
                    "str() of a dict includes every nested dict. The trouble is that it includes the handler "
                    "too.",
                ),
                Choice(
                    "It answers True for facts in the tool's name, which the model is not sent",
                    "The name is sent, with the description and the schema, so True is right there.",
                ),
            ),
            reads="the model is told what the name, the description and the parameters say, and nothing the code alone says",
        ),
        Question(
            "Your check cell showed ✔, but `make check NB=00` says 'not done yet'. What happened?",
            (
                Choice(
                    "You had not saved, and the command reads the file on disk",
                    "The command reads the notebook as saved on disk. Save with Ctrl+S, then run it again.",
                    correct=True,
                ),
                Choice(
                    "The command tries harder inputs than the cell, and your function failed them",
                    "A failed case gets ✘ and a hint, not 'not done yet'. That message means a stub.",
                ),
                Choice(
                    "The kernel has to be restarted before a check counts your answer",
                    "A restart helps a confused session. The command runs a copy of the saved file, "
                    "whatever the kernel holds.",
                ),
            ),
        ),
    )
)
