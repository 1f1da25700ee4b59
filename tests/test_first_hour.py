"""A new learner's first hour, in the course and in the student edition: nothing shows an answer before
the learner's own attempt, every offered reveal shows something, every failing check says what it tried,
what came back and what was expected (whole, between words), no test machinery stands in a learner's
copy, notebook 00 says how to work a notebook, and every link lands where it points."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest

from workbook import checks
from workbook.checks import WIDTH, evaluate, readable, unwrapped, wrapped
from workbook.exercises import all_exercises, get_exercise
from workbook.release import learner_copy, without_test_markers

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))


def learner(path: Path) -> nbformat.NotebookNode:
    return learner_copy(nbformat.read(path, as_version=4), where=path.name[:2])


# ---------- 4. what an exercise asks for is shown only after its check passes ----------

# Package functions whose source is the core of an exercise's answer though the edition need not stub
# them (the course uses them everywhere): the blocked rule is exercise 1 of notebook 01 in one line.
ANSWER_CORES = {"is_blocked": "ex01-blocked-orders"}
SHOWS_SOURCE = re.compile(r"(?:getsource|getsourcelines|psource|pinfo2)\(?\s*([\w.]+)|([\w.]+)\?\?")


def answer_functions() -> dict[str, str]:
    """Function name -> the exercise whose answer its source gives away."""
    from workbook.handout import graded_functions

    found = {target.split(":")[1]: grade_id for target, (grade_id, _) in graded_functions().items()}
    return {**found, **ANSWER_CORES}


def early_printouts(notebook: nbformat.NotebookNode, answers: dict[str, str]) -> list[str]:
    """Cells that show the source of an exercise's answer before, or without waiting for, its check."""
    checked: set[str] = set()
    problems = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code":
            continue
        for match in SHOWS_SOURCE.finditer(cell.source):
            name = (match[1] or match[2]).split(".")[-1]
            grade_id = answers.get(name)
            if grade_id is None:
                continue
            gated = re.search(rf"""if\s+after\(\s*["']{grade_id}["']""", cell.source) or re.search(
                rf"""answer_of\s*=\s*["']{grade_id}["']""", cell.source
            )
            if grade_id not in checked or not gated:
                problems.append(f"cell {number} shows {name} (the answer to {grade_id}) "
                                + ("before its check" if grade_id not in checked else "without waiting for its check"))
        checked |= set(re.findall(r"""check\(\s*["'](ex[\w-]+)["']""", cell.source))
    return problems


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_no_learner_notebook_shows_an_answers_source_before_its_check(path):
    assert early_printouts(learner(path), answer_functions()) == []


def test_an_early_or_ungated_printout_is_caught():
    cell = nbformat.v4.new_code_cell
    answers = {"is_blocked": "ex01-blocked-orders"}
    before = nbformat.v4.new_notebook(cells=[cell("print(inspect.getsource(sap.is_blocked))"),
                                             cell('check("ex01-blocked-orders", blocked_orders)')])
    ungated = nbformat.v4.new_notebook(cells=[cell('check("ex01-blocked-orders", blocked_orders)'),
                                              cell("%psource sap.is_blocked")])
    gated = nbformat.v4.new_notebook(cells=[cell('check("ex01-blocked-orders", blocked_orders)'),
                                            cell('if after("ex01-blocked-orders"):\n    print(inspect.getsource(sap.is_blocked))')])
    revealed = nbformat.v4.new_notebook(cells=[cell('check("ex01-blocked-orders", blocked_orders)'),
                                               cell('reveal("see", lambda: inspect.getsource(sap.is_blocked), '
                                                    'answer_of="ex01-blocked-orders")')])
    assert "before its check" in early_printouts(before, answers)[0]
    assert "without waiting" in early_printouts(ungated, answers)[0]
    assert early_printouts(gated, answers) == [] and early_printouts(revealed, answers) == []


def test_the_blocked_rule_is_an_answer_core_and_every_graded_function_counts():
    answers = answer_functions()
    assert answers["is_blocked"] == "ex01-blocked-orders"
    assert answers["approver_for"] == "ex04-approver" and answers["release_policy"] == "ex12-approval"


