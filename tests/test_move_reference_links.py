"""scripts/move_reference_links.py points links to the README's old sections at the guides, once."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("move_reference_links", ROOT / "scripts" / "move_reference_links.py")
move = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = move  # dataclasses look their module up by name
_spec.loader.exec_module(move)


def test_each_old_anchor_goes_to_its_guide():
    text = ("[R20](../README.md#r20) [all](../README.md#references) [g](../README.md#glossary) "
            "[map](../README.md) [lab](../README.md#lab-day) README.md#r5")
    new, count = move.moved(text)
    assert count == 4
    assert new == ("[R20](../docs/references.md#r20) [all](../docs/references.md#references) "
                   "[g](../docs/glossary.md#glossary) [map](../README.md) [lab](../README.md#lab-day) "
                   "docs/references.md#r5")


def test_running_twice_changes_nothing():
    once, _ = move.moved("[R3](../README.md#r3)")
    twice, count = move.moved(once)
    assert twice == once and count == 0


def test_an_anchor_that_only_starts_like_one_is_left(tmp_path):
    assert move.moved("[x](../README.md#r2d2) [y](../README.md#references-old)")[1] == 0


def test_the_folder_is_rewritten_and_check_reports_it(tmp_path, capsys):
    (tmp_path / "README.md").write_text("# course\n")
    (tmp_path / "solutions").mkdir()
    notebook = tmp_path / "solutions" / "03_x.ipynb"
    notebook.write_text('{"cells": [{"source": ["see [R19](../README.md#r19) and [R1](../README.md#r1)"]}]}')
    (tmp_path / "notebooks").mkdir()
    untouched = tmp_path / "notebooks" / "03_x.ipynb"
    untouched.write_text('{"cells": []}')
    assert move.main(["--check", "--root", str(tmp_path)]) == 1
    assert "solutions/03_x.ipynb: 2 links to move" in capsys.readouterr().out
    assert "README.md#r19" in notebook.read_text()  # --check changes nothing
    assert move.main(["--root", str(tmp_path)]) == 0
    assert "../docs/references.md#r19" in notebook.read_text() and untouched.read_text() == '{"cells": []}'
    assert move.main(["--check", "--root", str(tmp_path)]) == 0


def test_a_folder_that_is_not_the_course_gets_one_line(tmp_path, capsys):
    assert move.main(["--root", str(tmp_path / "nowhere")]) == 2
    assert "not the course's folder" in capsys.readouterr().err


def test_a_reference_row_left_in_the_readme_moves_to_the_table(tmp_path, capsys):
    (tmp_path / "docs").mkdir()
    table = ('## References\n\n| # | publisher |\n|---|---|\n| <a id="r1"></a>R1 | OpenAI |\n'
             '| <a id="r2"></a>R2 | Anthropic |\n\nAfter the table.\n')
    (tmp_path / "docs" / "references.md").write_text(table)
    (tmp_path / "README.md").write_text('# course\n\n| <a id="r61"></a>R61 | Vendor |\n| <a id="r2"></a>R2 | Anthropic |\n\nEnd.\n')
    assert move.main(["--check", "--root", str(tmp_path)]) == 1
    assert "README.md: 2 reference rows (R61, R2) to move" in capsys.readouterr().out
    assert move.main(["--root", str(tmp_path)]) == 0
    moved = (tmp_path / "docs" / "references.md").read_text()
    assert moved.index("R2 | Anthropic") < moved.index('<a id="r61"></a>R61 | Vendor') < moved.index("After the table")
    assert moved.count('<a id="r2">') == 1, "a row the table has already is not added twice"
    assert "R61" not in (tmp_path / "README.md").read_text() and "End." in (tmp_path / "README.md").read_text()
    assert move.main(["--check", "--root", str(tmp_path)]) == 0
