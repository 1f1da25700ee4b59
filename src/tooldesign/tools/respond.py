"""Side by side: what each tool set hands back to the model for the same five questions.

A result is not read once: it stays in the conversation and is re-sent on every later step, so
its size is a running cost and its wording is what the model reasons with. ``compare()`` runs
the five pairs against fresh tool sets and returns one row per call with the result and its size
in characters; ``plot_sizes()`` draws them as a bar chart. The CLI's ``respond`` prints the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tooldesign import palette
from tooldesign.tools.base import ToolSet, result_size

__all__ = [
    "Call",
    "Pair",
    "Response",
    "PAIRS",
    "JUSTIFICATION",
    "bar_labels",
    "compare",
    "format_response",
    "plot_sizes",
]

JUSTIFICATION = (
    "Exposure is 52,500 EUR, 5% over the 50,000 EUR limit; the customer has paid every invoice "
    "on time this year."
)

# What a mirrored "release" amounts to: blank every block field of the order.
CLEAR_BLOCKS = {"TotalCreditCheckStatus": "", "DeliveryBlockReason": "", "HeaderBillingBlockReason": ""}


@dataclass(frozen=True)
class Call:
    set_name: str  # "mirror" or "designed"
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Pair:
    title: str
    calls: tuple[Call, ...]


PAIRS: tuple[Pair, ...] = (
    Pair(
        "Read order 4711, which the credit check holds",
        (
            Call("mirror", "get_order", {"id": "4711"}),
            Call("designed", "sales_order_get_block_summary", {"sales_order": "4711", "detail": "concise"}),
        ),
    ),
    Pair(
        'The same order, written "SO-4711"',
        (
            Call("mirror", "get_order", {"id": "SO-4711"}),
            Call(
                "designed", "sales_order_get_block_summary", {"sales_order": "SO-4711", "detail": "concise"}
            ),
        ),
    ),
    Pair(
        "Credit of customer 10023, with order 4711",
        (
            Call("mirror", "get_credit", {"id": "10023"}),
            Call("designed", "customer_get_credit_exposure", {"customer": "10023", "sales_order": "4711"}),
        ),
    ),
    Pair(
        "All orders of customer 10023",
        (
            Call("mirror", "query", {"entity": "A_SalesOrder", "filter": "SoldToParty eq '10023'"}),
            Call(
                "designed", "sales_order_search", {"customer": "10023", "blocked_only": False, "limit": None}
            ),
        ),
    ),
    Pair(
        "Release order 4711, asked twice",
        (
            Call("mirror", "update_order", {"id": "4711", "fields": CLEAR_BLOCKS}),
            Call(
                "designed", "release_request_create", {"sales_order": "4711", "justification": JUSTIFICATION}
            ),
            Call(
                "designed", "release_request_create", {"sales_order": "4711", "justification": JUSTIFICATION}
            ),
        ),
    ),
)


@dataclass(frozen=True)
class Response:
    pair: str
    call: Call
    result: Any

    @property
    def size(self) -> int:
        """Characters of the serialised result: what re-enters the model's context."""
        return result_size(self.result)

    @property
    def is_error(self) -> bool:
        return isinstance(self.result, dict) and "error" in self.result


def compare(sets: dict[str, ToolSet] | None = None, pairs: tuple[Pair, ...] = PAIRS) -> list[Response]:
    """Run every call of every pair, in order, on ``sets`` (fresh mirror and designed sets by default).

    Fresh sets matter for pair 5: the draft store starts empty, so the first call creates the
    draft and the second returns it.
    """
    if sets is None:
        from tooldesign.tools import tool_set

        sets = {"mirror": tool_set("mirror"), "designed": tool_set("designed")}
    return [
        Response(pair.title, call, sets[call.set_name][call.tool].run(call.arguments))
        for pair in pairs
        for call in pair.calls
    ]


def format_response(response: Response, width: int = 220) -> str:
    """Two lines: the call, then its size and the start of the result (cut at ``width``)."""
    text = json.dumps(response.result, ensure_ascii=False)
    shown = text if len(text) <= width else f"{text[:width]}... (+{len(text) - width} characters)"
    call = response.call
    return (
        f"  {call.set_name:<8} {call.tool}({json.dumps(call.arguments, ensure_ascii=False)})\n"
        f"           -> {response.size} characters: {shown}"
    )


def bar_labels(responses: list[Response]) -> list[str]:
    """One label per call: the question's number and the tool, and which call it is when a tool repeats."""
    numbers: dict[str, int] = {}
    seen: dict[tuple[str, str], int] = {}
    labels = []
    for r in responses:
        number = numbers.setdefault(r.pair, len(numbers) + 1)
        count = seen[(r.pair, r.call.tool)] = seen.get((r.pair, r.call.tool), 0) + 1
        labels.append(f"{number}. {r.call.tool}" + ("" if count == 1 else f" (call {count})"))
    return labels


def plot_sizes(responses: list[Response], ax: Any = None) -> Any:
    """A horizontal bar chart of result sizes, the questions numbered in order; returns the axes."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4))
    colors = {"mirror": palette.BAD, "designed": palette.GOOD}
    positions = list(range(len(responses)))[::-1]
    ax.barh(
        positions, [r.size for r in responses], color=[colors.get(r.call.set_name, "grey") for r in responses]
    )
    ax.set_yticks(positions, bar_labels(responses), fontsize=8)
    ax.set_xlabel("result size (characters)")
    ax.set_ylabel("question and tool called")
    ax.set_title(
        f"What each call returns to the model: {len({r.pair for r in responses})} questions, "
        f"{len(responses)} calls"
    )
    ax.legend(handles=[Patch(color=c, label=name) for name, c in colors.items()], loc="lower right")
    for y, r in zip(positions, responses):
        ax.text(r.size, y, f" {r.size:,}", va="center", fontsize=8)
    ax.margins(x=0.12)
    return ax
