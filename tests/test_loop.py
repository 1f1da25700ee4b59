"""Lesson 16's package: the loop's accounting, the four carriers, the facts and the tables."""
from __future__ import annotations

import json

import pytest

from tooldesign.dispatch import ToolCall
from tooldesign.loop import FACTS, STEPS, kept, lost, per_call, run_task, techniques
from tooldesign.loop import shrink
from tooldesign.loop.__main__ import main
from tooldesign.loop.measure import TECHNIQUES, plot_per_call, plot_techniques, says_what_was_cut
from tooldesign.loop.transcript import SYSTEM_PROMPT, Exchange, as_is, run_steps
from tooldesign.loop.widgets import readout, readout_text, truncation_slider
from tooldesign.tools import tool_set


# ---------- the accounting ----------

def test_every_model_call_resends_the_fixed_part_and_everything_before_it():
    run = run_task("mirror")
    fixed = run.calls[0].chars
    assert len(run.calls) == len(run.exchanges) + 1 == 5
    for number, call in enumerate(run.calls):
        assert call.fixed_chars == fixed
        assert call.conversation_chars == sum(e.chars for e in run.exchanges[:number])
    assert run.total_chars == sum(c.chars for c in run.calls)
    assert run.total_tokens == run.total_chars // 4


def test_the_fixed_part_is_system_prompt_definitions_and_request():
    run = run_task("designed")
    definitions = json.dumps(tool_set("designed").definitions(), ensure_ascii=False)
    from tooldesign.loop import REQUEST
    assert run.calls[0].chars == len(SYSTEM_PROMPT) + len(definitions) + len(REQUEST)


def test_an_exchange_counts_the_call_block_and_the_result():
    call = ToolCall("get_credit", {"id": "10023"}, "call_9")
    exchange = Exchange(call, "abc")
    assert exchange.chars == len(json.dumps(call.block(), ensure_ascii=False)) + 3


def test_both_sets_do_the_same_four_steps():
    assert len(STEPS["mirror"]) == len(STEPS["designed"]) == 4
    with pytest.raises(ValueError, match="choose one of"):
        run_task("other")


def test_the_designed_release_goes_through_the_gate_and_files_a_draft():
    run = run_task("designed")
    last = json.loads(run.exchanges[-1].result)
    assert last["status"] == "waiting_for_approval" and last["sales_order"] == "4711"


def test_mirror_sends_more_over_the_task_though_its_definitions_are_smaller():
    mirror, designed = per_call()
    assert mirror.calls[0].tokens < designed.calls[0].tokens
    assert mirror.calls[1].tokens > designed.calls[1].tokens
    assert mirror.total_tokens > designed.total_tokens


def test_runs_are_deterministic():
    assert run_task("mirror").rows() == run_task("mirror").rows()


# ---------- the carriers ----------

def test_truncation_with_and_without_a_note():
    text = "x" * 50
    assert shrink.truncate_text(text, 50) == text
    assert shrink.truncate_text(text, 10, note=False) == "x" * 10
    noted = shrink.truncate_text(text, 10)
    assert noted.startswith("x" * 10) and "40 of 50" in noted and "[cut:" in noted
    with pytest.raises(ValueError, match="at least 1"):
        shrink.truncate_text(text, 0)


def test_the_package_truncation_is_no_answer_to_the_lesson_exercise():
    """The course's character cut is the lesson's instrument; the exercise asks for a cut at whole records."""
    from workbook.checks import FAIL, evaluate
    verdict = evaluate("ex16-cut-records", lambda rows, limit: shrink.truncate_text(json.dumps(rows), limit))
    assert verdict.status == FAIL and "return a dict" in verdict.message


def test_a_page_has_the_rows_a_total_and_a_cursor():
    result = {"d": {"results": [{"SalesOrder": str(n)} for n in range(5)]}}
    first = shrink.page_of(result, 0, 2)
    assert first["d"]["results"] == [{"SalesOrder": "0"}, {"SalesOrder": "1"}]
    assert first["d"]["total"] == 5 and first["d"]["next_cursor"] == "2"
    last = shrink.page_of(result, 4, 2)
    assert last["d"]["results"] == [{"SalesOrder": "4"}] and last["d"]["next_cursor"] is None
    assert result["d"]["results"][0] == {"SalesOrder": "0"} and len(result["d"]["results"]) == 5, "not mutated"
    assert shrink.page_of({"limit": 1.0}, 0) == {"limit": 1.0}


