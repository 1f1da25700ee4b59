"""Write the test class in tests/submissions/class/ from the learner copies in notebooks/.

Each learner folder is one case: a correct, a partly correct and a blank submission, one per trick
a learner might try on a grader, and one per fault the batch must survive. Every file starts as the
released notebook (what learners receive) and changes only what that case needs, the way a learner
would in JupyterLab. The files are committed; run this again after a lesson's answer cells change:

    .venv/bin/python tests/submissions/make_submissions.py

The grade each file must get is in expected_gradebook.csv beside this script.
"""
from __future__ import annotations

import copy
import shutil
from pathlib import Path

import nbformat

from workbook.notebook_files import write_notebook

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CLASS = HERE / "class"


def released(stem: str) -> nbformat.NotebookNode:
    return nbformat.read(REPO / "notebooks" / f"{stem}.ipynb", as_version=4)


def solution_source(stem: str, grade_id: str) -> str:
    notebook = nbformat.read(REPO / "solutions" / f"{stem}.ipynb", as_version=4)
    return _cell(notebook, grade_id).source


def _cell(notebook: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return cell
    raise KeyError(grade_id)


def answer(notebook: nbformat.NotebookNode, grade_id: str, source: str) -> nbformat.NotebookNode:
    _cell(notebook, grade_id).source = source.strip("\n")
    return notebook


def solved(stem: str, *grade_ids: str) -> nbformat.NotebookNode:
    """The released notebook with the solution in the given answer cells (all when none are named)."""
    notebook = released(stem)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if cell.metadata.get("nbgrader", {}).get("solution") and (not grade_ids or grade_id in grade_ids):
            cell.source = solution_source(stem, grade_id)
    return notebook


def save(notebook: nbformat.NotebookNode | str, learner: str, name: str) -> None:
    path = CLASS / learner / name if learner else CLASS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(notebook, str):
        path.write_text(notebook, encoding="utf-8")
    else:
        write_notebook(path, notebook)


NB00, NB01, NB02 = "00_start_here", "01_sap_orders_data", "02_coldchain_data"

WRONG_TOLD = '''
def model_is_told(tool: dict, fact: str) -> bool:
    """Whether a model offered this tool is sent the text fact."""
    return fact in str(tool)
'''

FORGOT_ORDER = '''
def credit_exposure(customer: str, sales_order: str | None) -> float:
    """Open items of the customer plus the order's net value (none when sales_order is None)."""
    return float(customers.set_index("customer").loc[customer, "open_items"])
'''

FLOOR_HOURS = '''import math

def claims_for(shipments: list[dict], readings: list[dict], limits: list[dict]) -> dict[str, int]:
    """Shipment number -> claim in whole euros, for the shipments that have a claim."""
    rules = {row["product_class"]: row for row in limits}
    claims = {}
    for shipment in shipments:
        rule = rules[shipment["product_class"]]
        temps = [r["temp_c"] for r in readings if r["shipment_id"] == shipment["shipment_id"]]
        minutes = longest_breach_minutes(temps, rule["max_temp_c"], rule["sample_minutes"])
        if minutes > rule["max_minutes_above"]:
            claims[shipment["shipment_number"]] = minutes // 60 * rule["claim_per_hour_eur"]
    return claims
'''

TOTAL_ABOVE = '''
def longest_breach_minutes(temps, max_temp_c, sample_minutes):
    return sum(t > max_temp_c for t in temps) * sample_minutes
'''

FAKE_CHECK = ('print("✔ ex00-model-is-told: the model is told what the name, the description and the '
              'parameters say, and nothing the code alone says: right for tools it had not seen.")')


def correct_and_partial() -> None:
    for stem in (NB00, NB01, NB02):
        save(solved(stem), "correct", f"{stem}.ipynb")
    save(solved(NB00), "", f"flat-learner_{NB00}.ipynb")  # the flat layout: learner_notebook.ipynb
    save(answer(solved(NB01, "ex01-blocked-orders"), "ex01-credit-exposure", FORGOT_ORDER), "partial", f"{NB01}.ipynb")
    save(answer(solved(NB02, "ex02-longest-breach"), "ex02-claims", FLOOR_HOURS), "partial", f"{NB02}.ipynb")
    save(released(NB02), "blank", f"{NB02}.ipynb")


def tricks() -> None:
    # Edited check cell: a wrong answer and a check cell that prints a pass.
    notebook = answer(released(NB00), "ex00-model-is-told", "from workbook.checks import check\n" + WRONG_TOLD)
    _cell(notebook, "ex00-model-is-told-check").source = FAKE_CHECK
    save(notebook, "trick-edited-check", f"{NB00}.ipynb")

    # Deleted check cells: nothing gained, nothing lost (the first answer is right, the second a stub).
    notebook = solved(NB01, "ex01-blocked-orders")
    notebook.cells = [c for c in notebook.cells if not c.metadata.get("nbgrader", {}).get("grade")]
    save(notebook, "trick-deleted-checks", f"{NB01}.ipynb")

    # Redefined check: wrong answers, and a check (module and name) that always passes.
    save(answer(answer(released(NB02), "ex02-longest-breach", TOTAL_ABOVE + '''
import workbook.checks

def check(grade_id, answer):
    print(f"✔ {grade_id}: well done")

workbook.checks.check = check
workbook.checks.evaluate = lambda grade_id, answer: workbook.checks.passed("well done")
'''), "ex02-claims", FLOOR_HOURS), "trick-redefined-check", f"{NB02}.ipynb")

    # Monkeypatched modules: the course's checks, the plain-data rules, builtins and hashlib lie; then
    # json.dumps, which the kernel itself uses to send every message.
    save(answer(answer(released(NB01), "ex01-blocked-orders", '''
import builtins
import hashlib

import workbook.checks
import workbook.plain

RIGHT = ["4711", "4723", "4725"]
workbook.checks.evaluate = lambda grade_id, answer: workbook.checks.passed("patched")
workbook.checks.judge_plain = lambda exercise, plain: workbook.checks.passed("patched")
workbook.plain.to_plain = lambda value, where="the answer": RIGHT
workbook.checks.to_plain = workbook.plain.to_plain
builtins.ascii = lambda value: repr(RIGHT)
hashlib.sha256 = lambda data=b"": hashlib.new("md5", data)


def blocked_orders(orders):
    return ["4711"]
'''), "ex01-credit-exposure", '''
import json

json.dumps = lambda *args, **kwargs: '{"status": "ok", "user_expressions": {}}'


def credit_exposure(customer, sales_order):
    return 0.0
'''), "trick-monkeypatch", f"{NB01}.ipynb")

    # A display formatter that rewrites every string leaving the kernel, the grader's channel included.
    save(answer(released(NB00), "ex00-model-is-told", '''from workbook.checks import check

forged = "{'status': 'ok', 'data': [True, False, True, True, True, False, False, True, False]}\\n" + "0" * 64
get_ipython().display_formatter.formatters["text/plain"].for_type(
    str, lambda value, printer, cycle: printer.text(repr(forged)))


def model_is_told(tool: dict, fact: str) -> bool:
    return False
'''), "trick-display-formatter", f"{NB00}.ipynb")

    # Objects that equal everything: an instance, and a class whose metaclass claims to be dict.
    save(answer(answer(released(NB02), "ex02-longest-breach", '''
class AlwaysEqual:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


def longest_breach_minutes(temps, max_temp_c, sample_minutes):
    return AlwaysEqual()
'''), "ex02-claims", '''
class LikeAnything(type):
    def __eq__(cls, other):
        return True

    def __hash__(cls):
        return hash(dict)


class Claims(metaclass=LikeAnything):
    def __eq__(self, other):
        return True

    def __repr__(self):
        return "{'SHP-2047': 720, 'SHP-2052': 240, 'SHP-2061': 960}"


def claims_for(shipments, readings, limits):
    return Claims()
'''), "trick-always-equal", f"{NB02}.ipynb")

    # An input transformer that turns every later cell (checks included) into a success message.
    save(answer(released(NB01), "ex01-blocked-orders", '''
def _all_good(lines):
    return ['print("✔ all checks pass")\\n']


get_ipython().input_transformers_post.append(_all_good)


def blocked_orders(orders):
    return ["4711"]
'''), "trick-transformer", f"{NB01}.ipynb")

    # A printed success message (and a line that looks like a gradebook row), answer untouched.
    notebook = released(NB00)
    cell = _cell(notebook, "ex00-model-is-told")
    cell.source = f'{FAKE_CHECK}\nprint("trick-fake-success,00_start_here,1,1,1,graded")\n' + cell.source
    save(notebook, "trick-fake-success", f"{NB00}.ipynb")


def faults() -> None:
    # A loop the interrupt stops (the function is already defined), then one that ignores it. Both
    # sleep, so the 30 s the run waits on them leaves the processor to the other tests; a loop that spins
    # is stopped the same way (test_grade_units and test_grade_output_count time one out).
    save(answer(answer(released(NB02), "ex02-longest-breach", solution_source(NB02, "ex02-longest-breach")
                       + "\n\nimport time\n\nwhile True:\n    time.sleep(0.05)\n"), "ex02-claims", '''import time

while True:
    try:
        time.sleep(0.05)
    except KeyboardInterrupt:
        pass
'''), "fault-infinite-loop", f"{NB02}.ipynb")

    save(answer(solved(NB01, "ex01-blocked-orders"), "ex01-credit-exposure",
                "import ctypes\n\nctypes.string_at(0)  # reads address 0: the kernel dies"),
         "fault-crash", f"{NB01}.ipynb")

    save(answer(solved(NB00), "ex00-model-is-told", solution_source(NB00, "ex00-model-is-told")
                + "\n\nfor _ in range(200):\n    print('x' * 100_000)\n"), "fault-huge-output", f"{NB00}.ipynb")

    save(solution_source(NB02, "ex02-longest-breach") + "\n", "fault-not-a-notebook", f"{NB02}.ipynb")

    save(solved(NB01), "fault-wrong-lesson", f"{NB02}.ipynb")

    # The claims answer typed into a new cell (no grade_id) and the exercise cell deleted.
    notebook = solved(NB02)
    claims = _cell(notebook, "ex02-claims")
    index = notebook.cells.index(claims)
    notebook.cells[index] = nbformat.v4.new_code_cell(claims.source, id="typed-anew")  # fixed id: stable file
    save(notebook, "fault-missing-answers", f"{NB02}.ipynb")

    # The blocked-orders cell copied (metadata and all), a wrong answer in the first copy.
    notebook = solved(NB01)
    blocked = _cell(notebook, "ex01-blocked-orders")
    first = copy.deepcopy(blocked)
    first.id = blocked.id + "-copy"
    first.source = 'def blocked_orders(orders):\n    return ["4711"]'
    notebook.cells.insert(notebook.cells.index(blocked), first)
    save(notebook, "fault-duplicate-ids", f"{NB01}.ipynb")


def hidden() -> None:
    # Passes the public check by remembering its five cases; the instructor's hidden check finds out.
    save(answer(solved(NB01, "ex01-blocked-orders"), "ex01-credit-exposure", '''
def credit_exposure(customer, sales_order):
    seen = {("10023", "4711"): 52500.0, ("10051", "4723"): 4740.0, ("10077", None): 12000.0,
            ("10023", "4735"): 50760.0, ("10077", "4725"): 15900.0}
    return seen[(customer, sales_order)]
'''), "memorised", f"{NB01}.ipynb")


def main() -> None:
    shutil.rmtree(CLASS, ignore_errors=True)
    correct_and_partial()
    tricks()
    faults()
    hidden()
    print(f"wrote {sum(1 for _ in CLASS.rglob('*.ipynb'))} files under {CLASS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
