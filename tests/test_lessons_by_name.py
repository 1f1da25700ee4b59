"""The lookup tests use to find a lesson by its name, proven both ways."""

from __future__ import annotations

import lessons
import pytest

from workbook import SOLUTIONS_DIR


def test_every_lesson_is_found_by_its_name():
    for path in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb")):
        name = path.stem[3:]
        assert lessons.stem(name) == path.stem
        assert lessons.number(name) == path.stem[:2]
        assert lessons.module(name).__name__ == f"workbook.exercises.lesson{path.stem[:2]}"


def test_ids_are_built_from_the_current_number():
    number = lessons.number("tool_set_size")
    assert lessons.grade_id("tool_set_size", "catch-all") == f"ex{number}-catch-all"
    assert lessons.answer_key("tool_set_size", "catch-all") == f"ex{number}_catch_all"


@pytest.mark.parametrize("name", ["no_such_lesson", "selection_test_*", "", "13_tool_set_size", "selection", "Tool_Set_Size"])
def test_a_name_that_is_no_single_lesson_is_refused(name):
    with pytest.raises(LookupError):
        lessons.stem(name)
