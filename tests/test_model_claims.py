"""No uncited claim about what models do.

A sentence that says how models, LLMs or agents behave ("models tend to ...", "a real model
usually ...", "the agent will guess ...") must carry its evidence: a reference number (R13) or a
link in the same paragraph. Otherwise it has to be a statement about the course's stand-ins or
cells, which the cells themselves back. The scan covers every solution notebook's markdown and
every string in the package's code (what it prints), so a new claim cannot creep in unnoticed.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SUBJECT = (
    r"(?:real(?:-world)?\s+(?:models?|LLMs?|agents?)"
    r"|(?:a|the|most|many|some|every|large|small|frontier|language|current|today's)\s+(?:models?|LLMs?)"
    r"|models|LLMs?|(?:the|an|every|most|many)\s+agents?|agents)"
)
BEHAVIOUR = (
    r"(?:tends?\s+to|tended\s+to|often|usually|always|rarely|seldom|frequently|typically|generally|mostly"
    r"|never(?!\s+(?:sees?|receives?|runs?|gets?|reads?|executes?)\b)"  # what is sent is mechanics, not behaviour
    r"|prefers?|preferred|favou?rs?|misbehaves?|struggles?|hallucinates?|ignores?|obeys?|skims?|overlooks?"
    r"|(?:is|are)\s+(?:more\s+|less\s+)?(?:likely|prone|apt)"
    r"|will\s+(?:guess|retry|pick|choose|call|follow|ignore|loop|invent|misread|act)"
    r"|cannot\s+resist|falls?\s+for|gets?\s+confused|do(?:es)?\s+(?:better|worse))"
)
# The subject, then at most five plain words (no punctuation between), then the behaviour.
CLAIM = re.compile(
    rf"\b{SUBJECT}\b(?:\s+[\w'’-]+){{0,5}}?\s+{BEHAVIOUR}\b"
    r"|\b(?:as|like|the\s+way)\s+real\s+(?:ones|models?|LLMs?|agents?)\b",  # "misbehave the way real ones do"
    re.IGNORECASE,
)
# "Real models do X": a claim whatever the verb, unless asked as an open question ("whether a real model ...").
REAL_CLAIM = re.compile(
    r"\breal(?:-world)?\s+(?:models?|LLMs?|agents?|ones)\s+"
    r"(?:(?:\w+ly|also|often|too|still|then|all|not|never|always|sometimes|do|does|don't|doesn't)\s+){0,2}"
    r"(?:do|does|did|behave|behaves|make|makes|pick|picks|choose|chooses|call|calls|follow|follows|read|reads"
    r"|answer|answers|are|is|will|would|get|gets|treat|treats|act|acts|handle|handles)\b",
    re.IGNORECASE,
)
OPEN_QUESTION = re.compile(r"\b(?:whether|what|if|how|which|until)\s+(?:a\s+|the\s+)?$", re.IGNORECASE)
SOURCE = re.compile(r"\bR\d{1,3}\b|https?://|\]\((?:\.\./(?:README|docs/references)\.md)?#r\d+\)")
# A sentence about the course's own instruments is backed by the cells, not by a paper.
ABOUT_STAND_IN = re.compile(
    r"\b(?:stand-ins?|scripted|simulat\w*|the course's|word-matching|BM25|fake)\b", re.IGNORECASE
)

# Sentences that match the pattern but claim nothing about behaviour (each with its reason).
ALLOWED: dict[str, str] = {}


def _sentences(paragraph: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`*(\[])", paragraph) if s.strip()]


def _about_the_stand_in(sentence: str, claim: re.Match) -> bool:
    """The claim's subject is one of the course's instruments: a stand-in word before the claim, and
    a subject that is not a real model ("Real models misbehave like the scripted ones" is a claim)."""
    if re.search(r"\breal\b", claim.group(0), re.IGNORECASE):
        return False
    return bool(ABOUT_STAND_IN.search(sentence[: claim.end()]))


def claims_without_source(text: str) -> list[str]:
    """The sentences of ``text`` that claim model behaviour with no reference or link in their paragraph."""
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        if SOURCE.search(paragraph):
            continue
        for sentence in _sentences(paragraph):
            flat = " ".join(sentence.split())
            claims = [c for c in CLAIM.finditer(flat) if not _about_the_stand_in(flat, c)] + [
                c for c in REAL_CLAIM.finditer(flat) if not OPEN_QUESTION.search(flat[: c.start()])
            ]
            if claims and not any(flat.startswith(a) for a in ALLOWED):
                found.append(flat)
    return found


def _notebook_markdown() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                out.append((path.name, "".join(cell["source"])))
    return out


# Quiz options are deliberately wrong statements for the learner to reject (the quiz's feedback says
# so); every string of tooldesign/evidence.py is a published figure shown beside its reference
# number, which tests/test_evidence.py checks against docs/references.md.
NOT_SCANNED = ("src/workbook/quizzes/", "src/tooldesign/evidence.py")


def _package_strings() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        if str(path.relative_to(ROOT)).startswith(NOT_SCANNED):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                out.append((str(path.relative_to(ROOT)), node.value))
    return out


def test_no_notebook_claims_model_behaviour_without_a_source():
    problems = [f"{name}: {s}" for name, text in _notebook_markdown() for s in claims_without_source(text)]
    assert not problems, (
        "cite a source (R-number or link in the same paragraph) or say it of the stand-in:\n"
        + "\n".join(problems)
    )


def test_no_printed_string_claims_model_behaviour_without_a_source():
    problems = [f"{name}: {s}" for name, text in _package_strings() for s in claims_without_source(text)]
    assert not problems, "cite a source or say it of the stand-in:\n" + "\n".join(problems)


UNCITED = [
    "Models tend to pick the first tool in the list.",
    "Real models misbehave the way the scripted ones do.",
    "A real model usually follows an instruction hidden in a result.",
    "LLMs often ignore the description's second sentence.",
    "An LLM prefers short names.",
    "The model will guess the missing field.",
    "Most models struggle with more than forty tools.",
    "The agent always retries the same call.",
    "Agents are more likely to call a tool whose name matches the request.",
    "Large language models usually read only the first line.",
    "In practice, models generally favour the tool listed first.",
    "Scripted models misbehave the way real ones do.",
    "The loop handles errors as real models make them.",
    "A model is more likely to call a tool it saw first.",
    "The model will retry until the budget ends.",
    "Real models do this too.",
    "The agent tends to call search first.",
    "LLMs prefer tools listed first.",
    "Real LLMs are worse at long lists.",
    "Unlike the stand-in, real models read the whole description.",
    "Real models usually also pick the first tool.",
]
CITED_OR_ABOUT_THE_STAND_IN = [
    "Models tend to pick the first tool in the list ([R64](../docs/references.md#r64)).",
    "In Anthropic's tests models often chose better with tool search (R13).",
    "Real models misbehave, as https://example.org/study reports.",
    "The stand-in always picks the tool that shares the most words.",
    "The scripted model never stops, so the budget ends the loop.",
    "The simulated agent usually picks the next tool of the sequence.",
    "Pick the tool the request needs.",
    "The model's answer goes back to the loop.",
    "A model never sees the code, only the definition (R7).",
    "The model never receives a comment; only the definition is sent.",
    "Your code runs the tool; a model never runs one.",
    "Whether a real model picks the same tool takes a measurement.",
    "What a real model does under these settings is what `record` measures.",
    "In a real agent a model would write it; here a fixed rule does.",
]


@pytest.mark.parametrize("sentence", UNCITED)
def test_an_uncited_claim_is_found(sentence):
    assert claims_without_source(sentence) == [sentence]


@pytest.mark.parametrize("sentence", UNCITED)
def test_an_uncited_claim_is_found_inside_a_longer_paragraph(sentence):
    text = f"The table above counts the picks.\n{sentence} Then the loop runs again.\n\nNext section."
    assert claims_without_source(text) == [sentence]


@pytest.mark.parametrize("text", CITED_OR_ABOUT_THE_STAND_IN)
def test_a_cited_claim_or_one_about_the_stand_in_passes(text):
    assert claims_without_source(text) == []


def test_a_source_in_another_paragraph_does_not_count():
    text = "Models tend to pick the first tool.\n\nAnthropic's tool search post (R13) says otherwise."
    assert claims_without_source(text) == ["Models tend to pick the first tool."]


def test_a_stand_in_named_after_the_claim_does_not_excuse_it():
    sentence = "Models usually pick the tool with the most words, like the stand-in."
    assert claims_without_source(sentence) == [sentence]


def test_the_allow_list_stays_small_and_each_entry_has_a_reason():
    assert len(ALLOWED) <= 5 and all(reason.strip() for reason in ALLOWED.values())
