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
    headline, table, image = box.children[2:]
    assert headline.value.startswith("<b>schema + example call: success 0.9583")
    assert "27886" in table.value and bytes(image.value).startswith(b"\x89PNG")
    level.value = 1
    assert headline.value.startswith("<b>name only: success 0.3333")
