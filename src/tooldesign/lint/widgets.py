"""The description workbench: edit one tool's description, see lint and the selection score move.

``workbench_update()`` is the whole logic and a pure function: it swaps in the edited description,
lints the set and re-runs the selection test. ``description_workbench()`` wraps it in a text area
that updates as you type. A benchmark (benchmarks/bench_workbench.py) keeps one update well
under 50 ms, fast enough to feel live.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tooldesign import access
from tooldesign.lint import Finding, lint
from tooldesign.selection import ALL_CASES, Case, Picker, WordMatchPicker, run_selection
from tooldesign.tools.base import ToolSet
from tooldesign.wording import count

__all__ = ["WorkbenchState", "with_description", "workbench_update", "render_state", "description_workbench"]


@dataclass(frozen=True)
class WorkbenchState:
    tool: str
    findings: tuple[Finding, ...]  # the edited tool's findings, and set findings that name it
    total_findings: int  # over the whole set
    right: int  # tool requests right (headline score)
    total: int
    all_right: bool  # every request right, no-call ones included
    wrong: tuple[tuple[str, str], ...]  # (request, what was picked) for every miss
    tokens: int  # definitions of the whole set, an estimate (characters / 4)


def with_description(tools: ToolSet, tool_name: str, description: str) -> ToolSet:
    """The same set with one tool's description replaced; the original is left untouched."""
    edited = replace(tools[tool_name], description=description)
    return ToolSet(tools.name, tuple(edited if t.name == tool_name else t for t in tools))


def workbench_update(
    tools: ToolSet,
    tool_name: str,
    description: str,
    picker: Picker | None = None,
    cases: Sequence[Case] = ALL_CASES,
) -> WorkbenchState:
    """Lint the edited set and re-score it: what one keystroke in the workbench shows."""
    edited = with_description(tools, tool_name, description)
    report = lint(edited)
    mine = tuple(
        f for f in report.findings if f.tool == tool_name or (f.tool is None and tool_name in f.message)
    )
    result = run_selection(picker or WordMatchPicker(), edited, cases)
    wrong = tuple((row.case.request, row.chosen) for row in result.rows if not row.right)
    return WorkbenchState(
        tool_name, mine, report.count, result.right, result.total, result.all_right, wrong, report.tokens
    )


def render_state(state: WorkbenchState) -> str:
    """The state as a few plain lines: findings first, then the score and the misses."""
    lines = [
        f"{state.tool}: {count(len(state.findings), 'finding')}; whole set {state.total_findings}, "
        f"definitions about {state.tokens} tokens (estimate)"
    ]
    lines += [f"  [{f.rule}] {f.message}" for f in state.findings]
    lines.append(
        f"selection: {state.right}/{state.total} right"
        + ("" if state.all_right else f", {len(state.wrong)} miss(es)")
    )
    lines += [f"  WRONG {picked:<31} <- {request}" for request, picked in state.wrong]
    return "\n".join(lines)


def description_workbench(
    tools: ToolSet | None = None,
    tool_name: str = "sales_order_get_block_summary",
    picker: Picker | None = None,
) -> Any:
    """A text area holding one tool's description; findings and score update as you type."""
    import ipywidgets as widgets

    from tooldesign.tools import tool_set

    tools = tools or tool_set("designed")
    picker = picker or WordMatchPicker()
    choose = widgets.Dropdown(options=tools.names, value=tool_name, description="tool")
    text = widgets.Textarea(
        value=tools[tool_name].description, layout=widgets.Layout(width="100%", height="9em")
    )
    out = widgets.HTML()

    def refresh(*_: Any) -> None:
        state = workbench_update(tools, choose.value, text.value, picker)
        out.value = access.readout_html(render_state(state))

    def switch(change: dict) -> None:
        text.value = tools[change["new"]].description  # triggers refresh through the text area
        refresh()

    text.observe(refresh, names="value")
    choose.observe(switch, names="value")
    refresh()
    return widgets.VBox([choose, text, out])
