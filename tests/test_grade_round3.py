"""Round 3 of the grader's held-out kinds: every lesson's own solution against the drawn inputs, judges
that must refuse degenerate answers, output the grader writes (escaped, named), batches that survive
any bytes, and values the comparison cannot handle. No test here needs bubblewrap: the grading runs
use ``sandbox=Sandbox.none()``, as ``grade --no-sandbox`` does."""

from __future__ import annotations

import contextlib
import copy
import io
import random
from functools import cache

import nbformat
import pytest

from workbook import SOLUTIONS_DIR
from workbook.checks import _call
from workbook.exercises import all_exercises, grading_for
from workbook.exercises.references import same_plain
from workbook.plain import to_plain

SEEDS = 200
FUNCTIONS = [e for e in all_exercises() if e.kind == "function" and grading_for(e.grade_id).generate]


# ---------- every lesson's own solution passes the grader's drawn inputs ----------


@cache
def _solution_namespace(notebook: str) -> dict:
    """The solution notebook's code cells run in this process, in order, so each answer cell's function
    sees the names the cells above it defined (a cell that needs a kernel, such as a magic or a
    top-level await, is skipped: no answer cell depends on one)."""
    namespace: dict = {"display": lambda *args, **kwargs: None}
    for index, cell in enumerate(nbformat.read(SOLUTIONS_DIR / f"{notebook}.ipynb", as_version=4).cells):
        if cell.cell_type != "code":
            continue
        try:
            code = compile(cell.source, f"{notebook}:{index}", "exec")
        except SyntaxError:
            continue
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(Exception):
            exec(code, namespace)
    return namespace


@pytest.mark.parametrize("exercise", FUNCTIONS, ids=lambda e: e.grade_id)
def test_the_lessons_own_solution_passes_every_drawn_input(exercise):
    """What `make check` shows as ✔ must score full points on every grading run, whatever its seed."""
    function = _solution_namespace(exercise.notebook)[exercise.answer]
    grading = grading_for(exercise.grade_id)
    reference, same = grading.reference_function(), grading.same or same_plain
    wrong, tried = [], 0
    for seed in range(SEEDS):
        rng = random.Random(f"{seed}:{exercise.grade_id}")  # as runner.draw_for seeds it
        for _ in range(grading.draws):
            args = tuple(grading.generate(rng))
            try:
                want = to_plain(reference(*copy.deepcopy(args)))
            except Exception:
                continue
            tried += 1
            got = _call(function, copy.deepcopy(args))
            if not same(got, want):
                wrong.append((args, got, want))
    assert tried >= SEEDS, f"only {tried} drawn inputs could be judged"
    assert not wrong, f"{len(wrong)} of {tried} drawn inputs; the first: {wrong[0]}"


def test_the_approval_draws_write_figures_only_as_the_exercise_defines_them():
    """The text defines "52500" and "52,500"; "52.500" (German thousands) or "52,500.00" it never asks about."""
    import re

    grading = grading_for("ex09-approval")
    for seed in range(SEEDS):
        rng = random.Random(f"{seed}:ex09-approval")
        for _ in range(grading.draws):
            (arguments,) = grading.generate(rng)
            text = arguments["justification"]
            assert not re.search(r"\d\.\d", text), text
            assert all(re.fullmatch(r"\d{1,3}(,\d{3})*|\d+", figure) for figure in re.findall(r"\d[\d,.]*\d|\d", text)), text
