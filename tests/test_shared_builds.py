"""Work the suite and the grader share instead of repeating: one student edition per process, notes read once.

Both caches must give way the moment what they hold could be stale: a changed file, a changed course.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tooldesign.data import notes as notes_data
from tooldesign.injection import results
from workbook.grade import sandbox


@pytest.fixture
def fake_builds(monkeypatch):
    """handout.build replaced by a quick one that writes a tiny edition and counts its calls."""
    import workbook.handout

    calls: list[Path] = []

    def build(folder: Path, notebooks: bool = True, self_checks: bool = True):
        (folder / "src" / "workbook").mkdir(parents=True)
        (folder / "src" / "workbook" / "__init__.py").write_text("# edition\n")
        calls.append(folder)

    monkeypatch.setattr(workbook.handout, "build", build)
    monkeypatch.setattr(sandbox, "_editions", {})
    return calls


def test_the_edition_is_built_once_per_process(fake_builds):
    first = sandbox.student_edition()
    assert sandbox.student_edition() == first and len(fake_builds) == 1


@pytest.mark.parametrize("damage", ["changed", "added", "removed"])
def test_an_edition_that_changed_since_it_was_built_is_built_again(fake_builds, damage):
    first = sandbox.student_edition()
    target = first / "src" / "workbook" / "__init__.py"
    if damage == "changed":
        target.write_text("answers = 42\n")  # what unsandboxed learner code could do
    elif damage == "added":
        (first / "src" / "workbook" / "sitecustomize.py").write_text("import os\n")
    else:
        target.unlink()
    again = sandbox.student_edition()
    assert again != first and len(fake_builds) == 2
    assert (again / "src" / "workbook" / "__init__.py").read_text() == "# edition\n"


def test_an_edition_is_built_again_when_the_course_changed(fake_builds, monkeypatch):
    import workbook.handout

    states = iter(["course as it was", "course edited"])
    monkeypatch.setattr(workbook.handout, "source_state", lambda: next(states))
    assert sandbox.student_edition() != sandbox.student_edition() and len(fake_builds) == 2


def test_an_edition_removed_from_disk_is_built_again(fake_builds):
    shutil.rmtree(sandbox.student_edition())
    assert sandbox.student_edition().is_dir() and len(fake_builds) == 2


@pytest.fixture
def notes_copy(tmp_path, monkeypatch):
    folder = tmp_path / "notes"
    shutil.copytree(notes_data.FOLDER, folder)  # the file and the manifest that vouches for it
    monkeypatch.setattr(notes_data, "FOLDER", folder)
    monkeypatch.setattr(notes_data.order_notes, "__defaults__", (folder,))
    return folder / notes_data.FILE_NAME


@pytest.fixture
def reads(monkeypatch):
    counted: list[int] = []
    real = notes_data.order_notes
    monkeypatch.setattr(notes_data, "order_notes", lambda *a, **k: counted.append(1) or real(*a, **k))
    return counted


def test_the_notes_are_read_once_while_the_file_stays_the_same(notes_copy, reads):
    first = results.load_notes()
    assert results.load_notes() == first and results.load_notes() == first
    assert len(reads) == 1


def test_a_file_touched_since_is_read_again(notes_copy, reads):
    first = results.load_notes()
    state = notes_copy.stat()
    os.utime(notes_copy, ns=(state.st_atime_ns, state.st_mtime_ns + 1_000_000))
    assert results.load_notes() == first and len(reads) == 2


def test_a_damaged_notes_file_is_refused_after_it_was_read(notes_copy):
    results.load_notes()
    text = notes_copy.read_text(encoding="utf-8")
    notes_copy.write_text(text.replace("a", "b", 1), encoding="utf-8")
    with pytest.raises(Exception, match="(?i)damaged|changed|rebuild|make data"):
        results.load_notes()


def test_the_known_calls_are_replayed_once_per_state_of_the_sources(monkeypatch):
    """The replay of the package's uses of graded functions, the costly part of a build, runs once."""
    import workbook.handout as handout

    replays: list[int] = []
    monkeypatch.setattr(handout, "_KNOWN", {})
    monkeypatch.setattr(handout, "_known_calls", lambda targets: replays.append(1) or {"t": {"k": [1]}})
    states = iter(["one", "one", "two"])
    monkeypatch.setattr(handout, "source_state", lambda: next(states))
    first = handout._known_calls_once({"t": ("ex", None)})
    first["t"]["k"].append(2)  # a build that changes its copy changes nobody else's
    assert handout._known_calls_once({"t": ("ex", None)}) == {"t": {"k": [1]}} and len(replays) == 1
    handout._known_calls_once({"t": ("ex", None)})  # a source changed: replayed
    assert len(replays) == 2
