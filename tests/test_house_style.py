"""The course's own code keeps one style: ruff lints and formats src/, mypy type-checks it.

Each tool runs as the developer would run it, from the repository root with the configuration in
pyproject.toml, using the copy installed next to this Python (requirements.txt pins both). A
failure shows the tool's own report, which names every file and line to fix.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # .venv/bin, or .venv/Scripts on Windows


def _run(tool: str, *args: str) -> None:
    executable = shutil.which(tool, path=str(BIN))
    if executable is None:
        pytest.fail(f"{tool} is not installed in {BIN}; run make setup (requirements.txt pins it)")
    done = subprocess.run(
        [executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    report = (done.stdout + done.stderr).strip()
    assert done.returncode == 0, f"{tool} {' '.join(args)} found problems:\n{report}"


def test_ruff_finds_nothing_in_src():
    _run("ruff", "check", "src")


def test_src_is_formatted_by_ruff():
    """Fix with: .venv/bin/ruff format src"""
    _run("ruff", "format", "--check", "src")


def test_mypy_finds_no_type_errors():
    """The files and settings come from [tool.mypy]; the cache in .mypy_cache keeps a rerun to a second."""
    _run("mypy")
