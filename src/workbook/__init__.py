"""The course machinery: exercise checks, the release of learner notebooks, the environment doctor.

It knows nothing of SAP or cold chains except through each lesson's exercise definitions in
``workbook.exercises``; the subject package ``tooldesign`` never imports it.
"""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS_DIR = REPO_ROOT / "solutions"
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
DATA_DIR = REPO_ROOT / "data"
