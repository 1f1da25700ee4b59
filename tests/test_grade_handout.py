"""The student edition: what a graded class receives, and what every grading kernel sees.

It holds the learner notebooks, the data and both packages without answers: no solutions/, no
grader, no registry of references, lesson modules rebuilt from salted digests, graded functions of
the package stubbed. Its checks still work both ways: the right answer is confirmed, the stub is
"not done", each known wrong answer gets the same hint as from the full course.
"""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

from workbook.checks import collect, judge_plain
from workbook.cli import main
from workbook.exercises import all_exercises, grading_for
from workbook.exercises.public import canonical, derive, seal, unseal
from workbook.exercises.references import REFERENCES, same_plain
from workbook.handout import HandoutError, build, graded_functions, keep_only, lesson_module
from workbook.plain import to_plain

GRADED = [ex for ex in all_exercises() if ex.kind != "manual"]
# Every graded exercise must be registered (see the test below); the tests prove each registered one.
REGISTERED = [ex for ex in GRADED if ex.grade_id in REFERENCES]


@pytest.fixture()
def edition(student_edition):
    return student_edition  # built once per session (tests/conftest.py)


@pytest.fixture(scope="module")
def public_lessons():
    """Each lesson module of the student edition, loaded beside the full course, by grade_id."""
    found = {}
    for name in sorted({f"lesson{ex.grade_id[2:4]}" for ex in all_exercises()}):
        namespace = {"__name__": f"student_{name}"}
        exec(compile(lesson_module(name, []), f"student/{name}.py", "exec"), namespace)
        found.update({ex.grade_id: ex for ex in namespace["EXERCISES"]})
    return found


def _right(exercise):
    grading = grading_for(exercise.grade_id)
    return grading.reference_function() if exercise.kind == "function" else grading.right_value()


def test_every_exercise_is_registered_with_the_grader():
    """An unregistered exercise would grade on its fixed probes only (memorising them passes) and have
    no self-check in the student edition; a registered id no lesson defines is a stale answer key."""
    missing = sorted(ex.grade_id for ex in GRADED if ex.grade_id not in REFERENCES)
    assert not missing, (f"not in workbook.exercises.references (fixed probes only, no self-check in the student "
                         f"edition): {', '.join(missing)}; add an entry (docs/AUTHORING.md, 'What the grader keeps')")
    stale = sorted(set(REFERENCES) - {ex.grade_id for ex in all_exercises()})
    assert not stale, f"registered but defined by no lesson: {', '.join(stale)}; remove them from the registry"
    manual = sorted(ex.grade_id for ex in all_exercises() if ex.kind == "manual" and ex.grade_id in REFERENCES)
    assert not manual, f"manual exercises are graded by a person and need no entry: {', '.join(manual)}"
    for exercise in REGISTERED:
        grading = grading_for(exercise.grade_id)
        if exercise.kind == "function":
            assert grading.reference_function() is not None and grading.generate is not None, exercise.grade_id
        elif not grading.public:
            assert grading.reference is not None, f"{exercise.grade_id}: a value exercise needs its right value"


@pytest.mark.parametrize("grade_id", [ex.grade_id for ex in REGISTERED if not grading_for(ex.grade_id).public])
def test_the_student_edition_confirms_the_right_answer(public_lessons, grade_id):
    exercise = public_lessons[grade_id]
    full = next(ex for ex in GRADED if ex.grade_id == grade_id)
    verdict = judge_plain(exercise, collect(exercise, _right(full) if full.kind == "function"
                                            else to_plain(_right(full))))
    assert verdict.passed, verdict.message
    assert verdict.message == judge_plain(full, collect(full, _right(full) if full.kind == "function"
                                                        else to_plain(_right(full)))).message


@pytest.mark.parametrize("grade_id", [ex.grade_id for ex in REGISTERED if ex.wrong_answers])
def test_the_student_edition_keeps_every_hint_for_a_known_mistake(public_lessons, grade_id):
    exercise = public_lessons[grade_id]
    full = next(ex for ex in GRADED if ex.grade_id == grade_id)
    for wrong in full.wrong_answers:
        verdict = judge_plain(exercise, collect(exercise, wrong.answer))
        assert not verdict.passed and wrong.hint_contains in verdict.message, (wrong.hint_contains, verdict.message)


def test_an_unknown_wrong_answer_gets_a_hint_that_reveals_nothing(public_lessons):
    verdict = judge_plain(public_lessons["ex02-claims"], collect(public_lessons["ex02-claims"],
                                                                  lambda shipments, readings, limits: {"SHP-1": 1}))
    assert not verdict.passed and "Expected what the exercise asks" in verdict.message and "720" not in verdict.message
    verdict = judge_plain(public_lessons["ex02-longest-breach"], collect(public_lessons["ex02-longest-breach"],
                                                                          lambda t, m, s: 7))
    assert not verdict.passed and "longest_breach_minutes([4.1" in verdict.message