# ---------- 2. a reveal shows something useful, or is not offered ----------

def _reveal_parts(box):
    button, shown, _helper = box.children
    return button, shown


def test_a_reveal_of_an_answer_waits_for_its_check(monkeypatch):
    from workbook.reveal import reveal

    monkeypatch.setattr(checks, "_PASSED", set())
    box = reveal("show the package's version", lambda: "def approver_for(): ...", answer_of="ex04-approver")
    button, shown = _reveal_parts(box)
    button.click()
    assert "it will show once ex04-approver passes" in shown.value and "press this button again" in shown.value
    assert "def approver_for" not in shown.value and not button.disabled
    checks._PASSED.add("ex04-approver")
    button.click()
    assert "def approver_for" in shown.value and button.disabled


def test_a_reveal_never_shows_a_stub_placeholder():
    from workbook.edition import STUB_MARK
    from workbook.reveal import reveal

    box = reveal("show it", lambda: f"def quoted(text, source):\n    return {STUB_MARK}'quoted', dict(locals()))")
    button, shown = _reveal_parts(box)
    button.click()
    assert STUB_MARK not in shown.value and "does not hold this answer" in shown.value


def test_the_student_edition_does_not_offer_the_packages_answer(monkeypatch, capsys):
    from workbook import edition, reveal

    monkeypatch.setattr(edition, "NAME", "student")
    assert reveal.reveal("show the package's version", lambda: 1 / 0, answer_of="ex17-as-data") is None
    assert "stays with your instructor" in capsys.readouterr().out
    with pytest.raises(KeyError):
        reveal.reveal("x", lambda: "", answer_of="ex99-no-such")


def test_a_reveal_breaks_long_lines_between_words_only():
    from workbook.reveal import reveal

    box = reveal("show", lambda: "word " * 50)
    button, shown = _reveal_parts(box)
    button.click()
    assert "white-space: pre-wrap" in shown.value and "overflow-wrap: normal" in shown.value
    assert "word-break: normal" in shown.value


SKELETON_WORDS = ("Hidden in the student edition", "_handout_answer(", "YOUR CODE HERE")


def test_no_edition_notebook_prints_a_stubbed_functions_source(student_edition):
    """A getsource of a function the edition stubbed would print the stub: such a cell offers nothing."""
    stubbed = {target.split(":")[1] for target in student_edition.stubbed}
    problems = []
    for path in sorted((student_edition.folder / "notebooks").glob("*.ipynb")):
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
            if cell.cell_type != "code":
                continue
            for match in SHOWS_SOURCE.finditer(cell.source):
                name = (match[1] or match[2]).split(".")[-1]
                if name in stubbed and "answer_of=" not in cell.source:
                    problems.append(f"{path.name} cell {number}: shows the stub of {name}")
    assert problems == []


REVEALED = '''
import ipywidgets
from ipywidgets.widgets.widget import _instances
for box in list(_instances.values()):
    kids = getattr(box, "children", ())
    if len(kids) == 3 and isinstance(kids[0], ipywidgets.Button) and isinstance(kids[1], ipywidgets.HTML):
        kids[0].click()
        print("REVEALED", kids[0].description, "::", kids[1].value)
'''


REVEALING = [p.name[:2] for p in SOLUTIONS if "reveal(" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("number", REVEALING)
def test_every_offered_reveal_in_the_edition_shows_something(student_edition, number):
    """Run the edition's notebook as a learner who starts with Run All, press every reveal it offers."""
    from nbclient import NotebookClient

    path = next((student_edition.folder / "notebooks").glob(f"{number}_*.ipynb"))
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(REVEALED))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONPATH=str(student_edition.folder / "src"), PYTHONNOUSERSITE="1", MPLBACKEND="Agg")
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.km = client.create_kernel_manager()
    client.km.kernel_spec  # noqa: B018  (loaded before the environment is set)
    with client.setup_kernel(env=env):
        client.execute(cleanup_kc=False)
    printed = "".join("".join(o.get("text", "")) for c in notebook.cells if c.cell_type == "code"
                      for o in c.outputs if o.get("output_type") == "stream")
    if any("answer_of=" in cell.source for cell in notebook.cells):  # the answer's reveal is not offered
        assert "stays with your instructor" in printed
    revealed = [line for line in printed.splitlines() if line.startswith("REVEALED")]
    assert revealed or "answer_of=" in "".join(c.source for c in notebook.cells), "no reveal was pressed"
    for line in revealed:
        assert not any(word in line for word in SKELETON_WORDS), line[:200]
        assert line.split("::", 1)[1].strip(), f"a reveal that shows nothing: {line[:120]}"
    assert not any(word in printed for word in SKELETON_WORDS[:2]), "a cell printed a stub of the package"


