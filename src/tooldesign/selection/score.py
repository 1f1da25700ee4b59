"""Run the selection test: each request through a picker, each choice judged against the case.

The score is the share of requests whose first call is right. It measures the definitions, not
the model: with the same picker, a set whose names and descriptions separate the jobs scores
higher. The test is deliberately simple, so the gap between two sets is the lesson, not the digits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tooldesign.selection.cases import ALL_CASES, Case, expected_for
from tooldesign.selection.pickers import PickedTool, Picker
from tooldesign.tools.base import Tool, ToolSet

__all__ = ["SelectionRow", "SelectionResult", "judge", "run_selection"]


@dataclass(frozen=True)
class SelectionRow:
    """One request of the selection test: what the picker chose and whether the case calls it right."""

    case: Case
    expected: tuple[str, ...] | None
    choice: PickedTool
    right: bool

    @property
    def chosen(self) -> str:
        return self.choice.tool or "(no call)"

    def line(self, width: int = 31) -> str:
        note = "  (this set has no safe tool for it)" if self.expected is None else ""
        return f"  {'right' if self.right else 'WRONG'}  {self.chosen:<{width}} <- {self.case.request}{note}"


def judge(expected: tuple[str, ...] | None, chosen: str | None) -> bool:
    """Right when the set has an answer and the choice is it: a listed tool, or no call for ()."""
    if expected is None:
        return False
    return chosen is None if expected == () else chosen in expected


@dataclass(frozen=True)
class SelectionResult:
    set_name: str
    picker: str
    rows: tuple[SelectionRow, ...]

    def _count(self, no_call: bool) -> tuple[int, int]:
        rows = [r for r in self.rows if r.case.no_call == no_call]
        return sum(r.right for r in rows), len(rows)

    @property
    def right(self) -> int:
        """Right first calls over the tool requests (the headline score)."""
        return self._count(False)[0]

    @property
    def total(self) -> int:
        return self._count(False)[1]

    @property
    def declined(self) -> tuple[int, int]:
        """(right, total) over the requests no tool should serve."""
        return self._count(True)

    @property
    def all_right(self) -> bool:
        return all(r.right for r in self.rows)

    def summary(self) -> str:
        text = f"{self.set_name:<9} {self.right}/{self.total} right"
        declined, asked = self.declined
        return text + (f", {declined}/{asked} no-call requests declined" if asked else "")

    def format(self) -> str:
        return "\n".join([f"== {self.set_name}  [{self.picker}]", *(r.line() for r in self.rows)])


def run_selection(
    picker: Picker,
    tools: ToolSet | Sequence[Tool],
    cases: Sequence[Case] = ALL_CASES,
    set_name: str | None = None,
) -> SelectionResult:
    """Ask ``picker`` for the first tool of every case and judge each answer.

    ``set_name`` picks the expected answers (defaults to the tool set's name), so a renamed or
    extended set can reuse the cases written for its base set.
    """
    name = set_name if set_name else getattr(tools, "name", "tools")
    tool_list = tools if hasattr(tools, "names") else list(tools)
    rows = []
    for case in cases:
        expected = expected_for(case, name)
        choice = picker.pick(case.request, tool_list)
        rows.append(SelectionRow(case, expected, choice, judge(expected, choice.tool)))
    return SelectionResult(name, picker.label, tuple(rows))
