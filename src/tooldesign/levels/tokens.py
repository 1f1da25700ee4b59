"""How this lesson counts tokens.

Offline there is no tokenizer, so the lesson uses a fixed, visible rule:
lower-case the text, make every comma a word of its own, split on white
space, and cut each word into pieces of at most five characters. A piece
is a token. The rule is crude on purpose; it is the same for every level,
so the comparison between levels is fair, and it is why the Turkish wire
words stay Turkish: their length is part of the measured cost.
"""

from __future__ import annotations

from functools import lru_cache

PIECE = 5  # the longest token, in characters


def pieces(text: object) -> list[str]:
    """Split ``text`` into the lesson's tokens (see the module docstring)."""
    out: list[str] = []
    for word in str(text).lower().replace(",", " , ").split():
        # a word of n characters gives ceil(n / 5) pieces
        out.extend(word[i : i + PIECE] for i in range(0, len(word), PIECE))
    return out


def count_tokens(text: object) -> int:
    """Number of lesson tokens in ``text``."""
    return len(pieces(text))


@lru_cache(maxsize=1024)
def piece_set(text: str) -> frozenset[str]:
    """The distinct tokens of ``text``, remembered: searches repeat the same texts."""
    return frozenset(pieces(text))
