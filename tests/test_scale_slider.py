"""The catalog-size slider's logic, and the widget shell."""
from __future__ import annotations

import pytest

from tooldesign.scale.widgets import readout, readout_text, size_slider


def test_readout_zones():
    assert readout(5)["guidance"] == "within the soft limit of 20"
    assert readout(25)["guidance"].startswith("past the soft limit")
    assert readout(50)["guidance"].startswith("in or past")
    assert "tokens of definitions (estimate)" in readout_text(20)
    with pytest.raises(ValueError):
        readout(3)


def test_widget_follows_the_slider():
    box = size_slider(10)
    slider, text = box.children[0].children[0], box.children[1]
    first = text.value
    slider.value = 15
    assert text.value != first and text.value.startswith("15 tools loaded")