def test_an_equal_answer_in_other_words_has_the_same_digest():
    assert canonical({"b": 1.0, "a": [" x ", 2.5]}) == canonical({"a": ["x", 2.5], "b": 1})
    assert derive("salt", {"SHP-2047": 720})[0] != derive("other", {"SHP-2047": 720})[0]
    key = derive("s", ["4711"])[1]
    assert unseal(key, seal(key, "right: 4711")) == "right: 4711"
    assert unseal(derive("s", ["4712"])[1], seal(key, "right: 4711")) != "right: 4711"


def test_no_answer_is_in_clear_in_the_student_edition(edition):
    exercises = edition.folder / "src" / "workbook" / "exercises"
    assert not (exercises / "references.py").exists() and not (edition.folder / "solutions").exists()
    assert not (edition.folder / "src" / "workbook" / "grade").exists()
    text = "\n".join(p.read_text() for p in exercises.glob("lesson*.py"))
    # Digests and sealed messages are hex: a figure may turn up inside one by chance ("...0421632...").
    text = re.sub(r"\b[0-9a-f]{32,}\b", "<hex>", text)
    for secret in ("SHP-2061", "1,920", "99983", "21632", "21,632", "tuketim ( onceki = 30500", "['4711', '4723', '4725']", "BREACH_EXPECTED",
                   "_resent", "reference_told", "for part in SENT", "TOLD_RULES", "EXPOSURE_EXPECTED",
                   # the fixed call's and the access values' keys: their probes' inputs ship, their answers do not
                   "_FIX_WANTS", '("4731", "detailed")', "_RIGHT = {", "_LESSON_VALUES", "APPROVER_EXPECTED",
                   "CREDIT_MANAGER', 'HEAD_OF_FINANCE', 'CREDIT_MANAGER'"):
        assert secret not in text, secret
    # Judges with no answer key ship as they are (the linter's and the selection test's checks, say).
    for exercise in REGISTERED:
        if grading_for(exercise.grade_id).public and exercise.judge.__name__ != "<lambda>":
            assert f"def {exercise.judge.__name__}" in text, exercise.grade_id


