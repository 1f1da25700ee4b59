"""Show a plot with the sentence that says what it shows.

A screen reader gets nothing from an image, and a reader skimming the page needs to know what to
look at, so every plot of the course goes out through ``show``: the PNG (with the sentence as its
alt text, for the front ends that read it: JupyterLab ignores an output's alt, nbconvert's HTML
and VS Code use it), then the same sentence printed under it. tests/test_quiz_and_views.py checks
that every image in solutions/ is followed by such a sentence.
"""

from __future__ import annotations

import io
import re
from typing import Any

# What the sentence must look like: it names the picture and says what it shows.
SENTENCE = re.compile(
    r"^(The|This|Each|Left|Right|Top)\b[^.]*\b(chart|plot|picture|figure|curve|panel|dot|line|bar)s?\b"
    r"[^.]*\b(shows?|draws?|plots?|compares?|puts?|marks?)\b"
)


def says_what_it_shows(text: str) -> bool:
    """Whether ``text``'s first sentence names the picture and says what it shows."""
    return bool(SENTENCE.match(text.strip()))


def show(fig: Any, sentence: str) -> None:
    """Display ``fig`` as a PNG with ``sentence`` as alt text, print the sentence, close the figure."""
    if not says_what_it_shows(sentence):
        raise ValueError(f"say what the plot shows, e.g. 'The chart shows ...', not {sentence!r}")
    import matplotlib.pyplot as plt
    from IPython.display import Image, display

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=fig.dpi, bbox_inches="tight")
    plt.close(fig)
    display(Image(data=buffer.getvalue(), format="png", alt=sentence))
    print(sentence)
