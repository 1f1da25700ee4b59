"""The five side-by-side pairs: sizes of the right shape, and the same draft twice."""
import matplotlib

matplotlib.use("Agg")

from tooldesign.tools.respond import PAIRS, compare, format_response, plot_sizes  # noqa: E402


def test_five_pairs_eleven_calls():
    assert len(PAIRS) == 5
    assert len(compare()) == 11


def test_whole_record_versus_summary():
    first = [r for r in compare() if r.pair == PAIRS[0].title]
    mirror, designed = first
    assert 700 <= mirror.size <= 1000 and 150 <= designed.size <= 230
    assert mirror.size > 4 * designed.size


def test_list_is_cut_with_total_showing_and_note():
    listing = [r for r in compare() if r.pair == PAIRS[3].title]
    mirror, designed = listing
    assert 5000 <= mirror.size <= 7000 and 450 <= designed.size <= 750
    assert (designed.result["total"], designed.result["showing"]) == (7, 5) and designed.result["note"]


def test_errors_bare_versus_actionable():
    wrong = [r for r in compare() if r.pair == PAIRS[1].title]
    assert wrong[0].result == {"error": "400 Bad Request"} and wrong[0].is_error
    assert "digits only" in wrong[1].result["error"]


def test_release_twice_gives_the_same_draft_and_the_mirror_refuses():
    last = [r for r in compare() if r.pair == PAIRS[4].title]
    assert last[0].result == {"error": "403"}
    assert last[1].result["request_id"] == last[2].result["request_id"] == "RR-4711"
    assert "Draft created" in last[1].result["message"] and "already exists" in last[2].result["message"]


def test_format_and_plot():
    responses = compare()
    text = format_response(responses[6], width=50)
    assert "characters" in text and "(+" in text
    ax = plot_sizes(responses)
    assert ax.get_xlabel() == "result size (characters)" and ax.get_title()
    assert len(ax.patches) == 11


def test_every_bar_has_its_own_label_and_the_title_counts_calls():
    from tooldesign.tools.respond import bar_labels

    responses = compare()
    labels = bar_labels(responses)
    assert len(labels) == len(set(labels)) == len(responses) == 11
    assert labels[-2:] == ["5. release_request_create", "5. release_request_create (call 2)"]
    ax = plot_sizes(responses)
    assert ax.get_title().endswith("5 questions, 11 calls")
