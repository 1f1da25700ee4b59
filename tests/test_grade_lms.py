"""From an LMS download to marks in the LMS: Canvas and Moodle layouts, resubmissions, the roster,
hand grades, the four exports (checked against fixtures written from each target's documentation)
and the bad inputs, each refused in one line. Almost everything runs on typed rows, without a
kernel; one small Canvas download of lesson 00 is graded for real, twice, to show that a new
roster or hand-grades file needs no notebook run again."""

import csv
from dataclasses import replace
import io
import json
import shutil
import tempfile
from functools import cache
from pathlib import Path

import pytest

import lessons
from workbook import NOTEBOOKS_DIR
from workbook.grade.classbook import (ClassbookError, HandGrade, apply_hand_grades, load_hand_grades,
                                      load_roster, missing_rows)
from workbook.grade.exports import ExportError, canvas, lesson_csv, moodle, nbgrader, write_exports
from workbook.grade.feedback import file_name, render_learner
from workbook.grade.gradebook import read_stamp, render, write_stamp
from workbook.grade.plan import known_notebooks
from workbook.grade.results import ExerciseResult, GradeVerdict, Row, Status
from workbook.grade.submissions import discover, keep_latest, lms_identity

FIXTURES = Path(__file__).parent / "fixtures" / "lms"
# The lesson whose exercises the marks below use (one auto-graded, one graded by hand), found by its
# name: the fixtures say {NOTE_LESSON} and {EX}, so a renumbering of the course changes no file here.
NOTE_LESSON = lessons.stem("selection_test_a_new_tool")
EX = f"ex{lessons.number('selection_test_a_new_tool')}"
DESIGN_NOTE = f"{EX}-design-note"


def _fixture(name: str) -> str:
    """A fixture's text with the lesson's current stem and exercise prefix in place of its placeholders."""
    template = name.replace(NOTE_LESSON, "NOTE_LESSON")
    text = (FIXTURES / template).read_bytes().decode("utf-8")  # as stored: some exports end lines with CRLF
    return text.replace("{NOTE_LESSON}", NOTE_LESSON).replace("{EX}", EX)


@cache
def _fixture_file(name: str) -> Path:
    """The fixture with its placeholders filled in, as a file (for readers that take a path)."""
    path = Path(tempfile.mkdtemp(prefix="lms-fixture-")) / name
    path.write_bytes(_fixture(name).encode("utf-8"))
    return path
KNOWN = known_notebooks()
CLASS = Path(__file__).parent / "submissions" / "class"


def _touch(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}")


# ---------- the layouts each LMS downloads ----------

def test_canvas_flat_names_give_one_learner_per_user_id(tmp_path):
    _touch(tmp_path, "lastfirst_123456_7890123_06_selection_test.ipynb",
           "lastfirst_LATE_123456_7890124_06_selection_test-1.ipynb",
           "lastfirst_123456_7890100_00_start_here.ipynb",
           "lastfirst_654321_7890125_06_selection_test.ipynb",  # another learner of the same name
           "smithjo_222_333_my notebook 02.ipynb")
    found = {s.file: s for s in discover(tmp_path, KNOWN)}
    assert {s.learner for s in found.values()} == {"lastfirst_123456", "lastfirst_654321", "smithjo_222"}
    assert {s.lms for s in found.values()} == {"canvas"}
    assert found["lastfirst_LATE_123456_7890124_06_selection_test-1.ipynb"].notebook == "06_selection_test"
    assert found["smithjo_222_333_my notebook 02.ipynb"].notebook == "02_coldchain_data"
    kept, superseded = keep_latest(list(found.values()))
    assert [s.file for s in superseded] == ["lastfirst_123456_7890123_06_selection_test.ipynb"]
    assert len(kept) == 4


@pytest.mark.parametrize("names, latest", [
    (("ab_1_10_06_selection_test.ipynb", "ab_1_11_06_selection_test.ipynb"), "ab_1_11_06_selection_test.ipynb"),
    (("ab_1_10_06_selection_test.ipynb", "ab_LATE_1_9_06_selection_test.ipynb"), "ab_1_10_06_selection_test.ipynb"),
    (("ab_1_10_06_selection_test.ipynb", "ab_1_10_06_selection_test-1.ipynb", "ab_1_10_06_selection_test-2.ipynb"),
     "ab_1_10_06_selection_test-2.ipynb"),
    (("ab_1_10_06_selection_test-10.ipynb", "ab_1_10_06_selection_test-9.ipynb"), "ab_1_10_06_selection_test-10.ipynb"),
])
def test_the_latest_canvas_submission_is_kept_by_submission_id_then_suffix(tmp_path, names, latest):
    _touch(tmp_path, *names)
    kept, superseded = keep_latest(discover(tmp_path, KNOWN))
    assert [s.file for s in kept] == [latest]
    assert sorted(s.file for s in superseded) == sorted(set(names) - {latest})


