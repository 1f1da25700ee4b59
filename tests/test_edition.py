"""The student edition is a course of its own: it sets up, its notebooks tell the truth about it, and
its hints stand on what it may know. Each test reads the edition built once per session
(``student_edition`` in conftest.py); the course's own edition is the repository itself.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from workbook import REPO_ROOT, SOLUTIONS_DIR
from workbook.edition import PHRASES, Edition, missing_phrases, worded
from workbook.handout import HandoutError, learner_requirements
from workbook.release import learner_copy, read_notebook

COURSE_ONLY_TOOLS = ("pytest", "pytest-xdist", "nbval", "hypothesis", "ruff", "mypy")
LEARNER_TARGETS = {"setup", "lab", "check", "doctor", "notebooks"}


def _targets(makefile: Path) -> set[str]:
    return set(re.findall(r"^([a-z][\w-]*):", makefile.read_text(encoding="utf-8"), re.MULTILINE))


def _pins(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)", path.read_text(encoding="utf-8"), re.MULTILINE))


# ---------- 1. what a learner is told to use is there ----------


def test_the_edition_has_the_learners_make_targets_and_the_courses_own_setup(student_edition):
    root = student_edition.folder
    assert _targets(root / "Makefile") == LEARNER_TARGETS
    assert (root / "scripts" / "setup_env.py").read_bytes() == (REPO_ROOT / "scripts" / "setup_env.py").read_bytes()
    for name in ("pyproject.toml", "requirements.txt", "README.md"):
        assert (root / name).is_file(), name
    assert not (root / "solutions").exists() and not (root / "tests").exists()


def test_the_edition_installs_the_courses_pins_without_test_or_lint_tools(student_edition):
    course, edition = _pins(REPO_ROOT / "requirements.txt"), _pins(student_edition.folder / "requirements.txt")
    assert not set(COURSE_ONLY_TOOLS) & set(edition), "a learner installs no test or lint tool"
    assert set(COURSE_ONLY_TOOLS) <= set(course)
    assert all(course[name] == version for name, version in edition.items()), "one list of pins, one version each"
    # everything pyproject.toml needs to install the course is pinned for the learner too
    assert {"numpy", "pandas", "jupyterlab", "ipykernel", "ipywidgets", "mini-racer", "mcp", "nbclient"} <= set(edition)


def test_the_learner_list_is_cut_from_the_one_list_of_pins():
    text = "a==1\n# ---- course only: tests\npytest==9\n"
    assert learner_requirements(text) == "a==1\n"
    with pytest.raises(HandoutError, match="course only"):
        learner_requirements("a==1\npytest==9\n")


def test_the_readme_is_the_learners_with_the_courses_title(student_edition):
    text = (student_edition.folder / "README.md").read_text(encoding="utf-8")
    assert text.splitlines()[0] == (REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()[0]
    for needed in ("make lab", "make check NB=", "## Submit", "originals/", "## The course map",
                   "(docs/references.md)", "(docs/glossary.md)", "(docs/mcp-server.md)", "(docs/real-models.md)"):
        assert needed in text, needed
    for lacking in ("make test", "pip install -r requirements.txt", "solutions/", "tests/", "make grade"):
        assert lacking not in text, lacking


def test_the_edition_ships_the_learners_guides_without_what_it_lacks(student_edition):
    docs = student_edition.folder / "docs"
    assert sorted(p.name for p in docs.iterdir()) == ["glossary.md", "mcp-server.md", "real-models.md", "references.md"]
    assert "## References" in (docs / "references.md").read_text(encoding="utf-8")
    assert "Serve the tools over MCP" in (docs / "mcp-server.md").read_text(encoding="utf-8")
    for path in docs.iterdir():
        text = path.read_text(encoding="utf-8")
        for lacking in ("make grade", "tests/test_", "solutions/", "benchmarks/"):
            assert lacking not in text, f"{path.name}: {lacking}"


def test_setup_is_skipped_when_a_python_is_given(student_edition):
    done = subprocess.run(["make", "-n", "setup", f"VENV_PY={sys.executable}"], cwd=student_edition.folder,
                          capture_output=True, text=True, check=True)
    assert "setup_env.py" not in done.stdout
    done = subprocess.run(["make", "-n", "setup"], cwd=student_edition.folder, capture_output=True, text=True,
                          check=True)
    assert "scripts/setup_env.py" in done.stdout  # the learner's own set-up, exactly as the course's


@pytest.fixture(scope="module")
def edition_env(student_edition):
    """The edition's packages first, with this worktree's .venv: nothing is installed by a test."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONPATH=str(student_edition.folder / "src"), PYTHONNOUSERSITE="1", MPLBACKEND="Agg")
    return env


