"""Writing a folder or a file the learner keeps: nothing half written after a signal or a crash, one run
at a time, and a lock left by a killed run taken over.

The signal tests never guess how long a step takes: the command runs in a child process whose build
step is replaced by one that writes a marker file and then waits; the test waits for the marker, sends
the signal, and only then looks. A second run is kept waiting the same way (a child that holds the
lock until the test closes its standard input).
"""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tooldesign.atomic import (BUSY, Busy, FolderRefused, Stopped, lock_file, stop_on_signals, write_atomic,
                               write_folder, write_lock)
from workbook import cli

ROOT = Path(__file__).resolve().parents[1]
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")

# The child: `workbook handout OUT`, whose first build step writes MARKER and then waits (or fails).
PAUSED_HANDOUT = """
# A test worker's child can inherit SIGINT blocked or ignored; Ctrl+C in a terminal finds it neither.
import signal
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
signal.signal(signal.SIGINT, signal.default_int_handler)
import sys, time
from pathlib import Path
import workbook.handout as handout
marker, out, how = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
real = handout._write_setup
def paused(folder):
    real(folder)
    marker.write_text(str(folder))
    if how == "crash":
        raise RuntimeError("a crash half way")
    time.sleep(600)
handout._write_setup = paused
from workbook.cli import main
sys.exit(main(["handout", out]))
"""

