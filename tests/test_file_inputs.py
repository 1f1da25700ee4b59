"""Every file-taking command resolves exactly the file it names, refuses special files in one line,
never reads without bound, and checks what it will write before the expensive work starts."""
from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path

import pytest

from tooldesign import cli as tooldesign_cli
from tooldesign.codemode import cli as codemode_cli
from tooldesign.input_files import InputFileError, check_writable, check_writable_folder, read_input
from workbook import NOTEBOOKS_DIR, cli
from workbook.release import ReleaseError, read_notebook, resolve

REAL = "02_coldchain_data"
STRAYS = [
    "02_coldchain_data_old.ipynb",
    "02_coldchain_data-Copy1.ipynb",
    "02_coldchain_data (1).ipynb",
    "02_coldchain_data copy.ipynb",
    "02_coldchain_data_v2.ipynb",
    "02_a_first_try.ipynb",
    "02.ipynb",
]
HANG = 60  # seconds; only a command that waits on a fifo takes this long


def _notebook_text() -> str:
    return (NOTEBOOKS_DIR / f"{REAL}.ipynb").read_text(encoding="utf-8")


# ---------- exactly the file it names ----------

@pytest.mark.parametrize("stray", STRAYS)
def test_a_number_names_the_lesson_file_not_a_stray_beside_it(tmp_path, stray):
    (tmp_path / f"{REAL}.ipynb").write_text(_notebook_text(), encoding="utf-8")
    (tmp_path / stray).write_text(_notebook_text(), encoding="utf-8")
    assert resolve("02", tmp_path) == tmp_path / f"{REAL}.ipynb"
    assert resolve(REAL, tmp_path) == tmp_path / f"{REAL}.ipynb"


def test_all_strays_at_once_change_nothing(tmp_path):
    for name in [*STRAYS, f"{REAL}.ipynb"]:
        (tmp_path / name).write_text(_notebook_text(), encoding="utf-8")
    assert resolve("02", tmp_path) == tmp_path / f"{REAL}.ipynb"


@pytest.mark.parametrize("stray", STRAYS)
def test_with_the_lesson_file_gone_a_stray_is_named_not_checked(tmp_path, stray):
    (tmp_path / stray).write_text(_notebook_text(), encoding="utf-8")
    with pytest.raises(ReleaseError) as refused:
        resolve("02", tmp_path)
    assert f"{REAL}.ipynb does not exist" in str(refused.value)
    assert stray in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("stray", STRAYS[:5])
def test_a_stray_named_by_its_path_checks_as_its_lesson(tmp_path, stray):
    path = tmp_path / stray
    assert cli._lesson_of(path, str(path)) == REAL


def test_zero_checks_is_a_failure_not_a_pass(tmp_path, monkeypatch, capsys):
    import workbook.exercises

    path = tmp_path / f"{REAL}.ipynb"
    path.write_text(_notebook_text(), encoding="utf-8")
    monkeypatch.setattr(workbook.exercises, "exercises_for", lambda lesson: [])
    code = cli.main(["check", str(path)])
    err = capsys.readouterr().err
    assert code != 0
    assert "no exercises to check" in err and len(err.strip().splitlines()) == 1
    assert "0 of 0" not in capsys.readouterr().out


# ---------- what a notebook file may hold ----------

def test_a_notebook_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / f"{REAL}.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + _notebook_text().encode("utf-8"))
    assert read_notebook(path).cells


def test_a_bom_and_windows_line_ends_are_read_too(tmp_path):
    path = tmp_path / f"{REAL}.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + _notebook_text().replace("\n", "\r\n").encode("utf-8"))
    assert read_notebook(path).cells


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],  # cut short by a full disk
    lambda text: text.replace('"cells"', '"cells" "', 1),
    lambda text: text + "\x00garbage",
])
def test_damaged_json_never_advises_throwing_the_work_away(tmp_path, damage):
    path = tmp_path / f"{REAL}.ipynb"
    path.write_text(damage(_notebook_text()), encoding="utf-8")
    with pytest.raises(ReleaseError) as refused:
        read_notebook(path)
    message = str(refused.value)
    assert "keep a copy" in message and "\n" not in message
    assert "your answers" in message and message.index("keep a copy") < message.index("git checkout")


