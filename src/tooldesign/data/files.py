"""Writing data files so that a rebuild is byte-identical on every platform."""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any, Iterable, Sequence


class DataDirError(RuntimeError):
    """The data folder cannot be written; the message says what to do."""


def ensure_writable(folder: Path) -> None:
    """Create ``folder`` or explain in one line why it cannot be used."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DataDirError(f"cannot create {folder} ({error.strerror}); choose a folder you may write to "
                           "or fix its permissions") from None
    if not os.access(folder, os.W_OK):
        raise DataDirError(f"{folder} is not writable; fix its permissions (chmod u+w) or pass another folder")


def write_text(path: Path, text: str) -> Path:
    """Write UTF-8 text with \\n line endings, whatever the platform.

    The file is written beside its target and then renamed over it, so a notebook reading the
    data while another rebuilds it never sees half a file.
    """
    ensure_writable(path.parent)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    with open(partial, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    os.replace(partial, path)
    return path


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    """Write a CSV whose cells are already formatted strings, so no library decides how floats look."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
    return write_text(path, buffer.getvalue())


def write_json(path: Path, value: Any) -> Path:
    return write_text(path, json.dumps(value, ensure_ascii=False, indent=1) + "\n")


def money(value: float) -> str:
    """Amounts as SAP's OData API writes them: a string with two decimals."""
    return f"{value:.2f}"
