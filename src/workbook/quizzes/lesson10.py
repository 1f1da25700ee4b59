"""The "check yourself" questions of lesson 10 · Definition levels (its quiz cell shows them with ``quiz("10")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "Levels three and four make the same 74 calls with 8 tool errors in 97 steps. Besides the tokens, "
            "what does the example call change?",
            (
                Choice(
                    "Task success: 0.9583, up from 0.7917",
                    "Swapped indexes pass the schema and raise no error, so only the answer shows the "
                    "difference: 4 more of the 24 tasks succeed.",
                    correct=True,
                ),
                Choice(
                    "Nothing that counts: with the same calls and errors, the runs are equal",
                    "An error count calls them equal, yet G03 leaves 99948 at level three and 52 at level four; "
                    "success is decided by the answer.",
                ),
                Choice(
                    "It removes the last 8 tool errors",
                    "Both levels keep 8: each is a call to the wrong tool at that step, such as tarife before "
                    "anything has computed m3, and no definition says which tool comes next.",
                ),
            ),
            reads="call 74 8 0.8919 0.9583",
        ),
        Question(
            "At level three, G03's third step sent tuketim {'onceki': 78241, 'simdiki': 78189} and got "
            "{'m3': 99948}, with no error. Why did no check catch it?",
            (
                Choice(
                    "Both are valid integers: the schema names the fields, not which reading goes in each",
                    "The call fits the schema, and the rollover rule turns the negative difference into a "
                    "result. Only the example call shows that the smaller index goes to onceki.",
                    correct=True,
                ),
                Choice(
                    "The tool returned an error, and the loop went on without it",
                    "The error column says False at step 3: 99948 is a result, returned like any other.",
                ),
                Choice(
                    "The call boundary drops the schema's field rules before the tool runs",
                    "The boundary drops only fields the schema does not declare; both indexes are declared "
                    "and pass. No rule about which value goes where existed to drop.",
                ),
                Choice(
                    "Each index lacked a range, such as 0 to 99999, that would have refused it",
                    "78241 and 78189 both lie in any sensible range; a rule on one field cannot say which "
                    "reading is the earlier one.",
                ),
            ),
            reads="tuketim tuketim {'onceki': 78241, 'simdiki': 78189}",
        ),
        Question(
            "Level four spends 1212 tokens per correct answer where level three spent 1126. Why?",
            (
                Choice(
                    "Its catalog is 67 tokens bigger and is sent again at each step",
                    "Both levels take 97 steps, so the bigger catalog adds 67 x 97 = 6,499 tokens; four more "
                    "right answers do not make up for them.",
                    correct=True,
                ),
                Choice(
                    "It takes more steps per task, and each step costs tokens",
                    "Both levels take 97 steps; the steps are the same, the catalog sent at each is not.",
                ),
                Choice(
                    "It gets fewer tasks right, so each right answer carries more tokens",
                    "It gets 23 right against 19. The extra answers lower the unit cost, but not by as much "
                    "as the larger catalog raises it.",
                ),
            ),
            reads="schema + example call 27,886 tokens / 23 correct = 1212",
        ),
        Question(
            "Over 500 seeds the sweep prints 'run-to-run band 0.2500: the gap is inside it'. What does that say "
            "about the source's table of two runs?",
            (
                Choice(
                    "One run per level cannot tell a gap of 0.1666 from noise",
                    "Two runs of level three alone differ by 0.1666 or more in 22.2 % of pairs; the source's "
                    "band of zero came from two seeds that happened to agree.",
                    correct=True,
                ),
                Choice(
                    "The gap between levels three and four is noise, even over 500 seeds",
                    "Over 500 paired seeds the mean gap is 0.1938, its 95 % interval 0.1870 to 0.2007: inside "
                    "the simulation the gap is clear. The band is about single runs.",
                ),
                Choice(
                    "Level four beats level three in only a quarter of the seeds",
                    "0.2500 is how far two runs of one level can land apart, not a share of seeds; level four "
                    "is better in 99.0 % of them.",
                ),
            ),
            reads="run-to-run band 0.2500: the gap is inside it; two runs of level 3 alone differ by >= 0.1666",
        ),
        Question(
            "Give level four the swap share of level three (0.30) and the 500-seed gap becomes 0.0000. What "
            "does that show?",
            (
                Choice(
                    "The whole gap came from the swap share the simulation was given",
                    "The agent's choices depend only on the level's numbers, and a paired seed makes the same "
                    "choices at both levels. Whether a real model swaps less after an example takes a "
                    "measurement with one.",
                    correct=True,
                ),
                Choice(
                    "Example calls do not help real models with this task either",
                    "A simulation returns what its parameters put in and says nothing about a real model, "
                    "either way. Anthropic reports 72 % to 90 % on complex parameters with input examples in "
                    "its own tests (R13): a real measurement, not this one.",
                ),
                Choice(
                    "The sweep is broken, since 500 seeds should leave some gap",
                    "One seed drives both levels, so the agent makes the same choices at both; with the same "
                    "swap share they leave the same answers, task by task.",
                ),
            ),
            reads="mean gap 0.0000 (95% CI 0.0000 .. 0.0000)",
        ),
        Question(
            "At level four, 8 of 66 valid calls go to a tool outside the task's sequence. What does it say?",
            (
                Choice(
                    "A definition says which calls are possible, not which one comes next",
                    "Those calls ran correctly and returned results; the task did not need them.",
                    correct=True,
                ),
                Choice(
                    "They are the table's 8 tool errors, counted a second time",
                    "74 calls less 8 errors leaves the 66 valid ones; these 8 are among the valid calls, and "
                    "none returned an error.",
                ),
                Choice(
                    "The schema is incomplete: it should name the tools allowed after this one",
                    "A schema states one tool's arguments. Which tool comes next is not something it can say, "
                    "which is also why the last 8 errors stay.",
                ),
            ),
            reads="8 of 66 valid calls called a tool outside the task's sequence",
        ),
        Question(
            "Your level 'name + example call' keeps 0.9333 success at about 930 tokens per answer, against "
            "0.9417 and 1207 for level four. What carried that result?",
            (
                Choice(
                    "The selection factor of 0.86 you assumed for it",
                    "The simulation picks tools from that number, not from any text. Whether a real model "
                    "chooses as well from an example as from a description takes a selection test "
                    "(notebook 06).",
                    correct=True,
                ),
                Choice(
                    "The example call, which tells the agent all the description did",
                    "The simulated agent reads no text at all: its choices come from the level's three "
                    "numbers, so it cannot show what an example tells a model.",
                ),
                Choice(
                    "The shorter catalog: fewer tokens leave less to confuse",
                    "The tokens set the price only; the loop's choices do not depend on the catalog's text "
                    "or size.",
                ),
            ),
            reads="name + example call 0.9333 0.9260 0.9407 929.5953",
        ),
    )
)
