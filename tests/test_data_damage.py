"""Damaged or missing data fails loudly with the fix, never as a quiet wrong answer."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from course_copy import make_copy, run_in
from tooldesign import DATA_DIR
from tooldesign.data import DataDamaged, DataError, DataMissing, build_all, check_all, coldchain, files, sap
from tooldesign.tools.mirror import load_sap


@pytest.fixture
def built(tmp_path) -> Path:
    build_all(tmp_path)
    return tmp_path


def test_the_builder_writes_a_manifest_per_folder_and_rebuilds_it_byte_identical(built):
    for folder in ("sap", "coldchain"):
        manifest = built / folder / files.MANIFEST
        assert manifest.read_bytes() == (DATA_DIR / folder / files.MANIFEST).read_bytes()
        listed = json.loads(manifest.read_text())["files"]
        assert sorted(listed) == sorted(p.name for p in (built / folder).iterdir() if p.name != files.MANIFEST)
    assert json.loads((built / "sap" / files.MANIFEST).read_text())["files"]["sales_orders.csv"]["rows"] == 9
    assert check_all(built) == []


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])


def empty_row(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:2] + ["\n"] + lines[2:]))


def one_value_changed(path: Path) -> None:
    path.write_text(path.read_text().replace("1800.00", "1800.01", 1))


def corrupt_json(path: Path) -> None:
    path.write_text(path.read_text()[:-40])


@pytest.mark.parametrize("name, damage", [
    ("sap/sales_orders.csv", truncate), ("sap/sales_orders.csv", empty_row),
    ("sap/sales_orders.csv", one_value_changed), ("sap/customers.csv", truncate),
    ("coldchain/readings.json", corrupt_json), ("coldchain/shipments.csv", empty_row),
    ("sap/sales_orders.csv", lambda p: p.write_text("")),
])
def test_damaged_files_are_named_with_the_fix(built, name, damage):
    damage(built / name)
    loaders = {"sap": lambda: load_sap.__wrapped__(built / "sap"),
               "coldchain": lambda: (coldchain.readings(built / "coldchain"), coldchain.shipments(built / "coldchain"))}
    with pytest.raises(DataDamaged) as error:
        loaders[name.split("/")[0]]()
    message = str(error.value)
    assert name.split("/")[1] in message and "is damaged" in message and "make data" in message
    assert "\n" not in message
    assert any(name.split("/")[1] in line for line in check_all(built))


def test_missing_file_and_missing_manifest_say_run_make_data(built):
    (built / "sap" / "customers.csv").unlink()
    with pytest.raises(DataMissing, match="customers.csv is missing; run make data"):
        sap.customers(built / "sap")
    (built / "coldchain" / files.MANIFEST).unlink()
    with pytest.raises(DataMissing, match="MANIFEST.json is missing"):
        coldchain.limits(built / "coldchain")
    assert len(check_all(built)) == 1 + len(coldchain.TABLES)


def test_a_damaged_manifest_is_reported_too(built):
    (built / "sap" / files.MANIFEST).write_text("{not json")
    with pytest.raises(DataDamaged, match="MANIFEST.json is damaged"):
        sap.orders(built / "sap")


def test_windows_line_endings_are_the_same_data(built):
    path = built / "sap" / "customers.csv"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert len(sap.customers(built / "sap")) == 3


def test_a_rebuild_repairs_the_damage(built):
    truncate(built / "sap" / "sales_orders.csv")
    assert check_all(built)
    build_all(built)
    assert check_all(built) == [] and len(sap.orders(built / "sap")) == 9


def test_the_check_is_memoised_per_file_state(built, monkeypatch):
    calls = []
    real = files._check
    monkeypatch.setattr(files, "_check", lambda *a: calls.append(a) or real(*a))
    for _ in range(5):
        sap.orders(built / "sap")
    assert len(calls) == 1
    path = built / "sap" / "sales_orders.csv"
    text = path.read_text()
    path.write_text(text.replace("4711", "4712", 1))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    with pytest.raises(DataDamaged):
        sap.orders(built / "sap")
    assert len(calls) == 2


def test_a_read_only_mount_gets_advice_that_can_work(monkeypatch, tmp_path):
    monkeypatch.setattr(files, "read_only_mount", lambda folder: True)
    with pytest.raises(files.DataDirError) as error:
        build_all(tmp_path / "data")
    message = str(error.value)
    assert "read-only file system" in message and "copy the whole course" in message
    assert "chmod" in message and "cannot help" in message and "\n" not in message


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_a_read_only_folder_is_one_line(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data").chmod(0o500)
    try:
        with pytest.raises(files.DataDirError, match="chmod -R u\\+w"):
            build_all(tmp_path / "data")
    finally:
        (tmp_path / "data").chmod(0o700)


# ---------- the same, through the command lines, in a copy of the course ----------

@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return make_copy(tmp_path_factory.mktemp("course"))


def test_respond_on_a_truncated_table_fails_with_the_fix_instead_of_a_wrong_answer(tmp_path):
    course = make_copy(tmp_path / "course")
    truncate(course / "data/sap/sales_orders.csv")
    done = run_in(course, "-m", "tooldesign", "respond")
    assert done.returncode == 1 and "does not exist" not in done.stdout
    assert done.stderr == ("error: data/sap/sales_orders.csv is damaged (844 bytes, the builder wrote 1,689); "
                           "run make data (or: .venv/bin/tooldesign data)\n")


def test_doctor_fails_when_data_folders_are_deleted(tmp_path):
    course = make_copy(tmp_path / "course")
    shutil.rmtree(course / "data/sap")
    shutil.rmtree(course / "data/coldchain")
    done = run_in(course, "-m", "workbook", "doctor")
    assert done.returncode == 1 and "ready for the course" not in done.stdout
    assert "[FAIL] data/sap/" in done.stdout and "make data" in done.stdout


def test_make_data_calls_the_cli():
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    recipe = makefile.split("\ndata:", 1)[1].split("\n\n", 1)[0]
    assert "$(TOOLDESIGN) data" in recipe and "-c" not in recipe
    assert "$(dir $(VENV_PY))tooldesign" in makefile  # the entry point beside the venv's Python


def test_data_errors_are_one_exception_family():
    assert issubclass(DataMissing, FileNotFoundError) and issubclass(DataDamaged, DataError)


def test_a_table_with_other_columns_than_the_code_reads_is_refused(built):
    manifest = built / "sap" / files.MANIFEST
    record = json.loads(manifest.read_text())
    record["files"]["customers.csv"]["columns"] = ["customer", "name"]
    manifest.write_text(json.dumps(record))
    with pytest.raises(DataDamaged, match="other columns"):
        sap.customers(built / "sap")


def test_any_script_that_lets_a_data_error_escape_prints_one_line(tmp_path):
    done = run_in(Path(__file__).resolve().parents[1], "-c",
                  f"from tooldesign.data import sap; sap.orders({str(tmp_path)!r})")
    assert done.returncode == 1 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: ") and "sales_orders.csv is missing; run make data" in done.stderr
    other = run_in(Path(__file__).resolve().parents[1], "-c", "import tooldesign.data; raise KeyError('x')")
    assert "Traceback" in other.stderr, "other errors keep their traceback: they are bugs, not data problems"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_data_on_an_unwritable_folder_is_one_line_from_the_cli(tmp_path):
    import subprocess
    import sys
    course = make_copy(tmp_path / "course")
    shutil.rmtree(course / "data/sap")
    (course / "data/sap").write_text("a file where the folder should be")
    env = {**os.environ, "PYTHONPATH": str(course / "src")}
    # -o setup: the venv is this one; the copy must not build its own.
    done = subprocess.run(["make", "-s", "-o", "setup", "data", f"VENV_PY={sys.executable}"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=300)
    ours = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert ours == ["error: data/sap is a file where a folder should be; move it away, then run make data "
                    "(or: .venv/bin/tooldesign data)"]
