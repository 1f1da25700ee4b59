"""The "predict, then run it" exercises whose answer the course's own instruments compute (03, 05, 08, 10,
13, 14): a submission built only from what the student edition ships and prints scores 0, or is flagged
for review with no points, beside an honest control that scores full marks.

Three kinds of lifting, each proven on every exercise it applies to:
- reading the answer off a printout before the check: the printed text (taken from the notebook's own
  stored outputs) no longer holds it, so an answer built from it fails the check;
- running the shipped instrument (the linter, the injection trials, the cache model, the rollover rule):
  the value passes the check, so these four are predictions, checked for the learner and never scored:
  the grader has no slot and the gradebook no column for them;
- copying a lesson cell after the check that builds the answer: that cell waits for the check and uses
  the learner's own object.
One real grading run closes it: the lifted ex03 answer scores 0 and the lifted 05 prediction has no column,
where the control scores full marks.
"""
from __future__ import annotations

import re
import textwrap

import pytest

from workbook import SOLUTIONS_DIR
from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises import all_exercises
from workbook.grade.plan import build_plan
from workbook.grade.runner import merge_step
from workbook.grade.submissions import LearnerCells
from workbook.release import learner_copy, read_notebook
from grading_run import grade_unsandboxed

STEMS = {"03": "03_mirrored_tools", "05": "05_lint", "10": "10_definition_levels", "13": "13_tool_set_size",
         "17": "17_results_that_carry_instructions", "18": "18_tool_calls_on_the_wire"}


def _notebook(number: str):
    return read_notebook(SOLUTIONS_DIR / f"{STEMS[number]}.ipynb")


def _printed(number: str, cell_id: str) -> str:
    """What a cell of the notebook prints, as its stored output shows it."""
    cell = next(c for c in _notebook(number).cells if c.get("id") == cell_id)
    out = []
    for output in cell.get("outputs", []):
        text = output.get("text") or output.get("data", {}).get("text/plain", "")
        out.append("".join(text) if isinstance(text, list) else text)
    return "".join(out)


def _answers(number: str) -> dict[str, str]:
    """The lesson's own answer cells of one notebook: grade_id -> source."""
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in _notebook(number).cells
            if c.metadata.get("nbgrader", {}).get("solution") and not c.metadata["nbgrader"].get("grade")}


def _value(source: str, name: str, namespace: dict | None = None):
    namespace = dict(namespace or {})
    exec(compile(textwrap.dedent(source), "<answer>", "exec"), namespace)
    return namespace[name]


# ---------- 1. read off a printout before the check ----------

def test_ex03_the_printed_fixes_pair_no_problem_with_its_fix_by_position():
    printed = _printed("03", "3ec927f5")
    problems = [line.split(":")[0] for line in printed.split("\n\n")[0].splitlines()]
    fixes = [line.split(":")[0] for line in printed.split("\n\n")[1].splitlines() if line]
    assert len(problems) == 5 and len(fixes) == 7
    lifted = [dict(zip(problems, fixes)), dict(zip(problems, fixes[2:])), dict(zip(problems, fixes[::-1])),
              dict(zip(problems, [f for f in fixes if f not in ("firmer-prompt", "retry")]))]
    for answer in lifted:
        assert evaluate("ex03-design-fixes", answer).status == FAIL, answer
    assert evaluate("ex03-design-fixes", _value(_answers("03")["ex03-design-fixes"], "design_fixes")).status == PASS


def test_ex05_the_findings_are_printed_only_behind_the_check():
    cells = [c for c in _notebook("05").cells if c.cell_type == "code"]
    at = next(i for i, c in enumerate(cells) if c.metadata.get("nbgrader", {}).get("grade_id") == "ex05-predict")
    before = "".join(_printed("05", c.get("id")) for c in cells[:at])
    assert "] credit_check:" not in before  # no finding of the draft, in the linter's "[rule] tool: ..." form
    shown = next(c for c in cells[at + 1:] if 'by_tool()["credit_check"]' in c.source)
    assert 'after("ex05-predict"' in shown.source


