"""Notebook 07's stored outputs show what the lesson promises (nbval keeps them equal to a fresh run)."""
from __future__ import annotations

import json

import pytest

from tooldesign import REPO_ROOT

NOTEBOOK = REPO_ROOT / "solutions" / "07_code_mode_catalog.ipynb"


@pytest.fixture(scope="module")
def outputs() -> str:
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    texts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


@pytest.mark.parametrize("shown", [
    "RESULT: SHP-2047, SHP-2052, SHP-2061 | 1920",       # the corrected program's answer
    "RESULT: none | 0",                                   # the draft's confident zero
    "LEFT OUT:            2 tools: CC_FILLER_8, CC_FILLER_9",
    "bytes of 31,855",                                    # UC AI's budget
    "require is not defined",                             # the sandbox cells, one limit each
    "fetch is not defined",
    "undefined undefined undefined undefined",
    "Code generation from strings disallowed",
    "time limit of 1 s reached",
    "memory limit of 32 MB reached",
    "still here: 2 rows",
    "call budget of 20 tool calls used up",
    "CC_FILLER_8 is not in the catalog, so a program cannot call it",
    "claude-sonnet-4-6, 2026-08-25",
])
def test_the_notebook_shows(outputs, shown):
    assert shown in outputs


def test_no_output_is_an_error(outputs):
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert not [o for c in notebook["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert "Traceback" not in outputs
