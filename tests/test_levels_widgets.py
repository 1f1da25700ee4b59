"""The level explorer: its logic is a plain function, tested without a browser."""

from __future__ import annotations

import matplotlib
import pytest

from tooldesign.levels import SEED
from tooldesign.levels.widgets import explore

matplotlib.use("Agg")


def test_default_setting_shows_the_published_run():
    view = explore()
    assert view.highlight == "schema + example call"
    assert view.table.loc["schema + example call", "success"] == 0.9583
    assert view.table.loc["name only", "tokens/answer"] == 3494
    assert view.missed == ["G23"]
    assert view.headline().startswith("schema + example call: success 0.9583, 1212 tokens")


def test_each_control_moves_the_table():
    base = explore(3)
    assert not explore(3, seed=SEED + 2).table.equals(base.table)
    assert explore(3, max_steps=2).table["steps"].max() <= 2 * 24
    no_swap = explore(3, swap_share=0.0)
    assert no_swap.table.loc[no_swap.highlight, "success"] == 0.9583
    assert "G03" in base.missed and "G03" not in no_swap.missed


@pytest.mark.parametrize("kwargs", [dict(level=5), dict(max_steps=0), dict(swap_share=1.5)])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        explore(**kwargs)


def test_the_widget_draws_its_first_state_and_redraws():
    from tooldesign.levels.widgets import explorer

    box = explorer()
    level = box.children[0].children[0]
    (shown,) = box.children[2:]
    assert shown.value.startswith("<b>schema + example call: success 0.9583")
    assert "27886" in shown.value and "data:image/png;base64," in shown.value
    level.value = 1
    assert shown.value.startswith("<b>name only: success 0.3333")


def test_text_and_chart_change_in_one_assignment():
    """The headline, the table and the plot live in one value, so they can never disagree."""
    from tooldesign.levels.widgets import explorer

    box = explorer()
    level, shown = box.children[0].children[0], box.children[2]
    values = []
    shown.observe(lambda change: values.append(change["new"]), names="value")
    level.value = 2
    assert len(values) == 1
    assert values[0].startswith("<b>name + description:") and "<img" in values[0]


def test_table_has_one_header_row():
    import re

    from tooldesign.levels.plots import cost_success_png
    from tooldesign.levels.widgets import explorer_html

    view = explore()
    html = explorer_html(view, cost_success_png(view.table, success="success"))
    assert len(re.findall(r"<tr", html.split("<tbody>")[0])) == 1
    assert "<th>level</th>" in html


def test_tied_levels_share_one_label():
    import pandas as pd

    from tooldesign.levels.plots import _labels

    table = pd.DataFrame({"tokens/answer": [1000, 1000, 2000], "success": [0.9, 0.9, 0.5]},
                         index=["a", "b", "c"])
    labels = _labels(table, table["tokens/answer"], table["success"])
    assert [label for label, _ in labels] == ["a\nb", "c"]


def test_labels_of_nearby_levels_do_not_overlap():
    import matplotlib.pyplot as plt

    from tooldesign.levels.plots import plot_cost_success

    view = explore(4, swap_share=0.0)  # levels three and four tie on success
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    plot_cost_success(view.table, success="success", ax=ax)
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    plt.close(fig)
    assert len(boxes) == 4
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
