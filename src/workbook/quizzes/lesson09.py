"""The "check yourself" questions of lesson 09 · Code mode: the sandbox, each tool's access and the catalog's budget (its quiz cell shows them with ``quiz("09")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "An older deployment script calls merge_tool without code_mode_access on a tool set to 'code'. "
            "What is the tool's access afterwards?",
            (
                Choice(
                    "Still 'code': merge_tool keeps it",
                    "Without an access value, merge_tool leaves the old one in place, like UC AI's "
                    "merge_tool_from_schema: pass it every time.",
                    correct=True,
                ),
                Choice(
                    "'both', the value every tool starts with",
                    "That is what create_tool gives a new tool; merge_tool changes only what it is given.",
                ),
                Choice(
                    "None: the call fails, since code_mode_access has no default",
                    "Nothing fails, which is what makes it a trap; the verification query shows the old value "
                    "kept.",
                ),
            ),
            reads="('CC_GET_READINGS', 'code', 1)",
        ),
        Question(
            "What does the V8 isolate not protect you from?",
            (
                Choice(
                    "What the program's tools can do",
                    "A program can call every tool in its catalog, as often as its budget allows, with no person "
                    "looking at each call. A tool that writes belongs to 'direct'.",
                    correct=True,
                ),
                Choice(
                    "A loop that never ends",
                    "The engine stops it at the time limit: half a second in the lesson's demonstration.",
                ),
                Choice(
                    "A program that reads your files on disk",
                    "There are no files, no require and no network in the isolate.",
                ),
                Choice(
                    "A callTool loop that catches every error it gets",
                    "The call budget is no error the program can catch: the runner ends the isolate at call 21.",
                ),
            ),
            reads="ReferenceError: require is not defined",
        ),
        Question(
            "CC_FILE_CLAIM writes, cannot be taken back, returns 41 characters and is nothing a person asks to "
            "read. Which code_mode_access does your deployment give it?",
            (
                Choice(
                    "'direct', so each claim passes the dispatcher",
                    "A program's callTool reaches the handler with nobody in between; on the direct path a person "
                    "decides this claim.",
                    correct=True,
                ),
                Choice(
                    "'code': no person asks to read its result",
                    "That is the rule for bulk tools that only read; a tool that writes must stay out of every "
                    "program.",
                ),
                Choice(
                    "'both', the value a new tool starts with anyway",
                    "Then a program looping over 24 shipments could file claims before any person saw one.",
                ),
            ),
            reads="{'name': 'CC_FILE_CLAIM', 'writes': True, 'irreversible': True, 'result_chars': 41, "
            "'person_asks': False}",
        ),
        Question(
            "The bulk tools are now 'code'. Can the readings still reach the model's context?",
            (
                Choice(
                    "Yes, if a program prints them; only the 20,000-character cut limits that",
                    "The preamble asks for a few lines and never the raw data, and nothing but that request and the "
                    "cut enforces it.",
                    correct=True,
                ),
                Choice(
                    "No: 'code' keeps their results off every path to the model",
                    "'code' takes the tools off the model's list; what a program prints still goes back.",
                ),
                Choice(
                    "No: the runner refuses to print data that came from a tool",
                    "The runner cuts the printout at 20,000 characters; it does not know where a value came from.",
                ),
            ),
            reads="run_program's defaults: 5 s, 64 MB, 50 calls, output cut at 20,000 characters",
        ),
        Question(
            "In this notebook's measured runs, which step removes most of the characters that reach the model?",
            (
                Choice(
                    "run_code: the program makes the 26 calls",
                    "The savings table shows it: that step removes 80% of the classic run's characters, the bulk "
                    "tools set to 'code' 13% more. UC AI's reported run with a real model splits it the other way, "
                    "which the scripted stand-in cannot settle.",
                    correct=True,
                ),
                Choice(
                    "Setting the bulk tools to 'code'",
                    "That step removes 13% here: the two definitions and the stand-in's two looks at the data. It "
                    "is the bigger step in UC AI's reported run, not in this one.",
                ),
                Choice(
                    "The corrected descriptions that name the result fields",
                    "They made the answer right in notebook 08; all three runs here use them and give the same "
                    "answer.",
                ),
                Choice(
                    "Fewer tool calls: one call in place of 26",
                    "The model makes fewer calls, but the program still makes all 26; what saves characters is "
                    "that their results stay in the program.",
                ),
            ),
            reads="run_code: the program makes the calls 60241 12020",
        ),
        Question(
            "Twelve tools are code-callable and the catalog holds ten. What does the model see?",
            (
                Choice(
                    "Nothing unusual: no error, and two tools a program cannot call",
                    "The only trace is one warning in the log, once per catalog.",
                    correct=True,
                ),
                Choice(
                    "An error from run_code naming the two tools left out",
                    "The catalog is built without failing; only a program that calls one gets an error.",
                ),
                Choice(
                    "All twelve, with the two extra ones cut to their names",
                    "A tool that does not fit is skipped whole.",
                ),
            ),
            reads="code-mode catalog budget of 31,855 bytes reached: 2 code-callable tools left out",
        ),
        Question(
            "Registry A leaves out CC_FILLER_8 and 9, registry B CC_FILLER_2 and 1, with the same twelve tools. "
            "Why?",
            (
                Choice(
                    "Which tools are dropped follows the order the store returns them in",
                    "How many follows from the sizes; which ones is not promised, since the query has no ORDER BY.",
                    correct=True,
                ),
                Choice(
                    "The catalog always drops the tools registered last",
                    "In registry B the cold-chain tools came last and still got in: a tool that does not fit is "
                    "skipped, and the next one is tried.",
                ),
                Choice(
                    "Registry B's catalog takes more bytes, so it fills up sooner",
                    "Both print 30,097 bytes of 31,855 and both hold ten tools.",
                ),
                Choice(
                    "The two registries were given different budgets",
                    "Both use UC AI's 31,855 bytes.",
                ),
            ),
            reads="LEFT OUT: 2 tools: CC_FILLER_2, CC_FILLER_1",
        ),
        Question(
            "With the sizes of exercise 3 (preamble 942, the cold-chain tools 401, 375 and 428, one filler 3,993 "
            "bytes), how many fillers fit in 31,855 bytes?",
            (
                Choice(
                    "7",
                    "31,855 less the 2,146 fixed bytes leaves 29,709, and 29,709 // 3,993 is 7: the three "
                    "cold-chain tools and 7 fillers, ten in all.",
                    correct=True,
                ),
                Choice(
                    "8: 31,855 / 3,993 is about 8",
                    "That forgets the preamble and the three cold-chain tools, 2,146 bytes before any filler.",
                ),
                Choice(
                    "7 whole fillers and part of an eighth",
                    "A tool that does not fit is skipped whole; no part of it enters the catalog.",
                ),
            ),
            reads="'CC_GET_LIMITS': 428, 'one filler': 3993",
        ),
    )
)