def test_ex13_an_answer_from_the_printed_table_fails_with_a_hint_and_the_curves_pass():
    from workbook.exercises.lesson13 import loss_key

    table = _printed("13", "c008")
    at = {int(row.split()[1]): int(row.split()[-1].rstrip("%")) for row in table.splitlines()
          if re.match(r"\s*\d+\s+\d+\s+\d+\s+\d+%\s+\d+%", row)}
    per_tool = (at[5] - at[25]) / 20  # bm25, neighbours first; the prose says the other order loses the same
    lifted = {"neighbours first": per_tool, "unrelated first": per_tool}
    verdict = evaluate("ex13-loss-per-tool", lifted)
    assert verdict.status == FAIL and "rounds" in verdict.message
    assert evaluate("ex13-loss-per-tool", {k: round(v, 1) for k, v in lifted.items()}).status == FAIL
    assert evaluate("ex13-loss-per-tool", loss_key()).status == PASS


def test_ex17_the_printed_proposal_counts_are_not_the_answer():
    from workbook.exercises.lesson17 import CATCH_KEYS

    printed = _printed("17", "c021")
    by_reader = {("honours" if "honours" in line else "literal"): int(re.search(r": (\d+) of 24", line).group(1))
                 for line in printed.splitlines() if "propose" in line}
    assert by_reader == {"literal": 20, "honours": 0}
    # each configuration given the count its reader printed, whatever the notes were
    per_reader = {key: by_reader["honours" if "honours" in key else "literal"] for key in CATCH_KEYS}
    assert evaluate("ex17-must-catch", per_reader).status == FAIL
    # the gate as the end of it: nothing left for a person
    assert evaluate("ex17-must-catch", dict.fromkeys(CATCH_KEYS, 0)).status == FAIL
    # the configurations the runs print, under the keys the runs print: not the ones asked
    printed_keys = {"notes raw, literal reader": 20, "notes quoted, literal reader": 20,
                    "notes quoted, reader honours labels": 0, "notes left out, literal reader": 0}
    assert evaluate("ex17-must-catch", printed_keys).status == FAIL
    assert not set(CATCH_KEYS) <= set(printed_keys)
    assert evaluate("ex17-must-catch", _value(_answers("17")["ex17-must-catch"], "must_catch")).status == PASS


def test_ex18_no_change_asked_is_one_the_notebook_compares_and_the_nearest_printed_verdicts_fail():
    from workbook.exercises.lesson18 import BREAKS, CHANGES

    compared = {}
    for cell_id in ("c028", "c030"):
        for line in _printed("18", cell_id).splitlines():
            match = re.match(r"(.+?)\s{2,}(none|tools|system|messages)\b", line.replace("invalidates:", " "))
            if match and not line.startswith(" "):
                compared[match.group(1).strip()] = match.group(2)
    assert len(compared) == 6, compared
    assert not set(CHANGES) & set(compared)

    def words(text):
        return set(re.findall(r"[a-z_]+", text.lower())) - {"the", "a", "to", "of", "for", "one", "from", "in", "by"}

    nearest = {change: compared[max(compared, key=lambda label: len(words(label) & words(change)))]
               for change in CHANGES}
    assert evaluate("ex18-cache-breaks", nearest).status == FAIL, nearest
    assert evaluate("ex18-cache-breaks", dict.fromkeys(CHANGES, "tools")).status == FAIL
    assert evaluate("ex18-cache-breaks", dict(BREAKS)).status == PASS


# ---------- 2. run the shipped instrument in the answer cell ----------