def test_make_check_works_in_the_edition(student_edition, edition_env):
    done = subprocess.run(["make", "check", "NB=04", f"VENV_PY={sys.executable}"], cwd=student_edition.folder,
                          capture_output=True, text=True, timeout=600, env=edition_env)
    out = done.stdout + done.stderr
    assert "No rule to make target" not in out
    assert "notebooks/04_designed_tools.ipynb" in out and "ex04-approver: not done yet" in out, out
    assert re.search(r"\b0 of \d+ checked exercises pass", out), out


def test_make_notebooks_writes_a_fresh_copy_and_keeps_a_changed_one(student_edition, edition_env, tmp_path):
    copy = tmp_path / "edition"
    shutil.copytree(student_edition.folder, copy, ignore=shutil.ignore_patterns("data"))
    (copy / "notebooks" / "03_mirrored_tools.ipynb").unlink()
    changed = copy / "notebooks" / "02_coldchain_data.ipynb"
    changed.write_text(changed.read_text(encoding="utf-8").replace("Exercise", "My exercise"), encoding="utf-8")
    env = {**edition_env, "PYTHONPATH": str(copy / "src")}
    make = ["make", "notebooks", f"VENV_PY={sys.executable}"]
    done = subprocess.run(make, cwd=copy, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode != 0 and "02_coldchain_data.ipynb changed" in done.stdout + done.stderr
    assert "My exercise" in changed.read_text(encoding="utf-8")  # nothing written over the learner's work
    done = subprocess.run([*make, "FORCE=1"], cwd=copy, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    fresh = (copy / "notebooks" / "03_mirrored_tools.ipynb").read_bytes()
    assert fresh == (copy / "originals" / "03_mirrored_tools.ipynb").read_bytes()
    assert list((copy / "notebooks").glob("02_coldchain_data.ipynb.bak-*")), "the changed copy is kept"


# ---------- 2. every notebook true in both editions ----------

MAKE = re.compile(r"`make ([a-z][\w-]*)[^`]*`")
COMMAND = re.compile(r"\.venv[/\\](?:bin|Scripts)[/\\](workbook|tooldesign)(?:\.exe)? ([a-z][\w-]*)")
BACKTICKED = re.compile(r"`([^`\s]+)`")
LINK = re.compile(r"\]\(((?!https?:|mailto:)[^)#\s(]+\.(?:ipynb|md|py|csv|json|txt|js))(?:#([\w-]+))?\)")


def _course_notebooks() -> dict[str, str]:
    """The repository's learner copies, as release writes them (the course edition's wording)."""
    out = {}
    for path in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb")):
        notebook = learner_copy(read_notebook(path), Edition.COURSE, path.name[:2])
        out[path.name] = "\n\n".join(cell.source for cell in notebook.cells)
    return out


def _edition_notebooks(root: Path) -> dict[str, str]:
    return {p.name: "\n\n".join(c.source for c in nbformat.read(p, as_version=4).cells)
            for p in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))}


def _subcommands(root: Path, program: str) -> set[str]:
    """The subcommands ``program --help`` lists in that edition, less those whose module it leaves out."""
    env = {"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin", "PYTHONNOUSERSITE": "1"}
    shown = subprocess.run([sys.executable, "-m", program, "--help"], capture_output=True, text=True,
                           timeout=120, env=env, cwd=root).stdout
    names = set(re.search(r"\{([\w,-]+)\}", shown).group(1).split(","))
    package = root / "src" / program
    return {n for n in names if not (n in ("grade", "handout") and not (package / "grade").exists())}


