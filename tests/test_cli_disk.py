"""A full disk, a used-up quota, a read-only file system and a refused permission each get their own advice.

The errors are raised by monkeypatched os calls at different points of a write (creating the folder,
writing the bytes, renaming the finished file, flushing to disk, asking for the free space), since a
real full or read-only disk needs a mount, which needs root. A real read-only folder (chmod) is
tried too where the tests do not run as root (root writes anywhere).
"""
from __future__ import annotations

import errno
import os
import shutil
from collections import namedtuple
from pathlib import Path

import pytest

import tooldesign.atomic as atomic
import tooldesign.disk as disk
from course_copy import make_copy, run_in
from tooldesign.command_line import run
from tooldesign.data import DataDirError, build_all
from tooldesign.data import files
from workbook import doctor

Usage = namedtuple("Usage", "total used free")
NOT_ROOT = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anywhere")

# errno -> (what the one line must say, what it must not)
KINDS = {
    errno.ENOSPC: ("is full", "chmod"),
    errno.EDQUOT: ("quota", "chmod"),
    errno.EROFS: ("read-only file system, where chmod cannot help", "chmod -R"),
    errno.EACCES: ("chmod -R u+w", "full"),
    errno.EPERM: ("chmod -R u+w", "full"),
}
IDS = {errno.ENOSPC: "ENOSPC", errno.EDQUOT: "EDQUOT", errno.EROFS: "EROFS", errno.EACCES: "EACCES",
       errno.EPERM: "EPERM"}


def failing(number: int, filename: str | None = None):
    def fail(*args, **kwargs):
        raise OSError(number, os.strerror(number), filename)
    return fail


def test_every_write_problem_has_its_own_advice(tmp_path):
    texts = {problem: disk.write_advice(problem, tmp_path, "data/", 90 * 1024)
             for problem in disk.WriteProblem if problem is not disk.WriteProblem.OTHER}
    assert len(set(texts.values())) == len(texts)
    assert "needs about 90 KB" in texts[disk.WriteProblem.FULL] and "free" in texts[disk.WriteProblem.FULL]
    assert "quota" in texts[disk.WriteProblem.QUOTA]
    assert "chmod" not in texts[disk.WriteProblem.FULL] + texts[disk.WriteProblem.QUOTA]


@pytest.mark.parametrize("count, shown", [(0, "0 bytes"), (900, "900 bytes"), (12 * 1024, "12 KB"),
                                          (int(3.4 * 1024 ** 2), "3.4 MB"), (250 * 1024 ** 3, "250 GB"), (None, "an unknown amount")])
def test_sizes_read_as_a_person_reads_them(count, shown):
    assert disk.size(count) == shown


# ---------- tooldesign data: the builder's writes ----------

@pytest.mark.parametrize("number", list(KINDS), ids=[IDS[n] for n in KINDS])
@pytest.mark.parametrize("point", ["rename", "write", "mkdir"])
def test_the_data_builder_names_the_problem_at_each_point(tmp_path, monkeypatch, number, point):
    says, never = KINDS[number]
    if point == "rename":
        monkeypatch.setattr(atomic.os, "replace", failing(number))
    elif point == "write":
        real_open = open

        def opening(path, *args, **kwargs):
            if ".partial" in str(path):
                raise OSError(number, os.strerror(number), str(path))
            return real_open(path, *args, **kwargs)
        monkeypatch.setattr("builtins.open", opening)
    else:
        real_mkdir = Path.mkdir

        def making(self, *args, **kwargs):
            if self.name == "sap":
                raise OSError(number, os.strerror(number), str(self))
            return real_mkdir(self, *args, **kwargs)
        monkeypatch.setattr(Path, "mkdir", making)
    with pytest.raises(DataDirError) as error:
        build_all(tmp_path / "data")
    message = str(error.value)
    assert says in message and never not in message and "\n" not in message, message
    if number in (errno.ENOSPC, errno.EDQUOT):
        assert "needs about 256 KB" in message and "make data" in message
    leftovers = [p for p in tmp_path.rglob("*") if ".partial" in p.name]
    assert leftovers == []


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return make_copy(tmp_path_factory.mktemp("course"))


# The command as a learner runs it, in a copy of the course, with one os call made to fail.
DATA_WITH = """
import errno, os, sys
import tooldesign.atomic as atomic
number = getattr(errno, sys.argv[1])
def fail(*args, **kwargs):
    raise OSError(number, os.strerror(number), args[1] if len(args) > 1 else None)
atomic.os.replace = fail
from tooldesign.cli import main
sys.exit(main(["data"]))
"""