def test_graded_functions_are_stubs_that_still_serve_the_package(edition):
    assert set(graded_functions()) >= {"tooldesign.data.coldchain:longest_breach_minutes",
                                       "tooldesign.data.coldchain:claims",
                                       "tooldesign.codemode.sizelimit:fillers_that_fit"}
    probe = r"""
import json
from tooldesign.data import coldchain, views
from tooldesign.codemode import sizelimit
out = {}
for call in ("coldchain.longest_breach_minutes([9.0, 9.5], 8.0, 30)", "coldchain.claims()",
             "sizelimit.fillers_that_fit(31855)"):
    try:
        eval(call)
        out[call] = "answered"
    except NotImplementedError as error:
        out[call] = str(error)
s, r, l = coldchain.shipments(), coldchain.readings(), coldchain.limits()
out["explorer"] = views.shipment_summary("SHP-2047", s, r, l)
try:
    import workbook.exercises.references
    out["references"] = "importable"
except ImportError:
    out["references"] = "absent"
print(json.dumps(out))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300,
                          cwd=edition.folder, env={"PYTHONPATH": str(edition.folder / "src"), "PATH": "/usr/bin:/bin",
                                                   "PYTHONNOUSERSITE": "1", "MPLBACKEND": "Agg",
                                                   "HOME": str(edition.folder)})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert all("exercise of this course" in out[k] for k in out if k.startswith(("coldchain.", "sizelimit.")))
    assert out["explorer"].startswith("SHP-2047: longest breach 150 min")  # the package's own call on course data
    assert out["references"] == "absent"


def test_the_build_is_byte_identical_and_never_overwrites(edition, tmp_path):
    again = build(tmp_path / "again", notebooks=False)
    for path in sorted((edition.folder / "src").rglob("*.py")):
        assert (again.folder / path.relative_to(edition.folder)).read_bytes() == path.read_bytes(), path
    with pytest.raises(HandoutError, match="not empty"):
        build(edition.folder)
    assert main(["handout", str(edition.folder)]) == 2
    assert sorted(p.name for p in (edition.folder / "notebooks").glob("*.ipynb"))[:3] == [
        "00_start_here.ipynb", "01_sap_orders_data.ipynb", "02_coldchain_data.ipynb"]


@pytest.mark.parametrize("stop", [OSError("No space left on device"), KeyboardInterrupt()], ids=["disk full", "Ctrl+C"])
@pytest.mark.parametrize("empty_folder_first", [False, True], ids=["absent", "empty"])
def test_a_build_that_stops_leaves_no_half_edition(tmp_path, monkeypatch, stop, empty_folder_first):
    import workbook.handout as handout

    out = tmp_path / "edition"
    if empty_folder_first:
        out.mkdir()
        folder_before = out.stat().st_ino

    def fails(*args, **kwargs):
        raise stop
    monkeypatch.setattr(handout, "_write_workbook", fails)
    with pytest.raises(type(stop)):
        build(out, notebooks=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == (["edition"] if empty_folder_first else [])
    assert not out.exists() or not any(out.iterdir())
    monkeypatch.undo()
    assert build(out, notebooks=False).folder == out and (out / "src" / "workbook").is_dir()  # the next run works
    if empty_folder_first:
        assert out.stat().st_ino == folder_before, "the folder given was replaced, not filled"


def test_the_student_edition_checks_a_notebook_the_way_a_learner_does(edition):
    """One real check cell in the student edition: the stub is not done, the right answer passes."""
    code = ("from workbook.checks import evaluate\n"
            "def longest(temps, limit, minutes):\n"
            "    best = run = 0\n"
            "    for t in temps:\n"
            "        run = run + 1 if t > limit else 0\n"
            "        best = max(best, run)\n"
            "    return best * minutes\n"
            "print(evaluate('ex02-longest-breach', ...).status)\n"
            "print(evaluate('ex02-longest-breach', longest).status)\n"
            "print(evaluate('ex02-longest-breach', lambda t, m, s: sum(x > m for x in t) * s).message)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(edition.folder / "src"), "PATH": "/usr/bin:/bin", "PYTHONNOUSERSITE": "1"})
    lines = done.stdout.splitlines()
    assert lines[:2] == ["not_done", "pass"] and "longest run" in lines[2], done.stderr


def test_keep_only_takes_what_a_judge_needs_and_nothing_else():
    source = "import re\nA = 1\nSECRET = 2\ndef helper():\n    return A\ndef judge(x):\n    return helper() + len(re.findall('a', x))\n"
    kept = keep_only(source, {"judge"})
    assert "SECRET" not in kept and "def helper" in kept and "import re" in kept and "A = 1" in kept


@pytest.mark.parametrize("grade_id", sorted(g for g, r in REFERENCES.items() if r.generate is not None))
def test_drawn_inputs_are_plain_and_the_reference_agrees_with_itself(grade_id):
    grading = REFERENCES[grade_id]
    reference = grading.reference_function()
    rng = random.Random(f"test:{grade_id}")
    for _ in range(grading.draws):
        args = grading.generate(rng)
        assert to_plain(list(args)) == json.loads(json.dumps(to_plain(list(args))))
        want = to_plain(reference(*args))
        assert (grading.same or same_plain)(want, want) or grading.same is not None


def test_a_draw_depends_on_the_run_secret_only(monkeypatch):
    from workbook.exercises import get_exercise
    from workbook.grade.runner import _draws, draw_for
    exercise = get_exercise("ex02-longest-breach")
    _draws.clear()
    one, same, other = draw_for(exercise, "seed-1"), draw_for(exercise, "seed-1"), draw_for(exercise, "seed-2")
    assert one == same and one.drawn != other.drawn and one.fixed == exercise.probes
    assert len(one.drawn) == len(one.expected) == REFERENCES["ex02-longest-breach"].draws


@pytest.mark.parametrize("stem", ["02_coldchain_data", "04_designed_tools", "09_code_mode_access", "11_dispatch_and_errors",
                                  "12_writes_errors_and_tool_choice",
                                  "14_serving_tools_over_mcp", "16_results_across_the_loop",
                                  "17_results_that_carry_instructions"])
def test_the_lessons_that_use_a_stubbed_function_still_run_in_the_student_edition(edition, stem, monkeypatch):
    """The solution notebook, run over the student edition's packages: the package's own calls on the
    course data (plots, the explorer, the credit tool, the scripted runs) still work."""
    import nbformat
    from nbclient import NotebookClient

    from tooldesign.figures import OFF, PICTURES
    from workbook import SOLUTIONS_DIR
    monkeypatch.setenv("PYTHONPATH", str(edition.folder / "src"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # The package's plotting code runs in full; only matplotlib's drawing of the finished figure is skipped.
    monkeypatch.setenv(PICTURES, OFF)
    notebook = nbformat.read(SOLUTIONS_DIR / f"{stem}.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell("import tooldesign\nprint(tooldesign.__file__)"))
    NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(edition.folder / "notebooks")}}).execute()
    errors = [(i, o.get("ename"), o.get("evalue")) for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"
              for o in cell.outputs if o.get("output_type") == "error"]
    assert errors == []
    assert notebook.cells[-1].outputs[0]["text"].startswith(str(edition.folder))  # the student edition ran


@pytest.mark.parametrize("grade_id", sorted(g for g, r in REFERENCES.items() if r.generate is not None))
def test_every_known_mistake_is_caught_on_drawn_inputs_alone(grade_id):
    """Drawn inputs must tell each plausible wrong answer from the reference, or memorising the fixed
    probes and answering like that mistake elsewhere would pass."""
    from workbook.exercises import get_exercise
    exercise, grading = get_exercise(grade_id), REFERENCES[grade_id]
    reference, same = grading.reference_function(), grading.same or same_plain
    rng = random.Random(f"mistakes:{grade_id}")
    draws = [grading.generate(rng) for _ in range(60)]

    def agrees(answer, args):
        try:
            return same(to_plain(answer(*args)), to_plain(reference(*args)))
        except Exception:
            return False
    for wrong in exercise.wrong_answers:
        if callable(wrong.answer):
            assert not all(agrees(wrong.answer, args) for args in draws), (grade_id, wrong.hint_contains)
