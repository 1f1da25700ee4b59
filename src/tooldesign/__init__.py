"""The subject of the workbook: fictional data, tool sets, and the measurements the lessons make.

Each module mirrors a lesson, so a learner who wonders where something lives finds it by the
lesson's name: ``tooldesign.data`` for notebooks 01 and 02, and so on.
"""

from pathlib import Path

__all__ = ["DATA_DIR", "REPO_ROOT"]

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"
