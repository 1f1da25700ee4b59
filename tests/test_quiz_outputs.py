"""Questions about a lesson's own outputs stay true: each names the passage of the saved output its right
answer rests on (``Question.reads``), found there; and where the package computes the figure, the right
answer is checked against the package itself, so a change in the data or the tools fails here first."""

import json
import re
from pathlib import Path

import pytest

from workbook.quiz import lesson_quiz

ROOT = Path(__file__).resolve().parents[1]
LESSONS = [f"{n:02d}" for n in range(20)]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def saved_output(lesson: str) -> str:
    """Every text the lesson's solution notebook printed or displayed, whitespace squashed."""
    (path,) = sorted((ROOT / "solutions").glob(f"{lesson}_*.ipynb"))
    parts = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                parts.append("".join(output["text"]))
            elif "text/plain" in output.get("data", {}) and "application/vnd.jupyter.widget-view+json" not in output["data"]:
                parts.append("".join(output["data"]["text/plain"]))
    return _squash("\n".join(parts))


def right(lesson: str, start: str) -> str:
    """The right choice's text of the lesson's question that starts with ``start``."""
    (question,) = [q for q in lesson_quiz(lesson).questions if q.text.startswith(start)]
    return next(c.text for c in question.choices if c.correct)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_third_of_each_quiz_reads_the_lessons_outputs(lesson):
    questions = lesson_quiz(lesson).questions
    reading = [q for q in questions if q.reads]
    assert 3 * len(reading) >= len(questions), f"lesson {lesson}: {len(reading)} of {len(questions)} read its outputs"


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_output_question_rests_on_a_passage_the_notebook_printed(lesson):
    printed = saved_output(lesson)
    missing = [q.text for q in lesson_quiz(lesson).questions if q.reads and _squash(q.reads) not in printed]
    assert not missing, f"lesson {lesson}: not in the saved outputs any more: {missing}"


def test_a_passage_the_notebook_never_printed_is_caught():
    assert _squash("definitions about 9,999 tokens") not in saved_output("05")


# ---------------------------------------------------------------- the right answers, against the package


def test_01_the_customer_without_a_postal_code_is_the_one_with_delivery_block_01():
    from tooldesign.data import sap

    customers = sap.customers()
    (gap,) = customers[customers["postal_code"] == ""]["customer"]
    orders = sap.orders()
    (order,) = orders[orders["SoldToParty"] == gap].to_dict("records")
    answer = right("01", "The customers table shows one empty postal_code")
    assert f"({gap})" in answer and f"order {order['SalesOrder']}" in answer
    assert f"DeliveryBlockReason {order['DeliveryBlockReason']}" in answer


def test_01_and_04_the_exposure_is_open_items_plus_the_order():
    from tooldesign.tools import tool_set

    exposure = tool_set("designed")["customer_get_credit_exposure"].run({"customer": "10023", "sales_order": "4711"})
    assert f"{exposure['exposure']:,.0f} EUR" == right("01", "Customer 10023 owes")
    assert exposure["approver"] == right("04", "customer_get_credit_exposure for 10023")
    assert f"{exposure['percent_over_limit']:.1f} %" in "5.0 %"


def test_02_the_frozen_breach_of_150_minutes_claims_720_eur():
    from tooldesign.data import coldchain

    claims = coldchain.claims()
    row = claims[claims["shipment_number"] == "SHP-2047"].iloc[0]
    assert (int(row["longest_breach_min"]), int(row["claim_eur"])) == (150, 720)
    assert right("02", "A breach lasts 150 minutes").startswith(f"{int(row['claim_eur'])} EUR:")


def test_01_and_02_the_blocked_order_of_10023_and_the_id_of_shp_2047():
    from tooldesign.data import coldchain, sap

    orders = sap.orders()
    (blocked,) = [o["SalesOrder"] for o in orders.to_dict("records") if o["SoldToParty"] == "10023" and sap.is_blocked(o)]
    assert right("01", "The count printed").startswith(f"One, {blocked}:")
    shipments = coldchain.shipments()
    (sid,) = shipments[shipments["shipment_number"] == "SHP-2047"]["shipment_id"]
    assert right("02", "A tool takes shipment_id").startswith(f"{sid},")


