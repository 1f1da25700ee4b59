"""Pickers: something that reads a request and a tool set and names the first tool to call.

Every picker, offline or a real model, has the same small interface (``Picker``), so the
selection test, the widgets and later lessons can swap one for another:

* ``WordMatchPicker``: a crude stand-in. It counts words shared by the request and each tool's
  name and description. Meaning is beyond it; what it demonstrates is that a definition's
  wording is the only evidence a picker has.
* ``BM25Picker``: ranks tools with BM25 (rank_bm25), the scoring behind many search engines and
  a common way to let an agent search a large tool set. Still offline, still no understanding.
* real models (``tooldesign.selection.models``): send the definitions and read the first call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from tooldesign.tools.base import Tool, ToolSet
from tooldesign.wording import count

__all__ = [
    "PickedTool",
    "Picker",
    "WordMatchPicker",
    "BM25Picker",
    "words",
    "tool_text",
    "STOP_WORDS",
    "offline_picker",
    "OFFLINE_PICKERS",
]


@dataclass(frozen=True)
class PickedTool:
    """What a picker decided for one request.

    ``tool`` is the name of the first tool to call, or None for "no call". ``ranking`` lists
    (tool name, score) best first when the picker scores every tool (offline pickers do; a
    model does not). ``why`` is one line a learner can read. A real model also reports
    ``input_tokens`` (as its API counted them) and ``latency_s`` (seconds for the call); offline
    pickers leave both None.
    """

    tool: str | None
    ranking: tuple[tuple[str, float], ...] = ()
    why: str = ""
    matched: dict[str, tuple[str, ...]] = field(default_factory=dict)  # tool -> shared words, if known
    input_tokens: int | None = None
    latency_s: float | None = None


@runtime_checkable
class Picker(Protocol):
    """The one interface every picker has.

    ``label``: a short name shown beside every score, e.g. "word-matching stand-in (crude)";
    offline stand-ins say plainly that they are stand-ins.
    ``offline``: True when the picker needs no network and no key, so tests and notebooks may
    run it anywhere.
    ``pick(request, tools)``: the first tool to call for ``request`` among ``tools`` (a
    ToolSet or any sequence of Tool), as a :class:`PickedTool`; ``PickedTool.tool`` is None when no tool
    fits. It must not change ``tools`` and must not call any tool.
    """

    label: str
    offline: bool

    def pick(self, request: str, tools: ToolSet | Sequence[Tool]) -> PickedTool: ...


STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "be",
        "been",
        "of",
        "for",
        "to",
        "and",
        "or",
        "it",
        "its",
        "this",
        "that",
        "what",
        "which",
        "how",
        "why",
        "who",
        "does",
        "do",
        "did",
        "in",
        "on",
        "at",
        "with",
        "by",
        "from",
        "as",
        "me",
        "my",
        "we",
        "our",
        "us",
        "you",
        "your",
        "i",
        "please",
        "can",
        "could",
        "would",
        "should",
        "will",
        "has",
        "have",
        "had",
        "any",
        "one",
        "only",
        "when",
        "whether",
        "there",
        "their",
        "them",
        "they",
        "get",
        "now",
        "if",
        "not",
        "no",
        "use",
        "because",
        "so",
    ]
)


def words(text: str) -> list[str]:
    """Lower-case words without stop words or digits, cut to five letters so that "orders" meets
    "order" and "released" meets "release". Crude on purpose: it is a stand-in's tokenizer."""
    text = re.sub(r"['’]s\b", "", text.lower())  # "customer's" -> "customer"
    return [w[:5] for w in re.findall(r"[a-z]+", text) if w not in STOP_WORDS]


def tool_text(tool: Tool, tools: ToolSet | Sequence[Tool]) -> str:
    """The words a stand-in may match for ``tool``: its name and description, without the
    sentences that name another tool (they describe the neighbour's job).

    One rule for every tool set and every lesson: a word matcher cannot read "not", so it would
    count the words of "Not for X (use other_tool)" as this tool's own. The price is that a
    boundary clause is invisible to the stand-ins, and its effect can only be measured with a
    real model; notebook 11 says so."""
    others = [t.name for t in tools if t.name != tool.name]
    kept = [s for s in re.split(r"(?<=[.!?])\s+", tool.description) if not any(n in s for n in others)]
    return tool.name.replace("_", " ").replace("-", " ") + " " + " ".join(kept)


