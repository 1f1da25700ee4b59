import matplotlib

# Tests draw off screen. Only this process: kernels started by nbval keep their inline backend.
matplotlib.use("Agg")


import os
import tempfile

import pytest

# A quiz answered in a test (or in a kernel a test starts) must not land in the tester's own quiz progress.
os.environ.setdefault("COURSE_QUIZ_PROGRESS", os.path.join(tempfile.mkdtemp(prefix="quiz-progress-"), "progress.json"))


@pytest.fixture(scope="session")
def student_edition(tmp_path_factory):
    """The student edition (workbook handout), built once per test session for every test that reads it."""
    from workbook.handout import build

    return build(tmp_path_factory.mktemp("handout") / "edition")
