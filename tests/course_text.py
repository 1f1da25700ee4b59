"""The words the course says to a learner, read from where they live: one home for the tests that read them.

Three kinds of text: the prose of every solution notebook (its markdown cells), the quiz text (the
string arguments of ``Question(...)`` and ``Choice(...)`` calls, in notebook code cells or in any
module under ``src/workbook/`` and ``src/tooldesign/``, wherever the quizzes are kept), and the
README. ``tests/test_claims.py`` and ``tests/test_seed_overlap.py`` read them through this module.
"""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
QUIZ_CALLS = frozenset({"Question", "Choice"})


@dataclass(frozen=True)
class Passage:
    where: str  # "solutions/04_designed_tools.ipynb cell c007", "src/workbook/quiz_data.py line 12", "README.md"
    kind: str   # "prose", "quiz" or "readme"
    text: str


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _strings(node: ast.AST) -> list[str]:
    """Every string constant under ``node``; adjacent literals are already joined by the parser."""
    found = []
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            found.append(inner.value)
        elif isinstance(inner, ast.JoinedStr):  # an f-string: its literal parts
            found.append("".join(v.value for v in inner.values if isinstance(v, ast.Constant)))
    return found


def quiz_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string given to a Question or Choice call in ``source``; [] if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        # A notebook cell may hold IPython syntax (%magic, top-level await); quizzes never do.
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in QUIZ_CALLS:
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, (ast.Constant, ast.JoinedStr)):
                    found += [(node.lineno, s) for s in _strings(arg) if s.strip()]
    return found


def notebook_passages(path: Path, notebook: dict | None = None) -> list[Passage]:
    notebook = load(path) if notebook is None else notebook
    found = []
    for n, cell in enumerate(notebook["cells"]):
        source = "".join(cell["source"])
        where = f"{path.parent.name}/{path.name} cell {cell.get('id', n)}"
        if cell["cell_type"] == "markdown":
            found.append(Passage(where, "prose", source))
        elif cell["cell_type"] == "code" and ("Question(" in source or "Choice(" in source):
            found += [Passage(f"{where} line {line}", "quiz", text) for line, text in quiz_strings(source)]
    return found


def package_quiz_passages() -> list[Passage]:
    """Quiz text kept in the packages (a module that builds Question or Choice objects)."""
    found = []
    for package in ("workbook", "tooldesign"):
        for path in sorted((ROOT / "src" / package).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if "Question(" not in source and "Choice(" not in source:
                continue
            where = path.relative_to(ROOT).as_posix()
            found += [Passage(f"{where} line {line}", "quiz", text) for line, text in quiz_strings(source)]
    return found


def readme_passage() -> Passage:
    return Passage("README.md", "readme", (ROOT / "README.md").read_text(encoding="utf-8"))


def all_passages() -> list[Passage]:
    found = [p for path in SOLUTIONS for p in notebook_passages(path)]
    return found + package_quiz_passages() + [readme_passage()]
