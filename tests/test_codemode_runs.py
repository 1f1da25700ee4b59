"""The cold-chain tools, their two description sets, the three measured runs and the CLI."""
from __future__ import annotations

import re

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import runs
from tooldesign.codemode.__main__ import main
from tooldesign.codemode.registry import MAX_DESCRIPTION_CHARS


def named(field: str, text: str) -> bool:
    return re.search(rf"\b{re.escape(field)}\b", text) is not None


@pytest.mark.parametrize("code", cc.CODES)
def test_corrected_descriptions_name_every_result_field_and_drafts_do_not(code):
    fields = cc.result_fields(code)
    assert fields and all(named(f, cc.CORRECTED[code]) for f in fields)
    assert not all(named(f, cc.DRAFT[code]) for f in fields)
    for text in (cc.CORRECTED[code], cc.DRAFT[code]):
        assert len(text) <= MAX_DESCRIPTION_CHARS and "\n" not in text


def test_drafts_never_name_the_fields_the_draft_program_got_wrong():
    assert not named("temp_c", cc.DRAFT[cc.READINGS]) and not named("max_temp_c", cc.DRAFT[cc.LIMITS])


def test_readings_description_says_what_shipment_id_is():
    text = cc.CORRECTED[cc.READINGS]
    assert "CC_LIST_SHIPMENTS" in text and "SHP-" in text


def test_tools_return_the_course_data():
    assert len(cc.list_shipments({})) == 24
    assert {s["product_class"] for s in cc.list_shipments({"product_class": "FROZEN"})} == {"FROZEN"}
    assert len(cc.get_readings({"shipment_id": 108})["readings"]) == 49
    assert {row["product_class"]: row["claim_per_hour_eur"] for row in cc.get_limits({})} == {
        "FROZEN": 240, "CHILLED": 120}


@pytest.mark.parametrize("bad", ["SHP-2047", True, 99, None])
def test_readings_refuse_anything_but_a_known_numeric_id(bad):
    with pytest.raises(ValueError, match="shipment_id"):
        cc.get_readings({"shipment_id": bad})


def test_list_refuses_an_unknown_class():
    with pytest.raises(ValueError, match="FROZEN, CHILLED"):
        cc.list_shipments({"product_class": "frozen"})


@pytest.fixture(scope="module")
def records():
    return {record.run: record for record in runs.all_runs()}


def test_classic_run_makes_26_calls_and_carries_every_reading(records):
    classic = records["classic"]
    assert (classic.model_calls, classic.program_calls) == (26, 0)
    assert classic.chars_by_kind()["tool result"] > 48_000
    assert classic.answer == "RESULT: SHP-2047, SHP-2052, SHP-2061 | 1920"


def test_code_mode_runs_reach_the_same_answer_with_less_context(records):
    classic, code, only = (records[name] for name in runs.RUN_NAMES)
    assert code.answer == only.answer == classic.answer
    assert classic.context_chars > code.context_chars > only.context_chars
    assert (code.model_calls, only.model_calls) == (3, 1)
    assert code.program_calls == only.program_calls == 26


def test_code_only_run_has_no_bulk_tools_and_no_tool_results(records):
    only = records["code mode, bulk code only"]
    assert only.direct_tools == (cc.LIMITS, "run_code")
    assert set(only.chars_by_kind()) == {"tool definitions", "program", "program output"}


def test_compare_runs_table_and_reported_figures(tmp_path):
    table = runs.compare_runs(tmp_path / "runs.sqlite")
    assert table["model tool calls"].tolist() == [26, 3, 1]
    assert (tmp_path / "runs.sqlite").exists()
    reported = runs.REPORTED.set_index("run")
    assert reported["tool calls (reported)"].tolist() == [26, 5, 1]
    assert reported["input tokens (reported)"].tolist() == [34_413, 20_280, 3_981]
    assert reported["seconds (reported)"].tolist() == [46.6, 48.0, 15.4]
    assert all("reported" in column for column in reported.columns)


def test_plot_runs_has_titles_and_labels():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = runs.plot_runs(runs.compare_runs())
    assert all(ax.get_title() and ax.get_ylabel() for ax in fig.axes)
    plt.close(fig)


def test_cli_prints_the_verification_rows(capsys):
    assert main(["verify"]) == 0
    out = capsys.readouterr().out
    assert "CC_GET_READINGS      code     1" in out and "CC_GET_LIMITS, run_code" in out
