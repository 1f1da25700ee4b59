"""The request tester: type a clerk's request, see each set's ranked choices and why.

``explain_request()`` is the logic, a pure function over any offline picker that ranks (both
the word stand-in and BM25 do); ``request_tester()`` wraps it in a text box.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Mapping

from tooldesign.selection import Picker, WordMatchPicker
from tooldesign.tools.base import ToolSet

__all__ = ["SetExplanation", "explain_request", "render_explanations", "request_tester"]


@dataclass(frozen=True)
class SetExplanation:
    set_name: str
    chosen: str | None
    why: str
    ranking: tuple[tuple[str, float, tuple[str, ...]], ...]  # (tool, score, shared words), best first


def explain_request(request: str, sets: Mapping[str, ToolSet] | None = None, picker: Picker | None = None,
                    top: int = 3) -> list[SetExplanation]:
    """For each set: the picked tool, the picker's reason and the ``top`` ranked tools."""
    if sets is None:
        from tooldesign.tools import SET_NAMES, tool_set
        sets = {name: tool_set(name) for name in SET_NAMES}
    picker = picker or WordMatchPicker()
    out = []
    for name, tools in sets.items():
        choice = picker.pick(request, tools)
        ranking = tuple((tool, score, choice.matched.get(tool, ())) for tool, score in choice.ranking[:top])
        out.append(SetExplanation(name, choice.tool, choice.why, ranking))
    return out


def render_explanations(explanations: list[SetExplanation]) -> str:
    lines = []
    for e in explanations:
        lines.append(f"{e.set_name}: {e.chosen or '(no call)'}  ({e.why})")
        lines += [f"   {score:>6.2f}  {tool:<31} {', '.join(words) or '-'}" for tool, score, words in e.ranking]
    return "\n".join(lines)


def request_tester(request: str = "Why is order 4711 on hold?", sets: Mapping[str, ToolSet] | None = None,
                   picker: Picker | None = None) -> Any:
    """A text box for a request; each set's ranked choices update as you type."""
    import ipywidgets as widgets

    if sets is None:
        from tooldesign.tools import SET_NAMES, tool_set
        sets = {name: tool_set(name) for name in SET_NAMES}
    picker = picker or WordMatchPicker()
    box = widgets.Text(value=request, description="request", layout=widgets.Layout(width="100%"))
    out = widgets.HTML()

    def refresh(*_: Any) -> None:
        out.value = f"<pre>{html.escape(render_explanations(explain_request(box.value, sets, picker)))}</pre>"

    box.observe(refresh, names="value")
    refresh()
    return widgets.VBox([box, out])
