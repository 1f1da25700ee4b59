"""The course's two ways of counting tokens, side by side so nobody mistakes one for the other.

No tokenizer can be downloaded offline, so every token figure in the course comes from a visible
rule and is labelled as such:

* the **estimate**, characters / 4 (:func:`estimate_tokens`, :func:`chars_to_tokens`): what a tool
  definition, a result or a whole model call costs, everywhere but notebook 10: the tool sets, the
  linter, the loop, the code-mode runs, the MCP listing, the scale lessons and the benchmarks;
* the **piece rule**, words cut into pieces of at most five characters (:func:`piece_tokens`): the
  price of a definition level in notebook 10's simulation, where every level is counted alike so
  that the comparison between levels is fair.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

# The estimate's figure: a token is taken to be four characters of text.
CHARS_PER_TOKEN = 4
# How printed figures and axes name the estimate, so every label says the same thing.
ESTIMATE_RULE = f"characters / {CHARS_PER_TOKEN}"
ESTIMATE_LABEL = f"estimate: {ESTIMATE_RULE}"

# The piece rule's figure: the longest piece, in characters.
PIECE = 5


def chars_to_tokens(chars: int) -> int:
    """The estimate (characters / 4, rounded down) on a count of characters already made.

    The loop of notebook 16 and the code-mode runs of notebook 09 count characters as they go and
    convert once at the end."""
    return chars // CHARS_PER_TOKEN


def estimate_tokens(text_or_value: Any) -> int:
    """The estimate (characters / 4) of a text, or of a value as the JSON a model would be sent.

    Every definition size and result size the course prints from notebook 00 on comes from here."""
    text = text_or_value if isinstance(text_or_value, str) else json.dumps(text_or_value)
    return chars_to_tokens(len(text))


def pieces(text: object) -> list[str]:
    """``text`` cut into the piece rule's tokens.

    Lower-case the text, make every comma a word of its own, split on white space, and cut each
    word into pieces of at most five characters. The rule is crude on purpose; it is why notebook
    10's Turkish wire words stay Turkish: their length is part of the measured cost."""
    out: list[str] = []
    for word in str(text).lower().replace(",", " , ").split():
        # a word of n characters gives ceil(n / 5) pieces
        out.extend(word[i : i + PIECE] for i in range(0, len(word), PIECE))
    return out


def piece_tokens(text: object) -> int:
    """Tokens of ``text`` by the piece rule: notebook 10's catalog cost per definition level."""
    return len(pieces(text))


@lru_cache(maxsize=1024)
def piece_set(text: str) -> frozenset[str]:
    """The distinct pieces of ``text``, remembered: notebook 10's document search repeats the same texts."""
    return frozenset(pieces(text))
