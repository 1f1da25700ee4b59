"""Notebooks 08 and 09's stored outputs show what the lessons promise (nbval keeps them equal to a fresh run)."""
from __future__ import annotations

import json

import pytest

from tooldesign import REPO_ROOT

NOTEBOOKS = {
    "08": REPO_ROOT / "solutions" / "08_code_mode_catalog.ipynb",
    "09": REPO_ROOT / "solutions" / "09_code_mode_access.ipynb",
}


def _outputs(lesson: str) -> str:
    notebook = json.loads(NOTEBOOKS[lesson].read_text(encoding="utf-8"))
    texts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


@pytest.mark.parametrize("lesson, shown", [
    ("08", "RESULT: SHP-2047, SHP-2052, SHP-2061 | 1920"),  # the corrected program's answer
    ("08", "RESULT: none | 0"),                              # the draft's confident zero
    ("09", "LEFT OUT:            2 tools: CC_FILLER_8, CC_FILLER_9"),
    ("09", "bytes of 31,855"),                               # UC AI's budget
    ("09", "require is not defined"),                        # the sandbox cells, one limit each
    ("09", "fetch is not defined"),
    ("09", "undefined undefined undefined undefined"),
    ("09", "Code generation from strings disallowed"),
    ("09", "time limit of 0.5 s reached"),
    ("09", "memory limit of 32 MB reached"),
    ("09", "still here: 2 rows"),
    ("09", "call budget of 20 tool calls used up"),
    ("09", "CC_FILLER_8 is not in the catalog, so a program cannot call it"),
    ("09", "claude-sonnet-4-6, 2026-08-25"),
])
def test_the_notebook_shows(lesson, shown):
    assert shown in _outputs(lesson)


@pytest.mark.parametrize("lesson", sorted(NOTEBOOKS))
def test_no_output_is_an_error(lesson):
    notebook = json.loads(NOTEBOOKS[lesson].read_text(encoding="utf-8"))
    assert not [o for c in notebook["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert "Traceback" not in _outputs(lesson)
