"""The "check yourself" questions of lesson 06 · The selection test (its quiz cell shows them with ``quiz("06")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "The tuning summary reads 'mirror 4/10 right, 2/2 no-call requests declined'. What do the two "
            "figures count?",
            (
                Choice(
                    "4 of 10 tool requests right; both no-call requests got no call",
                    "The requests no tool should serve are counted apart, so a set must also show that it lets "
                    "the picker decline.",
                    correct=True,
                ),
                Choice(
                    "4 of all 12 requests were right, the two declined ones among them",
                    "The 10 is the tool requests alone; the two no-call requests have their own figure.",
                ),
                Choice(
                    "4 right of 10, and two declines that count as misses",
                    "Declining is the right answer to a no-call request: 2/2 declined is a full score.",
                ),
            ),
            reads="mirror 4/10 right, 2/2 no-call requests declined",
        ),
        Question(
            "With the word stand-in the designed set falls from 70% on tuning to 65% on held-out. What does "
            "that drop show?",
            (
                Choice(
                    "Little: one tuning request moves it ten points",
                    "And the untuned mirror falls 16: a gap points to fitting only when it is larger than what an "
                    "untuned set shows.",
                    correct=True,
                ),
                Choice(
                    "That the designed wording was fitted to the tuning requests",
                    "The designed descriptions were never revised towards these cases, and the untuned mirror "
                    "drops further.",
                ),
                Choice(
                    "That a model would get about 65% of held-out requests right",
                    "The figure is a word counter's; no model was measured, and a model may do better or worse.",
                ),
                Choice(
                    "That the held-out requests are harder, so tuning is the fairer figure",
                    "The tuning requests are the ones the descriptions were written against; held-out stays the "
                    "headline.",
                ),
            ),
            reads="designed words tuning 70% -> held-out 65% (down 5 points: 22 of 34 held-out requests right)",
        ),
        Question(
            "With the designed set, the word stand-in sends 'Release order 4711, the customer has promised to "
            "pay.' to customer_get_credit_exposure. Why?",
            (
                Choice(
                    "It shares more words with the credit tool than with the release tool",
                    "Three (customer, order, release) against two (order, release); the stand-in counts them and "
                    "cannot tell which job they describe.",
                    correct=True,
                ),
                Choice(
                    "A credit check has to come before a release, so it chose the safer tool",
                    "That is a reason a reader might give; the stand-in knows no business rules and only counts "
                    "shared words.",
                ),
                Choice(
                    "Ties go to the tool listed first, and the credit tool comes before the others",
                    "It is no tie (three words against two), and the block summary tool is listed first.",
                ),
            ),
            reads="WRONG customer_get_credit_exposure <- Release order 4711, the customer has promised to pay.",
        ),
        Question(
            "For the mirror, 'Please unblock order 4723 so it can ship today.' counts as a miss whatever is "
            "picked. Why?",
            (
                Choice(
                    "The mirror's only tool for it, update_order, changes the order with nobody's approval",
                    "The case marks it 'no safe tool' for the mirror: a right answer would need a tool "
                    "it does not have.",
                    correct=True,
                ),
                Choice(
                    "The stand-in chose get_order; update_order would have been right",
                    "Changing an order with nobody's approval is not a right answer; the case gives the mirror no "
                    "safe tool.",
                ),
                Choice(
                    "It is a no-call request, and the stand-in should have declined",
                    "The designed set serves it with release_request_create; it is a tool request, not an "
                    "irrelevant one.",
                ),
            ),
            reads="Please unblock order 4723 so it can ship today. (this set has no safe tool for",
        ),
        Question(
            "The keyword-stuffed wording beats the plain one with both stand-ins, held-out included. What does "
            "that show?",
            (
                Choice(
                    "That its descriptions share more words with the requests, nothing more",
                    "A stand-in counts shared words; whether a model or a clerk finds a description clear it "
                    "cannot see.",
                    correct=True,
                ),
                Choice(
                    "That it describes the jobs better, since held-out cases cannot be fitted",
                    "The lesson shows fitting can raise every column at once, held-out included, with no gap "
                    "to see.",
                ),
                Choice(
                    "That a model will choose better with the stuffed descriptions",
                    "No model was measured; a word counter rewards whoever lists the most words.",
                ),
                Choice(
                    "That the plain descriptions need more of the clerks' synonyms",
                    "That would tune them to the instrument, and its score would stop measuring the descriptions.",
                ),
            ),
            reads="designed-keyword-stuffed bm25 10/10 (100%) 133/138 (96%) 30/34 (88%)",
        ),
        Question(
            "Beside its higher scores, what does the keyword-stuffed wording's cost line print?",
            (
                Choice(
                    "15 lint findings and 318 more tokens per call than the plain wording",
                    "Every stuffed description is too long and lists synonyms (15 findings), and the extra words "
                    "are sent on every call.",
                    correct=True,
                ),
                Choice(
                    "0 lint findings, since every clause the rules ask for is there",
                    "The clauses are there, but so are too many sentences and lists of synonyms: the line prints "
                    "15 findings.",
                ),
                Choice(
                    "Fewer tokens per call, because keywords are shorter than sentences",
                    "It sends 1,313 tokens per call against the plain wording's 995.",
                ),
            ),
            reads="1313 tokens per call, 13,130 across a 10-step loop, 15 lint findings",
        ),
        Question(
            "One of your own held-out requests goes to the wrong tool. What do you do?",
            (
                Choice(
                    "Report the miss; revise only against development requests like it",
                    "Then write fresh held-out requests: rewording towards a held-out request turns it into a "
                    "development request.",
                    correct=True,
                ),
                Choice(
                    "Add its words to the description, then re-run the held-out set to confirm",
                    "Then the held-out score only shows that you copied the request's words into the description.",
                ),
                Choice(
                    "Replace it with a request the set gets right",
                    "Dropping the cases that fail is how a test stops measuring anything.",
                ),
            ),
        ),
        Question(
            "A real model and the stand-in pick different tools for one request. Which pick is right?",
            (
                Choice(
                    "Whichever matches the case's expected tool",
                    "The reference is the expected tool written in the case; neither picker is the judge. Keep the "
                    "case and re-run both after every change.",
                    correct=True,
                ),
                Choice(
                    "The model's, always: it reads meaning, the stand-in only counts words",
                    "A model can pick wrongly too; the case says what is right.",
                ),
                Choice(
                    "The stand-in's, because it gives the same pick on every run",
                    "Repeatable is not the same as right: the stand-in repeats its misses too.",
                ),
            ),
        ),
    )
)