# ---------- 3. hints: specific, whole, readable in a browser and a terminal ----------

GENERIC = ("That is not the answer yet", "Re-read what the exercise asks", "unexpected shape", "not done yet")


def cut_mid_value(message: str) -> str | None:
    """Why ``message`` shows a value cut short, or None."""
    if "…" in message:
        return "cut in the middle (…)"
    if re.search(r"\w\.\.\.['\"]", message):
        return "a quoted value cut mid-text (...')"
    for open_, close in ("()", "[]", "{}"):
        if message.count(open_) != message.count(close):
            return f"unbalanced {open_}{close}: a value cut before its end"
    return None


WRONG = [(e, w) for e in all_exercises() if e.kind != "manual" for w in e.wrong_answers]


@pytest.mark.parametrize("exercise,wrong", WRONG,
                         ids=[f"{e.grade_id}-{i}" for i, (e, _) in enumerate(WRONG)])
def test_every_wrong_answers_hint_is_specific_and_whole(exercise, wrong):
    verdict = evaluate(exercise.grade_id, wrong.answer)
    message = verdict.message
    assert not verdict.passed
    assert not any(phrase in message for phrase in GENERIC), message
    assert cut_mid_value(message) is None, f"{cut_mid_value(message)}: {message}"
    assert len(message.split()) >= 5, message
    for line in verdict.printed(exercise.grade_id).splitlines():
        assert len(line) <= WIDTH, line


def test_the_hint_rules_catch_generic_and_cut_hints():
    assert cut_mid_value("returns_clause('Marks an item as nonreturnable. Use it before a...') flags nothing")
    assert cut_mid_value('price_conditions() returned {"sales_order": "4725", "pri; expected')
    assert cut_mid_value("model_is_told(" + "a" * 10 + " … " + "b")
    assert cut_mid_value("approver(30000.01, 30000.0) returned 'none': the rule") is None


@pytest.mark.parametrize("value,shown", [
    ("Marks an item as nonreturnable. Use it before a return is created for the item.",
     "'Marks an item as nonreturnable. Use'... (79 characters)"),
    ({"name": "sales_order_get", "description": "x" * 80}, "<sales_order_get>"),
    ([{"SalesOrder": str(n)} for n in range(9)], "<a list of 9 dicts>"),
    (list(range(40)), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, ... 26 more]"),
    ({"sales_order": "4725", "price": "4300/400", "list_price": 4300.0, "discount": 400.0, "net": 3900.0},
     "{'sales_order': '4725', 'price': '4300/400', ... 3 more keys}"),
    ("short", "'short'"),
])
def test_a_long_value_is_summarised_never_cut(value, shown):
    assert readable(value) == shown
    assert cut_mid_value(readable(value)) is None


def test_a_printed_hint_wraps_between_words_and_reads_back_whole(capsys):
    from workbook.execute import verdict_lines

    checks.check("ex04-approver", lambda exposure, limit: "none")
    printed = capsys.readouterr().out
    assert len(printed.splitlines()) > 1 and all(len(line) <= WIDTH for line in printed.splitlines())
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "check()", outputs=[nbformat.v4.new_output("stream", name="stdout", text=printed)])])
    [line] = verdict_lines(notebook)
    assert line.message == evaluate("ex04-approver", lambda exposure, limit: "none").message
    assert unwrapped(wrapped("✘ x: " + "word " * 40)) == ("✘ x: " + "word " * 40).strip()


