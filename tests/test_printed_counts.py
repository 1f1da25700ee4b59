"""Every printed count in one style: "1 tool", "2 tools", "31,855 bytes", never "finding(s)" or "13010 tokens".

Two readers: the package's own strings (an f-string that writes ``word(s)`` is caught before any notebook
runs it) and what the solution notebooks show (their markdown and stored outputs), so a cell that formats
a count by hand is caught too.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tooldesign.wording import count, number

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))

# "word(s)": a letter right before "(s)". "latency (s)" (seconds, after a space) is a unit, not a plural.
HEDGED_PLURAL = re.compile(r"[A-Za-z]\(s\)")
UNITS = ("tools|findings|bytes|tokens|calls|sentences|words|fields|orders|files|learners|notebooks|"
         "exercises|records|requests|steps|results|points|errors|problems")
ONE_PLURAL = re.compile(rf"(?<![\d.,])\b1 ({UNITS})\b")
# Five or more digits in a row before a unit: the thousands separator is missing ("48937 bytes").
NO_SEPARATOR = re.compile(rf"(?<![\d.,\w-])\d{{5,}} ?({UNITS}|characters)\b")


def problems_in(text: str) -> list[str]:
    found = []
    for name, pattern in (("hedged plural", HEDGED_PLURAL), ("'1' with a plural", ONE_PLURAL),
                          ("no thousands separator", NO_SEPARATOR)):
        for match in pattern.finditer(text):
            found.append(f"{name}: ...{text[max(0, match.start() - 30):match.end() + 10]!r}")
    return found


def shown_text(cell: dict) -> list[str]:
    texts = ["".join(cell["source"])] if cell["cell_type"] == "markdown" else []
    for output in cell.get("outputs", []):
        if "text" in output:
            texts.append("".join(output["text"]))
        for kind, value in output.get("data", {}).items():
            if kind in ("text/plain", "text/markdown"):
                texts.append("".join(value))
    return texts


def test_count_writes_one_style():
    assert count(1, "tool") == "1 tool" and count(2, "tool") == "2 tools" and count(0, "finding") == "0 findings"
    assert count(31855, "byte") == "31,855 bytes" and count(1, "byte") == "1 byte"
    assert count(2, "entry") == "2 entries" and count(2, "key") == "2 keys" and count(3, "box") == "3 boxes"
    assert count(2, "blocked order") == "2 blocked orders" and count(2, "person", "people") == "2 people"
    assert number(1234567) == "1,234,567"


@pytest.mark.parametrize("text, kind", [
    ("67 finding(s), definitions", "hedged plural"),
    ("1 sentence(s); write three", "hedged plural"),
    ("catch-all: 1 tools", "'1' with a plural"),
    ("readings.json    48937 bytes", "no thousands separator"),
    ("definitions about 13010 tokens", "no thousands separator"),
])
def test_the_reader_catches_each_kind(text, kind):
    assert any(p.startswith(kind) for p in problems_in(text)), (text, problems_in(text))


@pytest.mark.parametrize("text", [
    "median latency (s)", "then waits (s)", "1 tool, 3 findings", "31,855 bytes", "21 tools", "11 tokens",
    "SHP-20611 bytes", "order 4711 tokens", "0.12345 tokens", "2026-12-02 11:13",
])
def test_the_reader_passes_the_course_style(text):
    assert problems_in(text) == [], text


def _string_parts(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_package_string_hedges_a_plural():
    bad = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, text in _string_parts(tree):
            if HEDGED_PLURAL.search(text):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {text.strip()[:60]!r}")
    assert not bad, "write counts with tooldesign.wording.count:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem[:2])
def test_every_shown_count_is_in_the_course_style(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    bad = [f"cell {i}: {p}" for i, cell in enumerate(notebook["cells"]) for text in shown_text(cell)
           for p in problems_in(text)]
    assert not bad, f"{path.name}: write counts with tooldesign.wording.count or '{{n:,}}':\n" + "\n".join(bad)
