"""Notebook 10: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

import pytest

from tooldesign.levels import LEVELS, Level, catalog_tokens, measure, wire_call
from tooldesign.levels.environment import SUBSCRIBERS, meter_difference
from workbook.checks import FAIL, PASS, evaluate
from workbook.exercises import lesson10 as ex


def tokens_per_correct(runs):
    correct = sum(run["answer"] == run["expected"] for run in runs)
    return sum(run["tokens"] for run in runs) / correct if correct else None


LEAN = Level(5, "name + example call", selection_factor=0.86, fill_share=1.0, swap_share=0.0,
             shows_example=True)
FIFTH = {"catalog_tokens": catalog_tokens(LEAN), "correct": measure(LEAN).correct, "tokens": measure(LEAN).tokens}


# ---- the answer keys come from the package, not from memory ----------------

def test_example_call_key_is_the_package_wire_format():
    assert ex.EXAMPLE_CALL == wire_call("tuketim", {"onceki": 30500, "simdiki": 30562})


def test_swap_key_follows_the_rollover_rule():
    record = SUBSCRIBERS["A031"]
    assert (record["onceki"], record["simdiki"]) == (ex.PREVIOUS, ex.CURRENT)
    assert ex.SWAPPED_M3 == meter_difference(ex.CURRENT, ex.PREVIOUS) == 99983


def test_tokens_per_correct_passes_and_its_key_matches_the_solution():
    assert evaluate("ex10-tokens-per-correct", tokens_per_correct).status == PASS
    assert [tokens_per_correct(*probe) for probe in ex.TPC_PROBES] == ex.TPC_EXPECTED


def test_fifth_level_key_and_its_hints_match_measurements():
    assert FIFTH == ex.FIFTH
    four = measure(4)
    assert (catalog_tokens(LEVELS[4]), four.correct, four.tokens) == (164, 23, 27886)
    swapping = measure(LEAN.with_shares(swap=0.3))
    thin = measure(LEAN.with_shares(fill=0.72))
    assert (swapping.correct, thin.correct) == (18, 20)
    assert measure(Level(5, "", 1.0, 1.0, 0.0, shows_example=True)).tokens == 19447


def test_a_share_instead_of_a_count_is_caught():
    verdict = evaluate("ex10-fifth-level", {"catalog_tokens": 77, "correct": 23 / 24, "tokens": 21632})
    assert verdict.status == FAIL and "count" in verdict.message


# ---- the example call is judged as a parsed call, not as text -----------------------------------

@pytest.mark.parametrize("typed", [
    "tuketim ( onceki = 30500 , simdiki = 30562 )",
    "tuketim(onceki=30500, simdiki=30562)",
    "tuketim( simdiki = 30562 , onceki = 30500 )",
    "  tuketim (onceki=30500,simdiki=30562)  ",
    "tuketim(\n  onceki = 30500,\n  simdiki = 30562\n)",
])
def test_example_call_passes_however_it_is_spaced_or_ordered(typed):
    assert evaluate("ex10-example-call", typed).status == PASS


@pytest.mark.parametrize("typed, hint", [
    ("tuketim(onceki=30562, simdiki=30500)", "swapped"),
    ("tuketim(simdiki=30500, onceki=30562)", "swapped"),
    ("tuketim(onceki=30500, simdiki=30561)", "this period's readings"),
    ("tuketim(onceki=30500, simdikii=30562)", "not declared"),
    ("tuketim(onceki=30500, onceki=30562)", "given twice"),
    ("", "not a call yet"),
])
def test_example_call_still_fails_on_wrong_values_or_names(typed, hint):
    verdict = evaluate("ex10-example-call", typed)
    assert verdict.status == FAIL and hint in verdict.message, verdict.message


def test_parse_call_reads_back_what_wire_call_writes():
    from tooldesign.levels import parse_call
    from tooldesign.levels.definitions import EXAMPLE_ARGUMENTS

    for name, arguments in EXAMPLE_ARGUMENTS.items():
        assert parse_call(wire_call(name, arguments)) == (name, arguments)