EX05_LINT = '''
draft = Tool(DRAFT["name"], DRAFT["description"], DRAFT["parameters"], lambda arguments: {}, DRAFT["annotations"])
predicted_rules = sorted({f.rule for f in lint(tool_set("designed").with_tools([draft])).by_tool()["credit_check"]})
'''
EX05_RULES = '''
from tooldesign.lint import RULES as every_rule
from tooldesign.tools import Tool as T, tool_set as ts
mine = T(DRAFT["name"], DRAFT["description"], DRAFT["parameters"], lambda a: {}, DRAFT["annotations"])
everything = list(ts("designed").with_tools([mine]))
predicted_rules = sorted({r.id for r in every_rule if r.scope == "tool" and list(r.check(mine, everything))})
'''
EX13_TRIALS = '''
from tooldesign.injection import measure as m, reader as r
configs = {"notes raw, reader honours labels": ("raw", r.LABEL_AWARE),
           "notes quoted, literal reader": ("quoted", r.LITERAL),
           "notes quoted, reader honours labels": ("quoted", r.LABEL_AWARE),
           "notes left out, reader honours labels": ("omitted", r.LABEL_AWARE)}
must_catch = {key: sum(o.asked_person for o in m.outcomes(v, who, True)) for key, (v, who) in configs.items()}
'''
EX13_ROWS = '''
from tooldesign.injection.measure import Defence, defence_row
from tooldesign.injection.reader import LABEL_AWARE, LITERAL
must_catch = {key: len(defence_row(Defence(key, v, who, True)).person_caught) for key, v, who in (
    ("notes raw, reader honours labels", "raw", LABEL_AWARE), ("notes quoted, literal reader", "quoted", LITERAL),
    ("notes quoted, reader honours labels", "quoted", LABEL_AWARE),
    ("notes left out, reader honours labels", "omitted", LABEL_AWARE))}
'''
EX14_MODEL = '''
from tooldesign.wire.cache import cache_verdict as verdict
base = {"tools": [{"name": "b"}, {"name": "a"}], "system": "s", "tool_choice": {"type": "auto"},
        "messages": [{"role": "user", "content": m} for m in "qrs"]}
edits = [{"messages": base["messages"] + [{"role": "user", "content": "and?"}]}, {"tools": base["tools"][:1]},
         {"tools": [{**base["tools"][0], "input_examples": [{}]}, base["tools"][1]]},
         {"tool_choice": {"type": "tool", "name": "a"}},
         {"messages": [base["messages"][0], {"role": "user", "content": "r2"}, base["messages"][2]]},
         {"system": "s for 10023"}, {"messages": base["messages"][1:]}]
breaks = {change: verdict(base, {**base, **edit}).broken_at.value for change, edit in zip(CHANGES, edits)}
'''
EX08_RULE = "from tooldesign.levels.environment import meter_difference\nswapped_m3 = meter_difference(52376, 52359)\n"
EX08_TOOL = ("from tooldesign.levels import tools as lt\n"
             "swapped_m3 = lt.consumption(onceki=52376, simdiki=52359)['m3']\n")


def _namespace(number: str) -> dict:
    """The names a notebook's answer cell can read from the cells above it, for the lifted cells here."""
    if number == "05":
        from tooldesign.lint import lint
        from tooldesign.tools import Tool, tool_set
        from workbook.exercises.lesson05 import DRAFT
        return {"lint": lint, "Tool": Tool, "tool_set": tool_set, "DRAFT": DRAFT}
    if number == "18":
        from workbook.exercises.lesson18 import CHANGES
        return {"CHANGES": CHANGES}
    return {}


LIFTS = [("05", "ex05-predict", "predicted_rules", EX05_LINT, "lint"),
         ("05", "ex05-predict", "predicted_rules", EX05_RULES, "RULES"),
         ("17", "ex17-must-catch", "must_catch", EX13_TRIALS, "outcomes"),
         ("17", "ex17-must-catch", "must_catch", EX13_ROWS, "defence_row"),
         ("18", "ex18-cache-breaks", "breaks", EX14_MODEL, "cache_verdict"),
         ("10", "ex10-swapped-m3", "swapped_m3", EX08_RULE, "meter_difference"),
         ("10", "ex10-swapped-m3", "swapped_m3", EX08_TOOL, "consumption")]


PREDICTIONS = {"ex05-predict", "ex10-swapped-m3", "ex17-must-catch", "ex18-cache-breaks"}


def test_every_exercise_the_shipped_instruments_answer_is_a_prediction_worth_nothing():
    kinds = {ex.grade_id: (ex.kind, ex.points) for ex in all_exercises()}
    assert {gid for _, gid, _, _, _ in LIFTS} == PREDICTIONS
    assert all(kinds[gid] == ("prediction", 0) for gid in PREDICTIONS)
    assert not [gid for gid, (kind, points) in kinds.items() if kind != "prediction" and points == 0]


@pytest.mark.parametrize("number, grade_id, name, source, neighbour", LIFTS,
                         ids=[f"{g}-{n}" for _, g, _, _, n in LIFTS])
