"""A notebook that names another lesson links to it, so a learner can follow the reference where it stands.

"notebook 06", "lesson 11's", "notebooks 03 to 05": each number is (part of) a link to that lesson's
notebook, in both editions' folders (the links are relative, and both folders hold every lesson).
A notebook naming its own number needs no link.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
LESSONS = {p.name[:2]: p.name for p in SOLUTIONS}

MENTION = re.compile(r"\b([Ll]essons?|[Nn]otebooks?) (\d\d(?:(?:, | and | or |, and | to |–)\d\d)*)\b")
LINK_OR_CODE = re.compile(r"\[[^\]]*\]\([^)]*\)|`[^`]*`")


def unlinked_mentions(own: str, text: str) -> list[str]:
    bare = LINK_OR_CODE.sub(" ", text)
    found = []
    for match in MENTION.finditer(bare):
        numbers = [n for n in re.findall(r"\d\d", match.group(2)) if n != own and n in LESSONS]
        if numbers:
            found.append(match.group(0))
    return found


def test_the_reader_sees_a_bare_mention_and_passes_a_linked_one():
    assert unlinked_mentions("18", "Lesson 11 ran `tool_choice`") == ["Lesson 11"]
    assert unlinked_mentions("18", "lessons 13, 08 and 10") == ["lessons 13, 08 and 10"]
    assert unlinked_mentions("18", "[lesson 11](11_dispatch_and_errors.ipynb) ran it") == []
    assert unlinked_mentions("18", "lessons [08](08_code_mode_catalog.ipynb) and [10](10_definition_levels.ipynb)") == []
    assert unlinked_mentions("11", "this is notebook 11") == []
    assert unlinked_mentions("18", "`make check NB=11` or `notebook 11`") == []


def test_every_link_to_a_lesson_names_a_notebook_that_exists():
    target = re.compile(r"\]\(((?:\.\./(?:notebooks|solutions)/)?(\d\d_[a-z0-9_]+\.ipynb))[)#]")
    bad = []
    for path in SOLUTIONS:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                for match in target.finditer("".join(cell["source"])):
                    if match.group(2) not in LESSONS.values():
                        bad.append(f"{path.name}: {match.group(1)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem[:2])
def test_each_mention_of_another_lesson_is_a_link(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    bad = [f"cell {i}: {m!r}" for i, cell in enumerate(cells) if cell["cell_type"] == "markdown"
           for m in unlinked_mentions(path.name[:2], "".join(cell["source"]))]
    assert not bad, f"{path.name}: link each lesson it names, e.g. [notebook 06](06_selection_test.ipynb):\n" + "\n".join(bad)
