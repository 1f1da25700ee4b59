"""The offline selection test: cases, judging, the crude stand-in and the BM25 ranker."""
from dataclasses import replace

import pytest

from tooldesign.selection import (ALL_CASES, CASES, NO_CALL_CASES, BM25Picker, Case, PickedTool, Picker,
                                  WordMatchPicker, expected_for, judge, offline_picker, run_selection, tool_text,
                                  words)
from tooldesign.tools import ToolSet, tool_set


def test_ten_tool_requests_and_no_call_requests():
    assert len(CASES) >= 10 and len(NO_CALL_CASES) >= 2
    assert all(c.no_call for c in NO_CALL_CASES) and not any(c.no_call for c in CASES)
    releases = [c for c in CASES if c.expected["mirror"] is None]
    assert len(releases) == 2 and all(c.expected["designed"] == ("release_request_create",) for c in releases)


def test_expected_tools_exist_in_their_sets():
    for set_name in ("mirror", "designed"):
        names = set(tool_set(set_name).names)
        for case in ALL_CASES:
            assert set(expected_for(case, set_name) or ()) <= names


def test_expected_for_falls_back_to_the_base_set():
    case = CASES[0]
    assert expected_for(case, "designed+pricing") == expected_for(case, "designed")
    with pytest.raises(KeyError):
        expected_for(case, "other")


@pytest.mark.parametrize("expected, chosen, right", [
    (("a",), "a", True), (("a", "b"), "b", True), (("a",), "c", False), (("a",), None, False),
    ((), None, True), ((), "a", False), (None, "a", False), (None, None, False)])
def test_judge(expected, chosen, right):
    assert judge(expected, chosen) is right


def test_words_are_crude_stems_without_stop_words():
    assert words("Why is the customer's order 4711 released?") == ["custo", "order", "relea"]


def test_tool_text_drops_sentences_that_point_to_another_tool():
    designed = tool_set("designed")
    text = tool_text(designed["customer_get_address_gaps"], designed)
    assert "sales_order_get_block_summary" not in text and "postal code" in text


@pytest.mark.parametrize("picker", [WordMatchPicker(), BM25Picker()])
def test_scores_on_the_tuning_cases_as_they_are(picker):
    """Reported, not targeted: the plain designed set beats the mirror; the keyword-stuffed wording,
    revised against these very cases, gets all ten, which is what tuning to an instrument buys."""
    mirror = run_selection(picker, tool_set("mirror"))
    designed = run_selection(picker, tool_set("designed"))
    stuffed = run_selection(picker, tool_set("designed-keyword-stuffed"))
    assert 3 <= mirror.right <= 5 and mirror.total == designed.total == 10
    assert mirror.right < designed.right < stuffed.right == 10
    assert designed.declined == stuffed.declined == (2, 2)
    assert f"{designed.right}/10 right" in designed.summary()


def test_pickers_share_the_interface_and_say_they_are_stand_ins():
    for name in ("words", "bm25"):
        picker = offline_picker(name)
        assert isinstance(picker, Picker) and picker.offline and "not a model" in picker.label
    assert "crude" in WordMatchPicker.label
    with pytest.raises(ValueError, match="unknown picker"):
        offline_picker("magic")


def test_choice_explains_itself():
    choice = WordMatchPicker().pick("Which address fields are missing for customer 10051?", tool_set("designed"))
    assert isinstance(choice, PickedTool) and choice.tool == "customer_get_address_gaps"
    assert "addre" in choice.matched["customer_get_address_gaps"] and "shares" in choice.why
    assert choice.ranking[0][0] == choice.tool


def test_ties_go_to_the_first_tool_and_nothing_shared_means_no_call():
    mirror = tool_set("mirror")
    assert WordMatchPicker().pick("order", mirror).tool == "get_order"
    assert WordMatchPicker().pick("weather tomorrow", mirror).tool is None
    assert BM25Picker().pick("weather tomorrow", mirror).tool is None
    assert BM25Picker().pick("anything", []).tool is None


def test_a_bad_description_costs_a_request():
    designed = tool_set("designed")
    broken = ToolSet("designed", tuple(replace(t, description="Get orders.") if t.name == "sales_order_search"
                                       else t for t in designed))
    assert run_selection(WordMatchPicker(), broken).right < 10


def test_custom_cases_for_an_extended_set():
    case = Case("What discount did order 4725 get?", {"designed": ("sales_order_get_price_conditions",)})
    result = run_selection(WordMatchPicker(), tool_set("designed"), [case])
    assert result.total == 1 and result.right == 0
