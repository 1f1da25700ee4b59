"""ex01-blocked-orders and ex02-claims were value exercises over the course's fixed data, whose answer
the lessons print and the package computes (is_blocked, claim_eur, the designed tools, coldchain.claims).
Now each is a function judged on the lesson's cases and on inputs drawn at grade time, so an answer
built only from what the student edition ships and prints scores 0, beside an honest control and a
right answer written another way that score full marks.

Two layers: the grader's own judging (fixed cases, then drawn inputs and the reference) called in this
process on many answers, fast; and one real grading run over notebooks 01 and 02, where the borrowed
neighbours are also flagged for review.
"""
from __future__ import annotations

import copy
import textwrap

import nbformat
import pytest

from tooldesign.data import coldchain, sap
from workbook import SOLUTIONS_DIR
from workbook.checks import FAIL, PASS, _call, evaluate, judge_plain
from workbook.exercises import get_exercise, grading_for
from workbook.exercises.lesson01 import BLOCKED_PROBES, COURSE_ORDERS, reference_blocked
from workbook.exercises.lesson02 import CLAIM_PROBES, reference_claims
from workbook.grade.borrowed import borrowed
from workbook.grade.runner import _judge_drawn, draw_for
from workbook.release import read_notebook
from grading_run import grade_unsandboxed

NB01, NB02 = "01_sap_orders_data", "02_coldchain_data"
COURSE_BLOCKED = ["4711", "4723", "4725"]
COURSE_CLAIMS = {"SHP-2047": 720, "SHP-2052": 240, "SHP-2061": 960}


def _solution(stem: str, grade_id: str) -> str:
    for cell in read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb").cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade_id") == grade_id and meta.get("solution"):
            return cell.source
    raise KeyError(grade_id)


# ---------- the answers: what the edition ships and prints, and honest ones ----------

LITERAL_BLOCKED = '''
def blocked_orders(orders):
    return ["4711", "4723", "4725"]  # read off the table the lesson prints
'''
TOOL_BLOCKED = '''
from tooldesign.tools import tool_set

search = tool_set("designed")["sales_order_search"]


def blocked_orders(orders):
    found = set()
    for customer in ("10023", "10051", "10077"):
        result = search.handler({"customer": customer, "blocked_only": True, "limit": 20})
        found |= {row["sales_order"] for row in result["orders"]}
    return sorted(found)
'''
SUMMARY_BLOCKED = '''
from tooldesign.tools import tool_set

summary = tool_set("designed")["sales_order_get_block_summary"]


def blocked_orders(orders):
    numbers = {h["SalesOrder"] for h in orders}
    return sorted(n for n in numbers
                  if summary.handler({"sales_order": n, "detail": "concise"}).get("blocked"))
'''
RULE_BLOCKED = '''
from tooldesign.data import sap


def blocked_orders(orders):
    return sorted({h["SalesOrder"] for h in orders if sap.is_blocked(h)})
'''
COPIED_RULE_BLOCKED = '''
FIELDS = ("DeliveryBlockReason", "HeaderBillingBlockReason", "TotalCreditCheckStatus")


def blocked_orders(orders):
    # the package's rule as notebook 00 printed it before: str() turns None into the code "None"
    return sorted({h["SalesOrder"] for h in orders if any(str(h.get(f, "")).strip() for f in FIELDS)})
'''
PANDAS_BLOCKED = '''
import pandas as pd


def blocked_orders(orders):
    table = pd.DataFrame(orders, columns=["SalesOrder", *sap.BLOCK_FIELDS])
    codes = table[list(sap.BLOCK_FIELDS)].fillna("").astype(str).apply(lambda column: column.str.strip())
    return sorted(table.loc[codes.ne("").any(axis=1), "SalesOrder"].drop_duplicates().tolist())
'''
LOOP_BLOCKED = '''
def blocked_orders(orders):
    out = []
    for header in orders:
        codes = [header.get(name) or "" for name in
                 ("TotalCreditCheckStatus", "HeaderBillingBlockReason", "DeliveryBlockReason")]
        if any(isinstance(c, str) and c.strip() for c in codes) and header["SalesOrder"] not in out:
            out.append(header["SalesOrder"])
    out.sort()
    return out
'''

