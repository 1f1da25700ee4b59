"""CI's .ci/side-by-side: commands run at the same time, every log shown whole, and no failure hidden."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "side-by-side"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash, as CI's scripts do")


def side_by_side(*commands: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), *commands], cwd=cwd, capture_output=True, text=True, timeout=120,
                          input=stdin)


def test_the_commands_run_at_the_same_time(tmp_path):
    # The first waits for a file only the second writes: run one after the other, the first would give up.
    done = side_by_side("for i in $(seq 600); do [ -e flag ] && echo saw it && exit 0; sleep 0.1; done; exit 9",
                        "touch flag; echo wrote it", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "saw it" in done.stdout and "wrote it" in done.stdout


def test_every_log_is_shown_whole_in_the_order_given(tmp_path):
    done = side_by_side("sleep 0.3; echo first; echo first-err >&2", "echo second", cwd=tmp_path)
    assert done.returncode == 0
    out = done.stdout
    assert out.index("] sleep 0.3") < out.index("first") < out.index("first-err") < out.index("] echo second")
    assert out.index("] echo second") < out.rindex("second")


@pytest.mark.parametrize("which", [0, 1])
def test_one_failure_fails_the_whole_and_is_named(tmp_path, which):
    commands = ["echo fine", "echo fine too"]
    commands[which] = "echo about to fail; exit 3"
    done = side_by_side(*commands, cwd=tmp_path)
    assert done.returncode != 0
    assert "exit 3" in done.stdout and "about to fail" in done.stdout
    assert "FAILED (see its log above): echo about to fail; exit 3" in done.stderr
    assert "fine" in done.stdout  # the command that passed is shown too


def test_no_command_is_one_line_that_says_what_to_do(tmp_path):
    done = side_by_side(cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0 and "say what to run" in done.stderr


def test_a_command_that_reads_its_input_gets_an_empty_one_and_goes_on(tmp_path):
    done = side_by_side("cat; echo read to the end", cwd=tmp_path, stdin="never seen\n")
    assert done.returncode == 0 and "read to the end" in done.stdout and "never seen" not in done.stdout