def test_an_answer_the_instrument_computes_passes_the_check_and_earns_nothing(number, grade_id, name, source,
                                                                               neighbour):
    # the lifted value is right: the check alone cannot tell it from the learner's own, so it scores nothing
    assert evaluate(grade_id, _value(source, name, _namespace(number))).status == PASS
    plan = build_plan(STEMS[number])
    assert grade_id not in {slot.grade_id for slot in plan.slots} and grade_id not in plan.answer_cells
    at = plan.predictions[grade_id]
    assert plan.cells[at].role == "lesson" and plan.cells[at + 1].role == "lesson"
    honest = {g: [("code", s)] for g, s in _answers(number).items()}
    for cells in (honest, {**honest, grade_id: [("code", source)]}):
        merged = merge_step(plan, LearnerCells(cells))
        assert merged.void == {} and merged.problems == ()
        assert not any(note.startswith(f"review {grade_id}") for note in merged.review)
        assert merged.sources[at] == cells[grade_id][0][1]  # the learner's own prediction runs, as it did for them
    # a prediction deleted, copied or turned into markdown costs the file nothing
    for cells in ({g: c for g, c in honest.items() if g != grade_id}, {**honest, grade_id: [("markdown", "x")]},
                  {**honest, grade_id: [("code", "a = 1"), ("code", "a = 2")]}):
        merged = merge_step(plan, LearnerCells(cells))
        assert merged.void == {} and merged.problems == (), merged


# ---------- 3. a lesson cell after the check that builds the answer ----------

def test_ex10_no_cell_of_the_learners_copy_builds_the_fifth_level_for_them():
    released = learner_copy(_notebook("10"))
    answer = next(c for c in released.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ex10-fifth-level")
    assert "Level(" not in answer.source  # the answer cell is the learner's to write
    for cell in released.cells:
        if cell.cell_type == "code" and cell is not answer:
            assert not ("Level(" in cell.source and "shows_example=True" in cell.source), cell.source
            assert "0.86" not in cell.source, cell.source
    sweep = next(c for c in released.cells if "sweep(" in c.source and "lean_level" in c.source)
    assert 'after("ex10-fifth-level"' in sweep.source


def test_every_exercise_of_this_brief_is_covered():
    covered = {"ex03-design-fixes", "ex05-predict", "ex10-swapped-m3", "ex10-fifth-level", "ex13-loss-per-tool",
               "ex17-must-catch", "ex18-cache-breaks"}
    assert covered <= {ex.grade_id for ex in all_exercises()}


# ---------- a real grading run: lifted answers score 0 beside a control with full marks ----------

@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    from workbook.notebook_files import write_notebook

    base = tmp_path_factory.mktemp("lifted")
    subs, out = base / "in", base / "out"
    printed = _printed("03", "3ec927f5").split("\n\n")
    position = ("design_fixes = dict(zip(" + repr([l.split(":")[0] for l in printed[0].splitlines()]) + ", "
                + repr([l.split(":")[0] for l in printed[1].splitlines() if l]) + "))\n")
    for learner, lifted in (("control", {}),
                            ("lifter", {"ex03-design-fixes": position, "ex05-predict": EX05_LINT})):
        for number in ("03", "05"):
            notebook = learner_copy(_notebook(number))
            answers = {**_answers(number), **lifted}
            for cell in notebook.cells:
                gid = cell.metadata.get("nbgrader", {}).get("grade_id")
                if gid in answers:
                    cell.source = answers[gid]
            path = subs / learner / f"{STEMS[number]}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_notebook(path, notebook)
    report = grade_unsandboxed(subs, out, prefix="wbl")
    return report.rows


def test_lifted_answers_score_0_in_a_grading_run_beside_a_full_control(graded):
    points = {(row.learner, e.grade_id): (e.points, e.max) for row in graded for e in row.exercises}
    control = [row for row in graded if row.learner == "control"]
    assert control and all(row.total == row.max > 0 for row in control), [
        (e.grade_id, e.points, e.message) for row in control for e in row.exercises]
    assert points[("lifter", "ex03-design-fixes")][0] == 0
    assert points[("lifter", "ex05-returns-rule")][0] > 0  # the honest answer beside them keeps its points
    # the prediction, lifted or not, has no column: nothing it holds can earn or cost a point
    assert not any(gid in PREDICTIONS for _, gid in points)
    lifter05, control05 = ([row for row in graded if row.learner == who and row.notebook == STEMS["05"]][0]
                           for who in ("lifter", "control"))
    assert lifter05.total == control05.total == lifter05.max == 2