LITERAL_CLAIMS = '''
def claims_for(shipments, readings, limits):
    return {"SHP-2047": 720, "SHP-2052": 240, "SHP-2061": 960}  # read off the table the lesson prints
'''
TABLE_CLAIMS = '''
from tooldesign.data import coldchain


def claims_for(shipments, readings, limits):
    table = coldchain.claims()
    return {r.shipment_number: int(r.claim_eur) for r in table.itertuples() if r.claim_eur > 0}
'''
RULE_CLAIMS = '''
from tooldesign.data import coldchain


def claims_for(shipments, readings, limits):
    rules = {row["product_class"]: row for row in limits}
    found = {}
    for s in shipments:
        rule = rules[s["product_class"]]
        temps = [r["temp_c"] for r in readings if r["shipment_id"] == s["shipment_id"]]
        minutes = longest_breach_minutes(temps, rule["max_temp_c"], rule["sample_minutes"])
        eur = coldchain.claim_eur(minutes, rule["max_minutes_above"], rule["claim_per_hour_eur"])
        if eur:
            found[s["shipment_number"]] = eur
    return found
'''
PANDAS_CLAIMS = '''
import math

import pandas as pd


def claims_for(shipments, readings, limits):
    if not shipments:
        return {}
    log = pd.DataFrame(readings, columns=["shipment_id", "temp_c"])
    table = pd.DataFrame(shipments).merge(pd.DataFrame(limits), on="product_class")
    found = {}
    for row in table.itertuples():
        above = (log.loc[log["shipment_id"] == row.shipment_id, "temp_c"] > row.max_temp_c).astype(int)
        runs = above.groupby((above == 0).cumsum()).sum()
        minutes = int(runs.max() if len(runs) else 0) * row.sample_minutes
        if minutes > row.max_minutes_above:
            found[row.shipment_number] = -(-minutes // 60) * int(row.claim_per_hour_eur)
    return found
'''


def _memorised(name: str, params: str, probes, reference) -> str:
    seen = {repr(tuple(args)): reference(*args) for args in probes}
    return f'''
SEEN = {seen!r}


def {name}({params}):
    return SEEN.get(repr(({params},)), {reference(*probes[-1])!r})
'''


MEMORISED_BLOCKED = _memorised("blocked_orders", "orders", BLOCKED_PROBES, reference_blocked)
MEMORISED_CLAIMS = _memorised("claims_for", "shipments, readings, limits", CLAIM_PROBES, reference_claims)

# grade_id -> {what it is: (answer cell, scores full marks?)}
ANSWERS = {
    "ex01-blocked-orders": {
        "course-table-literal": (LITERAL_BLOCKED, False),
        "designed-search-tool": (TOOL_BLOCKED, False),
        "designed-summary-tool": (SUMMARY_BLOCKED, False),
        "is-blocked-wrapper": (RULE_BLOCKED, False),
        "old-rule-copied": (COPIED_RULE_BLOCKED, False),
        "memorised-cases": (MEMORISED_BLOCKED, False),
        "control": (_solution(NB01, "ex01-blocked-orders"), True),
        "pandas-idiom": (PANDAS_BLOCKED, True),
        "loop-other-order": (LOOP_BLOCKED, True),
    },
    "ex02-claims": {
        "course-table-literal": (LITERAL_CLAIMS, False),
        "package-claims-table": (TABLE_CLAIMS, False),
        "claim-eur-wrapper": (RULE_CLAIMS, False),
        "memorised-cases": (MEMORISED_CLAIMS, False),
        "control": (_solution(NB02, "ex02-claims"), True),
        "pandas-idiom": (PANDAS_CLAIMS, True),
    },
}
CASES = [(gid, name, *answer) for gid, answers in ANSWERS.items() for name, answer in answers.items()]


