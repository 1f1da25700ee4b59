"""The course machinery: exercise checks, the release of learner notebooks, the environment doctor.

It knows nothing of SAP or cold chains except through each lesson's exercise definitions in
``workbook.exercises``; the subject package ``tooldesign`` never imports it.
"""

# The course folder has one definition, in the subject package; workbook may import tooldesign.
from tooldesign import DATA_DIR, REPO_ROOT

__all__ = ["DATA_DIR", "NOTEBOOKS_DIR", "REPO_ROOT", "SOLUTIONS_DIR"]

SOLUTIONS_DIR = REPO_ROOT / "solutions"
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
