"""make passes each path it is given as one argument: spaces, brackets, quotes and globs reach the
command whole (NB, SUBMISSIONS, OUT, HIDDEN_CHECKS, ROSTER, HAND_GRADES, WHEELS)."""
from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV_PY = ROOT / ".venv" / "bin" / "python"
PY = str(VENV_PY if VENV_PY.exists() else Path(sys.executable))

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

AWKWARD = [
    "my notebooks/02 copy.ipynb",
    "lab [week 1]/02_coldchain_data.ipynb",
    "it's here/02.ipynb",
    'say "hi"/02.ipynb',
    "stars*and?/02.ipynb",
    "semi;colon && echo injected/02.ipynb",
]
# A "$" is make's own: make expands it in any variable before the shell sees it (write "$$" for one).


def _dry_run(target: str, *settings: str) -> list[list[str]]:
    """The commands make would run for ``target`` (setup skipped), each split as the shell splits it."""
    done = subprocess.run(
        ["make", "-n", "-o", "setup", target, f"VENV_PY={PY}", *settings],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [shlex.split(line) for line in done.stdout.splitlines() if line.strip()]


def _argument_after(commands: list[list[str]], word: str) -> list[str]:
    return [command[command.index(word) + 1] for command in commands if word in command[:-1]]


@pytest.mark.parametrize("path", AWKWARD)
def test_nb_reaches_check_and_execute_whole(path):
    assert path in _argument_after(_dry_run("check", f"NB={path}"), "check")
    assert path in _argument_after(_dry_run("solutions", f"NB={path}"), "execute")


@pytest.mark.parametrize("path", AWKWARD)
def test_grade_paths_reach_grade_whole(path):
    commands = _dry_run("grade", f"SUBMISSIONS={path}", f"OUT={path}-out", f"HIDDEN_CHECKS={path}.py")
    assert path in _argument_after(commands, "grade")
    assert f"{path}-out" in _argument_after(commands, "--out")
    assert f"{path}.py" in _argument_after(commands, "--hidden-checks")
    commands = _dry_run("grade", f"SUBMISSIONS={path}", f"ROSTER={path}.csv", f"HAND_GRADES={path}-hand.csv")
    assert f"{path}.csv" in _argument_after(commands, "--roster")
    assert f"{path}-hand.csv" in _argument_after(commands, "--hand-grades")


def test_each_export_target_becomes_its_own_option():
    (command,) = [c for c in _dry_run("grade", "SUBMISSIONS=s", "EXPORT=canvas lesson-csv") if "--out" in c]
    assert [command[i + 1] for i, word in enumerate(command) if word == "--export"] == ["canvas", "lesson-csv"]
    (command,) = [c for c in _dry_run("grade", "SUBMISSIONS=s") if "--out" in c]
    assert "--export" not in command and "--roster" not in command and "--hand-grades" not in command


@pytest.mark.parametrize("path", AWKWARD[:4])
def test_out_and_wheels_reach_their_commands_whole(path):
    assert path in _argument_after(_dry_run("handout", f"OUT={path}"), "handout")
    assert path in _argument_after(_dry_run("wheelhouse", f"OUT={path}"), "--out")
    done = subprocess.run(["make", "-n", "setup", f"WHEELS={path}", f"PYTHON={PY}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert path in _argument_after([shlex.split(line) for line in done.stdout.splitlines()], "--wheels")


def test_a_real_check_gets_the_whole_path(tmp_path):
    folder = tmp_path / "my lab [week 1]"
    folder.mkdir()
    notebook = folder / "notes 2.ipynb"
    notebook.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n', encoding="utf-8")
    done = subprocess.run(["make", "-s", "-o", "setup", "check", f"NB={notebook}", f"VENV_PY={PY}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert str(notebook) in done.stderr, done.stderr  # refused by workbook, by its whole name
    assert "unrecognized arguments" not in done.stderr


def test_a_real_grade_gets_the_whole_path(tmp_path):
    missing = tmp_path / "hand ins [group 2]"
    done = subprocess.run(["make", "-s", "-o", "setup", "grade", f"SUBMISSIONS={missing}", f"OUT={tmp_path / 'out dir'}",
                           f"VENV_PY={PY}", "NO_SANDBOX=1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "hand ins [group 2]" in done.stderr, done.stderr
    assert "unrecognized arguments" not in done.stderr