def _define(grade_id: str, source: str):
    """The answer cell run as a notebook would run it: after the lesson's own cells it relies on."""
    from workbook.exercises.lesson02 import _longest

    namespace = {"sap": sap, "coldchain": coldchain,
                 "longest_breach_minutes": lambda temps, limit, every: _longest(temps, limit) * every}
    exec(compile(textwrap.dedent(source), f"<{grade_id}>", "exec"), namespace)
    return namespace[get_exercise(grade_id).answer]


def _graded_here(grade_id: str, function, seed: str):
    """The grader's verdict, in this process: the lesson's cases, then this run's drawn inputs."""
    exercise = get_exercise(grade_id)
    drawn = draw_for(exercise, seed)
    assert len(drawn.drawn) == grading_for(grade_id).draws  # every drawn input is a fair question
    results = [_call(function, copy.deepcopy(args)) for args in drawn.probes]
    verdict = judge_plain(exercise, results[: len(exercise.probes)])
    if verdict.passed:
        verdict = _judge_drawn(exercise, drawn, results[len(exercise.probes):]) or verdict
    return verdict


@pytest.mark.parametrize("grade_id, name, source, right", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_what_the_edition_ships_and_prints_earns_nothing_and_honest_answers_everything(grade_id, name, source,
                                                                                        right):
    function = _define(grade_id, source)
    flagged = borrowed(grade_id, source)
    for seed in ("s1", "s2", "s3"):
        verdict = _graded_here(grade_id, function, seed)
        earns = verdict.status == PASS and flagged is None
        assert earns == right, (name, seed, verdict.message, flagged)


def test_the_honest_answers_are_not_flagged_and_the_wrappers_are():
    for grade_id, name, source, right in CASES:
        flagged = borrowed(grade_id, source)
        if right:
            assert flagged is None, (grade_id, name, flagged)
    assert borrowed("ex01-blocked-orders", RULE_BLOCKED).neighbour == "tooldesign.data.sap:is_blocked"
    assert borrowed("ex01-blocked-orders", TOOL_BLOCKED).neighbour == "tool:sales_order_search"
    assert borrowed("ex01-blocked-orders", SUMMARY_BLOCKED).neighbour == "tool:sales_order_get_block_summary"
    assert borrowed("ex02-claims", RULE_CLAIMS).neighbour == "tooldesign.data.coldchain:claim_eur"
    # the package's table: its call, or its claim_eur column, whichever the reader meets first
    assert borrowed("ex02-claims", TABLE_CLAIMS).neighbour.startswith("tooldesign.data.coldchain:claim")


def test_a_literal_of_the_course_answer_fails_already_at_the_lessons_own_check():
    """In the learner's kernel too: the check's cases are not the course's data alone."""
    assert evaluate("ex01-blocked-orders", _define("ex01-blocked-orders", LITERAL_BLOCKED)).status == FAIL
    assert evaluate("ex02-claims", _define("ex02-claims", LITERAL_CLAIMS)).status == FAIL


def test_the_course_table_in_the_cases_is_the_course_data():
    orders = sap.orders()
    assert COURSE_ORDERS == orders[["SalesOrder", *sap.BLOCK_FIELDS]].to_dict("records")
    assert reference_blocked(COURSE_ORDERS) == COURSE_BLOCKED
    course = (coldchain.shipments().to_dict("records"),
              coldchain.readings()[["shipment_id", "temp_c"]].to_dict("records"), coldchain.limits().to_dict("records"))
    assert reference_claims(*course) == COURSE_CLAIMS
    table = coldchain.claims()
    assert {r.shipment_number: r.claim_eur for r in table.itertuples() if r.claim_eur > 0} == COURSE_CLAIMS


def test_no_case_and_no_drawn_input_is_the_course_data():
    """Nothing computed from the fixed data can pass: the drawn inputs never are the course's."""
    course_numbers = set(sap.orders()["SalesOrder"])
    course_shipments = set(coldchain.shipments()["shipment_number"])
    for seed in ("a", "b", "c", "d"):
        for args in draw_for(get_exercise("ex01-blocked-orders"), seed).drawn:
            assert not args[0] or {h["SalesOrder"] for h in args[0]} != course_numbers
        for args in draw_for(get_exercise("ex02-claims"), seed).drawn:
            assert not {s["shipment_number"] for s in args[0]} & course_shipments
    assert all(not {s["shipment_number"] for s in args[0]} & course_shipments for args in CLAIM_PROBES)


def test_the_draws_cover_the_rules_edges():
    """Over one run's draws, the edges a wrong rule trips on come up: an empty field written each way, a
    repeated header, a status code outside the block fields; a run of exactly the allowance, a claim."""
    headers = [h for seed in ("a", "b") for (orders,) in draw_for(get_exercise("ex01-blocked-orders"), seed).drawn
               for h in orders]
    values = [h.get(f, "missing") for h in headers for f in sap.BLOCK_FIELDS]
    assert {None, "", "missing"} <= set(values) and any(v not in (None, "", "missing") for v in values)
    assert any("OverallSDProcessStatus" in h for h in headers)
    claims = [reference_claims(*args) for seed in ("a", "b") for args in draw_for(get_exercise("ex02-claims"), seed).drawn]
    assert any(claims) and any(c == {} for c in claims)


# ---------- one real grading run: notebooks 01 and 02, honest and borrowed answers side by side ----------

@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    from workbook.notebook_files import write_notebook
    from workbook.release import learner_copy

    base = tmp_path_factory.mktemp("drawn")
    subs, out = base / "in", base / "out"
    learners = {
        "control": {"ex01-blocked-orders": ANSWERS["ex01-blocked-orders"]["control"][0],
                    "ex02-claims": ANSWERS["ex02-claims"]["control"][0]},
        "other-idiom": {"ex01-blocked-orders": PANDAS_BLOCKED, "ex02-claims": PANDAS_CLAIMS},
        "literal": {"ex01-blocked-orders": LITERAL_BLOCKED, "ex02-claims": LITERAL_CLAIMS},
        "package": {"ex01-blocked-orders": RULE_BLOCKED, "ex02-claims": RULE_CLAIMS},
        "tools": {"ex01-blocked-orders": TOOL_BLOCKED, "ex02-claims": TABLE_CLAIMS},
        "memorised": {"ex01-blocked-orders": MEMORISED_BLOCKED, "ex02-claims": MEMORISED_CLAIMS},
    }
    for learner, answers in learners.items():
        for stem in (NB01, NB02):
            notebook = learner_copy(read_notebook(SOLUTIONS_DIR / f"{stem}.ipynb"))
            for cell in notebook.cells:
                meta = cell.metadata.get("nbgrader", {})
                gid = meta.get("grade_id", "")
                if meta.get("solution") and not meta.get("grade"):
                    # the other exercise of the notebook is answered honestly: it keeps its points
                    cell.source = textwrap.dedent(answers.get(gid, _solution(stem, gid))).strip("\n")
            path = subs / learner / f"{stem}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_notebook(path, nbformat.from_dict(notebook))
    report = grade_unsandboxed(subs, out, prefix="wbd")
    return {(row.learner, row.notebook): row for row in report.rows}


def _points(row) -> dict[str, float]:
    return {e.grade_id: e.points for e in row.exercises}


@pytest.mark.parametrize("learner", ["control", "other-idiom"])
def test_honest_answers_score_full_marks_in_a_real_run(graded, learner):
    for stem in (NB01, NB02):
        row = graded[(learner, stem)]
        assert row.total == row.max > 0, [(e.grade_id, e.points, e.message) for e in row.exercises]


@pytest.mark.parametrize("learner", ["literal", "package", "tools", "memorised"])
def test_answers_from_the_edition_score_0_in_a_real_run(graded, learner):
    for stem, gid, other in ((NB01, "ex01-blocked-orders", "ex01-credit-exposure"),
                             (NB02, "ex02-claims", "ex02-longest-breach")):
        row = graded[(learner, stem)]
        points = _points(row)
        assert points[gid] == 0, (learner, row.exercises)
        assert points[other] > 0, (learner, row.exercises)  # the honest answer beside it keeps its points
    if learner in ("package", "tools"):
        assert "review ex01-blocked-orders" in graded[(learner, NB01)].reason
        assert "review ex02-claims" in graded[(learner, NB02)].reason
