"""The "check yourself" questions of lesson 08 · Code mode: what a program is told about your tools (its quiz cell shows them with ``quiz("08")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "The draft catalog's line for CC_GET_READINGS shows its argument as '{ shipment_id }'. What does a "
            "program learn there about shipment_id?",
            (
                Choice(
                    "Its name only: no type, and not where the id comes from",
                    "The schema's note that it is the numeric id, not the SHP- number, goes to the model for "
                    "direct calls; the catalog keeps argument names alone.",
                    correct=True,
                ),
                Choice(
                    "Its name and its type, integer, from the JSON schema",
                    "No types reach the catalog; nothing there stops a program from passing the SHP- number.",
                ),
                Choice(
                    "That it is the numeric id from CC_LIST_SHIPMENTS, as the schema says",
                    "That sentence is the parameter's description in the schema, and the catalog carries no "
                    "parameter descriptions.",
                ),
            ),
            reads='await callTool("CC_GET_READINGS", { shipment_id }) // Get the temperature readings recorded '
            "for a shipment.",
        ),
        Question(
            "A tool's results carry temp_c, and the draft program asks each reading for temperature_celsius. "
            "What happens?",
            (
                Choice(
                    "It gets undefined, skips every reading and reports no claims",
                    "Nothing fails; the answer is just wrong. That is why the description must name the fields.",
                    correct=True,
                ),
                Choice(
                    "JavaScript throws a TypeError, and the run ends with an error",
                    "Reading a property an object lacks is legal JavaScript: it gives undefined, and the run ends "
                    "ok.",
                ),
                Choice(
                    "The runner stops the program with an error naming the missing field",
                    "The runner sees nothing wrong: the tool answered, and what the program reads from the result "
                    "is the program's business.",
                ),
            ),
            reads="Checked 24 shipments: 0 temperature breaches found, no claims due.",
        ),
        Question(
            "The draft run's summary reads '58,010 characters returned to the program | 88 characters to the "
            "model's context'. What reached the model?",
            (
                Choice(
                    "Only the program's printout: two lines, 88 characters",
                    "The 26 results stayed in the program; only what it printed goes back to the model.",
                    correct=True,
                ),
                Choice(
                    "All 58,010 characters, as the results of 26 tool calls",
                    "That is how a classic run works; here the program made the calls and kept their results.",
                ),
                Choice(
                    "88 characters for each of the 26 tool calls, about 2,300 in all",
                    "The 88 is one figure for the run: the printout that goes to the model.",
                ),
            ),
            reads="26 tool calls | 58,010 characters returned to the program | 88 characters to the model's context "
            "| ok",
        ),
        Question(
            "The draft run printed no claims; the corrected run found three worth 1,920 EUR. What changed between "
            "the two runs?",
            (
                Choice(
                    "The field names the program reads, named now in the descriptions",
                    "The calls and the data are the same; with temp_c and max_temp_c named, the program reads the "
                    "right fields.",
                    correct=True,
                ),
                Choice(
                    "The corrected run fetched more readings, so it saw the breaches",
                    "Both runs make 26 tool calls and return 58,010 characters to the program.",
                ),
                Choice(
                    "The question: the corrected program was asked for claims, not breaches",
                    "Not one word of the question changed between the two programs; the descriptions did.",
                ),
            ),
            reads="26 tool calls | 58,010 characters returned to the program | 208 characters to the model's "
            "context | ok",
        ),
        Question(
            "The lesson's two JavaScript programs: where do they come from?",
            (
                Choice(
                    "Recordings written the way models write such programs, not live runs",
                    "They are kept in data/codemode/ and run against the registry: they show the mechanism, and "
                    "no model's behaviour was measured.",
                    correct=True,
                ),
                Choice(
                    "A live run of a model, saved when the notebook was executed",
                    "The program's own header says it was recorded for the course, not taken from a live run.",
                ),
                Choice(
                    "The runner writes them from the catalog, as UC AI's run_code does",
                    "The runner only runs a program; in code mode the model writes it, and here a recording "
                    "stands in for the model.",
                ),
            ),
            reads="Recorded for the course: written the way models write such programs, not taken from a live run.",
        ),
        Question(
            "A description holds a line break and a tab. What does its catalog line look like?",
            (
                Choice(
                    "One line: the break and the tab become spaces",
                    "Each tool stays on exactly one line, so a break cannot push the entries after it into the // "
                    "comment or start a line that looks like another tool's.",
                    correct=True,
                ),
                Choice(
                    "Two lines, as the description was written",
                    "That is what the catalog prevents: a second line could read as the entry of another tool.",
                ),
                Choice(
                    "The tool is left out of the catalog until its description is fixed",
                    "Nothing is refused; the whitespace is flattened and the tool keeps its line.",
                ),
            ),
            reads="// Temperature log of one shipment. Returns { shipment_id, readings }. One row every 30 minutes.",
        ),
        Question(
            "Someone stores a 4,001-character description with hand-written SQL, going past the Python code. "
            "What happens?",
            (
                Choice(
                    "The database refuses it: the table's CHECK allows at most 4,000",
                    "The limit is a constraint of the table itself, so it holds whatever writes the row.",
                    correct=True,
                ),
                Choice(
                    "It is stored, since only the Python code checks the length",
                    "The lesson printed the table: the CHECK constraint is in the database, not just in the code.",
                ),
                Choice(
                    "It is cut to 4,000 characters and stored without a word",
                    "Nothing is cut; a CHECK constraint refuses the whole row.",
                ),
            ),
            reads="description TEXT NOT NULL CHECK (length(description) <= 4000)",
        ),
    )
)