def test_moodle_folders_give_a_key_that_is_also_the_feedback_file_name(tmp_path):
    _touch(tmp_path, "Ada Lovelace_1234_assignsubmission_file_/06_selection_test.ipynb",
           "Zoë Ümlaut_77_assignsubmission_file_/lab 00.ipynb",
           "Ada Lovelace_999_assignsubmission_file_/06_selection_test.ipynb",
           "plainfolder/06_selection_test.ipynb")
    found = {s.file: s for s in discover(tmp_path, KNOWN)}
    learners = sorted(s.learner for s in found.values())
    assert learners == ["ada-lovelace_1234", "ada-lovelace_999", "plainfolder", "zoe-umlaut_77"]
    assert found["Zoë Ümlaut_77_assignsubmission_file_/lab 00.ipynb"].notebook == "00_start_here"
    for submission in found.values():
        assert file_name(submission.learner) == submission.learner + ".md"  # one key, one file name
    assert lms_identity(Path("plainfolder/06_selection_test.ipynb")) is None


def test_the_folder_per_learner_layout_keeps_every_file_as_before(tmp_path):
    _touch(tmp_path, "alice/06_selection_test.ipynb", "alice/06_selection_test (1).ipynb")
    kept, superseded = keep_latest(discover(tmp_path, KNOWN))
    assert len(kept) == 2 and superseded == []


# ---------- rows like the grader makes, for the marks ----------

def _ex(gid, points, most, verdict=GradeVerdict.PASS):
    return ExerciseResult(gid, points, most, verdict, "hint")


def _rows() -> list[Row]:
    pending = GradeVerdict.MANUAL
    def row(learner, notebook, exercises):
        return Row(learner, notebook, f"{learner}_{notebook}.ipynb", Status.GRADED, "", 0, 0, tuple(exercises)).recounted()
    return [
        row("lovelaceada_101", "00_start_here", [_ex("ex00-model-is-told", 1, 1)]),
        row("lovelaceada_101", NOTE_LESSON, [_ex(f"{EX}-a", 6, 6), _ex(DESIGN_NOTE, 0, 3, pending)]),
        row("hoppergrace_102", "00_start_here", [_ex("ex00-model-is-told", 0, 1, GradeVerdict.FAIL)]),
        row("hoppergrace_102", NOTE_LESSON, [_ex(f"{EX}-a", 4, 6, GradeVerdict.FAIL), _ex(DESIGN_NOTE, 0, 3, pending)]),
        row("turingalan_103", "00_start_here", [_ex("ex00-model-is-told", 0, 1, GradeVerdict.NOT_DONE)]),
    ]


def _class():
    roster = load_roster(FIXTURES / "roster.csv")
    grades, problems = load_hand_grades(_fixture_file("hand_grades.csv"), {DESIGN_NOTE: 3})
    assert problems == []
    rows, problems, applied = apply_hand_grades(_rows(), grades, roster)
    assert problems == [] and applied == 1
    rows, unmatched, absent = missing_rows(rows, roster)
    return rows, roster, unmatched, absent


def test_hand_graded_points_count_in_max_and_are_pending_until_graded():
    ada_note = _rows()[1]
    assert (ada_note.total, ada_note.max, ada_note.pending) == (6, 9, 3)
    text = render_learner("lovelaceada_101", [ada_note])
    assert f"## {NOTE_LESSON}: 6 of 9 points, 3 pending a person's grade" in text
    assert "6 of 9 points over 1 file, 3 pending a person's grade." in text and "6 of 6 points" not in text
    line = render([ada_note]).splitlines()[1]
    assert ",pending,6,9,3,graded," in line