class WordMatchPicker:
    """A crude word-matching stand-in for a model, not a model.

    Score = how many distinct request words also occur in the tool's name and description;
    the highest score wins, ties go to the tool listed first, and no shared word means no call.
    """

    label = "word-matching stand-in (crude, not a model)"
    offline = True

    def __init__(self) -> None:
        self._cache: dict[tuple, list[set[str]]] = {}

    def _vocabularies(self, tools: ToolSet | Sequence[Tool]) -> list[set[str]]:
        # tool_text looks at every other tool's name, so build the words once per set, not per request.
        key = tuple((t.name, t.description) for t in tools)
        if key not in self._cache:
            self._cache = {key: [set(words(tool_text(t, tools))) for t in tools]}  # one set at a time
        return self._cache[key]

    def pick(self, request: str, tools: ToolSet | Sequence[Tool]) -> PickedTool:
        asked = set(words(request))
        scored = []
        matched: dict[str, tuple[str, ...]] = {}
        for index, (tool, vocabulary) in enumerate(zip(tools, self._vocabularies(tools))):
            shared = asked & vocabulary
            matched[tool.name] = tuple(sorted(shared))
            scored.append((len(shared), -index, tool.name))
        scored.sort(reverse=True)
        ranking = tuple((name, float(score)) for score, _, name in scored)
        if not scored or scored[0][0] == 0:
            return PickedTool(None, ranking, "no tool shares a word with the request: no call", matched)
        best = scored[0][2]
        return PickedTool(
            best, ranking, f"shares {count(len(matched[best]), 'word')}: {', '.join(matched[best])}", matched
        )


class BM25Picker:
    """Ranks tools by BM25 over their names and descriptions (rank_bm25's BM25Okapi).

    BM25 weighs rare words above common ones and long descriptions below short ones, so it is a
    fairer stand-in than counting words, and it is what a simple tool search would use. A score
    of ``min_score`` or less means no tool fits: no call.
    """

    label = "BM25 ranker (offline, not a model)"
    offline = True

    def __init__(self, min_score: float = 0.0) -> None:
        self.min_score = min_score
        self._cache: dict[tuple, object] = {}

    def _index(self, tools: ToolSet | Sequence[Tool]):
        key = tuple((t.name, t.description) for t in tools)
        if key not in self._cache:
            from rank_bm25 import BM25Okapi

            docs = [words(tool_text(t, tools)) or ["_"] for t in tools]
            self._cache = {key: (BM25Okapi(docs), docs)}  # keep one: a widget edits one set at a time
        return self._cache[key]

    def pick(self, request: str, tools: ToolSet | Sequence[Tool]) -> PickedTool:
        tools = list(tools)
        if not tools:
            return PickedTool(None, (), "the set is empty: no call")
        bm25, docs = self._index(tools)
        query = words(request)
        scores = bm25.get_scores(query) if query else [0.0] * len(tools)
        order = sorted(range(len(tools)), key=lambda i: (-scores[i], i))
        ranking = tuple((tools[i].name, round(float(scores[i]), 3)) for i in order)
        matched = {t.name: tuple(sorted(set(query) & set(d))) for t, d in zip(tools, docs)}
        best = order[0]
        if scores[best] <= self.min_score:
            return PickedTool(None, ranking, "no tool scores above zero: no call", matched)
        name = tools[best].name
        return PickedTool(
            name, ranking, f"BM25 {scores[best]:.2f}, on {', '.join(matched[name]) or '-'}", matched
        )


OFFLINE_PICKERS = {"words": WordMatchPicker, "bm25": BM25Picker}


def offline_picker(name: str) -> Picker:
    """An offline picker by name: "words" (the crude stand-in) or "bm25"."""
    if name not in OFFLINE_PICKERS:
        raise ValueError(f"unknown picker {name!r}; choose one of {', '.join(OFFLINE_PICKERS)}")
    return OFFLINE_PICKERS[name]()