def test_a_passing_line_prints_as_one_line(capsys):
    from workbook.exercises.lesson01 import reference_blocked

    checks.check("ex01-blocked-orders", reference_blocked)
    assert capsys.readouterr().out.count("\n") == 1


def test_make_check_says_save_and_run_make_check_not_run_this_cell():
    said = checks.for_terminal(checks.NOT_DONE_VERDICT.message)
    assert "make check" in said and "run this cell" not in said and "Ctrl+S" in said
    assert checks.for_terminal("a hint") == "a hint"


EDITION_PROBE = '''
import json, sys
from workbook.checks import evaluate
from workbook.exercises import all_exercises
for e in all_exercises():
    if e.kind == "function":
        v = evaluate(e.grade_id, lambda *args: "zq-unlikely-result")
        print(json.dumps([e.grade_id, e.answer, v.status, v.message]))
'''


def test_the_editions_hints_name_the_call_what_came_back_and_what_was_expected(student_edition):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONPATH=str(student_edition.folder / "src"), PYTHONNOUSERSITE="1")
    done = subprocess.run([sys.executable, "-c", EDITION_PROBE], capture_output=True, text=True, env=env,
                          cwd=student_edition.folder, timeout=300, check=True)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows
    for grade_id, answer, status, message in rows:
        assert status == "fail", (grade_id, message)
        assert cut_mid_value(message) is None, (grade_id, message)
        assert not any(phrase in message for phrase in GENERIC), (grade_id, message)
        if "zq-unlikely-result" in message:  # the input tried, what came back, what was expected or the rule
            assert f"{answer}(" in message or "the check's case" in message, (grade_id, message)
            assert "Expected" in message or re.search(r"zq-unlikely-result'[:;,] \S", message), (grade_id, message)


# ---------- 5. no test machinery in a learner's copy ----------

@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_a_learner_copy_holds_no_test_markers(path):
    for cell in learner(path).cells:
        assert "NBVAL_" not in cell.source or cell.cell_type != "code" or not re.search(
            r"^\s*#\s*NBVAL_", cell.source, re.M), cell.source[:80]


def test_release_strips_marker_lines_only():
    assert without_test_markers("# NBVAL_IGNORE_OUTPUT\nfrom workbook.doctor import report\n\nreport()") == (
        "from workbook.doctor import report\n\nreport()")
    assert without_test_markers("x = 1\n  # NBVAL_SKIP\ny = 2") == "x = 1\ny = 2"
    kept = 'text = "# NBVAL_SKIP is a marker"\n# about NBVAL_SKIP'
    assert without_test_markers(kept) == kept


def test_the_solutions_keep_their_markers_for_nbval():
    assert "# NBVAL_IGNORE_OUTPUT" in (ROOT / "solutions" / "00_start_here.ipynb").read_text(encoding="utf-8")


# ---------- 6. getting around ----------

def test_notebook_00_says_how_to_work_a_notebook():
    text = "\n".join(c.source for c in learner(SOLUTIONS[0]).cells if c.cell_type == "markdown")
    for words in ("Shift+Enter", "Run All", "Restart Kernel", "model not found"):
        assert words in text, words


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def _markdown(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]
    return [path.read_text(encoding="utf-8")]


def _prose(text: str) -> str:
    return re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", text, flags=re.S))


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for text in map(_prose, _markdown(path)):
        found |= set(re.findall(r'<a\s+(?:id|name)="([^"]+)"', text))
        found |= {_slug(h) for h in re.findall(r"^#{1,6}\s+(.+)$", text, re.M)}
    return found