def test_a_hand_grade_completes_the_total_and_reaches_the_feedback():
    rows, *_ = _class()
    ada_note = next(r for r in rows if r.learner == "lovelaceada_101" and r.notebook == NOTE_LESSON)
    assert (ada_note.total, ada_note.max, ada_note.pending) == (8, 9, 0)
    text = render_learner("lovelaceada_101", [ada_note])
    assert "8 of 9 points" in text and "pending" not in text and "the open questions are thin" in text


def test_a_hand_grade_takes_its_exercise_off_the_to_grade_by_hand_note_and_only_that_one():
    rows = _rows()
    note = f"to grade by hand: {EX}-design-note (its text is in the feedback file)"
    rows[1] = replace(rows[1], reason=f"review: a long answer; {note}")
    rows[3] = replace(rows[3], reason=note)
    grades = [HandGrade("lovelaceada_101", DESIGN_NOTE, 2, "", 2)]
    done, problems, applied = apply_hand_grades(rows, grades, None)
    assert applied == 1 and problems == []
    assert done[1].reason == "review: a long answer"  # graded now: the note goes, the other reason stays
    assert done[3].reason == note  # grace's is still waiting for a person


def test_hand_grade_problems_are_listed_in_file_order(tmp_path):
    from workbook.grade.classbook import problem_line

    lines = ["--hand-grades line 5: b", "--hand-grades line 12: c", "--hand-grades line 3: a"]
    assert sorted(lines, key=problem_line) == [lines[2], lines[0], lines[1]]


@pytest.mark.parametrize("line, says", [
    (f"ada,{EX}-nope,2,", "is not an exercise graded by hand"),
    (f"ada,{EX}-a,2,", "is not an exercise graded by hand"),  # auto-graded: a person does not mark it
    (f"ada,{EX}-design-note,4,", "worth 0 to 3"),
    (f"ada,{EX}-design-note,-1,", "worth 0 to 3"),
    (f"ada,{EX}-design-note,two,", "is not a number"),
    (f"ada,{EX}-design-note,,", "is not a number"),
])
def test_a_bad_hand_grade_row_gets_one_line_saying_what_to_fix(tmp_path, line, says):
    path = tmp_path / "hand.csv"
    path.write_text("learner,exercise,points,comment\n" + line + f"\nada,{EX}-design-note,1,ok\n")
    grades, problems = load_hand_grades(path, {DESIGN_NOTE: 3})
    assert len(problems) == 1 and says in problems[0] and "line 2" in problems[0] and "\n" not in problems[0]
    assert [g.line for g in grades] == [3]  # the good row is still used


def test_a_hand_grade_for_an_unknown_learner_is_named_not_applied():
    grades = [HandGrade("nobody", DESIGN_NOTE, 2, "", 2), HandGrade("turingalan_103", DESIGN_NOTE, 1, "", 3)]
    rows, problems, applied = apply_hand_grades(_rows(), grades, load_roster(FIXTURES / "roster.csv"))
    assert applied == 0 and len(problems) == 2
    assert "no learner 'nobody'" in problems[0] and f"has no graded file with {EX}-design-note" in problems[1]


@pytest.mark.parametrize("header", ["Learner,Exercise,Points,Comment", "\ufefflearner,exercise,points,comment"])
def test_hand_grades_from_a_spreadsheet_are_read_whatever_the_case_or_bom(tmp_path, header):
    path = tmp_path / "hand.csv"
    path.write_text(header + f"\nada,{EX}-design-note,1.5,ok\n", encoding="utf-8")
    grades, problems = load_hand_grades(path, {DESIGN_NOTE: 3})
    assert problems == [] and grades[0].points == 1.5


# ---------- the roster ----------

def test_the_roster_lists_learners_without_files_and_files_without_learners():
    rows, roster, unmatched, absent = _class()
    extra = Row("stranger_9", "00_start_here", "x.ipynb", Status.GRADED, "", 0, 1, (_ex("ex00-model-is-told", 0, 1),))
    _, unmatched, absent = missing_rows(_rows() + [extra], roster)
    assert unmatched == ["stranger_9"] and absent == []
    turing_note = [r for r in rows if r.learner == "turingalan_103" and r.notebook == NOTE_LESSON]
    assert len(turing_note) == 1 and turing_note[0].status is Status.MISSING and turing_note[0].total == 0
    assert turing_note[0].max == 9
    nobody = load_roster(FIXTURES / "roster.csv")
    _, _, absent = missing_rows(_rows()[:2], nobody)
    assert absent == ["hopper_102", "turingalan_103"]


