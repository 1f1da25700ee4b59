"""Show a plot with the sentence that says what it shows.

A screen reader gets nothing from an image, and a reader skimming the page needs to know what to
look at, so every plot of the course goes out through ``show``: the PNG (with the sentence as its
alt text, for the front ends that read it: JupyterLab ignores an output's alt, nbconvert's HTML
and VS Code use it), then the same sentence printed under it. tests/test_quiz_and_views.py checks
that every image in solutions/ is followed by such a sentence.

Every picture of the course is drawn by ``png``. Where nobody will look at it (the grader's kernels
and ``make check``, which set ``COURSE_PICTURES=off`` in the kernel's environment), nothing is
drawn: ``png`` gives empty bytes and ``show`` prints the sentence alone. Drawing is most of the time
some notebooks take, and a grade never depends on a picture.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any

# The environment variable (and its value) that turns drawing off in a kernel.
PICTURES, OFF = "COURSE_PICTURES", "off"

# What the sentence must look like: it names the picture and says what it shows.
SENTENCE = re.compile(
    r"^(The|This|Each|Left|Right|Top)\b[^.]*\b(chart|plot|picture|figure|curve|panel|dot|line|bar)s?\b"
    r"[^.]*\b(shows?|draws?|plots?|compares?|puts?|marks?)\b"
)


def says_what_it_shows(text: str) -> bool:
    """Whether ``text``'s first sentence names the picture and says what it shows."""
    return bool(SENTENCE.match(text.strip()))


def pictures_on() -> bool:
    """Whether pictures are drawn here (everywhere but where ``COURSE_PICTURES=off``)."""
    return os.environ.get(PICTURES) != OFF


def png(fig: Any, dpi: float | None = None, tight: bool = False) -> bytes:
    """``fig`` as PNG bytes (``tight``: cropped to what is drawn), and the figure closed; empty bytes,
    nothing drawn, where pictures are off."""
    import matplotlib.pyplot as plt

    try:
        if not pictures_on():
            return b""
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi or fig.dpi, bbox_inches="tight" if tight else None)
        return buffer.getvalue()
    finally:
        plt.close(fig)


def show(fig: Any, sentence: str) -> None:
    """Display ``fig`` as a PNG with ``sentence`` as alt text, print the sentence, close the figure."""
    if not says_what_it_shows(sentence):
        raise ValueError(f"say what the plot shows, e.g. 'The chart shows ...', not {sentence!r}")
    picture = png(fig, tight=True)
    if picture:
        from IPython.display import Image, display

        display(Image(data=picture, format="png", alt=sentence))
    print(sentence)
