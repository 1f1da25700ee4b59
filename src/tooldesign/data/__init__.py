"""Fictional data sets the lessons work on, built by deterministic code.

``build_all()`` writes both data sets to ``data/``; running it twice gives byte-identical files,
which the tests check. Loaders read the files back with pandas, keeping SAP codes as strings.
"""
from pathlib import Path

from tooldesign import DATA_DIR
from tooldesign.data import coldchain, sap
from tooldesign.data.files import DataDirError

__all__ = ["build_all", "coldchain", "sap", "DataDirError"]


def build_all(out_dir: Path | str = DATA_DIR) -> list[Path]:
    """Write the SAP and the cold-chain data sets under ``out_dir``; return the files written."""
    from tooldesign.data import notes  # lesson 13's free text, written to its own folder
    out_dir = Path(out_dir)
    return sap.write(out_dir / "sap") + coldchain.write(out_dir / "coldchain") + notes.write(out_dir / "notes")
