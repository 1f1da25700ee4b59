"""A cell after an exercise that prints the exercise's answer on the course's fixed data shows it only
once that exercise's check has passed in the kernel (``workbook.reveal.after``): with Run All, or in the
student edition before the learner's own answer works, it prints one line and nothing of the answer.
Each gate is proven both ways: a stub answer sees the line only, the lesson's answer sees the printout."""

from __future__ import annotations

import contextlib
import io
import re

import nbformat
import pytest

from workbook import SOLUTIONS_DIR
from workbook import checks

# notebook, the answer's name, the grade id, a text only the gated cell's printout holds, and what it shows
GATES = [
    ("01_sap_orders_data", "blocked_orders", "ex01-blocked-orders", "sap.is_blocked, axis=1",
     ("4723", "4725", "True")),
    ("02_coldchain_data", "claims_for", "ex02-claims", "claims_for(shipments.to_dict",
     ("SHP-2047", "1920")),
    ("09_code_mode_access", "access_for", "ex09-access", "print(VERIFICATION_QUERY",
     ("CC_GET_READINGS      code", "CC_GET_LIMITS        both")),
    ("05_lint", "predicted_rules", "ex05-predict", 'report.by_tool()["credit_check"]',
     ("[name-shape] credit_check", "[strict-required] credit_check", "[safety-read-only-hint] credit_check")),
    ("10_definition_levels", "fifth_level", "ex10-fifth-level", "5: lean_level}",
     ("name + example call", "tokens/answer")),
    ("11_dispatch_and_errors", "fixed_call", "ex11-fixed-call", "fixed_call(LESSON_REQUEST",
     ("the model sends: {'sales_order': '4725', 'detail': 'concise'}", "Lac Leman Instruments")),
]


def _run(source: str, namespace: dict) -> str:
    shown = io.StringIO()
    namespace["display"] = lambda *values, **_: print(*values, file=shown)
    source = "\n".join(line for line in source.splitlines() if not line.startswith("%"))  # IPython's magics
    with contextlib.redirect_stdout(shown), contextlib.suppress(Exception):
        exec(compile(source, "<cell>", "exec"), namespace)
    return shown.getvalue()


def _cells(notebook: str, answer: str, marker: str):
    """The code cells before the answer cell, the answer cell's solution, the check cell, the gated cell."""
    cells = [c.source for c in nbformat.read(SOLUTIONS_DIR / f"{notebook}.ipynb", as_version=4).cells
             if c.cell_type == "code"]
    at = next(i for i, s in enumerate(cells) if "### BEGIN SOLUTION" in s and re.search(rf"^(?:def\s+)?{answer}\b", s, re.M))
    gated = next(i for i, s in enumerate(cells) if marker in s)
    assert gated > at + 1 and "after(" in cells[gated], f"{notebook}: the printout is not behind after()"
    return cells[:at], cells[at], cells[at + 1], cells[gated]


@pytest.mark.parametrize("notebook, answer, grade_id, marker, shows", GATES, ids=[g[2] for g in GATES])
def test_the_printout_of_an_answer_waits_for_its_check(notebook, answer, grade_id, marker, shows):
    before, solution, check_cell, gated = _cells(notebook, answer, marker)
    assert grade_id in check_cell
    namespace: dict = {}
    for source in before:
        _run(source, namespace)

    # the lesson's answer: the check passes and the printout appears
    checks._PASSED.discard(grade_id)
    _run(solution, namespace)
    _run(check_cell, namespace)
    assert checks.passed_here(grade_id)
    shown = _run(gated, namespace)
    assert all(text in shown for text in shows), shown

    # the learner's stub (or a wrong answer) in a kernel where that check never passed: the cell shows
    # one line and no answer (the cells above need not run again: a held cell reads none of them)
    checks._PASSED.discard(grade_id)
    namespace[answer] = None
    _run(check_cell, namespace)
    assert not checks.passed_here(grade_id)
    held = _run(gated, namespace)
    assert grade_id in held and len(held.strip().splitlines()) == 1, held
    assert not any(text in held for text in shows), held
    checks._PASSED.discard(grade_id)
