"""The four definition levels: every published figure, pinned exactly,
plus the parts the course adds (parameters, sweep, verdict)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldesign.levels import (LEVELS, PUBLISHED, SEED, TASKS, catalog_line, catalog_tokens,
                               correct_answer, level_table, levels_with, measure, run_task,
                               sweep, task_by_name, trace_frame, wire_call)
from tooldesign.levels.definitions import EXAMPLE_ARGUMENTS, call_tool
from tooldesign.levels.environment import SUBSCRIBERS, charge, meter_difference
from tooldesign.levels.stream import Stream, fnv1a, mix32, pick
from tooldesign.levels.sweep import pair_share_apart, run_to_run_band
from tooldesign.tokens import piece_tokens, pieces
from tooldesign.levels.tools import TOOLS, search_docs

# ---- the published figures ------------------------------------------------

TABLE = {  # level: calls, errors, valid, success A, success B, steps, tokens, tokens/answer
    "name only": (157, 113, 0.2803, 0.3333, 0.4167, 167, 27950, 3494),
    "name + description": (111, 56, 0.4955, 0.6667, 0.5833, 129, 27489, 1718),
    "name + description + schema": (74, 8, 0.8919, 0.7917, 0.7917, 97, 21387, 1126),
    "schema + example call": (74, 8, 0.8919, 0.9583, 0.9583, 97, 27886, 1212),
}


@pytest.fixture(scope="module")
def table():
    return level_table()


@pytest.mark.parametrize("name", list(TABLE))
def test_published_table_row(table, name):
    row = table.loc[name]
    got = tuple(row[c] for c in ("calls", "errors", "valid", "success A", "success B",
                                 "steps", "tokens", "tokens/answer"))
    assert got == TABLE[name]


def test_published_constant_matches_the_table():
    keys = ("calls", "errors", "valid", "success_a", "success_b", "steps", "tokens",
            "tokens_per_answer")
    assert {name: tuple(row[k] for k in keys) for name, row in PUBLISHED.items()} == TABLE


def test_seed_b_is_the_next_seed():
    assert [round(measure(n, SEED + 1).success, 4) for n in LEVELS] == \
        [row[4] for row in TABLE.values()]


def test_catalog_sizes():
    assert [catalog_tokens(level) for level in LEVELS.values()] == [10, 71, 97, 164]


def test_catalog_lines_of_the_consumption_tool():
    assert catalog_line(LEVELS[1], "tuketim") == "tuketim"
    assert catalog_line(LEVELS[3], "tuketim") == (
        "tuketim : iki endeks arasindaki farki metrekup olarak verir ( onceki , simdiki )")
    assert catalog_line(LEVELS[4], "tuketim").endswith(
        " ornek : tuketim ( onceki = 41200 , simdiki = 41255 )")


def test_g03_valid_but_wrong_at_level_3_right_at_level_4():
    task = task_by_name("G03")
    assert task.kind == "consumption" and correct_answer(task) == 52
    three, four = run_task(task, 3), run_task(task, 4)
    assert (three.answer, three.errors) == (99948, 1)
    assert (four.answer, four.errors) == (52, 1)
    # the wrong answer came from a call that raised no error: the swapped indexes
    swapped = trace_frame(three).loc[3]
    assert swapped["called"] == "tuketim" and not swapped["error"]
    assert swapped["arguments"]["onceki"] > swapped["arguments"]["simdiki"]


def test_eight_of_66_valid_calls_outside_the_sequence_at_level_4():
    result = measure(4)
    assert (result.foreign, result.valid_calls) == (8, 66)


def test_tokens_per_answer_is_tokens_over_correct():
    result = measure(3)
    assert result.correct == 19
    assert result.tokens_per_answer == pytest.approx(21387 / 19)


# ---- the world -------------------------------------------------------------

def test_world_sizes():
    assert len(SUBSCRIBERS) == 60 and len(TASKS) == 24 and len(TOOLS) == 5
    assert {t.kind for t in TASKS} == {"charge", "consumption", "document", "record"}
    assert list(SUBSCRIBERS)[0] == "A001" and list(SUBSCRIBERS)[-1] == "A060"
    for record in SUBSCRIBERS.values():
        assert 10_000 <= record["onceki"] <= record["simdiki"] < record["onceki"] + 70


def test_stream_is_fixed_by_its_seed():
    a, b = Stream(SEED), Stream(SEED)
    assert [a.next() for _ in range(5)] == [b.next() for _ in range(5)]
    assert mix32(SEED) != mix32(SEED + 1)
    assert fnv1a("") == 2166136261
    assert all(0.0 <= Stream(s).next() < 1.0 for s in range(100))


def test_pick_follows_cumulative_weights():
    weights = [0.30, 0.22, 0.20, 0.28]
    assert [pick(u, weights) for u in (0.0, 0.29, 0.30, 0.6, 0.99, 0.999999)] == \
        [0, 0, 1, 2, 3, 3]


def test_token_rule():
    assert pieces("sayac_oku") == ["sayac", "_oku"]
    assert pieces("a,b") == ["a", ",", "b"]
    assert piece_tokens("abcdefghij") == 2


def test_tools_report_their_own_errors():
    assert TOOLS["tuketim"].run({"onceki": 5}) == {"hata": "eksik alan"}
    assert TOOLS["sayac_oku"].run({"abone": "A999"}) == {"hata": "abone yok"}
    assert search_docs(anahtar="zzz") == {"hata": "bulunamadi"}
    assert search_docs() == {"hata": "eksik alan"}
    assert call_tool("yok_boyle", {}, LEVELS[4], Stream(1).next) == ({}, {"hata": "arac yok"})


def test_document_request_finds_the_rollover_rule():
    request = next(t.request for t in TASKS if t.kind == "document")
    assert search_docs(anahtar=request)["kod"] == "SY01"


def test_rollover_and_tariff():
    assert meter_difference(78241, 78189) == 99948
    assert meter_difference(78189, 78241) == 52
    assert charge(10, "mesken") == 40 and charge(55, "mesken") == 40 + 105 + 165 + 240
    assert charge(55, "isyeri") == 2 * charge(55, "mesken")


def test_wire_call_writes_the_example_calls():
    assert wire_call("sayac_oku", EXAMPLE_ARGUMENTS["sayac_oku"]) == "sayac_oku ( abone = A007 )"
    assert wire_call("kayit_yaz", EXAMPLE_ARGUMENTS["kayit_yaz"]) == \
        "kayit_yaz ( abone = A007 , sutun = bedel , deger = 470 )"


def test_boundary_passes_declared_fields_only():
    state = {"abone": "A001", "onceki": 1, "simdiki": 2, "bolge": "dogu"}
    arguments, _ = call_tool("tuketim", state, LEVELS[4], Stream(1).next)
    assert arguments == {"onceki": 1, "simdiki": 2}
    arguments, _ = call_tool("tuketim", state, LEVELS[4].with_shares(swap=1.0), Stream(1).next)
    assert arguments == {"onceki": 2, "simdiki": 1}
    arguments, result = call_tool("tuketim", state, LEVELS[4].with_shares(fill=0.0),
                                  Stream(1).next)
    assert arguments == {} and result == {"hata": "eksik alan"}


# ---- the parameters --------------------------------------------------------

def test_levels_with_leaves_the_example_level_at_zero_swap():
    changed = levels_with(swap=0.9, fill={1: 1.0})
    assert [lv.swap_share for lv in changed.values()] == [0.9, 0.9, 0.9, 0.0]
    assert changed[1].fill_share == 1.0 and changed[2].fill_share == LEVELS[2].fill_share
    assert LEVELS[1].swap_share == 0.30  # the table itself is untouched


def test_without_swaps_the_schema_level_matches_the_example_level():
    no_swap = levels_with(swap=0.0)
    for seed in (SEED, SEED + 1, SEED + 7):
        three, four = measure(no_swap[3], seed), measure(no_swap[4], seed)
        assert three.correct == four.correct and three.calls == four.calls
        assert three.tokens < four.tokens  # same result, cheaper catalog


def test_step_budget_bounds_every_run():
    for budget in (1, 3, 8):
        result = measure(1, SEED, max_steps=budget)
        assert all(r.steps <= budget for r in result.runs)
    assert measure(1, SEED, max_steps=1).steps == 24


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from([1, 2, 3, 4]),
       budget=st.integers(1, 12), task=st.sampled_from(TASKS))
def test_run_accounting_holds_for_any_seed(seed, level, budget, task):
    run = run_task(task, level, seed, budget)
    assert run.calls <= run.steps <= budget
    assert run.foreign <= run.calls - run.errors
    assert run.tokens >= run.steps * (60 + catalog_tokens(LEVELS[level]))


# ---- the sweep -------------------------------------------------------------

@pytest.fixture(scope="module")
def big_sweep():
    return sweep(500, progress=False)


def test_sweep_is_deterministic_and_starts_at_the_published_seeds():
    a, b = sweep(12, progress=False), sweep(12, progress=False)
    assert np.array_equal(a.correct, b.correct) and np.array_equal(a.tokens, b.tokens)
    assert [round(x, 4) for x in a.success[0]] == [row[3] for row in TABLE.values()]
    assert [round(x, 4) for x in a.success[1]] == [row[4] for row in TABLE.values()]
    assert a.tokens[0].tolist() == [row[6] for row in TABLE.values()]


def test_sweep_parameters_change_the_runs():
    base = sweep(10, progress=False)
    no_swap = sweep(10, swap=0.0, progress=False)
    short = sweep(10, max_steps=3, progress=False)
    assert np.array_equal(no_swap.correct[:, 2], no_swap.correct[:, 3])
    assert not np.array_equal(base.correct[:, 2], base.correct[:, 3])
    assert (short.steps <= 3 * 24).all() and short.max_steps == 3


def test_sweep_summary_and_distribution(big_sweep):
    summary = big_sweep.summary()
    assert list(summary.index) == list(TABLE)
    assert (summary["95% CI low"] < summary["mean success"]).all()
    assert summary["mean success"].is_monotonic_increasing
    assert (big_sweep.distribution().sum() == 500).all()


def test_sweep_verdict_on_the_level_3_to_4_gap(big_sweep):
    verdict = big_sweep.compare(3, 4)
    assert verdict.seeds == 500
    assert verdict.mean_gap == pytest.approx(0.1938, abs=1e-4)
    assert verdict.gap_ci[0] == pytest.approx(0.1870, abs=1e-4)
    assert verdict.real                         # the gap itself is not noise
    assert verdict.band == pytest.approx(0.25)  # six of 24 tasks
    assert not verdict.outside_band             # but single runs scatter wider
    assert verdict.noise_share == pytest.approx(0.222, abs=1e-3)
    assert verdict.share_higher == pytest.approx(0.99)
    assert "inside" in str(verdict)


def test_band_helpers_on_a_small_case():
    correct = np.array([10, 10, 12, 14])  # pair gaps: 0, 2, 4, 2, 4, 2
    assert run_to_run_band(correct, task_count=24, coverage=0.5) == pytest.approx(2 / 24)
    assert run_to_run_band(correct, task_count=24, coverage=0.95) == pytest.approx(4 / 24)
    assert pair_share_apart(correct, 4) == pytest.approx(2 / 6)
    assert pair_share_apart(correct, 3.9984) == pytest.approx(2 / 6)


def test_compare_needs_two_seeds():
    with pytest.raises(ValueError):
        sweep(1, progress=False).compare()