@pytest.mark.parametrize("name", ["ENOSPC", "EDQUOT", "EROFS", "EACCES"])
def test_tooldesign_data_on_a_full_or_read_only_disk_is_one_line(course, name):
    done = run_in(course, "-c", DATA_WITH, name, timeout=120)
    says, never = KINDS[getattr(errno, name)]
    assert done.returncode != 0 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert says in done.stderr and never not in done.stderr, done.stderr
    assert not list((course / "data").rglob("*.partial")) and not list((course / "data").rglob(".writing.lock"))


@NOT_ROOT
def test_a_really_read_only_data_folder_gets_the_permission_advice(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(DataDirError, match="chmod -R u\\+w"):
            build_all(folder)
        finding = doctor.check_data_writable(folder)
        assert not finding.ok and "chmod -R u+w" in finding.fix and "full" not in finding.fix
    finally:
        folder.chmod(0o700)


# ---------- workbook doctor ----------

@pytest.mark.parametrize("number", list(KINDS), ids=[IDS[n] for n in KINDS])
@pytest.mark.parametrize("point", ["create", "fsync"])
def test_doctor_write_test_names_the_problem(tmp_path, monkeypatch, number, point):
    says, never = KINDS[number]
    if point == "create":
        monkeypatch.setattr(doctor.tempfile, "NamedTemporaryFile", failing(number))
    else:
        monkeypatch.setattr(doctor.os, "fsync", failing(number))
    finding = doctor.check_data_writable(tmp_path)
    assert not finding.ok and says in finding.fix and never not in finding.fix, finding.fix
    assert list(tmp_path.iterdir()) == []  # the probe is removed whatever happened


def test_doctor_write_test_really_writes_bytes(tmp_path, monkeypatch):
    """An empty file still fits on a full disk: the test writes and flushes real bytes."""
    seen = []
    real = os.fsync
    monkeypatch.setattr(doctor.os, "fsync", lambda fd: seen.append(os.fstat(fd).st_size) or real(fd))
    assert doctor.check_data_writable(tmp_path).ok
    assert seen == [doctor.WRITE_TEST_BYTES]


@pytest.mark.parametrize("free, ok", [(0, False), (10 * 1024 ** 2, False), (249 * 1024 ** 2, False),
                                      (251 * 1024 ** 2, True), (80 * 1024 ** 3, True)])
def test_doctor_checks_the_free_space_where_data_and_the_venv_live(monkeypatch, free, ok):
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: Usage(10 ** 12, 10 ** 12 - free, free))
    findings = doctor.check_free_space()
    assert all(f.ok == ok for f in findings), [f.line() for f in findings]
    if not ok:
        text = findings[0].line()
        assert f"has {disk.size(free)} free" in text and "the course needs about" in text and "fix:" in text
        assert "chmod" not in text


def test_doctor_names_each_disk_apart_when_data_and_the_venv_are_on_two(tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    frees = {str(a): 1024, str(b): 10 ** 12}
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: Usage(10 ** 13, 0, frees[str(path)]))
    monkeypatch.setattr(disk, "existing_folder", lambda path: Path(path))
    real_stat = Path.stat
    monkeypatch.setattr(Path, "stat", lambda self, **kw: os.stat_result(
        (0, 0, 1 if self == a else 2, 0, 0, 0, 0, 0, 0, 0)) if self in (a, b) else real_stat(self, **kw))
    found = doctor.check_free_space({"data/": (a, 100), ".venv/": (b, 200)})
    assert [f.ok for f in found] == [True, True]
    found = doctor.check_free_space({"data/": (a, 2048), ".venv/": (b, 200)})
    assert [f.ok for f in found] == [False, True] and "data/" in found[0].what and ".venv/" not in found[0].what


def test_doctor_is_not_ready_on_a_full_disk(monkeypatch, capsys):
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: Usage(10 ** 12, 10 ** 12, 4096))
    monkeypatch.setattr(doctor.os, "fsync", failing(errno.ENOSPC))
    monkeypatch.setattr(doctor, "check_data_files", lambda: doctor.DoctorFinding(True, "data"))
    assert doctor.main() == 1
    out = capsys.readouterr().out
    assert "ready for the course" not in out and "is full" in out and "4.0 KB free" in out


# ---------- workbook handout ----------

def test_handout_refuses_a_disk_without_room_before_copying(tmp_path, monkeypatch):
    from workbook.handout import HandoutError, build, edition_bytes

    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: Usage(10 ** 9, 10 ** 9, 1024))
    with pytest.raises(HandoutError) as error:
        build(tmp_path / "edition", notebooks=False)
    message = str(error.value)
    assert "is full (1.0 KB free, and this needs about" in message and disk.size(edition_bytes()) in message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("number", list(KINDS), ids=[IDS[n] for n in KINDS])
