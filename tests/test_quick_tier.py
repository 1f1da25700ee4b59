"""The quick tier's rule (tests/tiers.py, applied by tests/conftest.py), proven both ways."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiers import is_slow_module, slow_first

HERE = Path(__file__).parent


@pytest.mark.parametrize(
    "source",
    [
        "from workbook.execute import run_" + "notebook\n",
        "from workbook.grade import Grade" + "Options, grade\n",
        "import sub" + "process\n",
        "def test_x(student" + "_edition):\n    pass\n",
        "from course_copy import make" + "_copy\n",
        'assert main(["record", "--' + 'provider", "openai"]) == 0\n',
    ],
)
def test_a_module_that_starts_kernels_or_commands_is_slow(tmp_path, source):
    path = tmp_path / "test_thing.py"
    path.write_text(source, encoding="utf-8")
    assert is_slow_module(path)


@pytest.mark.parametrize("source", ["def test_sum():\n    assert 1 + 1 == 2\n", "from tooldesign.wording import count\n"])
def test_a_plain_unit_module_is_quick(tmp_path, source):
    path = tmp_path / "test_plain.py"
    path.write_text(source, encoding="utf-8")
    assert not is_slow_module(path)


def test_a_solution_notebook_is_always_slow(tmp_path):
    assert is_slow_module(tmp_path / "00_start_here.ipynb")


def test_the_grader_tests_are_in_the_slow_tier_and_this_one_is_not():
    assert is_slow_module(HERE / "test_grade.py") and is_slow_module(HERE / "test_grade_tamper.py")
    assert is_slow_module(HERE / "test_record_command.py")
    assert not is_slow_module(HERE / "test_import_graph.py") and not is_slow_module(Path(__file__))


def test_the_slow_tier_runs_first_and_each_module_keeps_its_order():
    class Item:
        def __init__(self, name: str, slow: bool):
            self.name, self.slow = name, slow

        def get_closest_marker(self, name: str):
            return object() if name == "slow" and self.slow else None

    items = [Item("quick_a::1", False), Item("slow_b::1", True), Item("quick_a::2", False), Item("slow_b::2", True),
             Item("slow_c::1", True), Item("quick_d::1", False)]
    slow_first(items)
    assert [item.name for item in items] == ["slow_b::1", "slow_b::2", "slow_c::1", "quick_a::1", "quick_a::2",
                                             "quick_d::1"]
