"""A scripted agent that does what the text it reads tells it to: the attack path, made visible.

A model reads the user's request and every tool result as one stream of text. Nothing in the
text itself says who wrote which sentence, so a sentence in an order note can read exactly like a
request from the user. ``Reader`` is a stand-in for that failure, written as a fixed rule:

* it reads every string in a result (a ``respects_labels`` reader skips text marked as data);
* a sentence with an English release verb ("release", "unblock", "lift the block", or the tool's
  name) is an instruction to it; the order is the first order number in that sentence, or the
  order the note sits on;
* it follows the first instruction it finds by proposing ``release_request_create``.

What it cannot show: how often a real model follows such text. A model may ignore a blunt
instruction and follow a subtle one, read German and French (this rule reads neither), or treat a
label as data one time and not the next. The counts it produces are what a reader that always
obeys does, a worst case for the defences that rely on the reader, not an estimate for any model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tooldesign.injection.results import FREE_TEXT_KIND

__all__ = [
    "Reader",
    "LITERAL",
    "LABEL_AWARE",
    "READERS",
    "Instruction",
    "readable_texts",
    "find_instruction",
    "RELEASE_VERBS",
]

RELEASE_VERBS = re.compile(r"\b(release|unblock|lift the block|release_request_create)\b", re.IGNORECASE)
_ORDER = re.compile(r"\b(4\d{3})\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Reader:
    name: str
    respects_labels: bool


LITERAL = Reader("literal", False)
LABEL_AWARE = Reader("honours labels (assumed)", True)
READERS = (LITERAL, LABEL_AWARE)


@dataclass(frozen=True)
class Instruction:
    sentence: str
    sales_order: str


def readable_texts(value: Any, respects_labels: bool = False) -> Iterator[str]:
    """Every string in a result, in order; a label-respecting reader skips what is marked as data."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        if respects_labels and value.get("kind") == FREE_TEXT_KIND:
            return
        for item in value.values():
            yield from readable_texts(item, respects_labels)
    elif isinstance(value, list):
        for item in value:
            yield from readable_texts(item, respects_labels)


def find_instruction(texts: Iterator[str] | list[str], default_order: str) -> Instruction | None:
    """The first sentence that tells the reader to release something, and the order it names."""
    for text in texts:
        for sentence in _SENTENCE.split(text):
            if RELEASE_VERBS.search(sentence):
                order = _ORDER.search(sentence)
                return Instruction(sentence.strip(), order.group(1) if order else default_order)
    return None