@pytest.mark.parametrize("body, column", [
    ("learner,email\na,x@e.edu\na,y@e.edu\n", "learner"),
    ("learner,email\na,x@e.edu\nb,X@E.edu\n", "email"),
    ("learner,canvas_id\na,1\nb,1\n", "canvas_id"),
    ("learner,id_number\na,M1\nb,M1\n", "id_number"),
    ("learner,sis_user_id\na,S\nb,S\n", "sis_user_id"),
])
def test_a_roster_with_duplicate_ids_is_refused_in_one_line(tmp_path, body, column):
    path = tmp_path / "roster.csv"
    path.write_text(body)
    with pytest.raises(ClassbookError) as error:
        load_roster(path)
    assert f"{column} " in str(error.value) and "lines 2 and 3" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("body, says", [("name,email\nA,a@e\n", "no 'learner' column"),
                                        ("learner,email\n,a@e\n", "empty learner")])
def test_a_roster_that_cannot_be_used_says_why(tmp_path, body, says):
    path = tmp_path / "roster.csv"
    path.write_text(body)
    with pytest.raises(ClassbookError, match=says):
        load_roster(path)


# ---------- the exports, byte for byte ----------

@pytest.mark.parametrize("target, write", [("canvas", canvas), ("moodle", moodle), ("nbgrader", nbgrader)])
def test_each_export_is_exactly_the_documented_import_file(target, write):
    rows, roster, _, _ = _class()
    assert write(rows, roster).encode("utf-8") == _fixture(f"{target}.csv").encode()


def test_the_lesson_csv_has_a_column_per_exercise_and_a_course_total():
    rows, roster, _, _ = _class()
    files = lesson_csv(rows, roster)
    assert sorted(files) == ["course.csv", "lesson-00_start_here.csv", f"lesson-{NOTE_LESSON}.csv"]
    for name in ("course.csv", f"lesson-{NOTE_LESSON}.csv"):
        assert files[name].encode() == _fixture(name).encode(), name


def test_pending_is_never_written_as_zero():
    rows, roster, _, _ = _class()
    grace = "Hopper, Grace"
    canvas_line = next(line for line in canvas(rows, roster).splitlines() if line.startswith(f'"{grace}"'))
    assert canvas_line.endswith(",0,")  # 00: 0 points; the design-note lesson: empty, not graded yet
    lesson = lesson_csv(rows, roster)[f"lesson-{NOTE_LESSON}.csv"]
    assert "hopper_102,4,pending,4,9,3,graded" in lesson


@pytest.mark.parametrize("target", ["canvas", "moodle", "nbgrader", "lesson-csv"])
def test_a_roster_round_trip_loses_nobody(tmp_path, target):
    rows, roster, _, _ = _class()
    written = write_exports(rows, roster, [target], tmp_path)
    text = "".join(p.read_text(encoding="utf-8") for p in written)
    for entry in roster.entries:
        assert (entry.canvas_id if target == "canvas" else entry.email if target != "lesson-csv" else entry.learner) in text
    table = list(csv.reader(io.StringIO(written[0].read_text(encoding="utf-8"))))
    data = table[2:] if target == "canvas" else table[1:]
    per_learner = len(data) // len(roster.entries)
    assert len(data) == per_learner * len(roster.entries) >= len(roster.entries)


@pytest.mark.parametrize("target", ["canvas", "moodle"])
def test_an_lms_export_without_a_roster_is_refused(tmp_path, target):
    with pytest.raises(ExportError, match="needs --roster"):
        write_exports(_rows(), None, [target], tmp_path)


def test_a_gradebook_from_another_course_version_is_refused(tmp_path):
    rows, *_ = _class()
    path = write_stamp(rows, tmp_path / "gradebook.json")
    assert read_stamp(path) == sorted(rows, key=lambda r: (r.learner, r.notebook, r.file))
    data = json.loads(path.read_text())
    data["course_version"] = "0123456789ab"
    path.write_text(json.dumps(data))
    with pytest.raises(ClassbookError, match="another course|course version '0123456789ab'"):
        read_stamp(path)