def test_handout_names_a_problem_met_half_way(tmp_path, monkeypatch, number):
    import workbook.handout as handout

    monkeypatch.setattr(handout, "_write_setup", failing(number, str(tmp_path / "x")))
    says, never = KINDS[number]
    with pytest.raises(handout.HandoutError) as error:
        handout.build(tmp_path / "edition", notebooks=False)
    assert says in str(error.value) and never not in str(error.value) and "\n" not in str(error.value)
    assert list(tmp_path.iterdir()) == []


# ---------- any other command: the runner's own line ----------

@pytest.mark.parametrize("number, says", [
    (errno.ENOSPC, "(the disk is full); the disk holding"), (errno.EDQUOT, "(the disk quota is used up)"),
    (errno.EROFS, "(the file system is read-only)"), (errno.EACCES, "permission denied for"),
    (errno.EPERM, "permission denied for")], ids=["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM"])
def test_the_runner_turns_a_write_error_into_one_line(tmp_path, capsys, number, says):
    target = str(tmp_path / "solutions" / "02_coldchain_data.ipynb")

    def body() -> int:
        raise OSError(number, os.strerror(number), target)
    assert run(body, debug_variable="X_DEBUG") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "02_coldchain_data.ipynb" in err and "X_DEBUG" not in err


def test_execute_on_a_full_disk_saves_nothing_and_says_so(tmp_path, monkeypatch, capsys):
    import workbook.execute as execute
    from workbook import cli

    notebook = tmp_path / "02_coldchain_data.ipynb"
    shutil.copy(Path(__file__).resolve().parents[1] / "solutions" / "02_coldchain_data.ipynb", notebook)
    before = notebook.read_bytes()
    monkeypatch.setattr(execute, "run_notebook", lambda nb, folder, timeout: nb)
    monkeypatch.setattr(atomic.os, "replace", failing(errno.ENOSPC, str(notebook)))
    assert cli.main(["execute", str(notebook)]) == 2
    err = capsys.readouterr().err
    assert "the disk is full" in err and err.count("\n") == 1
    assert notebook.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [notebook.name]


def test_the_runner_leaves_other_os_errors_to_the_general_line(capsys):
    def body() -> int:
        raise OSError(errno.EIO, "Input/output error", "/x")
    assert run(body, debug_variable="X_DEBUG") == 1
    assert "X_DEBUG=1 shows the traceback" in capsys.readouterr().err


def test_the_room_named_for_the_data_covers_what_the_builder_writes(tmp_path):
    built = build_all(tmp_path / "data")
    assert 2 * disk.tree_bytes(*built, *(tmp_path / "data").rglob("MANIFEST.json")) <= files.DATA_BYTES


def test_the_room_named_for_a_handout_covers_the_edition(student_edition):
    from workbook.handout import edition_bytes
    assert disk.tree_bytes(student_edition.folder) <= edition_bytes()


# ---------- files that cannot be read ----------

def _unreadable(monkeypatch, path: Path) -> None:
    """os.open refuses ``path`` as a file without read permission does (root reads anyway, so no chmod)."""
    import tooldesign.input_files as input_files

    real = input_files.os.open

    def opening(name, *args, **kwargs):
        if Path(name).resolve() == path.resolve():
            raise PermissionError(errno.EACCES, "Permission denied", str(name))
        return real(name, *args, **kwargs)
    monkeypatch.setattr(input_files.os, "open", opening)


@pytest.mark.parametrize("command", [["check"], ["release"], ["execute"]])
def test_an_unreadable_notebook_is_one_line(tmp_path, monkeypatch, capsys, command):
    from workbook import cli

    notebook = tmp_path / "02_coldchain_data.ipynb"
    notebook.write_text((Path(__file__).resolve().parents[1] / "notebooks" / "02_coldchain_data.ipynb").read_text())
    _unreadable(monkeypatch, notebook)
    assert cli.main([*command, str(notebook)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be read (permission denied)" in err and "fix its permissions" in err


def test_an_unreadable_dotenv_is_one_line(tmp_path, monkeypatch, capsys):
    from tooldesign.cli import main

    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TOOLDESIGN_PROVIDER", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("OPENAI_API_KEY=k\n")
    _unreadable(monkeypatch, tmp_path / ".env")
    assert main(["select", "--model", "m"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".env" in err and "permission denied" in err


@NOT_ROOT
def test_a_really_unreadable_notebook_is_one_line(tmp_path, capsys):
    from workbook import cli

    notebook = tmp_path / "02_coldchain_data.ipynb"
    notebook.write_text("{}")
    notebook.chmod(0)
    try:
        assert cli.main(["check", str(notebook)]) == 2
        assert "permission denied" in capsys.readouterr().err
    finally:
        notebook.chmod(0o600)
