"""A notebook never states a figure that its own outputs contradict.

Prose is written once; outputs change whenever the data, a rule or a seed changes. These tests
read every solution notebook (the list comes from solutions/, nothing is hard-coded) and check
two kinds of claim:

* **The claim table** (``CLAIMS``): sentences that restate a printed figure, each tied to the
  output that backs it by a pair of regular expressions with named groups. The prose pattern must
  still be found (so a rewrite cannot silently drop the check) and every named value must agree.
* **Generic rules**, for every notebook: a figure with a unit ("843 characters", "95 findings")
  or a percentage in prose must be printed by some cell, passed to one in its code, or attributed
  to a source in the same sentence. An approximate figure ("about 13,000 tokens") may be within
  20 % of a printed one. The rules cannot read meaning; they catch the drift that matters most,
  a number that changed in the output but not in the text.

``test_doctored_copies_are_caught`` proves that both kinds fail when a figure is changed.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
QUIZ_MODULES = ROOT / "src" / "workbook" / "quizzes"  # where a quiz cell's questions live

WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}


# ---------- reading a notebook ----------

@dataclass(frozen=True)
class Evidence:
    prose: tuple[str, ...]   # markdown cells
    outputs: str             # every text output (stream, text/plain, text/html), joined
    code: str                # every code cell's source, joined


def evidence(notebook: dict) -> Evidence:
    prose, outputs, code = [], [], []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            prose.append(source)
            continue
        if cell["cell_type"] != "code":
            continue
        code.append(source)
        shown = re.fullmatch(r'from workbook\.quiz import quiz\s+quiz\("(\d\d)"\)\s*', source)
        if shown:  # the quiz cell shows its lesson's questions: their text is what the page holds
            code.append(Path(QUIZ_MODULES, f"lesson{shown.group(1)}.py").read_text(encoding="utf-8"))
        for output in cell.get("outputs", []):
            if "text" in output:
                outputs.append("".join(output["text"]))
            for kind in ("text/plain", "text/html"):
                if kind in output.get("data", {}):
                    outputs.append("".join(output["data"][kind]))
    return Evidence(tuple(prose), "\n\x00\n".join(outputs), "\n".join(code))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def number(text: str) -> float:
    """'1,060' -> 1060, 'Seven' -> 7, '0.194' -> 0.194."""
    word = WORDS.get(text.strip().lower())
    return float(word) if word is not None else float(text.replace(",", ""))


def agree(prose_value: str, output_value: str) -> bool:
    """Equal, to the precision the prose states (0.194 agrees with 0.1938)."""
    said, shown = number(prose_value), number(output_value)
    decimals = len(prose_value.split(".")[1]) if "." in prose_value else 0
    return abs(said - shown) <= 0.5 * 10 ** -decimals + 1e-9


# ---------- the claim table ----------

@dataclass(frozen=True)
class Claim:
    notebook: str   # the two-digit prefix
    prose: str      # regex over the markdown, with named groups
    output: str     # regex over the outputs, with the same named groups
    about: str      # what the claim says, for the failure message


CLAIMS: tuple[Claim, ...] = (
    Claim("01", r"(?P<count>\w+) of the (?P<total>\w+) orders belong to customer 10023",
          r"(?P<total>\d+) orders:.*?10023: (?P<count>\d+)", "orders of customer 10023"),
    Claim("03", r"The model gets (?P<chars>[\d,]+) characters for one fact",
          r"(?m)^(?P<chars>[\d,]+) characters, \d+ fields", "size of one mirrored order"),
    Claim("03", r"(?P<n>\w+) full records for a question", r"(?P<n>\d+) whole records", "records in the list"),
    Claim("04", r"mirror's size \((?P<designed>\d+) / (?P<mirror>\d+)\)",
          r"mirror\s+7 tools, definitions about\s+(?P<mirror>\d+) tokens[\s\S]*designed\s+5 tools, definitions about\s+(?P<designed>\d+) tokens",
          "definition tokens"),
    Claim("04", r"returns (?P<showing>\d+) of (?P<total>\d+) orders by default",
          r'"total": (?P<total>\d+),\s*"showing": (?P<showing>\d+)', "the search's total and showing"),
    Claim("05", r"so it finds\s+(?P<n>\d+)", r"== mirror: 7 tools, (?P<n>\d+) finding", "mirror findings"),
    Claim("05", r"costs about (?P<x>[\d.]+)x the tokens", r"about (?P<x>[\d.]+)x the mirror's", "designed/mirror"),
    Claim("08", r"(?P<errors>\d+) of (?P<calls>\d+) calls come back as tool errors",
          r"name only\s+(?P<calls>\d+)\s+(?P<errors>\d+)", "name-only errors and calls"),
    Claim("08", r"Those (?P<n>\d+) calls ran", r"(?P<n>\d+) of \d+ valid calls called a tool outside",
          "valid calls off the task"),
    Claim("08", r"the mean gap\s+is (?P<gap>[\d.]+)", r"mean gap (?P<gap>[\d.]+)", "paired mean gap"),
    Claim("04", r"under a quarter of the size \((?P<designed>\d+) against (?P<mirror>\d+) characters\)",
          r"mirror\s+get_order\(.*?-> (?P<mirror>\d+) characters.*?designed sales_order_get_block_summary\(.*?"
          r"-> (?P<designed>\d+) characters", "designed summary against the mirrored order"),
    Claim("08", r"A bill of (?P<wrong>\d+) instead of (?P<right>\d+)",
          r"correct answer: (?P<right>\d+)\s+level 3 leaves (?P<wrong>\d+)", "G07 swapped at level three"),
    Claim("10", r"(?P<none>\d+) of the (?P<total>\d+) need no tool at all",
          r"(?P<total>\d+) requests, (?P<none>\d+) of them need no tool", "requests that need no tool"),
    Claim("10", r"Each of the (?P<n>\d+) distractors gets one `desc-boundary`", r"'desc-boundary': (?P<n>\d+)",
          "boundary findings in the grown set"),
    Claim("10", r"(?P<n>\w+) `set-size` finding", r"'set-size': (?P<n>\d+)", "set-size findings"),
    Claim("10", r"and (?P<n>\d+) pairs of near twins", r"'set-twins': (?P<n>\d+)", "near-twin pairs"),
    Claim("10", r"The designed row's (?P<pct>\d+) %", r"(?m)^\s*0\s+designed\s+5\s+\d+\s+\d+\s+\d+\s+(?P<pct>\d+)%",
          "designed set in the consolidation table"),
    Claim("10", r"The designed row's (?P<pct>\d+) %", r"(?m)^\s*0\s+5\s+\d+\s+(?P<pct>\d+)%",
          "designed set at five tools in the growth table"),
)


def notebook_path(prefix: str) -> Path:
    found = [p for p in SOLUTIONS if p.name.startswith(prefix + "_")]
    assert found, f"no solution notebook starts with {prefix}_"
    return found[0]


def claim_problems(notebook: dict, claim: Claim) -> list[str]:
    """What is wrong with one claim in one notebook; [] when the prose and the output agree."""
    seen = evidence(notebook)
    text = "\n".join(seen.prose)
    said = re.search(claim.prose, text, re.S)
    if not said:
        return [f"{claim.about}: the sentence /{claim.prose}/ is gone; update CLAIMS with the new wording"]
    shown = re.search(claim.output, seen.outputs, re.S)
    if not shown:
        return [f"{claim.about}: no output matches /{claim.output}/"]
    return [f"{claim.about}: the text says {name} = {said[name]}, the output shows {shown[name]}"
            for name in said.groupdict() if not agree(said[name], shown[name])]


# ---------- generic rules ----------

UNITS = (r"characters|tokens|findings?|finding\(s\)|tools|orders|calls|errors|steps|requests|seeds|"
         r"shipments|readings|bytes|records")
FIGURE = re.compile(rf"(?<![\w.,])(\d(?:[\d,]*\d)?(?:\.\d+)?)\s+(?:\w+\s+)?(?:{UNITS})\b")
PERCENT = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?%")
# A sentence that names where its figure comes from, or that is an illustration, not a finding.
ATTRIBUTED = re.compile(r"\breport|\bsource|\blab\b|\bR\d+\b|Anthropic|OpenAI|UC AI|\bpublished|\bMCP\b|"
                        r"\bguid|\bnotebook \d\d|\bfor example|\be\.g\.|\bsay\b|\bimagine|\bif\b", re.I)
# A sentence that shows its own arithmetic ("50,700 + 1,800 = 52,500") backs its result itself.
ARITHMETIC = re.compile(r"\d\s*[=+/×*]\s*\d|\d\s+-\s+\d")
APPROXIMATE = re.compile(r"\b(about|roughly|nearly|around|some|almost|over|under|up to)\s+$", re.I)
# Figures that are neither printed nor attributed, each with the reason it may stand.
EXEMPT: dict[tuple[str, str], str] = {
    ("06", "24 calls"): "stated with its arithmetic in the same sentence: 12 requests, two sets",
    ("02", "26 calls"): "the count of the source lesson's first run (UC AI, R20), not a course measurement",
    ("02", "24 shipments"): "drawn as the chart's 24 panels; no cell prints the count as a number",
}


def _sentences(markdown: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?:])\s+|\n\s*[-*]\s+|\n\|", markdown) if s.strip()]


def _stem(unit: str) -> str:
    return unit.replace("(s)", "").rstrip("s")


def _blocks(seen: Evidence) -> list[str]:
    """Each output on its own, and the code, so a number counts only beside its own unit."""
    return [b for b in seen.outputs.split("\n\x00\n")] + [seen.code]


def _printed(seen: Evidence) -> dict[str, set[float]]:
    """For each unit, the numbers printed in an output (or written in code) that names that unit."""
    found: dict[str, set[float]] = {}
    for block in _blocks(seen):
        values = set()
        for raw in re.findall(r"\d(?:[\d,]*\d)?(?:\.\d+)?", block):
            try:
                values.add(number(raw))
            except ValueError:
                continue
        lowered = block.lower()
        for unit in UNITS.split("|"):
            stem = _stem(unit.replace("\\", ""))
            if stem in lowered:
                found.setdefault(stem, set()).update(values)
    return found


def _percents(seen: Evidence) -> list[float]:
    shown = [float(v) for v in re.findall(r"(\d+(?:\.\d+)?)\s?%", seen.outputs)]
    shown += [100 * float(v) for v in re.findall(r"(?<![\d.])0\.\d+", seen.outputs)]
    shown += [float(v) for v in re.findall(r"(\d+(?:\.\d+)?)\s?%", seen.code)]
    return shown


def generic_problems(notebook: dict, prefix: str = "") -> list[str]:
    """Figures with a unit, and percentages, that no output, code or source in the sentence backs."""
    seen = evidence(notebook)
    printed, percents = _printed(seen), _percents(seen)
    problems = []
    for markdown in seen.prose:
        for sentence in _sentences(markdown):
            if ATTRIBUTED.search(sentence) or ARITHMETIC.search(sentence):
                continue
            for match in FIGURE.finditer(sentence):
                figure = " ".join(match.group(0).split())
                value, unit = number(match.group(1)), _stem(figure.split()[-1].lower())
                beside = printed.get(unit, set())
                if (prefix, f"{match.group(1)} {figure.split()[-1]}") in EXEMPT or value in beside:
                    continue
                if APPROXIMATE.search(sentence[:match.start()]) and \
                        any(abs(v - value) <= 0.2 * value for v in beside if v):
                    continue
                problems.append(f"'{figure}' is not printed by any cell: {sentence.strip()[:100]!r}")
            for match in PERCENT.finditer(sentence):
                value = float(match.group(1))
                if not any(round(v) == value or abs(v - value) < 0.05 for v in percents):
                    problems.append(f"'{match.group(0)}' is not printed by any cell: {sentence.strip()[:100]!r}")
    return problems


# ---------- the tests ----------

def test_there_are_notebooks_and_every_claim_names_one():
    assert SOLUTIONS, "no solution notebooks found"
    for claim in CLAIMS:
        notebook_path(claim.notebook)


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: f"{c.notebook}-{c.about}")
def test_every_claim_in_the_table_agrees_with_its_output(claim):
    assert claim_problems(load(notebook_path(claim.notebook)), claim) == []


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_no_figure_in_the_prose_lacks_an_output_or_a_source(path):
    assert generic_problems(load(path), path.name[:2]) == []


def _doctor_prose(notebook: dict, old: str, new: str) -> dict:
    doctored = copy.deepcopy(notebook)
    for cell in doctored["cells"]:
        if cell["cell_type"] == "markdown" and old in "".join(cell["source"]):
            cell["source"] = "".join(cell["source"]).replace(old, new)
            return doctored
    raise AssertionError(f"{old!r} not found in the prose")


def _doctor_output(notebook: dict, old: str, new: str) -> dict:
    doctored = copy.deepcopy(notebook)
    for cell in doctored["cells"]:
        for output in cell.get("outputs", []):
            if "text" in output and old in "".join(output["text"]):
                output["text"] = "".join(output["text"]).replace(old, new)
                return doctored
    raise AssertionError(f"{old!r} not found in the outputs")


@pytest.mark.parametrize("prefix, where, old, new", [
    ("01", "prose", "Seven of the nine orders", "Six of the nine orders"),
    ("03", "prose", "gets 843 characters", "gets 900 characters"),
    ("04", "prose", "(1313 / 296)", "(1060 / 296)"),
    ("05", "output", "7 tools, 67 finding(s)", "7 tools, 57 finding(s)"),
    ("08", "prose", "the mean gap\n  is 0.194", "the mean gap\n  is 0.166"),
    ("10", "prose", "Each of the 95 distractors", "Each of the 96 distractors"),
    ("10", "prose", "The designed row's 87 %", "The designed row's 84 %"),
])
def test_doctored_copies_are_caught_by_the_claim_table(prefix, where, old, new):
    original = load(notebook_path(prefix))
    doctor = _doctor_prose if where == "prose" else _doctor_output
    doctored = doctor(original, old, new)
    mine = [c for c in CLAIMS if c.notebook == prefix]
    assert not any(claim_problems(original, c) for c in mine)
    assert any(claim_problems(doctored, c) for c in mine)


@pytest.mark.parametrize("prefix, old, new", [
    ("03", "gets 843 characters", "gets 900 characters"),
    ("10", "The designed row's 87 %", "The designed row's 85 %"),
    ("04", "designed call (the repeat)", "designed call (the repeat, 318 characters)"),
    ("08", "Those 8 calls ran", "Those 9 calls ran"),
])
def test_doctored_copies_are_caught_by_the_generic_rules(prefix, old, new):
    original = load(notebook_path(prefix))
    assert generic_problems(original, prefix) == []
    assert generic_problems(_doctor_prose(original, old, new), prefix)


def test_a_sentence_that_names_its_source_may_quote_a_figure():
    notebook = {"cells": [{"cell_type": "markdown", "source": "Anthropic reports 55,000 tokens for 58 tools (R13)."},
                          {"cell_type": "code", "source": "print(1)", "outputs": [{"text": "1\n"}]}]}
    assert generic_problems(notebook) == []
    notebook["cells"][0]["source"] = "Fifty-eight tools take 55,000 tokens."
    assert generic_problems(notebook)
