"""Every lesson keeps the course's shape: objectives and time, a quiz, takeaways, parts, links."""
import re

import nbformat
import pytest

from workbook import REPO_ROOT, SOLUTIONS_DIR

SOLUTIONS = sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))


def _markdown(path):
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")


def _code(path):
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")


LAST = int(SOLUTIONS[-1].stem[:2])


def test_the_lessons_are_numbered_from_00_without_gaps():
    assert [p.stem[:2] for p in SOLUTIONS] == [f"{n:02d}" for n in range(len(SOLUTIONS))]


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_lesson_opens_with_objectives_and_a_time(path):
    text = _markdown(path)
    assert re.search(r"\*\*Time:?\*\*", text), "a time estimate near the top"
    assert "By the end of this notebook you can" in text


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_lesson_ends_with_quiz_takeaways_parts_and_links(path):
    text, code = _markdown(path), _code(path)
    assert "Check yourself" in text and f'quiz("{path.stem[:2]}")' in code, "a quiz cell: quiz(\"NN\")"
    assert "Key takeaways" in text
    assert re.search(r"\|\s*package part", text), "a table of the package parts the lesson used"
    number = int(path.stem[:2])
    if number > 0:
        assert re.search(rf"\(0?{number - 1:02d}_\w+\.ipynb\)", text), "a link to the previous lesson"
    if number < LAST:
        assert re.search(rf"\({number + 1:02d}_\w+\.ipynb\)", text), "a link to the next lesson"
    else:
        assert "last lesson" in text, "the last lesson says so where the next link would be"


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_linked_notebooks_exist(path):
    for target in re.findall(r"\]\((\d\d_\w+\.ipynb)\)", _markdown(path)):
        assert (SOLUTIONS_DIR / target).exists(), f"{path.name} links to a missing {target}"


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_no_cell_prints_more_than_a_screen(path):
    for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
        for output in cell.get("outputs", []):
            text = output.get("text", "") or output.get("data", {}).get("text/plain", "")
            lines = text.count("\n") if isinstance(text, str) else 0
            assert lines <= 60, f"{path.name} cell {number} prints {lines} lines"


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_both_course_maps_list_the_lesson(path):
    """The README's map and notebook 00's map each have a row for every lesson, linked."""
    number = path.stem[:2]
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"(?m)^\| {number} \| \[[^]]+\]\(notebooks/{path.name}\)", readme), \
        f"README.md's course map has no row for {path.name}"
    if number != "00":
        start = _markdown(SOLUTIONS[0])
        assert re.search(rf"(?m)^\| {number} \| \[[^]]+\]\({path.name}\)", start), \
            f"{SOLUTIONS[0].name}'s course map has no row for {path.name}"