def broken_links(folder: Path) -> list[str]:
    """Every relative link of the README, the guides in docs/ and the notebooks whose file or #anchor does not exist."""
    problems = []
    pages = [folder / "README.md", *sorted((folder / "docs").glob("*.md")), *sorted((folder / "notebooks").glob("*.ipynb"))]
    for path in pages:
        for text in map(_prose, _markdown(path)):
            for target in LINK.findall(text):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    continue  # an address on the web: not the course's to check offline
                name, _, fragment = target.partition("#")
                dest = (path.parent / unquote(name)).resolve() if name else path
                where = f"{path.relative_to(folder)}: {target}"
                if not dest.exists():
                    problems.append(f"{where}: no such file")
                elif fragment and dest.suffix in (".md", ".ipynb") and fragment not in anchors(dest):
                    problems.append(f"{where}: no #{fragment} there")
    return problems


def test_every_link_of_the_course_lands(tmp_path):
    assert broken_links(ROOT) == []


def test_every_link_of_the_student_edition_lands(student_edition):
    assert broken_links(student_edition.folder) == []


def test_a_broken_link_or_anchor_is_caught(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("[guide](docs/glossary.md) [gone](docs/learner.md)\n", encoding="utf-8")
    (tmp_path / "docs" / "references.md").write_text('## References\n\n| <a id="r1"></a>R1 | x |\n', encoding="utf-8")
    (tmp_path / "docs" / "glossary.md").write_text("## Glossary\n\n[R1](references.md#r1) [R3](references.md#r3)\n",
                                                  encoding="utf-8")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "[R1](../docs/references.md#r1) [R2](../docs/references.md#r2) [g](../docs/glossary.md#glossary) "
        "[old](../README.md#r1) [next](01_missing.ipynb) `[code](not-a-link.md)` [web](https://example.com/x)")])
    nbformat.write(notebook, tmp_path / "notebooks" / "00_start.ipynb")
    assert sorted(broken_links(tmp_path)) == [
        "README.md: docs/learner.md: no such file",
        "docs/glossary.md: references.md#r3: no #r3 there",
        "notebooks/00_start.ipynb: ../README.md#r1: no #r1 there",
        "notebooks/00_start.ipynb: ../docs/references.md#r2: no #r2 there",
        "notebooks/00_start.ipynb: 01_missing.ipynb: no such file",
    ]


def test_the_editions_glossary_is_not_empty(student_edition):
    text = (student_edition.folder / "docs" / "glossary.md").read_text(encoding="utf-8")
    glossary = text.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    assert glossary.count("\n| ") >= 10, glossary[:300]
    assert "make grade" not in glossary, "a row naming what the edition lacks stays out"


def test_a_table_loses_only_the_rows_that_name_what_the_edition_lacks():
    from workbook.handout import _kept_part

    table = "| a | b |\n|---|---|\n| tool | x |\n| hidden check | run by `make grade` |"
    assert _kept_part(table) == "| a | b |\n|---|---|\n| tool | x |"
    assert _kept_part("| a | b |\n|---|---|\n| only | `make grade` |") == ""
    assert _kept_part("Run `make grade` for it.") == "" and _kept_part("Plain words.") == "Plain words."


def test_the_solutions_use_ast_parseable_reveals():
    """Every reveal of an exercise's answer names an exercise that exists (a typo would fail at run time)."""
    for path in SOLUTIONS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and "answer_of=" in cell.source:
                for node in ast.walk(ast.parse(cell.source)):
                    if isinstance(node, ast.keyword) and node.arg == "answer_of":
                        get_exercise(node.value.value)


def test_a_quiz_check_button_keeps_enter_away_from_jupyterlab_shortcuts():
    """Enter on a focused Check button must press it, not switch the cell to edit mode."""
    from workbook.quiz import lesson_quiz

    helper = lesson_quiz("00").widget().children[-1]
    assert ".jupyter-widgets button" in helper.value and "data-lm-suppress-shortcuts" in helper.value


def test_make_check_prints_the_terminals_wording_within_the_width():
    """`workbook check` on an untouched learner copy: save and run make check again, never "run this cell"."""
    done = subprocess.run([sys.executable, "-m", "workbook", "check", "00"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    out = done.stdout
    assert "ex00-model-is-told: not done yet" in out and "run make check again" in out, out
    assert "run this cell" not in out
    verdicts = out.split("...\n", 1)[1].split("\n\n")[0]
    assert all(len(line) <= WIDTH for line in verdicts.splitlines()), verdicts
