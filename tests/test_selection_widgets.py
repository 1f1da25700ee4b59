"""The two widgets' logic as pure functions, and their ipywidgets shells."""
from tooldesign.selection import BM25Picker
from tooldesign.tools import tool_set
from tooldesign.selection.widgets import explain_request, render_explanations, request_tester
from tooldesign.lint.widgets import (description_workbench, render_state, with_description,
                                          workbench_update)

DESIGNED = tool_set("designed")
GAPS = "customer_get_address_gaps"


def test_unchanged_description_keeps_a_clean_set():
    state = workbench_update(DESIGNED, GAPS, DESIGNED[GAPS].description)
    assert state.findings == () and state.total_findings == 0
    from tooldesign.selection import WordMatchPicker, run_selection

    scored = run_selection(WordMatchPicker(), DESIGNED)
    assert (state.right, state.total) == (scored.right, 10) and state.all_right == scored.all_right
    assert len(state.wrong) == sum(not row.right for row in scored.rows)


SEARCH = "sales_order_search"


def test_a_thin_description_shows_findings_and_a_miss():
    state = workbench_update(DESIGNED, SEARCH, "Get orders.")
    rules = {f.rule for f in state.findings}
    assert {"desc-sentences", "desc-when", "desc-boundary"} <= rules
    before = workbench_update(DESIGNED, SEARCH, DESIGNED[SEARCH].description)
    assert state.right < before.right and any("orders of customer" in request for request, _ in state.wrong)
    text = render_state(state)
    assert "WRONG" in text and "estimate" in text


def test_with_description_leaves_the_original_alone():
    edited = with_description(DESIGNED, GAPS, "x")
    assert edited[GAPS].description == "x" and DESIGNED[GAPS].description != "x"
    assert edited.names == DESIGNED.names


def test_a_twin_finding_names_the_edited_tool():
    twin = DESIGNED["sales_order_search"].description
    state = workbench_update(DESIGNED, GAPS, twin)
    assert any(f.rule == "set-twins" for f in state.findings)


def test_request_tester_ranks_each_set_and_says_why():
    explained = explain_request("Which address fields are missing for customer 10051?")
    by_set = {e.set_name: e for e in explained}
    assert by_set["designed"].chosen == GAPS and by_set["designed"].ranking[0][0] == GAPS
    assert "addre" in by_set["designed"].ranking[0][2]
    assert by_set["mirror"].chosen is None
    text = render_explanations(explained)
    assert "(no call)" in text and GAPS in text


def test_request_tester_with_bm25():
    explained = explain_request("Release order 4711 please", picker=BM25Picker(), top=2)
    assert all(len(e.ranking) == 2 for e in explained)
    assert {e.set_name: e.chosen for e in explained}["designed"] == "release_request_create"


def test_widget_shells_update_as_you_type():
    workbench = description_workbench(tool_name=SEARCH)
    dropdown, area, out = workbench.children
    assert "0 findings" in out.value
    area.value = "Get orders."
    assert "desc-sentences" in out.value and "WRONG" in out.value
    dropdown.value = GAPS
    assert area.value == DESIGNED[GAPS].description and "0 findings" in out.value
    tester = request_tester("Why is order 4711 on hold?")
    box, shown = tester.children
    box.value = "How many orders does customer 10023 have?"
    assert "sales_order_search" in shown.value


def test_request_tester_says_when_a_request_is_outside_every_sets_vocabulary():
    from tooldesign.selection.widgets import vocabulary_gap

    gap = vocabulary_gap("Book a meeting room for Friday morning.")
    assert gap.outside_every_set and "outside every set's vocabulary" in gap.note()
    partly = vocabulary_gap("Why is order 4711 on hold, asks Brigitte?")
    assert not partly.outside_every_set and "brigi" in partly.unknown and "order" not in partly.unknown
    assert "no words" in vocabulary_gap("4711?").note()
    tester = request_tester("Translate 'thank you' into French.")
    assert "outside every set" in tester.children[1].value
    tester.children[0].value = "Why is order 4711 on hold?"
    assert "outside every set" not in tester.children[1].value
