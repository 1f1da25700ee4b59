"""scripts/renumber.py on a tiny fake course: lesson references shift, other numbers stay."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("renumber", ROOT / "scripts" / "renumber.py")
renumber = importlib.util.module_from_spec(_spec)
sys.modules["renumber"] = renumber
_spec.loader.exec_module(renumber)


def _notebook(*markdown: str) -> str:
    cells = [{"cell_type": "markdown", "id": f"c{i}", "metadata": {}, "source": text}
             for i, text in enumerate(markdown)]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def _course(root: Path) -> None:
    (root / "solutions").mkdir()
    (root / "src" / "workbook" / "exercises").mkdir(parents=True)
    (root / "solutions" / "09_dispatch.ipynb").write_text(_notebook(
        "# 09 · Dispatch\n**Next:** [10 · Tool set size](10_tool_set_size.ipynb)"))
    (root / "solutions" / "10_tool_set_size.ipynb").write_text(_notebook(
        "# 10 · Tool set size\n\nWith 10 tools and 12 requests, the top 10 hold. Notebook 11 goes on;"
        " lesson 09 came first. See notebooks 10–11 and [11](11_mcp.ipynb); 10's exercise is ex10-catch."
        " A search (10), a server (11: MCP); readout(10) is code.",
        'quiz("10")'))
    (root / "solutions" / "11_mcp.ipynb").write_text(_notebook("# 11 · MCP\n**Previous:** [10 · Tool set size]"
                                                               "(10_tool_set_size.ipynb)"))
    (root / "src" / "workbook" / "exercises" / "lesson10.py").write_text(
        'NOTEBOOK = "10_tool_set_size"\nEX = "ex10-catch"  # 12 requests, 10 tools\n')
    (root / "README.md").write_text(
        "| # | notebook | what you do |\n|---|---|---|\n| 10 | [tool set size](notebooks/10_tool_set_size.ipynb)"
        " | 10 tools |\n\nRun `make check NB=10`; a run of 12 requests.\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_fake.py").write_text(
        'CASES = [("10", "prose"), ("09", "prose")]\nSTEMS = {"10": "10_tool_set_size"}\nCALL = {"limit": "10"}\n')
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "."], cwd=root, check=True)


def test_shifts_lessons_and_leaves_other_numbers(tmp_path):
    _course(tmp_path)
    printed: list[str] = []
    renumber.run(tmp_path, 9, dry_run=False, out=printed.append)

    assert not (tmp_path / "solutions" / "10_tool_set_size.ipynb").exists()
    moved = json.loads((tmp_path / "solutions" / "11_tool_set_size.ipynb").read_text())
    text = "".join(moved["cells"][0]["source"])
    assert text.startswith("# 11 · Tool set size")
    assert "With 10 tools and 12 requests, the top 10 hold." in text
    assert "Notebook 12 goes on; lesson 09 came first." in text
    assert "notebooks 11–12 and [12](12_mcp.ipynb); 11's exercise is ex11-catch." in text
    assert "A search (11), a server (12: MCP); readout(10) is code." in text
    assert "".join(moved["cells"][1]["source"]) == 'quiz("11")'
    assert (tmp_path / "solutions" / "12_mcp.ipynb").exists()
    assert "# 09 · Dispatch" in (tmp_path / "solutions" / "09_dispatch.ipynb").read_text()
    assert "[11 · Tool set size](11_tool_set_size.ipynb)" in (tmp_path / "solutions" / "09_dispatch.ipynb").read_text()

    module = (tmp_path / "src" / "workbook" / "exercises" / "lesson11.py").read_text()
    assert module == 'NOTEBOOK = "11_tool_set_size"\nEX = "ex11-catch"  # 12 requests, 10 tools\n'
    readme = (tmp_path / "README.md").read_text()
    assert "| 11 | [tool set size](notebooks/11_tool_set_size.ipynb) | 10 tools |" in readme
    assert "`make check NB=11`; a run of 12 requests." in readme
    assert (tmp_path / "tests" / "test_fake.py").read_text() == (
        'CASES = [("11", "prose"), ("09", "prose")]\nSTEMS = {"11": "11_tool_set_size"}\nCALL = {"limit": "10"}\n')
    assert any(line.startswith("move solutions/11_mcp.ipynb -> solutions/12_mcp.ipynb") for line in printed)


def test_dry_run_prints_and_writes_nothing(tmp_path):
    _course(tmp_path)
    before = (tmp_path / "README.md").read_text()
    printed: list[str] = []
    changes = renumber.run(tmp_path, 9, dry_run=True, out=printed.append)
    assert changes and (tmp_path / "README.md").read_text() == before
    assert (tmp_path / "solutions" / "10_tool_set_size.ipynb").exists()
    assert printed[-1].endswith("(dry run: nothing written)")
    assert not any(change.before == "12" for change in changes)  # "12 requests", never a lesson here