@pytest.mark.parametrize("content, says", [
    (None, "holds no gradebook.json; grade into it first"),
    ("", "cannot be read"),
    ("{not json", "cannot be read"),
    ("[1, 2]", "is not a gradebook the grader wrote"),
    ('{"course_version": "x"}', "is not a gradebook the grader wrote"),
    ('{"rows": {"a": 1}}', "is not a gradebook the grader wrote"),
])
def test_a_missing_or_foreign_gradebook_json_is_one_line(tmp_path, content, says):
    path = tmp_path / "gradebook.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ClassbookError, match=says) as caught:
        read_stamp(path)
    assert "\n" not in str(caught.value)


def test_rows_of_the_wrong_shape_in_a_stamped_gradebook_are_one_line(tmp_path):
    rows, *_ = _class()
    path = write_stamp(rows, tmp_path / "gradebook.json")
    data = json.loads(path.read_text())
    data["rows"] = [{"learner": "a"}]
    path.write_text(json.dumps(data))
    with pytest.raises(ClassbookError, match="is not a gradebook the grader wrote"):
        read_stamp(path)


# ---------- the command, and one small class graded for real ----------

def _run(*argv):
    from workbook.cli import main
    return main(list(argv))


def test_bad_input_at_the_command_line_gets_one_line(tmp_path, capsys):
    roster = tmp_path / "roster.csv"
    roster.write_text("learner,email\na,x@e\nb,x@e\n")
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "a").mkdir()
    (tmp_path / "subs" / "a" / "00_start_here.ipynb").write_text("{}")
    cases = [
        (["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "o1"), "--roster", str(roster)], "appears on lines 2 and 3"),
        (["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "o2"), "--export", "canvas", "--no-sandbox"], "needs --roster"),
        (["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "o3"), "--export", "blackboard"], "invalid choice"),
        (["export", "--to", "canvas", "--out", str(tmp_path / "o4")], "holds no gradebook.json; grade into it first"),
    ]
    (tmp_path / "empty").mkdir()
    cases.append((["grade", str(tmp_path / "empty"), "--out", str(tmp_path / "o5"), "--no-sandbox"], "holds no submissions"))
    for argv, says in cases:
        assert _run(*argv) != 0
        err = capsys.readouterr().err.strip()
        assert says in err and len(err.splitlines()) == 1, (argv, err)


def test_a_canvas_download_is_graded_once_and_marks_follow_the_roster(tmp_path):
    from workbook.grade import GradeOptions, grade

    subs = tmp_path / "download"
    subs.mkdir()
    correct = CLASS / "correct" / "00_start_here.ipynb"
    stub = NOTEBOOKS_DIR / "00_start_here.ipynb"
    shutil.copy(stub, subs / "lovelaceada_101_5000_00_start_here.ipynb")  # superseded: never graded
    shutil.copy(correct, subs / "lovelaceada_LATE_101_5001_00_start_here-1.ipynb")
    shutil.copy(stub, subs / "hoppergrace_102_5002_00_start_here.ipynb")
    out = tmp_path / "out"
    options = dict(timeout=60, progress=False, context="lms-test", sandbox=False, say=lambda _: None)
    first = grade(GradeOptions(subs, out, exports=("lesson-csv",), **options))
    assert first.graded_now == 2 and [s.file for s in first.superseded] == ["lovelaceada_101_5000_00_start_here.ipynb"]
    assert (out / "superseded.txt").read_text() == "lovelaceada_101_5000_00_start_here.ipynb\n"
    assert {r.learner: r.total for r in first.rows} == {"lovelaceada_101": 1, "hoppergrace_102": 0}
    assert sorted(p.name for p in (out / "feedback").iterdir()) == ["hoppergrace_102.md", "lovelaceada_101.md"]
    # A roster (and exports) on the next run: nothing is graded again (unsandboxed, the journal is not
    # trusted, so only the roster and exports are compared, not the count).
    second = grade(GradeOptions(subs, out, roster=FIXTURES / "roster.csv", exports=("canvas", "nbgrader"), **options))
    assert {r.learner: r.status.value for r in second.rows} == {
        "lovelaceada_101": "graded", "hoppergrace_102": "graded", "turingalan_103": "missing"}
    text = (out / "exports" / "canvas.csv").read_text()
    assert '"Lovelace, Ada",101,S101,ada,Section A,1' in text and '"Turing, Alan",103' in text
    assert any("roster learners with no submission" in line and "turingalan_103" in line for line in second.summary)
    assert "no submission\tturingalan_103" in (out / "roster-report.txt").read_text()