HOLDER = """
import sys
from pathlib import Path
from tooldesign.atomic import write_lock
with write_lock(Path(sys.argv[1]), "a test's holder"):
    print("held", flush=True)
    sys.stdin.read()
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def _wait_for(path: Path, process: subprocess.Popen, limit: float = 300) -> None:
    """Until ``path`` exists; a child that ended first fails the test with what it said."""
    deadline = time.monotonic() + limit
    while not path.exists():
        if process.poll() is not None:
            raise AssertionError(f"the child ended first: {process.communicate()}")
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError("the child never reached its marker")
        time.sleep(0.05)


def _paused_handout(tmp_path: Path, out: Path, how: str = "wait") -> tuple[subprocess.Popen, Path]:
    marker = tmp_path / "marker"
    child = subprocess.Popen([sys.executable, "-c", PAUSED_HANDOUT, str(marker), str(out), how], cwd=ROOT,
                             env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(marker, child)
    return child, marker


def _left_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "marker")


class Holder:
    """A child process that holds the write lock of ``place`` until :meth:`release`."""

    def __init__(self, place: Path) -> None:
        self.child = subprocess.Popen([sys.executable, "-c", HOLDER, str(place)], cwd=ROOT, env=_env(),
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.child.stdout.readline().strip() == "held"

    def release(self) -> None:
        self.child.stdin.close()
        assert self.child.wait(timeout=60) == 0


# ---------- workbook handout: signals and a crash leave nothing behind ----------

@POSIX
@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
@pytest.mark.parametrize("empty_folder_first", [False, True], ids=["new folder", "empty folder"])
def test_a_stopped_handout_leaves_nothing_behind(tmp_path, signum, status, empty_folder_first):
    out = tmp_path / "edition"
    if empty_folder_first:
        out.mkdir()
    child, marker = _paused_handout(tmp_path, out)
    assert Path(marker.read_text()).is_dir()  # the build really is under way, in its hidden folder
    child.send_signal(signum)
    _, err = child.communicate(timeout=120)
    assert child.returncode == status, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert _left_in(tmp_path) == (["edition"] if empty_folder_first else [])
    if empty_folder_first:
        assert list(out.iterdir()) == []


@POSIX
def test_a_crash_half_way_leaves_nothing_behind(tmp_path):
    out = tmp_path / "edition"
    child, _ = _paused_handout(tmp_path, out, how="crash")
    _, err = child.communicate(timeout=120)
    assert child.returncode == 1 and "a crash half way" in err and err.count("\n") == 1
    assert _left_in(tmp_path) == []


@POSIX
def test_a_second_handout_into_the_same_folder_is_refused_in_one_line(tmp_path):
    out = tmp_path / "edition"
    child, _ = _paused_handout(tmp_path, out)
    try:
        done = subprocess.run([sys.executable, "-m", "workbook", "handout", str(out)], cwd=ROOT, env=_env(),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == BUSY and done.stderr.count("\n") == 1, done.stderr
        assert f"(process {child.pid}," in done.stderr and "`workbook handout`" in done.stderr
        assert "wait until it ends" in done.stderr and "OSError" not in done.stderr
    finally:
        child.send_signal(signal.SIGTERM)
        child.communicate(timeout=120)
    assert _left_in(tmp_path) == []


# ---------- the mechanism itself ----------

def test_write_folder_renames_into_place_and_leaves_no_lock(tmp_path):
    with write_folder(tmp_path / "out", command="test", what="a test folder") as where:
        assert where.name.startswith(".out.partial-") and where.parent == tmp_path
        (where / "a.txt").write_text("a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert (tmp_path / "out" / "a.txt").read_text() == "a"


def test_an_empty_folder_is_filled_in_place_and_emptied_on_failure(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(RuntimeError):
        with write_folder(out, command="test", what="a test folder") as where:
            assert where == out.resolve()
            (where / "half").mkdir()
            (where / "half" / "b.txt").write_text("b")
            raise RuntimeError("stop")
    assert list(out.iterdir()) == []
    with write_folder(out, command="test", what="a test folder") as where:
        (where / "c.txt").write_text("c")
    assert [p.name for p in out.iterdir()] == ["c.txt"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), Stopped(signal.SIGTERM), OSError(28, "No space left")],
                         ids=["Ctrl+C", "SIGTERM", "disk full"])
def test_write_folder_removes_its_hidden_build_whatever_stops_it(tmp_path, stop):
    with pytest.raises(type(stop)):
        with write_folder(tmp_path / "out", command="test", what="a test folder") as where:
            (where / "x").write_text("x")
            raise stop
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("make, says", [
    (lambda p: p.write_text("mine"), "is a file; give a new, empty folder"),
    (lambda p: (p.mkdir(), (p / "keep.txt").write_text("mine")), "is not empty"),
    (lambda p: (p.mkdir(), (p / ".hidden").write_text("mine")), "is not empty"),
])
def test_write_folder_refuses_what_it_would_overwrite(tmp_path, make, says):
    out = tmp_path / "out"
    make(out)
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    with pytest.raises(FolderRefused, match=says):
        with write_folder(out, command="test", what="a test folder"):
            raise AssertionError("never reached")
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_a_lock_left_by_a_killed_run_is_taken_over(tmp_path):
    """A lock file whose process is gone (here: a pid no process has) holds nothing: the next run goes on."""
    out = tmp_path / "out"
    lock = lock_file(out)
    lock.write_text(json.dumps({"pid": 2 ** 22 + 12345, "command": "workbook handout", "since": "09:00:00"}))
    stale_build = tmp_path / ".out.partial-abc123"
    stale_build.mkdir()
    (stale_build / "half.txt").write_text("left by a killed run")
    with write_folder(out, command="test", what="a test folder") as where:
        (where / "new.txt").write_text("new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # the stale lock and build are gone


def test_a_lock_held_by_a_live_process_refuses_with_its_name_and_pid(tmp_path):
    place = tmp_path / "folder"
    place.mkdir()
    holder = Holder(place)
    try:
        with pytest.raises(Busy) as error:
            with write_lock(place, "me"):
                raise AssertionError("never reached")
        message = str(error.value)
        assert f"`a test's holder` (process {holder.child.pid}, since " in message and str(place) in message
        assert error.value.status == BUSY and "\n" not in message
    finally:
        holder.release()
    with write_lock(place, "me") as lock:  # released: free again
        assert json.loads(lock.read_text())["pid"] == os.getpid()
    assert list(place.iterdir()) == []


def test_the_lock_of_a_folder_is_inside_it_and_of_a_new_place_beside_it(tmp_path):
    (tmp_path / "d").mkdir()
    assert lock_file(tmp_path / "d") == tmp_path / "d" / ".writing.lock"
    assert lock_file(tmp_path / "new") == tmp_path / ".new.writing.lock"
    assert lock_file(tmp_path / "f.ipynb") == tmp_path / ".f.ipynb.writing.lock"


@POSIX
def test_only_the_first_signal_interrupts_and_handlers_are_restored(tmp_path):
    before = signal.getsignal(signal.SIGTERM)
    cleaned = []
    with pytest.raises(Stopped) as error:
        with stop_on_signals():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)  # the signal arrives at once; the sleep is never waited out
            finally:
                os.kill(os.getpid(), signal.SIGTERM)  # a second one during the cleanup is let pass
                cleaned.append(True)
    assert cleaned == [True] and error.value.status == 143 and error.value.name == "SIGTERM"
    assert signal.getsignal(signal.SIGTERM) == before


def test_write_atomic_never_overwrites_when_told_and_leaves_no_partial(tmp_path):
    target = tmp_path / "record.json"
    write_atomic(target, "first", overwrite=False)
    with pytest.raises(FileExistsError):
        write_atomic(target, "second", overwrite=False)
    assert target.read_text() == "first" and sorted(p.name for p in tmp_path.iterdir()) == ["record.json"]
    write_atomic(target, "third")
    assert target.read_text() == "third"


def test_write_atomic_removes_its_partial_when_a_signal_stops_it(tmp_path, monkeypatch):
    import tooldesign.atomic as atomic

    def stopped(*args):
        raise Stopped(signal.SIGTERM)
    monkeypatch.setattr(atomic.os, "replace", stopped)
    with pytest.raises(Stopped):
        write_atomic(tmp_path / "a.txt", "text")
    assert list(tmp_path.iterdir()) == []


def test_a_record_name_taken_meanwhile_is_skipped_not_overwritten(tmp_path, monkeypatch):
    """Two runs at the same second: the second looked before the first wrote, and still keeps both."""
    from tooldesign import record

    rec = record.Record(record.FORMAT, "openai", "m", "2026-12-05T10:00:00+00:00", 0, 1, (), (), (), 0)
    first = record.write(rec, tmp_path)
    monkeypatch.setattr(Path, "exists", lambda self: False)  # as if the look came before the first write
    second = record.write(rec, tmp_path)
    monkeypatch.undo()
    assert first != second and second.name.endswith("-2.json")
    assert json.loads(first.read_text())["model"] == json.loads(second.read_text())["model"] == "m"


# ---------- every command that writes the learner's files takes the lock ----------

@pytest.mark.parametrize("command, place", [
    (["release"], "notebooks"),
    (["execute", "NOTEBOOK"], "notebook"),
    (["author", "SCRIPT", "NOTEBOOK"], "notebook"),
    (["new-lesson", "99", "caching_results"], "solutions"),
])
def test_workbook_commands_refuse_while_another_run_writes_the_same_place(tmp_path, monkeypatch, capsys,
                                                                          command, place):
    notebooks, solutions = tmp_path / "notebooks", tmp_path / "solutions"
    notebooks.mkdir()
    solutions.mkdir()
    notebook, script = tmp_path / "02_coldchain_data.ipynb", tmp_path / "lesson.py"
    notebook.write_text((ROOT / "solutions" / "02_coldchain_data.ipynb").read_text())
    script.write_text("# %%\nprint(1)\n")
    monkeypatch.setattr(cli, "NOTEBOOKS_DIR", notebooks)
    monkeypatch.setattr(cli, "SOLUTIONS_DIR", solutions)
    argv = [{"NOTEBOOK": str(notebook), "SCRIPT": str(script)}.get(a, a) for a in command]
    if command[0] == "author":
        argv.append("--force")
    held = {"notebooks": notebooks, "notebook": notebook, "solutions": solutions}[place]
    before = notebook.read_bytes()
    holder = Holder(held)
    try:
        assert cli.main(argv) == BUSY
    finally:
        holder.release()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "`a test's holder`" in err and "is writing" in err
    assert notebook.read_bytes() == before


def test_tooldesign_data_refuses_while_another_build_runs(tmp_path, monkeypatch, capsys):
    import tooldesign
    from tooldesign.cli import main

    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setattr(tooldesign, "DATA_DIR", data)
    holder = Holder(data)
    try:
        assert main(["data"]) == BUSY
    finally:
        holder.release()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is writing" in err and str(data) in err
    assert list(data.iterdir()) == []


# ---------- the other writing commands, stopped while a file is half written ----------

# The child: a command of the course whose atomic write pauses after the partial file is written,
# before it is renamed into place; the marker says the partial exists.
PAUSED_WRITE = """
# A test worker's child can inherit SIGINT blocked or ignored; Ctrl+C in a terminal finds it neither.
import signal
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
signal.signal(signal.SIGINT, signal.default_int_handler)
import os, sys, time
from pathlib import Path
import tooldesign.atomic as atomic
marker = Path(sys.argv[1])
real = atomic.os.replace
def paused(partial, target):
    marker.write_text(str(partial))
    time.sleep(600)