def test_reading_every_page_adds_one_round_trip_per_page():
    call = ToolCall("query", {"entity": "A_SalesOrder"}, "c1")
    rows = {"d": {"results": [{"SalesOrder": str(n)} for n in range(7)]}}
    exchanges = shrink.paginate(2, read_all=True)(call, rows, lambda c: None)
    assert len(exchanges) == 4
    assert [e.call.arguments.get("cursor") for e in exchanges] == [None, "2", "4", "6"]
    assert len(shrink.paginate(2)(call, rows, lambda c: None)) == 1
    with pytest.raises(ValueError):
        shrink.paginate(0)


def test_field_selection_keeps_only_the_named_fields_of_orders():
    carrier = shrink.select_fields(("SalesOrder", "TotalNetAmount"))
    result = {"d": {"results": [{"SalesOrder": "1", "TotalNetAmount": "2", "Other": "3"}]}, "limit": 5}
    (exchange,) = carrier(ToolCall("query", {}), result, lambda c: None)
    assert json.loads(exchange.result) == {"d": {"results": [{"SalesOrder": "1", "TotalNetAmount": "2"}]}, "limit": 5}


def test_summaries_of_a_list_a_record_and_a_small_result():
    mirror = run_task("mirror")
    listing, record, credit = (json.loads(e.result) for e in mirror.exchanges[:3])
    assert shrink.summary_of(listing).startswith("7 orders (4711, 4730")
    assert "4711 (TotalCreditCheckStatus B)" in shrink.summary_of(listing)
    assert shrink.summary_of(record) == ("Order 4711 for customer 10023: 1800.00 EUR, blocked: "
                                         "TotalCreditCheckStatus B; 2 items.")
    assert shrink.summary_of(credit) == json.dumps(credit)


# ---------- facts and the technique table ----------

def test_everything_carried_keeps_every_fact():
    assert kept(run_task("mirror").context) == [f.id for f in FACTS]
    assert lost("") == [f.id for f in FACTS]


def test_each_technique_saves_or_costs_and_drops_what_it_drops():
    rows = {r.technique: r for r in techniques()}
    assert len(rows) == len(TECHNIQUES)
    base = rows["mirror, as is"]
    assert base.saved == 0 and not base.lost
    assert set(rows["truncate at 1,000, no note"].lost) == {"count", "newest", "items"}
    assert not rows["truncate at 1,000, no note"].says_cut and rows["truncate at 1,000, with note"].says_cut
    assert 0 < rows["truncate at 1,000, with note"].tokens - rows["truncate at 1,000, no note"].tokens < 200
    assert rows["pages of 2, first page"].lost == ("newest",) and rows["pages of 2, first page"].says_cut
    every = rows["pages of 2, every page"]
    assert every.lost == () and every.saved < 0 and every.model_calls == 8
    assert set(rows["select needed fields"].lost) == {"items", "date"}
    assert set(rows["summary"].lost) == {"items", "date"}
    assert set(rows["designed, as is"].lost) == {"count", "newest", "items", "date"}
    for name, row in rows.items():
        if name not in ("mirror, as is", "pages of 2, every page"):
            assert row.saved > 0 and row.lost, name


def test_says_what_was_cut_spots_a_note_or_a_cursor():
    assert says_what_was_cut('x\n[cut: 3 of 5 characters not shown.]')
    assert says_what_was_cut('{"next_cursor": "2"}')
    assert not says_what_was_cut('{"next_cursor": null}')


def test_the_plots_have_titles_and_labelled_axes():
    import matplotlib
    matplotlib.use("Agg")
    for ax in (plot_per_call(per_call()), plot_techniques(techniques())):
        assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
        assert "tokens" in (ax.get_xlabel() + ax.get_ylabel())


# ---------- the slider and the command ----------

def test_the_slider_readout_follows_the_limit():
    small, large = readout(500), readout(6000)
    assert small["tokens"] < large["tokens"] and len(small["kept"]) < len(large["kept"])
    assert large["lost"] == [] and not large["says_cut"]
    assert readout(500, note=False)["tokens"] < small["tokens"] and not readout(500, note=False)["says_cut"]
    assert "facts kept" in readout_text(1000)
    with pytest.raises(ValueError, match="between"):
        readout(10)


def test_the_slider_draws_its_first_state():
    widget = truncation_slider()
    assert "facts kept" in widget.children[1].value
    slider = widget.children[0].children[0]
    slider.value = 6000
    assert "8/8 facts kept" in widget.children[1].value


def test_the_command_prints_both_tables(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "mirror" in out and "designed" in out and "truncate at 1,000, with note" in out
    for run in per_call():
        assert f"total over the task: {run.total_tokens:,} tokens" in out
    assert main(["--bad"]) == 2
