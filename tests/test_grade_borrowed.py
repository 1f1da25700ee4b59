"""Answers assembled from the package: a submission built only from what the student edition ships and
prints earns no points (it is flagged for review), beside an honest control that earns full marks.

Each kind of borrowing is built from the edition's own files (its package source as a learner can
open it), never from the repository: a wrapper around a neighbour, an import under another name, a
name put together at run time, a neighbour's code copied with its names changed, its text pasted.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from workbook import SOLUTIONS_DIR
from workbook.exercises import all_exercises
from workbook.grade.borrowed import NEIGHBOURS, borrowed, neighbours
from workbook.grade.plan import build_plan
from workbook.grade.runner import merge_step
from workbook.grade.submissions import LearnerCells
from workbook.release import read_notebook
from grading_run import grade_unsandboxed

GRADED = [ex for ex in all_exercises() if ex.kind != "manual"]


def _solution_cells() -> dict[str, str]:
    out = {}
    for path in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb")):
        for cell in read_notebook(path).cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution") and not meta.get("grade"):
                out[meta["grade_id"]] = cell.source
    return out


SOLUTIONS = _solution_cells()


def _shipped(edition: Path, target: str) -> str:
    """The source of one top-level name of the edition's package, as the learner can read it."""
    module, _, name = target.partition(":")
    path = edition / "src" / Path(*module.split("."))
    path = path.with_suffix(".py") if path.with_suffix(".py").is_file() else path / "__init__.py"
    source = path.read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        names = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [
            t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)]
        if name in names:
            return ast.get_source_segment(source, node) or ""
    raise AssertionError(f"{target} is not in the edition")


def _wrap(grade_id: str, target: str, how: str) -> str:
    """An answer cell that takes the neighbour and hands it in as the answer."""
    from workbook.exercises import get_exercise

    exercise = get_exercise(grade_id)
    module, _, name = target.partition(":")
    if module == "tool":  # a tool of the course's set, called through the dispatcher by its name
        name_text = repr(name) if how != "computed-name" else f"{name[:9]!r} + {name[9:]!r}"
        return ("from tooldesign.dispatch import Dispatcher, ToolCall\nfrom tooldesign.tools import tool_set\n"
                "run = Dispatcher(tool_set('designed'))\n"
                f"def {exercise.answer}(*args):\n"
                f"    got = run.dispatch(ToolCall({name_text}, dict(zip(('customer', 'sales_order'), args)), 'x'))\n"
                "    return got.content\n")
    if how == "import":
        head = f"from {module} import {name} as helper\n"
        use = "helper"
    elif how == "attribute":
        head = f"import {module} as package\n"
        use = f"package.{name}"
    else:  # a name nobody can read in the cell
        head = f"import {module} as package\npart = {name[: len(name) // 2]!r}\n"
        use = f"getattr(package, part + {name[len(name) // 2:]!r})"
    if exercise.kind == "function":
        return head + f"def {exercise.answer}(*args):\n    return {use}(*args)\n"
    return head + f"{exercise.answer} = {use}() if callable({use}) else dict({use})\n"


WRAPS = sorted((gid, target) for ex in GRADED for gid in [ex.grade_id] for target in neighbours(gid))


def test_every_exercise_with_a_neighbour_is_known_and_the_neighbours_exist():
    import pkgutil

    assert {"ex12-approval", "ex08-descriptions", "ex16-page", "ex02-claims"} <= {g for g, _ in WRAPS}
    from tooldesign.tools import tool_set

    for _, target in WRAPS:
        kind, _, name = target.partition(":")
        assert (name in tool_set("designed").names) if kind == "tool" else pkgutil.resolve_name(target), target
    assert set(NEIGHBOURS) <= {ex.grade_id for ex in GRADED}, "a neighbour listed for no exercise"


@pytest.mark.parametrize("how", ["import", "attribute", "computed-name"])
@pytest.mark.parametrize("grade_id, target", WRAPS)
def test_an_answer_that_takes_a_neighbour_is_flagged(grade_id, target, how):
    found = borrowed(grade_id, _wrap(grade_id, target, how))
    assert found is not None and found.grade_id == grade_id, (grade_id, target, how)
    assert found.note.startswith(f"review {grade_id}:") and "your own code" in found.reason


@pytest.mark.parametrize("grade_id", sorted(SOLUTIONS))
def test_the_courses_own_answers_are_not_flagged(grade_id):
    assert borrowed(grade_id, SOLUTIONS[grade_id]) is None


def test_the_approval_policy_is_hidden_in_the_edition_and_a_copy_of_it_is_flagged(student_edition):
    shipped = _shipped(student_edition.folder, "tooldesign.dispatch.gate:release_policy")
    assert "Hidden in the student edition" in shipped and "stated_exposure(" not in shipped
    # a copy from elsewhere (the course's repository, a classmate), its names changed, is still a copy
    import inspect

    from tooldesign.dispatch.gate import release_policy
    body = inspect.getsource(release_policy).split('"""', 2)[2]
    copied = ("import re\nfrom tooldesign.dispatch.gate import checked_exposure\n"
              "FIGURE = re.compile(r'\\d[\\d,.]*\\s*(?:EUR|€)')\n\n"
              "def approve(arguments):\n    call_arguments = arguments\n" + body
              .replace("call.arguments", "call_arguments").replace("args", "a").replace("why", "text")
              .replace("Decision.deny(", "dict(behavior='deny', message=")
              .replace("Decision.allow_modified(", "dict(behavior='allow', updated_input=")
              .replace("Decision.allow()", "dict(behavior='allow')").replace("_FIGURE", "FIGURE")
              .replace("stated_exposure(", "my_parse("))
    found = borrowed("ex12-approval", copied)
    assert found is not None and found.how == "copies"