# ---------- special files, in one line and without waiting ----------

def _specials(tmp_path: Path) -> dict[str, Path]:
    found = {"folder": tmp_path / "a folder.ipynb", "device": Path("/dev/zero")}
    found["folder"].mkdir()
    if hasattr(os, "mkfifo"):
        found["fifo"] = tmp_path / "pipe.ipynb"
        os.mkfifo(found["fifo"])
    if hasattr(socket, "AF_UNIX"):
        found["socket"] = tmp_path / "sock.ipynb"
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(found["socket"]))
    return {kind: path for kind, path in found.items() if path.exists()}


def _finishes(body):
    """Run ``body`` in a thread; a command that waits on a fifo would never come back."""
    out: dict = {}

    def run():
        try:
            out["value"] = body()
        except BaseException as error:  # noqa: BLE001 - whatever it raised is the verdict
            out["error"] = error

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(HANG)
    assert not worker.is_alive(), "the command waited on a special file"
    return out


KINDS = ["folder", "device", "fifo", "socket"]


@pytest.mark.parametrize("kind", KINDS)
def test_read_input_refuses_a_special_file_in_one_line(tmp_path, kind):
    specials = _specials(tmp_path)
    if kind not in specials:
        pytest.skip(f"this system cannot make a {kind}")
    out = _finishes(lambda: read_input(specials[kind], what="a notebook"))
    assert isinstance(out.get("error"), InputFileError)
    assert "\n" not in str(out["error"])


@pytest.mark.parametrize("kind", KINDS)
def test_read_notebook_refuses_a_special_file(tmp_path, kind):
    specials = _specials(tmp_path)
    if kind not in specials:
        pytest.skip(f"this system cannot make a {kind}")
    out = _finishes(lambda: read_notebook(specials[kind]))
    assert isinstance(out.get("error"), ReleaseError), out


@pytest.mark.parametrize("kind", KINDS)
def test_codemode_run_refuses_a_special_file(tmp_path, kind, capsys):
    specials = _specials(tmp_path)
    if kind not in specials:
        pytest.skip(f"this system cannot make a {kind}")
    out = _finishes(lambda: codemode_cli.main(["run", str(specials[kind])]))
    assert out.get("value") == 2, out
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "error:" in err


@pytest.mark.parametrize("kind", ["fifo", "device", "socket"])
def test_workbook_check_and_author_refuse_a_special_file(tmp_path, kind, capsys):
    specials = _specials(tmp_path)
    if kind not in specials:
        pytest.skip(f"this system cannot make a {kind}")
    out = _finishes(lambda: cli.main(["check", str(specials[kind])]))
    assert out.get("value") == 2, out
    out = _finishes(lambda: cli.main(["author", str(specials[kind]), str(tmp_path / "new.ipynb")]))
    assert out.get("value") == 2, out
    err = capsys.readouterr().err
    assert all(line.startswith("error:") for line in err.strip().splitlines())


@pytest.mark.parametrize("kind", KINDS)
def test_a_record_that_is_a_special_file_is_refused(tmp_path, kind):
    from tooldesign.selection.record import RecordError, load_record

    specials = _specials(tmp_path)
    if kind not in specials:
        pytest.skip(f"this system cannot make a {kind}")
    out = _finishes(lambda: load_record(specials[kind]))
    assert isinstance(out.get("error"), RecordError), out


def test_reading_stops_at_the_limit(tmp_path):
    big = tmp_path / "big.js"
    big.write_bytes(b"x" * 5000)
    with pytest.raises(InputFileError, match="more than"):
        read_input(big, what="a program", limit=4096)
    assert read_input(big, what="a program", limit=5000) == b"x" * 5000


