"""No import circles in src/: the subject and the machinery each read one way.

The graph is built from the source with ``ast``: every ``import`` and ``from ... import``, at module
level and inside functions alike (a function-level import still ties the two modules together; it
only hides the circle until the function runs). An edge runs from a module to each module of the
course it names; ``from package import name`` reaches ``package.name`` when that is a module. A
package's ``__init__`` is imported by Python before its modules, but that implicit step is no edge:
only imports written in the source count.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, here: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = here.split(".") if is_package else here.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(source: str, here: str, modules: Iterable[str], is_package: bool = False) -> set[str]:
    """The course modules that ``source`` (the module ``here``) imports, anywhere in its body."""
    known = set(modules)
    found: set[str] = set()

    def nearest(name: str) -> str | None:
        # "workbook.checks.failed" names an attribute of workbook.checks: keep the longest module prefix.
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in known:
                return candidate
        return None

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (target := nearest(alias.name)) is not None:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            package = _absolute(node, here, is_package)
            for alias in node.names:
                target = nearest(f"{package}.{alias.name}") or nearest(package)
                if target is not None:
                    found.add(target)
    found.discard(here)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    files = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, files, path.name == "__init__.py")
        for name, path in files.items()
    }


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted, the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        # Iterative, so a deep package never meets Python's recursion limit.
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_src_has_no_import_circles():
    graph = import_graph(SRC)
    assert len(graph) > 100, "the graph should hold every module of src/"
    found = cycles(graph)
    assert not found, "import circles (make the arrows point one way): " + "; ".join(
        " <-> ".join(group) for group in found
    )


def test_the_subject_never_imports_the_machinery():
    graph = import_graph(SRC)
    crossing = sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        if name.startswith("tooldesign")
        for target in targets
        if target.startswith("workbook")
    )
    assert not crossing, crossing


# ---------- the detector itself, proven both ways ----------


def test_a_two_module_circle_is_found():
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]


def test_a_long_circle_is_found_whole():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"d"}, "d": {"a"}, "e": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "d"]]


def test_a_tree_and_a_diamond_have_no_circle():
    assert cycles({"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": set()}) == []


def test_two_separate_circles_are_both_found():
    graph = {"a": {"b"}, "b": {"a"}, "x": {"y"}, "y": {"z"}, "z": {"x"}, "q": set()}
    assert cycles(graph) == [["a", "b"], ["x", "y", "z"]]


def test_a_self_import_is_no_circle_of_modules():
    assert cycles({"a": {"a"}}) == []


def test_a_deep_chain_does_not_hit_the_recursion_limit():
    chain = {f"m{i}": {f"m{i + 1}"} for i in range(5000)}
    chain["m5000"] = {"m0"}
    assert len(cycles(chain)[0]) == 5001


def _package(tmp_path: Path, files: Mapping[str, str]) -> dict[str, set[str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return import_graph(tmp_path)


def test_a_function_level_import_closes_a_circle(tmp_path):
    graph = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "def thing():\n    from pkg import a\n    return a\n",
        },
    )
    assert cycles(graph) == [["pkg.a", "pkg.b"]]


def test_relative_and_dotted_imports_are_resolved(tmp_path):
    graph = _package(
        tmp_path,
        {
            "pkg/__init__.py": "from . import a\n",
            "pkg/a.py": "from .sub.c import X\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/c.py": "import pkg.a\nX = 1\n",
        },
    )
    assert graph["pkg"] == {"pkg.a"}
    assert graph["pkg.a"] == {"pkg.sub.c"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.c"]]


def test_a_name_imported_from_a_package_points_at_the_package(tmp_path):
    graph = _package(
        tmp_path,
        {
            "pkg/__init__.py": "def helper():\n    from pkg.user import go\n",
            "pkg/user.py": "from pkg import helper\n",
        },
    )
    assert graph["pkg.user"] == {"pkg"}
    assert cycles(graph) == [["pkg", "pkg.user"]]


def test_imports_outside_the_course_are_no_edges(tmp_path):
    graph = _package(tmp_path, {"pkg/__init__.py": "import os, json\nfrom collections import abc\n"})
    assert graph == {"pkg": set()}


@pytest.mark.parametrize("clean", ["import pkg.b\n", "from pkg import b\n", "from pkg.b import y\n"])
def test_one_way_arrows_pass(tmp_path, clean):
    graph = _package(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": clean, "pkg/b.py": "y = 1\n"})
    assert graph["pkg.a"] == {"pkg.b"}
    assert cycles(graph) == []
