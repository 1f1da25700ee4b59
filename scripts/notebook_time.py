"""How long a careful learner takes over each lesson, measured from the notebook itself.

    .venv/bin/python scripts/notebook_time.py            # one line per lesson, the total, the long ones
    .venv/bin/python scripts/notebook_time.py 06 09      # only these lessons
    .venv/bin/python scripts/notebook_time.py --write    # set each lesson's Time line to its measured walk

A walk through a lesson is counted, never guessed (docs/AUTHORING.md, "Setting the time"):
reading the prose, reading the code a cell shows, reading what it prints, looking at each chart,
running each cell, doing each exercise, playing with each widget and answering the quiz. Each
part has a rate (``RATES``); the sum is rounded to the nearest five minutes and is what the
lesson's **Time** line states (``tests/test_durations.py`` holds them to it). The rates are a
careful reader's, not a fast one's: a learner who knows the subject goes faster, one who
experiments in every widget slower.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
# Lines of a function exercise's answer (code, not blank, not comment) that its 12 minutes cover. The
# capstone's loop answers eleven behaviours in about 45 lines; counting it as a short function would
# state a third of the time it takes.
ANSWER_LINES = 15
LONG = 75  # minutes: a lesson past this is a candidate for a split at a natural seam

# Minutes per unit of each part of a walk.
RATES = {
    "prose word": 1 / 200,         # reading English prose carefully
    "code line": 1 / 8,            # reading a line of shown code (not an exercise's own solution)
    "output word": 1 / 400,        # skimming what a cell prints: tables, listings, messages
    "chart": 1.0,                  # reading a plot and the sentence after it
    "code cell": 0.25,             # running a cell and waiting for it
    "function exercise": 12.0,     # writing a function of up to ANSWER_LINES lines and getting its check to pass
    "long answer line": 1 / 2,     # each line of a function's answer beyond ANSWER_LINES: writing and debugging it
    "value exercise": 6.0,         # working out a value or a short text
    "written exercise": 15.0,      # a note graded by a person
    "widget": 3.0,                 # trying a widget's controls
    "quiz question": 1.0,          # reading a question, its choices and the explanation
}
TIME_LINE = re.compile(r"\*\*Time:\*\* about (\d+) minutes")


@dataclass(frozen=True)
class Walk:
    notebook: str
    counts: dict[str, int]

    @property
    def minutes(self) -> float:
        return sum(RATES[part] * n for part, n in self.counts.items())

    @property
    def rounded(self) -> int:
        return max(5, 5 * round(self.minutes / 5))


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z0-9_'’-]+", text))


def _text_outputs(cell: dict) -> str:
    found = []
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if "application/vnd.jupyter.widget-view+json" in data:
            continue  # a widget's text form is not read; the widget is counted on its own
        if "text" in output:
            found.append("".join(output["text"]))
        elif "text/plain" in data and "image/png" not in data:
            found.append("".join(data["text/plain"]))
    return "\n".join(found)


def walk(path: Path) -> Walk:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    counts = dict.fromkeys(RATES, 0)
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        grading = cell.get("metadata", {}).get("nbgrader", {})
        if cell["cell_type"] == "markdown":
            if grading.get("solution"):
                counts["written exercise"] += 1  # the learner writes it; its model answer is not read
                continue
            counts["prose word"] += _words(re.sub(r"\]\([^)]*\)", "]", source))
            continue
        if cell["cell_type"] != "code":
            continue
        counts["code cell"] += 1
        outputs = cell.get("outputs", [])
        if grading.get("solution"):
            kind = "function exercise" if re.search(r"^\s*def ", source, re.M) else "value exercise"
            counts[kind] += 1
            if kind == "function exercise":
                counts["long answer line"] += max(0, _answer_lines(source) - ANSWER_LINES)
        elif "Question(" in source or QUIZ_CALL.search(source):
            counts["quiz question"] += _quiz_questions(source)
        else:
            counts["code line"] += sum(1 for line in source.splitlines() if line.strip())
            counts["widget"] += sum("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
        counts["chart"] += sum("image/png" in o.get("data", {}) for o in outputs)
        counts["output word"] += _words(_text_outputs(cell))
    return Walk(path.stem, counts)


def _answer_lines(source: str) -> int:
    """Lines of code in an answer cell's solution (between the BEGIN and END SOLUTION markers if any)."""
    found = re.search(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", source, re.S)
    body = found.group(1) if found else source
    return sum(1 for line in body.splitlines() if line.strip() and not line.strip().startswith("#"))


QUIZ_CALL = re.compile(r"""\bquiz\(\s*["'](\d\d)["']\s*\)""")


def _quiz_questions(source: str) -> int:
    """Questions written in the cell, or in the lesson's quiz module that ``quiz("NN")`` shows."""
    found = QUIZ_CALL.search(source)
    if not found:
        return source.count("Question(")
    module = Path(__file__).resolve().parent.parent / "src" / "workbook" / "quizzes" / f"lesson{found.group(1)}.py"
    return module.read_text(encoding="utf-8").count("Question(") if module.exists() else 0


def stated(path: Path) -> int | None:
    first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
    match = TIME_LINE.search("".join(first["source"]))
    return int(match[1]) if match else None


def lessons(prefixes: list[str]) -> list[Path]:
    paths = sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb"))
    chosen = [p for p in paths if not prefixes or p.name[:2] in prefixes]
    unknown = sorted(set(prefixes) - {p.name[:2] for p in paths})
    if unknown:
        raise SystemExit(f"no lesson {', '.join(unknown)} in solutions/; give two-digit numbers such as 06")
    return chosen


def write_time(path: Path, minutes: int) -> bool:
    """Set the lesson's Time line to ``minutes``; True if it changed. Touches nothing else in the notebook."""
    import nbformat

    from workbook.notebook_files import write_notebook

    notebook = nbformat.read(path, as_version=4)
    first = notebook.cells[0]
    new = re.sub(r"\*\*Time:\*\* about \d+ minutes(?: \([^)]*\))?", f"**Time:** about {minutes} minutes",
                 first.source, count=1)
    if new == first.source:
        return False
    first.source = new
    write_notebook(path, notebook)
    return True


def main(argv: list[str]) -> int:
    write = "--write" in argv
    paths = lessons([a for a in argv if a != "--write"])
    print(f"{'lesson':<36} {'words':>6} {'code':>5} {'ex':>3} {'widgets':>7} {'quiz':>4} {'measured':>9} "
          f"{'time':>5} {'stated':>6}")
    total = 0
    for path in paths:
        w = walk(path)
        c = w.counts
        exercises = c["function exercise"] + c["value exercise"] + c["written exercise"]
        total += w.rounded
        print(f"{w.notebook:<36} {c['prose word']:>6} {c['code line']:>5} {exercises:>3} {c['widget']:>7} "
              f"{c['quiz question']:>4} {w.minutes:>8.1f}m {w.rounded:>4}m {stated(path) or '-':>5}m"
              + ("  (over 75)" if w.rounded > LONG else ""))
        if write and write_time(path, w.rounded):
            print(f"  {path.name}: Time set to about {w.rounded} minutes")
    print(f"total: {total} minutes, about {total / 60:.1f} hours")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
