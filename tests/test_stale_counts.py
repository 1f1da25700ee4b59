"""A count of the course's lessons written as a word goes stale when a lesson is added or split
(lesson 18 once opened with "Thirteen lessons" long after there were more); name the range instead."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = (
    "four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty thirty"
).split()
# "Thirteen lessons", "twenty-one notebooks": a number word of four or more, then lessons or notebooks.
STALE = re.compile(r"\b(?:%s)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?\s+(?:lessons|notebooks)\b"
                   % "|".join(WORDS), re.IGNORECASE)


def texts():
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        yield path.name, "\n".join("".join(c["source"]) for c in cells)
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if path.exists():
            yield path.name, path.read_text(encoding="utf-8")


def stale(text):
    return [m.group(0) for m in STALE.finditer(text)]


def test_no_lesson_count_is_written_as_a_word():
    found = {name: hits for name, text in texts() if (hits := stale(text))}
    assert not found, f"name the range of lessons (e.g. 'lessons 01 to 17') instead of counting them: {found}"


def test_the_check_finds_the_stale_counts_it_is_for():
    assert stale("Thirteen lessons built tools") == ["Thirteen lessons"]
    assert stale("after twenty-one notebooks") == ["twenty-one notebooks"]
    assert stale("the first three lessons (01, 04, 05)") == []
    assert stale("Lessons 01 to 17 built tools") == []