atomic.os.replace = paused
import workbook.execute as execute
execute.run_notebook = lambda notebook, *args, **kwargs: notebook
entry, argv = sys.argv[2], sys.argv[3:]
if entry == "tooldesign":
    from tooldesign.cli import main
else:
    from workbook.cli import main
sys.exit(main(argv))
"""


@pytest.fixture(scope="module")
def course_copy_for_signals(tmp_path_factory):
    from course_copy import make_copy
    course = make_copy(tmp_path_factory.mktemp("course"))
    (course / "lesson.py").write_text("# %%\nprint(1)\n")
    return course


@POSIX
@pytest.mark.parametrize("argv", [
    ["tooldesign", "data"],
    ["workbook", "release", "02", "--force"],
    ["workbook", "execute", "02"],
    ["workbook", "author", "lesson.py", "mine.ipynb"],
], ids=lambda argv: " ".join(argv[:2]))
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_command_stopped_mid_write_leaves_no_partial_file_and_no_lock(course_copy_for_signals, tmp_path, argv,
                                                                       signum):
    course = course_copy_for_signals
    if argv[1] == "release":  # a learner's changed copy: release --force must keep it, even when stopped
        mine = course / "notebooks" / "02_coldchain_data.ipynb"
        mine.write_text(mine.read_text().replace("Exercise", "Exercise (mine)", 1))
    before = {p: p.read_bytes() for p in course.rglob("*.ipynb")}
    marker = tmp_path / "marker"
    env = {**_env(), "PYTHONPATH": str(course / "src")}
    child = subprocess.Popen([sys.executable, "-c", PAUSED_WRITE, str(marker), *argv], cwd=course, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(marker, child)
    assert Path(course, marker.read_text()).exists()  # the half-written file is there now
    child.send_signal(signum)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 128 + signum, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert [p for p in course.rglob("*") if p.name.endswith(".partial") or p.name.endswith(".writing.lock")] == []
    assert {p: p.read_bytes() for p in course.rglob("*.ipynb") if ".bak-" not in p.name} == before


@pytest.mark.skipif(sys.platform == "win32", reason="the fallback is for POSIX file systems without flock")
@pytest.mark.parametrize("holder_pid, busy", [(None, False), ("self", False), ("dead", False), ("parent", True)])
def test_without_system_locks_the_holders_pid_decides(tmp_path, monkeypatch, holder_pid, busy):
    """On a share where flock fails, a lock file naming a live process refuses, a dead one is taken over."""
    import fcntl

    def no_locks(*args):
        raise OSError(errno.ENOLCK, "No locks available")
    monkeypatch.setattr(fcntl, "flock", no_locks)
    place = tmp_path / "out"
    pid = {None: None, "self": os.getpid(), "dead": 2 ** 22 + 12345, "parent": os.getppid()}[holder_pid]
    if pid is not None:
        lock_file(place).write_text(json.dumps({"pid": pid, "command": "other", "since": "09:00:00"}))
    if busy:
        with pytest.raises(Busy, match=f"process {pid}"):
            with write_lock(place, "me"):
                pass
    else:
        with write_lock(place, "me") as lock:
            assert json.loads(lock.read_text())["pid"] == os.getpid()
        assert not lock_file(place).exists()
