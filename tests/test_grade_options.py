"""A grading run is asked for with one frozen value, built once by whoever starts the run."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

import workbook.grade
from workbook import cli
from workbook.grade import GradeOptions, batch
from workbook.grade.kernel import Limits


def test_options_are_frozen():
    options = GradeOptions(Path("in"), Path("out"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.jobs = 4  # type: ignore[misc]


def test_text_paths_become_paths_and_exports_a_tuple():
    options = GradeOptions("in", "out", hidden_checks="hidden.py", roster="r.csv", exports=["canvas"])
    assert options.submissions == Path("in") and options.out == Path("out")
    assert options.hidden_checks == Path("hidden.py") and options.roster == Path("r.csv")
    assert options.exports == ("canvas",) and options.hand_grades is None and options.edition is None


def test_the_defaults_are_the_documented_ones():
    options = GradeOptions(Path("in"), Path("out"))
    assert (options.jobs, options.timeout, options.sandbox, options.progress) == (1, 120, None, True)
    assert options.limits == Limits() and options.exports == ()


def test_a_changed_copy_leaves_the_first_as_it_was():
    first = GradeOptions(Path("in"), Path("out"))
    second = dataclasses.replace(first, jobs=3)
    assert (first.jobs, second.jobs) == (1, 3)


def test_grade_takes_the_options_alone():
    parameters = list(inspect.signature(batch.grade).parameters)
    assert parameters == ["options"]


def test_the_batch_reads_as_named_steps_in_order():
    assert batch.STEPS == (
        "check",
        "collect",
        "sandbox",
        "grade_each",
        "hand_grades",
        "gradebook",
        "feedback",
        "exports",
    )
    source = inspect.getsource(batch.grade)
    places = []
    for step in batch.STEPS:
        assert callable(getattr(batch, f"{step}_step")), step
        places.append(source.index(f"{step}_step("))
    assert places == sorted(places), "grade() should run its steps in the order STEPS names them"


def _captured(monkeypatch) -> list[GradeOptions]:
    seen: list[GradeOptions] = []

    def fake(options: GradeOptions):
        seen.append(options)
        raise KeyboardInterrupt  # the command line stops there and says how to go on

    monkeypatch.setattr(workbook.grade, "grade", fake)
    return seen


def test_the_command_line_builds_one_options_value(tmp_path, monkeypatch, capsys):
    seen = _captured(monkeypatch)
    (tmp_path / "subs").mkdir()
    code = cli.main(
        [
            "grade",
            str(tmp_path / "subs"),
            "--out",
            str(tmp_path / "out"),
            "--jobs",
            "2",
            "--timeout",
            "30",
            "--memory",
            "512",
            "--no-sandbox",
            "--export",
            "lesson-csv",
        ]
    )
    assert code == 130 and len(seen) == 1
    options = seen[0]
    assert isinstance(options, GradeOptions)
    assert options.submissions == tmp_path / "subs" and options.out == tmp_path / "out"
    assert (options.jobs, options.timeout, options.sandbox) == (2, 30, False)
    assert options.limits.memory == 512 << 20 and options.exports == ("lesson-csv",)


def test_the_command_line_asks_for_the_sandbox_unless_told_otherwise(tmp_path, monkeypatch):
    seen = _captured(monkeypatch)
    (tmp_path / "subs").mkdir()
    assert cli.main(["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "out")]) == 130
    assert seen[0].sandbox is None and seen[0].exports == () and seen[0].roster is None


def test_a_missing_folder_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        batch.grade(GradeOptions(tmp_path / "nowhere", tmp_path / "out", sandbox=False))


def test_an_unknown_export_is_refused_before_any_kernel_starts(tmp_path):
    (tmp_path / "in").mkdir()
    with pytest.raises(batch.ExportError, match="unknown target"):
        batch.grade(GradeOptions(tmp_path / "in", tmp_path / "out", sandbox=False, exports=("moodle-xyz",)))


def test_an_export_that_needs_a_roster_says_so(tmp_path):
    (tmp_path / "in").mkdir()
    with pytest.raises(batch.ExportError, match="needs --roster"):
        batch.grade(GradeOptions(tmp_path / "in", tmp_path / "out", sandbox=False, exports=("canvas",)))
