"""A lesson's widgets live in the package of its subject, in ``tooldesign/<package>/widgets.py``.

The rest of the package stays importable and testable without ipywidgets, and a reader who wants
a lesson's widget knows where to look. The check reads the code (ast), so an import inside a
function counts too, which is how the builders import ipywidgets.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tooldesign"


def imports_ipywidgets(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        if any(name == "ipywidgets" or name.startswith("ipywidgets.") for name in names):
            return True
    return False


def test_only_widgets_modules_import_ipywidgets():
    stray = [
        str(path.relative_to(PACKAGE.parent))
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "widgets.py" and imports_ipywidgets(path)
    ]
    assert not stray, f"move the widget code of {', '.join(stray)} into its package's widgets.py"


def test_every_widgets_module_sits_in_a_lesson_package():
    homes = sorted(PACKAGE.rglob("widgets.py"))
    assert homes, "no widgets.py found under src/tooldesign"
    for path in homes:
        assert path.parent != PACKAGE and (path.parent / "__init__.py").exists(), path


@pytest.mark.parametrize(
    "source, found",
    [
        ("import ipywidgets as widgets", True),
        ("def build():\n    from ipywidgets import HTML\n", True),
        ("import ipywidgets.widgets", True),
        ("import ipywidgets_extra", False),
        ("from . import ipywidgets", False),
    ],
)
def test_the_check_sees_every_way_of_importing(tmp_path, source, found):
    module = tmp_path / "module.py"
    module.write_text(source)
    assert imports_ipywidgets(module) is found
