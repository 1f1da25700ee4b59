"""Scores per tool set, picker and case set: the table notebook 06 leads with.

``score_rows()`` runs every offline picker over every tool set and every case set and returns one
frozen :class:`ScoreRow` each, so the notebook, the CLI and the tests read the same figures. The
held-out column is the headline; the gap between tuning and held-out says how much a set's
wording was fitted to the cases it was written against.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tooldesign.selection.cases import SET_ORDER, case_set
from tooldesign.selection.pickers import offline_picker
from tooldesign.selection.score import SelectionResult, run_selection

__all__ = ["ScoreRow", "score_rows", "score_text", "WordingRow", "wording_rows"]


@dataclass(frozen=True)
class ScoreRow:
    tool_set: str
    picker: str
    case_set: str
    right: int
    total: int
    declined: int
    no_call: int

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 0.0

    def per_18(self) -> float:
        """The score on the scale of an 18-request test, for comparing sets of other sizes."""
        return 18 * self.share


def _row(result: SelectionResult, picker: str, cases: str) -> ScoreRow:
    declined, asked = result.declined
    return ScoreRow(result.set_name, picker, cases, result.right, result.total, declined, asked)


def score_rows(
    tool_sets: Sequence[str] = ("mirror", "designed"),
    pickers: Sequence[str] = ("words", "bm25"),
    case_sets: Sequence[str] = SET_ORDER,
) -> list[ScoreRow]:
    """One row per (tool set, picker, case set), offline pickers only."""
    from tooldesign.tools import tool_set

    rows = []
    for set_name in tool_sets:
        tools = tool_set(set_name)
        for picker_name in pickers:
            picker = offline_picker(picker_name)
            for cases_name in case_sets:
                result = run_selection(picker, tools, case_set(cases_name).cases, set_name)
                rows.append(_row(result, picker_name, cases_name))
    return rows


def score_text(rows: Sequence[ScoreRow]) -> str:
    """A plain table: one line per tool set and picker, one column per case set."""
    names = list(dict.fromkeys(r.case_set for r in rows))
    width = max([9, *(len(r.tool_set) for r in rows)])
    lines = [f"{'tool set':<{width}} {'picker':<6} " + " ".join(f"{n:>18}" for n in names)]
    for key in dict.fromkeys((r.tool_set, r.picker) for r in rows):
        cells = {r.case_set: r for r in rows if (r.tool_set, r.picker) == key}
        lines.append(
            f"{key[0]:<{width}} {key[1]:<6} "
            + " ".join(f"{f'{c.right}/{c.total} ({c.share:.0%})':>18}" for c in (cells[n] for n in names))
        )
    return "\n".join(lines)


@dataclass(frozen=True)
class WordingRow:
    """One wording of the same tools: what it costs per call and across a loop, and what the linter says."""

    tool_set: str
    tokens_per_call: int  # an estimate (characters / 4) of the definitions sent with every model call
    steps: int
    findings: int
    longest_words: int  # words in the longest description

    @property
    def loop_tokens(self) -> int:
        """Definitions sent again on each of ``steps`` model calls of one task."""
        return self.tokens_per_call * self.steps


def wording_rows(
    tool_sets: Sequence[str] = ("designed-keyword-stuffed", "designed"), steps: int = 10
) -> list[WordingRow]:
    """Cost and lint per wording: the half of notebook 06's side-by-side that no picker is needed for."""
    from tooldesign.lint import lint, word_count
    from tooldesign.tools import tool_set

    rows = []
    for name in tool_sets:
        tools = tool_set(name)
        report = lint(tools)
        longest = max(word_count(t.description) for t in tools)
        rows.append(WordingRow(name, report.tokens, steps, report.count, longest))
    return rows