def _anchors(markdown: str) -> set[str]:
    """A heading's anchor as GitHub writes it, and every explicit <a id="..."> (a References row's r19)."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", markdown, re.M)} | set(
        re.findall(r'<a id="([^"]+)"></a>', markdown))


def _lacking(root: Path, texts: dict[str, str]) -> list[str]:
    """Every file, folder, make target or command a notebook names that this edition does not have."""
    targets, problems = _targets(root / "Makefile"), []
    commands = {program: _subcommands(root, program) for program in ("workbook", "tooldesign")}
    top = {p.name for p in REPO_ROOT.iterdir()} | {p.name for p in root.iterdir()}
    for name, text in texts.items():
        problems += [f"{name}: make {t}" for t in MAKE.findall(text) if t not in targets]
        problems += [f"{name}: {p} {c}" for p, c in COMMAND.findall(text) if c not in commands[p]]
        for token in BACKTICKED.findall(text):
            path = token.rstrip(".,;:)").lstrip("(")
            first = path.split("/")[0]
            if ("/" in path and first in top and not (root / path).exists() and (REPO_ROOT / path).exists()) or ("/" in path and first in top and first not in {p.name for p in root.iterdir()}):
                problems.append(f"{name}: {path}")
        for target, anchor in LINK.findall(text):
            linked = (root / "notebooks" / target).resolve()
            if not linked.exists():
                problems.append(f"{name}: link {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked.read_text(encoding="utf-8")):
                problems.append(f"{name}: link {target}#{anchor}")
    return problems


def test_no_notebook_names_what_the_course_lacks():
    assert _lacking(REPO_ROOT, _course_notebooks()) == []


def test_no_notebook_names_what_the_student_edition_lacks(student_edition):
    assert _lacking(student_edition.folder, _edition_notebooks(student_edition.folder)) == []


def test_the_lacking_check_finds_what_it_looks_for(student_edition):
    """The check above cannot pass vacuously: the course's own wording, put into the edition, fails it."""
    texts = {"00.ipynb": "run `make test`, read `solutions/00_start_here.ipynb`, then `benchmarks/bench_mcp.py`, "
                         "`.venv/bin/workbook grade subs`, [x](../README.md#no-such-heading)"}
    found = _lacking(student_edition.folder, texts)
    assert len(found) == 5, found


def test_every_edition_phrase_is_where_the_table_says():
    texts = {p.name[:2]: "\n\n".join(c.source for c in read_notebook(p).cells)
             for p in sorted(SOLUTIONS_DIR.glob("[0-9][0-9]_*.ipynb"))}
    for phrase in PHRASES:  # a phrase may live in a package file (a quiz module), named by its path
        texts.update({w: (REPO_ROOT / w).read_text(encoding="utf-8") for w in phrase.where if w.startswith("src/")})
    assert missing_phrases(texts) == []
    for phrase in PHRASES:
        assert phrase.course != phrase.student
        for where in phrase.where:
            assert worded(worded(texts[where], where, Edition.STUDENT), where, Edition.COURSE) == texts[where]


def _quiz(source: str):
    from workbook import quiz

    captured = []

    class Captured(quiz.Quiz):
        def show(self):
            captured.append(self)

    namespace = {"__name__": "quiz_cell"}
    exec(source.replace("from workbook.quiz import Choice, Question, Quiz", ""),
         {**namespace, "Choice": quiz.Choice, "Question": quiz.Question, "Quiz": Captured})
    return captured[0]


def _stuck_question(course_folder: Path):
    """The question of notebook 00's quiz about where answers live, as this edition's quiz module has it."""
    source = (course_folder / "src" / "workbook" / "quizzes" / "lesson00.py").read_text(encoding="utf-8")
    namespace: dict = {}
    exec(compile(source, "lesson00.py", "exec"), namespace)
    return next(q for q in namespace["QUIZ"].questions if "stuck" in q.text)


