"""Fictional data sets the lessons work on, built by deterministic code.

``build_all()`` writes both data sets to ``data/``; running it twice gives byte-identical files,
which the tests check. Loaders read the files back with pandas, keeping SAP codes as strings.
"""

from pathlib import Path

from tooldesign import DATA_DIR
from tooldesign.data import coldchain, notes, sap
from tooldesign.data.files import DataDamaged, DataDirError, DataError, DataMissing, problems

__all__ = [
    "build_all",
    "check_all",
    "coldchain",
    "sap",
    "DataDamaged",
    "DataDirError",
    "DataError",
    "DataMissing",
]


def build_all(out_dir: Path | str = DATA_DIR) -> list[Path]:
    """Write the SAP, cold-chain and order-note data sets under ``out_dir``; return the files written."""
    out_dir = Path(out_dir)
    return (
        sap.write(out_dir / "sap") + coldchain.write(out_dir / "coldchain") + notes.write(out_dir / "notes")
    )


def check_all(root: Path | str = DATA_DIR) -> list[str]:
    """One line per data file under ``root`` that is missing or damaged, each with the fix; empty when sound."""
    root = Path(root)
    return (
        problems(root / "sap", list(sap.TABLES))
        + problems(root / "coldchain", list(coldchain.TABLES))
        + problems(root / "notes", [notes.FILE_NAME])
    )
