import matplotlib

# Tests draw off screen. Only this process: kernels started by nbval keep their inline backend.
matplotlib.use("Agg")


import os
import tempfile
from pathlib import Path

import pytest
from tiers import is_slow_module, slow_first


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: starts kernels, grading runs or course commands (left out of make test-quick)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if is_slow_module(Path(str(item.path))):
            item.add_marker(pytest.mark.slow)
    slow_first(items)

# A quiz answered in a test (or in a kernel a test starts) must not land in the tester's own quiz progress.
os.environ.setdefault("COURSE_QUIZ_PROGRESS", os.path.join(tempfile.mkdtemp(prefix="quiz-progress-"), "progress.json"))


@pytest.fixture(scope="session")
def student_edition(tmp_path_factory):
    """The student edition (workbook handout), built once per test session for every test that reads it."""
    from workbook.handout import build

    return build(tmp_path_factory.mktemp("handout") / "edition")
