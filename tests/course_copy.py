"""A throw-away copy of the course, for tests that break its data or its notebooks on purpose.

The packages resolve ``data/``, ``notebooks/`` and ``solutions/`` from their own location, so a
subprocess run with ``PYTHONPATH=<copy>/src`` works on the copy and never touches the real course.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEEP = ("src", "data", "notebooks", "solutions", "requirements.txt", "pyproject.toml", "Makefile", "scripts")


def make_copy(target: Path) -> Path:
    """Copy what the command lines need (not .venv, not .git) into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in KEEP:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif source.exists():
            shutil.copy2(source, target / name)
    return target


def run_in(course: Path, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python ARGV...`` with the course venv's Python, importing the packages of ``course``."""
    # No model keys or provider settings: a bad-input case must never turn into a real model call.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "ANTHROPIC", "AICORE", "TOOLDESIGN"))}
    env.update(PYTHONPATH=str(course / "src"), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *argv], cwd=course, env=env, capture_output=True, text=True,
                          timeout=timeout)
