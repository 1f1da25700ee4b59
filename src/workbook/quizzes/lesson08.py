"""The "check yourself" questions of lesson 08 · Code mode: what a program is told about your tools (its quiz cell shows them with ``quiz("08")``).

The right choice is written first; ``workbook.quiz.Quiz.order`` decides where the page shows it.
"""

from workbook.quiz import Choice, Question, Quiz

QUIZ = Quiz(
    (
        Question(
            "What does a catalog line tell a program about CC_GET_READINGS?",
            (
                Choice(
                    "Its code, its argument names and its description",
                    "That is all: no types, no schema, "
                    "nothing about the result unless the description says it.",
                    correct=True,
                ),
                Choice(
                    "Its full JSON schema",
                    "The schema goes to the model for direct calls; the catalog keeps only "
                    "the argument names.",
                ),
                Choice("The fields of its result", "Only if the description names them; nothing else can."),
            ),
        ),
        Question(
            "A tool's results carry temp_c, and the generated program asks each one for reading.temperature_celsius. What happens?",
            (
                Choice(
                    "It gets undefined, skips the reading, and may report a confident zero",
                    "Nothing fails; the answer is "
                    "just wrong. That is why the description must name the fields.",
                    correct=True,
                ),
                Choice(
                    "The runner raises an error naming the missing field, and the program stops",
                    "Reading a property an object lacks is legal JavaScript; it gives undefined.",
                ),
                Choice(
                    "The tool renames the field",
                    "Tools return what they return; the program has to ask for the right name.",
                ),
            ),
            reads="Checked 24 shipments: 0 temperature breaches found, no claims due.",
        ),
        Question(
            "A description holds a line break and a tab. What does its catalog line look like?",
            (
                Choice(
                    "One line: the break and the tab become spaces",
                    "Each tool stays on exactly one line, so a break cannot push the entries after it into "
                    "the // comment or start a line that looks like another tool's.",
                    correct=True,
                ),
                Choice(
                    "Two lines, as the description was written, with the tab kept",
                    "That is what the catalog prevents: a second line could read as the entry of another tool.",
                ),
                Choice(
                    "The tool is left out of the catalog until its description is fixed",
                    "Nothing is refused; the whitespace is flattened and the tool keeps its line.",
                ),
            ),
        ),
        Question(
            "The draft run printed no claims; the corrected run found three worth 1,920 EUR. What changed between the two runs?",
            (
                Choice(
                    "The field names the program reads, named now in the descriptions",
                    "The calls and the data are the same; with temp_c and max_temp_c named, the program reads the right fields.",
                    correct=True,
                ),
                Choice(
                    "The corrected run fetched more readings, so it saw the breaches",
                    "Both runs make 26 tool calls and return 58,010 characters to the program.",
                ),
                Choice(
                    "The draft run hit the call budget and stopped early",
                    "The draft run ended ok after its 26 calls; it read undefined fields and counted nothing.",
                ),
            ),
            reads="26 tool calls | 58,010 characters returned to the program | 208 characters to the model's context | ok",
        ),
    )
)