def test_a_program_too_big_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    program = tmp_path / "huge.js"
    program.write_bytes(b"// " + b"x" * 2_000_000)
    assert codemode_cli.main(["run", str(program)]) == 2
    assert "more than" in capsys.readouterr().err


def test_a_program_with_a_byte_order_mark_runs(tmp_path, capsys):
    pytest.importorskip("py_mini_racer", reason="needs mini-racer")
    program = tmp_path / "bom.js"
    program.write_bytes(b"\xef\xbb\xbfconsole.log('ran')\n")
    assert codemode_cli.main(["run", str(program)]) == 0
    assert capsys.readouterr().out == "| ran\n"  # the program's line, marked as its own


# ---------- checked writable before the work ----------

def _unwritable(tmp_path: Path) -> dict[str, Path]:
    a_file = tmp_path / "a file"
    a_file.write_text("x")
    found = {
        "parent is a file": a_file / "record.json",
        "a folder": tmp_path,
        "a device": Path("/dev/null"),
        "a folder that cannot be made": Path("/proc/no such folder/record.json"),
    }
    if os.geteuid() != 0 and hasattr(os, "chmod"):  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        found["a read-only folder"] = locked / "record.json"
    return found


@pytest.mark.parametrize("case", ["parent is a file", "a folder", "a device", "a folder that cannot be made"])
def test_check_writable_refuses_in_one_line(tmp_path, case):
    with pytest.raises(InputFileError) as refused:
        check_writable(_unwritable(tmp_path)[case], what="the record")
    assert "\n" not in str(refused.value)


def test_check_writable_accepts_a_new_file_and_a_folder_to_be_made(tmp_path):
    check_writable(tmp_path / "record.json")
    check_writable(tmp_path / "runs" / "deeper" / "record.json")
    check_writable_folder(tmp_path / "grading-out")
    assert list(tmp_path.iterdir()) == []  # the test leaves nothing behind


@pytest.mark.parametrize("case", ["parent is a file", "a folder", "a device", "a folder that cannot be made"])
def test_select_record_fails_before_any_model_call(tmp_path, case, monkeypatch, capsys):
    import tooldesign.selection.models as models

    calls = []
    monkeypatch.setattr(models, "model_picker", lambda *a, **k: calls.append(a) or pytest.fail("model called"))
    target = _unwritable(tmp_path)[case]
    code = tooldesign_cli.main(["select", "--model", "some-model", "--record", str(target)])
    assert code == 2 and calls == []
    assert capsys.readouterr().err.startswith("error:")


@pytest.mark.parametrize("out", ["/proc/no such folder/grading-out", "/dev/null"])
def test_grade_and_handout_check_their_out_folder_first(tmp_path, out, monkeypatch, capsys):
    import workbook.grade

    monkeypatch.setattr(workbook.grade, "grade", lambda *a, **k: pytest.fail("graded"))
    (tmp_path / "subs").mkdir()
    assert cli.main(["grade", str(tmp_path / "subs"), "--out", out, "--no-sandbox"]) == 2
    assert cli.main(["handout", out]) == 2  # handout's own check, before it builds anything
    assert "error:" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_grade_refuses_special_submissions_and_hidden_checks(tmp_path, kind, monkeypatch):
    import workbook.grade

    specials = _specials(tmp_path)
    if kind not in specials:
        pytest.skip(f"this system cannot make a {kind}")
    monkeypatch.setattr(workbook.grade, "grade", lambda *a, **k: pytest.fail("graded"))
    (tmp_path / "subs").mkdir()
    out = str(tmp_path / "out")
    assert cli.main(["grade", str(specials[kind]), "--out", out, "--no-sandbox"]) == 2
    assert cli.main(["grade", str(tmp_path / "subs"), "--out", out, "--hidden-checks", str(specials[kind]),
                     "--no-sandbox"]) == 2

