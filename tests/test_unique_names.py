"""Every class name in src/ means one thing: no two modules define a class of the same name.

Two classes called ``Verdict`` in two packages make every import a question of which one, and every
traceback and review one more thing to check. The walk reads the source with ``ast``, so it also
sees private classes and classes defined inside functions, and imports nothing.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

def class_homes(root: Path = SRC) -> dict[str, list[str]]:
    """Class name -> every "file:line" under ``root`` that defines a class of that name."""
    homes: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                homes[node.name].append(f"{path.relative_to(root)}:{node.lineno}")
    return homes


def duplicates(root: Path = SRC) -> dict[str, list[str]]:
    return {name: where for name, where in class_homes(root).items() if len(where) > 1}


def test_every_class_name_is_defined_once():
    found = duplicates()
    assert not found, "rename one of each pair so the name means one thing:\n" + "\n".join(
        f"  {name}: {' and '.join(where)}" for name, where in sorted(found.items())
    )


def test_the_walk_finds_a_pair_and_names_both_files(tmp_path):
    (tmp_path / "a.py").write_text("class Verdict:\n    pass\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    class Verdict:\n        pass\n")
    (tmp_path / "pkg" / "c.py").write_text("class _Private:\n    pass\nclass Other:\n    pass\n")
    (tmp_path / "d.py").write_text("class _Private:\n    pass\n")
    assert duplicates(tmp_path) == {
        "Verdict": ["a.py:1", "pkg/b.py:2"],
        "_Private": ["d.py:1", "pkg/c.py:1"],
    }