def test_03_reading_the_biggest_result_first_costs_most():
    from tooldesign.tools import tool_set
    from tooldesign.tools.base import result_size

    mirror = tool_set("mirror")
    calls = [("get_order", {"id": "4711"}), ("get_credit", {"id": "10023"}),
             ("query", {"entity": "A_SalesOrder", "filter": "SoldToParty eq '10023'"})]
    sizes = [result_size(mirror[name].run(arguments)) for name, arguments in calls]

    def reread(sizes):
        return sum(sum(sizes[:k + 1]) for k in range(len(sizes)))

    assert (reread(sizes), reread(sizes[::-1])) == (8521, 18679)
    assert f"{max(sizes):,}-character query result came first" in right("03", "The reread cell")


def test_03_the_twin_descriptions_say_nothing_more_than_their_names():
    from tooldesign.tools import tool_set

    mirror = tool_set("mirror")
    answer = right("03", "For order 4711, get_order_status")
    assert f"'{mirror['get_order_status'].description}'" in answer
    assert f"'{mirror['get_order_details'].description}'" in answer


def test_04_the_search_note_names_the_missing_orders():
    answer = right("04", "sales_order_search for customer 10023")
    assert "2 older orders are missing" in answer  # total 7 - showing 5, as printed


def test_05_clean_costs_more_tokens():
    from tooldesign.lint import lint
    from tooldesign.tools import tool_set

    designed, mirror = lint(tool_set("designed")), lint(tool_set("mirror"))
    assert len(designed.findings) == 0 and len(mirror.findings) == 67
    assert f"about {designed.tokens / mirror.tokens:.1f} times" in right("05", "The designed set's report")


def test_06_the_stuffed_wording_costs_findings_and_tokens():
    from tooldesign.selection.report import wording_rows

    stuffed, plain = wording_rows()
    answer = right("06", "Beside its higher scores")
    assert f"{stuffed.findings} lint findings and {stuffed.tokens_per_call - plain.tokens_per_call} more tokens" in answer


def test_09_seven_fillers_fit_beside_the_cold_chain_tools():
    from tooldesign.codemode import BUDGET_BYTES, sizelimit

    sizes = sizelimit.entry_bytes()
    fixed = sizes["preamble"] + sizes["CC_LIST_SHIPMENTS"] + sizes["CC_GET_READINGS"] + sizes["CC_GET_LIMITS"]
    assert right("09", "With the sizes of exercise 3") == str((BUDGET_BYTES - fixed) // sizes["one filler"])


def test_16_the_note_and_the_pages_cost_what_the_questions_say():
    from tooldesign.loop import measure

    rows = {r.row()["technique"]: r.row() for r in measure.techniques()}
    bare, noted, every = rows["truncate at 1,000, no note"], rows["truncate at 1,000, with note"], rows["pages of 2, every page"]
    texts = " ".join(q.text for q in lesson_quiz("16").questions)
    assert f"with a note sent {noted['tokens sent (est.)']} tokens, without one {bare['tokens sent (est.)']}" in texts
    assert noted["facts kept"] == bare["facts kept"] == "5/8"
    assert f"sent {every['tokens sent (est.)']:,} tokens" in texts and every["model calls"] == 8 and every["tokens saved"] < 0
    assert right("16", "Reading every page").startswith("Each page is another round trip")


def test_17_the_gate_leaves_every_proposal_to_a_person():
    from tooldesign.injection import measure

    rows = {r.row()["defence"]: r.row() for r in measure.defence_rows()}
    gate, out = rows["approval gate only (notes raw)"], rows["leave free text out"]
    (question,) = [q for q in lesson_quiz("17").questions if q.text.startswith("In the defence table")]
    assert (f"shows {gate['reach a write proposal']} reaching a write proposal, {gate['drafted with no decision']} "
            f"drafted with no decision and {gate['a person must catch']} a person must catch") in question.text
    assert out["reach a write proposal"] == 0 and out["useful notes readable"] == "0/10"
    assert right("17", "Leaving free text out").startswith("The useful notes go too")


def test_19_the_designed_definitions_are_the_longer_ones():
    from tooldesign.selection.models import anthropic_tools
    from tooldesign.tools import tool_set

    designed, mirror = (len(json.dumps(anthropic_tools(tool_set(name)))) for name in ("designed", "mirror"))
    (question,) = [q for q in lesson_quiz("19").questions if q.text.startswith("For every script")]
    assert f"{designed:,} characters of definitions against {mirror:,}" in next(c.why for c in question.choices if c.correct)