@pytest.mark.parametrize("edition", [Edition.COURSE, Edition.STUDENT])
def test_notebook_00s_quiz_says_where_answers_live_in_each_edition(edition, student_edition):
    if edition is Edition.COURSE:
        notebook = learner_copy(read_notebook(SOLUTIONS_DIR / "00_start_here.ipynb"), Edition.COURSE, "00")
    else:
        notebook = nbformat.read(student_edition.folder / "notebooks" / "00_start_here.ipynb", as_version=4)
    question = _stuck_question(REPO_ROOT if edition is Edition.COURSE else student_edition.folder)
    right = next(c for c in question.choices if c.correct)
    if edition is Edition.COURSE:
        assert "solutions/" in right.text and (REPO_ROOT / "solutions").is_dir()
    else:
        assert "solutions" not in right.text and not (student_edition.folder / "solutions").exists()
        wrong = next(c for c in question.choices if "solutions/" in c.text)
        assert "no solutions/" in wrong.why
    text = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert ("`solutions/`" in text) is (edition is Edition.COURSE)


# ---------- 4. hints as good as the repository's, without the answer ----------


def _edition_python(student_edition, code: str) -> str:
    env = {"PYTHONPATH": str(student_edition.folder / "src"), "PATH": "/usr/bin:/bin", "PYTHONNOUSERSITE": "1",
           "MPLBACKEND": "Agg", "HOME": str(student_edition.folder)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=student_edition.folder, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_unknown_wrong_answer_gets_a_whole_sentence_hint(student_edition):
    out = _edition_python(student_edition, (
        "from workbook.checks import evaluate\n"
        "print(evaluate('ex02-claims', lambda shipments, readings, limits: {'SHP-1': 1}).message)\n"
        "print(evaluate('ex02-longest-breach', lambda t, m, s: 7).message)\n"
        "print(evaluate('ex16-keep-fields', lambda questions: ['SalesOrder', 7]).message)\n"))
    lines = out.strip().splitlines()
    assert len(lines) == 3
    for line in lines:
        assert "which is not right. not the answer" not in line and ". not " not in line, line
        assert (line[0].isupper() or re.match(r"\w+\(", line)) and line.rstrip().endswith("."), line
    assert "Expected what the exercise asks for these inputs (" in lines[0]  # a dict result: the exercise's prompt, as a sentence
    assert "720" not in lines[0] and "Write claims_for(" in lines[0]
    # a function's unknown mistake gets the repository's own direction, the right result taken out
    assert lines[1] == ("longest_breach_minutes([4.1, 8.6, 9.2, 7.9, 8.4], 8.0, 30) returned 7: the run length "
                        "in readings times sample_minutes.")
    # a mistake with no direction of its own gets the prompt, never a field of the right answer
    assert "Expected what the exercise asks for these inputs (Write keep_fields(questions)" in lines[2], lines[2]
    assert not any(f in lines[2] for f in ("TotalNetAmount", "TransactionCurrency")), lines[2]


def test_general_hints_never_hold_the_right_result():
    from workbook.checks import collect
    from workbook.exercises import all_exercises, grading_for
    from workbook.handout import general_hints

    kept = 0
    for exercise in all_exercises():
        reference = grading_for(exercise.grade_id).reference_function() if exercise.kind == "function" else None
        if reference is None:
            continue
        right = collect(exercise, reference)
        for template, want in zip(general_hints(exercise, right), right):
            if template is None:
                continue
            kept += 1
            tail = template.split("{got}", 1)[1]
            assert not re.search(rf"(?<![\w.]){re.escape(str(want))}(?![\w.])", tail), (exercise.grade_id, template)
            assert template.endswith("."), template
    assert kept >= 20, "the repository's hints should carry over for most examples"


def test_cells_that_show_a_stubbed_function_say_it_is_hidden(student_edition):
    from workbook.handout import graded_functions

    for target, (grade_id, _) in graded_functions().items():
        module, _, name = target.partition(":")
        out = _edition_python(student_edition, f"import inspect, {module} as m\nprint(inspect.getsource(m.{name}))")
        assert "Hidden in the student edition" in out and grade_id in out, target
        assert "YOUR CODE HERE" not in out, target


def test_the_lessons_example_policy_answers_only_the_lessons_own_proposals(student_edition):
    """ex12-approval asks for release_policy's rule in another shape: the edition's copy answers the
    proposals notebook 12 makes, and is no answer to any other."""
    out = _edition_python(student_edition, (
        "from tooldesign.dispatch import ToolCall, release_policy\n"
        "from tooldesign.tools import tool_set\n"
        "tool = tool_set('designed')['release_request_create']\n"
        "lesson = ToolCall('release_request_create', {'sales_order': '4723', 'justification': "
        "'Postal code added to the master data today; order value 640 EUR, no credit issue.'}, 'toolu_06')\n"
        "print(release_policy(lesson, tool).behavior)\n"
        "try:\n"
        "    release_policy(ToolCall('release_request_create', {'sales_order': '4711', 'justification': "
        "'Exposure 52,500 EUR, limit 50,000 EUR.'}, 'x'), tool)\n"
        "except NotImplementedError as error:\n"
        "    print(error)\n"))
    lines = out.strip().splitlines()
    assert lines[0] == "allow" and "ex12-approval" in lines[1] and "write your own" in lines[1], out


def test_make_doctor_in_the_edition_checks_the_learners_pins(student_edition, edition_env):
    done = subprocess.run(["make", "doctor", f"VENV_PY={sys.executable}"], cwd=student_edition.folder,
                          capture_output=True, text=True, timeout=300, env=edition_env)
    assert done.returncode == 0 and " 0 FAIL" in done.stdout, done.stdout + done.stderr
    checked = [line.split()[1] for line in done.stdout.splitlines() if line.startswith(("[OK] ", "[FAIL] "))]
    assert "jupyterlab" in checked and not {"pytest", "ruff", "mypy", "hypothesis", "nbval"} & set(checked), checked


def test_a_phrase_in_a_package_file_is_worded_in_the_editions_copy(tmp_path, monkeypatch):
    """Where a quiz moves from its notebook into a module, the table names the module and the handout
    words the edition's copy of it."""
    import workbook.edition as edition
    from workbook.handout import _word_package_files

    module = tmp_path / "src" / "workbook" / "quiz00.py"
    module.parent.mkdir(parents=True)
    module.write_text('STUCK = "In solutions/, complete"\n', encoding="utf-8")
    phrase = edition.Phrase("quiz-module", ("src/workbook/quiz00.py",), "In solutions/, complete", "Ask the hint")
    monkeypatch.setattr(edition, "PHRASES", (phrase,))
    _word_package_files(tmp_path / "src")
    assert module.read_text(encoding="utf-8") == 'STUCK = "Ask the hint"\n'
    module.write_text("STUCK = 'moved'\n", encoding="utf-8")
    with pytest.raises(HandoutError, match="not in it any more"):
        _word_package_files(tmp_path / "src")


def test_the_capstone_loop_is_not_in_the_edition_and_record_says_so_in_one_line(student_edition):
    """ex19-agent-loop is the loop itself: the module holding the course's loop is left out, nothing
    in the edition's package needs it, and `tooldesign record` names the skipped step in one line."""
    from workbook.handout import TOOLDESIGN_LEFT_OUT

    package = student_edition.folder / "src" / "tooldesign"
    for part in TOOLDESIGN_LEFT_OUT:
        assert (REPO_ROOT / "src" / "tooldesign" / part).is_file() and not (package / part).exists(), part
    shipped = "\n".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py"))
    assert "def reference_loop" not in shipped and "def run_agent" not in shipped
    out = _edition_python(student_edition, (
        "import os, sys\n"
        "os.environ['OLLAMA_BASE_URL'] = 'http://127.0.0.1:9/v1'\n"
        "from tooldesign.record import capstone_loop\n"
        "print('loop:', capstone_loop())\n"
        "import tooldesign.capstone, tooldesign.capstone.agent, tooldesign.record\n"
        "from tooldesign.cli import main\n"
        "print('exit', main(['record', '--provider', 'ollama']))\n"))
    assert "loop: None" in out, out
    skipped = [line for line in out.splitlines() if "capstone step skipped" in line]
    assert len(skipped) == 1 and "lesson 19" in skipped[0] and "ex19-agent-loop" in skipped[0], out
    assert "exit 1" in out, out  # no server on port 9: the one-line error, after the one-line skip
