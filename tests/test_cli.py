"""The command line: the lab's verbs print the figures; bad input is one line, never a traceback."""
import os
import subprocess
import sys

import pytest

from tooldesign.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_lint_both(capsys):
    code, out, _ = run(capsys, "lint")
    assert code == 0
    assert "== mirror: 7 tools" in out and "== designed: 5 tools, 0 findings" in out
    assert "'get_order' and 'get_order_details'" in out and "x the mirror's tokens (estimate" in out


def test_lint_one_set_lists_every_finding(capsys):
    code, out, _ = run(capsys, "lint", "--set", "mirror")
    assert code == 0 and "[param-generic] 'fields'" in out and "[safety-approval]" in out


def test_respond(capsys):
    code, out, _ = run(capsys, "respond")
    assert code == 0 and out.count("RR-4711") >= 2 and '"total": 7, "showing": 5' in out
    assert "400 Bad Request" in out and "digits only" in out


@pytest.mark.parametrize("argv", [["select", "--sample"], ["select"], ["select", "--picker", "bm25"]])
def test_select_offline(capsys, argv):
    code, out, _ = run(capsys, *argv)
    from tooldesign.selection import offline_picker, run_selection
    from tooldesign.tools import tool_set

    picker = offline_picker("bm25" if "bm25" in argv else "words")
    designed = run_selection(picker, tool_set("designed")).summary().split(",")[0]
    assert code == 0 and designed in out
    assert "mirror    4/10 right" in out and "not a model" in out


def test_data_lists_the_files_written(capsys, monkeypatch, tmp_path):
    import tooldesign.data as data

    real = data.build_all
    monkeypatch.setattr(data, "build_all", lambda: real(tmp_path))
    code, out, _ = run(capsys, "data")
    assert code == 0 and "sales_orders.csv" in out and "files written" in out


def exit_code(argv):
    """main() returns a code, except where argparse exits on its own: both count."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


@pytest.mark.parametrize("argv, fragment", [
    (["lint", "--set", "neither"], "invalid choice"),
    (["nonsense"], "invalid choice"),
    (["select", "--sample", "--picker", "bm25"], "not allowed with"),
    (["select", "--provider", "sap"], "--provider only applies"),
])
def test_bad_input_is_one_line(capsys, argv, fragment):
    assert exit_code(argv) == 2
    _, err = capsys.readouterr()
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_key_is_one_line_without_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "ANTHROPIC", "TOOLDESIGN"))}
    done = subprocess.run([sys.executable, "-m", "tooldesign", "select", "--model", "some-model"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: OPENAI_API_KEY is not set") and done.stderr.count("\n") == 1


def test_a_failing_model_call_is_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env from the course folder
    monkeypatch.delenv("TOOLDESIGN_PROVIDER", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens on the discard port
    code, _, err = run(capsys, "select", "--model", "m")
    assert code == 1 and err.startswith("error: the model call failed:") and err.count("\n") == 1


# ---------- the entry points that `make setup` installs ----------

def entry_point(name):
    """.venv/bin/NAME (Scripts\\NAME.exe on Windows), beside the Python running the tests."""
    path = os.path.join(os.path.dirname(sys.executable), name + (".exe" if os.name == "nt" else ""))
    assert os.path.exists(path), f"{path} is missing; run make setup to install the course's commands"
    return path


@pytest.mark.parametrize("argv, says", [
    (["tooldesign", "lint", "--set", "designed"], "== designed: 5 tools, 0 findings"),
    (["tooldesign", "scale", "consolidate"], "Consolidation, offline"),
    (["workbook", "list"], "exercises"),
])
def test_the_entry_points_run(tmp_path, argv, says):
    done = subprocess.run([entry_point(argv[0]), *argv[1:]], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert says in done.stdout


@pytest.mark.parametrize("name, argv", [("tooldesign", ["lint", "--set", "neither"]),
                                        ("workbook", ["check", "--timeout", "soon"])])
def test_an_entry_point_answers_bad_input_in_one_line_naming_itself(tmp_path, name, argv):
    done = subprocess.run([entry_point(name), *argv], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert f"(see: {name} " in done.stderr, done.stderr


@pytest.mark.parametrize("words, module", [(["codemode", "verify"], "tooldesign.codemode"),
                                           (["loop"], "tooldesign.loop")])
def test_a_lesson_subcommand_prints_what_its_python_m_spelling_prints(words, module):
    spelled = [subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=180)
               for argv in (["-m", "tooldesign", *words], ["-m", module, *words[1:]])]
    assert all(done.returncode == 0 for done in spelled), [done.stderr for done in spelled]
    assert spelled[0].stdout == spelled[1].stdout and spelled[0].stdout