def test_the_corrected_descriptions_pasted_from_the_edition_are_flagged(student_edition):
    # what the edition prints when a cell shows the corrected descriptions
    import json
    import subprocess
    import sys
    shown = subprocess.run(
        [sys.executable, "-c", "import json; from tooldesign.codemode import coldchain_tools as cc; "
                               "print(json.dumps(cc.CORRECTED))"],
        capture_output=True, text=True, check=True, timeout=120, cwd=student_edition.folder,
        env={"PYTHONPATH": str(student_edition.folder / "src"), "PATH": "/usr/bin:/bin", "PYTHONNOUSERSITE": "1"})
    value = json.loads(shown.stdout)
    whole = "corrected = " + repr(value)
    assert borrowed("ex08-descriptions", whole).how == "copies"
    # pasted as the printout shows it, wrapped over lines, one sentence of each reworded
    pasted = "corrected = {\n" + "".join(
        f"    {code!r}: ({text.split('. ', 1)[1][:40]!r}\n        {text.split('. ', 1)[1][40:]!r}),\n"
        for code, text in value.items()) + "}\n"
    assert borrowed("ex08-descriptions", pasted).how == "copies"


def test_a_flagged_answer_is_void_with_a_review_note_where_rows_get_theirs():
    plan = build_plan("12_writes_errors_and_tool_choice")
    control = merge_step(plan, LearnerCells({gid: [("code", src)] for gid, src in SOLUTIONS.items()
                                             if gid.startswith("ex12")}))
    assert control.void == {} and not any("its answer calls" in note for note in control.review)
    tampered = dict(SOLUTIONS)
    tampered["ex12-approval"] = _wrap("ex12-approval", "tooldesign.dispatch.gate:release_policy", "import")
    merged = merge_step(plan, LearnerCells({gid: [("code", src)] for gid, src in tampered.items()
                                            if gid.startswith("ex12")}))
    assert set(merged.void) == {"ex12-approval"} and "release_policy" in merged.void["ex12-approval"]
    assert any(n.startswith("review ex12-approval: its answer calls") for n in merged.review)


@pytest.fixture(scope="module")
def graded_batch(tmp_path_factory):
    """One real (unsandboxed) grading run over notebook 16: a control and a submission whose every answer
    is taken from the package the edition ships."""
    import nbformat

    from workbook.notebook_files import write_notebook
    from workbook.release import learner_copy

    stem = "16_results_across_the_loop"
    base = tmp_path_factory.mktemp("borrowed")
    subs, out = base / "in", base / "out"

    def notebook(answers: dict[str, str]) -> nbformat.NotebookNode:
        released = learner_copy(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))
        for cell in released.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id")
            if gid in answers:
                cell.source = answers[gid]
        return released

    ids = [ex.grade_id for ex in GRADED if ex.notebook == stem]
    for learner, answers in (
        ("control", {gid: SOLUTIONS[gid] for gid in ids}),
        ("borrower", {**{gid: SOLUTIONS[gid] for gid in ids},
                      "ex16-page": textwrap.dedent('''
                          from tooldesign.loop.shrink import page_of
                          def page(rows, cursor, size):
                              got = page_of({"results": [dict(r) if isinstance(r, dict) else {"v": r} for r in rows]},
                                            cursor, size)
                              nxt = got["next_cursor"]
                              return {"results": rows[cursor:cursor + size], "total": got["total"],
                                      "next_cursor": int(nxt) if nxt is not None else None}
                          ''')}),
    ):
        path = subs / learner / f"{stem}.ipynb"
        path.parent.mkdir(parents=True)
        write_notebook(path, notebook(answers))
    report = grade_unsandboxed(subs, out, prefix="wbb")
    return {row.learner: row for row in report.rows}


def test_a_borrowed_answer_scores_0_beside_a_control_with_full_marks(graded_batch):
    control, borrower = graded_batch["control"], graded_batch["borrower"]
    assert control.total == control.max > 0, [(e.grade_id, e.points, e.message) for e in control.exercises]
    points = {e.grade_id: e.points for e in borrower.exercises}
    assert points["ex16-page"] == 0, borrower.exercises
    assert points["ex16-keep-fields"] > 0 and points["ex16-cut-records"] > 0  # the honest answers beside it keep theirs
    assert "review ex16-page" in borrower.reason


def test_the_capstone_loop_is_flagged_when_called_and_never_for_reading_like_it():
    """The course's loop is left out of the student edition whole; in the course edition an answer that
    calls it is flagged, and the reference's own text pasted as an answer is not (an honest loop reads alike)."""
    import inspect

    from tooldesign.capstone import reference

    called = "from tooldesign.capstone.reference import reference_loop\nrun_agent = reference_loop()\n"
    found = borrowed("ex19-agent-loop", called)
    assert found is not None and found.neighbour.endswith(":reference_loop") and found.how == "calls"
    alike = textwrap.dedent(inspect.getsource(reference.reference_loop)).replace("def reference_loop", "def loop_of")
    assert borrowed("ex19-agent-loop", alike) is None
