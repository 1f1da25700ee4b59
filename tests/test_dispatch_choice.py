"""tool_choice in the deterministic loop: a named tool enforces a first step; wording only advises."""
from __future__ import annotations

from collections import Counter

import pytest

from tooldesign.dispatch import Dispatcher, allow_all
from tooldesign.dispatch.choice import (ANY, AUTO, NONE, StandIn, check_tool_choice, fill_arguments, first_calls, ranked,
                                        firmness, named, run_loop)
from tooldesign.selection import WordMatchPicker
from tooldesign.tools import tool_set

REQUEST = "Release order 4711, the customer has promised to pay."
SUMMARY = "sales_order_get_block_summary"


@pytest.fixture(scope="module")
def designed():
    return tool_set("designed")


def test_check_tool_choice(designed):
    check_tool_choice(named(SUMMARY), designed.names)
    for bad in ({"type": "required"}, named("get_order")):
        with pytest.raises(ValueError):
            check_tool_choice(bad, designed.names)
    with pytest.raises(ValueError):
        check_tool_choice(ANY, [])


def test_each_choice_on_the_first_turn(designed):
    model = StandIn()
    assert model.respond(REQUEST, list(designed), NONE).calls == ()
    forced = model.respond(REQUEST, list(designed), named(SUMMARY))
    assert forced.text == "" and forced.calls[0].name == SUMMARY  # prefilled: no text before the call
    assert model.respond(REQUEST, list(designed), ANY).text == ""
    # Under auto the stand-in calls what its word matcher ranks first: a count of shared words, not intent
    # (with the plain descriptions that is the credit tool, not the release draft; notebook 12 says so).
    assert model.respond(REQUEST, list(designed), AUTO).calls[0].name == ranked(WordMatchPicker(), REQUEST, list(designed))[0]
    assert model.respond("Book a meeting room for Friday morning.", list(designed), AUTO).calls == ()
    assert len(model.respond("Book a meeting room for Friday morning.", list(designed), ANY).calls) == 1


def test_wording_advises_and_naming_the_tool_enforces(designed):
    plain = Counter(first_calls(REQUEST, designed, AUTO, f"Always call {SUMMARY} first."))
    firm = Counter(first_calls(REQUEST, designed, AUTO, f"IMPORTANT: you MUST ALWAYS call {SUMMARY} first!"))
    forced = Counter(first_calls(REQUEST, designed, named(SUMMARY)))
    assert 0 < plain[SUMMARY] < firm[SUMMARY] < 100
    assert forced == Counter({SUMMARY: 100})
    assert first_calls(REQUEST, designed, AUTO, seeds=range(3)) == first_calls(REQUEST, designed, AUTO, seeds=range(3))


def test_firmness_counts_shouting():
    assert firmness("Please read the order first.") == 0
    assert firmness("IMPORTANT: you MUST read it!") == 3


def test_loop_runs_the_required_step_then_the_stand_ins_pick_then_answers(designed):
    dispatcher = Dispatcher(designed, approve=allow_all)
    steps = run_loop(REQUEST, designed, StandIn(seed=1), first=named(SUMMARY), dispatcher=dispatcher)
    after = next(n for n in ranked(WordMatchPicker(), REQUEST, list(designed)) if n != SUMMARY)
    assert [s.call for s in steps] == [SUMMARY, after, None]
    assert [s.choice for s in steps] == [f"tool:{SUMMARY}", "auto", "auto"]
    assert steps[0].is_error is False
    # Every proposal leaves one audit row, whatever the stand-in picked; the required step ran first.
    assert len(dispatcher.audit.rows()) == 2 and dispatcher.audit.rows()[0]["ran"] is True


def test_loop_under_none_makes_no_call(designed):
    steps = run_loop(REQUEST, designed, StandIn(), first=NONE)
    assert len(steps) == 1 and steps[0].call is None


def test_fill_arguments_reads_numbers_and_leaves_gaps(designed):
    assert fill_arguments(REQUEST, designed[SUMMARY]) == {"sales_order": "4711", "detail": "concise"}
    assert fill_arguments("Check the credit of 10023.", designed["customer_get_credit_exposure"]) == {
        "customer": "10023", "sales_order": None}
