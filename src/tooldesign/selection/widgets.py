"""The request tester: type a clerk's request, see each set's ranked choices and why.

``explain_request()`` is the logic, a pure function over any offline picker that ranks (both
the word stand-in and BM25 do); ``request_tester()`` wraps it in a text box.
``vocabulary_gap()`` says which of the request's words no tool set uses at all. When none of them
is known, the request is outside every set's vocabulary: an offline stand-in can only decline or
guess, and its pick says nothing about the definitions. A model may still understand it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tooldesign import access
from tooldesign.selection import Picker, WordMatchPicker, tool_text, words
from tooldesign.tools.base import ToolSet

__all__ = [
    "SetExplanation",
    "VocabularyGap",
    "explain_request",
    "vocabulary_gap",
    "render_explanations",
    "request_tester",
]


@dataclass(frozen=True)
class SetExplanation:
    set_name: str
    chosen: str | None
    why: str
    ranking: tuple[tuple[str, float, tuple[str, ...]], ...]  # (tool, score, shared words), best first


@dataclass(frozen=True)
class VocabularyGap:
    """The request's words (as the stand-ins cut them), and those no tool set's definitions use."""

    words: tuple[str, ...]
    unknown: tuple[str, ...]

    @property
    def outside_every_set(self) -> bool:
        return bool(self.words) and len(self.unknown) == len(self.words)

    def note(self) -> str:
        if not self.words:
            return "no words the stand-ins can read (they drop digits and small words)"
        if self.outside_every_set:
            return (
                "outside every set's vocabulary: no tool set uses any of "
                + ", ".join(self.unknown)
                + ". A stand-in can only decline here; what a model does is a separate question."
            )
        if self.unknown:
            return "words no set uses (the stand-ins ignore them): " + ", ".join(self.unknown)
        return "every word of the request appears in some set's definitions"


def _sets(sets: Mapping[str, ToolSet] | None) -> Mapping[str, ToolSet]:
    if sets is None:
        from tooldesign.tools import SET_NAMES, tool_set

        return {name: tool_set(name) for name in SET_NAMES}
    return sets


def vocabulary_gap(request: str, sets: Mapping[str, ToolSet] | None = None) -> VocabularyGap:
    """Which words of ``request`` appear in no tool's name or description in any of ``sets``."""
    known: set[str] = set()
    for tools in _sets(sets).values():
        for tool in tools:
            known.update(words(tool_text(tool, tools)))
    asked = tuple(dict.fromkeys(words(request)))
    return VocabularyGap(asked, tuple(w for w in asked if w not in known))


def explain_request(
    request: str, sets: Mapping[str, ToolSet] | None = None, picker: Picker | None = None, top: int = 3
) -> list[SetExplanation]:
    """For each set: the picked tool, the picker's reason and the ``top`` ranked tools."""
    sets = _sets(sets)
    picker = picker or WordMatchPicker()
    out = []
    for name, tools in sets.items():
        choice = picker.pick(request, tools)
        ranking = tuple((tool, score, choice.matched.get(tool, ())) for tool, score in choice.ranking[:top])
        out.append(SetExplanation(name, choice.tool, choice.why, ranking))
    return out


def render_explanations(explanations: list[SetExplanation], gap: VocabularyGap | None = None) -> str:
    lines = [f"vocabulary: {gap.note()}"] if gap is not None else []
    for e in explanations:
        lines.append(f"{e.set_name}: {e.chosen or '(no call)'}  ({e.why})")
        lines += [
            f"   {score:>6.2f}  {tool:<31} {', '.join(words) or '-'}" for tool, score, words in e.ranking
        ]
    return "\n".join(lines)


def request_tester(
    request: str = "Why is order 4711 on hold?",
    sets: Mapping[str, ToolSet] | None = None,
    picker: Picker | None = None,
) -> Any:
    """A text box for a request; each set's ranked choices update as you type."""
    import ipywidgets as widgets

    sets = _sets(sets)
    picker = picker or WordMatchPicker()
    box = widgets.Text(value=request, description="request", layout=widgets.Layout(width="100%"))
    out = widgets.HTML()

    def refresh(*_: Any) -> None:
        text = render_explanations(explain_request(box.value, sets, picker), vocabulary_gap(box.value, sets))
        out.value = access.readout_html(text)

    box.observe(refresh, names="value")
    refresh()
    return widgets.VBox([box, out])
