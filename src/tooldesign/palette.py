"""The course's colours, in one place: Tableau's colour-blind-safe ten (matplotlib's ``tableau-colorblind10``).

Every plot and widget takes its colours from here, so a reader with a red-green colour vision
deficiency can tell the series apart in every lesson, and a change of palette is one edit.
Colour is never the only encoding: a plot that colours two groups also marks or labels them.
"""

from __future__ import annotations

from typing import Any

STYLE = "tableau-colorblind10"

# The ten colours of the style, in its order (matplotlib's stylelib/tableau-colorblind10.mplstyle).
COLOURS: tuple[str, ...] = (
    "#006BA4",
    "#FF800E",
    "#ABABAB",
    "#595959",
    "#5F9ED1",
    "#C85200",
    "#898989",
    "#A2C8EC",
    "#FFBC79",
    "#CFCFCF",
)

BLUE, ORANGE, GREY, DARK_GREY, LIGHT_BLUE, DARK_ORANGE = COLOURS[:6]
GOOD = BLUE  # the outcome a lesson hopes for: kept, passed, in the catalog
BAD = DARK_ORANGE  # the other: dropped, failed, left out
NEUTRAL = GREY
LIMIT = DARK_GREY  # a threshold or budget line
TEXT_GOOD = "#00558A"  # BLUE darkened for text on white (contrast above 4.5:1)
TEXT_BAD = "#A34200"  # DARK_ORANGE darkened for text on white
FOCUS = "#005FCC"  # the focus ring every control shows


def use() -> Any:
    """Apply the course's style to matplotlib (call before drawing); returns matplotlib.pyplot."""
    import matplotlib.pyplot as plt

    plt.style.use(STYLE)
    return plt
