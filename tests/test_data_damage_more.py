"""More ways a data file or its manifest can be damaged, each one line with the fix, never a traceback.

test_data_damage.py covers truncated, emptied and edited files; these are the shapes of damage that
are not about content: a manifest entry of the wrong shape, a folder or an unreadable file where a
data file should be, a byte-order mark, a changed byte of the same size, extra columns.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooldesign.data import DataDamaged, DataError, build_all, check_all, coldchain, files, notes, sap


@pytest.fixture
def built(tmp_path) -> Path:
    build_all(tmp_path)
    return tmp_path


def _entry(built: Path, **change) -> None:
    manifest = built / "sap" / files.MANIFEST
    value = json.loads(manifest.read_text())
    value["files"]["sales_orders.csv"].update(change)
    manifest.write_text(json.dumps(value))


MANIFEST_DAMAGE = {
    "columns is a number": lambda b: _entry(b, columns=5),
    "columns hold numbers": lambda b: _entry(b, columns=[1, 2]),
    "bytes is text": lambda b: _entry(b, bytes="1689"),
    "bytes is negative": lambda b: _entry(b, bytes=-1),
    "bytes is true": lambda b: _entry(b, bytes=True),
    "sha256 is short": lambda b: _entry(b, sha256="abc"),
    "sha256 is null": lambda b: _entry(b, sha256=None),
    "rows is a float": lambda b: _entry(b, rows=9.0),
    "the entry is a list": lambda b: (b / "sap" / files.MANIFEST).write_text(
        json.dumps({"files": {"sales_orders.csv": [1689]}})),
    "files is a list": lambda b: (b / "sap" / files.MANIFEST).write_text(json.dumps({"files": []})),
    "the manifest is a list": lambda b: (b / "sap" / files.MANIFEST).write_text("[1, 2]"),
    "the manifest is not UTF-8": lambda b: (b / "sap" / files.MANIFEST).write_bytes(b"\xff\xfe{}"),
    "the manifest is a folder": lambda b: ((b / "sap" / files.MANIFEST).unlink(), (b / "sap" / files.MANIFEST).mkdir()),
}


@pytest.mark.parametrize("label", list(MANIFEST_DAMAGE))
def test_a_manifest_entry_of_the_wrong_shape_is_a_damaged_manifest(built, label):
    MANIFEST_DAMAGE[label](built)
    with pytest.raises(DataDamaged) as error:
        sap.orders(built / "sap")
    message = str(error.value)
    assert "MANIFEST.json is damaged" in message and "make data" in message and "\n" not in message
    assert any("MANIFEST.json" in line for line in check_all(built))


def _orders(built: Path) -> Path:
    return built / "sap" / "sales_orders.csv"


FILE_DAMAGE = {
    "a byte-order mark": lambda p: p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes()),
    "one byte changed, same size": lambda p: p.write_bytes(p.read_bytes().replace(b"4711", b"4712", 1)),
    "an extra column": lambda p: p.write_text("\n".join(line + ",x" for line in p.read_text().splitlines()) + "\n"),
    "a column missing": lambda p: p.write_text("\n".join(line.rsplit(",", 1)[0] for line in p.read_text().splitlines())
                                               + "\n"),
    "bytes that are not UTF-8": lambda p: p.write_bytes(p.read_bytes().replace(b"EUR", b"\xffUR", 1)),
    "only the header": lambda p: p.write_text(p.read_text().splitlines()[0] + "\n"),
}


@pytest.mark.parametrize("label", list(FILE_DAMAGE))
def test_a_data_file_damaged_in_another_way_is_named_with_the_fix(built, label):
    FILE_DAMAGE[label](_orders(built))
    with pytest.raises(DataDamaged) as error:
        sap.orders(built / "sap")
    assert "sales_orders.csv is damaged" in str(error.value) and "make data" in str(error.value)


def test_a_folder_where_a_data_file_should_be_says_to_move_it(built):
    _orders(built).unlink()
    _orders(built).mkdir()
    with pytest.raises(DataDamaged, match="sales_orders.csv is a folder where a data file should be; move it away"):
        sap.orders(built / "sap")
    assert any("is a folder" in line for line in check_all(built))
    with pytest.raises(files.DataDirError, match="is a folder where a file should be; move it away"):
        build_all(built)


@pytest.mark.parametrize("error, words", [(PermissionError(13, "Permission denied"), "permission denied"),
                                          (OSError(5, "Input/output error"), "Input/output error")])
def test_a_file_that_cannot_be_read_is_one_line_not_a_traceback(built, monkeypatch, error, words):
    # Tests may run as root, where chmod 000 does not stop a read, so the refusal is simulated.
    real = Path.read_bytes

    def refuse(self):
        if self.name == "sales_orders.csv":
            raise error
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(DataError) as caught:
        sap.orders(built / "sap")
    assert words in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("name, load", [
    ("coldchain/readings.json", lambda b: coldchain.readings(b / "coldchain")),
    ("coldchain/limits.csv", lambda b: coldchain.limits(b / "coldchain")),
    ("notes/order_notes.csv", lambda b: notes.order_notes(b / "notes")),
])
def test_every_folder_answers_a_folder_in_a_files_place_the_same_way(built, name, load):
    path = built / name
    path.unlink()
    path.mkdir()
    with pytest.raises(DataDamaged, match="is a folder where a data file should be"):
        load(built)
