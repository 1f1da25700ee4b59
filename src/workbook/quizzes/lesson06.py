"""The "check yourself" questions of lesson 06 · The selection test (its quiz cell shows them with ``quiz("06")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "The keyword-stuffed wording scores 10/10 on the tuning cases and lower on held-out. Which figure "
            "is the headline?",
            (
                Choice(
                    "The held-out score",
                    "It is the only one measured on requests the wording was not fitted to.",
                    correct=True,
                ),
                Choice(
                    "The tuning score, because it is the highest",
                    "It is the score of an answer key the author wrote the descriptions against.",
                ),
                Choice(
                    "The average of the three", "Averaging mixes a fair measurement with two flattering ones."
                ),
            ),
            reads="designed-keyword-stuffed bm25 10/10 (100%) 133/138 (96%) 30/34 (88%)",
        ),
        Question(
            "A held-out request fails. What do you do?",
            (
                Choice(
                    "Report it; if the description is wrong, revise against new development requests like it, and "
                    "write fresh held-out ones",
                    "Rewording towards a held-out request turns it into a development request.",
                    correct=True,
                ),
                Choice(
                    "Add its words to the description and re-run the held-out set to confirm it passes",
                    "Then the held-out score only measures your memory.",
                ),
                Choice(
                    "Delete the request", "Dropping cases that fail is how a test stops measuring anything."
                ),
            ),
        ),
        Question(
            "The keyword-stuffed descriptions beat the plain ones with both stand-ins. What does that show?",
            (
                Choice(
                    "That they share more words with the requests, nothing more",
                    "A stand-in counts shared words; "
                    "whether a model or a clerk finds a description clear it cannot see.",
                    correct=True,
                ),
                Choice(
                    "That a model will choose better with them",
                    "No model was measured; a word counter rewards whoever lists the most words.",
                ),
                Choice(
                    "That the plain descriptions need more synonyms of the clerks' words",
                    "That would tune them to the instrument and make its score meaningless.",
                ),
            ),
            reads="words 10/10 (100%) 132/138 (96%) 31/34 (91%)",
        ),
        Question(
            "Why include requests that no tool should serve?",
            (
                Choice(
                    "A set must also let the model decline",
                    "A picker that always calls something will call the "
                    "wrong tool for a request outside every job.",
                    correct=True,
                ),
                Choice(
                    "To make the score look better", "They are counted separately from the tool requests."
                ),
                Choice("Because the stand-in needs them", "They test the set, whatever the picker."),
            ),
        ),
        Question(
            "The word stand-in and BM25 both get a request wrong. What does that show about a real model?",
            (
                Choice(
                    "Nothing certain: they only show whether the words are there",
                    "A model reads meaning; a stand-in's miss may be its crude stemming.",
                    correct=True,
                ),
                Choice(
                    "The model will get it wrong too", "Offline stand-ins are not models; measure the model."
                ),
                Choice(
                    "The request is badly written and should be dropped from the set",
                    "The request is the clerk's; the definitions are yours.",
                ),
            ),
        ),
        Question(
            "A real model and the stand-in disagree on a request. Which one is right?",
            (
                Choice(
                    "Whichever picked the case's expected tool",
                    "The reference is the expected tool written in the "
                    "case; neither picker is the judge. Keep the case and re-run both after every change.",
                    correct=True,
                ),
                Choice(
                    "The model, always: it understands the request, the stand-in only counts words",
                    "A model can pick wrongly too; the case says what is right.",
                ),
                Choice(
                    "The stand-in, because it is deterministic and repeatable",
                    "Deterministic is not the same as right.",
                ),
            ),
        ),
        Question(
            "Beside its higher scores, what does the keyword-stuffed wording's cost line print?",
            (
                Choice(
                    "15 lint findings and 318 more tokens per call than the plain wording",
                    "Five sentences and 118 words break the length rules, and the extra words are sent on every call.",
                    correct=True,
                ),
                Choice(
                    "0 lint findings, since every clause the rules ask for is there",
                    "The clauses are there, but so are too many sentences and words: the line prints 15 findings.",
                ),
                Choice(
                    "Fewer tokens per call, because keywords are shorter than sentences",
                    "It sends 1,313 tokens per call against the plain wording's 995.",
                ),
            ),
            reads="1313 tokens per call, 13,130 across a 10-step loop, 15 lint findings",
        ),
    )
)
