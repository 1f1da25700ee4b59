"""The "check yourself" questions of lesson 17 · Results that carry instructions (its quiz cell shows them with ``quiz("17")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Why can an order note steer an agent at all?",
            (
                Choice(
                    "The model reads the note and the request as one stream of text",
                    "Nothing in the text says who wrote a sentence, so an instruction in a note reads like one "
                    "from the user.",
                    correct=True,
                ),
                Choice(
                    "The dispatcher hands the note to the model as a system instruction",
                    "The note arrives inside a tool result, as data the tool returned; reading it is enough.",
                ),
                Choice(
                    "Only because the tool description does not tell the model to ignore notes",
                    "The description is not involved; the result is. A line in a description is advice, like "
                    "the note itself.",
                ),
            ),
        ),
        Question(
            "With the notes quoted and labelled as data, the literal reader still proposed 20 of 24 releases. "
            "What does the label add?",
            (
                Choice(
                    "A way for a reader that honours it to tell data from instruction; this reader stops none",
                    "A label works only if the reader honours it; the 0 of 24 row is for a reader assumed to.",
                    correct=True,
                ),
                Choice(
                    "A guarantee that holds for real models: only the scripted reader ignores it",
                    "How a real model treats the label is a measurement this lesson leaves to a real model; "
                    "nothing here shows it.",
                ),
                Choice(
                    "Nothing: the lint rule still flags the quoted notes, so the design cannot ship",
                    "The lint table shows the quoted variant with no finding; the rule flags unlabelled free "
                    "text only.",
                ),
            ),
            reads="notes quoted, reader 'literal': 20 of 24 propose a release",
        ),
        Question(
            "In the defence table, 'approval gate only (notes raw)' shows 20 reaching a write proposal, 0 drafted "
            "with no decision and 20 a person must catch. What did the gate change?",
            (
                Choice(
                    "Not the proposals: each still came, and became a decision a person had to make",
                    "The gate stops the write, not the proposal; its cost is the person's attention.",
                    correct=True,
                ),
                Choice(
                    "The gate's code refused the 20 drafts itself, so nobody had to look at them",
                    "The column says a person must catch 20: under the course's rule a person decides every "
                    "write.",
                ),
                Choice(
                    "Everything the notes could do: with a gate, no poisoned record reaches anything",
                    "The gate sees writes only; a read's arguments or the answer can still carry private data "
                    "out.",
                ),
            ),
            reads="approval gate only (notes raw) literal 24 20 0 20",
        ),
        Question(
            "A person refused the draft that P01's note caused. What does the model read next?",
            (
                Choice(
                    "Nothing has changed; a person refused it, with their reason; do not propose it again",
                    "Each refusal says first that nothing changed, then who refused and their reason.",
                    correct=True,
                ),
                Choice(
                    "The release request was submitted and now waits for a person's approval",
                    "Lesson 12's literal reader passes such words on as a change that happened; nothing was "
                    "filed.",
                ),
                Choice(
                    "Nothing at all: a refused call is dropped from the turn, so the note gets no second try",
                    "A dropped call leaves the model and the clerk believing it may have run; the refusal goes "
                    "back as a result.",
                ),
            ),
            reads="what the model reads: Nothing has changed: release_request_create was not run; a person refused it.",
        ),
        Question(
            "Leaving free text out took the proposals to 0 for either reader. Why not always do it?",
            (
                Choice(
                    "The useful notes go too, such as the delivery window and the agreed discount",
                    "The useful-notes column drops to 0 of 10: leave free text out unless the job needs it.",
                    correct=True,
                ),
                Choice(
                    "It stops only the literal reader; a reader that reads better finds the notes anyway",
                    "There is nothing to find: no note is in any result, so no reader can follow one.",
                ),
                Choice(
                    "No reason not to: with no notes, no write is proposed, so the gate can go too",
                    "The clerk's own requests still propose writes, and under the course's rule each goes to a "
                    "person.",
                ),
            ),
            reads="leave free text out literal 24 0 0 0",
        ),
        Question(
            "The scripted reader did not follow P21 and P24 (another language) or the paraphrases. What does that "
            "say about a real model?",
            (
                Choice(
                    "Nothing reassuring: they are limits of its short list of English words, not safety",
                    "A model that reads German and French, or takes the meaning of a paraphrase, is not stopped by them; a real model is measured opt-in.",
                    correct=True,
                ),
                Choice(
                    "That a real model follows about 20 of 24 such notes, which this run estimates",
                    "The lesson calls the counts a worst case for defences that rely on the reader, not an "
                    "estimate for any model.",
                ),
                Choice(
                    "That notes in a language other than the user's are not followed",
                    "The stand-in cannot show that: its rule matches English words, nothing more.",
                ),
            ),
            reads="P21 another language 4711 -",
        ),
        Question(
            "An agent reads customer credit data, reads notes typed by outsiders, and can search the web. Why is "
            "that the risky mix?",
            (
                Choice(
                    "A note can ask for private data to go out in a search, and the gate never sees reads",
                    "Private data, untrusted text and a way out together make a leak possible; remove any one.",
                    correct=True,
                ),
                Choice(
                    "Web search is risky on its own, whatever else the agent holds",
                    "Alone it leaks nothing private; the mix does.",
                ),
                Choice(
                    "It is not: no write is involved, so the approval gate already covers every part of it",
                    "The gate sees writes only; a search query is a read that can carry the data away.",
                ),
            ),
        ),
        Question(
            "With the gate on and notes quoted, a person must refuse 20 drafts. What brings that number down?",
            (
                Choice(
                    "Fewer proposals: the notes left out, or a reader that honours the label",
                    "Every proposal that reaches the gate is a refusal to make; only fewer proposals mean fewer "
                    "to catch.",
                    correct=True,
                ),
                Choice(
                    "The lint rule, which stops each poisoned note at run time",
                    "The rule acts before release: it refuses the raw design and stops no sentence at run time.",
                ),
                Choice(
                    "A firmer handling sentence in the label, so the literal reader skips the notes",
                    "The literal reader reads every string, labelled or not: no wording changes what it follows.",
                ),
            ),
        ),
    )
)
